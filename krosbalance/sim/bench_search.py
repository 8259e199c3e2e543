"""Benchmarks of the search tier: state copies per second, and a search AI's seconds per match.

``python -m krosbalance.sim.bench_search`` prints both; :func:`copies_per_second` and
:func:`search_seconds_per_match` are what ``make bench`` calls.

- **State copies**: :func:`krosbalance.engine.clone.clone_state` of a mid-game box match (eight
  Krosmasters and their summons after a few heuristic turns), repeated for about ``seconds``.
- **Search AI seconds per match**: whole box matches (the splits of the box Krosmasters in turn,
  fixed seeds) between a search AI and a heuristic opponent, the search AI taking each side in turn,
  timed from names to result on one core; the heuristic's own share is timed on the same deals for
  reference, and the search AI's rollouts are counted (its budget is a count: rollouts per
  activation, never a time).

Times are the process's CPU time (``time.process_time``), which a machine shared with other work
inflates far less than wall time; the wall time is printed alongside.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

from krosbalance.ai.lookahead import LookaheadAI
from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.match import run_to_end
from krosbalance.engine.state import MatchState
from krosbalance.engine.turn import game_turn
from krosbalance.play import DEFAULT_BOARD, prepare_match
from krosbalance.sim.bench import BASE_SEED, box_splits

__all__ = [
    "CopyBench",
    "SearchBench",
    "copies_per_second",
    "main",
    "mid_game_state",
    "search_seconds_per_match",
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
        if isinstance(controller, LookaheadAI):
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.sim.bench_search", description=__doc__.split("\n\n")[0]
    )
    search_ais = [name for name in list_ais() if ai_tier(name) == "search"]
    parser.add_argument(
        "--ai", action="append", help=f"search AI (repeatable; default all: {', '.join(search_ais)})"
    )
    parser.add_argument("--opponent", default="kiter")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--board", default=DEFAULT_BOARD)
    parser.add_argument("--copy-seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    print(copies_per_second(args.copy_seconds, args.board).line(), flush=True)
    for name in args.ai or search_ais:
        print(search_seconds_per_match(name, args.opponent, args.matches, args.board).line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
