"""The AI a budget affords: the strongest of the ladder whose estimated run fits (costs mocked)."""

from __future__ import annotations

import pytest

from krosbalance.studies.matchup.choice import choose_ai, ladder_candidates

COST = {"strong": 2.0, "middle": 0.5, "weak": 0.01}


def test_candidates_are_the_ladders_registered_playable_ais_strongest_first() -> None:
    ratings = {"weak": -1.0, "strong": 2.0, "middle": 0.5, "gone": 3.0, "other_game": 1.0}
    found = ladder_candidates(
        ratings, lambda ai: ai != "other_game", ["weak", "middle", "strong", "other_game"]
    )
    assert found == ["strong", "middle", "weak"]


def test_the_first_that_fits_is_chosen_and_the_line_says_why() -> None:
    measured: list[str] = []

    def measure(ai: str) -> float:
        measured.append(ai)
        return COST[ai]

    choice = choose_ai(["strong", "middle", "weak"], 1000, 2, 300.0, measure)
    assert choice.ai == "middle" and measured == ["strong", "middle"]  # no need to time the weak one
    assert "1,000 matches x 0.50 s / 2 jobs ~ 250 s" in choice.reason
    assert "strong would need ~1,000 s" in choice.reason and "\n" not in choice.reason


def test_the_strongest_when_it_fits() -> None:
    choice = choose_ai(["strong", "middle"], 100, 4, 300.0, COST.__getitem__)
    assert choice.ai == "strong" and "the strongest there is" in choice.reason


def test_none_fits_the_fastest_is_chosen_and_the_line_says_so() -> None:
    choice = choose_ai(["strong", "middle"], 10_000, 1, 1.0, COST.__getitem__)
    assert choice.ai == "middle" and "none fits" in choice.reason


def test_no_candidate_is_a_bug() -> None:
    with pytest.raises(ValueError):
        choose_ai([], 10, 1, 1.0, COST.__getitem__)
