"""Run an experiment in parallel batches, streaming results to Parquet shards that survive a crash.

The output folder's layout, manifest and shards are :mod:`krosbalance.sim.results_folder`'s.

Layout of an output folder::

    OUT/experiment.toml            copy of the experiment file (what ``report`` and ``replay`` read)
    OUT/manifest.json              name, master seed, match count, fingerprint, versions, times,
                                   the engine chosen and the core's version, the study
                                   (name and version, ``krosbalance.studies``) the experiment is
    OUT/matches/part-00000040.parquet   one row per match        } one set per flush, named after
    OUT/fighters/part-00000040.parquet  one row per fighter      } the smallest match id in it
    OUT/errors/part-00000040.parquet    matches that raised (only when there were some)
    OUT/events/part-00000040.parquet    the event log, when the experiment records events

Determinism: the parent expands the experiment into match specs whose seeds depend only on the master
seed and the deal index (``seeding``), so any job count or backend gives the same rows once sorted by
``match_id``. The expansion is lazy (specs are generated batch by batch as workers ask for work and
finished matches are a bit mask), so the parent's memory does not grow with the number of matches.

Flow: at most ``2 * jobs`` batches are in flight; a new batch is submitted only when a finished one
has been taken, so the parent never holds more than that many batches plus one flush of rows,
however fast the workers are. Workers turn their rows into columns (cheap to send, cheap to make a
frame of), so the parent's work per match stays small. Local (loky) workers watch the runner and
exit as soon as it is gone: a runner killed with ``kill -9`` leaves no worker behind
(:func:`krosbalance.sim.backends.watch_parent`).

Crash safety: every shard is written to a temporary name and renamed (``os.replace``); when every
shard of a set is in place, its line (size and SHA-256 of each file) is appended to the folder's shard
list ``OUT/shards.jsonl`` (:mod:`krosbalance.sim.ledger`): that line is the commit record of the set.
Readers read only listed, intact shards. ``resume`` moves whatever is not (foreign files, the files of
a set whose shard was lost or altered) into ``OUT/set-aside/``, saying so one line each, reads the
finished match ids from the intact matches shards and plays only what is missing.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from krosbalance import native
from krosbalance.engine_choice import AUTO, CORE, resolve
from krosbalance.errors import EngineError
from krosbalance.sim import trial as trials  # the module: its trial_errors is looked up when a run starts
from krosbalance.sim.backends import executor
from krosbalance.sim.catalog import Catalog
from krosbalance.sim.design import Experiment
from krosbalance.sim.expansion import DealFilter, iter_matches
from krosbalance.sim.experiment_file import load_experiment
from krosbalance.sim.match import BatchInterrupted, BatchResult, PlayFn, default_play, run_batch
from krosbalance.sim.results_folder import (
    EXPERIMENT_COPY,
    MANIFEST,
    TABLES,
    ColumnBatch,
    RunError,
    _now,
    _prepare_out,
    _write_json,
    clean_partial,
    fingerprint,
    finished_ids,
    finished_mask,
    read_manifest,
    read_table,
    with_patch,
    write_shards,
)
from krosbalance.sim.spec import MatchSpec
from krosbalance.sim.target import Rounds, study_measure, target_lines, target_of

TARGET_BATCH_SECONDS = 1.0
MAX_BATCH = 1000
IN_FLIGHT_PER_WORKER = 2  # batches submitted and not yet taken, per worker
ARM_FAILURES_TO_STOP = 8
"""An arm whose first this-many finished matches all raised stops the run (the rest would too)."""
INTERRUPT_GRACE_SECONDS = 2.0
"""After Ctrl-C, how long the runner waits for batches already running to hand back what finished."""


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run (a scheduler's stop, ``kill``, a closed session): handled as Ctrl-C is,
    every finished match written and the resume line printed."""


def _terminate_as_interrupt() -> Callable[[], None]:
    """Make SIGTERM raise :class:`Terminated` in the main thread until the returned function is called
    (which puts the caller's handler back). Only the first SIGTERM raises: a second one, while the
    finished matches are being written, is ignored so that the write completes. Outside the main
    thread (where no handler can be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    fired = False

    def on_sigterm(signum: int, frame: Any) -> None:
        nonlocal fired
        if not fired:
            fired = True
            raise Terminated("SIGTERM")

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    return lambda: signal.signal(signal.SIGTERM, previous)


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run did; ``first_error`` is the first failed match's id and error ('' without one)."""

    out: Path
    experiment: str
    n_matches: int
    n_played: int
    n_skipped: int
    n_errors: int
    seconds: float
    first_error: str = ""
    set_aside: tuple[str, ...] = ()  # what the resume moved out of the folder's tables, one line each
    target: tuple[str, ...] = ()  # with [target]: one line per AI, the half-width reached (sim.target)


class ArmWatch:
    """Counts each arm's finished and failed matches, so that an arm whose first
    :data:`ARM_FAILURES_TO_STOP` matches all raised stops the run instead of failing thousands."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.ok: dict[str, int] = {}
        self.failed: dict[str, int] = {}
        self.first_error = ""

    def add(self, batch: ColumnBatch) -> None:
        matches = batch.tables.get("matches", {})
        variants = matches.get("variant") or [""] * batch.n_matches
        for match_id, variant, error in zip(
            matches.get("match_id", []), variants, matches.get("error", []), strict=True
        ):
            arm = variant or ""
            if error:
                self.failed[arm] = self.failed.get(arm, 0) + 1
                self.first_error = self.first_error or f"match {match_id}: {error}"
            else:
                self.ok[arm] = self.ok.get(arm, 0) + 1

    def check(self) -> None:
        """Raise ``RunError`` when an arm has failed its first matches without one success."""
        for arm, failed in self.failed.items():
            if failed >= ARM_FAILURES_TO_STOP and not self.ok.get(arm):
                name = f"arm {arm!r}" if arm else "the experiment"
                raise RunError(
                    f"{self.out}: stopped: the first {failed} matches of {name} all failed "
                    f"({self.first_error}); the tracebacks are in {self.out / 'errors'}. Fix the cause "
                    "and run again into a new --out (--resume counts failed matches as done)"
                )


def play_columns(specs: list[MatchSpec], play: PlayFn) -> ColumnBatch:
    """The unit of work sent to a worker: play a batch and return its rows as columns."""
    return ColumnBatch.of(run_batch(specs, play))


# ------------------------------------------------------------------------------------------- runner


def _batches(specs: Iterable[MatchSpec], size: int) -> Iterator[list[MatchSpec]]:
    """Consecutive batches of ``size`` specs, drawn lazily from ``specs``."""
    it = iter(specs)
    while batch := list(itertools.islice(it, size)):
        yield batch


def _todo(experiment: Experiment, done: Any, keep: DealFilter | None = None) -> Iterator[MatchSpec]:
    """The experiment's specs not yet finished (of the deals ``keep`` keeps), generated on demand in
    match-id order."""
    return (spec for spec in iter_matches(experiment, keep) if not done[spec.match_id])


def _salvage(pending: set[Future[ColumnBatch]], into: ColumnBatch, grace: float) -> None:
    """After Ctrl-C: wait up to ``grace`` seconds for the batches in flight and keep what they
    finished (a whole batch, or the matches of an interrupted one before its interrupt)."""
    done, _ = wait(pending, timeout=grace) if pending else (set(), set())
    for future in done:
        if future.cancelled():
            continue
        exc = future.exception()
        if exc is None:
            into.extend(future.result())
        elif isinstance(exc, BatchInterrupted):
            into.extend(ColumnBatch.of(exc.partial))


def _completed(
    pool: Executor,
    tasks: Iterator[list[MatchSpec]],
    play: PlayFn,
    window: int,
    salvaged: ColumnBatch | None = None,
) -> Iterator[ColumnBatch]:
    """Results of ``play_columns`` on every batch of ``tasks`` in completion order, with at most
    ``window`` batches submitted and not yet taken (the parent's backpressure). Interrupted, it
    hands what the batches in flight finished to ``salvaged`` before the interrupt goes on."""
    pending: set[Future[ColumnBatch]] = set()
    try:
        for batch in itertools.islice(tasks, window):
            pending.add(pool.submit(play_columns, batch, play))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                for batch in itertools.islice(tasks, 1):
                    pending.add(pool.submit(play_columns, batch, play))
    except KeyboardInterrupt as interrupt:
        for future in pending:
            future.cancel()  # not started yet: dropped
        if salvaged is not None:
            if isinstance(interrupt, BatchInterrupted):  # a batch played in this process
                salvaged.extend(ColumnBatch.of(interrupt.partial))
            _salvage(pending, salvaged, INTERRUPT_GRACE_SECONDS)
        raise
    finally:  # a worker lost, an arm stopped: batches not started yet are dropped
        for future in pending:
            future.cancel()


def auto_batch_size(seconds_per_match: float, n_todo: int, jobs: int) -> int:
    """Matches per task: about ``TARGET_BATCH_SECONDS`` of work, but at least ~4 tasks per worker."""
    by_time = max(1, round(TARGET_BATCH_SECONDS / max(seconds_per_match, 1e-4)))
    by_spread = max(1, math.ceil(n_todo / (4 * max(jobs, 1))))
    return int(min(by_time, by_spread, MAX_BATCH))


def _progress(total: int, initial: int, enabled: bool | None, name: str) -> Any:
    from tqdm.auto import tqdm

    disable = not sys.stderr.isatty() if enabled is None else not enabled
    return tqdm(total=total, initial=initial, disable=disable, desc=name, unit="match", dynamic_ncols=True)


class _Playing:
    """What one run holds while it plays (:func:`run_experiment`): the rows not yet written, the
    counts, each arm's watch, the workers and the progress bar. Batches come back to :meth:`take`,
    which buffers them; :meth:`flush` writes the buffer as one set of shards."""

    def __init__(
        self,
        out: Path,
        experiment: Experiment,
        manifest: dict[str, Any],
        play_fn: PlayFn,
        bar: Any,
        jobs: int,
        batch_size: int | None,
        backend: str,
        address: str | None,
        flush_seconds: float,
        flush_matches: int,
    ) -> None:
        self.out, self.experiment, self.manifest, self.play_fn, self.bar = (
            out,
            experiment,
            manifest,
            play_fn,
            bar,
        )
        self.jobs, self.batch_size, self.backend, self.address = jobs, batch_size, backend, address
        self.flush_seconds, self.flush_matches = flush_seconds, flush_matches
        self.n_errors = 0
        self.n_played = 0
        self.buffer = ColumnBatch()
        self.last_flush = time.monotonic()
        self.arms = ArmWatch(out)
        self.salvaged = ColumnBatch()  # what batches in flight finished when Ctrl-C came
        self.per_match: float | None = (
            None  # seconds of the first match played here (the batch size's measure)
        )
        self.pools = contextlib.ExitStack()
        self.pool: Executor | None = None  # the workers, started when a round first has matches for them

    def flush(self) -> None:
        if self.buffer.content_version:
            self.manifest.setdefault("content_version", self.buffer.content_version)
        write_shards(self.out, self.buffer, (self.experiment.ruleset,), self.experiment.seats)
        self.buffer = ColumnBatch()
        self.last_flush = time.monotonic()

    def take(self, result: ColumnBatch) -> None:
        self.buffer.extend(result)
        self.arms.add(result)
        self.arms.check()
        self.n_errors += result.n_errors
        self.n_played += result.n_matches
        self.bar.update(result.n_matches)

    def play_round(self, todo: Iterator[MatchSpec], n_todo: int) -> None:
        """Play ``todo`` (``n_todo`` specs), in batches on the workers."""
        if n_todo and self.batch_size is None and self.per_match is None:
            # Calibrate on the first match, played here; its rows are kept.
            first = play_columns(list(itertools.islice(todo, 1)), self.play_fn)
            self.take(first)
            n_todo -= 1
            self.per_match = first.seconds
        if not n_todo:
            return
        n_workers = _effective_jobs(self.jobs)
        size = max(1, self.batch_size or auto_batch_size(self.per_match or 0.0, n_todo, n_workers))
        if self.pool is None:
            self.pool = self.pools.enter_context(executor(self.backend, n_workers, self.address))
        window = IN_FLIGHT_PER_WORKER * n_workers
        for result in _completed(self.pool, _batches(todo, size), self.play_fn, window, self.salvaged):
            self.take(result)
            if (
                self.buffer.n_matches >= self.flush_matches
                or time.monotonic() - self.last_flush >= self.flush_seconds
            ):
                self.flush()

    def play_to_target(self, rounds: Rounds, done: Any) -> None:
        """Each round of a ``[target]``: its deals not yet finished, then its measure, until the
        target is met or its cap reached; the manifest records each round."""
        n_matches = self.experiment.n_matches
        measure = study_measure(rounds.target, self.experiment)
        while True:
            ids = rounds.ids()
            self.bar.total, self.bar.n = len(ids), int(done[ids].sum())
            self.bar.refresh()
            self.play_round(_todo(self.experiment, done, rounds.keep(done)), int((~done[ids]).sum()))
            self.flush()
            done = finished_mask(self.out, n_matches)
            more = rounds.advance(read_table(self.out, "matches"), measure)
            self.manifest["target"] = rounds.record()
            _write_json(self.out / MANIFEST, self.manifest)
            if not more:
                break


def run_experiment(
    source: str | Path,
    out: str | Path,
    *,
    jobs: int = 1,
    resume: bool = False,
    batch_size: int | None = None,
    backend: str = "loky",
    address: str | None = None,
    progress: bool | None = None,
    play: PlayFn | None = None,
    catalog: Catalog | None = None,
    flush_seconds: float = 10.0,
    flush_matches: int = 2000,
    trial: bool = True,
    patch: str | None = None,
    experiment: Experiment | None = None,
    notify: Callable[[str], None] | None = None,
    engine: str = "auto",
) -> RunSummary:
    """Run (or resume) the experiment in ``source``, writing shards under ``out``.

    Args:
        jobs: joblib ``n_jobs`` (``-1`` = all cores); 1 runs in this process.
        batch_size: matches per task; None measures one match here and aims at ~1 s tasks.
        backend: ``loky``, ``threading``, ``sequential``, ``dask`` or ``ray`` (see ``backends``);
            ``address`` is the Dask scheduler or Ray cluster. ``jobs`` batches run at once (and
            ``2 * jobs`` are in flight).
        progress: tqdm bar with rate and ETA; None shows it only on a terminal.
        play: the match function (default the engine's ``play_match``); must be picklable by
            reference for process backends.
        flush_seconds, flush_matches: finished batches are buffered and written as one set of
            shards when either is reached (a kill loses at most this much work).
        trial: before the first match, play the trial of each arm (``krosbalance.sim.trial``, what
            ``validate`` plays) and refuse the run when one fails; only with the engine's own
            ``play`` (a stand-in ``play`` has its own rules, which the trial cannot play).
        patch: a balance patch (shipped name or .toml path) played by every arm, over the
            experiment's own patches (``krosbalance.sim.patches``); recorded in the fingerprint and
            the manifest.
        experiment: the experiment to run, already built (a staged study's stage, derived from the
            file ``source``, which is still the spec copied beside the results).
        notify: called with each line saying what a resume moved aside (default: printed on stderr).
        engine: ``auto`` (the native core plays what it can, the reference the rest), ``core`` or
            ``reference`` (:mod:`krosbalance.engine_choice`; ``KROSBALANCE_ENGINE=reference``
            overrides it), for the engine's own ``play`` only; the manifest records the choice and the
            core's version, each matches row the engine that played it.

    Raises:
        ExperimentError: the file is invalid, or an arm's trial match fails.
        RunError: the output folder is in the way, or an arm's first matches all failed.
        KeyboardInterrupt: Ctrl-C, or SIGTERM (:class:`Terminated`), after every finished match was written.
    """
    source, out = Path(source), Path(out)
    start = time.perf_counter()
    if experiment is None:
        experiment = load_experiment(source, catalog)
    if patch:
        experiment = with_patch(experiment, patch)
    if trial and play is None:
        problems = trials.trial_errors(experiment, str(source))
        if problems:
            raise problems[0]
    choice = resolve(engine)
    if choice == CORE and not native.available():
        raise EngineError(f"engine='core': {native.why_unavailable()}")
    manifest = _prepare_out(out, experiment, source, resume)
    manifest.update(_engine_manifest(choice if play is None else "custom"))
    _write_json(out / MANIFEST, manifest)
    set_aside = clean_partial(out)
    for line in set_aside:
        (notify or _on_stderr)(f"{out}: {line}")
    n_matches = experiment.n_matches
    done = finished_mask(out, n_matches)
    n_done = int(done.sum())
    target = target_of(experiment)
    rounds = Rounds(experiment, target) if target is not None else None
    play_fn = play if play is not None else default_play() if choice == AUTO else default_play(choice)

    bar = _progress(n_matches, n_done, progress, experiment.name)  # a target's: each round's planned
    playing = _Playing(
        out,
        experiment,
        manifest,
        play_fn,
        bar,
        jobs,
        batch_size,
        backend,
        address,
        flush_seconds,
        flush_matches,
    )
    restore_sigterm = _terminate_as_interrupt()  # SIGTERM saves what finished, as Ctrl-C does
    try:
        with playing.pools:
            if rounds is None:
                playing.play_round(_todo(experiment, done), n_matches - n_done)
            else:
                playing.play_to_target(rounds, done)
    finally:
        # Whatever finished is complete: keep it even when interrupted.
        try:
            playing.buffer.extend(playing.salvaged)
            playing.flush()
        finally:
            bar.close()
            restore_sigterm()

    manifest.update(status="complete", finished=_now(), n_matches=n_matches)
    _write_json(out / MANIFEST, manifest)
    return RunSummary(
        out=out,
        experiment=experiment.name,
        n_matches=n_matches if rounds is None else playing.n_played + n_done,
        n_played=playing.n_played,
        n_skipped=n_done,
        n_errors=playing.n_errors,
        seconds=time.perf_counter() - start,
        first_error=playing.arms.first_error,
        set_aside=tuple(set_aside),
        target=tuple(target_lines(manifest.get("target"))),
    )


def _engine_manifest(choice: str) -> dict[str, Any]:
    """What the manifest records of the engines (results are the same on either; each matches row's
    ``engine`` says which played it): the choice (``auto``, ``core``, ``reference``, or ``custom`` for
    a stand-in ``play``), the core's version when it may play (else None) and, when it may not, why."""
    may_play = choice in (AUTO, CORE) and native.available()
    return {
        "engine": choice,
        "core_version": native.version() if may_play else None,
        "engine_note": None if may_play or choice == "custom" else native.why_unavailable(),
    }


def _on_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _effective_jobs(jobs: int) -> int:
    if jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + jobs)
    return max(1, jobs)


#: the runner's own names and the results folder's, which callers import from here
__all__ = [
    "EXPERIMENT_COPY",
    "MANIFEST",
    "TABLES",
    "BatchResult",
    "ColumnBatch",
    "MatchSpec",
    "RunError",
    "RunSummary",
    "auto_batch_size",
    "clean_partial",
    "finished_ids",
    "finished_mask",
    "fingerprint",
    "play_columns",
    "read_manifest",
    "read_table",
    "run_experiment",
    "with_patch",
    "write_shards",
]
