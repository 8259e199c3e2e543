"""The fix finder's fit and proposal: each knob's slope from a probe's matches (:func:`sensitivity`),
then the fewest, smallest changes that bring every figure within the band (:func:`solve`,
:func:`propose`); see :mod:`krosbalance.studies.patches.fixer`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import Bounds, LinearConstraint, milp

from krosbalance.analysis.design import clusters, weights
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.stats import split_team
from krosbalance.analysis.strength import _decided, character_strengths, fit_effects, strength_design
from krosbalance.sim.fix_table import (
    Changes,
    FixSpec,
    _minimum,
    _printed,
    changes_patch,
    field_key,
    is_spell_knob,
    parse_knob_arm,
)
from krosbalance.sim.patches import Patch
from krosbalance.sim.runner import read_manifest

COUNT_WEIGHT = 1000.0
"""Objective weight of one changed value against one unit of change: fewest values first."""
WORST_SLACK = 0.05
#: the sign a knob's slope must have to be used: more HP, AP, MP, damage or range helps its figure,
#: a dearer spell hurts it. A slope of the other sign with 95% confidence is far likelier noise (or
#: an AI's misuse of the spell) than a card that gets stronger when it is weakened: it is left out
#: and named in the report. Initiative is left free (playing later can help).
EXPECTED_SIGN: dict[str, int] = {
    "hp": 1,
    "ap": 1,
    "mp": 1,
    "spells.ap_cost": -1,
    "spells.amount": 1,
    "spells.range_max": 1,
}
"""When the band is out of reach: how far (log-odds) above the least reachable worst |strength| the
proposal may stay, to change fewer values (a third of the default band, well inside a probe's CI)."""


# ---------------------------------------------------------------------------------- sensitivity fit


def sensitivity(
    matches: pd.DataFrame, knobs: Mapping[str, tuple[str, str, int]], shared: bool = True
) -> pd.DataFrame:
    """Each figure's strength at the printed values and each knob's slope, from the probe's matches.

    ``knobs`` maps a probe arm to (figure, field, step). Returns the rows of
    :func:`krosbalance.analysis.strength.fit_effects`: characters (``kind = character``) and one
    covariate per knob named ``figure.field`` (log-odds per unit of the value), or with ``shared`` one
    per field named ``field``, common to every figure."""

    m = _decided(matches)
    x, y, covs = strength_design(m)
    arms = m["variant"].astype(str).to_numpy() if "variant" in m.columns else np.array([""] * len(m))
    for arm, (figure, name, step) in knobs.items():
        term = slope_term(figure, name, shared)
        column = covs[term].to_numpy(copy=True) if term in covs.columns else np.zeros(len(m))
        rows = np.flatnonzero(arms == arm)
        for r in rows:
            t0, t1 = split_team(m["team0"].iloc[r]), split_team(m["team1"].iloc[r])
            column[r] = step * (t0.count(figure) - t1.count(figure))
        covs[term] = column
    w, g = weights(m), clusters(m)
    played = {c: 0.0 for c in x.columns}
    for t0, t1, k in zip(m["team0"], m["team1"], w, strict=True):
        for c in set(split_team(t0)) | set(split_team(t1)):
            played[c] += k
    return fit_effects(x, y, covs, w, g, played, kind="character", absent_note="not estimable")


def slope_term(figure: str, name: str, shared: bool) -> str:
    """The fit's covariate of a knob: the field (shared slopes) or ``figure.knob`` (a spell's value
    always, a character field with per-figure slopes)."""
    return name if shared and not is_spell_knob(name) else f"{figure}.{name}"


# ------------------------------------------------------------------------------------------ proposal


@dataclass(frozen=True)
class Proposal:
    """The proposed patch, each figure's predicted strength under it, and how it was found."""

    patch: Patch
    changes: tuple[tuple[str, str, int], ...]  # (figure, field, change)
    predicted: pd.DataFrame  # term, before, before_se, predicted, predicted_se, ci_low, ci_high
    band: float
    reached: bool
    solver: str
    slopes: tuple[tuple[str, float, float, float], ...] = ()  # (term, log-odds per unit, 95% CI)
    unused: tuple[str, ...] = ()  # slopes whose interval holds 0: left out
    against: tuple[str, ...] = ()  # slopes of the unexpected sign with confidence: left out as noise
    round: int = 1
    step_changes: tuple[tuple[str, str, int], ...] = ()  # this round's changes from its probe's base

    @property
    def total(self) -> dict[tuple[str, str], int]:
        """(figure, knob) -> change from the printed value: the whole patch."""
        return {(f, n): d for f, n, d in self.changes}

    def as_manifest(self) -> dict[str, Any]:
        return {
            "band": self.band,
            "reached": self.reached,
            "solver": self.solver,
            "patch": json.loads(self.patch.json),
            "changes": [list(c) for c in self.changes],
            "predicted": self.predicted.to_dict(orient="records"),
            "slopes": [list(s) for s in self.slopes],
            "unused": list(self.unused),
            "against": list(self.against),
            "round": self.round,
            "step_changes": [list(c) for c in self.step_changes],
        }


def solve(
    strengths: Mapping[str, float],
    slopes: Mapping[tuple[str, str], float],
    bounds: Mapping[tuple[str, str], tuple[int, int]],
    band: float,
    count_cost: Mapping[tuple[str, str], float] | None = None,
) -> tuple[dict[tuple[str, str], int], bool, str]:
    """The integer changes (per (figure, field)) of fewest values, then smallest total change, that
    put every predicted strength within ±band, only figures outside the band
    changed, each change moving its own figure towards 0 and none past the other side of the band; else, among the changes whose largest predicted
    |strength| is within ``WORST_SLACK`` of the least reachable, the fewest and smallest.
    Returns (changes, reached, solver message). ``scipy.optimize.milp`` (HiGHS)."""

    figures = list(strengths)
    knobs = list(slopes)
    n_f, n_k = len(figures), len(knobs)
    if not n_k:
        within = all(abs(v) <= band for v in strengths.values())
        return {}, within, "no value to change (no slope above 0 with 95% confidence)"
    s0 = np.array([strengths[f] for f in figures])
    a = np.zeros((n_f, n_k))  # d strength_f / d change_k
    for j, (figure, name) in enumerate(knobs):
        a[:, j] = -slopes[(figure, name)] / n_f
        if figure in figures:
            a[figures.index(figure), j] += slopes[(figure, name)]
    lo = np.array([bounds[k][0] for k in knobs], dtype=float)
    hi = np.array([bounds[k][1] for k in knobs], dtype=float)
    for j, (figure, name) in enumerate(knobs):
        # A change moves its own figure towards the average, never away: a designer does not
        # weaken an under-powered figure (or strengthen an over-powered one) to shift the others.
        s_f = strengths.get(figure, 0.0)
        if abs(s_f) <= band:  # a figure already within the band is left as printed
            lo[j] = hi[j] = 0.0
        elif abs(s_f) > band:
            if (s_f > 0) == (slopes[(figure, name)] > 0):
                hi[j] = min(hi[j], 0.0)
            else:
                lo[j] = max(lo[j], 0.0)

    # variables: p (n_k), n (n_k), z (n_k) [, t]; change = p - n
    def build(
        with_t: bool, t_cap: float | None = None
    ) -> tuple[np.ndarray, list[LinearConstraint], Bounds, np.ndarray]:
        size = 3 * n_k + (1 if with_t else 0)
        rows, lbs, ubs = [], [], []
        for f in range(n_f):
            row = np.zeros(size)
            row[:n_k], row[n_k : 2 * n_k] = a[f], -a[f]
            if with_t:  # |s0 + a d| <= t
                up, down = row.copy(), row.copy()
                up[-1] = -1.0
                down[-1] = 1.0
                rows += [up, down]
                lbs += [-np.inf, -s0[f]]
                ubs += [-s0[f], np.inf]
                if abs(s0[f]) > band:  # no overshoot: a strong figure ends no weaker than -band
                    keep = row.copy()
                    keep[-1] = 0.0
                    rows.append(keep)
                    lbs.append(-band - s0[f] if s0[f] > 0 else -np.inf)
                    ubs.append(band - s0[f] if s0[f] < 0 else np.inf)
            else:
                rows.append(row)
                lbs.append(-band - s0[f])
                ubs.append(band - s0[f])
        for j in range(n_k):  # p_j <= hi_j z_j, n_j <= -lo_j z_j
            row = np.zeros(size)
            row[j], row[2 * n_k + j] = 1.0, -max(hi[j], 0.0)
            rows.append(row)
            lbs.append(-np.inf)
            ubs.append(0.0)
            row = np.zeros(size)
            row[n_k + j], row[2 * n_k + j] = 1.0, -max(-lo[j], 0.0)
            rows.append(row)
            lbs.append(-np.inf)
            ubs.append(0.0)
        unit = 1.0 / np.maximum(np.maximum(hi, -lo), 1.0)  # a change counts relative to its bound
        counts = np.array([(count_cost or {}).get(k, COUNT_WEIGHT) for k in knobs], dtype=float)
        cost = np.concatenate([unit, unit, counts])
        upper = np.concatenate([np.maximum(hi, 0), np.maximum(-lo, 0), np.ones(n_k)])
        if with_t and t_cap is None:
            cost = np.concatenate([cost * 1e-6, [1.0]])
            upper = np.concatenate([upper, [np.inf]])
        elif with_t:  # the worst held near its least: then fewest and smallest changes
            cost = np.concatenate([cost, [0.0]])
            upper = np.concatenate([upper, [t_cap]])
        constraints = [LinearConstraint(np.array(rows), np.array(lbs), np.array(ubs))]
        integrality = np.ones(size)
        if with_t:
            integrality[-1] = 0
        return cost, constraints, Bounds(np.zeros(size), upper), integrality

    cost, constraints, box, integrality = build(False)
    result = milp(cost, constraints=constraints, bounds=box, integrality=integrality)
    reached = result.status == 0
    if not reached:
        cost, constraints, box, integrality = build(True)
        result = milp(cost, constraints=constraints, bounds=box, integrality=integrality)
        if result.status != 0:
            return {}, False, f"scipy.optimize.milp: {result.message}"
        # Minimax alone buys the last hundredth of the worst figure with any number of changes
        # (weakening a weak figure to lift the worst by the sum-to-zero shift): accept a worst
        # within WORST_SLACK of the least, and among those take the fewest, smallest changes.
        cost, constraints, box, integrality = build(True, float(result.x[-1]) + WORST_SLACK)
        second = milp(cost, constraints=constraints, bounds=box, integrality=integrality)
        if second.status == 0:
            result = second
    x = np.round(result.x).astype(int)
    changes = {k: int(x[j] - x[n_k + j]) for j, k in enumerate(knobs) if x[j] - x[n_k + j] != 0}
    return changes, reached, "scipy.optimize.milp (HiGHS)"


def slope_verdict(covariates: pd.DataFrame, term: str, name: str) -> str:
    """Whether the probe's slope of a knob may drive the proposal: ``use``; ``unused`` (not fitted,
    or its 95% interval contains 0); ``against`` (the unexpected sign with confidence,
    :data:`EXPECTED_SIGN`)."""
    if term not in covariates.index or not np.isfinite(covariates.loc[term, "coef"]):
        return "unused"
    if covariates.loc[term, "ci_low"] <= 0 <= covariates.loc[term, "ci_high"]:
        return "unused"
    if EXPECTED_SIGN.get(field_key(name), 0) * float(covariates.loc[term, "coef"]) < 0:
        return "against"
    return "use"


def propose(folder: Path, spec: FixSpec, base: Changes | None = None, round_: int = 1) -> Proposal:
    """The proposal from a finished probe stage's results folder. ``base`` is the patch that probe
    played as its base arm (the last round's proposal; none in round 1): the fit's strengths are
    those under it, each knob moves from its base value, and the bounds hold for the total change
    from the printed value (``max_change``, ``max_share``) and for the step from the probed value
    (at most the probe's step either way: never extrapolated further than that)."""

    base = dict(base or {})
    manifest = read_manifest(folder)
    knobs: dict[str, tuple[str, str, int]] = {}
    for arm in manifest.get("patches") or {}:
        if arm not in ("shipped", "proposed"):
            knobs[arm] = parse_knob_arm(arm)
    matches = ResultSet.load(folder).matches  # the full table (the summary has no arm column)
    fit = sensitivity(matches, knobs, shared=spec.slopes == "shared")
    chars = character_strengths(fit).set_index("term")
    covariates = fit[fit["kind"] == "covariate"].set_index("term")
    strengths = {str(t): float(c) for t, c in chars["coef"].items()}
    slopes: dict[tuple[str, str], float] = {}
    slope_se: dict[tuple[str, str], float] = {}
    bounds: dict[tuple[str, str], tuple[int, int]] = {}
    count_cost: dict[tuple[str, str], float] = {}
    unused: list[str] = []
    against: list[str] = []
    for figure, name, step in knobs.values():
        term = slope_term(figure, name, spec.slopes == "shared")
        verdict = slope_verdict(covariates, term, name)
        usable = verdict == "use"
        if verdict == "unused":
            unused.append(term)
        elif verdict == "against":
            against.append(term)
        if usable:
            slopes[(figure, name)] = float(covariates.loc[term, "coef"])
            slope_se[(figure, name)] = float(covariates.loc[term, "se"])
            bounds[(figure, name)] = knob_bounds(spec, figure, name, base.get((figure, name), 0), step)
            count_cost[(figure, name)] = 0.0 if base.get((figure, name)) else COUNT_WEIGHT
    changes, reached, solver = solve(strengths, slopes, bounds, spec.band, count_cost=count_cost)
    predicted = _predict(chars, changes, slopes, slope_se, shared=spec.slopes == "shared")
    slope_rows = fit[fit["kind"] == "covariate"]
    slope_rows = slope_rows[slope_rows["term"].astype(str).str[0] != "("]
    total = dict(base)
    for key, d in changes.items():
        total[key] = total.get(key, 0) + d
    total = {k: d for k, d in sorted(total.items()) if d}
    patch = changes_patch(total, str(folder), f"{manifest.get('experiment', 'fix')}-proposal")
    return Proposal(
        patch=patch,
        changes=tuple((f, n, d) for (f, n), d in sorted(total.items())),
        predicted=predicted,
        band=spec.band,
        reached=reached,
        solver=solver,
        slopes=tuple(
            (str(r.term), float(r.coef), float(r.ci_low), float(r.ci_high)) for r in slope_rows.itertuples()
        ),
        unused=tuple(dict.fromkeys(unused)),
        against=tuple(dict.fromkeys(against)),
        round=round_,
        step_changes=tuple((f, n, d) for (f, n), d in sorted(changes.items())),
    )


def knob_bounds(spec: FixSpec, figure: str, name: str, done: int, step: int) -> tuple[int, int]:
    """The change this round may make to a knob already changed by ``done``: within the probe's step
    of the probed value, the total within ``bound_of`` the printed value, the value not below its
    minimum (a figure keeps 1 HP, a damage spell 1 damage)."""
    printed = _printed(figure, name)
    bound = spec.bound_of(name, printed)
    low = max(-step, -bound - done, _minimum(name) - printed - done)
    high = min(step, bound - done)
    return min(low, 0), max(high, 0)


def _predict(
    chars: pd.DataFrame,
    changes: Mapping[tuple[str, str], int],
    slopes: Mapping[tuple[str, str], float],
    slope_se: Mapping[tuple[str, str], float],
    shared: bool = True,
) -> pd.DataFrame:
    """Predicted strength of every figure under the changes, with a 95% interval that adds the
    baseline's variance and the used slopes' (a shared slope counted once; treated as independent
    of the baseline)."""
    figures = list(chars.index)
    n = len(figures)
    rows = []
    for f in figures:
        move = 0.0
        by_term: dict[str, tuple[float, float]] = {}
        for (figure, name), d in changes.items():
            weight = (1.0 if figure == f else 0.0) - 1.0 / n
            move += weight * slopes[(figure, name)] * d
            term = slope_term(figure, name, shared)
            total, se = by_term.get(term, (0.0, slope_se[(figure, name)]))
            by_term[term] = (total + weight * d, se)
        var = float(chars.loc[f, "se"]) ** 2 + sum((total * se) ** 2 for total, se in by_term.values())
        before = float(chars.loc[f, "coef"])
        se = float(np.sqrt(var))
        rows.append(
            {
                "term": f,
                "before": before,
                "before_se": float(chars.loc[f, "se"]),
                "predicted": before + move,
                "predicted_se": se,
                "ci_low": before + move - 1.96 * se,
                "ci_high": before + move + 1.96 * se,
            }
        )
    return pd.DataFrame(rows)
