"""Demonic Rewards on a card: every token's effect, the lifetimes of the three types, and the FAQ
rulings about rewards (R-A52-R-A54, R-A137-R-A145, R-A160, R-A163-R-A166)."""

from __future__ import annotations

import pytest

from krosbalance.content.keywords import REWARD_KEYWORDS
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.rulesets.arena import rewards as arena_rewards
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.reward_effects import REWARD_EFFECTS
from krosbalance.rulesets.arena.tokens import mods_of, tokens_of
from krosbalance.testing import Scenario

from ..engine.rewards_kit import BOARD, DUMMY, HERO, can, hold, kamas, reveal
from ..engine.specs import character, spell

NO_CRIT, NO_ARMOUR = ARMOUR, LOCK  # a Critical roll that fails, an Armour roll that fails
MISS = [NO_CRIT, NO_ARMOUR]  # one attack on one target, no dice effect


def duel(dice=(), options=None, hero=HERO, at=(1, 1), target=(3, 1)):
    sc = Scenario(BOARD, dice=list(dice), options=options, specs=[HERO, DUMMY])
    holder = sc.add(hero, side=0, at=at)
    dummy = sc.add(DUMMY, side=1, at=target)
    return sc, holder, dummy


def test_every_reward_keyword_has_one_engine_rule():
    assert arena_rewards.REWARD_EFFECTS is REWARD_EFFECTS  # Arena registers the economy's keywords
    assert set(REWARD_EFFECTS) == set(REWARD_KEYWORDS)
    for kind, rule in REWARD_EFFECTS.items():
        assert (rule.instant is not None) != (rule.continuous is not None or rule.on_reveal is not None), kind


# ------------------------------------------------------------------------------ holding, revealing


def test_r_a52_a_face_down_token_gives_nothing():
    sc, hero, dummy = duel(MISS)
    hold(sc, hero, "stasis_crystal")
    sc.activate(hero)
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 1 and not hero.has("armour")


def test_r_a54_r_a138_reveal_only_during_the_holders_own_activation():
    sc, hero, dummy = duel()
    hold(sc, hero, "xelor_style")
    assert not can(sc, hero, "xelor_style")  # not active
    sc.activate(dummy)
    assert not can(sc, hero, "xelor_style")  # someone else's activation
    sc.end_turn()
    sc.activate(hero)
    assert can(sc, hero, "xelor_style")


def test_r_a54_a_boost_is_used_once_and_leaves_the_card():
    sc, hero, _ = duel()
    hold(sc, hero, "xelor_style")
    sc.activate(hero)
    reveal(sc, hero, "xelor_style")
    assert hero.ap == 10 and tokens_of(hero) == []
    assert [s.id for s in sc.arena.market.box] == ["xelor_style"]  # back to the box
    assert arena_stats(hero).rewards_used == ["xelor_style"]


def test_r_a54_r_a32_an_upgrade_lasts_until_the_start_of_the_holders_next_turn():
    sc, hero, dummy = duel(MISS + MISS)
    hold(sc, hero, "fire_upgrade")
    sc.activate(hero)
    reveal(sc, hero, "fire_upgrade")
    assert tokens_of(hero)[0].face_up and "fire" in hero.resist
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(dummy)  # still face up during the opponent's turn
    assert "fire" in hero.resist
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(hero)  # preliminary phase: it leaves the card
    assert tokens_of(hero) == [] and "fire" not in hero.resist
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 1


def test_r_a140_equipment_is_permanent():
    sc, hero, dummy = duel()
    hold(sc, hero, "vitality_dofus")
    sc.activate(hero)
    reveal(sc, hero, "vitality_dofus")
    for side in (1, 0, 1, 0):
        sc.end_turn()
        sc.new_turn(side)
        sc.activate(dummy if side else hero)
    assert hero.hp == 18 and tokens_of(hero)[0].face_up


def test_r_a141_one_face_up_equipment_of_each_kind():
    sc, hero, _ = duel()
    hold(sc, hero, "set_mp_dodge")
    hold(sc, hero, "set_all_round")
    hold(sc, hero, "pet_scout")
    sc.activate(hero)
    reveal(sc, hero, "set_mp_dodge")
    assert not can(sc, hero, "set_all_round")  # a set is already face up
    assert can(sc, hero, "pet_scout")  # another kind


def test_r_a10_a_kod_krosmasters_tokens_leave_the_game_with_it():
    sc, hero, dummy = duel()
    sc.add("anna_tommy", side=0, at=(0, 3))
    hold(sc, hero, "stasis_crystal")
    hold(sc, hero, "set_hp_lock")
    sc.activate(hero)
    reveal(sc, hero, "set_hp_lock")
    hero.injuries = hero.hp - 1
    from krosbalance.engine.combat import inflict
    from krosbalance.engine.instant import settle

    inflict(sc.state, dummy, hero, 1, 0)
    settle(sc.state)
    assert not hero.alive and tokens_of(hero) == []  # its tokens left the game with it
    assert [s.id for s in sc.arena.market.box] == ["set_hp_lock"]  # shown
    assert [s.id for s in sc.arena.market.hidden_box] == ["stasis_crystal"]  # never shown


# ------------------------------------------------------------------------------ boosts


def test_r_a140_enutrof_style_gives_two_mp_now_and_two_kamas_from_the_reserve():
    sc, hero, _ = duel()
    hold(sc, hero, "enutrof_style")
    sc.activate(hero)
    reserve = sc.arena.kama_reserve
    reveal(sc, hero, "enutrof_style")
    assert hero.mp == 5 and kamas(sc)[0] == 2 and sc.arena.kama_reserve == reserve - 2


def test_r_a140_xelor_style_gives_four_ap_now():
    sc, hero, _ = duel()
    hold(sc, hero, "xelor_style")
    sc.activate(hero)
    reveal(sc, hero, "xelor_style")
    assert hero.ap == 10 and hero.base_ap == 6


@pytest.mark.parametrize(("token", "creature"), [("osamodas_style", "wabbit"), ("sadida_style", "lost_doll")])
def test_r_a144_style_summons_a_creature_on_a_free_adjacent_cell(token, creature):
    sc, hero, _ = duel()
    hold(sc, hero, token)
    sc.activate(hero)
    assert not can(sc, hero, token, target=(3, 3))  # not adjacent
    reveal(sc, hero, token, target=(1, 2))
    (pet,) = hero.summons
    assert pet.spec.id == creature and sc.xy(pet) == (1, 2) and pet.kind == "creature"
    assert pet.summoner is hero and pet.level == 0


@pytest.mark.parametrize("element", ["water", "air", "earth", "fire"])
def test_r_a54_elemental_boost_adds_two_to_the_next_spell_of_its_element(element):
    fire_or_water = {"fire": "zap", "water": "splash"}.get(element)
    sc, hero, dummy = duel(MISS)
    hold(sc, hero, f"{element}_boost")
    sc.activate(hero)
    reveal(sc, hero, f"{element}_boost")
    if fire_or_water is None:
        return  # the hero has no spell of this element: nothing to measure beyond the reveal
    sc.cast(hero, fire_or_water, (3, 1))
    assert dummy.injuries == 3
    assert mods_of(hero) is None


def test_r_a54_an_elemental_boost_is_used_up_by_a_spell_of_another_element():
    sc, hero, dummy = duel(MISS + MISS)
    hold(sc, hero, "fire_boost")
    sc.activate(hero)
    reveal(sc, hero, "fire_boost")
    sc.cast(hero, "splash", (3, 1))  # water: no bonus, and the boost is gone
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 2


def test_r_a54_option_element_boost_waits_for_a_spell_of_its_element():
    sc, hero, dummy = duel(MISS + MISS, options={"element_boost_waits": True})
    hold(sc, hero, "fire_boost")
    sc.activate(hero)
    reveal(sc, hero, "fire_boost")
    sc.cast(hero, "splash", (3, 1))
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 1 + 3


def test_r_a54_an_elemental_boost_not_used_this_turn_is_lost():
    sc, hero, dummy = duel(MISS)
    hold(sc, hero, "fire_boost")
    sc.activate(hero)
    reveal(sc, hero, "fire_boost")
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(hero)
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 1


def test_r_a143_pandawa_style_carries_an_adjacent_ally_without_lock_rolls():
    sc = Scenario(BOARD, specs=[HERO, DUMMY])
    hero = sc.add(HERO, side=0, at=(1, 1))
    ally = sc.add("anna_tommy", side=0, at=(1, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 0))  # Lock, adjacent to the ally: never rolls
    hold(sc, hero, "pandawa_style")
    sc.activate(hero)
    neighbours = sc.board.neighbours[hero.cell]
    choice = neighbours.index(ally.cell)
    assert not can(sc, hero, "pandawa_style", choice, (1, 1))  # not a free cell
    reveal(sc, hero, "pandawa_style", choice, (4, 1))  # 3 cells in line
    assert sc.xy(ally) == (4, 1) and hero.ap == 4
    assert sc.events("lock_rolled") == []


def test_r_a143_lightning_is_a_single_use_two_damage_neutral_line_spell():
    sc, hero, dummy = duel([NO_CRIT, NO_ARMOUR], target=(1, 3))
    hold(sc, hero, "lightning")
    sc.activate(hero)
    assert not can(sc, hero, "lightning", target=(3, 3))  # not in line
    reveal(sc, hero, "lightning", target=(1, 3))
    assert dummy.injuries == 2 and hero.ap == 5 and tokens_of(hero) == []


def test_r_a143_a_single_use_spell_cannot_be_revealed_without_the_ap():
    sc, hero, _ = duel()
    hold(sc, hero, "pandawa_style")
    hero.plus_ap, hero.minus_ap = 0, 5
    sc.activate(hero)
    assert hero.ap == 1 and not can(sc, hero, "pandawa_style", 0, (2, 1))


def test_r_a131_rogue_style_pays_two_kamas_for_the_wild_gg_then_the_opponents():
    sc, hero, _ = duel()
    hold(sc, hero, "rogue_style")
    kamas(sc)[0] = 3
    sc.activate(hero)
    reveal(sc, hero, "rogue_style", choice=1)
    assert kamas(sc)[0] == 1 and sc.arena.gg == [7, 6] and sc.arena.wild_gg == 0


def test_r_a131_rogue_style_may_be_declined_and_needs_two_kamas_to_pay():
    sc, hero, _ = duel()
    hold(sc, hero, "rogue_style")
    kamas(sc)[0] = 1
    sc.activate(hero)
    assert not can(sc, hero, "rogue_style", choice=1)
    reveal(sc, hero, "rogue_style", choice=0)
    assert kamas(sc)[0] == 1 and sc.arena.gg == [6, 6]


def test_r_a91_glue_and_bamboozle_put_markers_for_the_targets_next_activation():
    sc, hero, dummy = duel(target=(1, 3))
    hold(sc, hero, "glue")
    hold(sc, hero, "bamboozle")
    sc.activate(hero)
    reveal(sc, hero, "glue", target=(1, 3))
    reveal(sc, hero, "bamboozle", target=(1, 3))
    assert (dummy.minus_mp, dummy.minus_ap) == (2, 3) and hero.ap == 4
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(dummy)
    assert (dummy.mp, dummy.ap) == (1, 3)


def test_r_a54_sacrier_style_injures_its_user_and_boosts_its_next_elemental_attack():
    sc, hero, dummy = duel(MISS + MISS)
    hold(sc, hero, "sacrier_style")
    sc.activate(hero)
    reveal(sc, hero, "sacrier_style")
    assert hero.injuries == 4
    sc.cast(hero, "bonk", (3, 1))  # neutral: never boosted, and the boost waits
    assert dummy.injuries == 1
    sc.cast(hero, "zap", (3, 1))
    assert dummy.injuries == 1 + 4


@pytest.mark.parametrize(("injuries", "ko"), [(5, False), (6, True)])
def test_r_a166_king_of_the_gobballs_sacrier_style_kos_him_with_six_injuries(injuries, ko):
    sc = Scenario(BOARD)
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1), injuries=injuries)
    sc.add("anna_tommy", side=0, at=(5, 0))
    sc.add("bill_tell", side=1, at=(5, 3))
    hold(sc, king, "sacrier_style")
    sc.activate(king)
    reveal(sc, king, "sacrier_style")
    assert king.alive is not ko
    assert sc.arena.gg == ([4, 9] if ko else [6, 6])  # a self-KO still gives its level (R-A131)


@pytest.mark.parametrize(
    ("token", "amount"), [("bulb_potion", 3), ("eniripsa_style", 7), ("ghetto_raid", 1), ("demons_spirit", 3)]
)
def test_r_a54_injury_removal_is_not_a_heal_no_healing_bonus(token, amount):
    healer = character("healer", hp=12, powers=("healing",))
    sc = Scenario(BOARD, specs=[healer])
    holder = sc.add(healer, side=0, at=(1, 1), injuries=9)
    sc.add("bill_tell", side=1, at=(5, 3))
    hold(sc, holder, token)
    sc.activate(holder)
    reveal(sc, holder, token)
    assert holder.injuries == 9 - amount  # never amount + 1
    assert sc.dice.remaining == 0  # no Critical roll


def test_r_a54_removal_is_up_to_its_amount():
    sc, hero, _ = duel()
    hero.injuries = 2
    hold(sc, hero, "eniripsa_style")
    sc.activate(hero)
    reveal(sc, hero, "eniripsa_style")
    assert hero.injuries == 0


@pytest.mark.parametrize(("coin", "drawn"), [(CRITICAL, True), (DODGE, False)])
def test_r_a54_ecaflip_style_heads_draws_a_face_down_gold_token(coin, drawn):
    sc, hero, _ = duel([coin])
    hold(sc, hero, "ecaflip_style")
    market = sc.arena.market
    gold_left = market.face_down_count(2)
    sc.activate(hero)
    reveal(sc, hero, "ecaflip_style")
    if drawn:
        (token,) = tokens_of(hero)
        assert token.spec.rank == "gold" and not token.face_up
        assert arena_stats(hero).rewards_held[-1] == f"{token.spec.id}:d"
        assert market.face_down_count(2) == gold_left - 1
    else:
        assert tokens_of(hero) == [] and market.face_down_count(2) == gold_left
    assert sc.dice.remaining == 0


def test_r_a140_ghetto_raid_one_mp_one_ap_and_one_injury():
    sc, hero, _ = duel()
    hero.injuries = 3
    hold(sc, hero, "ghetto_raid")
    sc.activate(hero)
    reveal(sc, hero, "ghetto_raid")
    assert (hero.mp, hero.ap, hero.injuries) == (4, 7, 2)


@pytest.mark.parametrize(("choice", "mp", "ap", "injuries"), [(0, 3, 9, 5), (1, 5, 6, 5), (2, 3, 6, 1)])
def test_r_a140_masqueraider_style_is_one_of_three_gains(choice, mp, ap, injuries):
    sc, hero, _ = duel()
    hero.injuries = 5
    hold(sc, hero, "masqueraider_style")
    sc.activate(hero)
    assert not can(sc, hero, "masqueraider_style", choice=3)
    reveal(sc, hero, "masqueraider_style", choice=choice)
    assert (hero.mp, hero.ap, hero.injuries) == (mp, ap, injuries)


def test_r_a41_recall_potion_puts_the_krosmaster_on_a_free_deployment_cell_without_lock():
    board = """. . . .
               . . . .
               a a a a"""
    sc = Scenario(board)
    anna = sc.add("anna_tommy", side=0, at=(1, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 0))  # Lock, adjacent
    sc.add("bill_tell", side=0, at=(0, 2))
    hold(sc, anna, "recall_potion")
    sc.activate(anna)
    assert not can(sc, anna, "recall_potion", target=(0, 2))  # taken
    assert not can(sc, anna, "recall_potion", target=(0, 1))  # not a deployment cell
    reveal(sc, anna, "recall_potion", target=(3, 2))
    assert sc.xy(anna) == (3, 2) and sc.events("lock_rolled") == []


def test_r_a131_demons_spirit_heals_gains_a_gg_and_three_kamas():
    sc, hero, _ = duel()
    hero.injuries = 4
    hold(sc, hero, "demons_spirit")
    sc.activate(hero)
    reveal(sc, hero, "demons_spirit")
    assert hero.injuries == 1 and sc.arena.gg == [7, 6] and kamas(sc)[0] == 3


def test_r_a140_wakfu_trumpet_two_mp_three_ap_four_injuries():
    sc, hero, _ = duel()
    hero.injuries = 6
    hold(sc, hero, "wakfu_trumpet")
    sc.activate(hero)
    reveal(sc, hero, "wakfu_trumpet")
    assert (hero.mp, hero.ap, hero.injuries) == (5, 9, 2)


# ------------------------------------------------------------------------------ upgrades


@pytest.mark.parametrize(("spell", "dealt"), [("zap", 2), ("splash", 1), ("bonk", 1)])
def test_r_a145_fire_upgrade_adds_one_to_fire_attacks_only(spell, dealt):
    sc, hero, dummy = duel(MISS)
    hold(sc, hero, "fire_upgrade")
    sc.activate(hero)
    reveal(sc, hero, "fire_upgrade")
    sc.cast(hero, spell, (3, 1))
    assert dummy.injuries == dealt


def test_r_a102_an_elemental_upgrade_gives_resistance_to_its_element():
    sc, hero, dummy = duel([NO_CRIT, NO_ARMOUR], hero=HERO)
    attacker = sc.add(HERO, side=1, at=(1, 3))
    hold(sc, hero, "fire_upgrade")
    sc.activate(hero)
    reveal(sc, hero, "fire_upgrade")
    sc.end_turn()
    sc.activate(attacker)
    sc.cast(attacker, "zap", (1, 1))  # 1 fire - 1 resistance
    assert hero.injuries == 0


def test_r_a160_likrone_blood_gives_four_powers_never_twice():
    sc = Scenario(BOARD, dice=[CRITICAL, CRITICAL, LOCK])
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1))  # Armour and Lock on the card
    sc.add("bill_tell", side=1, at=(2, 1))
    hold(sc, king, "likrone_blood")
    sc.activate(king)
    reveal(sc, king, "likrone_blood")
    assert {"critical", "armour", "dodge", "lock"} <= king.powers
    sc.cast(king, "gobbolob", (2, 1))  # Earth: two Critical dice now
    crit = [e for e in sc.events("dice_rolled") if e.roll == "critical"]
    assert [len(e.faces) for e in crit] == [2]


@pytest.mark.parametrize(("spell", "target", "dealt"), [("slash", (2, 1), 3), ("splash", (3, 1), 1)])
def test_r_a145_iop_style_adds_two_to_melee_elemental_attacks(spell, target, dealt):
    sc, hero, dummy = duel(MISS, target=target)
    hold(sc, hero, "iop_style")
    sc.activate(hero)
    reveal(sc, hero, "iop_style")
    sc.cast(hero, spell, target)
    assert dummy.injuries == dealt


def test_r_a145_iop_style_never_adds_to_neutral_damage():
    sc = Scenario(BOARD, dice=[NO_CRIT, NO_ARMOUR], specs=[HERO, DUMMY])
    hero = sc.add(HERO, side=0, at=(1, 1))
    dummy = sc.add(DUMMY, side=1, at=(2, 1))
    hold(sc, hero, "iop_style")
    hero.plus_ap = 0
    sc.activate(hero)
    reveal(sc, hero, "iop_style")
    sc.cast(hero, "punch", (2, 1))
    assert dummy.injuries == 1


def test_r_a48_r_a8_perfect_lock_holds_adjacent_enemies_tiny_ones_too():
    """Perfect Lock forbids adjacent enemies to spend MP to leave melee (seed L3013-L3016); Tiny
    (R-A103) only exempts from Lock *rolls*: the rule that forbids prevails (R-A8, L2113-L2115)."""
    sc = Scenario(BOARD, specs=[HERO, DUMMY])
    hero = sc.add(HERO, side=0, at=(1, 1))
    dummy = sc.add(DUMMY, side=1, at=(2, 1))
    tofu = sc.add("tofu", side=1, at=(1, 2))
    far = sc.add(DUMMY, side=1, at=(4, 3))
    hold(sc, hero, "perfect_lock")
    sc.activate(hero)
    reveal(sc, hero, "perfect_lock")
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(dummy)
    assert not sc.can_move(dummy, (3, 1)) and not sc.can_move(dummy, (2, 0))
    sc.end_turn()
    sc.activate(tofu)
    assert not sc.can_move(tofu, (0, 2))  # Tiny is held too: the prohibition wins (R-A8)
    sc.end_turn()
    sc.activate(far)
    assert sc.can_move(far, (4, 2))
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(hero)  # the upgrade leaves the card
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(dummy)
    assert sc.can_move(dummy, (3, 1))


def test_r_a164_feca_style_stops_elemental_injuries_and_their_extra_damage_not_effects_or_neutral():
    pusher = character(
        "pusher",
        spells=(
            spell(
                "gust",
                element="air",
                ap=3,
                amount=1,
                effects=(("push", {"cells": 1}), ("element_bonus", {"element": "air", "amount": 2})),
            ),
        ),
    )
    sc = Scenario(BOARD, dice=[CRITICAL, NO_ARMOUR, NO_CRIT, NO_ARMOUR], specs=[HERO, pusher])
    hero = sc.add(HERO, side=0, at=(1, 1))
    enemy = sc.add(pusher, side=1, at=(3, 1))
    hold(sc, hero, "feca_style")
    sc.activate(hero)
    reveal(sc, hero, "feca_style")
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(enemy)
    enemy.ap = 10
    sc.cast(enemy, "gust", (1, 1))  # 1 + 2 air extra + 1 critical: no injury, but the push applies
    assert hero.injuries == 0 and sc.xy(hero) == (0, 1)
    sc.move(enemy, (2, 1), (1, 1))
    sc.cast(enemy, "punch", (0, 1))  # neutral: Feca Style is useless against it
    assert hero.injuries == 1


def test_r_a81_sram_style_melee_elemental_plus_one_with_lifesteal():
    sc, hero, dummy = duel(MISS, target=(2, 1))
    hero.injuries = 4
    hold(sc, hero, "sram_style")
    sc.activate(hero)
    reveal(sc, hero, "sram_style")
    sc.cast(hero, "slash", (2, 1))
    assert dummy.injuries == 2 and hero.injuries == 2


def test_r_a145_stasis_crystal_plus_two_elemental_critical_and_armour():
    sc, hero, dummy = duel([CRITICAL, CRITICAL, NO_ARMOUR])
    hold(sc, hero, "stasis_crystal")
    sc.activate(hero)
    reveal(sc, hero, "stasis_crystal")
    assert hero.has("armour")
    sc.cast(hero, "zap", (3, 1))  # 1 + 2 + two Critical successes
    assert dummy.injuries == 5


def test_r_a73_cra_style_extends_only_extendable_ranges_and_adds_one_elemental():
    sc, hero, dummy = duel(MISS, target=(5, 1))
    hold(sc, hero, "cra_style")
    sc.activate(hero)
    assert not sc.can_cast(hero, "zap", (5, 1))  # 4 cells away, range 1-3
    reveal(sc, hero, "cra_style")
    assert sc.can_cast(hero, "zap", (5, 1))
    assert not sc.can_cast(hero, "snipe", (5, 1))  # a fixed range never changes
    sc.cast(hero, "zap", (5, 1))
    assert dummy.injuries == 2


# ------------------------------------------------------------------------------ equipment


def test_r_a140_ap_and_mp_from_equipment_are_usable_in_the_turn_it_is_revealed():
    sc, hero, _ = duel()
    hold(sc, hero, "set_mobility_range")
    sc.activate(hero)
    hero.ap -= 2
    reveal(sc, hero, "set_mobility_range")
    assert (hero.mp, hero.ap, hero.base_mp, hero.base_ap, hero.max_range_bonus) == (4, 5, 4, 7, 1)


def test_r_a140_hp_from_equipment_raises_max_hp_and_keeps_the_injuries():
    sc, hero, _ = duel()
    hero.injuries = 7
    hold(sc, hero, "pet_guardian")
    sc.activate(hero)
    reveal(sc, hero, "pet_guardian")
    assert (hero.hp, hero.injuries) == (16, 7) and hero.has("armour") and hero.has("lock")


@pytest.mark.parametrize(("mp_spent", "mp_after"), [(3, 0), (1, 1)])
def test_r_a165_treechnid_set_loses_an_mp_only_if_one_is_left(mp_spent, mp_after):
    sc = Scenario(BOARD, specs=[HERO, DUMMY])
    hero = sc.add(character("treechnid_test", mp=3, hp=12, ap=6), side=0, at=(0, 0))
    sc.add(DUMMY, side=1, at=(5, 3))
    hold(sc, hero, "treechnid_set")
    sc.activate(hero)
    path = [(1, 0), (2, 0), (3, 0)][:mp_spent]
    sc.move(hero, *path)
    reveal(sc, hero, "treechnid_set")
    assert (hero.mp, hero.hp, hero.ap) == (mp_after, 17, 8)
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(hero)
    assert (hero.mp, hero.hp, hero.ap) == (2, 17, 8)  # from the next turn: 2 MP, 17 HP, 8 AP


def test_r_a160_a_power_from_equipment_that_the_krosmaster_has_gives_nothing_more():
    sc = Scenario(BOARD, dice=[CRITICAL, CRITICAL, NO_ARMOUR])
    queen = sc.add("queen_of_the_tofus", side=0, at=(1, 1))  # Critical on her card
    target = sc.add("lil_healey", side=1, at=(3, 1))
    hold(sc, queen, "set_hp_critical")
    sc.activate(queen)
    reveal(sc, queen, "set_hp_critical")
    assert queen.hp == 10
    sc.cast(queen, "dan_to_fu", (3, 1))
    crit = [e for e in sc.events("dice_rolled") if e.roll == "critical"]
    assert [len(e.faces) for e in crit] == [2]  # still two dice, never three
    assert target.injuries == 3


@pytest.mark.parametrize(
    ("token", "spell", "cell"),
    [
        ("raziela_sword", "raziela_sword", (2, 1)),
        ("trici_daggers", "trici_daggers", (2, 1)),
        ("angel_bow", "angel_bow", (3, 1)),
        ("falist_hammer", "falist_hammer", (2, 1)),
        ("fruitful_shovel", "fruitful_shovel", (2, 1)),
        ("we_sceptre", "we_sceptre", (2, 1)),
    ],
)
def test_r_a143_a_weapon_grants_its_spell(token, spell, cell):
    sc, hero, dummy = duel(MISS * 3, target=cell)
    hold(sc, hero, token)
    sc.activate(hero)
    assert spell not in [s.id for s in hero.spells]
    reveal(sc, hero, token)
    assert hero.spells[-1].id == "punch"
    sc.cast(hero, spell, cell)
    assert dummy.injuries >= 1


def test_r_a143_the_angel_bow_range_never_changes():
    sc, hero, _ = duel(target=(5, 3))
    hold(sc, hero, "angel_bow")
    hold(sc, hero, "cra_style")
    sc.activate(hero)
    reveal(sc, hero, "angel_bow")
    reveal(sc, hero, "cra_style")
    bow = next(s for s in hero.spells if s.id == "angel_bow")
    from krosbalance.engine.legal import max_range

    assert max_range(sc.state, hero, bow) == 5


def test_r_a143_celestial_wand_heals_two_with_the_healing_bonus():
    sc = Scenario(BOARD, dice=[NO_CRIT], specs=[HERO])
    hero = sc.add(character("medic", powers=("healing",)), side=0, at=(1, 1))
    ally = sc.add("anna_tommy", side=0, at=(2, 1), injuries=5)
    sc.add("bill_tell", side=1, at=(5, 3))
    hold(sc, hero, "celestial_wand")
    sc.activate(hero)
    reveal(sc, hero, "celestial_wand")
    sc.cast(hero, "celestial_wand", (2, 1))
    assert ally.injuries == 2  # 2 + 1 (Healing: it is a healing spell)


@pytest.mark.parametrize(
    ("token", "spell", "dice", "dealt"),
    [
        ("cawwot_dofus", "zap", MISS, 2),
        ("water_air_dofus", "splash", MISS, 2),
        ("water_air_dofus", "zap", MISS, 1),
        ("fire_earth_dofus", "zap", [NO_CRIT, NO_CRIT, NO_ARMOUR], 2),  # Critical: two dice
    ],
)
def test_r_a145_dofus_damage_bonuses(token, spell, dice, dealt):
    sc, hero, dummy = duel(dice)
    hold(sc, hero, token)
    sc.activate(hero)
    reveal(sc, hero, token)
    sc.cast(hero, spell, (3, 1))
    assert dummy.injuries == dealt


@pytest.mark.parametrize(
    ("token", "mp", "hp", "ap", "range_"),
    [
        ("set_ap_armour", 3, 10, 7, 0),
        ("set_hp_counter", 3, 15, 6, 0),
        ("set_mp_dodge", 4, 10, 6, 0),
        ("set_hp_lock", 3, 14, 6, 0),
        ("set_hp_range", 3, 11, 6, 1),
        ("set_hp_healing", 3, 13, 6, 0),
        ("set_all_round", 4, 11, 7, 0),
        ("set_hp_critical", 3, 12, 6, 0),
        ("pet_all_round", 4, 11, 7, 0),
        ("pet_scout", 4, 13, 6, 1),
        ("pet_hunter", 3, 10, 6, 2),
        ("movement_dofus", 5, 10, 6, 0),
        ("vitality_dofus", 3, 18, 6, 0),
        ("action_dofus", 3, 10, 9, 0),
    ],
)
def test_r_a140_equipment_characteristics(token, mp, hp, ap, range_):
    sc, hero, _ = duel()
    hold(sc, hero, token)
    sc.activate(hero)
    reveal(sc, hero, token)
    assert (hero.base_mp, hero.hp, hero.base_ap, hero.max_range_bonus) == (mp, hp, ap, range_)
    assert (hero.mp, hero.ap) == (mp, ap)
