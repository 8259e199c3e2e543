"""Start of the game turn: tension roll, inspiration and refund (R-A26-R-A29)."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.arena.tension import TensionChoice
from krosbalance.testing import Scenario, ScriptedController

BOARD = """. . . .
           . . . ."""


def _two_sides(dice, **kwargs):
    sc = Scenario(BOARD, dice=dice, **kwargs)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    return sc, anna, king


def test_r_a26_double_costs_each_player_one_gg_to_the_box():
    sc, anna, king = _two_sides([ARMOUR, ARMOUR])
    reserve = sc.arena.kama_reserve
    controller = ScriptedController(tension=sc.tension((ARMOUR, ARMOUR)))
    sc.play_turn(controller)
    assert sc.arena.gg == [5, 5]
    assert sc.arena.wild_gg == 1
    assert sc.arena.gg_removed == 2
    assert sc.arena.gg_total() == 11
    (rolled,) = sc.events("tension_rolled")
    assert rolled.double and rolled.raw == (ARMOUR, ARMOUR)
    assert [e.origin for e in sc.events("gg_changed")] == ["tension", "tension"]
    assert sc.arena.kamas == [3, 0] and sc.arena.kama_reserve == reserve - 3  # both dice refunded
    assert sc.dice.remaining == 0 and controller.done


def test_r_a26_no_double_no_gg_lost():
    sc, anna, king = _two_sides([ARMOUR, LOCK])
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, LOCK))))
    assert sc.arena.gg == [6, 6] and sc.arena.gg_removed == 0
    assert sc.dice.remaining == 0


def test_r_a26_first_player_skips_the_tension_roll_on_his_very_first_turn():
    sc, anna, king = _two_sides([LOCK, DODGE], turn=0)
    controller = ScriptedController()
    sc.play_turn(controller)
    assert sc.state.turn == 1
    assert sc.events("tension_rolled") == []
    assert controller.raw_tension == []
    assert sc.arena.kamas == [0, 0]  # no refund either
    assert sc.dice.remaining == 2
    # the second game turn (the other player's first) does roll
    sc.play_turn(ScriptedController(tension=sc.tension((LOCK, DODGE))))
    assert len(sc.events("tension_rolled")) == 1
    assert sc.dice.remaining == 0


def test_r_a26_option_first_turn_tension_rolls_on_turn_one():
    sc, anna, king = _two_sides([LOCK, DODGE], turn=0, options={"first_turn_tension": True})
    sc.play_turn(ScriptedController(tension=sc.tension((LOCK, DODGE))))
    assert len(sc.events("tension_rolled")) == 1
    assert sc.dice.remaining == 0


def test_r_a26_roller_turns_wild_faces_and_may_avoid_a_double():
    sc, anna, king = _two_sides([CRITICAL, DOFUS])
    controller = ScriptedController(tension=sc.tension((CRITICAL, ARMOUR)))
    sc.play_turn(controller)
    assert controller.options_seen == [[(CRITICAL, f) for f in (CRITICAL, ARMOUR, LOCK, DODGE)]]
    assert sc.arena.gg == [6, 6]
    assert sc.dice.remaining == 0


def test_r_a26_roller_may_choose_a_double_from_wild_faces():
    sc, anna, king = _two_sides([CRIT_DODGE, DOFUS])
    sc.play_turn(ScriptedController(tension=sc.tension((DODGE, DODGE))))
    assert sc.arena.gg == [5, 5]
    assert sc.dice.remaining == 0


def test_r_a26_a_natural_double_is_forced():
    sc, anna, king = _two_sides([LOCK, LOCK])
    controller = ScriptedController(tension=sc.tension((LOCK, ARMOUR)))
    with pytest.raises(IllegalActionError):
        sc.play_turn(controller)
    assert controller.options_seen == [[(LOCK, LOCK)]]


def test_r_a26_double_ending_the_game_at_one_gg_each_with_no_wild_gg_is_a_draw():
    sc, anna, king = _two_sides([ARMOUR, ARMOUR])
    sc.arena.gg[:] = [1, 1]
    sc.arena.wild_gg = 0
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, ARMOUR))))
    assert sc.arena.gg == [0, 0]
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "gg_exhausted"
    assert sc.events("character_turn_started") == []  # the game ended before anyone acted


def test_r_a27_inspiration_gives_the_face_power_until_the_next_tension_roll():
    sc = Scenario(BOARD, dice=[ARMOUR, LOCK, CRITICAL, ARMOUR, DODGE, DODGE, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(2, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, LOCK), anna, None)))
    assert anna.inspired == {"armour"}
    assert sc.arena.kamas[0] == 1
    # it works during the opponent's turn: Anna rolls 2 Armour dice against Gobbolob
    sc.activate(king)
    sc.cast(king, "gobbolob", (2, 1))  # Critical roll: CRITICAL; Anna's Armour: ARMOUR, DODGE
    assert anna.injuries == 1  # 1 + 1 critical - 1 armour
    sc.end_turn()
    sc.state.active_side = 0
    # the next tension roll of player 0 takes the power away
    sc.play_turn(ScriptedController(tension=sc.tension((DODGE, LOCK))))
    assert anna.inspired == set()
    assert sc.dice.remaining == 0


def test_r_a27_only_own_krosmasters_in_play_may_receive_dice():
    sc, anna, king = _two_sides([DODGE, LOCK, DODGE, LOCK])
    gobball = sc.add("gobball", side=0, at=(1, 0), summoner=None)
    with pytest.raises(IllegalActionError):
        sc.play_turn(ScriptedController(tension=sc.tension((DODGE, LOCK), gobball, None)))
    with pytest.raises(IllegalActionError):
        sc.play_turn(ScriptedController(tension=sc.tension((DODGE, LOCK), king, None)))


def test_r_a27_both_dice_may_go_to_one_krosmaster():
    sc, anna, king = _two_sides([CRITICAL, DODGE])
    sc.play_turn(ScriptedController(tension=sc.tension((CRITICAL, DODGE), anna, anna)))
    assert anna.inspired == {"critical", "dodge"}
    assert sc.arena.kamas[0] == 0
    assert sc.dice.remaining == 0


@pytest.mark.parametrize(("assigned", "kamas"), [((False, False), 3), ((True, False), 1), ((True, True), 0)])
def test_r_a28_refund_three_kamas_for_two_dice_one_for_one(assigned, kamas):
    sc, anna, king = _two_sides([LOCK, DODGE])
    to = [anna if a else None for a in assigned]
    sc.play_turn(ScriptedController(tension=sc.tension((LOCK, DODGE), *to)))
    assert sc.arena.kamas == [kamas, 0]
    assert sc.dice.remaining == 0


def test_r_a29_dice_of_a_double_still_inspire_and_refund():
    sc, anna, king = _two_sides([DODGE, DODGE])
    sc.play_turn(ScriptedController(tension=sc.tension((DODGE, DODGE), anna, None)))
    assert sc.arena.gg == [5, 5]
    assert anna.has("dodge")
    assert sc.arena.kamas == [1, 0]
    assert sc.dice.remaining == 0


def test_tension_choice_faces_must_come_from_the_raw_dice():
    sc, anna, king = _two_sides([CRITICAL, ARMOUR])
    with pytest.raises(IllegalActionError):
        sc.play_turn(ScriptedController(tension=TensionChoice((DODGE, ARMOUR))))
