"""Benchmarks of the search tier: state copies per second, and a search AI's seconds per match.

``python -m krosbalance.tools.bench_search`` prints both for the reference (the package runs as plain
Python); ``make bench`` (:mod:`krosbalance.tools.bench`, ``--search``) runs them on the reference and
on the mypyc copy of the same sources (:mod:`krosbalance.tools.mypyc_copy`), each in processes of its
own, in turn (:func:`search_side_by_side`).

- **State copies**: :func:`krosbalance.engine.clone.clone_state` of a mid-game box match (eight
  Krosmasters and their summons after a few heuristic turns), repeated for about ``seconds``.
- **Search AI seconds per match**: whole box matches (the splits of the box Krosmasters in turn,
  fixed seeds) between a search AI and a heuristic opponent, the search AI taking each side in turn,
  timed from names to result on one core; the heuristic's own share is timed on the same deals for
  reference, and the search AI's rollouts are counted (its budget is a count: rollouts per
  activation, never a time).

- ``--core``: the same search matches played in the native core (``play_match(engine="core")``,
  one at a time), in milliseconds a match.

Times are the process's CPU time (``time.process_time``), which a machine shared with other work
inflates far less than wall time; the wall time is printed alongside.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from krosbalance.ai.lookahead import LookaheadAI
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.match import run_to_end
from krosbalance.engine.state import MatchState
from krosbalance.engine.turn import game_turn
from krosbalance.engine_choice import CORE
from krosbalance.play import DEFAULT_BOARD, play_match, prepare_match
from krosbalance.tools.builds import BASE_SEED, box_splits
from krosbalance.tools.mypyc_copy import build_mode, copy_python, expect_build

__all__ = [
    "CopyBench",
    "SearchBench",
    "copies_per_second",
    "core_seconds_per_match",
    "main",
    "mid_game_state",
    "search_seconds_per_match",
    "search_side_by_side",
    "search_table",
]


@dataclass(frozen=True, slots=True)
class CopyBench:
    copies: int
    seconds: float  # CPU seconds
    pieces: int
    wall: float = 0.0

    @property
    def per_second(self) -> float:
        return self.copies / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"state copies: {self.copies} in {self.seconds:.2f} CPU s = {self.per_second:,.0f} copies/s "
            f"({1e6 / max(self.per_second, 1e-9):.1f} us a copy, {self.pieces} pieces in play; "
            f"{self.wall:.2f} s wall)"
        )


@dataclass(frozen=True, slots=True)
class SearchBench:
    ai: str
    opponent: str
    board: str
    matches: int
    seconds: float  # CPU seconds
    heuristic_seconds: float  # CPU seconds
    rollouts: int
    activations: int
    wall: float = 0.0

    @property
    def per_match(self) -> float:
        return self.seconds / max(1, self.matches)

    def line(self) -> str:
        rollout_ms = 1000 * (self.seconds - self.heuristic_seconds) / max(1, self.rollouts)
        return (
            f"{self.ai} vs {self.opponent} on {self.board}: {self.matches} matches in {self.seconds:.1f} CPU s "
            f"({self.wall:.1f} s wall) = {self.per_match:.2f} s/match ({self.opponent} vs {self.opponent} on the same deals: "
            f"{self.heuristic_seconds / max(1, self.matches):.3f} s/match); "
            f"{self.rollouts / max(1, self.matches):.0f} rollouts/match over "
            f"{self.activations / max(1, self.matches):.0f} searched activations, ~{rollout_ms:.1f} ms a rollout"
        )


def mid_game_state(turns: int = 6, board: str = DEFAULT_BOARD, ai: str = "kiter") -> MatchState:
    """A box match (the first split) after ``turns`` game turns of ``ai`` against itself."""
    team0, team1 = box_splits()[0]
    state, controllers, views = prepare_match(team0, team1, board=board, ai=ai, seed=BASE_SEED)
    for _ in range(turns):
        if state.finished:
            break
        side = state.active_side
        game_turn(state, controllers[side], views[side])
    return state


def copies_per_second(seconds: float = 2.0, board: str = DEFAULT_BOARD) -> CopyBench:
    """How many copies of a mid-game box match ``clone_state`` makes per second on one core."""
    state = mid_game_state(board=board)
    dice = ScriptedDice([])
    for _ in range(100):
        clone_state(state, dice)
    copies = 0
    start, wall = time.process_time(), time.perf_counter()
    end = start + seconds
    while copies < 100 or time.process_time() < end:
        for _ in range(100):
            clone_state(state, dice)
        copies += 100
    return CopyBench(copies, time.process_time() - start, len(state.pieces()), time.perf_counter() - wall)


def _play(
    team0: Sequence[str], team1: Sequence[str], board: str, ais: tuple[str, str], seed: int
) -> tuple[int, int]:
    state, controllers, views = prepare_match(team0, team1, board=board, ai=ais, seed=seed)
    run_to_end(state, controllers, views)
    rollouts = activations = 0
    for controller in controllers:
        if isinstance(controller, (LookaheadAI, MCTSAI)):
            rollouts += controller.rollouts
            activations += controller.searches
    return rollouts, activations


def search_seconds_per_match(
    ai: str = "lookahead", opponent: str = "kiter", matches: int = 6, board: str = DEFAULT_BOARD
) -> SearchBench:
    """Seconds per whole box match of ``ai`` against ``opponent`` on one core (see the module
    docstring), with ``opponent`` against itself on the same deals for reference."""
    splits = box_splits()
    deals = [
        (splits[k % len(splits)], BASE_SEED + k, (ai, opponent) if k % 2 == 0 else (opponent, ai))
        for k in range(matches)
    ]
    (team0, team1), seed, seats = deals[0]
    prepare_match(team0, team1, board=board, ai=seats, seed=seed)  # warm-up: imports, board, caches
    rollouts = activations = 0
    start, wall = time.process_time(), time.perf_counter()
    for (team0, team1), seed, seats in deals:
        r, a = _play(team0, team1, board, seats, seed)
        rollouts += r
        activations += a
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    start = time.process_time()
    for (team0, team1), seed, _ in deals:
        _play(team0, team1, board, (opponent, opponent), seed)
    heuristic = time.process_time() - start
    return SearchBench(ai, opponent, board, matches, seconds, heuristic, rollouts, activations, wall)


def core_seconds_per_match(
    ai: str = "mcts-race", opponent: str = "kiter", matches: int = 40, board: str = DEFAULT_BOARD
) -> SearchBench:
    """The same deals as :func:`search_seconds_per_match` played in the native core, one match at a
    time through ``play_match(engine="core")`` (what a bulk run pays per match, its Python around
    the core included), with ``opponent`` against itself on the same deals; the core does not
    report its rollouts (0)."""
    splits = box_splits()
    deals = [
        (splits[k % len(splits)], BASE_SEED + k, (ai, opponent) if k % 2 == 0 else (opponent, ai))
        for k in range(matches)
    ]

    def play(deal: tuple[tuple[tuple[str, ...], tuple[str, ...]], int, tuple[str, str]]) -> None:
        (team0, team1), seed, seats = deal
        play_match(team0, team1, board=board, ai=list(seats), seed=seed, engine=CORE)

    play(deals[0])  # warm-up: imports, content and board crossing, the catalog
    start, wall = time.process_time(), time.perf_counter()
    for deal in deals:
        play(deal)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    start = time.process_time()
    for teams, seed, _ in deals:
        play((teams, seed, (opponent, opponent)))
    heuristic = time.process_time() - start
    return SearchBench(f"{ai} (core)", opponent, board, matches, seconds, heuristic, 0, 0, wall)


@dataclass(frozen=True, slots=True)
class BuildRound:
    """One process's figures (one build, one round): the copy rate and each search AI's match time."""

    build: str
    copies: CopyBench
    search: tuple[SearchBench, ...]


def measure_round(
    ais: Sequence[str], opponent: str, matches: int, board: str, copy_seconds: float
) -> BuildRound:
    """Both benchmarks in this process (whichever build it runs)."""
    copies = copies_per_second(copy_seconds, board)
    search = tuple(search_seconds_per_match(ai, opponent, matches, board) for ai in ais)
    return BuildRound(build_mode(), copies, search)


def _round_from_json(text: str) -> BuildRound:
    data = json.loads(text)
    return BuildRound(
        data["build"], CopyBench(**data["copies"]), tuple(SearchBench(**row) for row in data["search"])
    )


def _worker_args(
    ais: Sequence[str], opponent: str, matches: int, board: str, copy_seconds: float
) -> list[str]:
    args = ["-m", "krosbalance.tools.bench_search", "--worker", "--opponent", opponent]
    args += ["--matches", str(matches), "--board", board, "--copy-seconds", str(copy_seconds)]
    for ai in ais:
        args += ["--ai", ai]
    return args


def _finish(process: subprocess.Popen[str], build: str) -> BuildRound:
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"the {build} search benchmark failed (exit {process.returncode}):\n{err}")
    return _round_from_json(out)


def search_side_by_side(
    ais: Sequence[str],
    opponent: str = "kiter",
    matches: int = 2,
    board: str = DEFAULT_BOARD,
    copy_seconds: float = 2.0,
    rounds: int = 1,
    copy: Path | None = None,
) -> list[tuple[BuildRound, BuildRound | None]]:
    """``rounds`` pairs (reference, mypyc copy at ``copy``), each in a fresh process, in turn; the
    mypyc side is None without ``copy``."""
    args = _worker_args(ais, opponent, matches, board, copy_seconds)
    pairs: list[tuple[BuildRound, BuildRound | None]] = []
    for _ in range(rounds):
        mine = subprocess.Popen(
            [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        first = _finish(mine, "reference")
        compiled = None
        if copy is not None:
            compiled = _finish(
                copy_python(copy, args, stdout=subprocess.PIPE, stderr=subprocess.PIPE), "mypyc"
            )
        pairs.append((first, compiled))
    return pairs


def search_table(pairs: Sequence[tuple[BuildRound, BuildRound | None]]) -> str:
    """State copies per CPU-second and search AIs' CPU seconds per match on the reference and the
    mypyc copy, with their ratios (medians over rounds)."""
    installed = pairs[0][0].build
    both = [(a, b) for a, b in pairs if b is not None]
    first = pairs[0][0]
    lines = [
        f"search tier, one core (CPU time, median of {len(pairs)} round(s), builds in turn): {installed}"
        + (" vs mypyc" if both else "")
    ]
    reference = statistics.median(a.copies.per_second for a, _ in pairs)
    line = f"  state copies/s ({first.copies.pieces} pieces): {reference:,.0f}"
    if both:
        fast = statistics.median(b.copies.per_second for _, b in both)
        ratio = statistics.median(b.copies.per_second / a.copies.per_second for a, b in both)
        line += f" vs {fast:,.0f} = {ratio:.2f}x more in mypyc"
    lines.append(line)
    for i, bench in enumerate(first.search):
        mine = statistics.median(a.search[i].per_match for a, _ in pairs)
        heuristic = statistics.median(
            a.search[i].heuristic_seconds / max(1, a.search[i].matches) for a, _ in pairs
        )
        rollouts = statistics.median(a.search[i].rollouts / max(1, a.search[i].matches) for a, _ in pairs)
        line = f"  {bench.ai} vs {bench.opponent}, s/match: {mine:.2f}"
        if both:
            fast = statistics.median(b.search[i].per_match for _, b in both)
            ratio = statistics.median(a.search[i].per_match / b.search[i].per_match for a, b in both)
            line += f" vs {fast:.2f} = {ratio:.2f}x faster in mypyc"
        line += (
            f" ({bench.matches} matches, {rollouts:.0f} rollouts/match; "
            f"{bench.opponent} vs {bench.opponent}: {heuristic:.3f} s/match {installed})"
        )
        lines.append(line)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.bench_search", description=__doc__.split("\n\n")[0]
    )
    search_ais = [name for name in list_ais() if ai_tier(name) == "search"]
    parser.add_argument(
        "--ai", action="append", help=f"search AI (repeatable; default all: {', '.join(search_ais)})"
    )
    parser.add_argument("--opponent", default="kiter")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--board", default=DEFAULT_BOARD)
    parser.add_argument("--copy-seconds", type=float, default=2.0)
    parser.add_argument(
        "--core",
        action="store_true",
        help="play the search AIs' matches in the native core instead (one at a time through "
        "play_match; no state copies)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.core:
        for name in args.ai or search_ais:
            bench = core_seconds_per_match(name, args.opponent, args.matches, args.board)
            print(
                f"{bench.ai} vs {bench.opponent} on {bench.board}: {bench.matches} matches in "
                f"{bench.seconds:.2f} CPU s ({bench.wall:.2f} s wall) = {1000 * bench.per_match:.1f} ms/match "
                f"({bench.opponent} vs {bench.opponent} on the same deals: "
                f"{1000 * bench.heuristic_seconds / max(1, bench.matches):.2f} ms/match)",
                flush=True,
            )
        return 0
    if args.worker:  # one round in this process, for search_side_by_side
        expect_build()
        done = measure_round(
            args.ai or search_ais, args.opponent, args.matches, args.board, args.copy_seconds
        )
        print(json.dumps(asdict(done)))
        return 0
    print(copies_per_second(args.copy_seconds, args.board).line(), flush=True)
    for name in args.ai or search_ais:
        print(search_seconds_per_match(name, args.opponent, args.matches, args.board).line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
