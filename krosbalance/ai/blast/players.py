"""The Blast personalities: ``blast_glyph`` races for glyph cells against the favor clock,
``blast_brawler`` hunts the KO that ends the game. Both use ``krosbalance.ai.blast.planner`` and
differ only by their weights; both respect the tackle zone and use favors and challenge bonuses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.base import AI
from krosbalance.ai.blast.planner import blast_view, decide, next_to_act
from krosbalance.ai.blast.weights import BRAWLER, GLYPH, BlastWeights

if TYPE_CHECKING:
    from krosbalance.content.blast import FavorSpec
    from krosbalance.engine.legal import Action
    from krosbalance.engine.view import FighterView, MatchView

#: a plain worth of each bonus effect, for choosing which favor a new one covers (R-B9)
EFFECT_WORTH: dict[str, float] = {
    "capture_target": 4.0,
    "summon": 3.0,
    "damage_target": 3.0,
    "damage_around": 2.0,
    "next_spell_damage": 2.0,
    "marker_self": 2.0,
    "leap": 2.0,
    "heal_self": 1.5,
    "minus_marker_target": 1.5,
    "push_target": 1.0,
    "place_terrain": 1.0,
}


def favor_worth(favor: FavorSpec | None) -> float:
    if favor is None:
        return -1.0
    return plain_sum(EFFECT_WORTH.get(effect.kind, 1.0) for effect in favor.action.effects)


class BlastAI(AI):
    """A heuristic Blast player; subclasses set ``weights``."""

    name = "blast"
    rulesets = ("blast",)  # plans on the Blast view (glyphs, favors, challenges)
    weights: BlastWeights = GLYPH

    def choose_action(self, view: MatchView) -> Action:
        return decide(view, self.weights)

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        """The deployment cells nearest the glyph cells (ties: the board's cell order)."""
        bv = blast_view(view)
        board = view.board
        glyphs = [c for c in range(board.n_cells) if (bv.glyph_cells >> c) & 1]
        ranked = sorted(cells, key=lambda c: (min((board.distance[c][g] for g in glyphs), default=0), c))
        return ranked[: len(fighters)]

    def choose_favor_slot(self, view: MatchView, favor: FavorSpec, slots: list[FavorSpec | None]) -> int:
        """R-B9: cover the favor worth less (an empty slot first)."""
        worth = [favor_worth(slot) for slot in slots]
        return worth.index(min(worth))

    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int:
        return next_to_act(view, self.weights, candidates)


class GlyphAI(BlastAI):
    name = "blast_glyph"
    weights = GLYPH


class BrawlerAI(BlastAI):
    name = "blast_brawler"
    weights = BRAWLER
