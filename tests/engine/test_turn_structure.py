"""Character turns in Timeline order and their three phases (R-A11, R-A30-R-A37)."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK
from krosbalance.errors import IllegalActionError
from krosbalance.testing import END_TURN, Scenario, ScriptedController

from .specs import character, spell

BOARD = """. . . . .
           . . . . .
           . . . . ."""


def _activation_order(sc):
    return [e.uid for e in sc.events("character_turn_started")]


def test_r_a30_krosmasters_act_left_to_right_in_decreasing_initiative():
    sc = Scenario(BOARD, turn=0)
    lil = sc.add("lil_healey", side=0, at=(0, 0))  # initiative 1
    anna = sc.add("anna_tommy", side=0, at=(1, 0))  # 9
    bill = sc.add("bill_tell", side=0, at=(2, 0))  # 7
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.play_turn(ScriptedController())
    assert _activation_order(sc) == [anna.uid, bill.uid, lil.uid]
    assert sc.state.timeline[0] == [anna, bill, lil]


def test_r_a31_a_creature_summoned_this_turn_acts_right_after_its_summoner():
    sc = Scenario(BOARD, turn=0)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))  # 9
    king = sc.add("king_of_the_gobballs", side=0, at=(2, 1))  # 2
    lil = sc.add("lil_healey", side=0, at=(4, 0))  # 1
    sc.add("bill_tell", side=1, at=(4, 2))
    controller = ScriptedController(actions=[(king, sc.cast_action(king, "summon_gobball", (2, 2)))])
    sc.play_turn(controller)
    (gobball,) = king.summons
    assert sc.at((2, 2)) is gobball
    assert _activation_order(sc) == [anna.uid, king.uid, gobball.uid, lil.uid]
    assert controller.done and sc.dice.remaining == 0  # a summon rolls no dice (R-A64)


def test_r_a31_creatures_act_in_the_order_they_were_summoned():
    sc = Scenario(BOARD, turn=0)
    queen = sc.add("queen_of_the_tofus", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    first = sc.add("tofu", side=0, at=(2, 0), summoner=queen)
    second = sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    sc.play_turn(ScriptedController())
    assert _activation_order(sc) == [queen.uid, first.uid, second.uid]


def test_r_a33_markers_apply_at_activation_then_are_discarded():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    anna.minus_mp, anna.plus_ap = 1, 2
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (2, 8)
    assert (anna.plus_mp, anna.minus_mp, anna.plus_ap, anna.minus_ap) == (0, 0, 0, 0)
    (started,) = sc.events("character_turn_started")
    assert (started.mp, started.ap) == (2, 8)
    sc.end_turn()
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (3, 6)


def test_r_a33_mp_and_ap_are_spent_in_any_order():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 1))
    sc.add("lil_healey", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(anna)
    sc.move(anna, (1, 1))
    sc.cast(anna, "transposition", (2, 1))
    sc.move(anna, (2, 0))
    sc.cast(anna, "transposition", (1, 1))
    assert (anna.mp, anna.ap) == (1, 4)
    assert sc.xy(anna) == (1, 1)


def test_r_a34_no_more_minus_markers_than_the_characteristic():
    drain = spell(
        "drain",
        amount=0,
        element="neutral",
        effects=(("minus_mp", {"amount": 5}), ("minus_ap", {"amount": 9})),
    )
    caster = character("drainer", ap=12, spells=(drain,))
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[caster])  # two Critical misses, no Armour roll at 0
    me = sc.add(caster, side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(0, 2))  # 3 MP, 6 AP
    sc.activate(me)
    sc.cast(me, "drain", (0, 2))
    sc.cast(me, "drain", (0, 2))
    assert (anna.minus_mp, anna.minus_ap) == (3, 6)
    sc.end_turn()
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (0, 0)
    assert sc.dice.remaining == 0


def test_r_a35_markers_gained_during_a_turn_wait_for_the_next_activation():
    hasten = spell(
        "hasten",
        kind="special",
        ap=1,
        range_type="personal",
        rmin=0,
        rmax=0,
        amount=0,
        effects=(("steal_mp", {"amount": 1}),),
    )
    steal = spell(
        "steal",
        kind="special",
        ap=1,
        rmin=1,
        rmax=1,
        range_type="melee",
        amount=0,
        effects=(("steal_ap", {"amount": 1}),),
    )
    thief = character("thief", spells=(hasten, steal))
    sc = Scenario(BOARD, specs=[thief])
    me = sc.add(thief, side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(me)
    sc.cast(me, "steal", (2, 1))
    assert (me.mp, me.ap) == (3, 5)  # nothing now
    assert (me.plus_ap, king.minus_ap) == (1, 1)
    sc.end_turn()
    sc.activate(me)
    assert (me.mp, me.ap) == (3, 7)


def test_r_a36_this_turn_effects_end_with_the_activation():
    sc = Scenario(BOARD)
    bill = sc.add("bill_tell", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(bill)
    sc.cast(bill, "distant_shot")
    assert bill.range_bonus == 3 and bill.mp == 0 and bill.ap == 5
    sc.end_turn()
    assert bill.range_bonus == 0
    sc.activate(bill)
    assert bill.range_bonus == 0 and bill.mp == 3


def test_r_a11_unspent_mp_and_ap_are_lost_and_nothing_carries_over():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.activate(anna)
    sc.move(anna, (1, 0))
    assert (anna.mp, anna.ap) == (2, 6)
    sc.end_turn()
    assert (anna.mp, anna.ap) == (0, 0)
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (3, 6)


def test_r_a11_a_character_never_has_to_spend_anything():
    sc = Scenario(BOARD, turn=0)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.play_turn(ScriptedController(actions=[(anna, END_TURN)]))
    assert sc.xy(anna) == (0, 0) and not sc.state.finished


def test_r_a37_after_every_character_acted_the_opponent_becomes_active():
    sc = Scenario(BOARD, dice=[CRITICAL, ARMOUR], turn=0)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    sc.play_turn(ScriptedController())
    assert sc.state.active_side == 1 and sc.state.turn == 1
    assert [e.kind for e in sc.state.events][-1] == "turn_ended"
    controller = ScriptedController(tension=sc.tension((CRITICAL, ARMOUR)))
    sc.play_turn(controller)
    assert _activation_order(sc) == [anna.uid, king.uid]
    assert sc.state.active_side == 0 and sc.state.turn == 2
    assert sc.dice.remaining == 0


def test_r_a31_the_active_player_chooses_the_order_of_several_creatures():
    sc = Scenario(BOARD, turn=0)
    queen = sc.add("queen_of_the_tofus", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    first = sc.add("tofu", side=0, at=(2, 0), summoner=queen)
    second = sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    third = sc.add("tofu", side=0, at=(3, 1), summoner=queen)
    controller = ScriptedController(creature_orders=[[third, first, second]])
    sc.play_turn(controller)
    assert controller.creatures_seen == [[first.uid, second.uid, third.uid]]
    assert _activation_order(sc) == [queen.uid, third.uid, first.uid, second.uid]
    assert controller.done


def test_r_a31_an_order_that_is_not_of_the_creatures_is_refused():
    sc = Scenario(BOARD, turn=0)
    queen = sc.add("queen_of_the_tofus", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    first = sc.add("tofu", side=0, at=(2, 0), summoner=queen)
    sc.add("tofu", side=0, at=(1, 1), summoner=queen)
    with pytest.raises(IllegalActionError, match="creature order"):
        sc.play_turn(ScriptedController(creature_orders=[[first, first]]))


def _two_bombs(order):
    """Bad Aboum (1 HP left) starts his turn with two bombs from his last turn: bomb A next to the
    opponent's last Krosmaster (1 HP left), bomb B next to Bad. Each detonation is its own instant."""
    board = """. . . . . . .
               . . . . . . .
               . . . . . . ."""
    sc = Scenario(board, dice=[LOCK, LOCK])
    bad = sc.add("bad_aboum", side=0, at=(0, 1), injuries=9)
    bill = sc.add("bill_tell", side=1, at=(6, 1), injuries=5)
    bomb_a = sc.add("water_bomb", side=0, at=(5, 1), summoner=bad)
    bomb_b = sc.add("water_bomb", side=0, at=(1, 1), summoner=bad)
    sc.new_turn(0)
    controller = ScriptedController(trigger_orders=[order])
    sc.activate(bad, controller)
    assert [t.kind for t in controller.triggers_seen[0]] == ["self_detonation"] * 2
    assert [t.uid for t in controller.triggers_seen[0]] == [bomb_a.uid, bomb_b.uid]
    assert sc.dice.remaining == 0  # one explosion only: Critical LOCK, one Armour LOCK
    return sc, bad, bill, bomb_a, bomb_b


def test_r_a32_the_player_orders_simultaneous_self_detonations_and_each_is_one_instant():
    """Bomb A first: the opponent's last Krosmaster is KO'd and the match ends at once, before bomb B
    would KO Bad. Bomb B first: Bad is KO'd, his other bomb leaves without exploding (R-A113)."""
    sc, bad, bill, bomb_a, bomb_b = _two_bombs([0, 1])
    assert not bill.alive and bad.alive and bomb_b.alive
    assert sc.state.winner == 0 and sc.state.end_reason == "last_standing"
    sc, bad, bill, bomb_a, bomb_b = _two_bombs([1, 0])
    assert not bad.alive and bill.alive and not bomb_a.alive
    assert [e.spell for e in sc.events("spell_cast")] == ["explosion"]
    assert sc.state.winner == 1 and sc.state.end_reason == "last_standing"


def test_r_a36_end_of_turn_triggers_resolve_in_the_end_phase_in_the_players_order(monkeypatch):
    """Stimulus triggers when its holder's turn ends (R-A36); with two end-of-turn powers the
    controller orders them (a test-only second power, registered for this test alone)."""
    from krosbalance.engine import powers, turn
    from krosbalance.engine.powers import POWERS, PowerRule

    seen: list[str] = []
    monkeypatch.setitem(
        POWERS, "test_echo", PowerRule("test_echo", "R-A36", end_of_turn=lambda s, f: seen.append("echo"))
    )
    both = frozenset({"stimulus", "test_echo"})
    monkeypatch.setattr(powers, "END_OF_TURN_POWERS", both)
    monkeypatch.setattr(turn, "END_OF_TURN_POWERS", both)
    aly = character("aly", powers=(("stimulus", {"marker": "ap"}),))
    sc = Scenario(BOARD, specs=[aly])
    me = sc.add(aly, side=0, at=(1, 1))
    ally = sc.add("anna_tommy", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    me.powers.add("test_echo")
    sc.activate(me)
    assert ally.plus_ap == 0 and seen == []
    controller = ScriptedController(trigger_orders=[[1, 0]])
    sc.end_turn(controller=controller)
    assert [t.kind for t in controller.triggers_seen[0]] == ["stimulus", "test_echo"]
    assert seen == ["echo"] and ally.plus_ap == 1
    assert controller.done
