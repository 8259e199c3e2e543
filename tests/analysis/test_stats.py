from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis import stats
from tests.analysis.fixtures import planted_tables


def test_wilson_known_values() -> None:
    lo, hi = stats.wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = stats.wilson_interval(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson_interval(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_wilson_vectorised_and_empty() -> None:
    lo, hi = stats.wilson_interval(np.array([8, 0, 3]), np.array([10, 0, 3]))
    assert lo[0] == pytest.approx(0.4902, abs=1e-4)
    assert math.isnan(lo[1]) and math.isnan(hi[1])
    assert hi[2] == pytest.approx(1.0)
    assert all(math.isnan(x) for x in stats.wilson_interval(0, 0))


def test_mean_interval() -> None:
    m, lo, hi = stats.mean_interval([1.0, 2.0, 3.0])
    assert m == 2.0
    assert (lo, hi) == pytest.approx((2 - 2.4841, 2 + 2.4841), abs=1e-3)
    m, lo, hi = stats.mean_interval([5.0])
    assert m == 5.0 and math.isnan(lo)


def test_ok_matches_drops_errors(planted) -> None:
    m, _ = planted
    ok = stats.ok_matches(m)
    assert (ok["error"] == "").all()
    assert len(ok) == (m["error"] == "").sum() < len(m)


def test_character_win_rates(planted) -> None:
    m, _ = planted
    wr = stats.character_win_rates(m)
    assert list(wr.columns) == [
        "character",
        "n",
        "wins",
        "draws",
        "losses",
        "win_rate",
        "ci_low",
        "ci_high",
        "deff",
    ]
    assert (wr["wins"] + wr["draws"] + wr["losses"] == wr["n"]).all()
    assert ((wr["ci_low"] <= wr["win_rate"]) & (wr["win_rate"] <= wr["ci_high"])).all()
    # every appearance is one side of one match: total appearances = 3 per side per ok match
    assert wr["n"].sum() == 6 * len(stats.ok_matches(m))
    # the confound is there in the raw rates: tagalong looks strong, hero looks weak
    row = wr.set_index("character")
    assert row.loc["tagalong", "ci_low"] > 0.5
    assert row.loc["hero", "ci_high"] < 0.5


def test_draws_count_as_non_wins() -> None:
    m, _ = planted_tables(n_pairings=5, seed=3, draw_rate=1.0)
    wr = stats.character_win_rates(m)
    assert (wr["wins"] == 0).all() and (wr["draws"] == wr["n"]).all()
    assert (wr["win_rate"] == 0).all()


def test_matchup_matrix_symmetry_without_draws() -> None:
    m, _ = planted_tables(n_pairings=150, seed=5, draw_rate=0.0)
    mm = stats.matchup_matrix(m)
    rates = stats.matchup_pivot(mm, "win_rate")
    counts = stats.matchup_pivot(mm, "n")
    assert rates.shape[0] == rates.shape[1] and list(rates.index) == list(rates.columns)
    off = ~np.eye(len(rates), dtype=bool)
    r = rates.to_numpy()
    played = off & ~np.isnan(r)
    assert played.any()
    np.testing.assert_allclose((r + r.T)[played], 1.0)
    c = counts.to_numpy()
    np.testing.assert_array_equal(np.nan_to_num(c)[off], np.nan_to_num(c.T)[off])
    # mirror cells have n but no rate
    diag = mm[mm["team"] == mm["opponent"]]
    assert diag["win_rate"].isna().all()


def test_matchup_team_order_does_not_matter() -> None:
    m, _ = planted_tables(n_pairings=20, seed=2)
    shuffled = m.copy()
    shuffled["team_a"] = shuffled["team_a"].map(lambda t: ",".join(reversed(t.split(","))))
    pd.testing.assert_frame_equal(stats.matchup_matrix(m), stats.matchup_matrix(shuffled))


def test_first_player_advantage(planted) -> None:
    m, _ = planted
    fp = stats.first_player_advantage(m)
    assert len(fp) == 1
    r = fp.iloc[0]
    ok = stats.ok_matches(m)
    decided = ok[ok["winner"].notna()]
    assert r["n"] == len(decided)
    assert r["first_wins"] == (decided["winner"] == decided["first_player"]).sum()
    assert r["ci_low"] < r["win_rate"] < r["ci_high"]
    # the planted edge (0.3 log-odds, about 57%) is detected
    assert r["ci_low"] > 0.5 and r["p_value"] < 0.01


def test_first_player_hand_made() -> None:
    m = pd.DataFrame(
        {
            "match_id": range(4),
            "winner": pd.array([0, 1, 0, None], dtype="Int64"),
            "first_player": [0, 1, 1, 0],
            "end_reason": ["gg", "gg", "gg", "turn_limit"],
            "error": ["", "", "", ""],
        }
    )
    r = stats.first_player_advantage(m).iloc[0]
    assert (r["n_matches"], r["draws"], r["n"], r["first_wins"]) == (4, 1, 3, 2)
    assert r["win_rate"] == pytest.approx(2 / 3)
    assert r["p_value"] == pytest.approx(1.0)


def test_damage_credits_summons(planted) -> None:
    m, f = planted
    d = stats.damage_stats(m, f).set_index("character")
    assert "bolt_turret" not in d.index  # summons are not characters
    # bolt's turret deals exactly 3 per match, credited only to bolt
    assert d.loc["bolt", "damage_dealt_incl_summons"] == pytest.approx(d.loc["bolt", "damage_dealt"] + 3)
    assert d.loc["star", "damage_dealt_incl_summons"] == pytest.approx(d.loc["star", "damage_dealt"])
    elements = [c for c in d.columns if c.startswith("dealt_")]
    assert len(elements) == 5
    np.testing.assert_allclose(d[elements].sum(axis=1), d["damage_dealt"])
    long = stats.damage_by_element_table(d.reset_index())
    assert set(long.columns) == {"character", "element", "damage"} and len(long) == 5 * len(d)


def test_ko_stats(planted) -> None:
    m, f = planted
    k = stats.ko_stats(m, f)
    assert ((k["ko_ci_low"] <= k["ko_rate"]) & (k["ko_rate"] <= k["ko_ci_high"])).all()
    assert {"kills", "kills_ci_low", "turns_alive"} <= set(k.columns)


def test_match_length_table(planted) -> None:
    m, _ = planted
    t = stats.match_length_table(m).set_index("end_reason")
    assert t.loc["all", "n"] == len(stats.ok_matches(m))
    assert t.drop("all")["share"].sum() == pytest.approx(1.0)
    assert t.loc["turn_limit", "mean_turns"] == 40


def test_empty_inputs_give_empty_tables() -> None:
    m, f = planted_tables(n_pairings=2, seed=1)
    none = m.iloc[0:0]
    assert stats.character_win_rates(none).empty
    assert stats.matchup_matrix(none).empty
    assert stats.damage_stats(none, f).empty
    assert stats.ko_stats(none, f).empty
    assert stats.match_length_table(none).empty
    assert stats.first_player_advantage(none).iloc[0]["n"] == 0


def test_runner_string_dtypes_give_same_results(small) -> None:
    m, _ = small
    typed = m.copy()
    for col in typed.columns:
        if typed[col].dtype == object or str(typed[col].dtype) == "str":
            typed[col] = typed[col].astype("string")
    pd.testing.assert_frame_equal(stats.character_win_rates(typed), stats.character_win_rates(m))
    pd.testing.assert_frame_equal(stats.first_player_advantage(typed), stats.first_player_advantage(m))
    a, b = stats.matchup_matrix(typed), stats.matchup_matrix(m)
    pd.testing.assert_frame_equal(
        a.astype({"team": object, "opponent": object}), b.astype({"team": object, "opponent": object})
    )


def test_a_bounded_difference_interval_stays_in_bounds_and_is_never_zero_wide() -> None:
    from krosbalance.analysis.stats import bounded_mean_interval

    for deals in ([1.0, 1.0], [1.0] * 4, [1.0], [-1.0, 1.0, -1.0, 1.0]):
        mean, low, high = bounded_mean_interval(np.array(deals))
        assert -1.0 <= low < high <= 1.0, deals
        assert low <= mean <= high
    _, narrow_low, _ = bounded_mean_interval(np.array([1.0] * 100))
    _, wide_low, _ = bounded_mean_interval(np.array([1.0] * 2))
    assert wide_low < narrow_low < 1.0  # more identical deals: narrower, never zero
