"""The scenario kit refuses what the engine refuses and fails loudly on unscripted dice."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, LOCK
from krosbalance.errors import IllegalActionError, ScriptExhaustedError
from krosbalance.testing import END_TURN, Scenario, ScriptedController

BOARD = """. . .
           . . ."""


def test_add_places_pieces_and_builds_the_timeline():
    sc = Scenario(BOARD)
    lil = sc.add("lil_healey", side=0, at=(0, 0))
    anna = sc.add("Ann Atomy", side=0, at=(1, 0))  # any registry name or alias
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    assert sc.state.timeline == [[anna, lil], [king]]
    assert sc.at((1, 0)) is anna and sc.xy(king) == (2, 1) and sc.cell(2, 1) == 5
    assert [s.id for s in anna.spells] == ["assault", "transposition", "punch"]
    assert set(sc.state.summon_specs) == {"gobball"}
    with pytest.raises(ValueError):
        sc.add("bill_tell", side=0, at=(1, 0))
    with pytest.raises(ValueError):
        sc.cell(3, 0)


def test_actions_need_the_active_character_and_a_legal_action():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    with pytest.raises(IllegalActionError, match="not the active character"):
        sc.move(anna, (1, 0))
    sc.activate(anna)
    with pytest.raises(IllegalActionError):
        sc.move(anna, (1, 1))  # diagonal
    with pytest.raises(IllegalActionError):
        sc.cast(king, "gobbolob", (1, 1))
    with pytest.raises(KeyError):
        sc.cast(anna, "no_such_spell", (1, 0))


def test_activating_another_character_ends_the_previous_activation():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.activate(lil)
    assert (anna.mp, anna.ap) == (0, 0) and sc.state.active is lil


def test_activation_is_refused_once_the_match_is_over():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))  # nobody on side 1: last standing
    with pytest.raises(IllegalActionError, match="match is over"):
        sc.activate(anna)


def test_an_unscripted_roll_raises():
    sc = Scenario(BOARD, dice=[LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(1, 0))
    sc.activate(anna)
    with pytest.raises(ScriptExhaustedError):
        sc.move(anna, (0, 1))  # the King rolls 2 Lock dice


def test_scripted_controller_plays_its_actions_in_order_and_tension_answers():
    sc = Scenario(BOARD, dice=[ARMOUR, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    controller = ScriptedController(
        actions=[(anna, sc.move_action((1, 0))), (anna, END_TURN)],
        tension=sc.tension((ARMOUR, LOCK), anna),
    )
    sc.play_turn(controller)
    assert controller.done and controller.raw_tension == [(ARMOUR, LOCK)]
    assert sc.xy(anna) == (1, 0) and anna.inspired == {"armour"}
    assert sc.dice.remaining == 0


def test_unscripted_tension_roll_fails():
    sc = Scenario(BOARD, dice=[ARMOUR, LOCK])
    sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    with pytest.raises(AssertionError, match="unscripted tension"):
        sc.play_turn(ScriptedController())
