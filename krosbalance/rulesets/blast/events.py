"""Blast's typed events, recorded at the ``full`` level like the engine's step events.

Each event's ``kind`` is a read-only property (not a ``ClassVar`` field), as in
``krosbalance.engine.events``, so the compiled build treats them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from krosbalance.engine.dice import FACE_NAMES
from krosbalance.engine.events import Event
from krosbalance.rulesets.blast.rolls import OUTCOMES


@dataclass(frozen=True, slots=True)
class FavorRevealed(Event):
    side: int
    favor: str
    slot: int  # 0 left, 1 right (R-B9)

    @property
    def kind(self) -> str:
        return "favor_revealed"

    def __str__(self) -> str:
        return f"  player {self.side} reveals {self.favor} ({'left' if self.slot == 0 else 'right'})"


@dataclass(frozen=True, slots=True)
class BonusUsed(Event):
    uid: int
    bonus: str  # "favor:<id>" or "challenge:<challenge id>/<bonus id>"
    target: int
    ap: int  # AP paid

    @property
    def kind(self) -> str:
        return "bonus_used"

    def __str__(self) -> str:
        return f"    #{self.uid} uses {self.bonus} on {self.target} ({self.ap} AP)"


@dataclass(frozen=True, slots=True)
class GlyphCaptured(Event):
    uid: int
    side: int
    cell: int
    flipped: bool  # it was the opponent's
    glyphs: tuple[int, int]

    @property
    def kind(self) -> str:
        return "glyph_captured"

    def __str__(self) -> str:
        how = "takes" if self.flipped else "captures"
        return f"    #{self.uid} {how} glyph {self.cell} -> glyphs {self.glyphs}"


@dataclass(frozen=True, slots=True)
class DofusTaken(Event):
    side: int

    @property
    def kind(self) -> str:
        return "dofus_taken"

    def __str__(self) -> str:
        return f"    player {self.side} takes the Dofus token"


@dataclass(frozen=True, slots=True)
class TerrainChanged(Event):
    terrain: str
    cell: int
    placed: bool  # False: removed (a fifth tile, a Fog dissipated)

    @property
    def kind(self) -> str:
        return "terrain_changed"

    def __str__(self) -> str:
        return f"    {self.terrain} tile {'placed on' if self.placed else 'removed from'} {self.cell}"


@dataclass(frozen=True, slots=True)
class CombatRolled(Event):
    uid: int
    faces: tuple[int, ...]
    delta: int

    @property
    def kind(self) -> str:
        return "combat_rolled"

    def __str__(self) -> str:
        faces = ", ".join(FACE_NAMES[f] for f in self.faces)
        return f"      #{self.uid} combat roll {faces}: {self.delta:+d}"


@dataclass(frozen=True, slots=True)
class DodgeRolled(Event):
    uid: int
    faces: tuple[int, ...]
    outcome: int  # rolls.FREE / GRABBED / TACKLED

    @property
    def kind(self) -> str:
        return "dodge_rolled"

    def __str__(self) -> str:
        faces = ", ".join(FACE_NAMES[f] for f in self.faces)
        return f"    #{self.uid} dodge roll {faces}: {OUTCOMES[self.outcome]}"


@dataclass(frozen=True, slots=True)
class GlyphCount(Event):
    """The end of a Blast player turn: each player's glyph cells and the favors left."""

    side: int
    glyphs: tuple[int, int]
    favors_left: int

    @property
    def kind(self) -> str:
        return "glyph_count"

    def __str__(self) -> str:
        return f"  end of turn {self.turn}: glyphs {self.glyphs}, {self.favors_left} favor(s) left"
