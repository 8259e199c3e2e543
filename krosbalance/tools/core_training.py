"""``make core-pgo``'s training run: seeded matches played in an instrumented native core, so that
LLVM's profile-guided optimisation learns where a bulk run's time goes (core/README.md).

Plays, in the core through ``play_match(engine="core")``, the heuristic AIs on the box teams
(focus_fire, kiter, kiter-2, objective), four-player free-for-all matches of focus_fire and kiter,
and a few matches of ``mcts-race`` against ``kiter`` (the search tier's rollouts). The seeds start far
from the benchmark's (:data:`TRAINING_START`), so ``make bench`` measures matches the profile did not
see. What it plays is thrown away; only the profile the instrumented core writes at exit is kept.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from krosbalance.engine_choice import CORE
from krosbalance.play import DEFAULT_BOARD, play_match
from krosbalance.sim.collector import bulk_collection
from krosbalance.tools.bench import _matches, _options
from krosbalance.tools.builds import box_splits

HEURISTICS = ("focus_fire", "kiter", "kiter-2", "objective")
FOUR_PLAYER = ("focus_fire", "kiter")
TRAINING_START = 100_000
"""The first match index of the training deals (the benchmark plays from 0)."""


def train(matches: int = 300, four: int = 100, search: int = 6) -> int:
    """Play the training matches; return how many were played."""
    played = 0
    with bulk_collection():
        for ai in HEURISTICS:
            deals = _matches(TRAINING_START, "arena", 2)
            for _ in range(matches):
                teams, seed = next(deals)
                play_match(
                    *teams, board=DEFAULT_BOARD, ai=ai, seed=seed, options=_options("arena", 2), engine=CORE
                )
                played += 1
        for ai in FOUR_PLAYER:
            deals = _matches(TRAINING_START, "arena", 4)
            for _ in range(four):
                teams, seed = next(deals)
                play_match(
                    *teams, board=DEFAULT_BOARD, ai=ai, seed=seed, options=_options("arena", 4), engine=CORE
                )
                played += 1
        splits = box_splits()
        for k in range(search):
            seats = ["mcts-race", "kiter"] if k % 2 == 0 else ["kiter", "mcts-race"]
            team0, team1 = splits[k % len(splits)]
            play_match(team0, team1, board=DEFAULT_BOARD, ai=seats, seed=TRAINING_START + k, engine=CORE)
            played += 1
    return played


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.core_training", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--matches", type=int, default=300, help="matches per heuristic AI (default 300)")
    parser.add_argument("--four", type=int, default=100, help="four-player matches per AI (default 100)")
    parser.add_argument("--search", type=int, default=6, help="mcts-race matches (default 6)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    played = train(args.matches, args.four, args.search)
    print(f"core training: {played} matches in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
