"""Arena's typed events: the tension roll, GG and kamas, Demonic Rewards and the turn-end record.

Their ``kind`` strings and fields are those the engine recorded before the seam (the golden logs
hash kind and every field). Each ``kind`` is a read-only property (not a ``ClassVar`` field), as in
``krosbalance.engine.events``, so the compiled build treats them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from krosbalance.engine.dice import FACE_NAMES
from krosbalance.engine.events import Event


@dataclass(frozen=True, slots=True)
class TensionRolled(Event):
    side: int
    raw: tuple[int, int]
    faces: tuple[int, int]
    double: bool
    assigned: tuple[int, int]  # uid given each die for inspiration, -1 = refunded

    @property
    def kind(self) -> str:
        return "tension_rolled"

    def __str__(self) -> str:
        faces = " + ".join(FACE_NAMES[f] for f in self.faces)
        tail = " — tension rises" if self.double else ""
        return f"  tension roll {faces}, dice to {self.assigned}{tail}"


@dataclass(frozen=True, slots=True)
class GGChanged(Event):
    side: int  # the seat gaining (or losing, for tension)
    amount: int
    origin: str  # "wild", "opponent", "tension", "last_krosmaster" (R-A155)
    gg: tuple[int, ...]  # every seat's GG after the change

    @property
    def kind(self) -> str:
        return "gg_changed"

    def __str__(self) -> str:
        return f"    GG: player {self.side} {self.amount:+d} ({self.origin}) -> {self.gg}"


@dataclass(frozen=True, slots=True)
class KamaPicked(Event):
    uid: int
    cell: int
    amount: int

    @property
    def kind(self) -> str:
        return "kama_picked"

    def __str__(self) -> str:
        return f"    #{self.uid} gains {self.amount} kama(s) at {self.cell}"


@dataclass(frozen=True, slots=True)
class RewardBought(Event):
    """A Demonic Reward bought on a Demon cell (R-A51, R-A52). ``reward`` is recorded for the log;
    the opponent's view never shows a face-down token (``engine.view``)."""

    buyer: int
    holder: int
    reward: str
    rank: str
    visible: bool  # a face-up token (True) or a random face-down one (False)

    @property
    def kind(self) -> str:
        return "reward_bought"

    def __str__(self) -> str:
        how = "face-up" if self.visible else "random face-down"
        return f"    #{self.buyer} buys {how} {self.rank} reward {self.reward} for #{self.holder}"


@dataclass(frozen=True, slots=True)
class RewardRevealed(Event):
    """A Demonic Reward turned face up (R-A54); ``detail`` is its kind, or a coin toss's result."""

    uid: int
    reward: str
    detail: str

    @property
    def kind(self) -> str:
        return "reward_revealed"

    def __str__(self) -> str:
        return f"    #{self.uid} reveals {self.reward} ({self.detail})"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    side: int
    gg: tuple[int, ...]  # every seat's GG
    positions: tuple[tuple[int, str, int, int, int], ...]  # (uid, character, side, cell, injuries)

    @property
    def kind(self) -> str:
        return "turn_ended"

    def __str__(self) -> str:
        return f"  end of turn {self.turn}: GG {self.gg}"
