"""Sample sizes from a target: an AI's matches played in rounds until the study's headline is as
precise as asked, instead of a fixed number of deals.

In the experiment file::

    [target]
    half_width = 0.15       # the 95% CI half-width wanted of every headline number, in the study's
                            # unit (default: the study's, else 0.15; the strength study: every
                            # figure's strength, in log-odds; the rewards study: every token's
                            # Δ win rate, in points, default 4)
    ais = ["mcts-race"]     # the AIs whose matches grow (default: the strongest of the run's same-AI
                            # matchups on the AI ladder, krosbalance/ai/data/ladder.toml)
    round_deals = 2         # deals per pairing and board each round adds (default: the AI's own
                            # deals in ``ais``, ``{ai = ..., deals = n}`` or matches_per_pairing)
    max_deals = 40          # the cap, in deals per pairing and board (default 20 rounds) ...
    max_matches = 8000      # ... or in the AI's matches (one of the two)
    measure = "teams"       # whose headline quantity: the experiment's own study's (default) or
                            # another study's that fits it (teams: each team's rating, for
                            # explicit team pairings; a team ladder's search stage uses this)

The targeted AI's matchup is expanded to the cap (``max_deals`` deals: the match ids and seeds of
every deal that may be played are fixed from the start) and played a round at a time: round 1 plays
``round_deals`` deals of it (with every other matchup's deals), and after each round the study's
headline half-widths are computed from that AI's rows so far (the study's ``target`` module, e.g.
:mod:`krosbalance.studies.strength.target`, with the report's own estimator). The AI stops when its
widest half-width is within the target, or at the cap; else the next round adds ``round_deals``.

Determinism: which deals a round plays is a pure function of the master seed and of the rows of the
rounds before it (each round's measure reads only the rows of the deals planned so far), so a run
resumed mid-round or between rounds replays the same decisions on the rows already written and plays
exactly the matches an uninterrupted run plays; the job count and batch size never enter.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from krosbalance.ai.ladder import load_ladder
from krosbalance.ai.ladder_order import base_ruleset, ladder_ruleset, strength_order
from krosbalance.ai.registry import canonical_ai
from krosbalance.errors import ExperimentError
from krosbalance.sim.design import MAX_MATCHES, Experiment
from krosbalance.sim.expansion import DealFilter, deal_matchups, matches_per_deal
from krosbalance.sim.file_problems import _get, _Problems, _unknown_keys
from krosbalance.study_registry import get_study, studies_with, study_for, study_part

TARGET_KEYS: tuple[str, ...] = ("half_width", "ais", "round_deals", "max_deals", "max_matches", "measure")
DEFAULT_HALF_WIDTH = 0.15
DEFAULT_ROUNDS = 20
"""Rounds at most when the file sets no cap (``max_deals`` = 20 x ``round_deals``)."""
REACHED, CAP, RUNNING = "reached", "cap", "running"


@dataclass(frozen=True, slots=True)
class TargetAI:
    """One AI whose matches grow: its matchup (index in ``ais``), deals per round and the cap."""

    ai: str
    matchup: int
    round_deals: int
    max_deals: int


@dataclass(frozen=True, slots=True)
class Target:
    """An experiment's ``[target]``, resolved (stored in ``Experiment.target`` as :meth:`json`)."""

    half_width: float
    ais: tuple[TargetAI, ...]
    study: str
    quantity: str
    unit: str

    @property
    def json(self) -> str:
        data = {
            "half_width": self.half_width,
            "ais": [[t.ai, t.matchup, t.round_deals, t.max_deals] for t in self.ais],
            "study": self.study,
            "quantity": self.quantity,
            "unit": self.unit,
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Target:
        data = json.loads(text)
        ais = tuple(TargetAI(str(a), int(m), int(r), int(c)) for a, m, r, c in data["ais"])
        return cls(float(data["half_width"]), ais, data["study"], data["quantity"], data["unit"])


def target_of(experiment: Experiment) -> Target | None:
    """The experiment's resolved target, None without ``[target]``."""
    return Target.from_json(experiment.target) if experiment.target else None


# ------------------------------------------------------------------------------------------ parsing


def parse_target(data: Mapping[str, Any], problems: _Problems) -> dict[str, Any] | None:
    """The ``[target]`` table's values, type-checked (resolved later by :func:`resolve_target`, once the
    experiment's study and matchups are known); None without one or when it is wrong."""
    table = _get(data, "target", dict, problems)
    if table is None:
        return None
    _unknown_keys(table, TARGET_KEYS, "target.", problems)
    before = len(problems.errors)
    half_width = _get(table, "half_width", (float, int), problems, prefix="target.")
    if half_width is not None and not (math.isfinite(half_width) and half_width > 0):
        problems.add("target.half_width", f"must be a number > 0 (a 95% CI half-width), not {half_width!r}")
    ais = _get(table, "ais", (list, str), problems, prefix="target.", default=[])
    if isinstance(ais, str):
        ais = [ais]
    for i, ai in enumerate(ais or []):
        if not isinstance(ai, str):
            problems.add(f"target.ais[{i}]", f"must be an AI name, not {ai!r}")
    counts = {}
    for key in ("round_deals", "max_deals", "max_matches"):
        value = _get(table, key, int, problems, prefix="target.")
        if value is not None and value < 1:
            problems.add(f"target.{key}", f"must be an int >= 1, not {value}")
        counts[key] = value
    measure = _get(table, "measure", str, problems, prefix="target.", default="")
    if counts["max_deals"] is not None and counts["max_matches"] is not None:
        problems.add("target.max_matches", "give the cap once: max_deals or max_matches, not both")
    if len(problems.errors) > before:
        return None
    width = None if half_width is None else float(half_width)  # None: the study's default
    return {"half_width": width, "ais": list(ais or []), "measure": measure or "", **counts}


def _study_module(experiment: Experiment, measure: str = "") -> tuple[str, Any]:
    """The name of the study whose headline the target sizes (``measure``, else the experiment's
    own) and the module of its ``target`` part (None when the study declares none:
    :func:`krosbalance.study_registry.study_part`). Raises ``ExperimentError`` for an unknown study."""
    study = get_study(measure) if measure else study_for(experiment)
    return study.name, study_part(study, "target")


def interval_half_widths(
    names: Sequence[Any], lows: Sequence[Any], highs: Sequence[Any], scale: float = 1.0
) -> dict[str, float]:
    """``{name: scale x (high - low) / 2}`` for a study's ``half_widths``: each headline number's
    half-width from its interval, ``inf`` where the interval is not finite (not estimable yet)."""
    out: dict[str, float] = {}
    for name, low, high in zip(names, lows, highs, strict=True):
        width = scale * (float(high) - float(low)) / 2
        out[str(name)] = width if math.isfinite(width) else math.inf
    return out


def two_player_problem(experiment: Any, what: str = "the figures' strength") -> str:
    """A target part's ``problem`` for an estimate read from two-player matches ('' when it seats
    two)."""
    if experiment.seats != 2:
        return f"{what} is measured in two-player matches; this ruleset seats {experiment.seats}"
    return ""


def study_default_width(module: Any) -> float:
    """The half-width a study's target part asks for when the file gives none (its
    ``DEFAULT_HALF_WIDTH``, in its own unit), else :data:`DEFAULT_HALF_WIDTH`."""
    return float(getattr(module, "DEFAULT_HALF_WIDTH", DEFAULT_HALF_WIDTH))


def own_matchups(experiment: Experiment) -> dict[str, int]:
    """{AI: index in ``ais``} of the matchups one AI plays on every side (the first, if listed twice)."""
    out: dict[str, int] = {}
    for i, matchup in enumerate(experiment.ais):
        if len(set(matchup)) == 1:
            out.setdefault(matchup[0], i)
    return out


def strongest_ai(candidates: Sequence[str], ruleset: str) -> tuple[str, str]:
    """(the strongest of ``candidates``, '') by the AI ladder's order
    (:func:`krosbalance.ai.ladder_order.strength_order`, the order the report's answer follows, so
    the AI played to the target is the AI that answers); ('', why) when there is no candidate."""
    ranked = strength_order(candidates, ruleset, load_ladder(ruleset=base_ruleset(ruleset)))
    if not ranked:
        return "", "no AI plays a matchup of its own: name the AI in target.ais"
    return ranked[0], ""


def deal_step(experiment: Experiment) -> int:
    """Matches one more deal per pairing and board of one matchup adds (every pairing, board, arm and
    seating)."""
    return len(experiment.board_groups) * sum(matches_per_deal(experiment, p) for p in experiment.pairings)


def resolve_target(experiment: Experiment, raw: Mapping[str, Any], problems: _Problems) -> Experiment:
    """The experiment with its ``[target]`` resolved: the AIs (the strongest by default), each one's
    round and cap, its matchup expanded to the cap (``ai_deals``), the study's quantity. Problems are
    added to ``problems`` (the experiment is returned unchanged then)."""
    measure = raw.get("measure", "")
    try:
        study, module = _study_module(experiment, measure)
    except ExperimentError:
        known = ", ".join(study.name for study in studies_with("target"))
        problems.add(
            "target.measure", f"unknown study {measure!r}; those with a headline a target sizes: {known}"
        )
        return experiment
    if module is None:
        field = "target.measure" if measure else "target"
        problems.add(
            field, f"the {study} study states no headline quantity a target can size; remove [target]"
        )
        return experiment
    if study_for(experiment).stage_runner(experiment) is not None:
        inside = getattr(module, "IN_STAGES", "")
        problems.add(
            "target",
            f"the {study} study plans its own stages; [target] sizes an experiment played once"
            + (f" ({inside})" if inside else ""),
        )
        return experiment
    why = module.problem(experiment)
    if why:
        problems.add("target", why)
        return experiment

    own = own_matchups(experiment)
    names = [canonical_ai(name) for name in raw["ais"]]  # a former id (focus_fire) reads as today's
    if not names:
        if not own:
            problems.add(
                "target", "no AI plays a matchup of its own in ais (the same AI on every side) to target"
            )
            return experiment
        # a four-seat Arena run is judged by four-player Arena's ladder: the target plays that AI
        best, why = strongest_ai(list(own), ladder_ruleset(experiment.ruleset, experiment.seats))
        if why:
            problems.add("target.ais", why)
            return experiment
        names = [best]
    deals = list(experiment.deals_per_matchup)
    step = deal_step(experiment)
    chosen: list[TargetAI] = []
    for i, name in enumerate(names):
        if name not in own:
            problems.add(
                f"target.ais[{i}]",
                f"{name!r} plays no matchup of its own in ais (the same AI on every side); "
                f"those that do: {', '.join(own) or '(none)'}",
            )
            continue
        if any(t.ai == name for t in chosen):
            problems.add(f"target.ais[{i}]", f"{name!r} is listed twice")
            continue
        matchup = own[name]
        round_deals = raw["round_deals"] or deals[matchup]
        if raw["max_matches"] is not None:
            cap = raw["max_matches"] // step
            if cap < round_deals:
                problems.add(
                    "target.max_matches",
                    f"{raw['max_matches']:,} matches are less than one round of {name} "
                    f"({round_deals} deal(s) per pairing and board = {round_deals * step:,} matches)",
                )
                continue
        else:
            cap = raw["max_deals"] or DEFAULT_ROUNDS * round_deals
            if cap < round_deals:
                problems.add("target.max_deals", f"{cap} is less than one round ({round_deals} deals)")
                continue
        deals[matchup] = cap
        chosen.append(TargetAI(name, matchup, round_deals, cap))
    if not chosen or len(chosen) < len(names):
        return experiment
    width = raw["half_width"] if raw["half_width"] is not None else study_default_width(module)
    target = Target(width, tuple(chosen), study, module.QUANTITY, module.UNIT)
    resolved = replace(experiment, ai_deals=tuple(deals), target=target.json)
    if resolved.n_matches > MAX_MATCHES:
        problems.add(
            "target.max_deals",
            f"the cap makes {resolved.n_matches:,} matches; an experiment holds at most {MAX_MATCHES:,}",
        )
        return experiment
    return resolved


# ------------------------------------------------------------------------------------------- rounds


@dataclass(slots=True)
class AIProgress:
    """Where one targeted AI stands: deals planned per pairing and board, rounds, its rows' widest
    half-width and which number it is, and whether it stopped (``reached`` / ``cap``)."""

    spec: TargetAI
    deals: int
    rounds: int = 0
    matches: int = 0
    half_width: float = math.inf
    widest: str = ""
    status: str = RUNNING


class Rounds:
    """The rounds of an experiment with a target, a pure function of the rows written: ``keep`` says
    which deals the current round plays, ``advance`` measures its rows and plans the next round."""

    def __init__(self, experiment: Experiment, target: Target) -> None:
        self.experiment = experiment
        self.target = target
        self.progress = [AIProgress(spec, spec.round_deals) for spec in target.ais]
        self.history: list[dict[str, Any]] = []
        self.index = 1
        self._cells = deal_matchups(experiment)
        self._per_deal = [matches_per_deal(experiment, p) for p in experiment.pairings]

    def limit(self, matchup: int) -> float:
        """Deals per pairing and board of ``matchup`` planned so far (all of an untargeted one)."""
        return next((p.deals for p in self.progress if p.spec.matchup == matchup), math.inf)

    def keep(self, done: Any = None) -> DealFilter:
        """The deals planned so far (those all of whose matches are in ``done`` left out)."""
        limits = {p.spec.matchup: p.deals for p in self.progress}

        def keep(matchup: int, k: int, ids: range) -> bool:
            if k >= limits.get(matchup, math.inf):
                return False
            return done is None or not bool(done[ids.start : ids.stop].all())

        return keep

    def ids(self, matchup: int | None = None) -> list[int]:
        """The match ids of the deals planned so far (of one matchup, or all)."""
        out: list[int] = []
        first = 0
        for per in self._per_deal:
            for i, k in self._cells:
                if k < self.limit(i) and (matchup is None or i == matchup):
                    out.extend(range(first, first + per))
                first += per
        return out

    def advance(self, matches: Any, measure: Callable[[Any], dict[str, float]]) -> bool:
        """Measure each running AI on its rows of the deals planned so far (``matches``: the matches
        table, every row written) and plan the next round; False when every AI has stopped."""
        entry: dict[str, Any] = {"round": self.index, "ais": {}}
        import numpy as np

        ids = matches["match_id"].to_numpy() if len(matches) else np.zeros(0, dtype=np.int64)
        for p in self.progress:
            if p.status != RUNNING:
                continue
            rows = matches[np.isin(ids, self.ids(p.spec.matchup))]
            widths = measure(rows) if len(rows) else {}
            p.rounds += 1
            p.matches = len(rows)
            p.widest, p.half_width = max(
                widths.items(), key=lambda kv: (kv[1], kv[0]), default=("", math.inf)
            )
            entry["ais"][p.spec.ai] = {
                "deals": p.deals,
                "matches": p.matches,
                "half_width": _num(p.half_width),
            }
            if p.half_width <= self.target.half_width:
                p.status = REACHED
            elif p.deals >= p.spec.max_deals:
                p.status = CAP
            else:
                p.deals = min(p.deals + p.spec.round_deals, p.spec.max_deals)
        self.history.append(entry)
        self.index += 1
        return any(p.status == RUNNING for p in self.progress)

    def record(self) -> dict[str, Any]:
        """What the manifest keeps (``manifest["target"]``): the target, each AI's outcome, the rounds."""
        t = self.target
        return {
            "half_width": t.half_width,
            "study": t.study,
            "quantity": t.quantity,
            "unit": t.unit,
            "ais": {
                p.spec.ai: {
                    "status": p.status,
                    "rounds": p.rounds,
                    "deals": p.deals,
                    "round_deals": p.spec.round_deals,
                    "max_deals": p.spec.max_deals,
                    "matches": p.matches,
                    "half_width": _num(p.half_width),
                    "widest": p.widest,
                }
                for p in self.progress
            },
            "rounds": self.history,
        }


def _num(x: float) -> float | None:
    """A half-width as JSON can hold it (None for an infinite one: nothing estimable yet)."""
    return round(x, 4) if math.isfinite(x) else None


def study_measure(target: Target, experiment: Experiment) -> Callable[[Any], dict[str, float]]:
    """The study's ``half_widths`` (its ``target`` part) over one AI's rows of ``experiment``."""
    module = study_part(get_study(target.study), "target")
    if module is None:  # resolve_target refused the file: a target always has its study's part
        raise ValueError(f"the {target.study} study declares no target part")

    def measure(matches: Any) -> dict[str, float]:
        widths: dict[str, float] = module.half_widths(matches, experiment)
        return widths

    return measure


# ------------------------------------------------------------------------------------------- words


def _pm(x: float | None, digits: int = 2) -> str:
    return "±?" if x is None else f"±{x:.{digits}f}"


def target_lines(record: Mapping[str, Any] | None) -> list[str]:
    """One line per targeted AI of a manifest's ``target`` record: ``mcts-race: ±0.15 reached after
    1,330 matches (19 rounds of 1 deal per pairing and board; widest: anna_tommy ±0.148 log-odds)`` or
    ``mcts-race: cap reached at ±0.19 after 4,200 matches (...)``."""
    if not record:
        return []
    goal = _pm(record.get("half_width"))
    unit = record.get("unit", "")
    lines = []
    for ai, r in record.get("ais", {}).items():
        n, rounds, size = int(r.get("matches", 0)), int(r.get("rounds", 0)), int(r.get("round_deals", 1))
        of = f"{rounds} round{'s' if rounds != 1 else ''} of {size} deal{'s' if size != 1 else ''} per pairing and board"
        widest = (
            f"; widest: {r['widest']} {_pm(r.get('half_width'), 3)} {unit}".rstrip()
            if r.get("widest")
            else ""
        )
        if r.get("status") == REACHED:
            lines.append(f"{ai}: {goal} reached after {n:,} matches ({of}{widest})")
        elif r.get("status") == CAP:
            lines.append(
                f"{ai}: cap reached at {_pm(r.get('half_width'))} after {n:,} matches "
                f"({r.get('max_deals')} deals per pairing and board, the cap; target {goal}{widest})"
            )
        else:
            lines.append(f"{ai}: {goal} not reached yet ({n:,} matches, {of} so far{widest})")
    return lines
