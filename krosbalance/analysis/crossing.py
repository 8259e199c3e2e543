"""Where a paired effect crosses zero: the fit behind "at what price is this token fair?" and "which
tier threshold makes this challenge neutral?".

The data are matches of one study, each with a 0/1 (or ½ for a draw) ``score`` of the side whose
edge is measured (the token's holder; the first player), the ``deal`` it belongs to (every arm of a
deal shares its seed, so the matches of one deal are not independent), and either ``x`` (the swept
value: a price, a threshold) or ``x`` missing for the paired baseline arm (no token; no challenge).

Two logistic models, both fitted by ``statsmodels`` GLM (binomial, logit link) with deal-clustered
(cluster-robust) covariances:

- per point, ``score ~ 1 + one dummy per swept value``: each value's Δ log-odds against the
  baseline with its 95% interval (:func:`point_effects`);
- the curve, ``score ~ 1 + treated + treated·x``: Δ log-odds(x) = a + b·x, linear in the swept
  value, and its root x* = −a/b, where the effect is zero; the root's 95% interval is the delta
  method's from the clustered covariance of (a, b) (:func:`fit_crossing`). A root outside the swept
  grid is an extrapolation and says so; a slope whose interval holds 0 makes the root unreliable and
  says so too.

The Δ are population-averaged (over the deals of the study) log-odds differences of the measured
side's win probability, not per-deal ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis.stats import ALPHA

POINT_COLUMNS = ["x", "n", "n_deals", "rate", "coef", "se", "ci_low", "ci_high"]
FIT_COLUMNS = [
    "intercept",
    "slope",
    "slope_se",
    "root",
    "root_ci_low",
    "root_ci_high",
    "in_grid",
    "n",
    "n_deals",
    "baseline_rate",
    "note",
]


def _glm(y: np.ndarray, design: np.ndarray, groups: np.ndarray) -> Any:
    import statsmodels.api as sm

    model = sm.GLM(y, design, family=sm.families.Binomial())
    if len(np.unique(groups)) > 1:
        return model.fit(cov_type="cluster", cov_kwds={"groups": groups})
    return model.fit()


def _deal_codes(deals: pd.Series) -> np.ndarray:
    return pd.factorize(deals.astype(str))[0]


def point_effects(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Each swept value's Δ log-odds against the baseline (rows with ``x`` missing): :data:`POINT_COLUMNS`
    (``x`` NaN = the baseline itself, coef 0); empty when there is no baseline or no swept value."""
    frame = frame[np.isfinite(frame["score"].to_numpy(float))]
    base = frame["x"].isna()
    values = sorted(frame.loc[~base, "x"].unique())
    if not base.any() or not values:
        return pd.DataFrame(columns=POINT_COLUMNS)
    design = np.column_stack([np.ones(len(frame))] + [(frame["x"] == v).to_numpy(float) for v in values])
    fit = _glm(frame["score"].to_numpy(float), design, _deal_codes(frame["deal"]))
    z = sps.norm.ppf(1 - alpha / 2)
    beta, se = np.asarray(fit.params), np.asarray(fit.bse)
    rows = [
        {
            "x": np.nan,
            "n": int(base.sum()),
            "n_deals": int(frame.loc[base, "deal"].nunique()),
            "rate": float(frame.loc[base, "score"].mean()),
            "coef": 0.0,
            "se": 0.0,
            "ci_low": 0.0,
            "ci_high": 0.0,
        }
    ]
    for k, v in enumerate(values, start=1):
        here = frame["x"] == v
        rows.append(
            {
                "x": float(v),
                "n": int(here.sum()),
                "n_deals": int(frame.loc[here, "deal"].nunique()),
                "rate": float(frame.loc[here, "score"].mean()),
                "coef": float(beta[k]),
                "se": float(se[k]),
                "ci_low": float(beta[k] - z * se[k]),
                "ci_high": float(beta[k] + z * se[k]),
            }
        )
    return pd.DataFrame(rows, columns=POINT_COLUMNS)


def fit_crossing(frame: pd.DataFrame, alpha: float = ALPHA) -> dict[str, Any]:
    """The line Δ log-odds(x) = intercept + slope·x against the baseline and its root (see the module
    docstring): a dict of :data:`FIT_COLUMNS` (NaN and a ``note`` when it cannot be fitted)."""
    frame = frame[np.isfinite(frame["score"].to_numpy(float))]
    treated = frame["x"].notna().to_numpy()
    out: dict[str, Any] = dict.fromkeys(FIT_COLUMNS, np.nan) | {
        "n": len(frame),
        "n_deals": int(frame["deal"].nunique()),
        "in_grid": False,
        "note": "",
        "baseline_rate": float(frame.loc[~treated, "score"].mean()) if (~treated).any() else np.nan,
    }
    xs = frame["x"].to_numpy(float)
    if not (~treated).any() or len(np.unique(xs[treated])) < 2:
        return out | {"note": "needs a baseline arm and at least two swept values"}
    design = np.column_stack([np.ones(len(frame)), treated.astype(float), np.where(treated, xs, 0.0)])
    fit = _glm(frame["score"].to_numpy(float), design, _deal_codes(frame["deal"]))
    beta = np.asarray(fit.params)
    cov = np.asarray(fit.cov_params())
    a, b = float(beta[1]), float(beta[2])
    slope_se = float(np.sqrt(max(cov[2, 2], 0.0)))
    out |= {"intercept": a, "slope": b, "slope_se": slope_se}
    if abs(b) < 1e-12:
        return out | {"note": "flat: no swept value cancels the effect"}
    z = sps.norm.ppf(1 - alpha / 2)
    root = -a / b
    grad = np.array([-1.0 / b, a / b**2])  # d root / d (a, b)
    se_root = float(np.sqrt(max(grad @ cov[1:, 1:] @ grad, 0.0)))
    grid = xs[treated]
    in_grid = bool(grid.min() <= root <= grid.max())
    notes = []
    if abs(b) < z * slope_se:
        notes.append("slope not clearly non-zero: the root's interval is unreliable")
    if not in_grid:
        notes.append("extrapolated beyond the grid")
    return out | {
        "root": root,
        "root_ci_low": root - z * se_root,
        "root_ci_high": root + z * se_root,
        "in_grid": in_grid,
        "note": "; ".join(notes),
    }


def closest_point(points: pd.DataFrame) -> dict[str, Any]:
    """The swept value whose measured Δ is nearest 0 (its row of :func:`point_effects`), whether its
    interval holds 0, and whether the points are monotone in the value: a response that rises then
    falls (two successive steps of opposite sign, each beyond its points' mean standard error) has
    no meaningful line root, and the closest point is then the answer the data give."""
    shown = points[points["x"].notna()].sort_values("x")
    if shown.empty:
        return {}
    best = shown.loc[shown["coef"].abs().idxmin()]
    steps = np.diff(shown["coef"].to_numpy(float))
    noise = float(shown["se"].mean())
    signs = [np.sign(d) for d in steps if abs(d) > noise]
    monotone = all(a == b for a, b in zip(signs, signs[1:], strict=False))
    return {
        "x": float(best["x"]),
        "coef": float(best["coef"]),
        "ci_low": float(best["ci_low"]),
        "ci_high": float(best["ci_high"]),
        "holds_zero": bool(best["ci_low"] <= 0 <= best["ci_high"]),
        "monotone": monotone,
    }


def fits_by(frame: pd.DataFrame, by: str, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`point_effects` and :func:`fit_crossing` per value of column ``by`` (an AI, a tier):
    (points with ``by``, fits with ``by``)."""
    points, fits = [], []
    for key, sub in frame.groupby(by, sort=True):
        p = point_effects(sub, alpha)
        fit = fit_crossing(sub, alpha)
        if not p.empty:
            points.append(p.assign(**{by: key}))
            near = closest_point(p)
            fit |= {f"closest_{k}": v for k, v in near.items()}
            if not near.get("monotone", True):
                fit["note"] = "; ".join(
                    filter(
                        None, [fit["note"], "not monotone in the value: the line's root is not meaningful"]
                    )
                )
        fits.append({by: key, **fit})
    return (
        pd.concat(points, ignore_index=True) if points else pd.DataFrame(columns=[*POINT_COLUMNS, by]),
        pd.DataFrame(fits),
    )


def sweep_kind(rs: Any) -> str:
    """The kind of sweep a run recorded in its manifest: ``price`` (a reward's price sweep), ``challenge``
    (a challenge's tier sweep) or '' (none): the record, not a guess from the matches."""
    sweep = (rs.manifest or {}).get("sweep") or {}
    if sweep.get("kind") == "reward" and sweep.get("prices"):
        return "price"
    if sweep.get("kind") == "challenge" and sweep.get("fields"):
        return "challenge"
    return ""


__all__ = [
    "FIT_COLUMNS",
    "POINT_COLUMNS",
    "closest_point",
    "fit_crossing",
    "fits_by",
    "point_effects",
    "sweep_kind",
]
