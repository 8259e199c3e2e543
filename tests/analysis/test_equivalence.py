"""Settled / still moving / undecided (TOST against a margin) and the skill trend's fitted slope."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from krosbalance.analysis import equivalence as eq


def test_two_ais_that_agree_closely_are_settled() -> None:
    a = eq.compare(0.32, 0.04, 0.30, 0.04)
    assert a.verdict == eq.SETTLED
    assert -eq.MARGIN < a.low90 < a.high90 < eq.MARGIN
    assert a.p_equivalent < eq.ALPHA


def test_a_difference_inside_the_margin_is_settled_even_when_it_is_not_zero() -> None:
    a = eq.compare(0.10, 0.005, 0.0, 0.005)
    assert a.low95 > 0 and a.verdict == eq.SETTLED


def test_a_clear_move_says_its_direction() -> None:
    up = eq.compare(0.40, 0.05, -0.10, 0.05)
    down = eq.compare(-0.63, 0.17, -0.11, 0.05)
    assert (up.verdict, up.direction) == (eq.MOVING, "up")
    assert (down.verdict, down.direction) == (eq.MOVING, "down")


def test_overlapping_wide_intervals_are_undecided_not_converged() -> None:
    """n = 210 per figure gives about ±0.4: the old overlap rule called this converged."""
    a = eq.compare(-0.12, 0.23, -0.31, 0.2, n_stronger=210, n_weaker=210)
    assert a.verdict == eq.UNDECIDED
    assert a.more_stronger > 0 and a.more_weaker > 0


def test_the_matches_an_undecided_verdict_asks_for_would_decide_it() -> None:
    n = 400
    a = eq.compare(0.05, 0.2, 0.0, 0.2, n_stronger=n, n_weaker=n)
    assert a.verdict == eq.UNDECIDED
    shrink = math.sqrt(n / (n + a.more_stronger))
    again = eq.compare(0.05, 0.2 * shrink, 0.0, 0.2 * shrink)
    assert again.verdict == eq.SETTLED


def test_a_difference_at_the_margin_asks_for_the_matches_that_would_show_the_move() -> None:
    n = 100
    a = eq.compare(eq.MARGIN, 0.3, 0.0, 0.3, n_stronger=n, n_weaker=n)
    assert a.verdict == eq.UNDECIDED and a.more_stronger > 0
    shrink = math.sqrt(n / (n + a.more_stronger))
    assert eq.compare(eq.MARGIN, 0.3 * shrink, 0.0, 0.3 * shrink).verdict == eq.MOVING


def test_a_bad_margin_or_missing_errors() -> None:
    with pytest.raises(ValueError, match="margin"):
        eq.compare(0.0, 0.1, 0.0, 0.1, margin=0)
    assert eq.compare(0.1, float("nan"), 0.0, 0.1).verdict == eq.UNDECIDED


@given(
    diff=st.floats(-2, 2, allow_nan=False),
    se=st.floats(0.001, 1.0, allow_nan=False),
)
def test_settled_exactly_when_both_one_sided_tests_reject(diff: float, se: float) -> None:
    a = eq.compare(diff, se / math.sqrt(2), 0.0, se / math.sqrt(2))
    assert (a.verdict == eq.SETTLED) == (a.p_equivalent < eq.ALPHA)


def test_the_sentences_name_the_verdict_and_what_would_tell() -> None:
    settled = eq.agreement_line("Anna", eq.compare(0.3, 0.03, 0.31, 0.03), "mcts-race", "mcts-2")
    moving = eq.agreement_line("King", eq.compare(-0.63, 0.05, -0.1, 0.05), "mcts-race", "mcts-2")
    open_ = eq.agreement_line("Bill", eq.compare(0.1, 0.3, 0.0, 0.3, 100, 100), "mcts-race", "mcts-2")
    assert "settled" in settled and "agree within ±0.15" in settled
    assert "still moving" in moving and "lower" in moving
    assert "undecided" in open_ and "more matches with mcts-race" in open_


def test_the_skill_trend_recovers_a_known_slope() -> None:
    ratings = np.array([-0.05, 0.3, 0.86, 1.69])
    strengths = 0.1 - 0.2 * ratings
    trend = eq.skill_trend(ratings, strengths, np.full(4, 0.05))
    assert trend.slope == pytest.approx(-0.2)
    assert trend.low < -0.2 < trend.high and trend.points == 4
    wide = eq.skill_trend(ratings, strengths, np.full(4, 0.5))
    assert (wide.high - wide.low) > (trend.high - trend.low)


def test_two_ais_make_a_trend_and_one_does_not() -> None:
    two = eq.skill_trend(np.array([1.0, 1.5]), np.array([0.0, 0.5]), np.array([0.1, 0.1]))
    assert two.slope == pytest.approx(1.0) and two.points == 2 and two.low < two.high
    one = eq.skill_trend(np.array([1.0, np.nan]), np.array([0.0, 0.5]), np.array([0.1, 0.1]))
    assert math.isnan(one.slope) and one.points == 1


def test_the_trend_table_fits_each_figure() -> None:
    long = pd.DataFrame(
        {
            "term": ["a", "a", "a", "b", "b", "b"],
            "rating": [0.0, 1.0, 2.0] * 2,
            "coef": [0.0, 0.1, 0.2, 0.5, 0.5, 0.5],
            "se": [0.05] * 6,
        }
    )
    table = eq.trend_table(long).set_index("term")
    assert table.loc["a", "slope"] == pytest.approx(0.1)
    assert table.loc["b", "slope"] == pytest.approx(0.0, abs=1e-12)
    assert table.loc["b", "slope_low"] < 0 < table.loc["b", "slope_high"]
