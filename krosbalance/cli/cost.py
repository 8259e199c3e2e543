"""What ``krosbalance validate`` says a run will cost: its matches (a staged study's planned stages
counted as ``run`` plays them) and an estimated wall time from each AI's measured seconds per box
match (:func:`krosbalance.ai.registry.ai_cost`), scaled by the workers and by whether the native core
is installed.

A staged study tells its stages' sizes through its folder's planner module
(``studies/<study>/planner.py``): ``planned_stages(experiment)`` (the stage experiments, each costed
with its own AIs) or ``planned_matches(experiment)`` (matches per stage, costed with the file's AIs, or a
stage's own AIs where the planner names them: ``stage_ais(experiment)``).
The time is an estimate: a box match of four a side is the unit, so larger teams, Blast or four
players at a table run longer, and a busy machine slower.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

#: the rulesets the native core plays (issues 37 and 41): every ruleset the toolkit plays
CORE_RULESETS: tuple[str, ...] = ("arena", "duel", "blast")


@dataclass(frozen=True)
class Cost:
    """A run's size and estimated wall time."""

    matches: int
    seconds: float
    stages: tuple[tuple[str, int], ...] = ()  # a staged study's (stage, matches), in order
    at_most: bool = False  # later stages depend on the results: the count is an upper bound
    engine: str = "core"  # core, reference (not installed) or ruleset (one the core does not play)
    jobs: int = 1
    unmeasured: tuple[str, ...] = ()  # AIs whose cost is a tier's median

    def line(self) -> str:
        """``770 matches, ~4 min with 2 jobs (native core)``."""
        bound = "at most " if self.at_most else ""
        time = (
            "unknown time"
            if math.isnan(self.seconds)
            else f"~{duration(self.seconds)}".replace("~under", "under")
        )
        engine = {
            "core": "native core",
            "reference": "Python reference engine: the core is not installed",
            "ruleset": "Python reference engine: the core plays Arena and the Duel Pack only",
        }[self.engine]
        line = f"{bound}{self.matches:,} matches, {time} with {self.jobs} job(s) ({engine})"
        if self.stages:
            line += "; stages: " + ", ".join(f"{name} {n:,}" for name, n in self.stages)
        if self.unmeasured:
            line += f"; not measured, costed as their tier: {', '.join(self.unmeasured)}"
        return line


def duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.5 h``."""
    if seconds < 1:
        return "under 1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def seconds_per_match(experiment: Any, core: bool) -> tuple[float, list[str]]:
    """The mean seconds of one match of ``experiment``: each AI matchup's (the mean of its seats' AI
    costs, scaled by the seats over two) weighted by its deals, on the reference engine for a ruleset
    the core does not play (none today: :data:`CORE_RULESETS`); and the AIs costed by their tier. A balance
    patch's arms are costed like the shipped cards': the core plays them (``engine_choice`` converts
    each patched registry once)."""
    from krosbalance.ai.registry import ai_cost  # start-up: only this command loads it

    if getattr(experiment, "ruleset", "arena") not in CORE_RULESETS:
        core = False
    total, weight, guessed = 0.0, 0, []
    for table_ais, deals in zip(experiment.ais, experiment.deals_per_matchup, strict=True):
        costs = []
        for ai in table_ais:
            seconds, how = ai_cost(ai, core)
            costs.append(seconds)
            if how in ("tier", "unknown") and ai not in guessed:
                guessed.append(ai)
        per_match = sum(costs) / len(costs) * len(table_ais) / 2
        total += per_match * deals
        weight += deals
    return (total / weight if weight else float("nan")), guessed


def _planner(experiment: Any) -> Any:
    """The ``planner`` part of the experiment's study (None when it declares none)."""
    from krosbalance.study_registry import study_for, study_part  # start-up: only this command loads it

    return study_part(study_for(experiment), "planner")


def run_cost(experiment: Any, jobs: int, core: bool) -> Cost:
    """What ``krosbalance run`` of ``experiment`` plays and how long it should take here."""
    from krosbalance.studies import study_for  # start-up: only this command loads it

    staged = study_for(experiment).stage_runner(experiment) is not None
    planner = _planner(experiment) if staged else None
    parts: list[tuple[str, int, float]] = []  # (stage, matches, seconds per match)
    guessed: list[str] = []
    at_most = False
    if staged and hasattr(planner, "planned_stages"):
        stages, at_most = planner.planned_stages(experiment)
        for label, stage in stages:
            per, unknown = seconds_per_match(stage, core)
            parts.append((label, int(stage.n_matches), per))
            guessed += unknown
    elif staged and hasattr(planner, "planned_matches"):
        per, guessed = seconds_per_match(experiment, core)
        planned = planner.planned_matches(experiment)
        at_most = any("at most" in label for label in planned)
        # a stage played by other AIs than the file's (a team ladder's search stage) is costed with them
        own_ais = planner.stage_ais(experiment) if hasattr(planner, "stage_ais") else {}
        for label, n in planned.items():
            stage_per = per
            if label in own_ais:
                stage_ais, stage_deals = own_ais[label]
                stage_per, unknown = seconds_per_match(
                    replace(experiment, ais=stage_ais, ai_deals=stage_deals), core
                )
                guessed += unknown
            parts.append((label, int(n), stage_per))
    else:
        per, guessed = seconds_per_match(experiment, core)
        parts = [("", int(experiment.n_matches), per)]
    from krosbalance.ai.registry import run_startup_seconds  # start-up: only this command loads it

    workers = max(1, jobs)
    startup = run_startup_seconds() if workers > 1 else 0.0  # the workers' start, once per run or stage
    seconds = sum(n * per for _, n, per in parts) / workers + startup * len(parts)
    return Cost(
        matches=sum(n for _, n, _ in parts),
        seconds=seconds,
        stages=tuple((label, n) for label, n, _ in parts if label),
        at_most=at_most or bool(getattr(experiment, "target", "")),  # [target]: its cap
        engine=("core" if experiment.ruleset in CORE_RULESETS else "ruleset") if core else "reference",
        jobs=workers,
        unmeasured=tuple(dict.fromkeys(guessed)),
    )


def target_plan_line(experiment: Any, jobs: int, core: bool) -> str:
    """What a ``[target]`` will do ('' without one): ``plays mcts-race in rounds of 1 deal per pairing
    and board (210 matches, ~1 min) until every figure's strength has a 95% CI half-width ≤ 0.15
    log-odds, at most 20 deals (4,200 matches, ~21 min)``, each AI's matches costed alone."""

    from krosbalance.sim.target import deal_step, target_of  # start-up: only this command loads it

    target = target_of(experiment)
    if target is None:
        return ""
    step = deal_step(experiment)
    workers = max(1, jobs)
    parts = []
    for t in target.ais:
        alone = replace(experiment, ais=(experiment.ais[t.matchup],), ai_deals=())
        per, _ = seconds_per_match(alone, core)

        def size(deals: int, per: float = per) -> str:
            return f"{deals * step:,} matches, ~{duration(deals * step * per / workers)}".replace(
                "~under", "under"
            )

        deals = "1 deal" if t.round_deals == 1 else f"{t.round_deals} deals"
        parts.append(
            f"plays {t.ai} in rounds of {deals} per pairing and board ({size(t.round_deals)}) until every "
            f"{target.quantity} has a 95% CI half-width ≤ {target.half_width:g} {target.unit}, "
            f"at most {t.max_deals} deals ({size(t.max_deals)})"
        )
    return "; ".join(parts)


def effective_jobs(jobs: int, cores: int) -> int:
    """The workers a ``--jobs`` value means (negative counts back from all cores, as joblib does)."""
    return max(1, jobs if jobs > 0 else cores + 1 + jobs)


def core_installed() -> bool:
    from krosbalance import native  # start-up: only this command loads it

    return bool(native.installed())


__all__ = ["Cost", "duration", "effective_jobs", "run_cost", "seconds_per_match", "target_plan_line"]
