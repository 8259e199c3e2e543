"""Sweep curves and the fix finder's verification table (krosbalance.studies.patches.tables, .section)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from krosbalance.studies.patches.section import header_lines, verification_table
from krosbalance.studies.patches.tables import arm_strengths, fit_sweep, sweep_points_table


def test_fit_sweep_finds_the_value_where_the_figure_is_average() -> None:
    values = np.array([10, 12, 14, 16, 18])
    points = pd.DataFrame({"group": "heuristic", "hp": values, "coef": 0.1 * (values - 15), "se": 0.05})
    fit = fit_sweep(points, ["hp"], {"hp": 12.0}).iloc[0]
    assert abs(fit["root"] - 15) < 1e-6 and fit["root_ci_low"] <= 15 <= fit["root_ci_high"]
    assert fit["in_grid"] and abs(fit["slope"] - 0.1) < 1e-9


def test_a_root_beyond_the_grid_is_flagged_as_extrapolated() -> None:
    values = np.array([10, 12, 14])
    points = pd.DataFrame({"group": "pooled", "hp": values, "coef": 0.1 * (values - 20), "se": 0.05})
    fit = fit_sweep(points, ["hp"], {}).iloc[0]
    assert not fit["in_grid"] and "extrapolated" in fit["note"]


def test_two_crossed_fields_each_get_a_root_with_the_other_at_its_printed_value() -> None:
    grid = [(h, d) for h in (10, 14, 18) for d in (1, 2, 3)]
    coef = [0.05 * (h - 10) + 0.4 * (d - 1) - 0.6 for h, d in grid]
    points = pd.DataFrame(
        {"group": "g", "hp": [g[0] for g in grid], "dmg": [g[1] for g in grid], "coef": coef, "se": 0.05}
    )
    fit = fit_sweep(points, ["hp", "dmg"], {"hp": 10.0, "dmg": 1.0}).set_index("field")
    assert abs(fit.loc["hp", "root"] - 22) < 1e-6  # 0.05 (h - 10) = 0.6 at damage 1
    assert abs(fit.loc["dmg", "root"] - 2.5) < 1e-6  # 0.4 (d - 1) = 0.6 at HP 10


def test_too_few_points_say_so() -> None:
    points = pd.DataFrame({"group": "g", "hp": [10, 12], "coef": [0.0, 0.1], "se": 0.1})
    assert fit_sweep(points, ["hp"], {}).iloc[0]["note"] == "too few points to fit"


def _matches(rng: np.random.Generator, n: int, arms: list[str]) -> pd.DataFrame:
    figs = ["a", "b", "c", "d"]
    rows = []
    for i in range(n):
        t0 = list(rng.choice(figs, 2, replace=False))
        t1 = [f for f in figs if f not in t0]
        rows.append(
            {
                "match_id": i,
                "pairing": i,
                "deal": 0,
                "team0": ",".join(t0),
                "team1": ",".join(t1),
                "winner": int(rng.random() < 0.5),
                "first_player": 0,
                "error": "",
                "end_reason": "gg",
                "ai0": "random",
                "ai1": "random",
                "variant": arms[i % len(arms)],
            }
        )
    return pd.DataFrame(rows)


def test_arm_strengths_fit_each_arm_alone_and_the_sweep_table_joins_the_values() -> None:
    m = _matches(np.random.default_rng(1), 400, ["hp-1", "hp-2"])
    strengths = arm_strengths(m)
    assert set(strengths["arm"]) == {"hp-1", "hp-2"}
    assert (strengths.groupby("arm")["n_matches"].max() == 200).all()
    sweep = {
        "target": "a",
        "fields": ["hp"],
        "points": [{"arm": "hp-1", "values": {"hp": 1}}, {"arm": "hp-2", "values": {"hp": 2}}],
    }
    points = sweep_points_table(strengths, sweep)
    assert set(points["hp"]) == {1, 2} and (points["term"] == "a").all()


def test_verification_table_sets_predicted_against_measured() -> None:
    m = _matches(np.random.default_rng(2), 400, ["shipped", "proposed"])
    strengths = arm_strengths(m)
    proposal = {
        "band": 0.15,
        "predicted": [
            {"term": f, "before": 0.0, "before_se": 0.1, "predicted": 0.0, "ci_low": -0.2, "ci_high": 0.2}
            for f in "abcd"
        ],
    }
    t = verification_table(proposal, strengths)
    assert len(t) == 4 * t["group"].nunique()
    assert t["proposed"].notna().all() and t["shipped"].notna().all()
    assert set(t["within_band"]) <= {True, False}


def test_header_lines_name_each_patched_arm_and_its_changes() -> None:
    manifest = {
        "patches": {"buffed": {"patch": "p", "changes": ["X: HP 1 → 2"]}, "": {"patch": "q", "changes": []}}
    }
    assert header_lines(manifest) == [
        "arm **buffed** (patch p): X: HP 1 → 2",
        "every match (patch q): no change",
    ]
    assert header_lines({}) == []
