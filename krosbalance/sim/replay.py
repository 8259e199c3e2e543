"""Re-simulating one finished match from its saved spec and seed, with the full event log.

Runs record no events (they would cost time and space); a match is a pure function of its spec and
seed, so any match can be replayed later, in full, for the CLI's ``replay`` or a notebook.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from krosbalance.engine.results import MatchResult
from krosbalance.sim.expansion import expand
from krosbalance.sim.experiment_file import load_experiment
from krosbalance.sim.match import play_spec
from krosbalance.sim.runner import EXPERIMENT_COPY, RunError
from krosbalance.sim.spec import MatchSpec


@dataclass
class Replay:
    """A replayed match: its spec, its result with the full event log, and the events by turn."""

    spec: MatchSpec
    result: MatchResult
    events_by_turn: dict[int, list[Any]] = field(default_factory=dict)
    positions: dict[int, tuple[tuple[int, str, int, int, int], ...]] = field(default_factory=dict)


def replay_match(results_dir: Path | str, match_id: int) -> Replay:
    """Replay match ``match_id`` of the run saved in ``results_dir``."""
    results_dir = Path(results_dir)
    source = results_dir / EXPERIMENT_COPY
    if not source.is_file():
        raise RunError(f"{results_dir}: not a krosbalance run folder (no {EXPERIMENT_COPY})")
    specs = expand(load_experiment(source))
    if not 0 <= match_id < len(specs):
        raise RunError(f"{results_dir}: no match {match_id} (match ids run from 0 to {len(specs) - 1})")
    spec = specs[match_id]
    result = play_spec(spec, record="full")
    by_turn: dict[int, list[Any]] = defaultdict(list)
    positions: dict[int, tuple[tuple[int, str, int, int, int], ...]] = {}
    for event in result.events:
        by_turn[event.turn].append(event)
        if event.kind == "turn_ended":
            positions[event.turn] = event.positions
    return Replay(spec, result, dict(by_turn), positions)
