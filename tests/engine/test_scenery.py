"""Scenery (R-A118-R-A127), including the optional destruction rule."""

from __future__ import annotations

from krosbalance.engine.dice import CRITICAL, LOCK
from krosbalance.testing import Scenario, ScriptedController

DESTRUCTION = {"scenery_destruction": True}


def test_r_a119_a_bush_is_impassable_but_does_not_block_sight():
    sc = Scenario(". B . .")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(3, 0))
    sc.activate(bill)
    assert not sc.can_move(bill, (1, 0))
    assert sc.can_cast(bill, "plaguing_arrow", (3, 0))


def test_r_a120_a_tree_is_impassable_and_blocks_sight():
    sc = Scenario(". T . .")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(3, 0))
    sc.activate(bill)
    assert not sc.can_move(bill, (1, 0))
    assert not sc.can_cast(bill, "plaguing_arrow", (3, 0))


def test_r_a121_a_crate_is_free_does_not_block_sight_and_gives_plus_one_range():
    sc = Scenario(""". C . . .
                     C . . . .""")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(4, 0))
    sc.add("lil_healey", side=1, at=(4, 1))
    sc.activate(bill)
    assert sc.can_cast(bill, "plaguing_arrow", (4, 0))  # across the crate
    sc.move(bill, (1, 0))  # onto the crate: it costs 1 MP like any step
    assert sc.xy(bill) == (1, 0) and bill.mp == 2
    assert sc.state.is_free(sc.cell(0, 1))


def test_r_a121_crate_bonus_stacks_with_distant_shot_for_classic_range():
    sc = Scenario("C " + ". " * 12)
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(12, 0))
    sc.activate(bill)
    assert not sc.can_cast(bill, "plaguing_arrow", (10, 0))
    assert sc.can_cast(bill, "plaguing_arrow", (9, 0))  # 8 + 1
    sc.cast(bill, "distant_shot")
    assert sc.can_cast(bill, "plaguing_arrow", (12, 0))  # 8 + 1 + 3


def test_r_a123_no_scenery_damage_unless_the_option_is_on():
    sc = Scenario(". B .")  # no piece hit: no Critical roll either
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))  # a melee attack on the bush cell
    assert sc.state.scenery_injuries == {}
    assert sc.state.bushes == sc.board.bushes
    assert sc.dice.remaining == 0


def test_r_a124_r_a125_melee_attacks_injure_scenery_without_armour_roll():
    sc = Scenario(". B .", dice=[CRITICAL], options=DESTRUCTION)
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))
    assert sc.state.scenery_injuries == {sc.cell(1, 0): 2}  # 1 + 1 critical, no Armour roll
    assert sc.dice.remaining == 0


def test_r_a124_ranged_attacks_do_not_injure_scenery():
    sc = Scenario(". . C . .", options=DESTRUCTION)
    lil = sc.add("lil_healey", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(4, 0))
    sc.activate(lil)
    sc.cast(lil, "forbidden_word", (2, 0))  # the crate cell, at range 2
    assert sc.state.scenery_injuries == {} and sc.state.crates == sc.board.crates
    assert sc.dice.remaining == 0


def test_r_a125_scenery_heals_at_the_end_of_each_players_turn():
    sc = Scenario(
        """. B . . .
                     . . . . .""",
        dice=[LOCK],
        options=DESTRUCTION,
        turn=0,
    )
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(4, 1))
    controller = ScriptedController(actions=[(king, sc.cast_action(king, "gobbolob", (1, 0)))])
    sc.play_turn(controller)
    assert controller.done
    assert sc.state.scenery_injuries == {}
    assert sc.events("spell_cast")[0].spell == "gobbolob"
    assert sc.dice.remaining == 0


def test_r_a126_a_crate_is_destroyed_at_three_injuries_and_leaves_loot():
    sc = Scenario(". C .", dice=[CRITICAL, CRITICAL], options=DESTRUCTION)
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    reserve = sc.arena.kama_reserve
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))
    assert sc.state.scenery_injuries == {sc.cell(1, 0): 2}
    sc.cast(king, "gobbolob", (1, 0))
    assert sc.state.crates == 0 and sc.state.scenery_injuries == {}
    assert sc.arena.board_kamas[sc.cell(1, 0)] == 1 and sc.arena.kama_reserve == reserve - 1
    assert sc.dice.remaining == 0


def test_r_a126_a_destroyed_bush_frees_its_cell():
    sc = Scenario(
        ". B .",
        dice=[CRITICAL, CRITICAL, CRITICAL],
        options={**DESTRUCTION, "scenery_hp": {"crate": 3, "bush": 6, "tree": 12}},
    )
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    king.plus_ap = 2
    sc.activate(king)
    for _ in range(3):
        sc.cast(king, "gobbolob", (1, 0))
    assert sc.state.bushes == 0 and sc.state.is_free(sc.cell(1, 0))
    assert sc.arena.board_kamas[sc.cell(1, 0)] == 2
    assert sc.can_move(king, (1, 0))
    assert sc.dice.remaining == 0


def test_r_a127_default_a_crate_under_a_character_is_not_hit():
    sc = Scenario(". C .", dice=[CRITICAL, LOCK], options=DESTRUCTION)
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(1, 0))
    sc.add("lil_healey", side=1, at=(2, 0))
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))
    assert anna.injuries == 2 and sc.state.scenery_injuries == {}
    assert sc.dice.remaining == 0


def test_r_a127_option_a_crate_under_a_character_is_hit_too():
    sc = Scenario(". C .", dice=[CRITICAL, LOCK], options={**DESTRUCTION, "scenery_hit_under_piece": True})
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(1, 0))
    sc.add("lil_healey", side=1, at=(2, 0))
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))
    assert anna.injuries == 2 and sc.state.scenery_injuries == {sc.cell(1, 0): 2}
    assert sc.dice.remaining == 0
