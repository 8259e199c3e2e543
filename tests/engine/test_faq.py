"""FAQ rulings of §16 that do not need Demonic Rewards (R-A161-R-A172)."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK
from krosbalance.testing import Scenario

from .specs import GLOBULO, GULTARD, TRAP, TRAPPER, character, spell

BOARD = """. . . . . .
           . . . . . .
           . . . . . ."""


def _armour_dice(sc):
    return [len(e.faces) for e in sc.events("dice_rolled") if e.roll == "armour"]


def test_r_a161_armour_against_pierce_armour_rolls_one_die():
    sc = Scenario(BOARD, dice=[CRITICAL, ARMOUR])
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(lil)
    sc.cast(lil, "forbidden_word", (2, 1))
    assert _armour_dice(sc) == [1] and king.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a162_armour_from_several_sources_still_one_die_against_pierce_armour():
    sc = Scenario(BOARD, dice=[CRITICAL, ARMOUR])
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    king.inspired.add("armour")  # card + inspiration
    sc.activate(lil)
    sc.cast(lil, "forbidden_word", (2, 1))
    assert _armour_dice(sc) == [1] and king.injuries == 1
    assert sc.dice.remaining == 0


SACRIFICE = spell(
    "sacrifice", kind="special", ap=1, injuries=4, range_type="personal", rmin=0, rmax=0, amount=0
)
GOBBALL_KING = character("sacrificial_king", hp=10, ap=7, spells=(SACRIFICE,))


@pytest.mark.parametrize(("injuries", "legal", "ko"), [(5, True, False), (6, True, True), (7, False, False)])
def test_r_a166_r_a69_injury_cost_that_reaches_hp_kos_the_caster(injuries, legal, ko):
    """A 10 HP Krosmaster paying 4 injuries: with 6 it is KO (and the opponent gains its level in
    GG, R-A131), with 5 it survives, with 7 it cannot pay."""
    sc = Scenario(BOARD, specs=[GOBBALL_KING])
    king = sc.add(GOBBALL_KING, side=0, at=(0, 0), injuries=injuries)
    sc.add("anna_tommy", side=0, at=(5, 0))
    sc.add("bill_tell", side=1, at=(5, 2))
    sc.activate(king)
    assert sc.can_cast(king, "sacrifice") is legal
    if not legal:
        return
    sc.cast(king, "sacrifice")
    assert king.alive is not ko
    assert king.injuries == injuries + 4
    assert sc.arena.gg == ([4, 9] if ko else [6, 6])
    assert king.ap == 6


@pytest.mark.parametrize(("injuries", "legal"), [(11, False), (10, True)])
def test_r_a167_globulo_injury_cost_eleven_illegal_ten_legal_ko_and_the_spell_resolves(injuries, legal):
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK] if legal else [], specs=[GLOBULO])
    globulo = sc.add(GLOBULO, side=0, at=(0, 1), injuries=injuries)
    sc.add("lil_healey", side=0, at=(5, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(globulo)
    assert (globulo.ap, globulo.hp) == (7, 14)
    assert sc.can_cast(globulo, "life_transfer", (2, 1)) is legal
    if legal:
        sc.cast(globulo, "life_transfer", (2, 1))
        assert not globulo.alive and globulo.injuries == 14
        assert anna.injuries == 2  # the spell still took effect
        # KO when the cost is paid, yet the spell resolves from its cell; it leaves the board and
        # the opponent gains its level when the instant settles, after the spell (engine.instant)
        kinds = [e.kind for e in sc.state.events]
        assert kinds.index("knocked_out") < kinds.index("damaged") < kinds.index("gg_changed")
        assert globulo.cell == -1
        assert sc.arena.gg == [4, 9]
    assert sc.dice.remaining == 0


def test_r_a168_two_bill_tells_distant_shot_boosts_only_the_caster():
    sc = Scenario(". " * 13)
    caster = sc.add("bill_tell", side=0, at=(0, 0))
    other = sc.add("bill_tell", side=0, at=(1, 0))
    sc.add("anna_tommy", side=1, at=(12, 0))
    sc.activate(caster)
    sc.cast(caster, "distant_shot")
    assert caster.range_bonus == 3 and caster.mp == 0
    sc.end_turn()
    sc.activate(other)
    assert other.range_bonus == 0 and other.mp == 3
    assert not sc.can_cast(other, "plaguing_arrow", (11, 0))  # 10 away: beyond 8
    assert sc.can_cast(other, "plaguing_arrow", (9, 0))


def test_r_a169_push_retreat_attract_approach_are_not_subject_to_lock():
    hook = character(
        "hooker",
        spells=(spell("hook", kind="special", ap=1, amount=0, rmax=5, effects=(("attract", {"cells": 2}),)),),
    )
    sc = Scenario(BOARD, dice=[LOCK] * 5, specs=[hook, GULTARD])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(1, 1))  # Lock power, next to Kass and Anna
    sc.add("anna_tommy", side=0, at=(1, 0))
    me = sc.add(hook, side=0, at=(0, 2))
    gultard = sc.add(GULTARD, side=0, at=(4, 2))
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 1))  # Bad is pushed away from Anna (an enemy to him): no Lock
    assert sc.xy(bad) == (4, 1)
    sc.end_turn()
    sc.activate(me)
    sc.cast(me, "hook", (4, 1))  # Bad attracted 2 cells toward (0, 2): dominant axis x
    assert sc.xy(bad) == (2, 1)
    sc.end_turn()
    sc.activate(gultard)
    sc.cast(gultard, "charge", (2, 1))  # Gultard approaches Bad 2 cells along the dominant axis
    assert sc.xy(gultard) == (2, 2)
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(bad)
    sc.cast(bad, "retreat_shot", (2, 2))  # Bad retreats from Gultard, adjacent to him: no Lock
    assert sc.xy(bad) == (2, 0) and gultard.injuries == 1
    assert sc.events("lock_rolled") == []
    assert sc.dice.remaining == 0


def test_r_a170_special_movement_stops_before_the_first_impassable_cell():
    sc = Scenario(". . B . .", specs=[GULTARD])
    gultard = sc.add(GULTARD, side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(4, 0))
    sc.activate(gultard)
    sc.cast(gultard, "charge", (4, 0))
    assert sc.xy(gultard) == (1, 0) and sc.xy(anna) == (4, 0)
    assert [(e.origin, e.destination, e.how) for e in sc.events("moved")] == [(0, 1, "approach")]


def test_r_a171_a_trap_crossed_by_special_movement_does_not_fire():
    sc = Scenario(". . . . . .", dice=[LOCK, LOCK, LOCK, LOCK], specs=[TRAP, TRAPPER])
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    trapper = sc.add(TRAPPER, side=0, at=(5, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(1, 0))
    trap = sc.add(TRAP, side=0, at=(3, 0), summoner=trapper)
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 0))  # King pushed (1,0) -> (4,0) across the trap
    assert sc.xy(king) == (4, 0) and king.injuries == 3
    assert trap.alive and sc.state.traps == {sc.cell(3, 0): trap}
    assert sc.dice.remaining == 0


def test_r_a171_a_trap_where_the_special_movement_ends_fires_after_the_spell():
    sc = Scenario(". . . . . .", dice=[LOCK, LOCK, LOCK, LOCK, LOCK, LOCK, LOCK], specs=[TRAP, TRAPPER])
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    trapper = sc.add(TRAPPER, side=0, at=(5, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(1, 0))
    trap = sc.add(TRAP, side=0, at=(4, 0), summoner=trapper)
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 0))
    assert sc.xy(king) == (4, 0)
    assert not trap.alive and not sc.state.traps
    damaged = [(e.source, e.amount) for e in sc.events("damaged")]
    assert damaged == [(kass.uid, 3), (trap.uid, 1)]  # Puff's injuries first, then the trap's
    assert king.injuries == 4
    assert sc.dice.remaining == 0


def test_r_a172_plus_mp_and_ap_on_yourself_wait_for_your_next_turn():
    boost = spell(
        "boost",
        kind="special",
        ap=1,
        range_type="personal",
        rmin=0,
        rmax=0,
        amount=0,
        effects=(("plus_mp", {"amount": 2}), ("plus_ap", {"amount": 1})),
    )
    hero = character("hero", spells=(boost,))
    sc = Scenario(BOARD, specs=[hero])
    me = sc.add(hero, side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(5, 2))
    sc.activate(me)
    sc.cast(me, "boost")
    assert (me.mp, me.ap) == (3, 5)
    sc.end_turn()
    sc.activate(me)
    assert (me.mp, me.ap) == (5, 7)
    sc.end_turn()
    sc.activate(me)
    assert (me.mp, me.ap) == (3, 6)
