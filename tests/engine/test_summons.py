"""Summons: creatures, bombs and traps (R-A109-R-A117)."""

from __future__ import annotations

from dataclasses import replace

from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.testing import Scenario, ScriptedController

from .specs import TRAP, TRAPPER, character, spell

BOARD = """. . . . .
           . . . . .
           . . . . ."""


def test_r_a110_creatures_lock_block_sight_and_take_injuries_on_their_token():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR, CRITICAL, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    gobball = sc.add("gobball", side=1, at=(2, 1), summoner=king)
    sc.activate(anna)
    sc.move(anna, (1, 0))  # the Gobball locks with 1 die: LOCK vs Anna's Dodge ARMOUR -> blocked
    assert anna.blocked and sc.xy(anna) == (1, 1)
    sc.end_turn()
    sc.activate(gobball)
    sc.cast(gobball, "bite", (1, 1))
    assert anna.injuries == 2 and gobball.injuries == 0
    assert sc.dice.remaining == 0


def test_r_a110_a_creature_token_blocks_line_of_sight():
    sc = Scenario(". . . . .")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 0))
    sc.add("gobball", side=1, at=(2, 0), summoner=king)
    sc.activate(bill)
    assert not sc.can_cast(bill, "plaguing_arrow", (4, 0))
    assert not sc.can_cast(bill, "plaguing_arrow", (3, 0))  # still behind the Gobball


def test_r_a111_a_ko_bomb_explodes_and_chains():
    sc = Scenario(
        """. . . . . .
                     . . . . . .
                     . . . . . .""",
        dice=[CRITICAL, LOCK, LOCK, LOCK, LOCK, LOCK, LOCK],
    )
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(5, 0))
    first = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    second = sc.add("water_bomb", side=1, at=(3, 2), summoner=bad)  # diagonal: in the Square
    anna = sc.add("anna_tommy", side=1, at=(4, 2))  # only next to the second bomb
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (2, 1))
    # sting: 2 Critical dice (CRITICAL, LOCK), bomb Armour LOCK -> KO -> explosion: Critical LOCK,
    # second bomb Armour LOCK -> KO -> explosion: Critical LOCK, Anna Armour LOCK -> 1 injury
    assert not first.alive and not second.alive
    assert first.cell == -1 and second.cell == -1
    assert anna.injuries == 1 and anna.minus_ap == 1
    assert [e.spell for e in sc.events("spell_cast")] == ["irritating_sting", "explosion", "explosion"]
    assert sc.arena.gg == [6, 6]  # bombs have no level
    assert sc.dice.remaining == 0


def test_r_a111_a_bomb_is_an_obstacle_that_does_not_block_sight():
    sc = Scenario(". . . . .")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(4, 0))
    bomb = sc.add("water_bomb", side=1, at=(1, 0), summoner=bad)
    sc.activate(bill)
    assert sc.can_cast(bill, "plaguing_arrow", (4, 0))
    assert not sc.can_move(bill, (1, 0))
    assert bomb.hp == 1 and not bomb.is_character


def test_r_a112_a_bomb_self_detonates_at_the_start_of_its_summoners_next_turn():
    sc = Scenario(BOARD, dice=[LOCK, LOCK])
    bad = sc.add("bad_aboum", side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 2))
    sc.activate(bad)
    sc.cast(bad, "summon_water_bomb", (2, 1))
    (bomb,) = bad.summons
    sc.end_turn()
    sc.activate(bad)  # the same game turn: nothing happens
    assert bomb.alive
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(anna)
    assert bomb.alive  # the opponent's turn: nothing happens
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(bad)
    assert not bomb.alive and bomb.cell == -1
    # the bomb's Critical die LOCK; Anna's Armour LOCK: 1 injury and a -1 AP marker
    assert anna.injuries == 1 and anna.minus_ap == 1
    assert bad.ap == 6 and bad.injuries == 0  # Bad acts normally afterwards
    events = sc.state.events
    explosion = next(i for i, e in enumerate(events) if e.kind == "spell_cast" and e.spell == "explosion")
    assert events[-1].kind == "character_turn_started" and events[-1].uid == bad.uid
    assert explosion < len(events) - 1  # the preliminary phase comes before the activation
    assert sc.dice.remaining == 0


def test_r_a112_self_detonation_in_a_whole_game_turn():
    sc = Scenario(BOARD, dice=[ARMOUR, LOCK, CRITICAL, DODGE], turn=1)
    bad = sc.add("bad_aboum", side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(3, 2))
    bomb = sc.add("water_bomb", side=0, at=(3, 1), summoner=bad)  # placed on turn 1
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, LOCK))))  # turn 2: the bomb goes off
    assert not bomb.alive
    assert anna.injuries == 2 and anna.minus_ap == 1  # Critical CRITICAL; Anna's Armour DODGE
    assert sc.dice.remaining == 0


def test_r_a113_summoner_ko_removes_its_tokens_without_explosions():
    sc = Scenario(BOARD, dice=[CRITICAL, CRITICAL, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    bad = sc.add("bad_aboum", side=1, at=(2, 1), injuries=7)
    bomb = sc.add("water_bomb", side=1, at=(3, 1), summoner=bad)
    gobball = sc.add("gobball", side=1, at=(4, 1), summoner=king)
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (2, 1))
    assert not bad.alive and not bomb.alive and bomb.cell == -1
    assert gobball.alive  # another summoner's token stays
    assert [e.spell for e in sc.events("spell_cast")] == ["irritating_sting"]
    assert sc.dice.remaining == 0


def test_r_a114_water_bomb_gives_minus_one_ap_even_without_injury():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK, LOCK, ARMOUR])
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(4, 0))
    bomb = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    anna = sc.add("anna_tommy", side=1, at=(3, 2))
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (2, 1))  # bomb KO; explosion: Critical LOCK, Anna Armour ARMOUR
    assert not bomb.alive
    assert anna.injuries == 0 and anna.minus_ap == 1
    sc.end_turn()
    sc.activate(anna)
    assert anna.ap == 5
    assert sc.dice.remaining == 0


def test_r_a115_option_no_armour_die_for_bombs():
    sc = Scenario(BOARD, dice=[LOCK], options={"bomb_armour_dice": 0})
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    bomb = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # 1 damage with no Armour roll: KO (no swap with a bomb, R-A95)
    assert not bomb.alive and sc.xy(anna) == (0, 1)
    (explosion,) = [e for e in sc.events("spell_cast") if e.spell == "explosion"]
    assert explosion.target == sc.cell(2, 1)  # nobody around it: no roll at all
    assert sc.dice.remaining == 0


def test_r_a115_bomb_armour_die_can_save_it():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    bomb = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # 1 damage, 1 Armour success: the bomb survives
    assert bomb.alive and bomb.injuries == 0
    assert sc.xy(anna) == (0, 1) and sc.xy(bomb) == (2, 1)  # a bomb is not a character: no swap
    assert sc.dice.remaining == 0


def test_r_a116_a_trap_is_free_does_not_block_sight_and_fires_when_a_character_walks_onto_it():
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[TRAP, TRAPPER])
    trapper = sc.add(TRAPPER, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(3, 1))
    sc.activate(trapper)
    sc.cast(trapper, "lay_trap", (2, 1))
    trap = sc.at((2, 1))
    assert trap.kind == "trap" and sc.state.is_free(sc.cell(2, 1))
    assert not sc.can_cast(trapper, "lay_trap", (2, 1))  # at most one trap per cell
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(anna)
    assert sc.can_cast(anna, "assault", (1, 1))  # the trap does not block sight
    sc.move(anna, (2, 1))
    assert anna.injuries == 1  # trap: Critical LOCK, Anna's Armour LOCK
    assert not trap.alive and sc.at((2, 1)) is anna and not sc.state.traps
    assert sc.dice.remaining == 0


def test_r_a116_a_trap_has_no_hp_and_is_unfazed():
    sc = Scenario(BOARD, specs=[TRAP, TRAPPER])
    trapper = sc.add(TRAPPER, side=0, at=(0, 1))
    sc.add("anna_tommy", side=1, at=(4, 2))
    trap = sc.add(TRAP, side=0, at=(2, 1), summoner=trapper)
    assert trap.hp == 0 and trap.has("unfazed") and not trap.is_character


def test_r_a67_r_a116_trap_summon_control():
    sc = Scenario(BOARD, specs=[TRAP, TRAPPER])
    trapper = sc.add(TRAPPER, side=0, at=(0, 1))
    sc.add("anna_tommy", side=1, at=(4, 2))
    sc.activate(trapper)
    sc.cast(trapper, "lay_trap", (2, 1))
    assert not sc.can_cast(trapper, "lay_trap", (1, 0))  # control (1) reached


def test_r_a117_a_summon_may_be_placed_on_a_crate():
    sc = Scenario(""". C .
                     . . .""")
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(king)
    sc.cast(king, "summon_gobball", (1, 0))
    assert sc.at((1, 0)).spec.id == "gobball"


def test_bombs_are_pushed_by_default_and_not_with_the_bombs_unfazed_option():
    for option, where, hurt in ((False, (4, 1), "bad_aboum"), (True, (1, 1), "kassius_kaos")):
        sc = Scenario(BOARD, dice=[LOCK, LOCK, ARMOUR, LOCK, LOCK], options={"bombs_unfazed": option})
        kass = sc.add("kassius_kaos", side=0, at=(0, 1))
        bad = sc.add("bad_aboum", side=1, at=(4, 2))
        bomb = sc.add("water_bomb", side=1, at=(1, 1), summoner=bad)
        sc.activate(kass)
        sc.cast(kass, "puff", (1, 1))  # 3 damage, the bomb's Armour die: ARMOUR -> 2 -> KO anyway
        assert not bomb.alive
        (explosion,) = [e for e in sc.events("spell_cast") if e.spell == "explosion"]
        assert explosion.target == sc.cell(*where)
        assert {f.spec.id: f.injuries for f in (kass, bad)}[hurt] == 1
        assert kass.injuries + bad.injuries == 1
        assert sc.dice.remaining == 0


def test_r_a111_r_a95_assault_does_not_swap_with_a_bomb():
    """Seed L1220, L1242: Assault swaps Anna with the *character* attacked (a figure or a creature
    token). A bomb is a mechanism, not a character (R-A111): it takes the damage, nobody moves."""
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    bomb = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # 1 damage, the bomb's Armour die saves it
    assert sc.xy(anna) == (0, 1) and sc.xy(bomb) == (2, 1)
    assert not sc.events("moved")
    assert sc.dice.remaining == 0


def test_r_a95_assault_still_swaps_with_a_creature_token():
    sc = Scenario(BOARD, dice=[LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    gobball = sc.add("gobball", side=1, at=(2, 1), summoner=king)
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert sc.xy(anna) == (2, 1) and sc.xy(gobball) == (0, 1)


SHOVE = character(
    "shover",
    spells=(
        spell(
            "shove",
            kind="special",
            ap=1,
            amount=0,
            range_type="line",
            rmin=1,
            rmax=3,
            effects=(("push", {"cells": 2}),),
        ),
    ),
)


def test_r_a116_a_pushed_bomb_does_not_set_off_a_trap():
    """Traps cast their spell when a *character* moves onto them; a bomb is not one (R-A111)."""
    sc = Scenario(BOARD, specs=[SHOVE, TRAP, TRAPPER])
    shover = sc.add(SHOVE, side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    bomb = sc.add("water_bomb", side=1, at=(1, 1), summoner=bad)
    trapper = sc.add(TRAPPER, side=0, at=(4, 0))
    trap = sc.add(TRAP, side=0, at=(3, 1), summoner=trapper)
    sc.activate(shover)
    sc.cast(shover, "shove", (1, 1))
    assert sc.xy(bomb) == (3, 1)  # pushed onto the trap's cell, which stays free for a bomb
    assert trap.alive and sc.state.traps == {sc.cell(3, 1): trap}
    assert bomb.alive and bomb.injuries == 0
    assert sc.dice.remaining == 0


def test_r_a116_r_a171_a_pushed_character_sets_off_the_trap():
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[SHOVE, TRAP, TRAPPER])
    shover = sc.add(SHOVE, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(1, 1))
    trapper = sc.add(TRAPPER, side=0, at=(4, 0))
    trap = sc.add(TRAP, side=0, at=(3, 1), summoner=trapper)
    sc.activate(shover)
    sc.cast(shover, "shove", (1, 1))
    assert sc.xy(anna) == (3, 1) and anna.injuries == 1 and not trap.alive
    assert sc.dice.remaining == 0


def test_r_a64_r_a116_a_summon_may_go_on_a_traps_cell_but_not_a_second_trap():
    """A trap's cell stays free (seed L2737-L2739), so a creature or a bomb may be summoned there;
    only a second trap is forbidden (L2744). A creature placed there does not set it off: it did not
    move onto it."""
    sc = Scenario(BOARD, specs=[TRAP, TRAPPER])
    trapper = sc.add(TRAPPER, side=1, at=(4, 0))
    trap = sc.add(TRAP, side=1, at=(1, 1), summoner=trapper)
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 1))
    sc.activate(king)
    assert sc.can_cast(king, "summon_gobball", (1, 1))
    sc.cast(king, "summon_gobball", (1, 1))
    gobball = sc.at((1, 1))
    assert gobball.spec.id == "gobball" and trap.alive and gobball.injuries == 0


def test_r_a116_at_most_one_trap_per_cell():
    two = replace(
        TRAPPER, id="two_trapper", spells=(replace(TRAPPER.spells[0], summon_control=2),)
    )  # control (2): only the cell rule can refuse the second trap
    sc = Scenario(BOARD, specs=[TRAP, two])
    trapper = sc.add(two, side=0, at=(0, 1))
    sc.add("anna_tommy", side=1, at=(4, 2))
    sc.activate(trapper)
    sc.cast(trapper, "lay_trap", (2, 1))
    assert not sc.can_cast(trapper, "lay_trap", (2, 1))
    assert sc.can_cast(trapper, "lay_trap", (3, 1))


def test_r_a116_a_bomb_may_be_summoned_on_a_traps_cell():
    sc = Scenario(BOARD, specs=[TRAP, TRAPPER])
    trapper = sc.add(TRAPPER, side=1, at=(4, 0))
    sc.add(TRAP, side=1, at=(2, 1), summoner=trapper)
    bad = sc.add("bad_aboum", side=0, at=(0, 1))
    sc.activate(bad)
    assert sc.can_cast(bad, "summon_water_bomb", (2, 1))
