"""Patched arms and card-value sweeps: every figure's strength per arm and tier, and the fitted curve.

An experiment whose arms play balance patches (``krosbalance.sim.patches``; the manifest's
``patches``) is read arm by arm: each arm's matches get their own teammate-adjusted strength fit
(:func:`krosbalance.analysis.strength.adjusted_strength`, per AI tier and pooled, via
:func:`krosbalance.analysis.dependence.strength_by`), so a patched figure's strength is that of its
patched card, and every other figure's strength beside it shows where the patch moves them.

A sweep (the manifest's ``sweep``: one arm per grid point of card values of one figure) adds a
curve: the swept figure's strength against the swept value(s), fitted per tier by weighted least
squares (``statsmodels`` WLS, weights 1/se², the residual scale floored at 1 so that a curve that
misses its points widens its interval rather than trusting the points' own errors alone), linear in
each swept field. The value at which the figure is average (strength 0) is the fitted line's root,
each field's with the other fields held at the printed value; its 95% interval is the delta
method's from the fit's covariance. A root outside the grid is an extrapolation and says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import dependence
from krosbalance.analysis.stats import ALPHA
from krosbalance.content.registry import default_registry

BASELINE = "(shipped cards)"
ARM_COLUMNS = [
    "arm",
    "group",
    "term",
    "coef",
    "se",
    "ci_low",
    "ci_high",
    "n",
    "n_matches",
    "method",
    "interval",
]
FIT_COLUMNS = [
    "group",
    "field",
    "intercept",
    "slope",
    "slope_se",
    "root",
    "root_ci_low",
    "root_ci_high",
    "in_grid",
    "points",
    "scale",
    "note",
]


def arms_of(matches: pd.DataFrame) -> pd.Series:
    """Each match's arm (its ``variant``; the unnamed arm is :data:`BASELINE`)."""
    if "variant" not in matches.columns:
        return pd.Series(BASELINE, index=matches.index)
    return matches["variant"].astype(object).fillna("").astype(str).replace("", BASELINE)


def arm_strengths(matches: pd.DataFrame, by: str = "tier") -> pd.DataFrame:
    """Every figure's strength in every arm, per AI tier (``by="ai_matchup"``: per AI matchup) and
    pooled (``group``): :data:`ARM_COLUMNS`."""
    arms = arms_of(matches)
    frames = []
    for arm in dict.fromkeys(arms):
        long = dependence.strength_by(matches[(arms == arm).to_numpy()], by)
        if not long.empty:
            frames.append(long.assign(arm=arm))
    if not frames:
        return pd.DataFrame(columns=ARM_COLUMNS)
    return pd.concat(frames, ignore_index=True)[ARM_COLUMNS]


def sweep_values(sweep: dict[str, Any]) -> pd.DataFrame:
    """One row per sweep arm: ``arm`` and one column per swept field with its value."""
    rows = [{"arm": p["arm"], **p["values"]} for p in sweep.get("points", [])]
    return pd.DataFrame(rows)


def _numeric(values: pd.Series) -> pd.Series | None:
    """The values as numbers (booleans as 0/1); None when a field is not numeric (a rank)."""
    if values.map(lambda v: isinstance(v, bool)).all():
        return values.astype(int)
    if values.map(lambda v: isinstance(v, int | float) and not isinstance(v, bool)).all():
        return values.astype(float)
    return None


def printed_values(sweep: dict[str, Any], registry: Any = None) -> dict[str, float]:
    """The printed value of each swept field of the swept card (the others' level in a root)."""
    registry = registry or default_registry()
    out: dict[str, float] = {}
    if sweep.get("kind") != "figure":
        return out
    spec = registry.load_character(sweep["target"])
    for path in sweep.get("fields", []):
        parts = path.split(".")
        value: Any = None
        if len(parts) == 1:
            value = getattr(spec, parts[0], None)
        elif parts[0] == "spells" and len(parts) == 3:
            value = getattr(spec.spell(parts[1]), parts[2], None)
        elif parts[0] == "powers" and len(parts) == 2:
            value = spec.has_power(parts[1])
        if isinstance(value, int | float):  # a power's presence (a bool) counts 0 / 1
            out[path] = float(value)
    return out


def fit_sweep(
    points: pd.DataFrame, fields: list[str], printed: dict[str, float], alpha: float = ALPHA
) -> pd.DataFrame:
    """The swept figure's strength against the swept values, one fit per group (tier): :data:`FIT_COLUMNS`,
    one row per group and field. ``points`` holds ``group``, ``coef``, ``se`` and one column per field."""
    import statsmodels.api as sm

    rows = []
    z = sps.norm.ppf(1 - alpha / 2)
    for group, sub in points.groupby("group", sort=False):
        sub = sub[np.isfinite(sub["coef"]) & np.isfinite(sub["se"]) & (sub["se"] > 0)]
        xs = {f: _numeric(sub[f]) for f in fields}
        usable = [f for f in fields if xs[f] is not None and xs[f].nunique() > 1]
        if not usable or len(sub) < len(usable) + 2:
            for f in fields:
                rows.append(
                    dict.fromkeys(FIT_COLUMNS)
                    | {"group": group, "field": f, "points": len(sub), "note": "too few points to fit"}
                )
            continue
        design = sm.add_constant(pd.DataFrame({f: xs[f] for f in usable}), has_constant="add")
        fit = sm.WLS(
            sub["coef"].to_numpy(float), design.to_numpy(float), weights=1 / sub["se"].to_numpy(float) ** 2
        ).fit()
        scale = max(1.0, float(fit.scale))
        cov = np.asarray(fit.normalized_cov_params) * scale
        beta = np.asarray(fit.params)
        for k, f in enumerate(usable, start=1):
            base = np.zeros(len(beta))
            base[0] = 1.0
            for j, other in enumerate(usable, start=1):
                if j != k:
                    base[j] = printed.get(other, float(xs[other].mean()))
            b = beta[k]
            note = ""
            if abs(b) < 1e-12:
                root, lo, hi = np.nan, np.nan, np.nan
                note = "flat: no value makes the figure average"
            else:
                root = -float(base @ beta) / b
                grad = -base / b
                grad[k] = float(base @ beta) / b**2
                se_root = float(np.sqrt(max(grad @ cov @ grad, 0.0)))
                lo, hi = root - z * se_root, root + z * se_root
                if 0 < abs(b) < 2 * np.sqrt(cov[k, k]):
                    note = "slope not clearly non-zero: the root's interval is unreliable"
            grid = xs[f]
            in_grid = bool(np.isfinite(root) and grid.min() <= root <= grid.max())
            if np.isfinite(root) and not in_grid:
                note = (note + "; " if note else "") + "extrapolated beyond the grid"
            rows.append(
                {
                    "group": group,
                    "field": f,
                    "intercept": float(beta[0]),
                    "slope": float(b),
                    "slope_se": float(np.sqrt(cov[k, k])),
                    "root": root,
                    "root_ci_low": lo,
                    "root_ci_high": hi,
                    "in_grid": in_grid,
                    "points": len(sub),
                    "scale": float(fit.scale),
                    "note": note,
                }
            )
    return pd.DataFrame(rows, columns=FIT_COLUMNS)


def sweep_points_table(strengths: pd.DataFrame, sweep: dict[str, Any]) -> pd.DataFrame:
    """The swept figure's strength in each sweep arm and group, with the arm's values."""
    values = sweep_values(sweep)
    if values.empty or strengths.empty:
        return pd.DataFrame()
    own = strengths[strengths["term"] == sweep["target"]]
    return own.merge(values, on="arm", how="inner")


__all__ = ["BASELINE", "arm_strengths", "fit_sweep", "printed_values", "sweep_points_table", "sweep_values"]
