"""``make bench`` / ``python -m krosbalance.tools.bench``: Arena matches per second on one core in the
Python reference, in the mypyc build of the same sources and in the native core side by side, the
speed-up of the parallel runner on two cores, and where the time goes.

Plays matches between the box teams (every split of the Krosmasters of the ``arena-box`` set into
two legal Arena teams, 35 splits of the eight box Krosmasters, in turn:
:func:`krosbalance.tools.builds.box_splits`) on one board with fixed seeds. Each figure is matches/s of
whole matches from names to MatchResult (``play_match`` with ``record="none"``), which is what a bulk run pays per match on one
worker, measured in a fresh process after a warm-up (imports, content and board loading, caches).
The sides take turns, ``--rounds`` times per AI, in processes of their own: the installed package on
the Python reference engine (``engine="reference"``; the package runs as plain Python), with
``--mypyc`` the same reference compiled by mypyc, and, where the native core (``core/``,
:mod:`krosbalance.native`) plays the AI, the same matches in the core (``engine="core"``); the
ratios are the medians of the per-round ratios, so a machine that speeds up or slows down during
the run affects every side alike.

The mypyc column: the package no longer compiles itself (issue 41), but the core's speed bars are
written against the mypyc build ("at least 20x the mypyc build per CPU-second"), so ``--mypyc``
(which ``make bench`` passes) measures a throwaway mypyc copy of the current sources, built on
demand in a cache folder outside the venv and reused while the sources do not change
(:mod:`krosbalance.tools.mypyc_copy`; the first ``make bench`` after an edit builds it again, a few
minutes, and says so). Without ``--mypyc`` the mypyc columns print ``-``.

``--blast AI`` (repeatable) adds the same figures for Krosmaster Blast matches played by that AI:
every split into two teams of two of every four of the Blast Krosmasters in turn
(:func:`krosbalance.tools.builds.blast_splits`), on ``--blast-board``, with a Divine Challenge drawn at
random. ``--duel AI`` does the same for the Duel Pack: every one-figure duel between two of its and the
box's Krosmasters (:func:`krosbalance.tools.builds.duel_splits`) on ``--duel-board``.

``--speedup AI`` runs the same box round robin through the experiment runner with ``--jobs 1`` and
``--jobs 2`` (loky, process start-up included) and prints the ratio of wall times. ``--search AI``
adds the search tier's figures on the reference and, with ``--mypyc``, the mypyc copy in turn
(:mod:`krosbalance.tools.bench_search`): state copies per second and the search AI's seconds per
match against ``kiter``. ``--profile`` prints a cProfile summary of the reference; ``--perf``
samples the mypyc copy with Linux ``perf`` and prints its hottest compiled functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from krosbalance.ai.registry import ai_problem, list_ais
from krosbalance.content.registry import list_characters
from krosbalance.engine_choice import CORE, REFERENCE
from krosbalance.errors import EngineError
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET, play_match
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim.collector import bulk_collection
from krosbalance.sim.runner import run_experiment
from krosbalance.tools.bench_search import search_side_by_side, search_table
from krosbalance.tools.builds import (
    BASE_SEED,
    BLAST_BOARD,
    BOX_SET,
    DUEL_BOARD,
    WORKLOADS,
    blast_splits,
    box_splits,
    duel_splits,
)
from krosbalance.tools.mypyc_copy import build_mode, build_seconds, copy_python, expect_build, mypyc_copy

__all__ = ["BenchResult", "box_splits", "main", "measure", "profile", "side_by_side", "speedup"]


#: the options of the four-player benchmark (``--four``): Arena's free-for-all (R-A152)
FOUR_OPTIONS: dict[str, Any] = {"mode": "free_for_all"}


def four_player_tables(card_set: str = BOX_SET) -> list[tuple[tuple[str, ...], ...]]:
    """Tables of four legal four-player teams of ``card_set`` (level sum 6, R-A150): its legal
    teams in a seeded order, taken four at a time, so every legal team sits at some table."""
    legal = get_ruleset(DEFAULT_RULESET, FOUR_OPTIONS).all_teams(list_characters(set=card_set))
    order = [int(i) for i in np.random.default_rng(BASE_SEED).permutation(len(legal))]
    order += order[: (-len(order)) % 4]  # a last table filled from the start
    return [tuple(tuple(legal[i]) for i in order[k : k + 4]) for k in range(0, len(order), 4)]


def _matches(
    start: int, ruleset: str = DEFAULT_RULESET, seats: int = 2
) -> Iterator[tuple[tuple[tuple[str, ...], ...], int]]:
    """The benchmark's seeded matches in turn: each a tuple of teams (one per seat) and a seed."""
    tables: Sequence[tuple[tuple[str, ...], ...]] = (
        four_player_tables() if seats == 4 else WORKLOADS[ruleset].splits()
    )
    for k in itertools.count(start):
        yield tables[k % len(tables)], BASE_SEED + k


def _options(ruleset: str, seats: int) -> dict[str, Any] | None:
    return FOUR_OPTIONS if seats == 4 else WORKLOADS[ruleset].options


@dataclass(frozen=True, slots=True)
class BenchResult:
    ai: str
    board: str
    matches: int
    seconds: float
    turns: int
    build: str = ""
    cpu_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.matches / self.seconds if self.seconds else 0.0

    @property
    def per_cpu_second(self) -> float:
        """Matches per second of this process's CPU time: the rate of one core, which a machine
        shared with other work leaves intact where it stretches the wall time."""
        return self.matches / self.cpu_seconds if self.cpu_seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.ai:>12} on {self.board}: {self.matches} matches in {self.seconds:.1f} s = "
            f"{self.per_second:.1f} matches/s ({1000 / max(self.per_second, 1e-9):.1f} ms/match, "
            f"{self.turns / max(self.matches, 1):.1f} game turns/match, "
            f"{self.turns / self.seconds:.0f} game turns/s)"
        )


def measure(
    ai: str = "random",
    board: str = DEFAULT_BOARD,
    seconds: float = 10.0,
    warmup: float = 1.0,
    ruleset: str = DEFAULT_RULESET,
    engine: str = REFERENCE,
    seats: int = 2,
) -> BenchResult:
    """Play matches for ``warmup`` seconds (not counted), then for about ``seconds`` seconds, in this
    process (whichever build it runs) on ``engine`` (``reference``: the Python engine of that build,
    or ``core``: the native core, whose result's ``build`` is then ``core``); ``ruleset="blast"``
    plays Blast matches (:func:`blast_splits`), ``ruleset="duel"`` one-figure duels (:func:`duel_splits`), ``seats=4`` Arena's free-for-all
    (:func:`four_player_tables`)."""
    with bulk_collection():  # as the runner's workers play (krosbalance.sim.match.run_batch)
        return _measure(ai, board, seconds, warmup, ruleset, engine, seats)


def _measure(
    ai: str,
    board: str,
    seconds: float,
    warmup: float,
    ruleset: str,
    engine: str = REFERENCE,
    seats: int = 2,
) -> BenchResult:
    source = _matches(0, ruleset, seats)
    options = _options(ruleset, seats)
    end = time.perf_counter() + warmup
    played = 0
    while played < 2 or time.perf_counter() < end:
        teams, seed = next(source)
        play_match(*teams, board=board, ai=ai, seed=seed, ruleset=ruleset, options=options, engine=engine)
        played += 1
    matches = turns = 0
    start, cpu = time.perf_counter(), time.process_time()
    end = start + seconds
    while matches < 1 or time.perf_counter() < end:
        teams, seed = next(source)
        turns += play_match(
            *teams, board=board, ai=ai, seed=seed, ruleset=ruleset, options=options, engine=engine
        ).turns
        matches += 1
    wall = time.perf_counter() - start
    label = f"{'4p:' if seats == 4 else WORKLOADS[ruleset].prefix}{ai}"
    build = CORE if engine == CORE else build_mode()
    return BenchResult(label, board, matches, wall, turns, build, time.process_time() - cpu)


def core_plays(ai: str, board: str = DEFAULT_BOARD, ruleset: str = DEFAULT_RULESET, seats: int = 2) -> bool:
    """Whether the native core plays this AI's benchmark matches (it is installed and the first of
    them is not refused)."""
    teams, seed = next(_matches(0, ruleset, seats))
    options = _options(ruleset, seats)
    try:
        play_match(*teams, board=board, ai=ai, seed=seed, ruleset=ruleset, options=options, engine=CORE)
    except EngineError:
        return False
    return True


def _worker_args(
    ai: str,
    board: str,
    seconds: float,
    warmup: float,
    ruleset: str = DEFAULT_RULESET,
    engine: str = REFERENCE,
    seats: int = 2,
) -> list[str]:
    return [
        "-m",
        "krosbalance.tools.bench",
        "--worker",
        "--worker-ruleset",
        ruleset,
        "--worker-seats",
        str(seats),
        "--worker-engine",
        engine,
        "--ai",
        ai,
        "--board",
        board,
        "--seconds",
        str(seconds),
        "--warmup",
        str(warmup),
    ]


def _result(process: subprocess.Popen[str], build: str) -> BenchResult:
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"the {build} benchmark failed (exit {process.returncode}):\n{err}")
    return BenchResult(**json.loads(out))


Round = tuple[BenchResult, BenchResult | None, BenchResult | None]
"""One round of an AI: the reference, the mypyc copy (None without one) and the native core (None
when it does not play the AI), each in a process of its own."""


def _run(args: list[str], build: str, copy: Path | None = None) -> BenchResult:
    """One measurement in a fresh process: the installed package, or the mypyc copy at ``copy``."""
    pipes: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if copy is not None:
        return _result(copy_python(copy, args, **pipes), build)
    env = dict(os.environ, KROSBALANCE_EXPECT_BUILD=build_mode())
    return _result(subprocess.Popen([sys.executable, *args], env=env, text=True, **pipes), build)


def side_by_side(
    ais: Sequence[str],
    board: str = DEFAULT_BOARD,
    seconds: float = 5.0,
    warmup: float = 1.0,
    rounds: int = 2,
    ruleset: str = DEFAULT_RULESET,
    seats: int = 2,
    copy: Path | None = None,
) -> dict[str, list[Round]]:
    """Per AI, ``rounds`` rounds (reference, mypyc copy at ``copy``, native core), each measured in a
    fresh process, in turn; the mypyc side is None without ``copy``
    (:func:`krosbalance.tools.mypyc_copy.mypyc_copy`), the core side None when the core does not
    play the AI (:func:`core_plays`)."""
    pairs: dict[str, list[Round]] = {}
    for ai in ais:
        pairs[ai] = []
        in_core = core_plays(ai, board, ruleset, seats)
        for _ in range(rounds):
            args = _worker_args(ai, board, seconds, warmup, ruleset, REFERENCE, seats)
            reference = _run(args, "reference")
            compiled = None if copy is None else _run(args, "mypyc", copy)
            core = None
            if in_core:
                core = _run(_worker_args(ai, board, seconds, warmup, ruleset, CORE, seats), CORE)
            pairs[ai].append((reference, compiled, core))
    return pairs


def _ratio(rounds: Sequence[Round], top: int, bottom: int, wall: bool = False) -> float | None:
    """The median over rounds of the rate of side ``top`` over side ``bottom`` (None without both)."""
    ratios = [
        (r[top].per_second / r[bottom].per_second)  # type: ignore[union-attr]
        if wall
        else (r[top].per_cpu_second / r[bottom].per_cpu_second)  # type: ignore[union-attr]
        for r in rounds
        if r[top] is not None and r[bottom] is not None
    ]
    return statistics.median(ratios) if ratios else None


def _rate(rounds: Sequence[Round], side: int, wall: bool = False) -> float | None:
    rates = [
        (r[side].per_second if wall else r[side].per_cpu_second)  # type: ignore[union-attr]
        for r in rounds
        if r[side] is not None
    ]
    return statistics.median(rates) if rates else None


def _cell(value: float | None, width: int, form: str, suffix: str = "") -> str:
    return f"{'-':>{width}}" if value is None else f"{format(value, form) + suffix:>{width}}"


def side_by_side_table(pairs: dict[str, list[Round]]) -> str:
    """Matches per CPU-second (one core's rate) of the reference, the mypyc copy and the native
    core, and their ratios, medians over rounds; the wall-clock rates follow for reference (a busy
    machine lowers them)."""
    first = next(iter(pairs.values()))
    lines = [
        f"{'matches/s, one core':>20} {'reference':>10} {'mypyc':>8} {'mypyc/ref':>10} "
        f"{'core':>9} {'core/mypyc':>11} {'core/ref':>9}   "
        f"(per CPU-second, median of {len(first)} rounds, sides in turn; wall-clock rates after)"
    ]
    for ai, rounds in pairs.items():
        reference, compiled, core = (_rate(rounds, side) for side in (0, 1, 2))
        row = (
            f"{ai:>20} {_cell(reference, 10, '.1f')} {_cell(compiled, 8, '.1f')} "
            f"{_cell(_ratio(rounds, 1, 0), 10, '.2f', 'x')} {_cell(core, 9, '.1f')} "
            f"{_cell(_ratio(rounds, 2, 1), 11, '.1f', 'x')} {_cell(_ratio(rounds, 2, 0), 9, '.1f', 'x')}   "
            f"wall {_rate(rounds, 0, wall=True) or 0.0:.1f}"
        )
        for side, name in ((1, "mypyc"), (2, "core")):
            rate = _rate(rounds, side, wall=True)
            if rate is not None:
                row += f", {name} {rate:.1f} ({_ratio(rounds, side, 0, wall=True) or 0.0:.2f}x)"
        lines.append(row)
    return "\n".join(lines)


def profile(ai: str = "random", board: str = DEFAULT_BOARD, seconds: float = 3.0, top: int = 15) -> str:
    """A cProfile summary of about ``seconds`` of matches in this process: the top functions by
    cumulative and by own time (the reference: the package runs as plain Python)."""
    source = _matches(10_000)
    (team0, team1), seed = next(source)
    play_match(team0, team1, board=board, ai=ai, seed=seed)  # warm-up outside the profile
    profiler = cProfile.Profile()
    matches = 0
    end = time.perf_counter() + seconds
    profiler.enable()
    while matches < 1 or time.perf_counter() < end:
        (team0, team1), seed = next(source)
        play_match(team0, team1, board=board, ai=ai, seed=seed)
        matches += 1
    profiler.disable()
    out = io.StringIO()
    out.write(
        f"cProfile of {matches} matches ({ai} on {board}, {build_mode()} build); profiling slows the engine down\n"
    )
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs()
    for key, label in (("cumulative", "cumulative time"), ("tottime", "own (total) time")):
        out.write(f"\n--- top {top} by {label} ---\n")
        stats.sort_stats(key).print_stats(top)
    return out.getvalue()


def perf_profile(ai: str, copy: Path, board: str = DEFAULT_BOARD, seconds: float = 5.0, top: int = 25) -> str:
    """The hottest compiled functions of the mypyc copy at ``copy`` under Linux ``perf`` (sampled
    with DWARF call stacks): the share of samples inside each function and its callees, and in it
    alone."""
    if shutil.which("perf") is None:
        return "perf is not installed (Debian: apt-get install linux-perf): no native profile"
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        record = [
            "perf", "record", "-q", "-F", "499", "--call-graph", "dwarf,16384", "-o", str(data),
            sys.executable, *_worker_args(ai, board, seconds, 0.5),
        ]  # fmt: skip
        env = dict(os.environ, PYTHONPATH=str(copy), KROSBALANCE_EXPECT_BUILD="mypyc")
        done = subprocess.run(record, cwd=copy, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return f"perf record failed (exit {done.returncode}): {done.stderr.strip()[:300]}"
        report = [
            "perf",
            "report",
            "-i",
            str(data),
            "--children",
            "--sort",
            "symbol",
            "-g",
            "none",
            "--stdio",
        ]
        text = subprocess.run(report, capture_output=True, text=True, check=False).stdout
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].endswith("%") and parts[3].startswith("CPyDef_"):
            rows.append(f"{parts[0]:>8} {parts[1]:>8}  {parts[3].removeprefix('CPyDef_')}")
    head = f"perf profile of {ai} on {board} (mypyc copy): % with callees, % alone, function"
    return "\n".join([head, *rows[:top]])


SPEEDUP_EXPERIMENT = """
name = "bench-speedup"
master_seed = {seed}
matches_per_pairing = {deals}
paired_seeds = true
boards = ["{board}"]
ais = ["{ai}"]
[teams]
mode = "splits"
pool = {pool}
"""


def speedup(ai: str, board: str = DEFAULT_BOARD, deals: int = 3) -> tuple[float, float, int]:
    """Wall time of the same box round robin through the runner with 1 and with 2 jobs:
    (seconds with 1 job, seconds with 2 jobs, matches)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "bench.toml"
        pool = "[" + ", ".join(f'"{name}"' for name in list_characters(set=BOX_SET)) + "]"
        source.write_text(
            SPEEDUP_EXPERIMENT.format(seed=BASE_SEED, deals=deals, board=board, ai=ai, pool=pool)
        )
        times = []
        matches = 0
        for jobs in (1, 2):
            start = time.perf_counter()
            summary = run_experiment(  # the Python build's runner (the core has its own columns)
                source, Path(tmp) / f"out-{jobs}", jobs=jobs, progress=False, engine=REFERENCE
            )
            times.append(time.perf_counter() - start)
            matches = summary.n_played
    return times[0], times[1], matches


def _build_line(copy: Path | None) -> str:
    if copy is None:
        return "reference (plain Python) and core; no mypyc column (--mypyc adds it)"
    return f"reference (plain Python), mypyc copy in {copy} (built in {build_seconds(copy):.0f} s) and core"


def _mypyc_column() -> Path | None:
    """The mypyc copy of the sources, or None (and why, on stderr) when mypyc cannot compile them:
    the package no longer has to compile, so the rest of the benchmark goes on without the column."""
    try:
        return mypyc_copy()
    except RuntimeError as exc:
        print(f"warning: no mypyc column: {exc}", file=sys.stderr, flush=True)
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="measurement time per AI and round (default 5)"
    )
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up time per process (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of both builds per AI (default 2)")
    parser.add_argument("--board", default=DEFAULT_BOARD, help=f"board id (default {DEFAULT_BOARD})")
    parser.add_argument(
        "--ai",
        action="append",
        help=f"AI to benchmark, repeatable, or 'all' (default random; known: {', '.join(list_ais())})",
    )
    parser.add_argument(
        "--blast",
        action="append",
        default=[],
        metavar="AI",
        help=f"also benchmark Krosmaster Blast matches of this AI (known: {', '.join(list_ais('blast'))})",
    )
    parser.add_argument("--blast-board", default=BLAST_BOARD, help=f"Blast board (default {BLAST_BOARD})")
    parser.add_argument(
        "--duel",
        action="append",
        default=[],
        metavar="AI",
        help=f"also benchmark Duel Pack matches of this AI (known: {', '.join(list_ais('duel'))})",
    )
    parser.add_argument("--duel-board", default=DUEL_BOARD, help=f"Duel Pack board (default {DUEL_BOARD})")
    parser.add_argument(
        "--four",
        action="append",
        default=[],
        metavar="AI",
        help="also benchmark four-player Arena (free-for-all) matches of this AI, repeatable",
    )
    parser.add_argument("--speedup", metavar="AI", help="also time the runner with 1 and 2 jobs on this AI")
    parser.add_argument(
        "--speedup-deals", type=int, default=3, help="deals per pairing for --speedup (default 3)"
    )
    parser.add_argument(
        "--mypyc",
        action="store_true",
        help="add the mypyc column: a throwaway mypyc copy of the sources, built on demand in a cache "
        "folder (krosbalance.tools.mypyc_copy)",
    )
    parser.add_argument(
        "--search",
        action="append",
        metavar="AI",
        help="also time state copies and this search AI's matches in both builds (repeatable)",
    )
    parser.add_argument(
        "--search-matches",
        type=int,
        default=2,
        help="matches per search AI and build for --search (default 2)",
    )
    parser.add_argument(
        "--profile", action="store_true", help="also print a cProfile summary of the reference"
    )
    parser.add_argument(
        "--perf", action="store_true", help="also profile the mypyc copy with Linux perf (with --mypyc)"
    )
    parser.add_argument("--profile-seconds", type=float, default=3.0)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker-ruleset", default=DEFAULT_RULESET, help=argparse.SUPPRESS)
    parser.add_argument("--worker-engine", default=REFERENCE, help=argparse.SUPPRESS)
    parser.add_argument("--worker-seats", type=int, default=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    ais = args.ai or ["random"]
    if "all" in ais:
        ais = list_ais(DEFAULT_RULESET)
    if args.worker:  # one measurement in this process, for side_by_side
        expect_build()
        result = measure(
            ais[0],
            args.board,
            args.seconds,
            args.warmup,
            args.worker_ruleset,
            args.worker_engine,
            args.worker_seats,
        )
        print(json.dumps(asdict(result)))
        return 0
    for ruleset, names in ((DEFAULT_RULESET, ais), ("blast", args.blast), ("duel", args.duel)):
        problems = [ai_problem(name, ruleset) for name in names if ai_problem(name, ruleset)]
        if problems:
            parser.error(problems[0])
    copy = _mypyc_column() if args.mypyc else None
    print(f"{_build_line(copy)}; {os.cpu_count()} cores")
    print(f"box teams ({len(box_splits())} splits in turn) on {args.board}, fixed seeds from {BASE_SEED}")
    pairs = side_by_side(ais, args.board, args.seconds, args.warmup, args.rounds, copy=copy)
    print(side_by_side_table(pairs), flush=True)
    other_rulesets = (
        (
            "blast",
            args.blast,
            args.blast_board,
            f"Krosmaster Blast: {len(blast_splits())} team splits in turn",
        ),
        ("duel", args.duel, args.duel_board, f"Duel Pack: {len(duel_splits())} one-figure duels in turn"),
    )
    for ruleset, names, board, workload in other_rulesets:
        if names:
            challenge = ", a random Divine Challenge" if ruleset == "blast" else ""
            print(f"{workload} on {board}{challenge}")
            pairs = side_by_side(
                names, board, args.seconds, args.warmup, args.rounds, ruleset=ruleset, copy=copy
            )
            print(side_by_side_table(pairs), flush=True)
    if args.four:
        print(f"four-player Arena (free-for-all): {len(four_player_tables())} tables in turn on {args.board}")
        pairs = side_by_side(
            args.four, args.board, args.seconds, args.warmup, args.rounds, seats=4, copy=copy
        )
        print(side_by_side_table(pairs), flush=True)
    if args.speedup:
        one, two, matches = speedup(args.speedup, args.board, args.speedup_deals)
        print(
            f"runner (reference), {args.speedup} box round robin, {matches} matches: "
            f"1 job {one:.1f} s, 2 jobs {two:.1f} s, speed-up {one / two:.2f}x",
            flush=True,
        )
    if args.search:
        problems = [
            ai_problem(name, DEFAULT_RULESET) for name in args.search if ai_problem(name, DEFAULT_RULESET)
        ]
        if problems:  # the search tier's figures are Arena box matches
            parser.error(problems[0])
        searches = search_side_by_side(
            args.search, matches=args.search_matches, board=args.board, copy_seconds=args.seconds, copy=copy
        )
        print(search_table(searches), flush=True)
    if args.perf and copy is not None:
        for ai in ais:
            print()
            print(perf_profile(ai, copy, args.board, args.profile_seconds), flush=True)
    if args.profile:
        for ai in ais:
            print()
            print(profile(ai, args.board, args.profile_seconds), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
