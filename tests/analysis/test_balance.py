from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis import balance, stats


def test_ludii_balance_values() -> None:
    value, lo, hi = balance.ludii_balance(50, 50, 100)
    assert value == 1.0 and hi == 1.0 and lo < 1.0
    value, lo, hi = balance.ludii_balance(100, 0, 100)
    assert value == 0.0
    value, _, _ = balance.ludii_balance(60, 30, 100)  # draws do not change the difference
    assert value == pytest.approx(0.7)
    assert all(math.isnan(v) for v in balance.ludii_balance(0, 0, 0))


def _matchups(rows: list[tuple[str, str, int, int]]) -> pd.DataFrame:
    """Build a matches table from (team_a, team_b, a_wins, b_wins)."""
    out = []
    for a, b, wa, wb in rows:
        for winner in ["A"] * wa + ["B"] * wb:
            out.append({"team_a": a, "team_b": b, "winner_team": winner, "end_reason": "gg", "error": ""})
    return pd.DataFrame(out)


def test_dominated_and_dominant_teams() -> None:
    m = _matchups([("x", "y", 0, 20), ("x", "z", 1, 19), ("y", "z", 10, 10)])
    mm = stats.matchup_matrix(m)
    dom = balance.dominated_teams(mm)
    assert dom["team"].tolist() == ["x"]
    assert dom["worst_bound"].iloc[0] < 0.5
    assert balance.dominant_teams(mm).empty  # y and z tie with each other
    # too little data: nobody is dominated, even at 0 wins
    few = stats.matchup_matrix(_matchups([("x", "y", 0, 2)]))
    assert balance.dominated_teams(few).empty


def test_balance_summary_planted(planted) -> None:
    m, _ = planted
    b = balance.balance_summary(m).set_index("metric")
    spread = b.loc["strength spread (log-odds)"]
    assert spread["ci_low"] > 0 and spread["ci_low"] <= spread["value"] <= spread["ci_high"] + 0.2
    adj = b.loc["character balance (adjusted)"]
    assert 0 < adj["value"] < 1 and adj["ci_low"] <= adj["value"] <= adj["ci_high"]
    first = b.loc["balance (first vs second player)"]
    assert first["ci_high"] < 1  # the planted first-player edge shows
    assert b.loc["draw share", "ci_low"] < b.loc["draw share", "value"] < b.loc["draw share", "ci_high"]
    assert np.isfinite(b.loc["character balance (raw win rates)", "value"])


def test_balance_summary_is_reproducible(small) -> None:
    m, _ = small
    pd.testing.assert_frame_equal(balance.balance_summary(m), balance.balance_summary(m))


def test_balance_summary_on_nothing(small) -> None:
    m, _ = small
    b = balance.balance_summary(m.iloc[0:0]).set_index("metric")
    assert b["value"].drop(["dominated teams", "dominant teams"]).isna().all()
    assert b.loc["strength spread (log-odds)", "detail"].startswith("not enough data")
