"""Powers (R-A100-R-A107)."""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, DOFUS, LOCK
from krosbalance.testing import Scenario

from .specs import character, spell

BOARD = """. . . . .
           . . . . .
           . . . . ."""


def test_r_a100_a_power_owned_twice_gives_nothing_more():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    king.inspired.add("armour")  # the card already has Armour
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    armour = [e for e in sc.events("dice_rolled") if e.roll == "armour"]
    assert [len(e.faces) for e in armour] == [2]
    assert sc.dice.remaining == 0


def test_r_a101_lock_and_dodge_powers_roll_two_dice():
    sc = Scenario(BOARD, dice=[ARMOUR, LOCK, DODGE, ARMOUR])
    bill = sc.add("bill_tell", side=0, at=(1, 1))  # Dodge
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))  # Lock
    sc.activate(bill)
    sc.move(bill, (0, 1))
    (roll,) = sc.events("lock_rolled")
    assert (roll.locker, roll.lock, roll.dodge, roll.blocked) == (king.uid, 1, 1, False)
    assert sc.dice.remaining == 0


def test_r_a101_inspired_critical_rolls_two_dice_for_an_elemental_spell():
    sc = Scenario(BOARD, dice=[CRITICAL, CRITICAL, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    lil = sc.add("lil_healey", side=1, at=(2, 1))
    anna.inspired.add("critical")
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert lil.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a102_resistance_reduces_damage_of_its_element_by_one():
    fire_wall = character("salamander", powers=(("resistance", {"element": "fire"}),))
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK, LOCK, CRITICAL, LOCK], specs=[fire_wall])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))  # fire Assault
    target = sc.add(fire_wall, side=1, at=(2, 1))
    anna.plus_ap = 6
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # 1 + 1 critical - 0 armour - 1 resistance
    assert target.injuries == 1
    sc.cast(anna, "assault", (1, 1))  # swapped back; 1 damage - 1 resistance = 0
    assert target.injuries == 1
    sc.cast(anna, "punch", (2, 1))  # neutral: not reduced
    assert target.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a103_tiny_pieces_do_not_block_sight_but_block_movement():
    sc = Scenario(". . . . .")
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    queen = sc.add("queen_of_the_tofus", side=1, at=(4, 0))
    tofu = sc.add("tofu", side=1, at=(1, 0), summoner=queen)
    sc.activate(bill)
    assert sc.can_cast(bill, "plaguing_arrow", (4, 0))  # through the Tofu
    assert not sc.can_move(bill, (1, 0))
    assert not sc.state.is_free(tofu.cell)


def test_r_a104_counter_injures_the_enemy_that_injured_the_holder():
    hedgehog = character("hedgehog", powers=("counter",))
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK, ARMOUR], specs=[hedgehog])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    spiky = sc.add(hedgehog, side=1, at=(2, 1))
    anna.plus_ap = 6
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert spiky.injuries == 1 and anna.injuries == 1
    damaged = [(e.source, e.target, e.amount) for e in sc.events("damaged")]
    assert damaged == [(anna.uid, spiky.uid, 1), (spiky.uid, anna.uid, 1)]
    sc.cast(anna, "assault", (1, 1))  # armour absorbs: no injury, no counter
    assert spiky.injuries == 1 and anna.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a104_no_counter_against_an_ally():
    hedgehog = character("hedgehog", powers=("counter",))
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[hedgehog])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    spiky = sc.add(hedgehog, side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert spiky.injuries == 1 and anna.injuries == 0
    assert sc.dice.remaining == 0


def test_r_a104_no_counter_against_a_bomb_explosion():
    hedgehog = character("hedgehog", powers=("counter",))
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK, LOCK, LOCK], specs=[hedgehog])
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(4, 2))
    spiky = sc.add(hedgehog, side=0, at=(3, 1))
    bomb = sc.add("water_bomb", side=1, at=(2, 1), summoner=bad)
    sc.activate(kass)
    # 2 Critical dice (CRITICAL, LOCK) -> 2 damage; the bomb's Armour die: LOCK -> the bomb is KO and
    # explodes: its Critical die LOCK, the hedgehog's Armour die LOCK -> 1 injury, no counter
    sc.cast(kass, "irritating_sting", (2, 1))
    assert not bomb.alive and spiky.injuries == 1 and spiky.minus_ap == 1
    assert bomb.injuries == 1 and bad.injuries == 0 and kass.injuries == 0
    assert sc.dice.remaining == 0


def test_r_a105_healing_power_heals_one_more_when_it_heals_any():
    priest = character(
        "priest", powers=("healing",), spells=(spell("mend", kind="heal", element="neutral", rmin=0, rmax=3),)
    )
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[priest])
    me = sc.add(priest, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=0, at=(2, 1), injuries=5)
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(me)
    sc.cast(me, "mend", (2, 1))
    assert anna.injuries == 3
    sc.cast(me, "mend", (0, 1))  # the priest has no injury: nothing healed, no bonus
    assert me.injuries == 0 and len(sc.events("healed")) == 1
    assert sc.dice.remaining == 0


def test_r_a106_unfazed_ignores_additional_effects_but_not_extra_damage():
    rock = character("rock", powers=("unfazed",))
    sc = Scenario(BOARD, dice=[LOCK] * 8, specs=[rock])
    bad = sc.add("bad_aboum", side=0, at=(4, 2))
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1))
    sc.add("gobball", side=0, at=(3, 1), summoner=king)
    target = sc.add(rock, side=1, at=(2, 1))
    sc.add("water_bomb", side=0, at=(1, 2), summoner=bad)
    king.plus_ap = 2
    sc.activate(king)
    sc.cast(king, "gobbolob", (2, 1))  # +2 for the adjacent Gobball still applies
    assert target.injuries == 3
    sc.cast(king, "gobbolob", (1, 2))  # the bomb explodes: 1 damage and -1 AP to the King and the rock
    assert target.injuries == 4 and target.minus_ap == 0
    assert king.injuries == 1 and king.minus_ap == 1
    assert sc.dice.remaining == 0


def test_r_a107_immune_ignores_damage_of_its_element_only():
    golem = character("golem", powers=(("immune", {"element": "fire"}),))
    sc = Scenario(BOARD, dice=[DOFUS, LOCK, LOCK, LOCK], specs=[golem])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    target = sc.add(golem, side=1, at=(2, 1))
    anna.plus_ap = 5
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))  # fire: nothing
    assert target.injuries == 0 and sc.events("damaged") == []
    sc.cast(anna, "punch", (1, 1))  # neutral: not covered
    assert target.injuries == 1
    assert sc.dice.remaining == 0


#: Etraggy-like: Invisibility (R-A108)
INVISIBLE = character("etraggy_like", hp=6, powers=("invisibility",))
LONGSHOT = character("longshot", spells=(spell("dart", rmin=1, rmax=4, amount=1, element="fire"),))


def test_r_a108_invisibility_does_not_block_sight_of_characters_not_adjacent():
    sc = Scenario(". . . . .\n. . . . .", specs=[INVISIBLE, LONGSHOT])
    shooter = sc.add(LONGSHOT, side=0, at=(0, 0))
    sc.add(INVISIBLE, side=1, at=(2, 0))
    sc.add("anna_tommy", side=1, at=(4, 0))
    sc.activate(shooter)
    assert sc.can_cast(shooter, "dart", (4, 0))  # through the invisible piece
    sc.move(shooter, (1, 0))  # now adjacent to it: it blocks as any character does
    assert not sc.can_cast(shooter, "dart", (4, 0))


def test_r_a108_invisibility_characters_not_adjacent_cannot_injure_it():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, CRITICAL, LOCK], specs=[INVISIBLE, LONGSHOT])
    shooter = sc.add(LONGSHOT, side=0, at=(0, 1))
    etraggy = sc.add(INVISIBLE, side=1, at=(3, 1))
    sc.activate(shooter)
    sc.cast(shooter, "dart", (3, 1))  # 2 damage from afar: nothing
    assert etraggy.injuries == 0 and not sc.events("damaged")
    sc.move(shooter, (1, 1), (2, 1))
    sc.cast(shooter, "dart", (3, 1))  # adjacent: the injuries are placed
    assert etraggy.injuries == 2
    assert sc.dice.remaining == 0


def test_r_a108_invisibility_bombs_are_not_characters_and_still_injure_it():
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[INVISIBLE])
    bad = sc.add("bad_aboum", side=0, at=(0, 0))
    etraggy = sc.add(INVISIBLE, side=1, at=(3, 1))
    sc.add("water_bomb", side=0, at=(2, 2), summoner=bad)
    sc.new_turn(0)
    sc.activate(bad)  # the bomb self-detonates next to it: Critical LOCK, Armour LOCK
    assert etraggy.injuries == 1 and etraggy.minus_ap == 1


def test_r_a108_stimulus_gives_adjacent_allied_krosmasters_a_marker_at_the_end_of_its_turn():
    aly = character("aly_like", powers=(("stimulus", {"marker": "mp"}),))
    sc = Scenario(BOARD, specs=[aly])
    me = sc.add(aly, side=0, at=(1, 1))
    beside = sc.add("anna_tommy", side=0, at=(2, 1))
    far = sc.add("bill_tell", side=0, at=(4, 0))
    enemy = sc.add("king_of_the_gobballs", side=1, at=(1, 2))
    tofu = sc.add("tofu", side=0, at=(0, 1), summoner=sc.add("queen_of_the_tofus", side=0, at=(0, 0)))
    sc.activate(me)
    assert beside.plus_mp == 0  # nothing before the end of her turn
    sc.end_turn()
    assert beside.plus_mp == 1 and far.plus_mp == 0 and enemy.plus_mp == 0 and tofu.plus_mp == 0
    assert me.plus_mp == 0
    sc.activate(beside)
    assert beside.mp == 4  # the marker acts at the start of its next activation (R-A35)


def test_r_a106_r_d35_an_unfazed_caster_s_own_personal_spell_still_applies_in_arena():
    """The Duel Pack's clarification (R-D35, "Personal spells are not affected by Unfazed") read as the
    same power in Arena, whose text is silent on one's own personal spells (seed L2777-L2779)."""
    rage = spell(
        "rage",
        kind="special",
        range_type="personal",
        rmin=0,
        rmax=0,
        ap=1,
        effects=(("plus_ap", {"amount": 2}),),
    )
    rock = character("rock", powers=("unfazed",), spells=(rage,))
    sc = Scenario(BOARD, specs=[rock])
    me = sc.add(rock, side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(me)
    sc.cast(me, "rage", (1, 1))
    assert me.plus_ap == 2


#: Merkator-like: Krobust (at most 3 injuries from one enemy spell)
KROBUST = character("krobust_rock", hp=17, powers=("krobust",))
BIG = character(
    "big_hitter",
    ap=12,
    spells=(spell("smash", rmin=1, rmax=1, amount=6, element="earth"),),
)


def test_krobust_caps_the_injuries_of_one_enemy_spell_at_3():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK, LOCK], specs=[KROBUST, BIG])
    hitter = sc.add(BIG, side=0, at=(1, 1))
    rock = sc.add(KROBUST, side=1, at=(2, 1))
    sc.activate(hitter)
    sc.cast(hitter, "smash", (2, 1))  # 6 + 1 critical - 0 armour = 7, capped at 3
    assert rock.injuries == 3
    assert sum(e.amount for e in sc.events("damaged") if e.target == rock.uid) == 3
    sc.cast(hitter, "smash", (2, 1))  # each spell on its own: 3 more
    assert rock.injuries == 6
    assert sc.dice.remaining == 0


def test_krobust_does_not_cap_an_ally_s_spell():
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[KROBUST, BIG])
    hitter = sc.add(BIG, side=1, at=(1, 1))
    rock = sc.add(KROBUST, side=1, at=(2, 1))
    sc.add("king_of_the_gobballs", side=0, at=(4, 2))
    sc.activate(hitter)
    sc.cast(hitter, "smash", (2, 1))
    assert rock.injuries == 6


def test_krobust_caps_the_arena_ai_s_expected_damage_as_combat_caps_the_injuries():
    """The AIs' expectation (``rulesets.arena.rolls.expected_damage``) reads the same cap the
    rules apply, so no AI aims 7 expected injuries at a Krosmaster that can take 3."""
    from krosbalance.rulesets.arena.options import ArenaOptions
    from krosbalance.rulesets.arena.rolls import expected_damage

    sc = Scenario(BOARD, dice=[], specs=[KROBUST, BIG])
    hitter = sc.add(BIG, side=0, at=(1, 1))
    rock = sc.add(KROBUST, side=1, at=(2, 1))
    opts = sc.state.ruleset.options
    assert isinstance(opts, ArenaOptions)
    assert expected_damage(sc.state, hitter, hitter.spells[0], rock, opts) == 3.0
