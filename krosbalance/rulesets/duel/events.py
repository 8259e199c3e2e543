"""The Duel Pack's typed events, recorded at the ``full`` level like the engine's step events.

Each event's ``kind`` is a read-only property (not a ``ClassVar`` field), as in
``krosbalance.engine.events``, so the compiled build treats them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from krosbalance.engine.events import Event


@dataclass(frozen=True, slots=True)
class TokenDrafted(Event):
    """R-D16, R-D17: a player took a token for one of his Krosmasters (``face_up``: a face-up one of
    the tactical draft)."""

    side: int
    uid: int
    token: str
    level: int
    face_up: bool

    @property
    def kind(self) -> str:
        return "token_drafted"

    def __str__(self) -> str:
        how = "face-up" if self.face_up else "face-down"
        return f"  player {self.side} drafts a {how} level-{self.level} token for #{self.uid}"


@dataclass(frozen=True, slots=True)
class TokenHeldFromStart(Event):
    """Not a rule (study option ``start_token_levels``): before the draft, player ``side`` was given a
    token of ``level`` face down on the card of #``uid``, as if already picked up."""

    side: int
    uid: int
    token: str
    level: int

    @property
    def kind(self) -> str:
        return "token_held_from_start"

    def __str__(self) -> str:
        return f"  player {self.side} holds a level-{self.level} token on #{self.uid} from the start"


@dataclass(frozen=True, slots=True)
class TokenPlaced(Event):
    """R-D19, R-D39: a token drawn without looking was put face down on a duel cell."""

    side: int
    cell: int
    token: str
    level: int

    @property
    def kind(self) -> str:
        return "token_placed"

    def __str__(self) -> str:
        return f"  player {self.side} places a level-{self.level} token on cell {self.cell}"


@dataclass(frozen=True, slots=True)
class TokenRevealed(Event):
    """R-D21: a face-down token of a Krosmaster turned face up; its bonuses are permanent."""

    uid: int
    token: str
    mp: int
    hp: int
    ap: int
    range: int

    @property
    def kind(self) -> str:
        return "token_revealed"

    def __str__(self) -> str:
        return f"  #{self.uid} reveals {self.token}: +{self.mp} MP +{self.hp} HP +{self.ap} AP +{self.range} range"


@dataclass(frozen=True, slots=True)
class TokenPicked(Event):
    """R-D25: a Krosmaster picked up the token on its cell for its level + the token's level in AP."""

    uid: int
    cell: int
    token: str
    ap: int

    @property
    def kind(self) -> str:
        return "token_picked"

    def __str__(self) -> str:
        return f"    #{self.uid} picks up the token on cell {self.cell} ({self.ap} AP)"


@dataclass(frozen=True, slots=True)
class DuelTurnEnded(Event):
    """The end of a player's turn, with every piece's position (for replays, which read the
    ``turn_ended`` events' positions); the Duel Pack has no GG to record."""

    side: int
    positions: tuple[tuple[int, str, int, int, int], ...]  # (uid, character, side, cell, injuries)

    @property
    def kind(self) -> str:
        return "turn_ended"

    def __str__(self) -> str:
        return f"  end of turn {self.turn}"
