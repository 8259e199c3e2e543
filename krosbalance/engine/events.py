"""Typed events: the common language of statistics, replays and golden transcripts.

Recording is opt-in by level so bulk runs pay nothing: ``none`` records nothing, ``summary``
records turn ends, KOs, GG changes and the end of the match, ``full`` records every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from krosbalance.engine.dice import FACE_NAMES

NONE, SUMMARY, FULL = 0, 1, 2
LEVELS: dict[str, int] = {"none": NONE, "summary": SUMMARY, "full": FULL}


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    turn: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    side: int

    def __str__(self) -> str:
        return f"turn {self.turn}: player {self.side} begins"


@dataclass(frozen=True, slots=True)
class TensionRolled(Event):
    kind: ClassVar[str] = "tension_rolled"
    side: int
    raw: tuple[int, int]
    faces: tuple[int, int]
    double: bool
    assigned: tuple[int, int]  # uid given each die for inspiration, -1 = refunded

    def __str__(self) -> str:
        faces = " + ".join(FACE_NAMES[f] for f in self.faces)
        tail = " — tension rises" if self.double else ""
        return f"  tension roll {faces}, dice to {self.assigned}{tail}"


@dataclass(frozen=True, slots=True)
class CharacterTurnStarted(Event):
    kind: ClassVar[str] = "character_turn_started"
    uid: int
    name: str
    mp: int
    ap: int

    def __str__(self) -> str:
        return f"  {self.name}#{self.uid} acts with {self.mp} MP and {self.ap} AP"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    uid: int
    origin: int
    destination: int
    how: str  # "walk", "push", "attract", "retreat", "approach", "swap", "deploy"

    def __str__(self) -> str:
        return f"    #{self.uid} {self.how} {self.origin} -> {self.destination}"


@dataclass(frozen=True, slots=True)
class LockRolled(Event):
    kind: ClassVar[str] = "lock_rolled"
    mover: int
    locker: int
    lock: int
    dodge: int
    blocked: bool

    def __str__(self) -> str:
        verdict = "blocked" if self.blocked else "escapes"
        return f"    #{self.locker} locks #{self.mover}: {self.lock} lock vs {self.dodge} dodge, {verdict}"


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    kind: ClassVar[str] = "spell_cast"
    uid: int
    spell: str
    target: int

    def __str__(self) -> str:
        return f"    #{self.uid} casts {self.spell} on cell {self.target}"


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    kind: ClassVar[str] = "dice_rolled"
    uid: int
    roll: str
    faces: tuple[int, ...]
    successes: int

    def __str__(self) -> str:
        return f"      #{self.uid} {self.roll} roll: {self.successes} success(es)"


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    kind: ClassVar[str] = "damaged"
    source: int
    target: int
    amount: int
    element: str

    def __str__(self) -> str:
        return f"      #{self.target} takes {self.amount} {self.element} injury(ies) from #{self.source}"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    kind: ClassVar[str] = "healed"
    source: int
    target: int
    amount: int

    def __str__(self) -> str:
        return f"      #{self.target} heals {self.amount} from #{self.source}"


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    kind: ClassVar[str] = "knocked_out"
    uid: int
    by: int  # -1 when nobody (a removed token)

    def __str__(self) -> str:
        return f"      #{self.uid} is KO (by #{self.by})"


@dataclass(frozen=True, slots=True)
class GGChanged(Event):
    kind: ClassVar[str] = "gg_changed"
    side: int  # the side gaining (or losing, for tension)
    amount: int
    origin: str  # "wild", "opponent", "tension"
    gg: tuple[int, int]

    def __str__(self) -> str:
        return f"    GG: player {self.side} {self.amount:+d} ({self.origin}) -> {self.gg}"


@dataclass(frozen=True, slots=True)
class KamaPicked(Event):
    kind: ClassVar[str] = "kama_picked"
    uid: int
    cell: int
    amount: int

    def __str__(self) -> str:
        return f"    #{self.uid} gains {self.amount} kama(s) at {self.cell}"


@dataclass(frozen=True, slots=True)
class Summoned(Event):
    kind: ClassVar[str] = "summoned"
    summoner: int
    uid: int
    character: str
    cell: int

    def __str__(self) -> str:
        return f"    #{self.summoner} summons {self.character}#{self.uid} at {self.cell}"


@dataclass(frozen=True, slots=True)
class RewardBought(Event):
    """A Demonic Reward bought on a Demon cell (R-A51, R-A52). ``reward`` is recorded for the log;
    the opponent's view never shows a face-down token (``engine.view``)."""

    kind: ClassVar[str] = "reward_bought"
    buyer: int
    holder: int
    reward: str
    rank: str
    visible: bool  # a face-up token (True) or a random face-down one (False)

    def __str__(self) -> str:
        how = "face-up" if self.visible else "random face-down"
        return f"    #{self.buyer} buys {how} {self.rank} reward {self.reward} for #{self.holder}"


@dataclass(frozen=True, slots=True)
class RewardRevealed(Event):
    """A Demonic Reward turned face up (R-A54); ``detail`` is its kind, or a coin toss's result."""

    kind: ClassVar[str] = "reward_revealed"
    uid: int
    reward: str
    detail: str

    def __str__(self) -> str:
        return f"    #{self.uid} reveals {self.reward} ({self.detail})"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    side: int
    gg: tuple[int, int]
    positions: tuple[tuple[int, str, int, int, int], ...]  # (uid, character, side, cell, injuries)

    def __str__(self) -> str:
        return f"  end of turn {self.turn}: GG {self.gg}"


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    kind: ClassVar[str] = "match_ended"
    winner: int  # -1 for a draw
    reason: str

    def __str__(self) -> str:
        who = "draw" if self.winner < 0 else f"player {self.winner} wins"
        return f"match over after turn {self.turn}: {who} ({self.reason})"
