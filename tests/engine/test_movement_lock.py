"""Moving, Lock and Dodge (R-A5-R-A7, R-A40-R-A47)."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK
from krosbalance.errors import IllegalActionError
from krosbalance.testing import Scenario
from krosbalance.testing.scenario import END_TURN

BOARD = """. . . . .
           . . . . .
           . . . . ."""


def test_r_a40_a_step_costs_one_mp_to_an_orthogonally_adjacent_free_cell():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 0))
    sc.activate(anna)
    sc.move(anna, (2, 1), (2, 2))
    assert sc.xy(anna) == (2, 2) and anna.mp == 1 and anna.ap == 6
    assert [(e.origin, e.destination, e.how) for e in sc.events("moved")] == [
        (sc.cell(1, 1), sc.cell(2, 1), "walk"),
        (sc.cell(2, 1), sc.cell(2, 2), "walk"),
    ]
    assert sc.dice.remaining == 0


def test_r_a5_diagonal_and_distant_cells_are_not_adjacent():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 0))
    sc.activate(anna)
    assert not sc.can_move(anna, (2, 2))
    assert not sc.can_move(anna, (3, 1))
    with pytest.raises(IllegalActionError):
        sc.move(anna, (2, 2))
    assert sc.xy(anna) == (1, 1) and anna.mp == 3


def test_r_a40_no_step_without_mp():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 0))
    sc.activate(anna)
    sc.move(anna, (1, 1), (2, 1), (3, 1))
    assert anna.mp == 0
    assert not sc.can_move(anna, (3, 2))


def test_r_a7_r_a40_trees_bushes_figures_and_bombs_are_impassable_crates_are_free():
    sc = Scenario(""". T .
                     B . C
                     . . .""")
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("lil_healey", side=0, at=(1, 2))
    bad = sc.add("bad_aboum", side=1, at=(2, 0))
    sc.add("water_bomb", side=1, at=(0, 0), summoner=bad)
    sc.activate(anna)
    assert not sc.can_move(anna, (1, 0))  # tree
    assert not sc.can_move(anna, (0, 1))  # bush
    assert not sc.can_move(anna, (1, 2))  # an ally
    assert sc.can_move(anna, (2, 1))  # crate
    sc.move(anna, (2, 1))
    assert sc.xy(anna) == (2, 1) and anna.mp == 2
    assert not sc.state.is_free(sc.cell(0, 0))  # the bomb's cell
    assert not sc.state.is_free(sc.cell(2, 0))  # an enemy's cell
    assert sc.state.is_free(sc.cell(2, 1)) is False and sc.state.is_free(sc.cell(1, 1))


def test_r_a41_no_lock_roll_when_leaving_a_cell_with_no_adjacent_enemy():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    sc.add("lil_healey", side=0, at=(0, 0))  # an adjacent ally never locks
    sc.add("king_of_the_gobballs", side=1, at=(2, 2))  # diagonal to (1, 1): not adjacent
    sc.activate(anna)
    sc.move(anna, (1, 1))  # leaving (0, 1): nobody adjacent but an ally
    assert sc.events("lock_rolled") == [] and sc.dice.remaining == 0


def test_r_a41_lock_applies_whatever_the_destination():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("oscar_kass", side=1, at=(2, 1))
    sc.activate(anna)
    sc.move(anna, (1, 0))  # along the locker, not away from it: 1 lock success vs Dodge miss
    assert anna.blocked and sc.xy(anna) == (1, 1)
    assert sc.dice.remaining == 0


def test_r_a42_each_adjacent_enemy_locks_and_is_answered_by_its_own_dodge_roll():
    sc = Scenario(BOARD, dice=[LOCK, DODGE, DOFUS, CRIT_DODGE])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    oscar = sc.add("oscar_kass", side=1, at=(2, 1))
    lil = sc.add("lil_healey", side=1, at=(1, 0))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    rolls = [(e.locker, e.lock, e.dodge, e.blocked) for e in sc.events("lock_rolled")]
    assert sorted(rolls) == sorted([(oscar.uid, 1, 1, False), (lil.uid, 1, 1, False)])
    assert sc.xy(anna) == (0, 1) and anna.mp == 2
    assert sc.dice.remaining == 0


def test_r_a43_each_dodge_success_cancels_one_lock_success():
    sc = Scenario(BOARD, dice=[LOCK, DOFUS, DODGE, CRIT_DODGE])  # King: 2 lock; Bill (Dodge): 2 dodge
    bill = sc.add("bill_tell", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(bill)
    sc.move(bill, (0, 1))
    (roll,) = sc.events("lock_rolled")
    assert (roll.lock, roll.dodge, roll.blocked) == (2, 2, False)
    assert sc.xy(bill) == (0, 1) and sc.dice.remaining == 0


def test_r_a44_tiny_characters_neither_lock_nor_are_locked():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    queen = sc.add("queen_of_the_tofus", side=1, at=(4, 2))
    sc.add("tofu", side=1, at=(2, 1), summoner=queen)
    sc.activate(anna)
    sc.move(anna, (1, 2))  # an enemy Tofu is adjacent: no Lock roll
    assert sc.events("lock_rolled") == [] and sc.dice.remaining == 0
    sc.end_turn()
    sc2 = Scenario(BOARD)
    king = sc2.add("king_of_the_gobballs", side=0, at=(2, 2))
    queen2 = sc2.add("queen_of_the_tofus", side=1, at=(4, 0))
    tofu = sc2.add("tofu", side=1, at=(2, 1), summoner=queen2)
    sc2.activate(tofu)
    sc2.move(tofu, (1, 1))  # a Tofu walks away from the King (Lock power) without a roll
    assert sc2.xy(tofu) == (1, 1) and sc2.events("lock_rolled") == []
    assert king.alive and sc2.dice.remaining == 0


def test_r_a44_bombs_never_lock():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert sc.xy(anna) == (0, 1) and sc.events("lock_rolled") == []


def test_r_a45_lock_block_loses_mp_and_ap():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, ARMOUR])  # King 2 lock dice: 1 success; Anna dodge: miss
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert sc.xy(anna) == (1, 1)
    assert (anna.mp, anna.ap, anna.blocked) == (0, 0, True)
    assert sc.events("moved") == []
    (roll,) = sc.events("lock_rolled")
    assert (roll.lock, roll.dodge, roll.blocked) == (1, 0, True)
    assert not sc.can_move(anna, (1, 0))
    assert not sc.can_cast(anna, "transposition", (1, 1))
    assert sc.dice.remaining == 0


def test_r_a45_option_a_blocked_character_keeps_its_ap():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, ARMOUR], options={"lock_block_ends_turn": False})
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert (sc.xy(anna), anna.mp, anna.ap) == ((1, 1), 0, 6)
    assert sc.dice.remaining == 0


def test_r_a45_a_block_lasts_only_for_that_activation():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.activate(anna)
    sc.move(anna, (2, 1))
    sc.move(anna, (1, 1))
    assert anna.blocked and sc.xy(anna) == (2, 1)
    sc.end_turn()
    sc.activate(anna)
    assert not anna.blocked and (anna.mp, anna.ap) == (3, 6)


def test_r_a46_a_tie_favours_the_mover():
    sc = Scenario(BOARD, dice=[LOCK, CRITICAL, DODGE])  # 1 lock vs 1 dodge
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert sc.xy(anna) == (0, 1) and not anna.blocked and anna.mp == 2
    assert sc.dice.remaining == 0


def test_r_a46_no_lock_success_means_free_without_a_dodge_roll():
    sc = Scenario(BOARD, dice=[ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("oscar_kass", side=1, at=(2, 1))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert sc.xy(anna) == (0, 1) and sc.dice.remaining == 0


def test_r_a47_the_first_block_ends_the_attempt():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])  # first locker blocks; the second never rolls
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("oscar_kass", side=1, at=(2, 1))
    sc.add("lil_healey", side=1, at=(1, 0))
    sc.activate(anna)
    sc.move(anna, (0, 1))
    assert anna.blocked and sc.xy(anna) == (1, 1)
    assert len(sc.events("lock_rolled")) == 1
    assert sc.dice.remaining == 0


def test_r_a41_special_movement_is_never_locked():
    # Assault's swap and Retreat Shot's retreat leave cells next to enemies without any Lock roll.
    sc = Scenario(BOARD, dice=[ARMOUR, CRITICAL, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # Critical miss; the King's 2 Armour dice: 1 success
    assert sc.xy(anna) == (2, 1) and sc.xy(king) == (1, 1) and king.injuries == 0
    assert sc.events("lock_rolled") == []
    assert sc.dice.remaining == 0


def test_r_a45_a_blocked_character_turn_ends_at_once_no_reveal_no_free_attack():
    """Tutorial L518-L521: blocked, it "cannot move or attack any more that turn; its turn ends at
    once" — no AP from a Demonic Reward (Xelor Style, +4 AP) and no 0-AP attack afterwards."""
    from krosbalance.engine.legal import legal_actions

    from .specs import character, spell

    free_hit = character(
        "free_hitter", hp=8, ap=6, mp=3, spells=(spell("flick", ap=0, rmin=1, rmax=2, amount=1),)
    )
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, ARMOUR], options={"demonic_rewards": True}, specs=[free_hit])
    hitter = sc.add(free_hit, side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.hold(hitter, "xelor_style")
    sc.activate(hitter)
    assert sc.can_reveal(hitter, "xelor_style") and sc.can_cast(hitter, "flick", (2, 1))
    sc.move(hitter, (0, 1))
    assert hitter.blocked and sc.xy(hitter) == (1, 1)
    assert not sc.can_reveal(hitter, "xelor_style")
    assert not sc.can_cast(hitter, "flick", (2, 1))
    assert legal_actions(sc.state, hitter) == [END_TURN]


def test_r_a45_option_off_a_blocked_character_may_still_reveal_and_attack():
    from .specs import character, spell

    free_hit = character(
        "free_hitter", hp=8, ap=6, mp=3, spells=(spell("flick", ap=0, rmin=1, rmax=2, amount=1),)
    )
    sc = Scenario(
        BOARD,
        dice=[LOCK, ARMOUR, ARMOUR],
        options={"demonic_rewards": True, "lock_block_ends_turn": False},
        specs=[free_hit],
    )
    hitter = sc.add(free_hit, side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.hold(hitter, "xelor_style")
    sc.activate(hitter)
    sc.move(hitter, (0, 1))
    assert hitter.blocked and sc.can_reveal(hitter, "xelor_style") and sc.can_cast(hitter, "flick", (2, 1))
