"""Screen a variant of the ``mcts`` search against another AI before naming it.

A variant is ``mcts`` with some of its knobs changed (``MCTSAI``'s keyword arguments: the budget,
``candidates`` and ``schedule``, the ``prior``, and the heuristics that propose its plans and play
its rollouts, ``base``, and play the opponent in them, ``model``, by AI name; ``keep_base``,
``replies``, ``alternatives`` whose ``alt_plans`` best plans join the base's, ``proof``, ``confirm``,
``confirm_turns``, and the sequential confirmation's ``confirm_max``, ``confirm_step`` and ``confirm_band``);
the screen plays
it against an opponent
on the design of ``simulations/mcts-vs-lookahead.toml`` — every split of the eight box Krosmasters
into two teams of four, on each board, each team on each side and the variant on each seat, the
four matches of a (split, board) sharing one seed — in an order shuffled by the master seed, so that
a screen stopped early (``--limit``) is still a fair sample. It prints the variant's score (a draw
is half a win) with its 95% Wilson interval and the CPU seconds per match (both sides) every
``--every`` matches.

Every match seed is drawn from the master seed before any match is dispatched, so the figures do not
depend on the number of jobs. A screen is for choosing what to register; a registered AI's claim is
then made by an experiment on seeds the screen did not use. The knobs screened and not kept (and
taken out of ``mcts``) are in ``reports/ai-ladder-connected/NOTES-2026-12-06-search-knobs.md``.

    python -m krosbalance.tools.search_screen '{"base": "kiter-race"}' --jobs 2

With ``--core`` the matches are played by the native core (``krosbalance_core``), ~20x faster: the
variant crosses as the core's screening form of an mcts (``mcts{base=...;model=...;...}``,
``core/src/ai/search/mod.rs``), the batch on ``--jobs`` threads; the opponent must be an AI the core
plays, or another variant given as ``--opponent-knobs``. CPU seconds are the batch's process time
shared out over its matches.

    python -m krosbalance.tools.search_screen '{"model": "kiter-race"}' --core --opponent mcts-race
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from krosbalance import native_match
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.registry import core_ai_id, get_ai, register_ai, unregister_ai
from krosbalance.content.registry import default_registry, list_characters
from krosbalance.errors import KrosbalanceError
from krosbalance.play import play_match
from krosbalance.sim.backends import executor

BOARDS = ("arena-elemental", "arena-pit", "bonta-1")
VARIANT = "mcts-variant"
#: the knobs a screen may set: MCTSAI's keyword arguments (written out: a compiled class's signature
#: cannot be read); ``base`` and ``model`` name a registered heuristic AI
KNOBS = (
    "candidates",
    "schedule",
    "prior",
    "base",
    "model",
    "keep_base",
    "replies",
    "alternatives",
    "alt_plans",
    "proof",
    "confirm",
    "confirm_turns",
    "confirm_max",
    "confirm_step",
    "confirm_band",
)
PLAYERS = ("base", "model")


@dataclass(frozen=True, slots=True)
class Job:
    """One match of the screen: the teams by side, the board, whether the variant sits on seat 0."""

    team0: tuple[str, ...]
    team1: tuple[str, ...]
    board: str
    variant_first: bool
    seed: int


def parse_knobs(text: str) -> dict[str, Any]:
    """The knobs of a variant from a JSON object (a list becomes a tuple: ``schedule``); an unknown
    knob or a value ``MCTSAI`` refuses is a user error."""
    try:
        knobs = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KrosbalanceError(f"knobs: not a JSON object ({exc.msg}): {text!r}") from None
    if not isinstance(knobs, dict):
        raise KrosbalanceError(f"knobs: expected a JSON object such as '{{\"prior\": 0.2}}', got {text!r}")
    unknown = sorted(set(knobs) - set(KNOBS))
    if unknown:
        raise KrosbalanceError(f"knobs: unknown {', '.join(unknown)}; known: {', '.join(KNOBS)}")
    knobs = {k: tuple(v) if isinstance(v, list) else v for k, v in knobs.items()}
    try:
        MCTSAI(np.random.default_rng(0), **_players(knobs))
    except (TypeError, ValueError) as exc:
        raise KrosbalanceError(f"knobs: {exc}") from None
    return knobs


def _players(knobs: dict[str, Any]) -> dict[str, Any]:
    """The knobs with ``base`` and ``model`` turned from AI names into the heuristic classes."""
    out = dict(knobs)
    for key in PLAYERS:
        if key not in out:
            continue
        name = out[key]
        factory = get_ai(name, "arena") if isinstance(name, str) else None
        if not (isinstance(factory, type) and issubclass(factory, HeuristicAI)):
            raise KrosbalanceError(f"knobs: {key} must name a registered heuristic AI, got {name!r}")
        out[key] = factory
    for key in ("replies", "alternatives"):
        if key in out:
            out[key] = tuple(_players({"model": name})["model"] for name in out[key])
    return out


def screen_jobs(seed: int, boards: Sequence[str] = BOARDS) -> list[Job]:
    """The screen's matches in play order (see the module docstring)."""
    box = sorted(list_characters(set="arena-box"))
    half = len(box) // 2
    splits = [
        (combo, tuple(c for c in box if c not in combo))
        for combo in itertools.combinations(box, half)
        if box[0] in combo
    ]
    rng = np.random.default_rng(seed)
    jobs = []
    for index in rng.permutation(len(splits)):
        first, second = splits[index]
        for board in boards:
            match_seed = int(rng.integers(2**31))
            for team0, team1 in ((first, second), (second, first)):
                for variant_first in (True, False):
                    jobs.append(Job(team0, team1, board, variant_first, match_seed))
    return jobs


def play(knobs: dict[str, Any], opponent: str, job: Job) -> tuple[float, float]:
    """The variant's points in one match (1, 0.5 or 0) and the match's CPU seconds. The variant is
    registered for the match only (a joblib worker is its own process)."""
    arguments = _players(knobs)

    def factory(rng: np.random.Generator) -> MCTSAI:
        return MCTSAI(rng, **arguments)

    register_ai(VARIANT, factory, tier="search", rulesets=MCTSAI.rulesets, two_players_only=True)
    try:
        seats = (VARIANT, opponent) if job.variant_first else (opponent, VARIANT)
        start = time.process_time()
        result = play_match(list(job.team0), list(job.team1), board=job.board, ai=seats, seed=job.seed)
        seconds = time.process_time() - start
    finally:
        unregister_ai(VARIANT)
    if result.winner is None:
        return 0.5, seconds
    return (1.0 if seats[result.winner] == VARIANT else 0.0), seconds


@dataclass(frozen=True, slots=True)
class Standing:
    """The screen so far."""

    matches: int
    points: float
    cpu_seconds: float

    def line(self, label: str) -> str:
        from krosbalance.analysis.stats import wilson_interval  # heavy: pandas, scipy, statsmodels

        low, high = wilson_interval(np.asarray(self.points), self.matches, 0.05)
        return (
            f"{label} {self.matches}: {self.points / self.matches:.1%} "
            f"[{float(low):.1%}, {float(high):.1%}] cpu/match {self.cpu_seconds / self.matches:.2f} s"
        )


def screen(knobs: dict[str, Any], opponent: str, jobs: Sequence[Job], n_jobs: int = 1) -> Iterator[Standing]:
    """The standing after each match, in play order (the runner's process pool, ``sim.backends``).
    With one job the matches are played one at a time as the standings are read, so a screen on one
    core prints as it goes (the pool's inline executor would play them all at submission)."""
    points = seconds = 0.0
    for done, (won, cpu) in enumerate(_played(knobs, opponent, jobs, n_jobs), start=1):
        points += won
        seconds += cpu
        yield Standing(done, points, seconds)


def _played(
    knobs: dict[str, Any], opponent: str, jobs: Sequence[Job], n_jobs: int
) -> Iterator[tuple[float, float]]:
    """Each match's (points, CPU seconds), in play order."""
    if n_jobs == 1:
        for job in jobs:
            yield play(knobs, opponent, job)
        return

    with executor("loky", n_jobs) as pool:
        futures = [pool.submit(play, knobs, opponent, job) for job in jobs]
        for future in futures:
            yield future.result()


def core_name(knobs: dict[str, Any]) -> str:
    """The core's screening form of a variant (``mcts{knob=value;...}``; the schedule's worlds joined
    by ``-``, the heuristics' names by ``+`` as the core knows them (:func:`.registry.core_ai_id`), a
    flag as 1 or 0)."""

    def text(value: Any) -> str:
        if isinstance(value, bool):
            return str(int(value))
        if isinstance(value, str):
            return core_ai_id(value)
        if isinstance(value, tuple | list):
            return ("+" if value and isinstance(value[0], str) else "-").join(text(v) for v in value)
        return str(value)

    return "mcts{" + ";".join(f"{k}={text(v)}" for k, v in sorted(knobs.items())) + "}"


def screen_core(
    variant: str, opponent: str, jobs: Sequence[Job], threads: int = 1, chunk: int = 24
) -> Iterator[Standing]:
    """:func:`screen` played by the native core: ``variant`` and ``opponent`` as the core knows them
    (a registered search AI or a :func:`core_name`), in batches of ``chunk`` matches on ``threads``
    threads; the standing after each match."""
    native_match.IDENTICAL_AIS = native_match.IDENTICAL_AIS | {variant, opponent}
    points = seconds = 0.0
    done = 0
    for start in range(0, len(jobs), chunk):
        batch = jobs[start : start + chunk]
        specs = [
            {
                "teams": [list(j.team0), list(j.team1)],
                "board": j.board,
                "seed": j.seed,
                "ai": [variant, opponent] if j.variant_first else [opponent, variant],
            }
            for j in batch
        ]
        began = time.process_time()
        rows = native_match.play_many_core(specs, threads=threads)
        cpu = (time.process_time() - began) / len(batch)
        for job, row in zip(batch, rows, strict=True):
            if "error" in row:
                raise KrosbalanceError(f"the core refused {specs[0]['ai']}: {row['error']}")
            winner = row["winner"]
            if winner is None:
                points += 0.5
            elif (winner == 0) == job.variant_first:
                points += 1.0
            seconds += cpu
            done += 1
            yield Standing(done, points, seconds)


# ---------------------------------------------------------------------- four players
#: the four-player modes a head-to-head is played in (R-A150-R-A159)
FOUR_MODES = ("two_vs_two", "free_for_all")
#: the four-player turn bound of ``simulations/arena-4p.toml`` (80 turns per player)
FOUR_TURN_LIMIT = 320


@dataclass(frozen=True, slots=True)
class Deal:
    """One four-player deal of a head-to-head: a team per seat, the board, the mode and the seed."""

    teams: tuple[tuple[str, ...], ...]
    board: str
    mode: str
    seed: int


def four_player_deals(seed: int, mode: str, n: int, boards: Sequence[str] = BOARDS) -> list[Deal]:
    """``n`` deals of four teams drawn at random from the box's legal four-player teams (as
    ``simulations/arena-4p.toml`` draws them: two players may field the same team), the boards in
    turn, each deal's match seed drawn from ``seed`` before anything is played."""
    from krosbalance.rulesets.registry import get_ruleset  # start-up: only the four-player screen

    rules = get_ruleset("arena", {"mode": mode})
    legal = [
        tuple(str(getattr(c, "id", c)) for c in team)
        for team in rules.all_teams(sorted(list_characters(set="arena-box")))
    ]
    rng = np.random.default_rng(seed)
    deals = []
    for index in range(n):
        picks = rng.integers(0, len(legal), size=4)
        deals.append(
            Deal(
                tuple(legal[int(i)] for i in picks),
                boards[index % len(boards)],
                mode,
                int(rng.integers(2**31)),
            )
        )
    return deals


def four_player_seats(deal: Deal, first: bool) -> tuple[int, ...]:
    """The seats the tested AI takes in a deal's match: 0 and 2 when ``first``, else 1 and 3. In two
    versus two these are one partnership (R-A159: seats 0 and 2 are allies); in a free-for-all they
    alternate round the table. The paired match gives the other AI the same seats on the same teams
    and seed, so over a pair both AIs meet the same play positions and 50% means equal."""
    return (0, 2) if first else (1, 3)


def four_player_points(deal: Deal, winner: int | None, first: bool) -> float:
    """The tested AI's points in one match: 1 when a partnership of its seats wins, 0.5 for a draw,
    else 0 (the winner is a partnership: a seat in a free-for-all, 0 or 1 in two versus two)."""
    if winner is None:
        return 0.5
    mine = four_player_seats(deal, first)
    if deal.mode == "two_vs_two":
        return 1.0 if winner == (0 if first else 1) else 0.0
    return 1.0 if winner in mine else 0.0


def head_to_head_core(
    tested: str, other: str, deals: Sequence[Deal], threads: int = 1, chunk: int = 24
) -> Iterator[tuple[Deal, float, float, float]]:
    """Each deal played twice by the native core, ``tested`` in seats 0 and 2 then in seats 1 and 3
    (``other`` in the rest): per deal, (the deal, the tested AI's points in each match, the CPU
    seconds per match of the batch)."""
    native_match.IDENTICAL_AIS = native_match.IDENTICAL_AIS | {tested, other}
    for start in range(0, len(deals), chunk):
        batch = deals[start : start + chunk]
        specs = []
        for deal in batch:
            for first in (True, False):
                mine = four_player_seats(deal, first)
                specs.append(
                    {
                        "teams": [list(t) for t in deal.teams],
                        "board": deal.board,
                        "seed": deal.seed,
                        "options": {"mode": deal.mode, "turn_limit": FOUR_TURN_LIMIT},
                        "ai": [tested if seat in mine else other for seat in range(4)],
                    }
                )
        began = time.process_time()
        rows = native_match.play_many_core(specs, threads=threads)
        cpu = (time.process_time() - began) / len(specs)
        for k, deal in enumerate(batch):
            points = []
            for j, first in enumerate((True, False)):
                row = rows[2 * k + j]
                if "error" in row:
                    raise KrosbalanceError(f"the core refused {specs[2 * k + j]['ai']}: {row['error']}")
                points.append(four_player_points(deal, row["winner"], first))
            yield deal, points[0], points[1], cpu


def deal_bootstrap(pairs: Sequence[tuple[float, float]], seed: int, draws: int = 4000) -> tuple[float, float]:
    """A 95% percentile interval of the tested AI's score, resampling whole deals (both matches of a
    deal together: they share teams, board and seed)."""
    per_deal = np.asarray([a + b for a, b in pairs], dtype=float) / 2
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(per_deal), size=(draws, len(per_deal)))
    means = per_deal[picks].mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def four_player_line(label: str, pairs: Sequence[tuple[float, float]], cpu: float, seed: int) -> str:
    """The head-to-head so far: score, Wilson interval over matches, by-deal bootstrap interval."""
    from krosbalance.analysis.stats import wilson_interval  # heavy: pandas, scipy, statsmodels

    matches = 2 * len(pairs)
    points = sum(a + b for a, b in pairs)
    low, high = wilson_interval(np.asarray(points), matches, 0.05)
    b_low, b_high = deal_bootstrap(pairs, seed)
    return (
        f"{label} {len(pairs)} deals / {matches} matches: {points / matches:.1%} "
        f"Wilson [{float(low):.1%}, {float(high):.1%}] by-deal bootstrap [{b_low:.1%}, {b_high:.1%}] "
        f"cpu/match {cpu / matches:.3f} s"
    )


def main_four(argv: Sequence[str]) -> int:
    """``four TESTED OTHER``: the four-player head-to-head (see :func:`head_to_head_core`)."""
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.search_screen four")
    parser.add_argument("tested", help="an AI the core plays in four-player Arena")
    parser.add_argument("other", help="the AI in the other two seats")
    parser.add_argument("--mode", choices=FOUR_MODES, default="two_vs_two")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261207, help="master seed (default 20261207)")
    parser.add_argument("--every", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    deals = four_player_deals(args.seed, args.mode, args.deals)
    pairs: list[tuple[float, float]] = []
    cpu = 0.0
    label = f"{args.tested} vs {args.other} [{args.mode}]"
    for deal_done, (_, a, b, seconds) in enumerate(
        head_to_head_core(args.tested, args.other, deals, args.jobs), 1
    ):
        pairs.append((a, b))
        cpu += 2 * seconds
        if deal_done % args.every == 0 or deal_done == len(deals):
            print(four_player_line(label, pairs, cpu, args.seed), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.search_screen", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("knobs", help=f"a JSON object of MCTSAI knobs ({', '.join(KNOBS)}); '{{}}': mcts")
    parser.add_argument("--opponent", default="lookahead", help="a registered AI (default lookahead)")
    parser.add_argument("--seed", type=int, default=20261203, help="master seed (default 20261203)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help=f"default {' '.join(BOARDS)}")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many matches")
    parser.add_argument("--every", type=int, default=12, help="print the standing every N matches")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--core", action="store_true", help="play in the native core (threads)")
    parser.add_argument("--opponent-knobs", default=None, help="with --core: the opponent as a variant")
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["four"]:
        return main_four(arguments[1:])
    args = parser.parse_args(arguments)
    try:
        knobs = parse_knobs(args.knobs)
        opponent_knobs = None if args.opponent_knobs is None else parse_knobs(args.opponent_knobs)
        get_ai(args.opponent, "arena")

        for board in args.boards:
            default_registry().load_board(board)
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    jobs = screen_jobs(args.seed, args.boards)[: args.limit]
    label = json.dumps(knobs, default=list)
    if args.core:
        opponent = args.opponent if opponent_knobs is None else core_name(opponent_knobs)
        standings = screen_core(core_name(knobs), opponent, jobs, args.jobs)
    else:
        standings = screen(knobs, args.opponent, jobs, args.jobs)
    for standing in standings:
        if standing.matches % args.every == 0 or standing.matches == len(jobs):
            print(standing.line(label), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
