"""The matches the compiled build is trained on (``python -m krosbalance.tools.profile_workload``).

``setup.py`` builds the compiled layers profile-guided when the C compiler is GCC: it compiles them
once with instrumentation, runs this module on that build to record which branches and calls a
match takes, and compiles them again with that profile (``-fprofile-use``), so the compiler lays out
and inlines the hot paths of a real match. The compiled code computes exactly what it computed
before: only its speed changes (``make bench`` compares it with the pure build, and the identity
check replays seeded matches in both).

The workload is what bulk runs play: seeded box matches of every registered Arena AI outside the
search tier, a few of the search tier, and Blast matches of every Blast AI (a few seconds in all).
Code a match never reaches here is still optimised as usual (``-fprofile-partial-training``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.build_info import build_mode
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET, play_match
from krosbalance.tools.builds import BLAST_BOARD, BLAST_OPTIONS, blast_splits, box_splits

__all__ = ["main", "play_workload"]

#: the seeds of the workload's matches start here (any fixed number: the build is reproducible)
BASE_SEED = 20_261_201


def play_workload(arena: int = 40, search: int = 1, blast: int = 20) -> int:
    """Play ``arena`` box matches per Arena AI outside the search tier, ``search`` per search AI
    (against ``kiter``) and ``blast`` Blast matches per Blast AI; return how many were played."""
    played = 0
    splits = box_splits()
    for ai in list_ais(DEFAULT_RULESET):
        searching = ai_tier(ai) == "search"
        for k in range(search if searching else arena):
            team0, team1 = splits[k % len(splits)]
            pair = (ai, "kiter") if searching else (ai, ai)
            # the reference: the profile trains the compiled Python engine, not the native core
            play_match(
                team0, team1, board=DEFAULT_BOARD, ai=pair, seed=BASE_SEED + played, engine="reference"
            )
            played += 1
    teams = blast_splits()
    for ai in list_ais("blast"):
        for k in range(blast):
            team0, team1 = teams[k % len(teams)]
            play_match(
                team0,
                team1,
                board=BLAST_BOARD,
                ai=ai,
                seed=BASE_SEED + played,
                ruleset="blast",
                options=BLAST_OPTIONS,
                engine="reference",
            )
            played += 1
    return played


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.profile_workload", description=__doc__)
    parser.add_argument("--arena", type=int, default=40, help="box matches per Arena AI (default 40)")
    parser.add_argument("--search", type=int, default=1, help="matches per search AI (default 1)")
    parser.add_argument("--blast", type=int, default=20, help="matches per Blast AI (default 20)")
    args = parser.parse_args(argv)
    if build_mode() != "compiled":  # a profile of pure Python code would train the compiler on nothing
        print(
            f"profile workload: the {build_mode()} build is installed, not the compiled one", file=sys.stderr
        )
        return 1
    start = time.perf_counter()
    played = play_workload(args.arena, args.search, args.blast)
    print(f"profile workload: {played} matches in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
