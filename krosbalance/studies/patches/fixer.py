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
    verify_ais = [{ ai = "mcts-race", deals = 10 }, "lookahead-fast"]
                                 # stronger AIs added to the verification only (a name: one deal per
                                 # pairing and board; a table: its deals): is the fix still a fix
                                 # under better play?
    verify_half_width = 0.15     # the strongest of them plays rounds of its deals until every
    verify_max_deals = 60        # figure's strength in both arms is this precise (log-odds), or
                                 # the cap (default 20 rounds)
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
   :mod:`krosbalance.studies.patches.fix_section`) shows every round, per tier.

The stages follow the shared staged-study shape (a planner with ``first()`` and ``next(finished)``,
``krosbalance.sim.stages``): each stage's experiment is a pure function of the finished stages'
results, so ``--resume`` continues where a run stopped.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.resultset import ResultSet
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ExperimentError
from krosbalance.sim.design import Experiment
from krosbalance.sim.experiment_file import load_experiment
from krosbalance.sim.fix_table import (
    SEED_STRIDE,
    Changes,
    FixSpec,
    _figures,
    changes_patch,
    knob_arm,
    knobs_of,
    parse_fix,
    parse_knob_arm,
)
from krosbalance.sim.runner import read_manifest
from krosbalance.sim.stages import run_stages
from krosbalance.sim.target import DEFAULT_ROUNDS as TARGET_ROUNDS
from krosbalance.sim.target import Target, TargetAI, strongest_ai
from krosbalance.studies.patches import target as patch_target
from krosbalance.studies.patches.proposal import Proposal, propose, sensitivity, solve
from krosbalance.studies.patches.tables import arm_strengths


def load_fix(path: str | Path) -> tuple[Experiment, FixSpec]:
    """The experiment of a fix file and its ``[fix]`` table (both checked by ``load_experiment``,
    which reads ``[fix]`` with :func:`parse_fix`, as ``validate`` does)."""

    experiment = load_experiment(path)
    data = read_toml(Path(path))
    if "fix" not in data:
        raise ExperimentError(str(path), "fix", "missing: `krosbalance fix` needs a [fix] table")
    return experiment, parse_fix(data["fix"], str(path))


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
        rounds' proposals are added by :meth:`meta_after` as each verification finishes."""
        return {
            "fix": {
                "band": self.spec.band,
                "tiers": probe_tiers(self.experiment),
                "max_rounds": self.spec.rounds,
                "rounds": [],
            }
        }

    def meta_after(self, finished: Sequence[Any]) -> dict[str, Any]:
        """:attr:`meta` with a round for every verification finished so far (the stage runner
        writes it after each stage, so a run stopped between rounds reports its finished rounds)."""
        meta = self.meta
        meta["fix"]["rounds"] = finished_rounds(finished)
        return meta

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

    return sorted({ai_tier(name) for matchup in experiment.ais for name in matchup})


def out_of_band(folder: Path, band: float, tiers: Sequence[str]) -> list[str]:
    """The figures whose measured strength in a verification's ``proposed`` arm is outside ±band in
    any of ``tiers`` (a figure not estimable counts as outside: nothing shows it is fixed)."""

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
    own = dict(zip(spec.verify_ais, spec.verify_ai_deals or (1,) * len(spec.verify_ais), strict=True))
    extra = [(name, n) for name, n in own.items() if (name,) * experiment.seats not in ais]
    if extra:
        ai_deals = (ai_deals or (deals,) * len(ais)) + tuple(n for _, n in extra)
        ais = ais + tuple((name,) * experiment.seats for name, _ in extra)
    target = ""
    if spec.verify_half_width:
        ai_deals, target = _verify_target(spec, ais, ai_deals or (deals,) * len(ais), experiment)
    return replace(
        experiment,
        name=stage_name(experiment, "verify", round_),
        master_seed=experiment.master_seed + SEED_STRIDE * (round_ - 1) + 1,
        matches_per_pairing=deals,
        ais=ais,
        ai_deals=ai_deals,
        variants=arms,
        arm_patches=(("proposed", proposal.patch.json),) if not proposal.patch.empty else (),
        target=target,
    )


def _verify_target(
    spec: FixSpec, ais: tuple[tuple[str, ...], ...], ai_deals: tuple[int, ...], experiment: Experiment
) -> tuple[tuple[int, ...], str]:
    """The verification's target (``verify_half_width``): the strongest of ``verify_ais`` on the
    ladder plays rounds of its deals, expanded to the cap, until every figure's strength in both
    arms is that precise (:mod:`krosbalance.studies.patches.target`). Returns the matchups' deals
    and the target's JSON."""
    ai, _ = strongest_ai(list(spec.verify_ais), experiment.ruleset)
    index = ais.index((ai,) * experiment.seats)
    round_deals = ai_deals[index]
    cap = spec.verify_max_deals or TARGET_ROUNDS * round_deals
    planned = Target(
        spec.verify_half_width,
        (TargetAI(ai, index, round_deals, cap),),
        "patches",
        patch_target.QUANTITY,
        patch_target.UNIT,
    )
    deals = list(ai_deals)
    deals[index] = cap
    return tuple(deals), planned.json


def run_fix(
    path: str | Path, out: str | Path, *, jobs: int = 1, resume: bool = False, **run_options: Any
) -> Any:
    """Run the fix finder of the file ``path`` into ``out`` (stages, :mod:`krosbalance.sim.stages`);
    each round's proposal (``proposal.json``) is written beside its probe's results and its
    verification's (what the report reads)."""
    experiment, spec = load_fix(path)
    return run_stages(FixPlanner(experiment, spec), out, jobs=jobs, resume=resume, **run_options)


def finished_rounds(finished: Sequence[Any]) -> list[dict[str, Any]]:
    """One entry per finished (probe, verification) pair of stages (anything with a ``folder``):
    the round, both stages' names and the proposal, which is copied beside the verification's
    results (what the report reads)."""
    rounds = []
    for r, (probe, verify) in enumerate(zip(finished[::2], finished[1::2], strict=False), start=1):
        shutil.copyfile(probe.folder / "proposal.json", verify.folder / "proposal.json")
        rounds.append(
            {
                "round": r,
                "probe": read_stage_name(probe.folder),
                "verify": read_stage_name(verify.folder),
                "proposal": json.loads((probe.folder / "proposal.json").read_text(encoding="utf-8")),
            }
        )
    return rounds


def read_stage_name(folder: Path) -> str:

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
