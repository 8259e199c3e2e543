"""Deal-clustered intervals: design effects, the effective-n Wilson interval and the sandwich."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis import stats
from krosbalance.analysis.design import cluster_sandwich, design_effects, effective_wilson, with_design
from krosbalance.analysis.strength import adjusted_strength, strength_design
from tests.analysis.fixtures import planted_tables


def _obs(success: list[bool], cluster: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"g": "x", "won": success, "weight": 1.0, "cluster": cluster})


def test_independent_matches_have_no_design_effect() -> None:
    d = design_effects(_obs([True, False, True, True], [0, 1, 2, 3]), ["g"], "won")
    assert d["deff"].iloc[0] == pytest.approx(1.0)
    lo, hi = effective_wilson(3, 4, 1.0, 0.05)
    assert (float(lo), float(hi)) == pytest.approx(stats.wilson_interval(3, 4))


def test_twins_that_always_agree_count_as_one_match() -> None:
    wins = [True, True, False, False, True, True, True, True]
    d = design_effects(_obs(wins, [0, 0, 1, 1, 2, 2, 3, 3]), ["g"], "won")
    assert d["deff"].iloc[0] == pytest.approx(2.0)  # two identical outcomes per deal: n_eff = n / 2
    lo, hi = effective_wilson(6, 8, d["deff"].iloc[0], 0.05)
    assert (float(lo), float(hi)) == pytest.approx(stats.wilson_interval(3, 4))


def test_weights_stand_for_repeated_clusters() -> None:
    repeated = _obs([True, False, True, False], [0, 0, 1, 1]).assign(weight=[3.0, 3.0, 1.0, 1.0])
    expanded = _obs([True, False] * 4, [0, 0, 1, 1, 2, 2, 3, 3])
    a = design_effects(repeated, ["g"], "won")
    b = design_effects(expanded, ["g"], "won")
    pd.testing.assert_frame_equal(a, b)


def test_sandwich_matches_statsmodels_cluster_robust_covariance() -> None:
    import statsmodels.api as sm

    m, _ = planted_tables(n_pairings=400, seed=8, draw_rate=0.0)
    x, y, cov = strength_design(m)
    design = np.hstack([cov.to_numpy(), x.to_numpy()[:, :-1] - x.to_numpy()[:, [-1]]])
    groups = with_design(m)["cluster"].to_numpy()
    fit = sm.GLM(y, design, family=sm.families.Binomial()).fit()
    robust = sm.GLM(y, design, family=sm.families.Binomial()).fit(
        cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False}
    )
    p = fit.predict(design)
    ours, g = cluster_sandwich(design, y - p, np.ones(len(y)), groups, np.asarray(fit.cov_params()))
    assert g == len(np.unique(groups)) == 400
    # statsmodels without its small-sample correction; ours carries CR1's G / (G - 1)
    np.testing.assert_allclose(ours * (g - 1) / g, np.asarray(robust.cov_params()), rtol=1e-4, atol=1e-8)


def test_paired_seeds_widen_strength_intervals_when_twins_agree() -> None:
    m, _ = planted_tables(n_pairings=500, seed=9, draw_rate=0.0)
    # Make each deal's twin repeat the direct match's winning team: perfectly correlated deals.
    direct = m[~m["swapped"]].set_index("pairing")["winner_team"]
    twin = m["swapped"]
    m.loc[twin, "winner_team"] = m.loc[twin, "pairing"].map(direct).to_numpy()
    m.loc[twin, "winner"] = np.where(m.loc[twin, "winner_team"] == "A", 1, 0)
    clustered = adjusted_strength(m).set_index("term")
    naive = adjusted_strength(m.assign(pairing=range(len(m)))).set_index("term")
    assert (clustered["interval"] == "deal-clustered").all() and (naive["interval"] == "model").all()
    chars = [t for t in clustered.index if not t.startswith("(")]
    assert (clustered.loc[chars, "se"] > 1.2 * naive.loc[chars, "se"]).all()
