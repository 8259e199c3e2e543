"""``make bench`` / ``python -m krosbalance.tools.bench``: Arena matches per second on one core in the
compiled and the pure-Python build side by side, and in the native core for the AIs it plays, the
speed-up of the parallel runner on two cores, the build time, the identity of the two builds, and
where the time goes.

Plays matches between the box teams (every split of the Krosmasters of the ``arena-box`` set into
two legal Arena teams, 35 splits of the eight box Krosmasters, in turn:
:func:`krosbalance.tools.builds.box_splits`) on one board with fixed seeds. Each figure is matches/s of
whole matches from names to MatchResult (``play_match`` with ``record="none"``), which is what a bulk run pays per match on one
worker, measured in a fresh process after a warm-up (imports, content and board loading, caches).
The two builds take turns, ``--rounds`` times per AI, in processes of their own: the installed build
(compiled unless installed with ``KROSBALANCE_PURE=1``) and a pure copy of the same sources
(:mod:`krosbalance.tools.builds`); the ratio is the median of the per-round ratios, so a machine that
speeds up or slows down during the run affects both sides alike. Both builds play on the Python
reference engine (``engine="reference"``); where the native core (``core/``, :mod:`krosbalance.native`)
plays an AI's matches, a third process in each round plays the same matches in the core
(``engine="core"``), and the table adds its rate and its ratios to both builds.

``--blast AI`` (repeatable) adds the same figures for Krosmaster Blast matches played by that AI:
every split into two teams of two of every four of the Blast Krosmasters in turn
(:func:`krosbalance.tools.builds.blast_splits`), on ``--blast-board``, with a Divine Challenge drawn at
random. ``--duel AI`` does the same for the Duel Pack: every one-figure duel between two of its and the
box's Krosmasters (:func:`krosbalance.tools.builds.duel_splits`) on ``--duel-board``.

``--speedup AI`` runs the same box round robin through the experiment runner with ``--jobs 1`` and
``--jobs 2`` (loky, process start-up included) and prints the ratio of wall times. ``--identity``
compares event logs of seeded matches of every AI in both builds. ``--search AI`` adds the search
tier's figures, in both builds in turn (:mod:`krosbalance.tools.bench_search`): state copies per
second and the search AI's seconds per whole match against ``kiter``. ``--profile`` prints a cProfile
summary of the pure build (cProfile cannot see inside compiled functions); ``--perf`` samples the
compiled build with Linux ``perf`` and prints its hottest compiled functions.
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
from krosbalance.build_info import build_mode, build_seconds
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
    compare_builds,
    duel_splits,
    expect_build,
    pure_copy,
    pure_python,
)

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
"""One round of an AI: the installed build, the pure copy (None when the installed build is pure) and
the native core (None when it does not play the AI), each in a process of its own."""


def side_by_side(
    ais: Sequence[str],
    board: str = DEFAULT_BOARD,
    seconds: float = 5.0,
    warmup: float = 1.0,
    rounds: int = 2,
    ruleset: str = DEFAULT_RULESET,
    seats: int = 2,
) -> dict[str, list[Round]]:
    """Per AI, ``rounds`` rounds (installed build, pure copy, native core), each measured in a fresh
    process, in turn; the pure side is None when the installed build is pure already, the core side
    None when the core does not play the AI (:func:`core_plays`)."""
    installed = build_mode()
    env = dict(os.environ, KROSBALANCE_EXPECT_BUILD=installed)
    pairs: dict[str, list[Round]] = {}
    with pure_copy() as root:
        for ai in ais:
            pairs[ai] = []
            in_core = core_plays(ai, board, ruleset, seats)
            for _ in range(rounds):
                args = _worker_args(ai, board, seconds, warmup, ruleset, REFERENCE, seats)
                mine = subprocess.Popen(
                    [sys.executable, *args],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                first = _result(mine, installed)
                pure = None
                if installed != "pure":
                    child = pure_python(root, args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    pure = _result(child, "pure")
                core = None
                if in_core:
                    args = _worker_args(ai, board, seconds, warmup, ruleset, CORE, seats)
                    native = subprocess.Popen(
                        [sys.executable, *args],
                        env=env,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                        text=True,
                    )
                    core = _result(native, CORE)
                pairs[ai].append((first, pure, core))
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
    """Matches per CPU-second (one core's rate) of each build and of the native core, and their
    ratios, medians over rounds; the wall-clock rates follow for reference (a busy machine lowers
    them)."""
    first = next(iter(pairs.values()))
    installed = first[0][0].build
    lines = [
        f"{'matches/s, one core':>20} {installed:>10} {'pure':>8} {installed + '/pure':>14} "
        f"{'core':>9} {'core/' + installed:>14} {'core/pure':>10}   "
        f"(per CPU-second, median of {len(first)} rounds, builds and core in turn; wall-clock rates after)"
    ]
    for ai, rounds in pairs.items():
        fast, slow, core = (_rate(rounds, side) for side in (0, 1, 2))
        row = (
            f"{ai:>20} {_cell(fast, 10, '.1f')} {_cell(slow, 8, '.1f')} "
            f"{_cell(_ratio(rounds, 0, 1), 14, '.2f', 'x')} {_cell(core, 9, '.1f')} "
            f"{_cell(_ratio(rounds, 2, 0), 14, '.1f', 'x')} {_cell(_ratio(rounds, 2, 1), 10, '.1f', 'x')}   "
            f"wall {_rate(rounds, 0, wall=True) or 0.0:.1f}"
        )
        for side, name, ratio in ((1, "pure", (0, 1)), (2, "core", (2, 0))):
            rate = _rate(rounds, side, wall=True)
            if rate is not None:
                row += f", {name} {rate:.1f} ({_ratio(rounds, *ratio, wall=True) or 0.0:.2f}x)"
        lines.append(row)
    return "\n".join(lines)


def profile(ai: str = "random", board: str = DEFAULT_BOARD, seconds: float = 3.0, top: int = 15) -> str:
    """A cProfile summary of about ``seconds`` of matches in this process: the top functions by
    cumulative and by own time (compiled functions are invisible to cProfile: profile the pure build)."""
    source = _matches(10_000)
    team0, team1, seed = next(source)
    play_match(team0, team1, board=board, ai=ai, seed=seed)  # warm-up outside the profile
    profiler = cProfile.Profile()
    matches = 0
    end = time.perf_counter() + seconds
    profiler.enable()
    while matches < 1 or time.perf_counter() < end:
        team0, team1, seed = next(source)
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


def perf_profile(ai: str, board: str = DEFAULT_BOARD, seconds: float = 5.0, top: int = 25) -> str:
    """The hottest compiled functions of the installed build under Linux ``perf`` (sampled with DWARF
    call stacks): the share of samples inside each function and its callees, and in it alone."""
    if shutil.which("perf") is None:
        return "perf is not installed (Debian: apt-get install linux-perf): no native profile"
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        record = [
            "perf", "record", "-q", "-F", "499", "--call-graph", "dwarf,16384", "-o", str(data),
            sys.executable, *_worker_args(ai, board, seconds, 0.5),
        ]  # fmt: skip
        done = subprocess.run(record, capture_output=True, text=True, check=False)
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
    head = f"perf profile of {ai} on {board} ({build_mode()} build): % with callees, % alone, function"
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


def _build_line() -> str:
    mode = build_mode()
    seconds = build_seconds()
    if not seconds:
        return f"installed build: {mode}"
    steps = ", ".join(f"{name} {value:.0f} s" for name, value in sorted(seconds.items()))
    guided = "profile-guided" if "pgo_training" in seconds else "without a profile"
    return (
        f"installed build: {mode} ({guided}); its build took {sum(seconds.values()):.0f} s ({steps}) "
        "plus pip's set-up"
    )


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
    parser.add_argument("--identity", action="store_true", help="also compare both builds' event logs")
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
        "--profile", action="store_true", help="also print a cProfile summary of the pure build"
    )
    parser.add_argument("--perf", action="store_true", help="also profile the compiled build with Linux perf")
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
    print(f"{_build_line()}; {os.cpu_count()} cores")
    print(f"box teams ({len(box_splits())} splits in turn) on {args.board}, fixed seeds from {BASE_SEED}")
    print(
        side_by_side_table(side_by_side(ais, args.board, args.seconds, args.warmup, args.rounds)), flush=True
    )
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
            pairs = side_by_side(names, board, args.seconds, args.warmup, args.rounds, ruleset=ruleset)
            print(side_by_side_table(pairs), flush=True)
    if args.four:
        print(f"four-player Arena (free-for-all): {len(four_player_tables())} tables in turn on {args.board}")
        pairs = side_by_side(args.four, args.board, args.seconds, args.warmup, args.rounds, seats=4)
        print(side_by_side_table(pairs), flush=True)
    if args.speedup:
        one, two, matches = speedup(args.speedup, args.board, args.speedup_deals)
        print(
            f"runner ({build_mode()} build), {args.speedup} box round robin, {matches} matches: "
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
            args.search, matches=args.search_matches, board=args.board, copy_seconds=args.seconds
        )
        print(search_table(searches), flush=True)
    if args.identity:
        print(compare_builds().line(), flush=True)
    if args.perf and build_mode() == "compiled":
        for ai in ais:
            print()
            print(perf_profile(ai, args.board, args.profile_seconds), flush=True)
    if args.profile:
        with pure_copy() as root:
            for ai in ais:
                code = (
                    "from krosbalance.tools.bench import profile; "
                    f"print(profile({ai!r}, {args.board!r}, {args.profile_seconds!r}))"
                )
                print()
                pure_python(root, ["-c", code]).wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
