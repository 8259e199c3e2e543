"""Krosmaster Blast's own match state: glyphs, terrain tiles, the Dofus token, the favor deck and
slots, the Divine Challenges in play, and the per-turn limits (R-B9-R-B18, R-B40-R-B45).

The ruleset creates it with every ``MatchState`` (``BlastRuleset.new_state``) and keeps it in
``state.rules``; only Blast's code writes it. ``blast_state(state)`` gives it typed. Cell sets are
int bitmasks like the engine's. Counters for the Divine Challenge study (the most glyphs each
player held, when each tier was first reached, bonus uses) are updated as play happens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.engine.rules import RulesetState

if TYPE_CHECKING:
    from krosbalance.content.blast import ChallengeBonusSpec, ChallengeSpec, FavorSpec
    from krosbalance.engine.state import MatchState

ICE, FIRE, FOG = range(3)
TERRAIN_NAMES: tuple[str, ...] = ("ice", "fire", "fog")
TERRAIN_INDEX: dict[str, int] = {name: i for i, name in enumerate(TERRAIN_NAMES)}
SLOTS = 2  #: the favor slots left and right of the deck (R-B9)


class BlastState(RulesetState):
    """The Blast holdings of one match.

    Attributes:
        glyph_cells: the board's glyph cells (a mask).
        owned: the glyph cells each player controls (two disjoint masks, R-B14).
        tiles: per terrain type (``ICE``, ``FIRE``, ``FOG``), the cells holding such a tile, oldest
            first (R-B44, R-B45).
        dofus: the player holding the Dofus token (R-B8, R-B15).
        deck: the favor deck, top card last (R-B9).
        slots: the favors left (0) and right (1) of the deck, or None (R-B9).
        slot_used: whether the active player used the favor of each slot this turn (R-B18).
        challenges: the Divine Challenges in play (R-B40).
        bonuses: every bonus of those challenges, flattened; ``tiers[i]`` the glyph cells bonus ``i``
            needs under the tier reading in force (R-B41).
        bonus_used: (Krosmaster uid, bonus index) pairs used this turn (R-B43).
        spell_bonus: uid -> damage the Krosmaster's next damaging spell gains this turn (Brasier).
        rerolled: (uid, source) pairs that used a once-per-turn reroll this turn.
        peak: the most glyph cells each player has controlled at once.
        tier_turn: per player, the game turn each tier 1, 3, 5 was first reached (0 = never).
        bonus_uses: per player, per bonus index, how often it acted (actives used, passives triggered).
        favor_uses, captures: per player, favors used and glyph cells captured.
        end_glyphs: the glyph counts when the match ended (written at the end).
    """

    __slots__ = (
        "glyph_cells",
        "owned",
        "tiles",
        "dofus",
        "deck",
        "slots",
        "slot_used",
        "challenges",
        "bonuses",
        "tiers",
        "bonus_used",
        "spell_bonus",
        "rerolled",
        "peak",
        "tier_turn",
        "bonus_uses",
        "favor_uses",
        "captures",
    )

    def __init__(self, glyph_cells: int) -> None:
        self.glyph_cells = glyph_cells
        self.owned: list[int] = [0, 0]
        self.tiles: list[list[int]] = [[], [], []]
        self.dofus = 1
        self.deck: list[FavorSpec] = []
        self.slots: list[FavorSpec | None] = [None] * SLOTS
        self.slot_used: list[bool] = [False] * SLOTS
        self.challenges: tuple[ChallengeSpec, ...] = ()
        self.bonuses: tuple[ChallengeBonusSpec, ...] = ()
        self.tiers: tuple[int, ...] = ()
        self.bonus_used: set[tuple[int, int]] = set()
        self.spell_bonus: dict[int, int] = {}
        self.rerolled: set[tuple[int, str]] = set()
        self.peak: list[int] = [0, 0]
        self.tier_turn: list[list[int]] = [[0, 0, 0], [0, 0, 0]]
        self.bonus_uses: list[list[int]] = [[], []]
        self.favor_uses: list[int] = [0, 0]
        self.captures: list[int] = [0, 0]

    def copy(self) -> BlastState:
        other = BlastState(self.glyph_cells)
        other.owned = list(self.owned)
        other.tiles = [list(cells) for cells in self.tiles]
        other.dofus = self.dofus
        other.deck = list(self.deck)
        other.slots = list(self.slots)
        other.slot_used = list(self.slot_used)
        other.challenges = self.challenges
        other.bonuses = self.bonuses
        other.tiers = self.tiers
        other.bonus_used = set(self.bonus_used)
        other.spell_bonus = dict(self.spell_bonus)
        other.rerolled = set(self.rerolled)
        other.peak = list(self.peak)
        other.tier_turn = [list(turns) for turns in self.tier_turn]
        other.bonus_uses = [list(uses) for uses in self.bonus_uses]
        other.favor_uses = list(self.favor_uses)
        other.captures = list(self.captures)
        return other

    # ------------------------------------------------------------------ reading
    def glyphs(self, side: int) -> int:
        """Glyph cells ``side`` controls now."""
        return self.owned[side].bit_count()

    def terrain(self, kind: int) -> int:
        """The cells holding a tile of one terrain type, as a mask."""
        mask = 0
        for cell in self.tiles[kind]:
            mask |= 1 << cell
        return mask

    def terrain_at(self, cell: int) -> int:
        """The terrain type on ``cell`` (``ICE``, ``FIRE``, ``FOG``), or -1."""
        for kind in (ICE, FIRE, FOG):
            if cell in self.tiles[kind]:
                return kind
        return -1

    def all_tiles(self) -> int:
        """Every cell holding a terrain tile, as a mask."""
        return self.terrain(ICE) | self.terrain(FIRE) | self.terrain(FOG)

    def has_tier(self, side: int, bonus: int) -> bool:
        """Whether ``side`` controls the glyph cells bonus ``bonus`` needs (R-B41, R-B42)."""
        return self.owned[side].bit_count() >= self.tiers[bonus]

    def tier_reached(self, side: int) -> tuple[bool, bool, bool]:
        """Whether ``side`` ever held 1, 3 and 5 glyph cells in this match."""
        turns = self.tier_turn[side]
        return (turns[0] > 0, turns[1] > 0, turns[2] > 0)


def blast_state(state: MatchState) -> BlastState:
    """The Blast state of a match played under the Blast ruleset."""
    return cast(BlastState, state.rules)
