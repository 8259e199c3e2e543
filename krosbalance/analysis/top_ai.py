"""Which AI's figures are the answer: the strongest validated AI of the ruleset that played the run,
and the next one down (issue 39: the verdict is the strongest validated AI's).

The ladder's order is one rule, kept here: tier first (search > heuristic > baseline), then the
AI's Bradley-Terry rating on the ladder (``krosbalance/ai/data/ladder.toml``), an AI not on the
ladder placed at the top of its tier, then its name (:func:`ladder_key`; two AIs off the ladder in one tier are told apart by name only,
and their answer is provisional). A run's answer is measured
by the strongest AI *validated for its ruleset* that played it; the next AI down is the next one of
that order that also played (validated or not: the comparison says which). When no AI that played
is validated for the ruleset, the strongest one played answers, marked provisional.

A ladder standing validates an AI only for the ruleset the ladder was played in: the shipped ladder
is a two-player Arena round robin (``simulations/ai-ladder-connected.toml``), so a Blast or Duel
Pack run has no validated AI until a ladder of its own is written, and its answer says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from krosbalance.analysis.dependence import TIER_ORDER, ai_tier

#: the rulesets the shipped ladder was played in: its standings validate AIs for these only
LADDER_RULESETS: tuple[str, ...] = ("arena",)


def ladder_key(ai: str, standings: Mapping[str, Any], tier: str | None = None) -> tuple[int, float, str]:
    """The sort key of the AI ladder's order, weakest first: tier, then rating (an AI not on the
    ladder: the top of its tier), then name. ``tier`` overrides the registry's (results record it)."""
    tier = tier or ai_tier(ai)
    rank = TIER_ORDER.index(tier) if tier in TIER_ORDER else -1  # an unknown tier: below the baseline
    standing = standings.get(ai)
    rating = math.inf if standing is None else float(standing.rating)
    return rank, rating, ai


def base_ruleset(ruleset: str) -> str:
    """The ruleset's name without the options a results row writes beside it
    (``arena[purchasable_rewards=...]`` -> ``arena``)."""
    return str(ruleset).split("[", 1)[0].strip()


def validated_for(ai: str, ruleset: str, standings: Mapping[str, Any]) -> bool:
    """Whether the ladder validated ``ai`` for ``ruleset`` (its standing says so, and the ladder was
    played in that ruleset, whatever its options)."""
    return base_ruleset(ruleset) in LADDER_RULESETS and bool(getattr(standings.get(ai), "validated", False))


def strength_order(
    ais: Iterable[str],
    ruleset: str,
    standings: Mapping[str, Any],
    tiers: Mapping[str, str] | None = None,
) -> list[str]:
    """``ais`` strongest first for ``ruleset``: the validated ones (in the ladder's order) before
    the others (in the ladder's order)."""
    tiers = tiers or {}
    return sorted(
        dict.fromkeys(str(a) for a in ais),
        key=lambda a: (validated_for(a, ruleset, standings), ladder_key(a, standings, tiers.get(a))),
        reverse=True,
    )


@dataclass(frozen=True)
class TopAIs:
    """The AI whose figures answer (``top``), the next one down that also played (``second``, ''
    when only one AI played), whether each is validated for ``ruleset``, and every AI played,
    strongest first."""

    top: str
    second: str
    ruleset: str
    top_validated: bool
    second_validated: bool
    order: tuple[str, ...]

    @property
    def one_ai(self) -> bool:
        """Whether the run had one AI only (no second AI to compare with)."""
        return not self.second

    def others(self) -> tuple[str, ...]:
        """The AIs below the top one, strongest first (the comparison section's)."""
        return self.order[1:]


def top_ais(
    ais: Iterable[str],
    ruleset: str,
    standings: Mapping[str, Any] | None = None,
    tiers: Mapping[str, str] | None = None,
) -> TopAIs | None:
    """The strongest AI of ``ais`` (those that played the run) validated for ``ruleset``, and the
    next one down that also played (see the module docstring); None when no AI played.
    ``standings`` default to the shipped ladder's (:func:`krosbalance.analysis.ais.load_standings`)."""
    if standings is None:
        from krosbalance.analysis.ais import load_standings

        standings = load_standings()[0]
    order = strength_order(ais, ruleset, standings, tiers)
    if not order:
        return None
    top, second = order[0], order[1] if len(order) > 1 else ""
    return TopAIs(
        top,
        second,
        base_ruleset(ruleset),
        validated_for(top, ruleset, standings),
        bool(second) and validated_for(second, ruleset, standings),
        tuple(order),
    )


def run_ruleset(matches: Any) -> str:
    """The ruleset of a run's matches (its most played one; Arena for rows written before the
    column)."""
    if matches is None or len(matches) == 0 or "ruleset" not in matches.columns:
        return "arena"
    named = matches["ruleset"].dropna().astype(str).map(base_ruleset)
    return str(named.value_counts().index[0]) if len(named) else "arena"


def ai_note(top: TopAIs) -> str:
    """How the answering AI stands: ``mcts-race, the strongest validated AI played`` or, when none
    is validated for the ruleset, that its answer is provisional."""
    if top.top_validated:
        return f"{top.top}, the strongest validated AI played"
    return (
        f"{top.top}, the strongest AI played (provisional: not validated for {top.ruleset} by the AI ladder)"
    )


__all__ = [
    "LADDER_RULESETS",
    "TopAIs",
    "ai_note",
    "base_ruleset",
    "ladder_key",
    "run_ruleset",
    "strength_order",
    "top_ais",
    "validated_for",
]
