"""The fix finder: the smallest balance patch that brings every figure within a band, then verified.

``krosbalance fix EXPERIMENT`` reads an experiment file with a ``[fix]`` table and runs rounds of two
stages each, every stage a normal results folder (``OUT/stage-01-<name>-probe``,
``OUT/stage-02-<name>-verify``, then ``-probe2``, ``-verify2``...)::

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
    forbid = ["bill_tell.hp"]    # values the designer will not change ("figure.field",
                                 # "figure.spells.<spell>.<field>", or a whole "figure")
    rounds = 2                   # at most this many probe-verify rounds (1-4, default 2)

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
   1); "smallest" counts each change relative to its bound. Only figures outside the band change,
   each change moves its own figure towards 0 (a weak figure is never weakened to lift the others
   through the sum-to-zero shift), and no figure is pushed past the other side of the band. When no
   patch within the bounds reaches the band, the fewest, smallest changes whose largest predicted
   |strength| is within ``WORST_SLACK`` of the least reachable are proposed, and the report says so.
3. **Verification.** A fresh run, on seeds of its own (the master seed + 1), of the shipped cards
   and the proposed patch side by side (paired), with the ``verify_ais`` (e.g. the search tier)
   beside the file's AIs; the report's Balance patches section sets the predicted strength of every
   figure (95% interval from the probe fit) against the measured one, per AI tier.
4. **Rounds.** When a verification leaves a figure outside the band in a tier the probe played,
   the next round probes around the proposal (its arms play the proposal plus one step on the
   knobs of the figures still outside and of those already changed, on fresh seeds) and proposes
   again from there; the bounds hold for the total change from the printed value. ``rounds`` caps
   the study (a count, never a time). The report of the staged folder (``krosbalance report OUT``,
   :mod:`krosbalance.analysis.fix_section`) shows every round, per tier.

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
from krosbalance.sim.design import Experiment
from krosbalance.sim.experiment_file import load_experiment
from krosbalance.sim.patches import CHARACTER_FIELDS, MINIMUM, UPPER, Patch, parse_patch

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
    "forbid",
    "rounds",
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
DEFAULT_ROUNDS = 2
MAX_ROUNDS = 4
SEED_STRIDE = 10
"""Round r's probe plays on ``master_seed + SEED_STRIDE * (r - 1)``, its verification one above."""
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
    forbid: tuple[tuple[str, str], ...] = ()  # (figure, knob) the designer will not change
    rounds: int = DEFAULT_ROUNDS

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
    for key in ("step", "max_change"):
        for name, value in maps[key].items():
            if value > UPPER:
                raise ExperimentError(
                    file, f"fix.{key}.{name}", f"out of range: {value} is above any printed value ({UPPER})"
                )
    rounds = table.get("rounds", DEFAULT_ROUNDS)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ExperimentError(
            file,
            "fix.rounds",
            f"must be an integer from 1 to {MAX_ROUNDS} (probe-verify rounds), not {rounds!r}",
        )
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
        _forbid(table.get("forbid", []), tuple(fields), file),
        rounds,
    )


def _forbid(raw: Any, fields: tuple[str, ...], file: str) -> tuple[tuple[str, str], ...]:
    """The ``forbid`` list: values the designer will not change, ``"bill_tell.hp"``,
    ``"bill_tell.spells.plaguing_arrow.ap_cost"`` or a whole figure ``"bill_tell"`` (every value);
    an unknown figure, spell or field is one clear line."""
    from krosbalance.content.registry import default_registry
    from krosbalance.errors import ContentError

    if not isinstance(raw, list) or any(not isinstance(item, str) for item in raw):
        raise ExperimentError(file, "fix.forbid", f'must be a list of "figure.field" strings, not {raw!r}')
    out: list[tuple[str, str]] = []
    for item in raw:
        head, _, rest = item.partition(".")
        try:
            card = default_registry().load_character(head)
        except ContentError as exc:
            raise ExperimentError(file, "fix.forbid", f"{item!r}: {exc.reason}") from None
        knobs = knobs_of(card.id, fields)
        if not rest:
            out += [(card.id, knob) for knob in knobs]
            continue
        if rest.startswith("spells."):
            parts = rest.split(".")
            spells = {s.id for s in card.spells}
            if len(parts) != 3 or parts[1] not in spells:
                raise ExperimentError(
                    file,
                    "fix.forbid",
                    f"{item!r}: {card.name} has no spell {parts[1] if len(parts) > 1 else ''!r}; "
                    f"her/his spells: {', '.join(sorted(spells))}",
                )
        if rest not in knobs:
            raise ExperimentError(
                file,
                "fix.forbid",
                f"{item!r}: not a value fix.fields may change for {card.name}; those: {', '.join(knobs)}",
            )
        out.append((card.id, rest))
    return tuple(dict.fromkeys(out))


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


FIX_ARMS = "a fix file plays the shipped cards: no [[variants]], [sweep] or [restricted]"
"""Why a file with ``[fix]`` may not have arms of its own (its stages make the arms)."""


def load_fix(path: str | Path) -> tuple[Experiment, FixSpec]:
    """The experiment of a fix file and its ``[fix]`` table (both checked by ``load_experiment``,
    which reads ``[fix]`` with :func:`parse_fix`, as ``validate`` does)."""
    from krosbalance.content.toml_file import read_toml

    experiment = load_experiment(path)
    data = read_toml(Path(path))
    if "fix" not in data:
        raise ExperimentError(str(path), "fix", "missing: `krosbalance fix` needs a [fix] table")
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


Changes = Mapping[tuple[str, str], int]
"""A patch as the fix finder sees it: (figure, knob) -> change from the printed value."""


def changes_patch(changes: Changes, file: str, name: str) -> Patch:
    """The patch setting every (figure, knob) to its printed value plus its change."""
    table: dict[str, dict[str, Any]] = {}
    for (figure, knob), d in sorted(changes.items()):
        if not d:
            continue
        change = knob_patch(figure, knob, _printed(figure, knob) + d)["characters"][figure]
        mine = table.setdefault(figure, {})
        for key, value in change.items():
            if isinstance(value, dict):
                for spell, values in value.items():
                    mine.setdefault(key, {}).setdefault(spell, {}).update(values)
            else:
                mine[key] = value
    return parse_patch({"characters": table}, file, name=name) if table else Patch("no-change")


def stage_name(experiment: Experiment, kind: str, round_: int) -> str:
    """``fix-the-box-probe``, ``fix-the-box-verify``; later rounds ``-probe2``, ``-verify2``."""
    return f"{experiment.name}-{kind}{round_ if round_ > 1 else ''}"


def probe_experiment(
    experiment: Experiment,
    spec: FixSpec,
    base: Changes | None = None,
    figures: Sequence[str] | None = None,
    round_: int = 1,
) -> Experiment:
    """A probe stage: the base cards (round 1: the shipped ones; later: the last proposal, arm
    ``proposed``) and one arm per (figure, knob) raised by its step from the base's value, paired on
    the same seeds (round r on ``master_seed + SEED_STRIDE * (r - 1)``). Knobs of ``forbid`` are not
    probed; ``figures`` (default: the spec's, else every figure) limits whose knobs are."""
    options = json.dumps(dict(experiment.options), sort_keys=True, separators=(",", ":"))
    base = dict(base or {})
    base_arm = "shipped" if not base else "proposed"
    base_patch = changes_patch(base, experiment.file, f"{experiment.name}-round{round_}-base")
    arms: list[tuple[str, str]] = [(base_arm, options)]
    patches: list[tuple[str, str]] = [] if base_patch.empty else [(base_arm, base_patch.json)]
    forbidden = set(spec.forbid)
    chosen = figures if figures is not None else (spec.figures or tuple(_figures(experiment)))
    for figure in chosen:
        for name in knobs_of(figure, spec.fields):
            if (figure, name) in forbidden:
                continue
            arm = knob_arm(figure, name, spec.step_of(name))
            moved = {**base, (figure, name): base.get((figure, name), 0) + spec.step_of(name)}
            patch = changes_patch(moved, experiment.file, arm)
            arms.append((arm, options))
            patches.append((arm, patch.json))
    return replace(
        experiment,
        name=stage_name(experiment, "probe", round_),
        master_seed=experiment.master_seed + SEED_STRIDE * (round_ - 1),
        variants=tuple(arms),
        arm_patches=tuple(patches),
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
    """The fix finder's stages (a ``StagePlanner``): rounds of probe, proposal, verification.

    Stage 2r-1 is round r's probe, stage 2r its verification. After a verification the study stops
    when every figure's measured strength under the proposal is within the band in each tier the
    probe played (the file's AIs), or after ``spec.rounds`` rounds; otherwise round r+1 probes
    around the proposal (the knobs of the figures still outside the band and of those already
    changed) and proposes again. Every stage is a pure function of the finished stages' results:
    the proposals are recomputed from the probe folders, so ``--resume`` plans the same stages."""

    experiment: Experiment
    spec: FixSpec
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or self.experiment.name

    @property
    def meta(self) -> dict[str, Any]:
        """What the report's Fix finder section needs beyond the stages (``stages.json``); the
        rounds' proposals are added by :func:`run_fix` once they exist."""
        return {
            "fix": {
                "band": self.spec.band,
                "tiers": probe_tiers(self.experiment),
                "max_rounds": self.spec.rounds,
                "rounds": [],
            }
        }

    def first(self) -> Experiment:
        return probe_experiment(self.experiment, self.spec)

    def proposals(self, finished: Sequence[Any]) -> list[Proposal]:
        """The proposal of every finished probe (stages 1, 3, 5, ...), each on the one before."""
        out: list[Proposal] = []
        for probe in finished[::2]:
            base = dict(out[-1].total) if out else {}
            out.append(propose(probe.folder, self.spec, base=base, round_=len(out) + 1))
        return out

    def next(self, finished: Sequence[Any]) -> Experiment | None:
        proposals = self.proposals(finished)
        round_ = len(proposals)
        if len(finished) % 2 == 1:  # a probe finished: verify its proposal
            write_proposal(finished[-1].folder, proposals[-1])
            return verify_experiment(self.experiment, self.spec, proposals[-1], round_=round_)
        if round_ >= self.spec.rounds:
            return None
        missed = out_of_band(finished[-1].folder, self.spec.band, probe_tiers(self.experiment))
        if not missed:
            return None
        changed = {figure for figure, _ in proposals[-1].total}
        allowed = set(self.spec.figures or _figures(self.experiment))
        figures = [f for f in _figures(self.experiment) if f in allowed and (f in missed or f in changed)]
        return probe_experiment(
            self.experiment, self.spec, base=dict(proposals[-1].total), figures=figures, round_=round_ + 1
        )


def probe_tiers(experiment: Experiment) -> list[str]:
    """The AI tiers of the file's own AIs (those the probes play): the tiers a fix must reach."""
    from krosbalance.analysis.dependence import ai_tier

    return sorted({ai_tier(name) for matchup in experiment.ais for name in matchup})


def out_of_band(folder: Path, band: float, tiers: Sequence[str]) -> list[str]:
    """The figures whose measured strength in a verification's ``proposed`` arm is outside ±band in
    any of ``tiers`` (a figure not estimable counts as outside: nothing shows it is fixed)."""
    from krosbalance.analysis.patch_study import arm_strengths
    from krosbalance.analysis.resultset import ResultSet

    strengths = arm_strengths(ResultSet.load(folder).matches)
    proposed = strengths[(strengths["arm"] == "proposed") & strengths["group"].isin(list(tiers))]
    figures = sorted(set(strengths["term"]))
    bad = {str(r.term) for r in proposed.itertuples() if not abs(float(r.coef)) <= band}
    for tier in tiers:
        seen = set(proposed[proposed["group"] == tier]["term"])
        bad |= {f for f in figures if f not in seen}
    return sorted(bad)


def verify_experiment(
    experiment: Experiment, spec: FixSpec, proposal: Proposal, round_: int = 1
) -> Experiment:
    """A verification stage: a fresh paired run of the shipped cards and the proposed patch (seeds of
    its own: one above its round's probe), with ``verify_ais`` beside the file's AIs."""
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
        name=stage_name(experiment, "verify", round_),
        master_seed=experiment.master_seed + SEED_STRIDE * (round_ - 1) + 1,
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
    from krosbalance.analysis.resultset import ResultSet
    from krosbalance.analysis.strength import character_strengths
    from krosbalance.sim.runner import read_manifest

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


def run_fix(
    path: str | Path, out: str | Path, *, jobs: int = 1, resume: bool = False, **run_options: Any
) -> Any:
    """Run the fix finder of the file ``path`` into ``out`` (stages, :mod:`krosbalance.sim.stages`);
    each round's proposal (``proposal.json``) is written beside its probe's results and its
    verification's (what the report reads)."""
    import shutil

    from krosbalance.sim.stages import STAGES_FILE, read_stages, run_stages

    experiment, spec = load_fix(path)
    planner = FixPlanner(experiment, spec)
    summary = run_stages(planner, out, jobs=jobs, resume=resume, **run_options)
    stages = summary.stages
    rounds = []
    for r, (probe, verify) in enumerate(zip(stages[::2], stages[1::2], strict=False), start=1):
        shutil.copyfile(probe.folder / "proposal.json", verify.folder / "proposal.json")
        rounds.append(
            {
                "round": r,
                "probe": read_stage_name(probe.folder),
                "verify": read_stage_name(verify.folder),
                "proposal": json.loads((probe.folder / "proposal.json").read_text(encoding="utf-8")),
            }
        )
    state = read_stages(out)
    meta = planner.meta
    meta["fix"]["rounds"] = rounds
    state["meta"] = meta
    (Path(out) / STAGES_FILE).write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
    return summary


def read_stage_name(folder: Path) -> str:
    from krosbalance.sim.runner import read_manifest

    return str(read_manifest(folder).get("experiment", folder.name))


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
