"""The team ladder's stages (a :class:`krosbalance.sim.stages.StagePlanner`).

**Adaptive design: successive halving against the field.** Stage 1 plays every rated team against
``opponents`` opponents drawn uniformly from the field (every legal team of the roster, the team
itself included: two players own their own figures); each stage then keeps the best ``keep`` share
of the teams still rated (while that keeps at least ``min_teams``) by their score against the field so far
(the mean over their deals of the share of the deal's paired matches they won, draws half), and
doubles the opponents of each kept team. So every stage costs about the same, and the teams that
matter for the top of the ranking get the most matches. Once ``min_teams`` remain, the top
``top_round_robin`` teams play a round robin (the meta-game's win-rate matrix), then the top
``search.top`` a round robin under the search AI, then the what-if swaps.

Guarantee (Karnin, Koren & Somekh 2013, "Almost optimal exploration in multi-armed bandits",
Theorem 4.1): with a total budget of T deals, successive halving misses the best team with
probability at most 3 log2(n) exp(-T / (8 H2 log2 n)), H2 = max_i i / gap_i^2 (gap_i: the i-th
best team's shortfall in score against the field); stopping at ``min_teams`` >= ``top_k`` teams
instead of one keeps a true top-k team unless, at some stage, more than (kept - k) teams scored above
it: the margin between ``min_teams`` and ``top_k`` is what buys the top-k its confidence. It is
measured on a synthetic field of known strengths (``tests/studies/teams/test_team_ladder.py``,
:func:`krosbalance.studies.teams.design_check.synthetic_halving`).

**LUCB design** (``design = "lucb"``, :mod:`krosbalance.sim.topk`): (epsilon, delta)-PAC top-k
identification by racing. Stage ``lucb-01`` plays every rated team against ``opponents`` field
opponents; each later stage samples (more field opponents for) the teams whose anytime confidence
bounds straddle the k-th / (k+1)-th boundary, at most ``batch`` on each side; the race stops when the
top k is separated up to ``epsilon`` (then, with probability at least 1 - delta, every selected
team's score against the field is within epsilon of the true k-th best: the guarantee is stated in
:mod:`krosbalance.sim.topk`) or when the next stage would overrun ``budget`` matches (then the report
states the epsilon it reached), or after :func:`max_race_stages` stages (the staged runner's cap).
Then the round robin of the top teams, the search tier, the swaps,
as after the halving.

**Round-robin design**: every pair of rated teams, then the search tier and the swaps.

Each stage's experiment is a pure function of the finished stages (the opponents are drawn by a
generator seeded by the master seed and the stage number), so a resumed study plans the same
stages. A swap's two stages (the team, then the swapped team, against the same opponents) share
their master seed, so deal i of one and of the other play the same dice: the difference is paired.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from krosbalance.ai.registry import canonical_ai
from krosbalance.errors import KrosbalanceError
from krosbalance.sim import stages
from krosbalance.sim.design import Experiment
from krosbalance.sim.stages import FinishedStage, run_stages
from krosbalance.sim.target import Target, TargetAI
from krosbalance.sim.topk import race_step, stage_opponents
from krosbalance.studies.teams import target as team_target
from krosbalance.studies.teams.ladder import pairing_samples, stage_scores

Team = tuple[str, ...]
SWAP_SEED_KEY = 1000


def stage_seed(master_seed: int, key: int) -> int:
    """The master seed of stage ``key``, derived from the study's (SeedSequence, as the runner)."""
    state = np.random.SeedSequence([master_seed, key]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 31 | int(state[1]) >> 1


def _teams(raw: Sequence[Sequence[str]]) -> list[Team]:
    return [tuple(t) for t in raw]


def field_pairs(
    teams: Sequence[Team], field: Sequence[Team], opponents: int, seed: int
) -> tuple[tuple[Team, Team], ...]:
    """Each team against ``opponents`` opponents drawn uniformly (with replacement) from the field."""
    rng = np.random.default_rng(seed)
    pairs: list[tuple[Team, Team]] = []
    for team in teams:
        for i in rng.integers(len(field), size=opponents):
            pairs.append((team, field[int(i)]))
    return tuple(pairs)


def round_robin_pairs(teams: Sequence[Team]) -> tuple[tuple[Team, Team], ...]:
    return tuple((teams[i], teams[j]) for i in range(len(teams)) for j in range(i + 1, len(teams)))


def first_pairings(settings: Mapping[str, Any], master_seed: int) -> tuple[tuple[Team, Team], ...]:
    """Stage 1's pairings (the experiment file's own pairings)."""
    teams = _teams(settings["teams"])
    if settings["design"] == "round_robin":
        return round_robin_pairs(teams)
    # adaptive (halving) and lucb: every team against `opponents` field opponents
    return field_pairs(
        teams, _teams(settings["field"]), int(settings["opponents"]), stage_seed(master_seed, 1)
    )


def halving_sizes(n_teams: int, keep: float, min_teams: int) -> list[int]:
    """The number of rated teams of each halving stage: n, then ceil(keep * previous) for as long
    as that keeps at least ``min_teams`` (so the last stage rates between ``min_teams`` and
    ``min_teams / keep`` teams, or n when n is smaller)."""
    sizes = [n_teams]
    while math.ceil(keep * sizes[-1]) >= min_teams and math.ceil(keep * sizes[-1]) < sizes[-1]:
        sizes.append(math.ceil(keep * sizes[-1]))
    return sizes


def field_pairs_counted(
    teams: Sequence[Team], counts: Sequence[int], field: Sequence[Team], seed: int
) -> tuple[tuple[Team, Team], ...]:
    """Team ``teams[i]`` against ``counts[i]`` opponents drawn uniformly from the field."""
    rng = np.random.default_rng(seed)
    pairs: list[tuple[Team, Team]] = []
    for team, count in zip(teams, counts, strict=True):
        for i in rng.integers(len(field), size=count):
            pairs.append((team, field[int(i)]))
    return tuple(pairs)


LUCB_PREFIX = "lucb-"
AFTER_RACE_STAGES = 4
"""The stages a study may plan after its race: top round robin, search, two swap stages."""


def max_race_stages() -> int:
    """The race's stages at most: the staged runner's cap (:data:`krosbalance.sim.stages.MAX_STAGES`)
    less the stages that may follow it. A race that reaches it ends there, like a spent budget."""

    return stages.MAX_STAGES - AFTER_RACE_STAGES  # read when asked: the cap is the runner's


def lucb_label(index: int) -> str:
    return f"{LUCB_PREFIX}{index:02d}"


def deals_per_pair(experiment: Experiment) -> int:
    return experiment.deals_per_pairing * len(experiment.seatings)


def planned_matches(experiment: Experiment) -> dict[str, int]:
    """Matches of every planned stage (the adaptive design's stages are known in size in advance)."""
    s = json.loads(experiment.ladder)
    per_pair = deals_per_pair(experiment)
    out: dict[str, int] = {}
    if s["design"] == "round_robin":
        n = len(s["teams"])
        out["round-robin"] = n * (n - 1) // 2 * per_pair
    elif s["design"] == "lucb":
        first = len(s["teams"]) * s["opponents"] * per_pair
        out[lucb_label(1)] = first
        out["lucb (at most)"] = max(0, s["budget"] - first)
        top = min(s["top_round_robin"], len(s["teams"]))
        if top >= 2:
            out["top-round-robin"] = top * (top - 1) // 2 * per_pair
    else:
        sizes = halving_sizes(len(s["teams"]), s["keep"], s["min_teams"])
        for r, size in enumerate(sizes, start=1):
            out[f"halving-{r}"] = size * s["opponents"] * 2 ** (r - 1) * per_pair
        top = min(s["top_round_robin"], sizes[-1])
        if top >= 2:
            out["top-round-robin"] = top * (top - 1) // 2 * per_pair
    if s.get("search"):
        top = min(s["search"]["top"], len(s["teams"]))
        deals = sum(search_matchups(s["search"])[1])
        label = "search (at most)" if "half_width" in s["search"] else "search"
        out[label] = top * (top - 1) // 2 * deals * len(experiment.seatings)
    n_swap = sum(1 for _ in s["swaps"]) * s["opponents"] * 4 * per_pair
    if n_swap:
        out["swap-base"] = out["swap-alt"] = n_swap
    return out


def search_matchups(search: Mapping[str, Any]) -> tuple[tuple[tuple[str, str], ...], tuple[int, ...]]:
    """The search stage's AI matchups (its AI on both sides, then the ``beside`` AI's) and the deals
    each plays at most (the leading AI's cap when a ``half_width`` sizes it)."""
    ai = search["ai"]
    ais: list[tuple[str, str]] = [(ai, ai)]
    deals = [int(search.get("max_deals", search["deals"]))]
    beside = search.get("beside")
    if beside:
        ais.append((beside["ai"], beside["ai"]))
        deals.append(int(beside["deals"]))
    return tuple(ais), tuple(deals)


def stage_ais(experiment: Experiment) -> dict[str, tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]]:
    """The stages played by other AIs than the file's (for ``validate``'s cost): the search stage's
    matchups and their deals."""
    search = json.loads(experiment.ladder).get("search")
    if not search:
        return {}
    label = "search (at most)" if "half_width" in search else "search"
    return {label: search_matchups(search)}


class TeamLadderPlanner:
    """Plans a team study from its experiment (``mode = "ladder"``), stage by stage."""

    def __init__(self, experiment: Experiment) -> None:
        if experiment.mode != "ladder" or not experiment.ladder:
            raise ValueError(f"experiment {experiment.name!r} is not a team ladder (mode = 'ladder')")
        self.base = experiment
        self.settings: dict[str, Any] = json.loads(experiment.ladder)
        self.name = experiment.name
        self.meta = {"kind": "team_ladder", "experiment": experiment.name, "settings": self.settings}
        self.teams = _teams(self.settings["teams"])
        self.field = _teams(self.settings["field"])
        self._samples: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # race stage folder -> its samples

    # ------------------------------------------------------------------ stages
    def _stage(self, label: str, pairs: Sequence[tuple[Team, Team]], seed: int, **changes: Any) -> Experiment:
        return dataclasses.replace(
            self.base,
            name=label,
            description=f"{self.base.name}: {label}",
            master_seed=seed,
            pairings=tuple(pairs),
            mode="pairs",
            ladder="",
            **changes,
        )

    def first(self) -> Experiment:
        label = {"round_robin": "round-robin", "lucb": lucb_label(1)}.get(
            self.settings["design"], "halving-1"
        )
        return self._stage(
            label, first_pairings(self.settings, self.base.master_seed), stage_seed(self.base.master_seed, 1)
        )

    def next(self, finished: Sequence[FinishedStage]) -> Experiment | None:
        labels = [stage.experiment.name for stage in finished]
        last = labels[-1]
        index = len(finished) + 1
        seed = stage_seed(self.base.master_seed, index)
        if last.startswith(LUCB_PREFIX):
            race = self._race(finished, seed)
            if race is not None:
                return race
        scores = stage_scores(finished)
        if last.startswith(LUCB_PREFIX):
            # the race's ranking: its teams by mean score against the field (stage_scores: team A's
            # deals in the field stages; equal to the mean pairing score, every pairing playing the
            # same deals), ties by more deals, then name
            rated = list(dict.fromkeys(a for s in finished for a, _ in s.experiment.pairings))
            top = min(self.settings["top_round_robin"], len(rated))
            if top >= 2:
                return self._stage(
                    "top-round-robin", round_robin_pairs(rank_teams(rated, scores)[:top]), seed
                )
            last = "top-round-robin"
        if last.startswith("halving-"):
            r = int(last.split("-")[1])
            sizes = halving_sizes(len(self.teams), self.settings["keep"], self.settings["min_teams"])
            if r < len(sizes):
                active = [tuple(t) for t in finished[-1].experiment.pairings]
                rated = list(dict.fromkeys(a for a, _ in active))
                kept = rank_teams(rated, scores)[: sizes[r]]
                opponents = self.settings["opponents"] * 2**r
                return self._stage(f"halving-{r + 1}", field_pairs(kept, self.field, opponents, seed), seed)
            top = min(self.settings["top_round_robin"], sizes[-1])
            if top >= 2:
                rated = list(dict.fromkeys(a for a, _ in finished[-1].experiment.pairings))
                return self._stage(
                    "top-round-robin", round_robin_pairs(rank_teams(rated, scores)[:top]), seed
                )
            last = "top-round-robin"
        if last in ("top-round-robin", "round-robin"):
            search = self.settings.get("search")
            if search:
                top = rank_teams(self.teams, scores)[: search["top"]]
                ais, _ = search_matchups(search)
                return self._stage(
                    "search",
                    round_robin_pairs(top),
                    seed,
                    ais=ais,
                    matches_per_pairing=search["deals"],
                    **search_target(search),
                )
            last = "search"
        swaps = self.settings["swaps"]
        if last == "search" and swaps:
            return self._swap_stage("swap-base", "team")
        if last == "swap-base":
            return self._swap_stage("swap-alt", "swapped")
        return None

    def race_state(self, finished: Sequence[FinishedStage]) -> tuple[Any, np.ndarray, int]:
        """The race's decision (:class:`krosbalance.sim.topk.RaceStep`) after the finished ``lucb-``
        stages, each rated team's samples (pairings) so far, and the matches the stages used."""
        lucb = [s for s in finished if s.experiment.name.startswith(LUCB_PREFIX)]
        sums, counts = pairing_samples(lucb, self.teams, self._samples)
        s = self.settings
        step = race_step(sums, counts, k=s["top_k"], epsilon=s["epsilon"], delta=s["delta"], batch=s["batch"])
        return step, counts, sum(stage.experiment.n_matches for stage in lucb)

    def _race(self, finished: Sequence[FinishedStage], seed: int) -> Experiment | None:
        """The next ``lucb-`` stage, or None when the top k is certified or the budget is spent."""

        step, counts, used = self.race_state(finished)
        race_stages = sum(1 for s in finished if s.experiment.name.startswith(LUCB_PREFIX))
        if step.stop or race_stages >= max_race_stages():
            return None
        first = finished[0].experiment
        per_pairing = first.n_matches // max(1, len(first.pairings))
        left = self.settings["budget"] - used
        teams: list[Team] = []
        opponents: list[int] = []
        for i, o in zip(
            step.sample, stage_opponents(counts, step.sample, self.settings["opponents"]), strict=True
        ):
            if o * per_pairing <= left:  # most blocking first; a stage never overruns the budget
                teams.append(self.teams[i])
                opponents.append(o)
                left -= o * per_pairing
        if not teams:
            return None
        label = lucb_label(race_stages + 1)
        return self._stage(label, field_pairs_counted(teams, opponents, self.field, seed), seed)

    def _swap_stage(self, label: str, which: str) -> Experiment:
        """Each swap's team (or its swapped team) against the same field opponents, same seeds."""
        seed = stage_seed(self.base.master_seed, SWAP_SEED_KEY)
        opponents = self.settings["opponents"] * 4
        pairs: list[tuple[Team, Team]] = []
        for i, swap in enumerate(self.settings["swaps"]):
            drawn = field_pairs([tuple(swap["team"])], self.field, opponents, stage_seed(seed, i))
            pairs += [(tuple(swap[which]), opponent) for _, opponent in drawn]
        return self._stage(label, pairs, seed)


def search_target(search: Mapping[str, Any]) -> dict[str, Any]:
    """The search stage's changes for a ``half_width`` (:mod:`krosbalance.studies.teams.target`):
    its AI's deals expanded to the cap and a target measured by team ratings, played in rounds of
    ``deals`` (:mod:`krosbalance.sim.target`; a ``beside`` AI plays its fixed deals in the first
    round); without one, each matchup's fixed deals (``ai_deals=()`` for the AI alone, as before)."""
    _, deals = search_matchups(search)
    if "half_width" not in search:
        return {"ai_deals": deals if len(deals) > 1 else ()}
    planned = Target(
        float(search["half_width"]),
        (TargetAI(canonical_ai(search["ai"]), 0, search["deals"], search["max_deals"]),),
        "teams",
        team_target.QUANTITY,
        team_target.UNIT,
    )
    return {"ai_deals": deals, "target": planned.json}


def rank_teams(teams: Sequence[Team], scores: Mapping[Team, tuple[float, float]]) -> list[Team]:
    """Teams by score against the field (best first); unscored last; ties by more deals, then name."""

    def key(team: Team) -> tuple[float, float, Team]:
        score, n = scores.get(team, (float("-inf"), 0.0))
        return (-score, -n, team)

    return sorted(dict.fromkeys(teams), key=key)


STUDY_COPY = "experiment.toml"
"""The study's own experiment file, copied into the staged folder (the report's question)."""


def run_ladder(
    experiment: Experiment,
    source: str | Path,
    out: str | Path,
    *,
    jobs: int = 1,
    resume: bool = False,
    echo: Any = print,
    **run_options: Any,
) -> int:
    """``krosbalance run`` of a team study: its stages into ``out`` (see the module docstring);
    prints the planned matches first and a line per stage. Returns the exit status."""
    import shutil
    import time

    out = Path(out)
    planned = planned_matches(experiment)
    echo(
        f"{experiment.name}: team ladder of {len(json.loads(experiment.ladder)['teams'])} teams, "
        + (
            f"a race of stages within its budget, then {len(planned) - 2} stages, at most "
            if "lucb (at most)" in planned
            else f"{len(planned)} stages planned, "
        )
        + f"{sum(planned.values()):,} matches "
        f"({', '.join(f'{k} {v:,}' for k, v in planned.items())})"
    )
    start = time.perf_counter()
    summary = run_stages(TeamLadderPlanner(experiment), out, jobs=jobs, resume=resume, **run_options)
    shutil.copyfile(source, out / STUDY_COPY)
    for stage in summary.stages:
        echo(
            f"  {stage.folder.name}: {stage.n_matches:,} matches ({stage.n_played:,} played), {stage.n_errors} errors"
        )
    echo(
        f"{experiment.name}: {summary.n_matches:,} matches in {len(summary.stages)} stages, "
        f"{time.perf_counter() - start:.1f} s -> {out}"
    )
    return 1 if summary.n_errors else 0  # as the CLI: some matches raised (recorded in the stages)


def run_ladder_study(
    experiment: Experiment, source: str | Path, out: str | Path, *, patch: Any = None, **options: Any
) -> int:
    """``krosbalance run`` of a team study (``mode = "ladder"``, :meth:`TeamsStudy.stage_runner`):
    :func:`run_ladder`, which plays the cards as shipped (a ``--patch`` is refused)."""
    if patch:
        raise KrosbalanceError(
            f"{source}: --patch: a team study (mode = 'ladder') plays the cards as shipped; "
            "put the patch in a [[variants]] arm of a round_robin experiment instead"
        )
    return run_ladder(experiment, source, out, **options)
