"""``python -m krosbalance.tools.race FIRST SECOND``: the GG race between two AIs.

Arena is mostly a race for GG: the first gain takes the wild GG (R-A129) and leaves the taker one GG
ahead; once the wild GG is gone the GG total is odd (13, less two per tension double), so one side is
always ahead, and a tension double (R-A26), which the roller can often choose, costs both sides a GG
and so brings the side behind nearer to zero first (R-A132). The side behind must change the score
by a KO or a purchase before the clock runs out. This module measures that race over paired deals,
per AI (the seat it played):

- ``first_gg``: the share of matches in which this AI made the first GG gain (by a purchase, R-A50,
  or a KO, R-A131), and ``first_by_purchase`` the share of those first gains that were purchases;
- ``won_when_first`` / ``won_when_second``: its score when it took the first GG, and when the
  opponent did (a draw is half a win);
- ``by_tension``: the share of its matches that ended on a tension double;
- ``gg_bought``: GG bought per match.

Each figure comes with its n and, for rates, a 95% Wilson interval. The design is
:mod:`krosbalance.tools.search_screen`'s (every split of the box into two teams, each board, each team
on each side, each AI on each seat; the four matches of a split and board share a seed), so a screen
and a race read the same deals. Matches are pure functions of their seeds, so the figures do not
depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from krosbalance.ai.registry import get_ai
from krosbalance.content.registry import default_registry
from krosbalance.engine.events import KnockedOut
from krosbalance.errors import KrosbalanceError
from krosbalance.play import play_match
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.sim.backends import executor
from krosbalance.tools.diagnostics import table
from krosbalance.tools.search_screen import BOARDS, Job, screen_jobs


@dataclass(frozen=True, slots=True)
class RaceFacts:
    """What one match says of the race: who gained GG first (-1: nobody) and how, whether the last
    GG change was a tension double, the GG each seat bought, and the winner (None: a draw)."""

    first: int
    first_by_purchase: bool
    by_tension: bool
    bought: tuple[int, int]
    winner: int | None


def race_facts(events: Sequence[object], winner: int | None) -> RaceFacts:
    """Read a two-player match's event log (``record`` summary or full). A GG gain right after a KO
    is the KO's; a loss from tension is the clock's; any other gain is a purchase (R-A50; a Demonic
    Reward that gives GG counts here too)."""
    first, first_by_purchase, last_was_tension = -1, False, False
    bought = [0, 0]
    after_ko = False
    for event in events:
        if isinstance(event, KnockedOut):
            after_ko = True
            continue
        if isinstance(event, GGChanged):
            if event.origin == "tension":
                last_was_tension = True
            elif event.amount > 0:
                purchase = not after_ko
                if purchase:
                    bought[event.side & 1] += 1
                if first < 0:
                    first, first_by_purchase = event.side, purchase
                last_was_tension = False
            continue
        after_ko = False
    return RaceFacts(first, first_by_purchase, last_was_tension, (bought[0], bought[1]), winner)


@dataclass(slots=True)
class RaceCounts:
    """One AI's side of the race, summed over the matches it played (from its own seat)."""

    ai: str
    matches: int = 0
    points: float = 0.0
    first: int = 0
    first_by_purchase: int = 0
    points_when_first: float = 0.0
    second: int = 0
    points_when_second: float = 0.0
    by_tension: int = 0
    gg_bought: int = 0

    def add(self, facts: RaceFacts, seat: int) -> None:
        """Count one match this AI played on ``seat``."""
        points = 0.5 if facts.winner is None else float(facts.winner == seat)
        self.matches += 1
        self.points += points
        self.by_tension += int(facts.by_tension)
        self.gg_bought += facts.bought[seat]
        if facts.first == seat:
            self.first += 1
            self.first_by_purchase += int(facts.first_by_purchase)
            self.points_when_first += points
        elif facts.first >= 0:
            self.second += 1
            self.points_when_second += points

    def row(self) -> dict[str, float | int | str]:
        """The table row: each rate with its 95% Wilson interval and its n."""
        return {
            "ai": self.ai,
            "score": _rate(self.points, self.matches),
            "first_gg": _rate(self.first, self.matches),
            "first_by_purchase": _rate(self.first_by_purchase, self.first),
            "won_when_first": _rate(self.points_when_first, self.first),
            "won_when_second": _rate(self.points_when_second, self.second),
            "by_tension": _rate(self.by_tension, self.matches),
            "gg_bought": f"{self.gg_bought / max(1, self.matches):.2f} (n={self.matches})",
        }


def _rate(hits: float, n: int) -> str:
    """``hits`` of ``n`` as a percentage with its 95% Wilson interval and n."""
    import numpy as np

    from krosbalance.analysis.stats import wilson_interval  # heavy: pandas, scipy, statsmodels

    if n == 0:
        return "- (n=0)"
    low, high = wilson_interval(np.asarray(hits), n, 0.05)
    return f"{hits / n:.1%} [{float(low):.1%}, {float(high):.1%}] (n={n})"


def play_race(first: str, second: str, job: Job) -> tuple[RaceFacts, int]:
    """One match of the design: its race facts and the seat ``first`` played."""
    seats = (first, second) if job.variant_first else (second, first)
    result = play_match(
        list(job.team0), list(job.team1), board=job.board, ai=list(seats), seed=job.seed, record="summary"
    )
    return race_facts(result.events, result.winner), 0 if job.variant_first else 1


def race(first: str, second: str, jobs: Sequence[Job], n_jobs: int = 1) -> tuple[RaceCounts, RaceCounts]:
    """Both AIs' race counts over ``jobs`` (``first`` plays the seat a job gives the variant), on
    the runner's process pool (``sim.backends``)."""
    counts = (RaceCounts(first), RaceCounts(second))
    with executor("loky", n_jobs) as pool:
        futures = [pool.submit(play_race, first, second, job) for job in jobs]
        for future in futures:
            facts, seat = future.result()
            counts[0].add(facts, seat)
            counts[1].add(facts, 1 - seat)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.race", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("first", help="a registered Arena AI")
    parser.add_argument("second", help="a registered Arena AI")
    parser.add_argument("--seed", type=int, default=20261203, help="master seed (search_screen's default)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help=f"default {' '.join(BOARDS)}")
    parser.add_argument("--limit", type=int, default=None, help="play only the first N matches of the design")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        for name in (args.first, args.second):
            get_ai(name, "arena")
        for board in args.boards:
            default_registry().load_board(board)
        if args.limit is not None and args.limit < 1:
            raise KrosbalanceError("--limit: must be at least 1")
        jobs = screen_jobs(args.seed, args.boards)[: args.limit]
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    print(table([c.row() for c in race(args.first, args.second, jobs, args.jobs)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
