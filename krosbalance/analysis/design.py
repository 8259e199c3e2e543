"""The experimental design behind the intervals: deal clusters and frequency weights.

Matches of one *deal* share a seed and so their dice (with paired seeds a deal is a match and its
side-swapped twin): their outcomes are correlated, and an interval that treats them as independent
is too narrow when the same team tends to win both. Every interval in :mod:`stats`,
:mod:`strength` and :mod:`ladder` is therefore computed over **deal clusters**:

* proportions (win rates, matchup rates, the first-player rate) get a Wilson interval on the
  *effective* sample size ``n / deff``, where the design effect ``deff`` is the ratio of the
  cluster-robust (ratio-estimator) variance to the binomial one, never below 1 (Korn & Graubard's
  effective-n Wilson interval; with one match per deal it is exactly the ordinary Wilson interval);
* model coefficients get a cluster-robust sandwich covariance (Liang-Zeger, CR1) summing the
  score over the matches of each deal.

Tables may also be *compressed* (:mod:`krosbalance.analysis.scan`): identical deals are stored once
with a ``weight`` (how many deals share this pattern) and a ``cluster`` id per pattern. Every
function here reads ``weight`` and ``cluster`` when present, so a compressed table and the full one
give the same numbers. Without them each row weighs 1 and the cluster is the deal,
``(pairing, deal)`` (the runner's columns), else the match.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

WEIGHT = "weight"
CLUSTER = "cluster"
DEAL_KEYS = ("pairing", "deal")


def weights(df: pd.DataFrame) -> np.ndarray:
    """Frequency weight of every row: the ``weight`` column, or 1."""
    if WEIGHT in df.columns:
        return df[WEIGHT].to_numpy(dtype=float)
    return np.ones(len(df))


def clusters(df: pd.DataFrame) -> np.ndarray:
    """An integer deal-cluster id per row (see the module docstring)."""
    if CLUSTER in df.columns:
        return df[CLUSTER].to_numpy(dtype=np.int64)
    if len(df) and all(k in df.columns for k in DEAL_KEYS):
        codes, _ = pd.MultiIndex.from_frame(df[list(DEAL_KEYS)].astype("int64")).factorize()
        return np.asarray(codes, dtype=np.int64)
    if "match_id" in df.columns:
        return df["match_id"].to_numpy(dtype=np.int64)
    return np.arange(len(df), dtype=np.int64)


def with_design(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with explicit ``weight`` and ``cluster`` columns (a copy when they had to be added)."""
    if WEIGHT in df.columns and CLUSTER in df.columns:
        return df
    return df.assign(**{WEIGHT: weights(df), CLUSTER: clusters(df)})


def design_effects(obs: pd.DataFrame, by: list[str], success: str) -> pd.DataFrame:
    """Weighted counts and the design effect of a proportion, per group.

    Args:
        obs: one row per observation with the ``by`` columns, a boolean ``success`` column, and
            ``weight``/``cluster`` (see :func:`with_design`). Rows of one cluster share its weight.
        by: the grouping columns (may be empty: one group).
        success: the column counted as a success.

    Returns:
        ``by`` columns, ``n`` (weighted observations), ``successes`` and ``deff`` (>= 1).
    """
    keys = list(by)
    o = obs[keys + [success, WEIGHT, CLUSTER]].copy()
    o["_s"] = o[success].astype(float)
    o["_one"] = 1.0
    per_cluster = o.groupby(keys + [CLUSTER], sort=False, observed=True, dropna=False).agg(
        n_g=("_one", "sum"), s_g=("_s", "sum"), k=(WEIGHT, "first")
    )
    per_cluster = per_cluster.reset_index()
    per_cluster["kn"] = per_cluster["k"] * per_cluster["n_g"]
    per_cluster["ks"] = per_cluster["k"] * per_cluster["s_g"]
    group = per_cluster.groupby(keys, sort=True, observed=True, dropna=False) if keys else None
    if group is None:
        totals = pd.DataFrame({"n": [per_cluster["kn"].sum()], "successes": [per_cluster["ks"].sum()]})
        per_cluster["_p"] = totals["successes"].iloc[0] / totals["n"].iloc[0] if totals["n"].iloc[0] else 0.0
    else:
        totals = group.agg(n=("kn", "sum"), successes=("ks", "sum")).reset_index()
        per_cluster = per_cluster.merge(totals, on=keys, how="left")
        per_cluster["_p"] = np.where(per_cluster["n"] > 0, per_cluster["successes"] / per_cluster["n"], 0.0)
    per_cluster["_r2"] = per_cluster["k"] * (per_cluster["s_g"] - per_cluster["_p"] * per_cluster["n_g"]) ** 2
    if keys:
        ss = per_cluster.groupby(keys, sort=True, observed=True, dropna=False)["_r2"].sum().reset_index()
        totals = totals.merge(ss, on=keys, how="left")
    else:
        totals["_r2"] = per_cluster["_r2"].sum()
    n = totals["n"].to_numpy(float)
    p = np.where(n > 0, totals["successes"].to_numpy(float) / np.where(n > 0, n, 1), 0.0)
    binomial = p * (1 - p) * n  # = n^2 * Var_binomial(p)
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.where(binomial > 0, totals["_r2"].to_numpy(float) / binomial, 1.0)
    totals["deff"] = np.maximum(np.nan_to_num(deff, nan=1.0), 1.0)
    return totals.drop(columns="_r2")


def effective_wilson(
    successes: np.ndarray | float, n: np.ndarray | float, deff: np.ndarray | float, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson interval on the effective sample ``n / deff`` (NaN where ``n == 0``)."""
    s = np.asarray(successes, dtype=float)
    t = np.asarray(n, dtype=float)
    d = np.maximum(np.asarray(deff, dtype=float), 1.0)
    n_eff = np.where(t > 0, t / d, 1.0)
    s_eff = np.where(t > 0, s / np.where(t > 0, t, 1.0), 0.0) * n_eff
    lo, hi = proportion_confint(s_eff, n_eff, alpha=alpha, method="wilson")
    lo = np.where(t > 0, lo, np.nan)
    hi = np.where(t > 0, hi, np.nan)
    return np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)


def cluster_sandwich(
    design: np.ndarray,
    residual: np.ndarray,
    weight: np.ndarray,
    cluster: np.ndarray,
    bread: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Cluster-robust covariance ``B M B * G/(G-1)`` of an M-estimator (CR1).

    Args:
        design: the model matrix, one row per observation.
        residual: the score factor of each observation (``y - p`` for a logit).
        weight: the frequency weight of each row (rows of one cluster share it).
        cluster: the cluster id of each row.
        bread: the inverse (penalised) Hessian of the weighted objective.

    Returns:
        (covariance, G) with G the number of clusters (sum of the cluster weights).
    """
    scores = design * residual[:, None]
    codes = np.unique(cluster, return_inverse=True)[1].ravel()
    n_clusters = int(codes.max()) + 1 if len(codes) else 0
    summed = np.zeros((n_clusters, design.shape[1]))
    np.add.at(summed, codes, scores)
    k = np.zeros(n_clusters)
    k[codes] = weight
    meat = (summed * k[:, None]).T @ summed
    g = float(k.sum())
    factor = g / (g - 1) if g > 1 else np.nan
    return bread @ meat @ bread * factor, int(round(g))
