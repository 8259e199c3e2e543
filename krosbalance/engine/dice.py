"""Krosmaster dice (R-A12-R-A16), injected so tests can script every roll.

A raw face is an int. Wild faces (Critical/Dodge and Dofus) are turned by the roller (R-A13); for
Critical, Armour, Lock and Dodge rolls the roller always turns them into a success, which is the only
rational choice for the side that rolls (documented assumption). A ruleset may leave the choice to
the player (``TURNABLE``: e.g. Arena's tension roll, where a player may want a double, R-A26).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from krosbalance.errors import ScriptExhaustedError

CRITICAL, ARMOUR, LOCK, DODGE, CRIT_DODGE, DOFUS = range(6)
FACE_NAMES: tuple[str, ...] = ("critical", "armour", "lock", "dodge", "critical/dodge", "dofus")
BASIC_FACES: tuple[int, ...] = (CRITICAL, ARMOUR, LOCK, DODGE)
#: which power each basic face gives through inspiration (R-A27)
FACE_POWER: tuple[str, ...] = ("critical", "armour", "lock", "dodge")

#: raw faces counting as a success for each kind of roll, wild faces turned by the roller (R-A15)
SUCCESS_FACES: dict[int, frozenset[int]] = {
    CRITICAL: frozenset({CRITICAL, CRIT_DODGE, DOFUS}),
    ARMOUR: frozenset({ARMOUR, DOFUS}),
    LOCK: frozenset({LOCK, DOFUS}),
    DODGE: frozenset({DODGE, CRIT_DODGE, DOFUS}),
}

#: basic faces a raw face may be turned into (R-A13)
TURNABLE: tuple[tuple[int, ...], ...] = (
    (CRITICAL,),
    (ARMOUR,),
    (LOCK,),
    (DODGE,),
    (CRITICAL, DODGE),
    BASIC_FACES,
)


class Dice(Protocol):
    """Anything that yields raw die faces (0-5)."""

    def roll(self) -> int: ...


class SeededDice:
    """Fair six-sided dice from a numpy Generator, drawn in blocks so a roll is a list pop."""

    __slots__ = ("_rng", "_buffer")

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._buffer: list[int] = []

    def roll(self) -> int:
        if not self._buffer:
            self._buffer = self._rng.integers(0, 6, size=512).tolist()
        return self._buffer.pop()


class ScriptedDice:
    """Dice that return a fixed script of faces, for rule tests; running out is a loud error."""

    __slots__ = ("_faces", "_next")

    def __init__(self, faces: list[int] | tuple[int, ...]) -> None:
        self._faces = list(faces)
        self._next = 0

    def roll(self) -> int:
        if self._next >= len(self._faces):
            raise ScriptExhaustedError(f"the dice script ran out after {len(self._faces)} rolls")
        face = self._faces[self._next]
        self._next += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    @property
    def left(self) -> list[int]:
        """The faces not rolled yet, in order (the scenario kit hands them to the native core)."""
        return self._faces[self._next :]


def count_successes(dice: Dice, n_dice: int, kind: int) -> tuple[int, tuple[int, ...]]:
    """Roll ``n_dice`` dice for a roll of ``kind``; return (successes, raw faces)."""
    wanted = SUCCESS_FACES[kind]
    faces = tuple(dice.roll() for _ in range(n_dice))
    return sum(1 for face in faces if face in wanted), faces
