from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis import stats
from krosbalance.analysis.strength import (
    FIRST_TERM,
    SIDE_TERM,
    adjusted_strength,
    character_covariance,
    character_strengths,
    strength_design,
)
from tests.analysis.fixtures import TRUE_STRENGTH, planted_tables


@pytest.fixture(scope="module")
def fitted(planted) -> pd.DataFrame:
    return adjusted_strength(planted[0])


def test_recovers_planted_strengths(fitted) -> None:
    s = character_strengths(fitted).set_index("term")
    assert (s["method"] == "mle").all()
    assert s.loc["star", "ci_low"] > 0  # truly strong
    assert s.loc["hero", "ci_low"] > 0  # truly strong although raw rate says weak
    assert s.loc["anchor", "ci_high"] < 0  # truly weak
    assert s["coef"].idxmax() == "star" and s["coef"].idxmin() == "anchor"
    # centred truth lies inside the intervals of the strong/weak characters
    mean = np.mean(list(TRUE_STRENGTH.values()))
    for c in ("star", "hero", "anchor"):
        assert s.loc[c, "ci_low"] - 0.15 < TRUE_STRENGTH[c] - mean < s.loc[c, "ci_high"] + 0.15


def test_corrects_teammate_confound(planted, fitted) -> None:
    raw = stats.character_win_rates(planted[0]).set_index("character")
    s = character_strengths(fitted).set_index("term")
    assert raw.loc["tagalong", "ci_low"] > 0.5  # raw: looks strong (borrowed from star)
    assert s.loc["tagalong", "ci_low"] < 0 < s.loc["tagalong", "ci_high"]  # adjusted: average
    assert raw.loc["hero", "ci_high"] < 0.5  # raw: looks weak (dragged down by anchor)


def test_sum_to_zero_and_covariates(fitted) -> None:
    s = character_strengths(fitted)
    assert s["coef"].sum() == pytest.approx(0.0, abs=1e-8)
    cov = fitted[fitted["kind"] == "covariate"].set_index("term")
    assert SIDE_TERM in cov.index and FIRST_TERM in cov.index
    assert cov.loc[FIRST_TERM, "ci_low"] > 0  # planted first-player edge
    assert cov.loc[SIDE_TERM, "ci_low"] < 0 < cov.loc[SIDE_TERM, "ci_high"]  # sides are symmetric
    cm = character_covariance(fitted)
    assert cm is not None and cm.shape == (8, 8)
    np.testing.assert_allclose(np.sqrt(np.diag(cm.loc[s["term"], s["term"]])), s["se"])


def test_design_counts_copies() -> None:
    m = pd.DataFrame(
        {
            "match_id": [0],
            "team0": ["a,a,b"],
            "team1": ["b,c"],
            "winner": pd.array([0], dtype="Int64"),
            "first_player": [0],
            "end_reason": ["gg"],
            "error": [""],
        }
    )
    x, y, cov = strength_design(m)
    assert list(x.columns) == ["a", "b", "c"]
    assert x.iloc[0].tolist() == [2.0, 0.0, -1.0]
    assert y.tolist() == [1.0]
    assert "(team size)" in cov.columns


def test_separation_falls_back_to_ridge() -> None:
    # "god" wins every match it plays: perfect separation
    rows = []
    others = ["a", "b", "c", "d"]
    for i in range(40):
        o1, o2 = others[i % 4], others[(i + 1) % 4]
        god_side = i % 2
        team0, team1 = (f"god,{o1}", f"{o2},{o1}") if god_side == 0 else (f"{o2},{o1}", f"god,{o1}")
        rows.append((i, team0, team1, god_side, i % 2))
    m = pd.DataFrame(rows, columns=["match_id", "team0", "team1", "winner", "first_player"])
    m["winner"] = m["winner"].astype("Int64")
    m["end_reason"], m["error"] = "gg", ""
    s = adjusted_strength(m)
    assert (s["method"] == "ridge").all()
    assert "ridge" in s["note"].iloc[0]
    chars = character_strengths(s).set_index("term")
    assert chars["coef"].idxmax() == "god"
    assert np.isfinite(chars["ci_low"]).all()
    mle_only = adjusted_strength(m, method="mle")  # no fallback: NaNs and a note, not a crash
    assert mle_only["coef"].isna().all() and (mle_only["method"] == "none").all()


def test_degenerate_inputs_never_crash() -> None:
    m, _ = planted_tables(n_pairings=1, seed=4, draw_rate=0.0)
    s = adjusted_strength(m)  # 2 matches, a handful of characters: singular -> ridge
    assert not s.empty and s["method"].isin(["ridge", "mle"]).all()
    draws, _ = planted_tables(n_pairings=3, seed=4, draw_rate=1.0)
    assert adjusted_strength(draws).empty  # no decided match
    assert adjusted_strength(m.iloc[0:0]).empty
    assert character_covariance(adjusted_strength(draws)) is None


def test_mirror_only_character_is_not_estimable() -> None:
    m = pd.DataFrame(
        {
            "match_id": range(6),
            "team0": ["m,a", "m,b", "m,a", "m,b", "m,a", "m,b"],
            "team1": ["m,b", "m,a", "m,b", "m,a", "m,b", "m,a"],
            "winner": pd.array([0, 1, 1, 0, 0, 1], dtype="Int64"),
            "first_player": [0] * 6,
            "end_reason": ["gg"] * 6,
            "error": [""] * 6,
        }
    )
    s = adjusted_strength(m).set_index("term")
    assert np.isnan(s.loc["m", "coef"]) and "not estimable" in s.loc["m", "note"]
    assert s.loc["a", "coef"] == pytest.approx(-s.loc["b", "coef"])
