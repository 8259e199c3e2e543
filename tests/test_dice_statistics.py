"""Large-sample checks of the dice (R-A12-R-A16) and the tension roll (R-A26).

Every rate is measured on at least 100,000 rolls or trials from ``SeededDice`` with a fixed seed,
through the engine's own ``count_successes`` / ``tension_options`` / ``walk``, and must lie within
3 standard errors of the probability the rules give. The seeds are fixed, so these tests are
deterministic; 3 sigma is the tolerance a fair die passes 99.7% of the time for any seed.
The exact (enumerated) values are checked by tests/engine/test_dice.py; here we check that the
random stream and the code that consumes it realise them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from krosbalance.board.loader import BOARDS_DIR, load_board_file
from krosbalance.content.registry import default_registry
from krosbalance.engine.dice import (
    ARMOUR,
    CRITICAL,
    DODGE,
    LOCK,
    SeededDice,
    count_successes,
)
from krosbalance.engine.movement import walk
from krosbalance.engine.pieces import place, relocate, spawn
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import BLOCK_CHANCE
from krosbalance.rulesets.arena.tension import tension_options
from krosbalance.rulesets.registry import get_ruleset

N = 120_000
SEED = 20_251_130


def dice(stream: int) -> SeededDice:
    return SeededDice(np.random.default_rng(np.random.SeedSequence([SEED, stream])))


def within_3_sigma(successes: int, trials: int, p: float | Fraction, what: str) -> None:
    p = float(p)
    rate = successes / trials
    sigma = math.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) <= 3 * sigma, (
        f"{what}: measured {rate:.5f} over {trials} trials, expected {p:.5f} +- {3 * sigma:.5f} (3 sigma)"
    )


# ------------------------------------------------------------------------------- faces and rolls


def test_r_a12_faces_are_uniform() -> None:
    d = dice(1)
    faces = np.array([d.roll() for _ in range(N)])
    assert faces.min() == 0 and faces.max() == 5
    counts = np.bincount(faces, minlength=6)
    for face, count in enumerate(counts):
        within_3_sigma(int(count), N, Fraction(1, 6), f"face {face}")
    chi2 = float(((counts - N / 6) ** 2 / (N / 6)).sum())
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom, p = 0.001


@pytest.mark.parametrize(
    ("kind", "p"),
    [(CRITICAL, Fraction(1, 2)), (DODGE, Fraction(1, 2)), (ARMOUR, Fraction(1, 3)), (LOCK, Fraction(1, 3))],
    ids=["critical", "dodge", "armour", "lock"],
)
def test_r_a15_success_rate_per_die(kind: int, p: Fraction) -> None:
    d = dice(10 + kind)
    successes = sum(count_successes(d, 1, kind)[0] for _ in range(N))
    within_3_sigma(successes, N, p, f"one-die success rate of roll kind {kind}")
    many, faces = count_successes(d, N, kind)  # one roll of N dice counts each die once
    assert len(faces) == N
    within_3_sigma(many, N, p, f"{N}-dice roll of kind {kind}")


@pytest.mark.parametrize(
    ("kind", "p"),
    [(CRITICAL, Fraction(1, 2)), (DODGE, Fraction(1, 2)), (ARMOUR, Fraction(1, 3)), (LOCK, Fraction(1, 3))],
    ids=["critical", "dodge", "armour", "lock"],
)
def test_r_a15_two_dice_distribution(kind: int, p: Fraction) -> None:
    d = dice(20 + kind)
    counts = np.bincount([count_successes(d, 2, kind)[0] for _ in range(N)], minlength=3)
    expected = ((1 - p) ** 2, 2 * p * (1 - p), p**2)  # R-A15 table: 25/50/25 and 44.4/44.4/11.1
    for k in range(3):
        within_3_sigma(int(counts[k]), N, expected[k], f"P({k} successes) with 2 dice of kind {kind}")


# ------------------------------------------------------------------------------- lock vs dodge

BLOCK = {(1, 1): Fraction(1, 6), (2, 1): Fraction(1, 3), (1, 2): Fraction(1, 12), (2, 2): Fraction(7, 36)}


@pytest.mark.parametrize(("lock_dice", "dodge_dice"), list(BLOCK), ids=lambda v: str(v))
def test_r_a16_block_rate_of_the_rule(lock_dice: int, dodge_dice: int) -> None:
    """Blocked iff lock successes > dodge successes; dodge is rolled only against a successful lock
    (as the engine does: with no lock success the mover escapes whatever it rolls)."""
    d = dice(100 + 10 * lock_dice + dodge_dice)
    blocked = 0
    for _ in range(N):
        lock, _faces = count_successes(d, lock_dice, LOCK)
        if lock and lock > count_successes(d, dodge_dice, DODGE)[0]:
            blocked += 1
    within_3_sigma(
        blocked, N, BLOCK[lock_dice, dodge_dice], f"block rate {lock_dice} lock v {dodge_dice} dodge"
    )
    assert BLOCK_CHANCE[lock_dice][dodge_dice] == pytest.approx(float(BLOCK[lock_dice, dodge_dice]))


@pytest.mark.parametrize(("lock_dice", "dodge_dice"), list(BLOCK), ids=lambda v: str(v))
def test_r_a16_block_rate_of_the_engine_walk(lock_dice: int, dodge_dice: int) -> None:
    """The same rates through ``engine.movement.walk``: one locker adjacent to the mover, who steps
    away, is put back and tries again."""
    board = load_board_file(BOARDS_DIR / "test-open-5x5.toml")
    state = MatchState(board, get_ruleset("arena"), dice(200 + 10 * lock_dice + dodge_dice))
    registry = default_registry()
    mover = spawn(state, registry.load_character("anna_tommy"), 0)
    locker = spawn(state, registry.load_character("anna_tommy"), 1)
    mover.powers = {"dodge"} if dodge_dice == 2 else set()
    locker.powers = {"lock"} if lock_dice == 2 else set()
    start, away = board.cell(2, 2), board.cell(2, 3)
    place(state, mover, start)
    place(state, locker, board.cell(2, 1))
    trials = N // 2
    blocked = 0
    for _ in range(trials):
        mover.mp, mover.ap, mover.blocked = 1, 6, False
        if not walk(state, mover, away):
            blocked += 1
        else:
            relocate(state, mover, start)
    within_3_sigma(blocked, trials, BLOCK[lock_dice, dodge_dice], "block rate through walk()")
    assert mover.stats.times_blocked == blocked


# ------------------------------------------------------------------------------------ tension


def test_r_a26_tension_doubles_forced_and_choosable() -> None:
    d = dice(300)
    forced = choosable = 0
    for _ in range(N):
        options = tension_options(d.roll(), d.roll())
        doubles = sum(1 for a, b in options if a == b)
        forced += doubles == len(options)
        choosable += doubles > 0
    within_3_sigma(forced, N, Fraction(4, 36), "forced tension doubles")
    within_3_sigma(choosable, N, Fraction(20, 36), "choosable tension doubles")


def test_r_a26_the_random_ai_makes_doubles_about_as_often_as_chance_allows() -> None:
    """The random AI picks uniformly among the turned faces, so its double rate is the average over
    raw pairs of (doubles / options): exact value by enumeration, measured on 100,000+ rolls."""
    exact = Fraction(0)
    for a in range(6):
        for b in range(6):
            options = tension_options(a, b)
            exact += Fraction(sum(1 for x, y in options if x == y), len(options)) / 36
    rng = np.random.default_rng(SEED)
    d = dice(301)
    doubles = 0
    for _ in range(N):
        options = tension_options(d.roll(), d.roll())
        x, y = options[int(rng.integers(len(options)))]
        doubles += x == y
    assert Fraction(4, 36) < exact < Fraction(20, 36)
    within_3_sigma(doubles, N, exact, "doubles chosen at random")
