from __future__ import annotations

import re

import pytest

from krosbalance.content.registry import load_board
from krosbalance.play import play_match
from krosbalance.render.frames import build_replay
from tests.render.replays import EXPERIMENTS, played

CASES = [
    (kind, index) for kind in EXPERIMENTS for index in (0, 1) if not (kind in ("arena-2v2", "duel") and index)
]


@pytest.mark.parametrize(("kind", "index"), CASES)
def test_hp_after_every_step_agrees_with_the_engine(kind: str, index: int, replay_folder: str) -> None:
    """Counted from the events, every piece's square and HP equal the engine's at each turn end
    (the checkpoints) and its final state; the last frame shows the engine's last HP."""
    spec, result = played(kind, index, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    assert replay.mismatches == []
    engine_final = {p[0]: (p[7] - p[8]) for p in result.checkpoints[-1].pieces if p[9] and p[6] >= 0}
    shown_final = {uid: hp for uid, cell, hp, _max in replay.frames[-1]["pieces"]}
    assert shown_final == engine_final
    assert len(replay.frames) > 10
    injured = [f for f in replay.frames if any("injur" in line for line in f["text"])]
    assert injured, "a whole match without an injury"
    assert any(line.startswith("Match over") for line in replay.frames[-1]["text"])


def test_an_injury_line_names_the_figure_its_square_and_the_hp_left(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    lines = [line for f in replay.frames for line in f["text"] if " injur" in line]
    assert lines and all(
        re.search(r"\([A-L]\d{1,2}\) takes \d+ \w+ injur(y|ies).*: \d+/\d+ HP$", x) for x in lines
    )


def test_arena_turn_ends_show_every_seat_gg_and_kamas(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    ends = [line for f in replay.frames for line in f["text"] if line.startswith("End of turn")]
    assert len(ends) >= result.turns - 1
    assert all(re.fullmatch(r"End of turn \d+: GG \d+ / \d+, kamas \d+ / \d+", line) for line in ends)
    final = replay.frames[-1]["holdings"]
    assert [dict(items)["GG"] for items in final] == list(result.values["gg"])
    assert [dict(items)["kamas"] for items in final] == list(result.values["kamas"])


def test_blast_frames_hold_glyphs_and_favors(replay_folder: str) -> None:
    spec, result = played("blast", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    final = replay.frames[-1]["holdings"]
    assert [dict(items)["glyphs"] for items in final] == list(result.values["glyphs"])
    assert [dict(items)["favors used"] for items in final] == list(result.values["favors_used"])
    assert any(f["marks"].get("glyph") for f in replay.frames)


def test_four_player_seats_and_partnerships(replay_folder: str) -> None:
    spec, result = played("arena-2v2", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    assert [s["partnership"] for s in replay.seats] == list(result.partnerships)
    assert all(len(f["holdings"]) == 4 for f in replay.frames)


def test_a_walk_is_one_step_and_dice_show_their_faces(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    walks = [f for f in replay.frames if f["kind"] == "walk"]
    assert any(f["text"][0].count("→") > 1 for f in walks)
    moved = sum(1 for e in result.events if e.kind == "moved" and e.how == "walk")
    assert len(walks) < moved
    faces = {face for f in replay.frames for roll in f["dice"] for face in roll["faces"]}
    assert faces and faces <= {"critical", "armour", "lock", "dodge", "critical/dodge", "dofus"}
    acting = [f for f in replay.frames if f["actor"] is not None]
    assert acting and all(f["mp"] is not None and f["ap"] is not None for f in acting)


def test_a_match_without_full_record_has_no_frames() -> None:
    from krosbalance.content.registry import list_characters

    team = list_characters("krosmaster", set="arena-box")[:4]
    result = play_match(team, team, record="summary")
    assert result.checkpoints == []
    with pytest.raises(ValueError, match="record='full'"):
        build_replay(result, load_board(result.board))
