"""The conformance battery over Krosmaster Blast: random-AI matches on every Blast board with the state
checked before every decision (engine and Blast invariants), termination at the last favor, and the
same seed giving the same event log; 1,000 matches per Blast board under ``make battery``, a slice in
the default suite. Matches cycle through option variants (first-game rules, the advanced ones, one or
two Divine Challenges, the other tier reading) so every rule is exercised."""

from __future__ import annotations

from typing import Any

import pytest

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.content.registry import default_registry, list_boards
from krosbalance.play import play_match
from krosbalance.rulesets.blast.turn import END_REASONS
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.conformance import all_legal_teams, battery_plan, first_difference, run_checked_match

BLAST_BOARDS = list_boards("blast")
POOL = default_registry().list_characters("krosmaster", game="blast")
TEAMS = all_legal_teams(POOL, ruleset="blast")
DECK = get_ruleset("blast").opts.favor_deck_size
#: option variants the battery cycles through (match number modulo their count)
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"dice_faces": "basic", "tackle_zone": False, "superior_favors": False},
    {"challenges": ["random"]},
    {"challenges": ["random", "random"], "challenge_tier_reading": "alternative"},
    {"challenges": ["grande_melee_de_iop"], "tackle_dice_several": "per_enemy", "fire_combat_roll": True},
    {
        "challenges": ["monde_merveilleux_d_eniripsa"],
        "ice_slide_chain": False,
        "bonus_damage_combat_roll": True,
    },
)
SLICE = 24
FULL = 1000
CHUNKS = 10


def play_and_check(
    board: str, team0: tuple[str, ...], team1: tuple[str, ...], seed: int, k: int, replay: bool
) -> str:
    options = VARIANTS[k % len(VARIANTS)]
    checked = run_checked_match(team0, team1, board, seed, ruleset="blast", options=options, record="full")
    where = f"board {board}, seed {seed}, options {options}, teams {list(team0)} vs {list(team1)}"
    assert checked.end_reason in END_REASONS, where
    assert 1 <= checked.turns <= DECK, where  # R-B3: never beyond the last favor
    if checked.end_reason in ("glyphs", "glyph_draw"):
        assert checked.turns == DECK, where
        glyphs = checked.values["glyphs"]
        assert (checked.winner is None) == (glyphs[0] == glyphs[1]), where
        if checked.winner is not None:
            assert glyphs[checked.winner] > glyphs[1 - checked.winner], where
    if checked.end_reason == "ko":  # R-B2: half the loser's team is KO
        loser = 1 - (checked.winner or 0)
        kos = sum(f.stats.knocked_out for f in checked.fighters if f.side == loser and not f.is_summon)
        assert checked.winner is not None and 2 * kos >= len(team0), where
    assert checked.events and checked.events[-1].kind == "match_ended", where
    if replay:
        again = play_match(
            team0, team1, board=board, seed=seed, ruleset="blast", options=options, record="full"
        )
        assert again.events == checked.events, f"{where}: {first_difference(again.events, checked.events)}"
        assert again.values == checked.values, where
    return checked.end_reason


def test_every_blast_krosmaster_is_in_some_team_and_there_are_blast_boards() -> None:
    assert BLAST_BOARDS
    assert {name for team in TEAMS for name in team} == set(POOL)


@pytest.mark.parametrize("board", BLAST_BOARDS)
def test_blast_conformance_slice(board: str) -> None:
    for k, (team0, team1, seed) in enumerate(battery_plan(board, SLICE, teams=TEAMS)):
        play_and_check(board, team0, team1, seed, k, replay=k % 4 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("board", BLAST_BOARDS)
def test_blast_conformance_battery(board: str, chunk: int) -> None:
    """1,000 random matches per Blast board (in chunks for the parallel runner)."""
    size = FULL // CHUNKS
    ends: dict[str, int] = {}
    for i, (team0, team1, seed) in enumerate(battery_plan(board, size, start=chunk * size, teams=TEAMS)):
        reason = play_and_check(board, team0, team1, seed, chunk * size + i, replay=i % 10 == 0)
        ends[reason] = ends.get(reason, 0) + 1
    assert "turn_limit" not in ends


def _checked_matches(ai: str, search_turns: int | None) -> None:
    """Each AI on both seats, with and without Divine Challenges, on every board; a search AI (its
    reference costs seconds a match) takes one seat per variant, both seats over the variants, and
    plays ``search_turns`` game turns when given (whole matches otherwise)."""
    search = ai_tier(ai) == "search"
    for k, board in enumerate(BLAST_BOARDS):
        team0, team1, seed = battery_plan(board, 1, start=k, teams=TEAMS)[0]
        for v, variant in enumerate(({}, {"challenges": ["random", "random"]})):
            options = {**variant, "turn_limit": search_turns} if search and search_turns else variant
            seatings = [(ai, "random"), ("random", ai)]
            for seating in [seatings[(k + v) % 2]] if search else seatings:
                run_checked_match(
                    team0,
                    team1,
                    board,
                    seed,
                    ai=seating,
                    ruleset="blast",
                    options=options,
                    check_untouched=True,
                )


@pytest.mark.parametrize("ai", list_ais("blast"))
def test_every_blast_ai_passes_checked_matches_and_leaves_the_state_untouched(ai: str) -> None:
    """Whole matches for the heuristics and random; a search AI's first 2 game turns (its whole
    matches: below, ``slow``)."""
    _checked_matches(ai, search_turns=2)


@pytest.mark.slow
@pytest.mark.parametrize("ai", [name for name in list_ais("blast") if ai_tier(name) == "search"])
def test_every_blast_search_ai_passes_whole_checked_matches(ai: str) -> None:
    _checked_matches(ai, search_turns=None)
