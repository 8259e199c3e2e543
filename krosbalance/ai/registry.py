"""AIs by name: the one list the CLI, experiments, tests and reports read.

Each AI belongs to a *tier* — ``baseline`` (random), ``heuristic`` (scripted planners) or ``search``
(lookahead over copies of the state) — so that reports can give every balance verdict per tier.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from krosbalance.ai.base import AI
from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.lookahead import LookaheadAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.random_ai import RandomAI
from krosbalance.errors import ContentError

AIFactory = Callable[[np.random.Generator], AI]
TIERS: tuple[str, ...] = ("baseline", "heuristic", "search")

_AIS: dict[str, AIFactory] = {
    "random": RandomAI,
    "focus_fire": FocusFireAI,
    "kiter": KiterAI,
    "objective": ObjectiveAI,
}
_TIER_OF: dict[str, str] = {
    "random": "baseline",
    "focus_fire": "heuristic",
    "kiter": "heuristic",
    "objective": "heuristic",
}


def _lookahead(candidates: int, dice_sets: int) -> AIFactory:
    def factory(rng: np.random.Generator) -> AI:
        return LookaheadAI(rng, candidates=candidates, dice_sets=dice_sets)

    return factory


def register_ai(name: str, factory: AIFactory, tier: str = "heuristic") -> None:
    """Add (or replace) a named AI; ``tier`` is one of :data:`TIERS`."""
    if tier not in TIERS:
        raise ContentError("AI registry", "tier", f"unknown tier {tier!r}; known: {', '.join(TIERS)}")
    _AIS[name] = factory
    _TIER_OF[name] = tier


def list_ais() -> list[str]:
    return sorted(_AIS)


def ai_tier(name: str) -> str:
    """The tier of a registered AI (``baseline``, ``heuristic`` or ``search``)."""
    get_ai(name)
    return _TIER_OF[name]


def get_ai(name: str) -> AIFactory:
    """The factory of a named AI; an unknown name is a user error listing the known ones."""
    try:
        return _AIS[name]
    except KeyError:
        raise ContentError(
            "AI registry", "ai", f"unknown AI {name!r}; known: {', '.join(list_ais())}"
        ) from None


register_ai("lookahead-fast", _lookahead(3, 1), tier="search")
register_ai("lookahead", _lookahead(4, 2), tier="search")
