"""Play one match spec and turn its outcome (or its crash) into table rows.

This is the whole of what a worker does: ``run_batch`` plays its specs one after another and returns
plain dicts. A match that raises becomes a matches row with ``error`` set plus an errors row carrying
seed, spec and traceback, so one bad match never stops an experiment; a fault of the native core
(``CoreFault``, a Rust panic included: :mod:`krosbalance.engine_choice`) too, its row's ``engine``
``core`` and its message saying how to replay the match on the reference.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from krosbalance.content.custom import activate
from krosbalance.engine.results import MatchResult
from krosbalance.errors import CoreFault, EngineError
from krosbalance.play import play_match
from krosbalance.sim.catalog import arm_ruleset
from krosbalance.sim.collector import bulk_collection
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.patches import patch_options
from krosbalance.sim.restricted import forbid_map
from krosbalance.sim.spec import MatchSpec
from krosbalance.sim.tables import error_row, event_rows, failed_match_row, fighter_rows, match_row

PlayFn = Callable[..., MatchResult]
"""Anything with the signature of ``krosbalance.play.play_match`` (its ``ruleset`` may be a name or,
as ``play_spec`` passes it, the ruleset object with the match's options)."""


def default_play(engine: str = "auto") -> PlayFn:
    """The engine's ``play_match`` (imported on demand: it is the only link to the rules), playing
    on ``engine`` (``auto``, ``core`` or ``reference``: :mod:`krosbalance.engine_choice`); picklable,
    so process workers play on the engine the parent chose."""
    return play_match if engine == "auto" else functools.partial(play_match, engine=engine)


def play_spec(spec: MatchSpec, play: PlayFn | None = None, record: str | None = None) -> MatchResult:
    """Play one match exactly as the spec says, under its arm's ruleset object — the one validation
    checked and the pregame dealt with (:func:`krosbalance.sim.catalog.arm_ruleset`, built once per
    worker and options) — (``record`` overrides the spec's recording level)."""
    fn = play if play is not None else default_play()
    activate(spec.content)  # the cards the spec was made with, in whichever process plays it
    extra: dict[str, Any] = {}
    if spec.patch:  # the arm's patched cards (a registry built once per worker and patch)
        extra["registry"] = patched_registry(spec.patch)
    if spec.forbid:  # restricted play: what the arm forbids to its figures (sim.restricted)
        extra["forbid"] = forbid_map(spec.forbid)
    return fn(
        *(list(team) for team in spec.teams),
        board=spec.board,
        ai=spec.ais,
        seed=spec.seed,
        record=record if record is not None else spec.record,
        ruleset=arm_ruleset(spec.ruleset, _options_of(spec)),
        **extra,
    )


def _options_of(spec: MatchSpec) -> str:
    """The spec's options, with its patch's Divine Challenge tiers (``patches.patch_options``)."""
    if not spec.patch or '"challenges"' not in spec.patch:
        return spec.options_json

    return patch_options(spec.options_json, spec.patch)


@dataclass(slots=True)
class BatchResult:
    """The rows of one batch of matches, ready to become one set of shards."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    fighters: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def extend(self, other: BatchResult) -> None:
        self.matches.extend(other.matches)
        self.fighters.extend(other.fighters)
        self.errors.extend(other.errors)
        self.events.extend(other.events)
        self.seconds += other.seconds


def run_match(spec: MatchSpec, play: PlayFn | None = None) -> BatchResult:
    """Play one match; an exception inside it is recorded, not raised."""
    out = BatchResult()
    try:
        result = play_spec(spec, play)
        out.matches.append(match_row(spec, result))
        out.fighters.extend(fighter_rows(spec, result))
        if result.events:
            out.events.extend(event_rows(spec, result))
    except Exception as exc:  # a crash in one match must not stop the experiment
        out.matches.append(failed_match_row(spec, _error_text(spec, exc), _engine_of(exc)))
        out.errors.append(error_row(spec, traceback.format_exc()))
    return out


def _engine_of(exc: Exception) -> str:
    """The engine a failed match was played on: the core's faults and refusals are the core's."""
    return "core" if isinstance(exc, CoreFault | EngineError) else "reference"


def _error_text(spec: MatchSpec, exc: Exception) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text.replace("MATCH_ID", str(spec.match_id)) if isinstance(exc, CoreFault) else text


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C inside a batch, carrying the matches of the batch that finished before it
    (``partial``), so that the runner keeps them."""

    def __init__(self, partial: BatchResult) -> None:
        super().__init__("interrupted")
        self.partial = partial

    def __reduce__(self) -> tuple[type[BatchInterrupted], tuple[BatchResult]]:
        return (BatchInterrupted, (self.partial,))  # from a worker process, with its matches


def run_batch(specs: Sequence[MatchSpec], play: PlayFn | None = None) -> BatchResult:
    """Play a batch of matches in order (the unit of work sent to a joblib worker); interrupted,
    raise :class:`BatchInterrupted` with the matches already finished."""
    start = time.perf_counter()
    out = BatchResult()
    try:
        with bulk_collection():
            for spec in specs:
                out.extend(run_match(spec, play))
    except KeyboardInterrupt as exc:
        out.seconds = time.perf_counter() - start
        raise BatchInterrupted(out) from exc
    out.seconds = time.perf_counter() - start
    return out
