"""Casting spells: requirements, the five steps, spell kinds, limits, costs and ranges (R-A39,
R-A55-R-A80)."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DOFUS, LOCK
from krosbalance.engine.pieces import relocate
from krosbalance.errors import IllegalActionError
from krosbalance.testing import Scenario

from .specs import character, spell

BOARD = """. . . . . . .
           . . . . . . .
           . . . . . . ."""


def test_r_a55_a_target_may_be_an_empty_cell():
    sc = Scenario(BOARD)
    bad = sc.add("bad_aboum", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(bad)
    sc.cast(bad, "retreat_shot", (4, 1))
    assert sc.xy(bad) == (1, 1) and bad.ap == 3
    assert sc.event_kinds()[-2:] == ["spell_cast", "moved"]
    assert sc.dice.remaining == 0  # nobody to hit: no Critical or Armour roll


def test_r_a56_cost_range_and_line_of_sight_are_required():
    sc = Scenario(""". . . . . .
                     . . . T . .
                     . . . . . .""")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(0, 2))
    sc.add("king_of_the_gobballs", side=1, at=(5, 1))
    sc.add("oscar_kass", side=1, at=(4, 0))
    sc.activate(bill)
    assert not sc.can_cast(bill, "plaguing_arrow", (0, 2))  # distance 2 < min 3
    assert sc.can_cast(bill, "plaguing_arrow", (3, 0))  # an empty cell in range and sight
    assert sc.can_cast(bill, "plaguing_arrow", (4, 0))
    assert not sc.can_cast(bill, "plaguing_arrow", (5, 0))  # Oscar blocks the line
    assert not sc.can_cast(bill, "plaguing_arrow", (5, 1))  # the tree blocks the line
    bill.ap = 2
    assert not sc.can_cast(bill, "plaguing_arrow", (3, 0))  # 3 AP needed
    with pytest.raises(IllegalActionError):
        sc.cast(bill, "plaguing_arrow", (3, 0))


def test_r_a57_attack_spells_hit_allies_too():
    sc = Scenario(BOARD, dice=[LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    lil = sc.add("lil_healey", side=0, at=(3, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(anna)
    sc.cast(anna, "assault", (3, 1))
    assert lil.injuries == 1 and sc.xy(anna) == (3, 1) and sc.xy(lil) == (1, 1)
    assert sc.dice.remaining == 0


def test_r_a58_r_a62_attack_resolves_pay_effects_critical_armour_injuries_in_order():
    sc = Scenario(BOARD, dice=[CRITICAL, ARMOUR, LOCK])
    oscar = sc.add("oscar_kass", side=0, at=(1, 1), injuries=2)
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(oscar)
    sc.cast(oscar, "con", (2, 1))
    assert oscar.ap == 3
    assert king.injuries == 1  # 1 + 1 critical - 1 armour (the King rolls 2 dice)
    assert oscar.injuries == 1  # Lifesteal after step 5
    kinds = [(e.kind, getattr(e, "roll", "")) for e in sc.state.events if e.kind != "character_turn_started"]
    assert kinds == [
        ("spell_cast", ""),
        ("dice_rolled", "critical"),
        ("dice_rolled", "armour"),
        ("damaged", ""),
        ("healed", ""),
    ]
    assert sc.dice.remaining == 0


def test_r_a59_additional_effects_apply_even_without_injury():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.activate(anna)
    sc.cast(anna, "assault", (3, 1))
    assert king.injuries == 0
    assert sc.xy(anna) == (3, 1) and sc.xy(king) == (1, 1)
    assert sc.dice.remaining == 0


def test_r_a60_critical_power_rolls_two_dice_each_success_adds_one_damage():
    sc = Scenario(BOARD, dice=[CRITICAL, DOFUS, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(3, 1))
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (3, 1))
    assert anna.injuries == 3 and kass.ap == 1
    assert sc.dice.remaining == 0


def test_r_a61_the_target_rolls_armour_two_dice_with_the_power():
    sc = Scenario(BOARD, dice=[CRIT_DODGE, ARMOUR, DOFUS])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert king.injuries == 0  # 1 + 1 - 2
    armour = [e for e in sc.events("dice_rolled") if e.roll == "armour"]
    assert [(e.uid, e.faces, e.successes) for e in armour] == [(king.uid, (ARMOUR, DOFUS), 2)]
    assert sc.dice.remaining == 0


def test_r_a62_worked_example_ann_atomy_ko_at_12():
    """Ann Atomy, 12 HP with 10 injuries, takes 3 damage: only 2 markers are placed and she is KO."""
    sc = Scenario(BOARD, dice=[CRITICAL, CRIT_DODGE, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(3, 1), injuries=10)
    sc.add("king_of_the_gobballs", side=1, at=(6, 0))
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (3, 1))
    assert anna.injuries == 12 and not anna.alive and anna.cell == -1
    (damaged,) = sc.events("damaged")
    assert damaged.amount == 2
    (ko,) = sc.events("knocked_out")
    assert (ko.uid, ko.by) == (anna.uid, kass.uid)
    assert sc.dice.remaining == 0


def test_r_a63_healing_spell_no_armour_roll_critical_heals_one_more():
    sc = Scenario(BOARD, dice=[CRITICAL])
    lil = sc.add("lil_healey", side=0, at=(1, 1))
    anna = sc.add("anna_tommy", side=0, at=(3, 1), injuries=3)
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(lil)
    sc.cast(lil, "healing_word", (3, 1))
    assert anna.injuries == 1 and lil.ap == 3
    (healed,) = sc.events("healed")
    assert (healed.target, healed.amount) == (anna.uid, 2)
    assert sc.dice.remaining == 0


def test_r_a63_healing_never_goes_below_zero_and_may_target_the_caster():
    sc = Scenario(BOARD, dice=[CRITICAL])
    lil = sc.add("lil_healey", side=0, at=(1, 1), injuries=1)
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(lil)
    sc.cast(lil, "healing_word", (1, 1))  # range 0: herself
    assert lil.injuries == 0
    assert sc.events("healed")[0].amount == 1
    assert sc.dice.remaining == 0


def test_r_a63_r_a79_neutral_heal_rolls_one_critical_die_even_with_the_power():
    sc = Scenario(BOARD, dice=[CRITICAL])
    lil = sc.add("lil_healey", side=0, at=(1, 1))
    anna = sc.add("anna_tommy", side=0, at=(2, 1), injuries=5)
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    lil.inspired.add("critical")
    sc.activate(lil)
    sc.cast(lil, "healing_word", (2, 1))
    assert anna.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a64_summon_needs_a_free_cell_and_rolls_nothing():
    sc = Scenario(""". . . .
                     . . T .
                     . . . .""")
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1))
    sc.add("anna_tommy", side=1, at=(0, 1))
    sc.activate(king)
    assert not sc.can_cast(king, "summon_gobball", (0, 1))  # Anna
    assert not sc.can_cast(king, "summon_gobball", (2, 1))  # tree
    assert not sc.can_cast(king, "summon_gobball", (2, 2))  # not adjacent
    sc.cast(king, "summon_gobball", (1, 0))
    gobball = sc.at((1, 0))
    assert gobball.spec.id == "gobball" and gobball.side == 0 and gobball.summoner is king
    assert king.summons == [gobball] and king.ap == 3
    (summoned,) = sc.events("summoned")
    assert (summoned.summoner, summoned.uid, summoned.cell) == (king.uid, gobball.uid, sc.cell(1, 0))
    assert sc.dice.remaining == 0


def test_r_a65_special_spells_roll_nothing():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    lil = sc.add("lil_healey", side=0, at=(3, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(anna)
    sc.cast(anna, "transposition", (3, 1))
    assert sc.xy(anna) == (3, 1) and sc.xy(lil) == (1, 1) and lil.injuries == 0
    assert sc.events("dice_rolled") == [] and sc.dice.remaining == 0


def test_r_a66_blue_spell_once_per_turn_of_the_character():
    sc = Scenario(BOARD)
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(bill)
    sc.cast(bill, "distant_shot")
    assert not sc.can_cast(bill, "distant_shot")
    sc.end_turn()
    sc.activate(bill)
    assert sc.can_cast(bill, "distant_shot")


def test_r_a66_red_spell_once_per_game():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK, LOCK])  # 2 Critical dice (air), 2 Armour dice
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(kass)
    sc.cast(kass, "puff", (2, 1))
    assert not sc.can_cast(kass, "puff", (3, 1))
    sc.end_turn()
    sc.new_turn(1)
    sc.new_turn(0)
    sc.activate(kass)
    assert not sc.can_cast(kass, "puff", (3, 1))
    assert sc.dice.remaining == 0


def test_r_a67_summon_control_counts_tokens_in_play_from_that_spell():
    sc = Scenario(BOARD, dice=[CRITICAL, CRITICAL, LOCK])
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1))
    kass = sc.add("kassius_kaos", side=1, at=(4, 1))
    king.plus_ap = 4
    sc.activate(king)
    sc.cast(king, "summon_gobball", (1, 0))
    assert king.ap == 7
    assert not sc.can_cast(king, "summon_gobball", (0, 1))  # control (1) reached
    sc.end_turn()
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (1, 0))  # 1 + 2 criticals vs 1 Armour die: the Gobball is KO
    gobball = king.summons[0]
    assert not gobball.alive and gobball.cell == -1
    assert sc.arena.gg == [6, 6]  # creatures have no level (R-A110)
    sc.end_turn()
    sc.activate(king)
    assert sc.can_cast(king, "summon_gobball", (0, 1))  # the slot is free again
    assert sc.dice.remaining == 0


def test_r_a67_tofu_control_three():
    sc = Scenario(BOARD)
    queen = sc.add("queen_of_the_tofus", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    queen.plus_ap = 6
    sc.activate(queen)
    for cell in ((1, 0), (0, 1), (2, 1)):
        sc.cast(queen, "summon_tofu", cell)
    assert queen.ap == 3 and len(queen.summons) == 3
    assert not sc.can_cast(queen, "summon_tofu", (1, 2))


def test_r_a68_mp_cost_must_be_available_and_is_paid():
    sprint = spell("sprint", kind="special", ap=1, mp=2, range_type="personal", rmin=0, rmax=0, amount=0)
    runner = character("runner", spells=(sprint,))
    sc = Scenario(BOARD, specs=[runner])
    me = sc.add(runner, side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(me)
    sc.cast(me, "sprint")
    assert (me.mp, me.ap) == (1, 5)
    assert not sc.can_cast(me, "sprint")


def test_r_a71_tofu_kiss_zero_damage_plus_one_critical_is_one():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK])
    queen = sc.add("queen_of_the_tofus", side=0, at=(0, 0))
    tofu = sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(tofu)
    sc.cast(tofu, "kiss", (2, 1))
    assert anna.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a71_zero_damage_without_critical_deals_nothing_and_needs_no_armour_roll():
    sc = Scenario(BOARD, dice=[ARMOUR])
    queen = sc.add("queen_of_the_tofus", side=0, at=(0, 0))
    tofu = sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(tofu)
    sc.cast(tofu, "kiss", (2, 1))
    assert anna.injuries == 0 and sc.events("damaged") == []
    assert sc.dice.remaining == 0


def test_r_a71_the_critical_damage_is_still_subject_to_armour():
    sc = Scenario(BOARD, dice=[DOFUS, LOCK, ARMOUR])
    queen = sc.add("queen_of_the_tofus", side=0, at=(0, 0))
    tofu = sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(tofu)
    sc.cast(tofu, "kiss", (2, 1))
    assert king.injuries == 0
    assert sc.dice.remaining == 0


def test_r_a72_r_a121_classic_range_min_max_and_a_crate_adds_one():
    sc = Scenario(""". . . . . .
                     C . . . . .""")
    oscar = sc.add("oscar_kass", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(5, 0))
    sc.activate(oscar)
    assert not sc.can_cast(oscar, "dissimulation", (1, 0))  # below min 2
    assert sc.can_cast(oscar, "dissimulation", (2, 0)) and sc.can_cast(oscar, "dissimulation", (3, 0))
    assert not sc.can_cast(oscar, "dissimulation", (4, 0))
    sc.move(oscar, (0, 1))  # onto the crate
    assert sc.can_cast(oscar, "dissimulation", (4, 1))  # 3 + 1
    assert not sc.can_cast(oscar, "dissimulation", (5, 1))
    assert not sc.can_cast(oscar, "dissimulation", (1, 1))  # the min does not change


def test_r_a73_fixed_range_is_never_increased():
    sc = Scenario("C . . . . .")
    anna = sc.add("anna_tommy", side=0, at=(0, 0))  # on the crate
    sc.add("lil_healey", side=0, at=(3, 0))
    sc.add("bill_tell", side=0, at=(4, 0))
    sc.add("king_of_the_gobballs", side=1, at=(5, 0))
    sc.activate(anna)
    assert sc.can_cast(anna, "transposition", (3, 0))
    sc.end_turn()
    sc2 = Scenario("C . . . . .")
    anna2 = sc2.add("anna_tommy", side=0, at=(0, 0))
    sc2.add("bill_tell", side=0, at=(4, 0))
    sc2.add("king_of_the_gobballs", side=1, at=(5, 0))
    sc2.activate(anna2)
    assert not sc2.can_cast(anna2, "transposition", (4, 0))  # fixed 1-3, crate or not


def test_r_a74_line_spells_need_the_same_row_or_column():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 2))
    sc.add("lil_healey", side=1, at=(1, 2))
    sc.add("oscar_kass", side=1, at=(4, 1))
    sc.activate(anna)
    assert not sc.can_cast(anna, "assault", (2, 2))  # diagonal, distance 2
    assert sc.can_cast(anna, "assault", (1, 2))
    assert sc.can_cast(anna, "assault", (3, 1))  # empty cell in line, distance 2
    assert not sc.can_cast(anna, "assault", (4, 1))  # distance 3


def test_r_a75_no_line_of_sight_spell_ignores_blockers_and_is_never_increased():
    sc = Scenario("""C T . . .
                     . . . . .""")
    bad = sc.add("bad_aboum", side=0, at=(0, 0))  # on a crate
    sc.add("king_of_the_gobballs", side=1, at=(4, 1))
    sc.activate(bad)
    assert sc.can_cast(bad, "summon_water_bomb", (2, 0))  # behind the tree
    assert sc.can_cast(bad, "summon_water_bomb", (3, 0))
    assert not sc.can_cast(bad, "summon_water_bomb", (4, 0))  # the crate does not help
    assert not sc.can_cast(bad, "summon_water_bomb", (1, 0))  # the tree is not free


def test_r_a76_melee_is_adjacent_only_even_on_a_crate():
    sc = Scenario("C . .")
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(king)
    assert not sc.can_cast(king, "gobbolob", (2, 0))
    assert sc.can_cast(king, "gobbolob", (1, 0))  # an empty adjacent cell is a cell


def test_r_a77_personal_spells_target_only_the_caster():
    sc = Scenario(BOARD)
    bill = sc.add("bill_tell", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(bill)
    assert not sc.can_cast(bill, "distant_shot", (2, 1))
    assert sc.can_cast(bill, "distant_shot", (1, 1))


def test_r_a78_trees_and_characters_block_sight_bushes_crates_and_tiny_pieces_do_not():
    sc = Scenario(""". . . . . . .
                     . T . . . . .
                     . B . . . . .
                     . C . . . . .
                     . . . . . . .
                     . . . . . . .""")
    bill = sc.add("bill_tell", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(6, 5))
    queen = sc.add("queen_of_the_tofus", side=1, at=(6, 0))
    sc.add("anna_tommy", side=1, at=(1, 4))
    sc.add("tofu", side=1, at=(1, 5), summoner=queen)
    sc.add("water_bomb", side=1, at=(1, 0), summoner=bad)
    sc.activate(bill)
    targets = {}
    for row in range(6):
        relocate(sc.state, bill, sc.cell(0, row))
        targets[row] = sc.can_cast(bill, "plaguing_arrow", (3, row))
    assert targets == {0: True, 1: False, 2: True, 3: True, 4: False, 5: True}
    #                 bomb      tree      bush      crate     Anna      Tofu


def test_r_a79_neutral_spells_roll_one_critical_die_even_with_the_power():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(kass)
    sc.cast(kass, "punch", (2, 1))
    assert king.injuries == 2 and kass.ap == 1
    crit = [e for e in sc.events("dice_rolled") if e.roll == "critical"]
    assert [len(e.faces) for e in crit] == [1]
    assert sc.dice.remaining == 0


def test_r_a39_punch_costs_five_ap_melee_one_damage():
    sc = Scenario(BOARD, dice=[LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    lil = sc.add("lil_healey", side=1, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.activate(anna)
    assert not sc.can_cast(anna, "punch", (3, 1))
    sc.cast(anna, "punch", (2, 1))
    assert lil.injuries == 1 and anna.ap == 1
    assert not sc.can_cast(anna, "punch", (2, 1))
    assert sc.dice.remaining == 0


def test_r_a80_elemental_bonus_adds_damage_of_that_element_only():
    fire = spell("flame", element="fire", effects=(("element_bonus", {"element": "fire", "amount": 2}),))
    water = spell("splash", element="fire", effects=(("element_bonus", {"element": "water", "amount": 2}),))
    mage = character("mage", spells=(fire, water))
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK, LOCK], specs=[mage])
    me = sc.add(mage, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(me)
    sc.cast(me, "flame", (2, 1))
    assert anna.injuries == 3
    sc.cast(me, "splash", (2, 1))
    assert anna.injuries == 4
    assert sc.dice.remaining == 0


def test_r_a6_range_counts_orthogonal_steps():
    sc = Scenario(BOARD)
    lil = sc.add("lil_healey", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(lil)
    assert sc.can_cast(lil, "forbidden_word", (2, 2))  # 2 + 2 = 4
    assert not sc.can_cast(lil, "forbidden_word", (3, 2))  # 5
    assert sc.can_cast(lil, "forbidden_word", (1, 1))  # 2: diagonal neighbours are 2 steps away
    assert not sc.can_cast(lil, "forbidden_word", (1, 0))
