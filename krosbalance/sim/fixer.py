"""The fix finder: the smallest balance patch that brings every figure within a band, then verified.

``krosbalance fix EXPERIMENT`` reads an experiment file with a ``[fix]`` table and runs two stages,
each a normal results folder (``OUT/stage-01-probe``, ``OUT/stage-02-verify``)::

    [fix]
    band = 0.15                  # every figure's strength within ±band log-odds (default 0.15)
    fields = ["hp", "spells.ap_cost"]
                                 # which card values may change: hp, ap, mp, initiative, and
                                 # spells.<field> (ap_cost, amount, range_max: every spell of the
                                 # figure that has the value, one knob per spell)
    figures = "all"              # or a list: only these figures' values may change
    step = { hp = 2 }            # probe: each (figure, field) arm plays the value + step
    max_change = { hp = 2 }      # the proposal changes a value by at most this (default: the step,
                                 # so the fit is never extrapolated past what the probe played)
    max_share = 0.25             # ... and by at most this share of the printed value (at least 1):
                                 # a 6-HP figure moves by 1, a 12-HP one by 3 (default 0.25)
    verify_deals = 4             # deals per pairing of the verification run (default: the file's)
    verify_ais = ["lookahead-fast"]
                                 # stronger AIs added to the verification only (one deal per
                                 # pairing and board each): is the fix still a fix under better play?
    slopes = "shared"            # one slope per field for every figure (default; 8x the data of
                                 # each), or "per_figure"; a spell's slope is always its figure's

1. **Probe.** The experiment's matches under the shipped cards and under one arm per (figure,
   field) with that value raised by ``step`` (a patch each), paired on the same seeds. One logistic
   model over every probe match (:func:`sensitivity`) gives each figure's strength at the printed
   values (effects summing to zero, as :mod:`krosbalance.analysis.strength`) and, per (figure,
   field), the log-odds its side gains per unit of that value (a covariate: the value's change times
   the figure's copies on side 0 minus side 1), with deal-clustered intervals. By default one slope
   per field is shared by every figure (a point of HP is worth the same to each: far less noise);
   ``slopes = "per_figure"`` fits one per (figure, field); a spell's value (``spells.<spell>.<field>``)
   belongs to one figure and always gets its own slope. A knob whose slope's 95% interval contains 0
   is left out of the proposal (no evidence that changing it moves anyone), so the optimiser never
   exploits noise; a slope may be negative (a dearer spell weakens its figure).
2. **Proposal.** Changing figure f's value by d moves f by ``slope * d`` and, the strengths summing to
   zero, every figure by ``-slope * d / N``. The fewest changed values, then the smallest changes,
   that bring every predicted strength within the band is an integer linear programme solved by
   ``scipy.optimize.milp`` (HiGHS). A change is bounded twice, so the proposal stays a patch a
   designer would print and the linear fit is not stretched past what was measured: by
   ``max_change`` (default: the probe's step) and by ``max_share`` of the printed value (at least
   1); "smallest" counts each change relative to its bound. When no patch within the bounds reaches
   the band, the one that minimises the largest predicted |strength| is proposed and the report says
   so.
3. **Verification.** A fresh run, on seeds of its own (the master seed + 1), of the shipped cards
   and the proposed patch side by side (paired), with the ``verify_ais`` (e.g. the search tier)
   beside the file's AIs; the report's Balance patches section sets the predicted strength of every
   figure (95% interval from the probe fit) against the measured one, per AI tier.

The stages follow the shared staged-study shape (a planner with ``first()`` and ``next(finished)``,
``krosbalance.sim.stages``): each stage's experiment is a pure function of the finished stages'
results, so ``--resume`` continues where a run stopped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import Experiment, load_experiment
from krosbalance.sim.patches import CHARACTER_FIELDS, MINIMUM, Patch, parse_patch

FIX_KEYS: tuple[str, ...] = (
    "band",
    "fields",
    "figures",
    "step",
    "max_change",
    "max_share",
    "verify_deals",
    "verify_ais",
    "slopes",
)
SLOPES: tuple[str, ...] = ("shared", "per_figure")
DEFAULT_BAND = 0.15
DEFAULT_STEP: dict[str, int] = {"hp": 2, "ap": 1, "mp": 1, "initiative": 2}
#: spell values a fix may change (``spells.<field>`` in ``fields``): one knob per spell that has it
SPELL_KNOBS: tuple[str, ...] = ("ap_cost", "amount", "range_max")
#: the lowest value a changed spell value may take (a damage spell keeps some damage; a ranged
#: spell some range; a spell may become free, as in the issue's "Transposition AP 1 -> 0")
SPELL_MINIMUM: dict[str, int] = {"ap_cost": 0, "amount": 1, "range_max": 1}
DEFAULT_SHARE = 0.25
COUNT_WEIGHT = 1000.0
"""Objective weight of one changed value against one unit of change: fewest values first."""


@dataclass(frozen=True)
class FixSpec:
    """The ``[fix]`` table, validated."""

    band: float = DEFAULT_BAND
    fields: tuple[str, ...] = ("hp",)
    figures: tuple[str, ...] = ()  # () = every figure of the experiment
    step: Mapping[str, int] = field(default_factory=dict)
    max_change: Mapping[str, int] = field(default_factory=dict)
    verify_deals: int = 0
    slopes: str = "shared"
    max_share: float = DEFAULT_SHARE
    verify_ais: tuple[str, ...] = ()

    def step_of(self, name: str) -> int:
        """The probe's step of a field (``hp``) or a spell knob (``spells.<spell>.ap_cost``)."""
        key = field_key(name)
        return int(self.step.get(key, DEFAULT_STEP.get(key, 1)))

    def bound_of(self, name: str, printed: int | None = None) -> int:
        """The largest change the proposal may make to the value: ``max_change`` (default the step)
        and, given the printed value, ``max_share`` of it (at least 1)."""
        key = field_key(name)
        bound = int(self.max_change.get(key, self.step_of(name)))
        if printed is not None:
            bound = min(bound, max(1, int(self.max_share * abs(printed))))
        return bound


def field_key(name: str) -> str:
    """The ``fields`` entry a knob comes from: ``spells.plaguing_arrow.ap_cost`` -> ``spells.ap_cost``."""
    parts = name.split(".")
    return f"spells.{parts[-1]}" if parts[0] == "spells" and len(parts) == 3 else name


def is_spell_knob(name: str) -> bool:
    return name.startswith("spells.")


def parse_fix(table: Any, file: str) -> FixSpec:
    """Validate a ``[fix]`` table; ``ExperimentError(file, "fix.<key>", reason)`` for the first problem."""
    from krosbalance.content.registry import default_registry
    from krosbalance.errors import ContentError

    if not isinstance(table, dict):
        raise ExperimentError(
            file, "fix", "must be a table (band, fields, figures, step, max_change, verify_deals)"
        )
    for key in table:
        if key not in FIX_KEYS:
            raise ExperimentError(file, f"fix.{key}", f"unknown key; expected one of: {', '.join(FIX_KEYS)}")
    band = table.get("band", DEFAULT_BAND)
    if isinstance(band, bool) or not isinstance(band, int | float) or not 0 < band < 5:
        raise ExperimentError(file, "fix.band", f"must be a log-odds between 0 and 5, not {band!r}")
    fields = table.get("fields", ["hp"])
    known = CHARACTER_FIELDS + tuple(f"spells.{k}" for k in SPELL_KNOBS)
    if not isinstance(fields, list) or not fields or any(f not in known for f in fields):
        raise ExperimentError(
            file, "fix.fields", f"must list values among {', '.join(known)}, not {fields!r}"
        )
    figures: tuple[str, ...] = ()
    raw = table.get("figures", "all")
    if raw != "all":
        if not isinstance(raw, list) or not raw:
            raise ExperimentError(file, "fix.figures", f'must be "all" or a list of figures, not {raw!r}')
        try:
            figures = tuple(default_registry().load_character(str(name)).id for name in raw)
        except ContentError as exc:
            raise ExperimentError(file, "fix.figures", exc.reason) from None
    maps: dict[str, dict[str, int]] = {}
    for key in ("step", "max_change"):
        value = table.get(key, {})
        if not isinstance(value, dict) or any(
            k not in fields or isinstance(v, bool) or not isinstance(v, int) or v < 1
            for k, v in value.items()
        ):
            raise ExperimentError(
                file, f"fix.{key}", f"must map fields of fix.fields to integers >= 1, not {value!r}"
            )
        maps[key] = dict(value)
    share = table.get("max_share", DEFAULT_SHARE)
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
        raise ExperimentError(
            file, "fix.max_share", f"must be a share of the printed value in (0, 1], not {share!r}"
        )
    verify_ais = _verify_ais(table.get("verify_ais", []), file)
    deals = table.get("verify_deals", 0)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise ExperimentError(file, "fix.verify_deals", f"must be an integer >= 1, not {deals!r}")
    slopes = table.get("slopes", "shared")
    if slopes not in SLOPES:
        raise ExperimentError(file, "fix.slopes", f"must be one of {', '.join(SLOPES)}, not {slopes!r}")
    return FixSpec(
        float(band),
        tuple(fields),
        figures,
        maps["step"],
        maps["max_change"],
        deals,
        slopes,
        float(share),
        verify_ais,
    )


def _verify_ais(raw: Any, file: str) -> tuple[str, ...]:
    """The ``verify_ais`` list: registered AIs that play Arena (one clear line otherwise)."""
    from krosbalance.ai.registry import ai_problem

    if not isinstance(raw, list) or any(not isinstance(a, str) for a in raw):
        raise ExperimentError(file, "fix.verify_ais", f"must be a list of AI names, not {raw!r}")
    for name in raw:
        problem = ai_problem(name, "arena")
        if problem:
            raise ExperimentError(file, "fix.verify_ais", problem)
    return tuple(dict.fromkeys(raw))


def load_fix(path: str | Path) -> tuple[Experiment, FixSpec]:
    """The experiment of a fix file and its ``[fix]`` table."""
    from krosbalance.content.toml_file import read_toml

    experiment = load_experiment(path)
    data = read_toml(Path(path))
    if "fix" not in data:
        raise ExperimentError(str(path), "fix", "missing: `krosbalance fix` needs a [fix] table")
    if experiment.variants or experiment.sweep:
        raise ExperimentError(
            str(path), "variants", "a fix file plays the shipped cards: no [[variants]] or [sweep]"
        )
    return experiment, parse_fix(data["fix"], str(path))


# ------------------------------------------------------------------------------------------ stages


def knob_arm(figure: str, name: str, step: int) -> str:
    """The probe arm of one (figure, field): ``anna_tommy.hp.up2``."""
    return f"{figure}.{name}.up{step}"


def _figures(experiment: Experiment) -> list[str]:
    return sorted({c for pairing in experiment.pairings for team in pairing for c in team})


def knobs_of(figure: str, fields: Sequence[str]) -> list[str]:
    """The values of ``figure`` a fix may change: each character field as it is, and for each
    ``spells.<field>`` one knob ``spells.<spell>.<field>`` per spell of the figure that has it (a
    positive amount, a range, any AP cost)."""
    from krosbalance.content.registry import default_registry

    card = default_registry().load_character(figure)
    knobs: list[str] = []
    for name in fields:
        if not is_spell_knob(name):
            knobs.append(name)
            continue
        key = name.split(".", 1)[1]
        for spell in card.spells:
            value = getattr(spell, key)
            number = isinstance(value, int) and not isinstance(value, bool)
            if number and value >= SPELL_MINIMUM.get(key, 0) and (key == "ap_cost" or value > 0):
                knobs.append(f"spells.{spell.id}.{key}")
    return knobs


def knob_patch(figure: str, name: str, value: int) -> dict[str, Any]:
    """The patch table that sets one knob: ``{"characters": {figure: {"hp": 8}}}`` or, for a spell,
    ``{"characters": {figure: {"spells": {spell: {"ap_cost": 4}}}}}``."""
    if is_spell_knob(name):
        _, spell, key = name.split(".")
        return {"characters": {figure: {"spells": {spell: {key: value}}}}}
    return {"characters": {figure: {name: value}}}


def parse_knob_arm(arm: str) -> tuple[str, str, int]:
    """``bill_tell.spells.plaguing_arrow.ap_cost.up1`` -> (figure, knob, step)."""
    parts = arm.split(".")
    return parts[0], ".".join(parts[1:-1]), int(parts[-1].removeprefix("up"))


def probe_experiment(experiment: Experiment, spec: FixSpec) -> Experiment:
    """Stage 1: the shipped cards and one arm per (figure, knob) raised by its step."""
    base = json.dumps(dict(experiment.options), sort_keys=True, separators=(",", ":"))
    arms: list[tuple[str, str]] = [("shipped", base)]
    patches: list[tuple[str, str]] = []
    for figure in spec.figures or tuple(_figures(experiment)):
        for name in knobs_of(figure, spec.fields):
            arm = knob_arm(figure, name, spec.step_of(name))
            value = _printed(figure, name) + spec.step_of(name)
            patch = parse_patch(knob_patch(figure, name, value), experiment.file, name=arm)
            arms.append((arm, base))
            patches.append((arm, patch.json))
    return replace(
        experiment, name=f"{experiment.name}-probe", variants=tuple(arms), arm_patches=tuple(patches)
    )


def _printed(figure: str, name: str) -> int:
    """The printed value of a knob (a character field, or ``spells.<spell>.<field>``)."""
    from krosbalance.content.registry import default_registry

    card = default_registry().load_character(figure)
    if is_spell_knob(name):
        _, spell_id, key = name.split(".")
        spell = next(s for s in card.spells if s.id == spell_id)
        return int(getattr(spell, key))
    return int(getattr(card, name))


def _minimum(name: str) -> int:
    if is_spell_knob(name):
        return SPELL_MINIMUM.get(name.split(".")[-1], 0)
    return MINIMUM.get(name, 0)


@dataclass
class FixPlanner:
    """The fix finder's stages (a ``StagePlanner``): probe, then verification of the proposal."""

    experiment: Experiment
    spec: FixSpec
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or self.experiment.name

    def first(self) -> Experiment:
        return probe_experiment(self.experiment, self.spec)

    def next(self, finished: Sequence[Any]) -> Experiment | None:
        if len(finished) >= 2:
            return None
        proposal = propose(finished[0].folder, self.spec)
        write_proposal(finished[0].folder, proposal)
        return verify_experiment(self.experiment, self.spec, proposal)


def verify_experiment(experiment: Experiment, spec: FixSpec, proposal: Proposal) -> Experiment:
    """Stage 2: a fresh paired run of the shipped cards and the proposed patch (its own seeds)."""
    base = json.dumps(dict(experiment.options), sort_keys=True, separators=(",", ":"))
    arms = (("shipped", base), ("proposed", base))
    deals = spec.verify_deals or experiment.matches_per_pairing
    ais, ai_deals = experiment.ais, (() if spec.verify_deals else experiment.ai_deals)
    extra = tuple(
        (name,) * experiment.seats for name in spec.verify_ais if (name,) * experiment.seats not in ais
    )
    if extra:
        ai_deals = (ai_deals or (deals,) * len(ais)) + (1,) * len(extra)
        ais = ais + extra
    return replace(
        experiment,
        name=f"{experiment.name}-verify",
        master_seed=experiment.master_seed + 1,
        matches_per_pairing=deals,
        ais=ais,
        ai_deals=ai_deals,
        variants=arms,
        arm_patches=(("proposed", proposal.patch.json),) if not proposal.patch.empty else (),
    )


# ---------------------------------------------------------------------------------- sensitivity fit


def sensitivity(
    matches: pd.DataFrame, knobs: Mapping[str, tuple[str, str, int]], shared: bool = True
) -> pd.DataFrame:
    """Each figure's strength at the printed values and each knob's slope, from the probe's matches.

    ``knobs`` maps a probe arm to (figure, field, step). Returns the rows of
    :func:`krosbalance.analysis.strength.fit_effects`: characters (``kind = character``) and one
    covariate per knob named ``figure.field`` (log-odds per unit of the value), or with ``shared`` one
    per field named ``field``, common to every figure."""
    from krosbalance.analysis.design import clusters, weights
    from krosbalance.analysis.stats import split_team
    from krosbalance.analysis.strength import _decided, fit_effects, strength_design

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
    unused: tuple[str, ...] = ()  # slopes not above 0 with confidence: left out

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
        }


def solve(
    strengths: Mapping[str, float],
    slopes: Mapping[tuple[str, str], float],
    bounds: Mapping[tuple[str, str], tuple[int, int]],
    band: float,
) -> tuple[dict[tuple[str, str], int], bool, str]:
    """The integer changes (per (figure, field)) of fewest values, then smallest total change, that
    put every predicted strength within ±band; else those minimising the largest |strength|.
    Returns (changes, reached, solver message). ``scipy.optimize.milp`` (HiGHS)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

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

    # variables: p (n_k), n (n_k), z (n_k) [, t]; change = p - n
    def build(with_t: bool) -> tuple[np.ndarray, list[LinearConstraint], Bounds, np.ndarray]:
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
        cost = np.concatenate([unit, unit, COUNT_WEIGHT * np.ones(n_k)])
        upper = np.concatenate([np.maximum(hi, 0), np.maximum(-lo, 0), np.ones(n_k)])
        if with_t:
            cost = np.concatenate([cost * 1e-6, [1.0]])
            upper = np.concatenate([upper, [np.inf]])
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
    x = np.round(result.x).astype(int)
    changes = {k: int(x[j] - x[n_k + j]) for j, k in enumerate(knobs) if x[j] - x[n_k + j] != 0}
    return changes, reached, "scipy.optimize.milp (HiGHS)"


def propose(folder: Path, spec: FixSpec) -> Proposal:
    """The proposal from a finished probe stage's results folder."""
    from krosbalance.analysis.resultset import ResultSet
    from krosbalance.analysis.strength import character_strengths
    from krosbalance.sim.runner import read_manifest

    manifest = read_manifest(folder)
    knobs: dict[str, tuple[str, str, int]] = {}
    for arm in manifest.get("patches") or {}:
        knobs[arm] = parse_knob_arm(arm)
    matches = ResultSet.load(folder).matches  # the full table (the summary has no arm column)
    fit = sensitivity(matches, knobs, shared=spec.slopes == "shared")
    chars = character_strengths(fit).set_index("term")
    covariates = fit[fit["kind"] == "covariate"].set_index("term")
    strengths = {str(t): float(c) for t, c in chars["coef"].items()}
    slopes: dict[tuple[str, str], float] = {}
    slope_se: dict[tuple[str, str], float] = {}
    bounds: dict[tuple[str, str], tuple[int, int]] = {}
    unused: list[str] = []
    for figure, name, _ in knobs.values():
        term = slope_term(figure, name, spec.slopes == "shared")
        usable = term in covariates.index and np.isfinite(covariates.loc[term, "coef"])
        if usable and covariates.loc[term, "ci_low"] <= 0 <= covariates.loc[term, "ci_high"]:
            unused.append(term)
            usable = False
        if usable:
            slopes[(figure, name)] = float(covariates.loc[term, "coef"])
            slope_se[(figure, name)] = float(covariates.loc[term, "se"])
            printed = _printed(figure, name)
            bound = spec.bound_of(name, printed)
            bounds[(figure, name)] = (max(-bound, _minimum(name) - printed), bound)
    changes, reached, solver = solve(strengths, slopes, bounds, spec.band)
    predicted = _predict(chars, changes, slopes, slope_se, shared=spec.slopes == "shared")
    slope_rows = fit[fit["kind"] == "covariate"]
    slope_rows = slope_rows[slope_rows["term"].astype(str).str[0] != "("]
    patch_changes: dict[str, dict[str, Any]] = {}
    for (figure, name), d in sorted(changes.items()):
        change = knob_patch(figure, name, _printed(figure, name) + d)["characters"][figure]
        mine = patch_changes.setdefault(figure, {})
        for key, value in change.items():
            if isinstance(value, dict):
                for spell, fields in value.items():
                    mine.setdefault(key, {}).setdefault(spell, {}).update(fields)
            else:
                mine[key] = value
    patch = (
        parse_patch(
            {"characters": patch_changes}, str(folder), name=f"{manifest.get('experiment', 'fix')}-proposal"
        )
        if patch_changes
        else Patch("no-change")
    )
    return Proposal(
        patch=patch,
        changes=tuple((f, n, d) for (f, n), d in sorted(changes.items())),
        predicted=predicted,
        band=spec.band,
        reached=reached,
        solver=solver,
        slopes=tuple(
            (str(r.term), float(r.coef), float(r.ci_low), float(r.ci_high)) for r in slope_rows.itertuples()
        ),
        unused=tuple(dict.fromkeys(unused)),
    )


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


def run_fix(
    path: str | Path, out: str | Path, *, jobs: int = 1, resume: bool = False, **run_options: Any
) -> Any:
    """Run the fix finder of the file ``path`` into ``out`` (stages, :mod:`krosbalance.sim.stages`);
    the proposal (``proposal.json``) is written beside the probe's results and the verification's."""
    import shutil

    from krosbalance.sim.stages import run_stages

    experiment, spec = load_fix(path)
    summary = run_stages(FixPlanner(experiment, spec), out, jobs=jobs, resume=resume, **run_options)
    if len(summary.stages) == 2:
        shutil.copyfile(
            summary.stages[0].folder / "proposal.json", summary.stages[1].folder / "proposal.json"
        )
    return summary


def write_proposal(folder: Path, proposal: Proposal) -> Path:
    """``proposal.json`` beside the probe's results (what the verification stage plays)."""
    path = folder / "proposal.json"
    path.write_text(json.dumps(proposal.as_manifest(), indent=2, sort_keys=True), encoding="utf-8")
    return path


__all__ = [
    "FixPlanner",
    "FixSpec",
    "knobs_of",
    "parse_knob_arm",
    "Proposal",
    "load_fix",
    "parse_fix",
    "probe_experiment",
    "propose",
    "sensitivity",
    "solve",
    "verify_experiment",
]
