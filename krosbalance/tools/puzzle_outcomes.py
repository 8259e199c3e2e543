"""``python -m krosbalance.tools.puzzle_outcomes --ai mcts-deep --base kiter-race``: is a search AI's
departure from its base's answer to a puzzle a worse position, judged by how the match ends?

A puzzle's judge checks one outcome of one activation (:mod:`krosbalance.testing.puzzles`): "the King
ends next to the archer". A search AI that plays something else may still leave the better position,
as its rollouts claim. This tool asks the match instead. For each puzzle and seed, the puzzle's
activation (or turn) is played once by ``--ai`` and once by ``--base``; from each end position the
match is played on ``--playouts`` times to its end (at most ``--turns`` more game turns, the rest of
side 0's turn skipped), both sides by ``--continue`` (the same AI and the same continuation seeds
from both positions: common random numbers), and side 0's score is counted (a win 1, a draw or the
turn cap 1/2). The difference of the two scores, paired by continuation, with its 95% interval, says
whether the search's answer is worse than the base's where it differs; where both answer alike the
difference is 0 by construction and the row says so. A second interval takes the seed as the unit
(the mean difference of each differing seed's playouts, a t interval over those seeds): the playouts
of one seed continue one answer and are not independent draws of the search's answer, so the first
interval is too narrow when few seeds differ (``buy_on_the_demon_cell``: -5.0 [-8.6, -1.4] on seeds
0-15 with 4 seeds differing, +0.2, by seed [-2.1, +2.5], on seeds 0-63). ``--first-seed`` starts the
seeds elsewhere, to re-measure an alarm on seeds that did not raise it.

Seeds matter more than playouts: the answer's own dice (a Lock roll, an attack's damage) are drawn
once per seed, and a position played on many times from one unlucky answer says little about the
answer (``hide_behind_a_body``: -31 points for mcts-deep over 4 seeds, +14 over 16). Hence the
defaults, 16 seeds of 25 playouts.

The continuation AI is the yardstick's weak point: a heuristic continuation may misplay a position
the search chose for a reason only search sees. Two continuations (``--continue`` repeated) show
whether the verdict depends on it.

``--ai`` may be a variant of ``mcts`` written as :mod:`krosbalance.tools.search_screen` reads it (a
JSON object of ``MCTSAI``'s knobs), to judge a variant before it is registered.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.registry import get_ai
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import SeededDice
from krosbalance.engine.turn import Controller, game_turn, positions
from krosbalance.engine.view import MatchView
from krosbalance.testing.puzzles import PUZZLES, Position, Puzzle
from krosbalance.testing.skill_puzzles import SKILL_PUZZLES
from krosbalance.tools.search_screen import _players, parse_knobs

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Outcome:
    """One puzzle under one continuation: side 0's mean score after the AI's and after the base's
    answer, their paired difference with its 95% interval, and on how many seeds the two answers
    left different positions."""

    puzzle: str
    continuation: str
    ai_score: float
    base_score: float
    diff: float
    ci_low: float
    ci_high: float
    n: int
    differing_seeds: int
    seeds: int
    seed_low: float = math.nan
    seed_high: float = math.nan

    def line(self) -> str:
        if not self.differing_seeds:
            return f"| {self.puzzle} | {self.continuation} | same answer on every seed | | | |"
        return (
            f"| {self.puzzle} | {self.continuation} | {self.ai_score:.1%} vs {self.base_score:.1%} | "
            f"{self.diff:+.1%} [{self.ci_low:+.1%}, {self.ci_high:+.1%}] | "
            f"[{self.seed_low:+.1%}, {self.seed_high:+.1%}] | {self.n} "
            f"({self.differing_seeds} of {self.seeds} seeds differ) |"
        )


def answered(puzzle: Puzzle, ai: str, seed: int) -> Position:
    """The puzzle's position after ``ai``'s answer on ``seed`` (the dice and AI streams of
    :func:`krosbalance.testing.puzzles.attempt`)."""
    position = puzzle.setup()
    position.state.dice = SeededDice(np.random.default_rng([seed, 17]))
    controller = _factory(ai)(np.random.default_rng([seed, 23]))
    if position.actor is None:
        position.sc.play_turn(controller)
    else:
        position.sc.play_character(position.actor, controller)
    if position.state.active is not None:
        position.sc.end_turn()
    return position


def _factory(ai: str) -> Callable[[np.random.Generator], Controller]:
    """A registered AI by name, or an ``mcts`` variant from its knobs (a JSON object)."""
    if not ai.lstrip().startswith("{"):
        return get_ai(ai)
    arguments = _players(parse_knobs(ai))
    return lambda rng: MCTSAI(rng, **arguments)


def play_on(answer: Position, seed: int, continuation: str, playout: int, turns: int) -> float:
    """Side 0's score when the match goes on from a copy of ``answer`` (:func:`clone_state`: the
    compiled build's classes cannot be deep-copied): the rest of side 0's turn skipped, then whole
    game turns by ``continuation`` on both sides, as ``Scenario.play_turn`` plays them, until the
    match ends or ``turns`` game turns have passed (a half)."""
    state = clone_state(answer.state, SeededDice(np.random.default_rng([seed, playout, 31])))
    if state.finished:
        return _score(state.winner)
    state.active_side = 1
    players = [get_ai(continuation)(np.random.default_rng([seed, playout, side, 37])) for side in (0, 1)]
    for _ in range(turns):
        side = state.active_side
        game_turn(state, players[side], MatchView(state, side))
        if state.finished:
            return _score(state.winner)
    return 0.5


def _score(winner: int | None) -> float:
    return 0.5 if winner is None else float(winner == 0)


def outcome(
    puzzle: Puzzle,
    ai: str,
    base: str,
    continuation: str,
    seeds: int,
    playouts: int,
    turns: int,
    first_seed: int = 0,
) -> Outcome:
    """:class:`Outcome` of one puzzle: both answers per seed, each played on ``playouts`` times."""
    diffs: list[float] = []
    mine: list[float] = []
    theirs: list[float] = []
    differing = 0
    by_seed: list[float] = []  # each differing seed's mean difference
    for seed in range(first_seed, first_seed + seeds):
        after_ai, after_base = answered(puzzle, ai, seed), answered(puzzle, base, seed)
        if positions(after_ai.state) == positions(after_base.state):
            continue
        differing += 1
        for playout in range(playouts):
            a = play_on(after_ai, seed, continuation, playout, turns)
            b = play_on(after_base, seed, continuation, playout, turns)
            mine.append(a)
            theirs.append(b)
            diffs.append(a - b)
        by_seed.append(float(np.mean(diffs[-playouts:])))
    if not diffs:
        return Outcome(puzzle.name, continuation, math.nan, math.nan, 0.0, 0.0, 0.0, 0, 0, seeds)
    d = np.asarray(diffs)
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    mean = float(d.mean())
    k = len(by_seed)
    seed_half = (
        float(sps.t.ppf(0.975, k - 1)) * float(np.std(by_seed, ddof=1)) / math.sqrt(k) if k > 1 else math.inf
    )
    return Outcome(
        puzzle.name,
        continuation,
        float(np.mean(mine)),
        float(np.mean(theirs)),
        mean,
        mean - half,
        mean + half,
        len(d),
        differing,
        seeds,
        mean - seed_half,
        mean + seed_half,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Print one Markdown row per puzzle and continuation."""
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.puzzle_outcomes")
    parser.add_argument("--ai", default="mcts-deep")
    parser.add_argument("--base", default="kiter-race")
    parser.add_argument("--continue", dest="continuations", action="append")
    parser.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument(
        "--first-seed", type=int, default=0, help="seeds first-seed .. first-seed + seeds - 1 (a fresh range)"
    )
    parser.add_argument("--playouts", type=int, default=25)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    os.environ.setdefault("KROSBALANCE_SCENARIO_CORE", "0")  # the reference alone: a study, not a rule test
    chosen = [p for p in (*PUZZLES, *SKILL_PUZZLES) if not args.puzzle or p.name in args.puzzle]
    print(
        f"| puzzle | continued by | side 0 wins after {args.ai} vs after {args.base} | difference "
        "| by seed | n |"
    )
    print("|---|---|---|---|---|---|")
    for puzzle in chosen:
        for continuation in args.continuations or ["kiter-race"]:
            row = outcome(
                puzzle,
                args.ai,
                args.base,
                continuation,
                args.seeds,
                args.playouts,
                args.turns,
                args.first_seed,
            )
            print(row.line(), flush=True)


if __name__ == "__main__":
    main()
