"""R-B30, R-B31, R-B33, R-B36-R-B38: the faces of the combat roll and of the dodge roll, and their odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK
from krosbalance.rulesets.blast.rolls import (
    FREE,
    GRABBED,
    TACKLED,
    combat_delta,
    combat_odds,
    dodge_odds,
    dodge_outcome,
    expected_combat_delta,
)

FACES = (CRITICAL, ARMOUR, LOCK, DODGE, CRIT_DODGE, DOFUS)


def test_r_b30_r_b31_basic_combat_faces() -> None:
    """First game: the two +1 faces are Critical and Critical/Dodge, the -1 face is Armour."""
    assert [combat_delta(f, advanced=False) for f in FACES] == [1, -1, 0, 0, 1, 0]


def test_r_b33_advanced_dofus_face_is_a_joker_turned_to_critical() -> None:
    assert [combat_delta(f, advanced=True) for f in FACES] == [1, -1, 0, 0, 1, 1]


@pytest.mark.parametrize("advanced", [False, True])
def test_r_b31_combat_odds_count_the_faces(advanced: bool) -> None:
    plus = sum(combat_delta(f, advanced) == 1 for f in FACES) / 6
    minus = sum(combat_delta(f, advanced) == -1 for f in FACES) / 6
    assert combat_odds(advanced) == pytest.approx((plus, 1 - plus - minus, minus))
    assert expected_combat_delta(advanced) == pytest.approx(plus - minus)


def test_r_b36_one_die_free_grabbed_tackled() -> None:
    assert dodge_outcome((DODGE,), advanced=False) == FREE
    assert dodge_outcome((CRIT_DODGE,), advanced=False) == GRABBED  # basic: only the plain Dodge face
    assert dodge_outcome((CRIT_DODGE,), advanced=True) == FREE
    assert dodge_outcome((DOFUS,), advanced=True) == FREE
    assert dodge_outcome((ARMOUR,), advanced=True) == GRABBED
    assert dodge_outcome((LOCK,), advanced=True) == TACKLED


def test_r_b37_two_dice_need_two_dodges_and_any_lock_tackles() -> None:
    assert dodge_outcome((DODGE, DODGE), advanced=False) == FREE
    assert dodge_outcome((DODGE, CRITICAL), advanced=True) == GRABBED
    assert dodge_outcome((DODGE, LOCK), advanced=True) == TACKLED
    assert dodge_outcome((ARMOUR, CRITICAL), advanced=True) == GRABBED


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("n_dice", [1, 2])
def test_r_b38_dodge_odds_are_exact(advanced: bool, n_dice: int) -> None:
    counts = [0, 0, 0]
    for faces in itertools.product(FACES, repeat=n_dice):
        counts[dodge_outcome(faces, advanced)] += 1
    total = 6**n_dice
    assert dodge_odds(n_dice, advanced) == pytest.approx(tuple(c / total for c in counts))


def test_r_b38_the_rulebook_digest_numbers() -> None:
    assert dodge_odds(1, True) == pytest.approx((1 / 2, 1 / 3, 1 / 6))
    assert dodge_odds(2, True) == pytest.approx((1 / 4, 4 / 9, 11 / 36))
    assert Fraction(dodge_odds(1, False)[0]).limit_denominator(100) == Fraction(1, 6)
