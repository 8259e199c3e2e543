"""What a duel player may know of the Duel Pack's holdings: a read-only view for AIs
(``MatchView.ruleset_view()`` under the duel ruleset).

A player knows his own tokens, every revealed token, the face-up tokens of the tactical draft and
the level of every face-down token (printed on its back); he never learns the bonuses of a token on a
duel cell (placed without looking, R-D19) or of his opponent's face-down tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.content.duel import TOKEN_LEVELS, DuelTokenSpec
from krosbalance.rulesets.duel.actions import pick_cost

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.engine.view import FighterView
    from krosbalance.rulesets.duel.options import DuelOptions
    from krosbalance.rulesets.duel.state import DuelState


class DuelView:
    """The duel holdings as player ``side`` sees them."""

    __slots__ = ("_s", "_d", "options", "side")

    def __init__(self, state: MatchState, ds: DuelState, options: DuelOptions, side: int) -> None:
        self._s = state
        self._d = ds
        self.options = options
        self.side = side

    @property
    def duel_level(self) -> int:
        return self._d.duel_level

    @property
    def duel_cells(self) -> int:
        """The board's duel cells, a mask."""
        return self._d.duel_cells

    def token_levels_on_cells(self) -> dict[int, int]:
        """Cell -> level of the face-down token lying there."""
        return {cell: token.level for cell, token in sorted(self._d.on_cells.items())}

    def own_hidden(self, fighter: FighterView) -> list[DuelTokenSpec]:
        """The face-down tokens of one of this player's Krosmasters (empty for an enemy's)."""
        if fighter.side != self.side:
            return []
        return list(self._d.hidden.get(fighter.uid, ()))

    def hidden_levels(self, fighter: FighterView) -> list[int]:
        """The levels of a Krosmaster's face-down tokens (their backs are public)."""
        return [t.level for t in self._d.hidden.get(fighter.uid, ())]

    def shown(self, fighter: FighterView) -> list[DuelTokenSpec]:
        """A Krosmaster's revealed tokens."""
        return list(self._d.shown.get(fighter.uid, ()))

    def pick_cost(self, fighter: FighterView, level: int) -> int:
        """R-D25: AP for this Krosmaster to pick up a token of ``level``."""
        return pick_cost(self._s.fighters[fighter.uid], level)

    def unseen(self, level: int) -> list[DuelTokenSpec]:
        """The tokens of a level this player has not seen, by id: what a face-down one may be."""
        seen: set[str] = set()
        for fighter in self._s.fighters:
            if fighter.side == self.side:
                seen.update(t.id for t in self._d.hidden.get(fighter.uid, ()))
        for tokens in self._d.shown.values():
            seen.update(t.id for t in tokens)
        seen.update(t.id for t in self._d.face_up if t is not None)
        return sorted((t for t in self._d.token_set.of_level(level) if t.id not in seen), key=lambda t: t.id)

    def levels(self) -> tuple[int, ...]:
        return TOKEN_LEVELS
