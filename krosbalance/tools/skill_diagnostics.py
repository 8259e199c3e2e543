"""``python -m krosbalance.tools.skill_diagnostics``: the three skills of issue 18 in self-play, and an
AI against another over paired deals (e.g. ``kiter-2`` against ``kiter``, its untuned self).

Per match, from the full event log (box deals as :mod:`krosbalance.tools.diagnostics` plays them,
every deal from both seats with the same seed):

- ``gg_bought``: GG bought on Demon cells, both teams (R-A50);
- ``rolls_with_escape``: Lock rolls taken by a figure that holds a spell moving it out of melee
  without a roll (a retreat, R-A83, R-A41) and had cast nothing yet in that activation: it walked
  out where its spell could have taken it (an upper bound: its AP and the spell's line are not
  checked);
- ``won_by_purchase`` / ``lost_to_purchase``: the share of decided matches won by this AI's purchase
  / lost to the opponent's (the winner's purchase made the last GG change): a Demon cell left to a
  winning opponent. In self-play both count either team, so they are equal.

The head-to-head (:func:`versus`) gives the first AI's win rate with a Wilson 95% CI over the
decided matches and the number of draws. Deterministic.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from krosbalance.ai.registry import get_ai
from krosbalance.content.registry import all_characters
from krosbalance.engine.events import CharacterTurnStarted, KnockedOut, LockRolled, SpellCast
from krosbalance.play import play_match
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.tools.diagnostics import box_deals, table


@dataclass(slots=True)
class SkillCounts:
    """Totals over the matches of one AI (or of a whole self-play); :meth:`row` gives the
    per-match columns."""

    ai: str
    matches: int = 0
    decided: int = 0
    gg_bought: int = 0
    rolls_with_escape: int = 0
    won_by_purchase: int = 0
    lost_to_purchase: int = 0

    def add(
        self,
        events: Sequence[object],
        winner: int | None,
        escapers: frozenset[str],
        side_of: dict[int, int],
        seat: int | None = None,
    ) -> None:
        """Count one match: both seats (``seat`` None, self-play) or the seat the AI played."""
        bought, rolls, last_buyer = count_skills(events, escapers, side_of)
        self.matches += 1
        seats = (0, 1) if seat is None else (seat,)
        self.gg_bought += sum(bought[s] for s in seats)
        self.rolls_with_escape += sum(rolls[s] for s in seats)
        if winner is not None:
            self.decided += 1
            by_purchase = last_buyer == winner
            self.won_by_purchase += int(by_purchase and winner in seats)
            self.lost_to_purchase += int(by_purchase and (seat is None or winner != seat))

    def row(self) -> dict[str, float | int | str]:
        n = max(1, self.matches)
        decided = max(1, self.decided)
        return {
            "ai": self.ai,
            "matches": self.matches,
            "gg_bought": self.gg_bought / n,
            "rolls_with_escape": self.rolls_with_escape / n,
            "won_by_purchase": self.won_by_purchase / decided,
            "lost_to_purchase": self.lost_to_purchase / decided,
        }


def escape_spell_holders() -> frozenset[str]:
    """Names of the characters with a spell that moves the caster away (a retreat, R-A83)."""
    return frozenset(
        spec.name
        for spec in all_characters()
        if any(e.kind == "retreat" for s in spec.spells for e in s.effects)
    )


def count_skills(
    events: Sequence[object], escapers: frozenset[str], side_of: dict[int, int]
) -> tuple[list[int], list[int], int]:
    """(GG bought per seat, Lock rolls taken with a free escape in hand per seat, the seat whose
    purchase made the last GG change or -1) in one match's full event log; ``side_of`` maps a
    fighter's uid to its seat. A GG gain right after a KO is the KO's, one from tension is
    tension's; the rest are purchases (R-A50)."""
    bought = [0, 0]
    rolls = [0, 0]
    last_buyer = -1
    acting_name = ""
    cast_yet = False
    after_ko = False
    for event in events:
        if isinstance(event, CharacterTurnStarted):
            acting_name, cast_yet = event.name, False
        elif isinstance(event, SpellCast):
            cast_yet = True
        elif isinstance(event, LockRolled) and acting_name in escapers and not cast_yet:
            rolls[side_of.get(event.mover, 0) & 1] += 1
        if isinstance(event, KnockedOut):
            after_ko = True
        elif isinstance(event, GGChanged):
            purchase = event.origin != "tension" and not after_ko and event.amount > 0
            if purchase:
                bought[event.side & 1] += 1
            last_buyer = event.side if purchase else -1
        else:
            after_ko = False
    return bought, rolls, last_buyer


def _sides(result: object) -> dict[int, int]:
    return {f.uid: f.side for f in getattr(result, "fighters", ())}


def self_play(ai: str, deals: int, seed: int = 7, board: str = "arena-elemental") -> SkillCounts:
    """``ai`` against itself on ``deals`` box deals, both seats."""
    escapers = escape_spell_holders()
    out = SkillCounts(ai)
    for team0, team1, match_seed in box_deals(deals, seed):
        for t0, t1 in ((team0, team1), (team1, team0)):
            result = play_match(t0, t1, board=board, ai=ai, seed=match_seed, record="full")
            out.add(result.events, result.winner, escapers, _sides(result))
    return out


@dataclass(slots=True)
class Versus:
    """``first`` against ``second`` over paired deals (each deal from both seats, same seed)."""

    first: str
    second: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def n(self) -> int:
        return self.wins + self.losses

    def ci(self) -> tuple[float, float]:
        """Wilson 95% interval of the first AI's win rate over decided matches."""
        from krosbalance.analysis.stats import (
            wilson_interval,  # heavy: pandas, scipy, statsmodels; pandas and scipy only when asked
        )

        low, high = wilson_interval(self.wins, self.n, 0.05)
        return float(low), float(high)

    def line(self) -> str:
        low, high = self.ci()
        rate = self.wins / max(1, self.n)
        return (
            f"{self.first} vs {self.second}: {rate:.1%} of {self.n} decided matches "
            f"(95% CI {low:.1%}-{high:.1%}), {self.draws} draws"
        )


def versus(
    first: str, second: str, deals: int, seed: int = 7, board: str = "arena-elemental"
) -> tuple[Versus, tuple[SkillCounts, SkillCounts]]:
    """Play ``first`` against ``second`` on ``deals`` box deals, each from both seats with the same
    seed and the AIs swapping seats too (4 matches a deal); the result and each AI's skill counts
    (of the seat it played)."""
    escapers = escape_spell_holders()
    out = Versus(first, second)
    counts = (SkillCounts(first), SkillCounts(second))
    for team0, team1, match_seed in box_deals(deals, seed):
        for t0, t1 in ((team0, team1), (team1, team0)):
            for seat in (0, 1):
                ais = (first, second) if seat == 0 else (second, first)
                result = play_match(t0, t1, board=board, ai=ais, seed=match_seed, record="full")
                sides = _sides(result)
                counts[0].add(result.events, result.winner, escapers, sides, seat)
                counts[1].add(result.events, result.winner, escapers, sides, 1 - seat)
                if result.winner is None:
                    out.draws += 1
                elif result.winner == seat:
                    out.wins += 1
                else:
                    out.losses += 1
    return out, counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.skill_diagnostics", description=__doc__
    )
    parser.add_argument("--ai", action="append", help="AI for self-play (repeatable)")
    parser.add_argument("--versus", nargs=2, metavar=("FIRST", "SECOND"), help="head-to-head instead")
    parser.add_argument("--deals", type=int, default=20, help="box deals (each from both seats)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--board", default="arena-elemental")
    args = parser.parse_args(argv)

    names = args.versus or args.ai or ["kiter", "kiter-2"]
    for name in names:
        get_ai(name, "arena")  # an unknown name: one line, exit 2 (the CLI's error handling)
    if args.versus:
        result, counts = versus(args.versus[0], args.versus[1], args.deals, args.seed, args.board)
        print(result.line())
        print(table([c.row() for c in counts]))
    else:
        print(table([self_play(name, args.deals, args.seed, args.board).row() for name in names]))


if __name__ == "__main__":
    main()
