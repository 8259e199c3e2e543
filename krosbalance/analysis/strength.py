"""Teammate-adjusted character strength: a logistic (Bradley–Terry style) model of match outcomes.

Raw pick win rates are confounded: a mediocre character that is usually fielded beside a strong one
wins often. The model credits each character only with what it adds, holding its teammates and
opponents fixed.

Model (one row per decided, error-free match; draws are excluded)::

    logit P(side 0 wins) = a + b * first_0 + mu * size_diff + sum_c delta_c * x_c

where ``x_c`` = copies of character ``c`` on side 0 minus copies on side 1, ``a`` is the side-0
advantage (intercept), ``first_0`` is +1 if side 0 played first and -1 otherwise (only when the first
player varies), and ``size_diff`` = Krosmasters on side 0 minus side 1 (only when team sizes vary;
``mu`` is then the log-odds value of the average character).

Identification: the character effects ``delta_c`` are constrained to **sum to zero** over the
characters that can be estimated, so each is "log-odds of winning added by fielding c instead of an
average character". (With equal team sizes only these contrasts are identifiable at all.) The
constraint is imposed by effect coding: the last character is dropped from the design and its effect
is minus the sum of the others; its standard error comes from the full covariance matrix.

Intervals: matches of one deal share their dice (paired seeds), so the covariance is cluster-robust
over deals (a CR1 sandwich, :func:`krosbalance.analysis.design.cluster_sandwich`) whenever deals hold
several matches and there are at least ``MIN_CLUSTERS`` of them; otherwise it is the model's
(``interval`` column: ``deal-clustered`` or ``model``). Frequency weights (a compressed table) give
the same fit as the full table.

Fallback: if the design is singular or the maximum-likelihood fit does not converge or separates
(a character that always wins, all matches won by side 0, tiny data), the model is refitted with an
L2 penalty ``ridge/2 * |delta|^2`` (a N(0, 1/ridge) prior on every log-odds effect, applied to all
characters, so the sum-to-zero symmetry is kept); intervals are then approximate Laplace intervals
from the penalised Hessian, and the ``method`` column says ``ridge``. The function never raises on
data; with nothing to fit it returns an empty table.
"""

from __future__ import annotations

import warnings
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis.design import cluster_sandwich, clusters, weights
from krosbalance.analysis.shared_attrs import shared_tuple
from krosbalance.analysis.stats import ALPHA, ok_matches, split_team, winner_series

COLUMNS = ["term", "kind", "coef", "se", "ci_low", "ci_high", "p_value", "n", "method", "interval", "note"]
MIN_CLUSTERS = 20
SIDE_TERM = "(side 0)"
FIRST_TERM = "(first player)"
SIZE_TERM = "(team size)"
MAX_ABS_COEF = 12.0  # a log-odds beyond this means separation, not a real estimate


def _decided(matches: pd.DataFrame) -> pd.DataFrame:
    m = ok_matches(matches)
    return m[winner_series(m).notna().to_numpy()]


def strength_design(matches: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame]:
    """Data of the model: per-character differences ``x_c``, outcome ``y`` and the covariates.

    Returns:
        (x, y, covariates): ``x`` has one column per character seen in a decided match, ``y`` is 1
        when side 0 won, ``covariates`` holds the intercept and, when they vary, ``first_0`` and
        ``size_diff`` (named with the term names of the output). One row per decided match (or
        per row of a compressed table; see :func:`krosbalance.analysis.design.weights`).
    """
    m = _decided(matches)
    y = (winner_series(m) == 0).to_numpy(dtype=float)
    t0 = [split_team(t) for t in m["team0"]]
    t1 = [split_team(t) for t in m["team1"]]
    chars = sorted({c for team in t0 + t1 for c in team})
    col = {c: i for i, c in enumerate(chars)}
    x = np.zeros((len(m), len(chars)))
    for r, (a, b) in enumerate(zip(t0, t1, strict=True)):
        for c in a:
            x[r, col[c]] += 1
        for c in b:
            x[r, col[c]] -= 1
    cov = pd.DataFrame({SIDE_TERM: np.ones(len(m))})
    if len(m):
        first = np.where(m["first_player"].to_numpy() == 0, 1.0, -1.0)
        if len(np.unique(first)) > 1:
            cov[FIRST_TERM] = first
        size = np.array([len(a) - len(b) for a, b in zip(t0, t1, strict=True)], dtype=float)
        if np.any(size != 0):
            cov[SIZE_TERM] = size
    return pd.DataFrame(x, columns=chars), y, cov


def _fit_mle(design: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """statsmodels binomial GLM with frequency weights; None if it fails, separates or does not converge."""
    # lazy and narrow: ``statsmodels.api`` imports every model (seconds)
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM

    if np.linalg.matrix_rank(design) < design.shape[1] or len(np.unique(y)) < 2:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = GLM(y, design, family=Binomial(), freq_weights=w).fit(maxiter=100)
        params = np.asarray(res.params, dtype=float)
        cov = np.asarray(res.cov_params(), dtype=float)
    except Exception:  # PerfectSeparationError, LinAlgError... : any failure means "use the fallback"
        return None
    converged = bool(getattr(res, "converged", False))
    if not converged or not np.all(np.isfinite(cov)) or np.any(np.abs(params) > MAX_ABS_COEF):
        return None
    if np.any(np.diag(cov) <= 0):
        return None
    return params, cov


def _fit_ridge(
    design: np.ndarray, y: np.ndarray, w: np.ndarray, penalty: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Penalised logistic regression by Newton's method; covariance = inverse penalised Hessian."""
    beta = np.zeros(design.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        grad = design.T @ (w * (y - p)) - penalty @ beta
        hess = design.T @ (design * (w * p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(design @ beta)))
    hess = design.T @ (design * (w * p * (1 - p))[:, None]) + penalty
    return beta, np.linalg.inv(hess)


def robust_covariance(
    design: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    g: np.ndarray,
    params: np.ndarray,
    bread: np.ndarray,
) -> tuple[np.ndarray, str]:
    """The deal-clustered covariance of a logit fit when the design has correlated matches.

    Returns the covariance and its label (``deal-clustered``, or ``model`` when every deal holds
    one match or there are fewer than ``MIN_CLUSTERS`` deals: then ``bread`` is returned).
    """
    if len(g) == 0:
        return bread, "model"
    _, sizes = np.unique(g, return_counts=True)
    if sizes.max() < 2:
        return bread, "model"
    p = 1.0 / (1.0 + np.exp(-(design @ params)))
    cov, n_clusters = cluster_sandwich(design, y - p, w, g, bread)
    if n_clusters < MIN_CLUSTERS or not np.all(np.isfinite(cov)):
        return bread, "model"
    return cov, "deal-clustered"


def adjusted_strength(
    matches: pd.DataFrame,
    *,
    method: Literal["auto", "mle", "ridge"] = "auto",
    ridge: float = 1.0,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """Teammate-adjusted strength of every character (see the module docstring for the model).

    Args:
        matches: the matches table (errors and draws are dropped here).
        method: ``auto`` tries maximum likelihood and falls back to ridge; ``mle`` returns NaN
            estimates (with a note) instead of falling back; ``ridge`` always penalises.
        ridge: the L2 penalty (prior precision) of the fallback.
        alpha: 1 - confidence level of the intervals.

    Returns:
        One row per term: ``term`` (character id or a covariate name in brackets), ``kind``
        (``character`` / ``covariate``), ``coef`` (log-odds; characters sum to zero), ``se``,
        ``ci_low``, ``ci_high``, ``p_value`` (Wald, against 0), ``n`` (decided matches the character
        played in; the model's n for covariates), ``method`` (``mle`` / ``ridge`` / ``none``),
        ``interval`` (``deal-clustered`` / ``model``) and a ``note``. Characters sorted by coef,
        descending, then covariates. The covariance matrix of the character effects is in
        ``attrs["character_cov"]`` as ``(terms, rows)`` tuples (tuples so pandas can compare attrs;
        shared, not copied, by derived frames: :mod:`krosbalance.analysis.shared_attrs`); see
        :func:`character_covariance`.
    """
    x, y, cov_df = strength_design(matches)
    m = _decided(matches)
    w, g = weights(m), clusters(m)
    played = {c: 0.0 for c in x.columns}
    for t0, t1, k in zip(m["team0"], m["team1"], w, strict=True):
        for c in set(split_team(t0)) | set(split_team(t1)):
            played[c] += k
    return fit_effects(
        x,
        y,
        cov_df,
        w,
        g,
        played,
        kind="character",
        absent_note="never differs between sides (only mirror appearances): not estimable",
        method=method,
        ridge=ridge,
        alpha=alpha,
    )


def fit_effects(
    x: pd.DataFrame,
    y: np.ndarray,
    cov_df: pd.DataFrame,
    w: np.ndarray,
    g: np.ndarray,
    played: dict[str, float],
    *,
    kind: str,
    absent_note: str,
    method: Literal["auto", "mle", "ridge"] = "auto",
    ridge: float = 1.0,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """Fit ``logit P(y) = covariates + sum_e delta_e x_e`` with the effects summing to zero.

    The engine of :func:`adjusted_strength` (effects = characters) and of the AI ladder (effects =
    AIs, a Bradley-Terry model): maximum likelihood with a ridge fallback, deal-clustered
    covariance, one output row per term (see :func:`adjusted_strength` for the columns; ``kind``
    names the effects). The effects' covariance is in ``attrs["character_cov"]``.
    """
    if len(y) == 0 or x.shape[1] == 0:
        empty = pd.DataFrame(columns=COLUMNS)
        empty.attrs["character_cov"] = shared_tuple(((), ()))
        return empty
    estimable = [c for c in x.columns if np.any(x[c].to_numpy() != 0)]
    k = len(estimable)
    xe = x[estimable].to_numpy()
    # Effect coding for sum-to-zero: delta = L @ d, with d the first k-1 effects.
    if k >= 2:
        L = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
        z = xe @ L
    else:
        L = np.zeros((k, 0))
        z = np.zeros((len(y), 0))
    cov_names = list(cov_df.columns)
    design = np.hstack([cov_df.to_numpy(), z])
    n_cov = len(cov_names)

    fit = None
    used = "ridge"
    note = ""
    if method in ("auto", "mle"):
        fit = _fit_mle(design, y, w)
        used = "mle"
        if fit is not None and np.any(np.abs(L @ fit[0][n_cov:]) > MAX_ABS_COEF):
            fit = None  # the effect left out of the design (minus the sum of the others) diverged
        if fit is None:
            note = "maximum likelihood failed (separation or singular design)"
    if fit is None and method != "mle":
        penalty = np.zeros((design.shape[1], design.shape[1]))
        penalty[:n_cov, :n_cov] = ridge * np.eye(n_cov)
        penalty[n_cov:, n_cov:] = ridge * (L.T @ L)
        fit = _fit_ridge(design, y, w, penalty)
        used = "ridge"
        note = (note + "; " if note else "") + f"L2-penalised fit (ridge={ridge}), approximate intervals"

    z_crit = float(sps.norm.ppf(1 - alpha / 2))
    rows = []
    interval = "none"
    if fit is None:
        coef = np.full(n_cov + k, np.nan)
        cov = np.full((n_cov + k, n_cov + k), np.nan)
        used = "none"
    else:
        params, pcov = fit
        pcov, interval = robust_covariance(design, y, w, g, params, pcov)
        # map back to (covariates, all k deltas)
        T = np.zeros((n_cov + k, design.shape[1]))
        T[:n_cov, :n_cov] = np.eye(n_cov)
        T[n_cov:, n_cov:] = L
        coef = T @ params
        cov = T @ pcov @ T.T
        if k == 1:
            note = (note + "; " if note else "") + f"one estimable {kind}: its effect is 0 by construction"
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    names = cov_names + estimable
    for i, name in enumerate(names):
        is_effect = i >= n_cov
        s = se[i]
        ok = np.isfinite(s) and s > 0
        rows.append(
            {
                "term": name,
                "kind": kind if is_effect else "covariate",
                "coef": coef[i],
                "se": s if ok else np.nan,
                "ci_low": coef[i] - z_crit * s if ok else np.nan,
                "ci_high": coef[i] + z_crit * s if ok else np.nan,
                "p_value": float(2 * sps.norm.sf(abs(coef[i] / s))) if ok else np.nan,
                "n": int(round(played[name] if is_effect else w.sum())),
                "method": used,
                "interval": interval,
                "note": note,
            }
        )
    for c in x.columns:
        if c not in estimable:
            rows.append(
                {
                    "term": c,
                    "kind": kind,
                    "coef": np.nan,
                    "se": np.nan,
                    "ci_low": np.nan,
                    "ci_high": np.nan,
                    "p_value": np.nan,
                    "n": int(round(played[c])),
                    "method": used,
                    "interval": interval,
                    "note": absent_note,
                }
            )
    out = pd.DataFrame(rows, columns=COLUMNS)
    effects = out[out["kind"] == kind].sort_values(
        ["coef", "term"], ascending=[False, True], na_position="last"
    )
    covs = out[out["kind"] == "covariate"]
    result = pd.concat([effects, covs], ignore_index=True)
    effect_cov = cov[n_cov:, n_cov:] if k else np.zeros((0, 0))
    result.attrs["character_cov"] = shared_tuple(
        (tuple(estimable), tuple(tuple(map(float, r)) for r in effect_cov))
    )
    return result


def character_strengths(strength: pd.DataFrame) -> pd.DataFrame:
    """Only the character rows with an estimate (drops covariates and non-estimable characters)."""
    if strength.empty:
        return strength
    return strength[(strength["kind"] == "character") & strength["coef"].notna()].reset_index(drop=True)


def character_covariance(strength: pd.DataFrame) -> pd.DataFrame | None:
    """The covariance of the character effects stored by :func:`adjusted_strength` (None if absent)."""
    stored = strength.attrs.get("character_cov")
    if not stored or not stored[0]:
        return None
    terms, rows = stored
    return pd.DataFrame(np.array(rows, dtype=float), index=list(terms), columns=list(terms))
