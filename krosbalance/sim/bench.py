"""``make bench`` / ``python -m krosbalance.sim.bench``: Arena matches per second on one core, the
speed-up of the parallel runner on two cores, and where the time goes.

Plays matches between the box teams (every split of the Krosmasters of the ``arena-box`` set into two
legal Arena teams — 35 splits of the eight box Krosmasters — in turn) on one board with fixed seeds, in this process only: a warm-up first (imports, content and
board loading, caches), then about ``--seconds`` of measurement. ``--profile`` adds a cProfile run of
a few seconds and prints the top functions by cumulative and by own ("total") time. ``--ai NAME``
(repeatable, or ``all``) benchmarks other AIs from ``krosbalance.ai.registry``; the default is the
random AI playing both sides.

The figure is matches/s of whole matches from names to MatchResult (``play_match`` with
``record="none"``), which is what a bulk run pays per match on one worker. ``--speedup`` runs the
same box round robin through the experiment runner with ``--jobs 1`` and ``--jobs 2`` (loky, process
start-up included) and prints the ratio of wall times.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import pstats
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from krosbalance.ai.registry import list_ais
from krosbalance.content.registry import list_characters
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET, play_match
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim.runner import run_experiment

__all__ = ["BenchResult", "box_splits", "main", "measure", "profile"]

BASE_SEED = 20_251_130
BOX_SET = "arena-box"


def box_splits(card_set: str = BOX_SET) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every split of the Krosmasters of ``card_set`` into two legal Arena teams, the first always
    holding the first Krosmaster by id (35 splits for the eight box Krosmasters); the team rules are
    the Arena ruleset's."""
    return get_ruleset(DEFAULT_RULESET).team_splits(list_characters(set=card_set))


def _matches(board: str, ai: str, start: int) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], int]]:
    splits = box_splits()
    for k in itertools.count(start):
        team0, team1 = splits[k % len(splits)]
        yield team0, team1, BASE_SEED + k


@dataclass(frozen=True, slots=True)
class BenchResult:
    ai: str
    board: str
    matches: int
    seconds: float
    turns: int

    @property
    def per_second(self) -> float:
        return self.matches / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.ai:>12} on {self.board}: {self.matches} matches in {self.seconds:.1f} s = "
            f"{self.per_second:.1f} matches/s ({1000 / max(self.per_second, 1e-9):.1f} ms/match, "
            f"{self.turns / max(self.matches, 1):.1f} game turns/match, "
            f"{self.turns / self.seconds:.0f} game turns/s)"
        )


def measure(
    ai: str = "random", board: str = DEFAULT_BOARD, seconds: float = 10.0, warmup: float = 1.0
) -> BenchResult:
    """Play matches for ``warmup`` seconds (not counted), then for about ``seconds`` seconds."""
    source = _matches(board, ai, 0)
    end = time.perf_counter() + warmup
    played = 0
    while played < 2 or time.perf_counter() < end:
        team0, team1, seed = next(source)
        play_match(team0, team1, board=board, ai=ai, seed=seed)
        played += 1
    matches = turns = 0
    start = time.perf_counter()
    end = start + seconds
    while matches < 1 or time.perf_counter() < end:
        team0, team1, seed = next(source)
        turns += play_match(team0, team1, board=board, ai=ai, seed=seed).turns
        matches += 1
    return BenchResult(ai, board, matches, time.perf_counter() - start, turns)


def profile(ai: str = "random", board: str = DEFAULT_BOARD, seconds: float = 3.0, top: int = 15) -> str:
    """A cProfile summary of about ``seconds`` of matches: the top functions by cumulative time and by
    own time."""
    source = _matches(board, ai, 10_000)
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
    out.write(f"cProfile of {matches} matches ({ai} on {board}); profiling slows the engine down\n")
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs()
    for key, label in (("cumulative", "cumulative time"), ("tottime", "own (total) time")):
        out.write(f"\n--- top {top} by {label} ---\n")
        stats.sort_stats(key).print_stats(top)
    return out.getvalue()


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
            summary = run_experiment(source, Path(tmp) / f"out-{jobs}", jobs=jobs, progress=False)
            times.append(time.perf_counter() - start)
            matches = summary.n_played
    return times[0], times[1], matches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.sim.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="measurement time per AI (default 10)")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up time per AI (default 1)")
    parser.add_argument("--board", default=DEFAULT_BOARD, help=f"board id (default {DEFAULT_BOARD})")
    parser.add_argument(
        "--ai",
        action="append",
        help=f"AI to benchmark, repeatable, or 'all' (default random; known: {', '.join(list_ais())})",
    )
    parser.add_argument("--profile", action="store_true", help="also print a short cProfile summary")
    parser.add_argument(
        "--speedup",
        metavar="AI",
        help="also time the runner with 1 and 2 jobs on a box round robin with this AI",
    )
    parser.add_argument(
        "--speedup-deals", type=int, default=3, help="deals per pairing for --speedup (default 3)"
    )
    parser.add_argument("--profile-seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    ais = args.ai or ["random"]
    if "all" in ais:
        ais = list_ais()
    unknown = [name for name in ais if name not in list_ais()]
    if unknown:
        parser.error(f"unknown AI {unknown[0]!r}; known: {', '.join(list_ais())}")
    print(f"one core, box teams ({len(box_splits())} splits in turn), fixed seeds from {BASE_SEED}")
    for ai in ais:
        print(measure(ai, args.board, args.seconds, args.warmup).line(), flush=True)
    if args.speedup:
        one, two, matches = speedup(args.speedup, args.board, args.speedup_deals)
        print(
            f"runner, {args.speedup} box round robin, {matches} matches: 1 job {one:.1f} s, "
            f"2 jobs {two:.1f} s, speed-up {one / two:.2f}x"
        )
    if args.profile:
        for ai in ais:
            print()
            print(profile(ai, args.board, args.profile_seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
