"""Typed events: the common language of statistics, replays and golden transcripts.

Recording is opt-in by level so bulk runs pay nothing: ``none`` records nothing, ``summary``
records KOs, the ruleset's summary events (e.g. Arena's turn ends and GG changes) and the end of the
match, ``full`` records every step. A ruleset's own events live in its package (``rulesets/arena/
events.py``, ``rulesets/blast/events.py``), subclasses of :class:`Event`.

Each event's ``kind`` (its name in the events table) is a read-only property rather than a
``ClassVar`` field: mypyc, which compiles this module for the benchmark's mypyc column
(``krosbalance.tools.mypyc_copy``), still treats a ``ClassVar`` on a dataclass as a field
(mypyc/mypyc#1122), so new events should follow the same pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

from krosbalance.content.specs import Frozen

NONE, SUMMARY, FULL = 0, 1, 2
LEVELS: dict[str, int] = {"none": NONE, "summary": SUMMARY, "full": FULL}


@dataclass(frozen=True, slots=True)
class Event(Frozen):
    turn: int

    @property
    def kind(self) -> str:
        return "event"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    side: int

    @property
    def kind(self) -> str:
        return "turn_started"

    def __str__(self) -> str:
        return f"turn {self.turn}: player {self.side} begins"


@dataclass(frozen=True, slots=True)
class CharacterTurnStarted(Event):
    uid: int
    name: str
    mp: int
    ap: int

    @property
    def kind(self) -> str:
        return "character_turn_started"

    def __str__(self) -> str:
        return f"  {self.name}#{self.uid} acts with {self.mp} MP and {self.ap} AP"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    uid: int
    origin: int
    destination: int
    how: str  # "walk", "push", "attract", "retreat", "approach", "swap", "deploy"

    @property
    def kind(self) -> str:
        return "moved"

    def __str__(self) -> str:
        return f"    #{self.uid} {self.how} {self.origin} -> {self.destination}"


@dataclass(frozen=True, slots=True)
class LockRolled(Event):
    mover: int
    locker: int
    lock: int
    dodge: int
    blocked: bool

    @property
    def kind(self) -> str:
        return "lock_rolled"

    def __str__(self) -> str:
        verdict = "blocked" if self.blocked else "escapes"
        return f"    #{self.locker} locks #{self.mover}: {self.lock} lock vs {self.dodge} dodge, {verdict}"


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    uid: int
    spell: str
    target: int

    @property
    def kind(self) -> str:
        return "spell_cast"

    def __str__(self) -> str:
        return f"    #{self.uid} casts {self.spell} on cell {self.target}"


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    uid: int
    roll: str
    faces: tuple[int, ...]
    successes: int

    @property
    def kind(self) -> str:
        return "dice_rolled"

    def __str__(self) -> str:
        return f"      #{self.uid} {self.roll} roll: {self.successes} success(es)"


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    source: int
    target: int
    amount: int
    element: str

    @property
    def kind(self) -> str:
        return "damaged"

    def __str__(self) -> str:
        return f"      #{self.target} takes {self.amount} {self.element} injury(ies) from #{self.source}"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    source: int
    target: int
    amount: int

    @property
    def kind(self) -> str:
        return "healed"

    def __str__(self) -> str:
        return f"      #{self.target} heals {self.amount} from #{self.source}"


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    uid: int
    by: int  # -1 when nobody (a removed token)

    @property
    def kind(self) -> str:
        return "knocked_out"

    def __str__(self) -> str:
        return f"      #{self.uid} is KO (by #{self.by})"


@dataclass(frozen=True, slots=True)
class Summoned(Event):
    summoner: int
    uid: int
    character: str
    cell: int

    @property
    def kind(self) -> str:
        return "summoned"

    def __str__(self) -> str:
        return f"    #{self.summoner} summons {self.character}#{self.uid} at {self.cell}"


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: int  # the winning partnership (the seat, without partnerships), -1 for a draw
    reason: str

    @property
    def kind(self) -> str:
        return "match_ended"

    def __str__(self) -> str:
        who = "draw" if self.winner < 0 else f"player {self.winner} wins"
        return f"match over after turn {self.turn}: {who} ({self.reason})"
