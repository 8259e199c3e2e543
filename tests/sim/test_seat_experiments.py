"""Experiments of more than two seats: table team modes, rotations round the table, the seat columns
of the matches table, the refusals (four-player Arena, R-A150-R-A159, as the experiment sees it)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pytest

from krosbalance.content.registry import list_characters
from krosbalance.errors import ExperimentError
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim.experiment import expand, loads_experiment
from krosbalance.sim.runner import read_table, run_experiment

BOX = list_characters(set="arena-box")


def _four_player_teams() -> list[list[str]]:
    legal = get_ruleset("arena", {"mode": "free_for_all"}).all_teams(sorted(set(BOX)))
    return [list(team) for team in legal[:4]]


def _text(
    mode: str = "free_for_all",
    teams: str = "",
    ais: str = '["focus_fire", "kiter", "objective", "random"]',
    extra: str = "",
) -> str:
    teams = teams or 'mode = "random_tables"\npool = { set = "arena-box" }'
    return (
        textwrap.dedent(
            f"""
        name = "four"
        master_seed = 5
        matches_per_pairing = 2
        boards = ["arena-pit"]
        ais = [{ais}]
        {extra}
        [options]
        mode = "{mode}"
        turn_limit = 24
        [teams]
        """
        )
        + teams
    )


def test_random_tables_play_every_rotation_of_each_deal_on_one_seed() -> None:
    specs = expand(loads_experiment(_text()))
    assert len(specs) == 2 * 4  # deals x rotations
    for deal in (0, 1):
        rotations = [s for s in specs if s.deal == deal]
        assert sorted(s.rotation for s in rotations) == [0, 1, 2, 3]
        assert len({s.seed for s in rotations}) == 1 and len({s.table for s in rotations}) == 1
        for s in rotations:
            assert s.teams == tuple(s.table[(seat + s.rotation) % 4] for seat in range(4))
            assert (s.team0, s.team1, s.ai0, s.ai1) == (s.teams[0], s.teams[1], s.ais[0], s.ais[1])
            # the AI follows its team round the table
            assert s.ais == tuple(s.table_ais[(seat + s.rotation) % 4] for seat in range(4))


def test_explicit_tables_must_seat_one_legal_team_per_player() -> None:
    teams = _four_player_teams()
    good = 'mode = "tables"\ntables = [' + ", ".join([str(teams)]) + "]"
    assert len(expand(loads_experiment(_text(teams=good)))) == 2 * 4
    short = 'mode = "tables"\ntables = [' + str(teams[:3]) + "]"
    with pytest.raises(ExperimentError, match="teams.tables"):
        loads_experiment(_text(teams=short))
    illegal = 'mode = "tables"\ntables = [' + str([BOX[:4], *teams[1:]]) + "]"
    with pytest.raises(ExperimentError, match="R-A150"):
        loads_experiment(_text(teams=illegal))


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
def test_r_a154_board_choice_in_a_four_player_experiment_is_player_fours(mode: str) -> None:
    """R-A154: with four players, player 4 (the last in play order) chooses the board; an experiment
    with ``board_choice`` plays it (it was refused), each match on the board its own seating's
    player 4 picks, seeded: the same file expands to the same boards."""
    from krosbalance.play import pick_board
    from krosbalance.sim.catalog import arm_ruleset

    boards = '["arena-pit", "bonta-1", "arena-elemental"]'
    text = _text(mode, extra="board_choice = true").replace('["arena-pit"]', boards)
    experiment = loads_experiment(text)
    specs = expand(experiment)
    assert len(specs) == 2 * 4 and experiment.board_groups == (("arena-pit", "bonta-1", "arena-elemental"),)
    rules = arm_ruleset("arena", specs[0].options_json)
    for spec in specs:
        expected = pick_board(experiment.boards, *spec.teams, ai=spec.ais, seed=spec.seed, ruleset=rules)
        assert spec.board == expected
    assert [s.board for s in expand(loads_experiment(text))] == [s.board for s in specs]
    assert {s.board for s in specs} <= set(experiment.boards)


def test_r_a154_validate_plays_a_four_player_board_choice(tmp_path: Path, capsys) -> None:
    from krosbalance.cli import main

    source = tmp_path / "four.toml"
    text = _text(extra="board_choice = true").replace('["arena-pit"]', '["arena-pit", "bonta-1"]')
    source.write_text(text, encoding="utf-8")
    assert main(["validate", str(source)]) == 0, capsys.readouterr().err


def test_four_seats_refuse_two_player_features_with_one_clear_message() -> None:
    with pytest.raises(ExperimentError, match="lookahead-fast.*two-player"):
        loads_experiment(_text(ais='"lookahead-fast"'))
    with pytest.raises(ExperimentError, match="splits"):
        loads_experiment(_text(teams='mode = "splits"\npool = { set = "arena-box" }'))


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
def test_the_matches_table_names_each_seats_team_ai_and_partnership(tmp_path: Path, mode: str) -> None:
    source = tmp_path / "four.toml"
    source.write_text(_text(mode), encoding="utf-8")
    run_experiment(source, tmp_path / "out", jobs=1, progress=False)
    matches = read_table(tmp_path / "out", "matches").sort_values("match_id")
    fighters = read_table(tmp_path / "out", "fighters")
    assert len(matches) == 8 and (matches["error"] == "").all()
    assert set(matches["rotation"]) == {0, 1, 2, 3}
    expected = "0,1,2,3" if mode == "free_for_all" else "0,1,0,1"
    assert set(matches["partnerships"]) == {expected}
    for row in matches.itertuples():
        kros = fighters[(fighters["match_id"] == row.match_id) & ~fighters["is_summon"]]
        for seat in range(4):
            played = sorted(kros[kros["side"] == seat]["character"])
            assert played == sorted(getattr(row, f"team{seat}").split(",")), (row.match_id, seat)
            assert set(kros[kros["side"] == seat]["ai"]) == {getattr(row, f"ai{seat}")}
        order = [int(s) for s in row.play_order.split(",")]
        assert sorted(order) == [0, 1, 2, 3] and row.first_player == order[0]
        partners = [int(p) for p in row.partnerships.split(",")]
        if not pd.isna(row.winner):
            won = set(kros[kros["won"]]["side"])
            assert won == {s for s in range(4) if partners[s] == row.winner}
            labels = row.winner_team.split("+")
            assert len(labels) == (1 if mode == "free_for_all" else 2)


def test_the_seat_columns_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    source = tmp_path / "four.toml"
    source.write_text(_text("two_vs_two"), encoding="utf-8")
    run_experiment(source, tmp_path / "one", jobs=1, progress=False)
    run_experiment(source, tmp_path / "two", jobs=2, progress=False, batch_size=3)
    one = read_table(tmp_path / "one", "matches").sort_values("match_id").reset_index(drop=True)
    two = read_table(tmp_path / "two", "matches").sort_values("match_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(one, two)
