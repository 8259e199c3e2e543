"""Screen (or validate) a Duel Pack AI against another on paired deals.

A *deal* is two legal duel teams drawn from the duel pool (the Duel Pack's Krosmasters and the box's,
by set and game), a duel board and a draft (both cycled) and a seed, all drawn from the master seed
before any match is played; each deal is played twice, the AI under test on seat 0 and then on seat
1 (the teams stay on their seats), so the team, the seat and the dice of the deal weigh on both
sides alike. It prints the AI's score (a draw is half a win) with its 95% Wilson interval over the
matches and a 95% interval from a bootstrap over the deals, and the CPU seconds per match.

``--knobs`` screens ``duel-lookahead`` with some of its keyword arguments changed (``walks``,
``dice_sets``, ``prior``); a screen is for choosing what to register, on master seeds a validation
does not use (``reports/ai-ladder-duel/NOTES-2026-12-07-duel-lookahead.md`` names them).

The paired-deal machinery (:func:`play_deal`, :func:`bootstrap_interval`, :func:`screen_main`) takes
the ruleset from each deal, so Blast's screen (``krosbalance.tools.blast_screen``) is this one with
its own deals and search AI.

    python -m krosbalance.tools.duel_screen duel-lookahead --deals 400 --master-seed 41
    python -m krosbalance.tools.duel_screen duel-lookahead --knobs '{"walks": 4}' --deals 60
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import numpy as np

from krosbalance.ai.duel.lookahead import DuelLookaheadAI
from krosbalance.ai.registry import register_ai
from krosbalance.analysis.stats import wilson_interval
from krosbalance.content.registry import list_boards
from krosbalance.play import play_match
from krosbalance.rulesets.duel.pregame import legal_teams
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.duel import duel_pack, duel_registry

DRAFTS = ("plain", "tactical")


def duel_pool() -> list[str]:
    """Every Krosmaster that may duel: the Duel Pack's first, then the box's (by set and game)."""
    registry = duel_registry()
    return list(dict.fromkeys([*duel_pack(), *registry.list_characters("krosmaster", game="arena")]))


def deals(n: int, master_seed: int, figures: int = 1) -> list[dict[str, Any]]:
    """``n`` deals drawn from ``master_seed`` (see the module docstring)."""
    rng = np.random.default_rng(master_seed)
    teams = legal_teams(duel_pool(), figures)
    boards = list_boards("duel")
    out = []
    for k in range(n):
        pair = [list(teams[int(rng.integers(len(teams)))]) for _ in range(2)]
        out.append(
            {
                "teams": pair,
                "board": boards[k % len(boards)],
                "ruleset": "duel",
                "options": {"figures": figures, "draft": DRAFTS[(k // len(boards)) % len(DRAFTS)]},
                "seed": int(rng.integers(2**32)),
            }
        )
    return out


def play_deal(deal: dict[str, Any], ai: str, opponent: str, engine: str) -> tuple[float, float, float]:
    """The AI's points on seat 0 and on seat 1 of ``deal`` (1 a win, 0.5 a draw), and CPU seconds."""
    start = time.process_time()
    rules = get_ruleset(deal["ruleset"], deal["options"])
    points = []
    for seat in (0, 1):
        ais = [ai, opponent] if seat == 0 else [opponent, ai]
        result = play_match(
            *deal["teams"], board=deal["board"], ai=ais, seed=deal["seed"], ruleset=rules, engine=engine
        )
        points.append(0.5 if result.winner is None else float(result.winner == seat))
    return points[0], points[1], time.process_time() - start


def bootstrap_interval(
    per_deal: Sequence[float], rng: np.random.Generator, n: int = 4000
) -> tuple[float, float]:
    """A 95% percentile interval of the mean score, resampling whole deals."""
    data = np.asarray(per_deal)
    means = data[rng.integers(0, len(data), size=(n, len(data)))].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def register_screened(search: str, cls: Callable[..., Any], ruleset: str, knobs: dict[str, Any]) -> str:
    """Register the search AI ``search`` (class ``cls``) with ``knobs`` under its screening form (a
    name the core reads too: ``duel-lookahead{walks=4;dice_sets=2}``); its name."""
    name = search + "{" + ";".join(f"{k}={v}" for k, v in sorted(knobs.items())) + "}"

    def factory(rng: np.random.Generator) -> Any:
        return cls(rng, **knobs)

    register_ai(name, factory, tier="search", rulesets=(ruleset,))
    return name


def screen_main(
    argv: Sequence[str] | None,
    description: str,
    opponent: str,
    search: tuple[str, Callable[..., Any], str],
    make_deals: Callable[[int, int, int], list[dict[str, Any]]],
    figures: int = 1,
) -> int:
    """The command line of a paired-deal screen: ``search`` is (the search AI's name, its class,
    its ruleset) for ``--knobs``; ``make_deals(n, master_seed, figures)`` draws the deals."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("ai", help="the AI under test (ignored with --knobs)")
    parser.add_argument("--opponent", default=opponent)
    parser.add_argument("--knobs", default=None, help=f"{search[0]}'s keyword arguments, JSON")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--master-seed", type=int, required=True)
    parser.add_argument("--figures", type=int, default=figures)
    parser.add_argument("--engine", default="auto")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    ai = args.ai
    if args.knobs:
        ai = register_screened(*search, json.loads(args.knobs))
    todo = make_deals(args.deals, args.master_seed, args.figures)
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("fork")) as pool:
        results = list(
            pool.map(
                play_deal, todo, [ai] * len(todo), [args.opponent] * len(todo), [args.engine] * len(todo)
            )
        )
    points = [p for a, b, _ in results for p in (a, b)]
    per_deal = [(a + b) / 2 for a, b, _ in results]
    wins = sum(points)
    low, high = wilson_interval(wins, len(points))
    b_low, b_high = bootstrap_interval(per_deal, np.random.default_rng(args.master_seed))
    seconds = sum(s for _, _, s in results) / len(points)
    label = args.knobs or ai
    print(
        f"{label} vs {args.opponent}: {100 * wins / len(points):.1f}% of {len(points)} matches "
        f"({args.deals} deals x 2 seats, master seed {args.master_seed}, {args.figures} figure(s)); "
        f"95% Wilson [{100 * low:.1f}, {100 * high:.1f}], by-deal bootstrap [{100 * b_low:.1f}, {100 * b_high:.1f}]; "
        f"seat 0 {100 * sum(a for a, _, _ in results) / len(results):.1f}%, "
        f"seat 1 {100 * sum(b for _, b, _ in results) / len(results):.1f}%; "
        f"{1000 * seconds:.1f} CPU ms per match (both sides, engine {args.engine})"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return screen_main(
        argv, __doc__.split("\n\n")[0], "duel-brawler", ("duel-lookahead", DuelLookaheadAI, "duel"), deals
    )


if __name__ == "__main__":
    sys.exit(main())
