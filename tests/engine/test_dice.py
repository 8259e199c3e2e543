"""Dice (R-A12-R-A16): the deterministic parts. The large-sample statistics live elsewhere."""

from __future__ import annotations

import itertools

import pytest

from krosbalance.engine.dice import (
    ARMOUR,
    BASIC_FACES,
    CRIT_DODGE,
    CRITICAL,
    DODGE,
    DOFUS,
    FACE_NAMES,
    LOCK,
    SUCCESS_FACES,
    TURNABLE,
    ScriptedDice,
    count_successes,
)
from krosbalance.engine.view import BLOCK_CHANCE
from krosbalance.errors import ScriptExhaustedError
from krosbalance.rulesets.arena.tension import tension_options
from krosbalance.testing import Scenario

ALL_FACES = (CRITICAL, ARMOUR, LOCK, DODGE, CRIT_DODGE, DOFUS)


def test_r_a12_the_die_has_six_faces():
    assert ALL_FACES == (0, 1, 2, 3, 4, 5)
    assert FACE_NAMES == ("critical", "armour", "lock", "dodge", "critical/dodge", "dofus")


def test_r_a13_wild_faces_turn_only_into_basic_faces():
    assert TURNABLE[CRIT_DODGE] == (CRITICAL, DODGE)
    assert TURNABLE[DOFUS] == BASIC_FACES == (CRITICAL, ARMOUR, LOCK, DODGE)
    for face in BASIC_FACES:
        assert TURNABLE[face] == (face,)
    assert tension_options(CRIT_DODGE, DOFUS) == [(a, b) for a in (CRITICAL, DODGE) for b in BASIC_FACES]
    assert tension_options(LOCK, ARMOUR) == [(LOCK, ARMOUR)]


@pytest.mark.parametrize(
    ("kind", "succeeding"),
    [
        (CRITICAL, {CRITICAL, CRIT_DODGE, DOFUS}),
        (ARMOUR, {ARMOUR, DOFUS}),
        (LOCK, {LOCK, DOFUS}),
        (DODGE, {DODGE, CRIT_DODGE, DOFUS}),
    ],
)
def test_r_a14_r_a15_each_roll_counts_its_own_faces_with_wild_faces_turned_to_success(kind, succeeding):
    assert SUCCESS_FACES[kind] == succeeding
    dice = ScriptedDice(list(ALL_FACES))
    hits = [count_successes(dice, 1, kind)[0] for _ in ALL_FACES]
    assert hits == [1 if face in succeeding else 0 for face in ALL_FACES]
    assert dice.remaining == 0


def test_r_a14_two_dice_count_two_successes():
    dice = ScriptedDice([DOFUS, CRIT_DODGE, ARMOUR, LOCK])
    assert count_successes(dice, 2, CRITICAL) == (2, (DOFUS, CRIT_DODGE))
    assert count_successes(dice, 2, ARMOUR) == (1, (ARMOUR, LOCK))
    assert dice.remaining == 0


def test_r_a15_success_counts_per_die_three_two_two_three():
    assert [len(SUCCESS_FACES[k]) for k in (CRITICAL, ARMOUR, LOCK, DODGE)] == [3, 2, 2, 3]


def test_scripted_dice_fail_loudly_when_the_script_runs_out():
    dice = ScriptedDice([CRITICAL])
    assert dice.roll() == CRITICAL
    with pytest.raises(ScriptExhaustedError):
        dice.roll()


def _block(lock_faces: tuple[int, ...], dodge_faces: tuple[int, ...]) -> bool:
    """Walk a mover away from one locker with these exact faces; return whether it was blocked."""
    lock_hits = sum(1 for f in lock_faces if f in SUCCESS_FACES[LOCK])
    script = list(lock_faces) + (list(dodge_faces) if lock_hits else [])
    sc = Scenario(". . .", dice=script)
    mover = sc.add("bill_tell" if len(dodge_faces) == 2 else "anna_tommy", side=0, at=(1, 0))
    sc.add("king_of_the_gobballs" if len(lock_faces) == 2 else "oscar_kass", side=1, at=(2, 0))
    sc.activate(mover)
    sc.move(mover, (0, 0))
    assert sc.dice.remaining == 0
    return mover.blocked


@pytest.mark.parametrize(
    ("n_lock", "n_dodge", "expected"), [(1, 1, 1 / 6), (2, 1, 1 / 3), (1, 2, 1 / 12), (2, 2, 7 / 36)]
)
def test_r_a16_block_probability_by_exhaustive_scripted_dice(n_lock, n_dodge, expected):
    """Every equally likely face combination, played through the engine's walk: the blocked share is
    the rulebook's 1/6, 1/3, 1/12 and 7/36 (and the AI view's table agrees)."""
    blocked = total = 0
    for lock_faces in itertools.product(ALL_FACES, repeat=n_lock):
        for dodge_faces in itertools.product(ALL_FACES, repeat=n_dodge):
            total += 1
            blocked += _block(lock_faces, dodge_faces)
    assert blocked / total == pytest.approx(expected)
    assert BLOCK_CHANCE[n_lock][n_dodge] == pytest.approx(expected)
