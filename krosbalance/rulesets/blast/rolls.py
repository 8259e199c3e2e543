"""Blast's dice: the one-die combat roll (R-B30, R-B31, R-B33) and the dodge roll of the tackle zone
(R-B34-R-B39), with their exact odds for AIs.

A raw face is the engine's (``krosbalance.engine.dice``): CRITICAL, ARMOUR, LOCK, DODGE, CRIT_DODGE,
DOFUS. With the ``basic`` faces (first game) only the printed faces count: Critical and
Critical/Dodge add 1 damage, Armour removes 1, and only the Dodge face frees a Combatant. With the
``advanced`` faces the Dofus face is a joker and Critical/Dodge a half joker, turned by the roller
into the face that helps him: Critical in a combat roll, Dodge in a dodge roll (R-B33, R-B38).
"""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK

FREE, GRABBED, TACKLED = range(3)
OUTCOMES: tuple[str, ...] = ("free", "grabbed", "tackled")


def combat_delta(face: int, advanced: bool) -> int:
    """Damage added by one combat die: +1 (a weak point), -1 (the target defends) or 0 (R-B30)."""
    if face in (CRITICAL, CRIT_DODGE) or (advanced and face == DOFUS):
        return 1
    if face == ARMOUR:
        return -1
    return 0


def is_dodge(face: int, advanced: bool) -> bool:
    """Whether a dodge die shows Dodge once the roller has turned it (R-B36, R-B38)."""
    return face == DODGE or (advanced and face in (CRIT_DODGE, DOFUS))


def dodge_outcome(faces: tuple[int, ...], advanced: bool) -> int:
    """``FREE`` when every die shows Dodge; else ``TACKLED`` when any shows Lock, else ``GRABBED``
    (R-B36, R-B37)."""
    if all(is_dodge(face, advanced) for face in faces):
        return FREE
    return TACKLED if any(face == LOCK for face in faces) else GRABBED


def combat_odds(advanced: bool) -> tuple[float, float, float]:
    """P(+1), P(0), P(-1) of one combat die (basic 2/6, 3/6, 1/6; advanced 3/6, 2/6, 1/6)."""
    plus = 3 / 6 if advanced else 2 / 6
    return plus, 1.0 - plus - 1 / 6, 1 / 6


def expected_combat_delta(advanced: bool, reroll: bool = False) -> float:
    """Expected damage a combat die adds; ``reroll``: a -1 result is rolled again once."""
    plus, _, minus = combat_odds(advanced)
    once = plus - minus
    return once + minus * (once + 1.0) if reroll else once


def dodge_odds(n_dice: int, advanced: bool) -> tuple[float, float, float]:
    """P(free), P(grabbed), P(tackled) of a dodge roll with ``n_dice`` dice (R-B38): advanced 1 die
    1/2, 1/3, 1/6; 2 dice 1/4, 4/9, 11/36."""
    if n_dice <= 0:
        return 1.0, 0.0, 0.0
    p_dodge = 3 / 6 if advanced else 1 / 6
    free = p_dodge**n_dice
    no_lock = (5 / 6) ** n_dice
    return free, no_lock - free, 1.0 - no_lock
