"""What a Blast player sees of the Blast holdings: glyphs, tiles, the Dofus token, favors and Divine
Challenges — read-only, for AIs (``MatchView.ruleset_view()`` under the Blast ruleset).

Everything here is public information in the real game (the favor deck is face down: only how many
favors are left is known).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.rulesets.blast.actions import favor_cost
from krosbalance.rulesets.blast.passives import SPELL_DAMAGE, active_passives
from krosbalance.rulesets.blast.rolls import dodge_odds, expected_combat_delta
from krosbalance.rulesets.blast.state import FIRE, FOG, ICE, SLOTS

if TYPE_CHECKING:
    from krosbalance.content.blast import ChallengeBonusSpec, FavorSpec
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState


class BlastView:
    """Read-only Blast facts for player ``side``."""

    __slots__ = ("_s", "_bs", "_opts", "side")

    def __init__(self, state: MatchState, bs: BlastState, opts: BlastOptions, side: int) -> None:
        self._s = state
        self._bs = bs
        self._opts = opts
        self.side = side

    # ------------------------------------------------------------------ glyphs and the clock
    @property
    def glyph_cells(self) -> int:
        """Every glyph cell of the board (a mask)."""
        return self._bs.glyph_cells

    def owned(self, side: int) -> int:
        """The glyph cells ``side`` controls (a mask)."""
        return self._bs.owned[side]

    def glyphs(self, side: int) -> int:
        return self._bs.owned[side].bit_count()

    @property
    def dofus(self) -> int:
        """The player holding the Dofus token."""
        return self._bs.dofus

    @property
    def favors_left(self) -> int:
        """Favors still in the deck: the player turns left in the game after the current one."""
        return len(self._bs.deck)

    def turns_left(self, side: int) -> int:
        """Player turns ``side`` still has after the current turn, if no KO ends the game."""
        left = len(self._bs.deck)
        if side == self._s.active_side:
            return left // 2
        return (left + 1) // 2

    # ------------------------------------------------------------------ favors and challenges
    def slots(self) -> list[tuple[FavorSpec | None, bool]]:
        """Each slot's favor and whether its player used it this turn."""
        return [(self._bs.slots[i], self._bs.slot_used[i]) for i in range(SLOTS)]

    def favor_cost(self, side: int) -> int:
        return favor_cost(self._bs, side)

    @property
    def bonuses(self) -> tuple[ChallengeBonusSpec, ...]:
        """The bonuses of the Divine Challenges in play (action ``spell`` indices)."""
        return self._bs.bonuses

    def tier(self, bonus: int) -> int:
        """The glyph cells bonus ``bonus`` needs."""
        return self._bs.tiers[bonus]

    def has_tier(self, side: int, bonus: int) -> bool:
        return self._bs.has_tier(side, bonus)

    def spell_bonus(self, uid: int) -> int:
        """Damage the fighter's next damaging spell this turn gains (Brasier)."""
        return self._bs.spell_bonus.get(uid, 0)

    def damage_bonus(self, side: int) -> int:
        """Damage ``side``'s Krosmasters' damaging spells gain from passives now (Force décuplée)."""

        found = active_passives(self._bs, side, SPELL_DAMAGE, self._bs.glyphs(side))
        return sum(int(params["amount"]) for _, _, params in found)

    # ------------------------------------------------------------------ terrain
    @property
    def ice(self) -> int:
        return self._bs.terrain(ICE)

    @property
    def fire(self) -> int:
        return self._bs.terrain(FIRE)

    @property
    def fog(self) -> int:
        return self._bs.terrain(FOG)

    # ------------------------------------------------------------------ dice and options
    @property
    def options(self) -> BlastOptions:
        return self._opts

    @property
    def tackle_zone(self) -> bool:
        return self._opts.tackle_zone

    def zone_of(self, side: int) -> int:
        """Cells in the tackle zone of ``side``'s Krosmasters (empty without the tackle zone)."""
        if not self._opts.tackle_zone:
            return 0
        mask = 0
        for f in self._s.timeline[side]:
            if f.alive and f.cell >= 0:
                mask |= self._s.board.neighbour_mask[f.cell]
        return mask

    def escape_chance(self, enemies: int) -> float:
        """Chance to walk out of the zones of ``enemies`` enemy Krosmasters (R-B36-R-B38)."""
        if not self._opts.tackle_zone or enemies <= 0:
            return 1.0
        dice = 1 if enemies == 1 else (2 if self._opts.tackle_dice_several == "two" else enemies)
        return dodge_odds(dice, self._opts.dice_faces == "advanced")[0]

    @property
    def expected_roll(self) -> float:
        """Expected damage a combat die adds."""
        return expected_combat_delta(self._opts.dice_faces == "advanced")
