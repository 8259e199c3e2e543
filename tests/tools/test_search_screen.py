"""Screening a variant of the mcts search (tools/search_screen.py): the knobs a user may set, the
design of the screen's matches, and a result that does not depend on the number of jobs."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from krosbalance.content.registry import list_characters
from krosbalance.errors import KrosbalanceError
from krosbalance.tools import search_screen
from krosbalance.tools.search_screen import BOARDS, KNOBS, Standing, main, parse_knobs, screen, screen_jobs

TINY = {"candidates": 2, "schedule": [1]}


def test_every_knob_is_one_mcts_takes() -> None:
    values = {
        "candidates": 2,
        "schedule": [1, 2],
        "prior": 0.25,
        "base": "kiter",
        "model": "kiter-2",
        "keep_base": True,
        "replies": ["kiter-race"],
        "alternatives": ["focus-fire", "objective"],
        "alt_plans": 2,
        "proof": 1.5,
        "confirm": 4,
        "confirm_turns": 2,
        "confirm_max": 12,
        "confirm_step": 4,
        "confirm_band": 0.5,
    }
    assert set(values) == set(KNOBS)
    knobs = parse_knobs(json.dumps(values))
    assert knobs["schedule"] == (1, 2)
    assert knobs["model"] == "kiter-2"  # a name until the worker builds the variant
    assert knobs["keep_base"] is True and knobs["replies"] == ("kiter-race",)
    assert knobs["alternatives"] == ("focus-fire", "objective") and knobs["alt_plans"] == 2
    assert knobs["proof"] == 1.5
    assert (knobs["confirm_max"], knobs["confirm_step"], knobs["confirm_band"]) == (12, 4, 0.5)


def test_the_core_form_names_the_heuristics_as_the_core_knows_them() -> None:
    knobs = parse_knobs('{"alternatives": ["focus-fire", "kiter"], "alt_plans": 2, "schedule": [1, 2]}')
    assert search_screen.core_name(knobs) == "mcts{alt_plans=2;alternatives=focus_fire+kiter;schedule=1-2}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"depth": 3}', "unknown depth"),
        ('{"horizon": 2}', "unknown horizon"),
        ('{"schedule": [2, 2]}', "schedule must be increasing"),
        ('{"alt_plans": 0}', "alt_plans must be positive"),
        ('{"keep_base": true, "confirm": 4, "confirm_max": 4}', "confirm_max needs confirm"),
        ('{"confirm_max": 8}', "confirm_max needs confirm"),
        ('{"confirm_step": 0}', "confirm_step must be positive"),
        ('{"confirm_band": -1}', "confirm_band must be >= 0"),
        ('{"alternatives": ["mcts"]}', "must name a registered heuristic AI"),
        ("[1]", "expected a JSON object"),
        ('{"model": "lookahead"}', "model must name a registered heuristic AI"),
        ('{"base": "nobody"}', "unknown AI 'nobody'"),
        ("{prior: 2}", "not a JSON object"),
    ],
)
def test_a_bad_knob_is_a_user_error_naming_it(text: str, reason: str) -> None:
    with pytest.raises(KrosbalanceError, match=reason):
        parse_knobs(text)


def test_main_exits_2_with_one_line_on_a_bad_knob(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(['{"depth": 3}']) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: knobs: unknown depth") and "Traceback" not in err


def test_the_design_plays_every_split_on_every_board_from_both_sides_and_seats() -> None:
    box = list_characters(set="arena-box")
    jobs = screen_jobs(5)
    splits = math.comb(len(box), len(box) // 2) // 2
    assert len(jobs) == splits * len(BOARDS) * 4
    by_deal = Counter((frozenset((j.team0, j.team1)), j.board, j.seed) for j in jobs)
    assert len(by_deal) == splits * len(BOARDS) and set(by_deal.values()) == {4}
    for team0, team1 in {(j.team0, j.team1) for j in jobs}:
        assert sorted(team0 + team1) == sorted(box)
        assert sum(j.team0 == team1 for j in jobs) == len(BOARDS) * 2  # the same split, sides swapped
    assert screen_jobs(5) == jobs and screen_jobs(6) != jobs


def test_the_standing_does_not_depend_on_the_number_of_jobs() -> None:
    knobs = parse_knobs(json.dumps(TINY))
    jobs = screen_jobs(9)[:4]
    one = [s.points for s in screen(knobs, "kiter", jobs, n_jobs=1)]
    two = [s.points for s in screen(knobs, "kiter", jobs, n_jobs=2)]
    assert one == two and len(one) == 4
    assert 0.0 <= one[-1] <= 4.0


def test_on_one_job_a_standing_comes_after_each_match_not_after_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """A screen on one core prints as it goes: the first standing is read after one match."""
    played: list[object] = []

    def fake_play(knobs: object, opponent: str, job: object) -> tuple[float, float]:
        played.append(job)
        return 1.0, 0.5

    monkeypatch.setattr(search_screen, "play", fake_play)
    standings = screen({}, "kiter", screen_jobs(9)[:5], n_jobs=1)
    first = next(standings)
    assert (first.matches, first.points, len(played)) == (1, 1.0, 1)
    assert [s.matches for s in standings] == [2, 3, 4, 5] and len(played) == 5


def test_a_standing_line_gives_the_score_its_interval_and_the_cost() -> None:
    line = Standing(matches=40, points=26.0, cpu_seconds=80.0).line("mcts")
    assert line.startswith("mcts 40: 65.0% [") and "cpu/match 2.00 s" in line


# ---------------------------------------------------------------------------- four players
def test_four_player_deals_are_legal_drawn_from_the_seed_and_cycle_the_boards() -> None:
    from krosbalance.rulesets.registry import get_ruleset

    deals = search_screen.four_player_deals(5, "free_for_all", 6)
    assert deals == search_screen.four_player_deals(5, "free_for_all", 6)
    assert deals != search_screen.four_player_deals(6, "free_for_all", 6)
    legal = {
        tuple(t)
        for t in get_ruleset("arena", {"mode": "free_for_all"}).all_teams(
            sorted(list_characters(set="arena-box"))
        )
    }
    assert all(len(d.teams) == 4 and set(d.teams) <= legal for d in deals)
    assert [d.board for d in deals[:3]] == list(BOARDS)


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
def test_a_four_player_pair_is_symmetric_so_an_ai_against_itself_scores_one_half(mode: str) -> None:
    """The tested AI sits in seats 0 and 2, then 1 and 3: a winner's seat or partnership counts for
    whoever holds it, so the same AI on both sides scores exactly 50% over a pair."""
    deal = search_screen.four_player_deals(1, mode, 1)[0]
    assert search_screen.four_player_seats(deal, True) == (0, 2)
    assert search_screen.four_player_seats(deal, False) == (1, 3)
    winners = (0, 1) if mode == "two_vs_two" else (0, 1, 2, 3)
    for winner in winners:
        first = search_screen.four_player_points(deal, winner, True)
        second = search_screen.four_player_points(deal, winner, False)
        assert first + second == 1.0
    assert search_screen.four_player_points(deal, None, True) == 0.5


def test_the_four_player_head_to_head_of_a_heuristic_against_itself_is_even() -> None:
    pytest.importorskip("krosbalance_core")
    deals = search_screen.four_player_deals(3, "two_vs_two", 4)
    played = list(search_screen.head_to_head_core("kiter", "kiter", deals))
    assert [a + b for _, a, b, _ in played] == [1.0] * 4
    line = search_screen.four_player_line("kiter vs kiter", [(a, b) for _, a, b, _ in played], 0.4, 1)
    assert "4 deals / 8 matches: 50.0%" in line and "bootstrap" in line
