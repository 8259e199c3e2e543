"""AIs by name: the one list the CLI, experiments, tests and reports read.

Each AI belongs to a *tier* — ``baseline`` (random), ``heuristic`` (scripted planners) or ``search``
(lookahead over copies of the state) — so that reports can give every balance verdict per tier.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from krosbalance.ai.base import AI
from krosbalance.ai.blast.players import BrawlerAI, GlyphAI
from krosbalance.ai.duel.players import DuelBrawlerAI
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
    "blast_glyph": GlyphAI,
    "blast_brawler": BrawlerAI,
    "duel_brawler": DuelBrawlerAI,
    "focus_fire": FocusFireAI,
    "kiter": KiterAI,
    "objective": ObjectiveAI,
}
_TIER_OF: dict[str, str] = {
    "random": "baseline",
    "blast_glyph": "heuristic",
    "blast_brawler": "heuristic",
    "duel_brawler": "heuristic",
    "focus_fire": "heuristic",
    "kiter": "heuristic",
    "objective": "heuristic",
}


def _lookahead(candidates: int, dice_sets: int) -> AIFactory:
    def factory(rng: np.random.Generator) -> AI:
        return LookaheadAI(rng, candidates=candidates, dice_sets=dice_sets)

    return factory


#: the rulesets each AI can play (default: Arena only); the random AI plays any ruleset, since it
#: only ever picks among the legal actions and choices the engine offers
_RULESETS_OF: dict[str, tuple[str, ...]] = {
    "random": ("arena", "blast", "duel"),
    "blast_glyph": ("blast",),
    "blast_brawler": ("blast",),
    "duel_brawler": ("duel",),
}


def register_ai(
    name: str, factory: AIFactory, tier: str = "heuristic", rulesets: tuple[str, ...] = ("arena",)
) -> None:
    """Add (or replace) a named AI; ``tier`` is one of :data:`TIERS`, ``rulesets`` those it plays."""
    if tier not in TIERS:
        raise ContentError("AI registry", "tier", f"unknown tier {tier!r}; known: {', '.join(TIERS)}")
    _AIS[name] = factory
    _TIER_OF[name] = tier
    _RULESETS_OF[name] = tuple(rulesets)


def list_ais(ruleset: str | None = None) -> list[str]:
    """Sorted names of the registered AIs; with ``ruleset``, only those that play it."""
    return sorted(name for name in _AIS if ruleset is None or ruleset in ai_rulesets(name))


def ai_rulesets(name: str) -> tuple[str, ...]:
    """The rulesets a registered AI plays."""
    get_ai(name)
    return _RULESETS_OF.get(name, ("arena",))


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


# The search tier plays Arena only: its candidates and leaf evaluation come from the Arena planner
# (ai/planner.py, ai/evaluation.py), which knows nothing of Blast's glyphs, favors or challenges.
register_ai("lookahead-fast", _lookahead(3, 1), tier="search", rulesets=("arena",))
register_ai("lookahead", _lookahead(4, 2), tier="search", rulesets=("arena",))
