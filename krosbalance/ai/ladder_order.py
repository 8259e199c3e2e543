"""The AI ladder's order: which AI is the strongest, one rule for every layer that asks.

The run's adaptive target (:mod:`krosbalance.sim.target`) plays the strongest AI until its headline is
precise enough, and the report's answer (:mod:`krosbalance.analysis.top_ai`) is measured by the
strongest AI that played: both must mean the same AI, so the order lives here, below them both.

The order: the AIs the ladder validated for the ruleset first; then tier (search > heuristic >
baseline); then the AI's Bradley-Terry rating on the ladder (``krosbalance/ai/data/ladder.toml``), an
AI not on the ladder placed at the top of its tier; then its name (two AIs off the ladder in one tier
are told apart by name only, and an answer by either is provisional).

A ladder standing validates an AI only for the ruleset the ladder was played in (the standing's
``ruleset``): the shipped file holds a two-player Arena ladder, a four-player Arena ladder
(``arena-4p``: a four-seat Arena run is judged by it, :func:`ladder_ruleset`), a Duel Pack ladder
and a Blast ladder.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from krosbalance.ai.registry import TIERS, ai_tier
from krosbalance.errors import ContentError

#: the rulesets the shipped ladders were played in: their standings validate AIs for these only
LADDER_RULESETS: tuple[str, ...] = ("arena", "duel", "blast", "arena-4p")
#: the ladder of four-player Arena (R-A150-R-A159): a two-player standing does not validate an AI
#: for four seats, so a four-seat Arena run reads this key (:func:`ladder_ruleset`)
FOUR_PLAYER_LADDER = "arena-4p"


def ladder_ruleset(ruleset: str, seats: int) -> str:
    """The ladder a run is judged by: its ruleset's, or for Arena with more than two seats
    :data:`FOUR_PLAYER_LADDER`."""
    name = base_ruleset(ruleset)
    return FOUR_PLAYER_LADDER if name == "arena" and seats > 2 else name


def registered_tier(ai: str) -> str:
    """The registry's tier of ``ai``; ``unknown`` for a name this installation does not register."""
    try:
        return ai_tier(ai)
    except ContentError:
        return "unknown"


def ladder_key(ai: str, standings: Mapping[str, Any], tier: str | None = None) -> tuple[int, float, str]:
    """The sort key of the ladder's order within the validated or the other AIs, weakest first: tier,
    then rating (an AI not on the ladder: the top of its tier), then name. ``tier`` overrides the
    registry's (results record the tier they were played with)."""
    tier = tier or registered_tier(ai)
    rank = TIERS.index(tier) if tier in TIERS else -1  # an unknown tier: below the baseline
    standing = standings.get(ai)
    rating = math.inf if standing is None else float(standing.rating)
    return rank, rating, ai


def base_ruleset(ruleset: str) -> str:
    """The ruleset's name without the options a results row writes beside it
    (``arena[purchasable_rewards=...]`` -> ``arena``)."""
    return str(ruleset).split("[", 1)[0].strip()


def validated_for(ai: str, ruleset: str, standings: Mapping[str, Any]) -> bool:
    """Whether the ladder validated ``ai`` for ``ruleset`` (its standing says so, and the ladder was
    played in that ruleset, whatever its options: a standing without a ruleset is Arena's)."""
    name = base_ruleset(ruleset)
    standing = standings.get(ai)
    return (
        name in LADDER_RULESETS
        and getattr(standing, "ruleset", "arena") == name
        and bool(getattr(standing, "validated", False))
    )


def strength_order(
    ais: Iterable[str],
    ruleset: str,
    standings: Mapping[str, Any],
    tiers: Mapping[str, str] | None = None,
) -> list[str]:
    """``ais`` strongest first for ``ruleset``: the validated ones (in the ladder's order) before
    the others (in the ladder's order)."""
    known = tiers or {}
    return sorted(
        dict.fromkeys(str(a) for a in ais),
        key=lambda a: (validated_for(a, ruleset, standings), ladder_key(a, standings, known.get(a))),
        reverse=True,
    )
