"""Additional-effect keywords (R-A81-R-A96)."""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, CRITICAL, DOFUS, LOCK
from krosbalance.testing import Scenario

from .specs import character, spell

BOARD = """. . . . . . .
           . . . . . . .
           . . . . . . ."""


def _special(id, *effects, rmin=1, rmax=3, range_type="classic"):
    return spell(
        id, kind="special", ap=1, amount=0, rmin=rmin, rmax=rmax, range_type=range_type, effects=effects
    )


def test_r_a81_lifesteal_heals_the_caster_by_the_injuries_inflicted():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK])
    oscar = sc.add("oscar_kass", side=0, at=(1, 1), injuries=5)
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(oscar)
    sc.cast(oscar, "con", (2, 1))
    assert anna.injuries == 2 and oscar.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a81_lifesteal_counts_only_the_markers_actually_placed():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK])
    oscar = sc.add("oscar_kass", side=0, at=(1, 1), injuries=5)
    anna = sc.add("anna_tommy", side=1, at=(2, 1), injuries=11)
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(oscar)
    sc.cast(oscar, "con", (2, 1))  # 2 damage, 1 HP left: 1 marker
    assert not anna.alive and oscar.injuries == 4
    assert sc.dice.remaining == 0


def test_r_a81_no_lifesteal_without_injury():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])
    oscar = sc.add("oscar_kass", side=0, at=(1, 1), injuries=5)
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(oscar)
    sc.cast(oscar, "con", (2, 1))
    assert anna.injuries == 0 and oscar.injuries == 5 and sc.events("healed") == []
    assert sc.dice.remaining == 0


def test_r_a82_pierce_armour_no_armour_roll_without_the_power():
    sc = Scenario(BOARD, dice=[LOCK])
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(lil)
    sc.cast(lil, "forbidden_word", (2, 1))
    assert anna.injuries == 1
    assert [e.roll for e in sc.events("dice_rolled")] == ["critical"]
    assert sc.dice.remaining == 0


def test_r_a82_pierce_armour_one_die_with_the_power():
    sc = Scenario(BOARD, dice=[LOCK, ARMOUR])
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(lil)
    sc.cast(lil, "forbidden_word", (2, 1))
    assert king.injuries == 0
    armour = [e for e in sc.events("dice_rolled") if e.roll == "armour"]
    assert [len(e.faces) for e in armour] == [1]
    assert sc.dice.remaining == 0


def test_r_a83_retreat_moves_the_caster_straight_away_from_the_target():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK])
    bad = sc.add("bad_aboum", side=0, at=(2, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.activate(bad)
    sc.cast(bad, "retreat_shot", (3, 1))  # adjacent to the King (Lock power): no Lock roll
    assert sc.xy(bad) == (1, 1) and king.injuries == 1
    assert sc.events("lock_rolled") == []
    assert [(e.how, e.uid) for e in sc.events("moved")] == [("retreat", bad.uid)]
    assert sc.dice.remaining == 0


def test_r_a83_r_a87_no_retreat_with_an_obstacle_behind():
    sc = Scenario(""". T . . .""")
    bad = sc.add("bad_aboum", side=0, at=(2, 0))
    sc.add("anna_tommy", side=1, at=(4, 0))
    sc.activate(bad)
    sc.cast(bad, "retreat_shot", (3, 0))  # an empty cell
    assert sc.xy(bad) == (2, 0) and sc.events("moved") == []
    sc.end_turn()
    sc2 = Scenario(""". . . . .""")
    bad2 = sc2.add("bad_aboum", side=0, at=(0, 0))
    sc2.add("anna_tommy", side=1, at=(4, 0))
    sc2.activate(bad2)
    sc2.cast(bad2, "retreat_shot", (1, 0))  # the board edge behind him
    assert sc2.xy(bad2) == (0, 0)


def test_r_a84_approach_moves_the_caster_toward_the_target():
    charger = character("charger", spells=(_special("charge", ("approach", {"cells": 2}), rmax=6),))
    sc = Scenario(BOARD, specs=[charger])
    me = sc.add(charger, side=0, at=(0, 1))
    sc.add("king_of_the_gobballs", side=1, at=(5, 1))
    sc.activate(me)
    sc.cast(me, "charge", (5, 1))
    assert sc.xy(me) == (2, 1)
    assert sc.dice.remaining == 0


def test_r_a85_push_moves_the_target_straight_away_from_the_caster():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(1, 1))
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 1))
    assert sc.xy(king) == (4, 1) and king.injuries == 3
    assert sc.events("lock_rolled") == []
    assert sc.dice.remaining == 0


def test_r_a85_r_a87_push_stops_before_an_obstacle_and_at_the_edge():
    sc = Scenario(
        """. . . . B .
                     . . . . . .""",
        dice=[LOCK, LOCK, LOCK, LOCK, LOCK, LOCK, LOCK, LOCK],
    )
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 0))
    sc.activate(kass)
    sc.cast(kass, "puff", (2, 0))
    assert sc.xy(king) == (3, 0)  # stops before the bush
    kass2 = sc.add("kassius_kaos", side=0, at=(3, 1))
    oscar = sc.add("oscar_kass", side=1, at=(5, 1))
    sc.end_turn()
    sc.activate(kass2)
    sc.cast(kass2, "puff", (5, 1))
    assert sc.xy(oscar) == (5, 1)  # the board edge
    assert oscar.injuries == 3 and sc.dice.remaining == 0


def test_r_a87_crates_do_not_stop_special_movement():
    sc = Scenario(""". . C . .""", dice=[LOCK, LOCK, LOCK, LOCK])
    kass = sc.add("kassius_kaos", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(1, 0))
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 0))
    assert sc.xy(king) == (4, 0)
    assert sc.dice.remaining == 0


def test_r_a86_attract_moves_the_target_toward_the_caster():
    hook = character("hooker", spells=(_special("hook", ("attract", {"cells": 2}), rmax=6),))
    sc = Scenario(BOARD, specs=[hook])
    me = sc.add(hook, side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(5, 1))
    sc.activate(me)
    sc.cast(me, "hook", (5, 1))
    assert sc.xy(king) == (3, 1)
    sc.cast(me, "hook", (3, 1))
    assert sc.xy(king) == (1, 1)
    sc.cast(me, "hook", (1, 1))
    assert sc.xy(king) == (1, 1)  # the caster is the obstacle


def test_r_a89_unfazed_pieces_ignore_movement_effects():
    rock = character("rock", powers=("unfazed",))
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK], specs=[rock])
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    target = sc.add(rock, side=1, at=(1, 1))
    sc.activate(kass)
    sc.cast(kass, "puff", (1, 1))
    assert sc.xy(target) == (1, 1) and target.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a90_r_a91_plus_and_minus_markers():
    curse = _special("curse", ("minus_mp", {"amount": 1}), ("minus_ap", {"amount": 2}))
    bless = _special("bless", ("plus_mp", {"amount": 2}), ("plus_ap", {"amount": 1}))
    shaman = character("shaman", spells=(curse, bless))
    sc = Scenario(BOARD, specs=[shaman])
    me = sc.add(shaman, side=0, at=(0, 1))
    lil = sc.add("lil_healey", side=0, at=(1, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(me)
    sc.cast(me, "curse", (2, 1))
    sc.cast(me, "bless", (1, 0))
    assert (anna.minus_mp, anna.minus_ap) == (1, 2) and (anna.mp, anna.ap) == (0, 0)
    assert (lil.plus_mp, lil.plus_ap) == (2, 1)
    sc.end_turn()
    sc.activate(lil)
    assert (lil.mp, lil.ap) == (5, 7)
    sc.end_turn()
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (2, 4)


def test_r_a92_r_a93_steal_puts_a_minus_marker_on_the_target_and_a_plus_on_the_caster():
    mug = _special("mug", ("steal_mp", {"amount": 1}), ("steal_ap", {"amount": 1}))
    thief = character("thief", spells=(mug,))
    sc = Scenario(BOARD, specs=[thief])
    me = sc.add(thief, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.activate(me)
    sc.cast(me, "mug", (2, 1))
    assert (me.plus_mp, me.plus_ap, anna.minus_mp, anna.minus_ap) == (1, 1, 1, 1)
    assert (me.mp, me.ap) == (3, 5)  # R-A94: nothing now
    sc.end_turn()
    sc.activate(anna)
    assert (anna.mp, anna.ap) == (2, 5)
    sc.end_turn()
    sc.activate(me)
    assert (me.mp, me.ap) == (4, 7)


def test_r_a95_assault_swaps_even_when_the_target_is_ko():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    lil = sc.add("lil_healey", side=1, at=(3, 1), injuries=6)
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(anna)
    sc.cast(anna, "assault", (3, 1))
    assert not lil.alive and lil.cell == -1
    assert sc.xy(anna) == (3, 1)
    assert sc.state.is_free(sc.cell(1, 1))
    assert sc.dice.remaining == 0


def test_r_a95_transposition_swaps_with_an_ally_only_without_lock():
    sc = Scenario(BOARD)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=0, at=(3, 1))
    queen = sc.add("queen_of_the_tofus", side=1, at=(0, 1))  # adjacent to Anna: no Lock on a swap
    gobball = sc.add("gobball", side=0, at=(1, 2), summoner=king)
    sc.activate(anna)
    assert not sc.can_cast(anna, "transposition", (0, 1))  # an enemy
    assert not sc.can_cast(anna, "transposition", (1, 1))  # herself
    sc.cast(anna, "transposition", (3, 1))
    assert sc.xy(anna) == (3, 1) and sc.xy(king) == (1, 1)
    sc.cast(anna, "transposition", (1, 2))  # an allied creature
    assert sc.xy(anna) == (1, 2) and sc.xy(gobball) == (3, 1)
    assert sc.events("lock_rolled") == [] and queen.alive


def test_r_a96_to_fu_ti_counts_only_her_own_tofus_adjacent_to_the_target():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK])
    queen = sc.add("queen_of_the_tofus", side=0, at=(0, 1))
    other_queen = sc.add("queen_of_the_tofus", side=0, at=(6, 0))
    anna = sc.add("anna_tommy", side=1, at=(3, 1))
    sc.add("tofu", side=0, at=(3, 0), summoner=queen)
    sc.add("tofu", side=0, at=(4, 1), summoner=queen)
    sc.add("tofu", side=0, at=(3, 2), summoner=other_queen)  # another Queen's Tofu does not count
    sc.add("tofu", side=0, at=(1, 0), summoner=queen)  # not adjacent to the target
    sc.activate(queen)
    sc.cast(queen, "dan_to_fu", (3, 1))  # Critical power: 2 dice; Anna: 1 Armour die
    assert anna.injuries == 3
    assert sc.dice.remaining == 0


def test_r_a96_gobbolob_plus_two_with_his_gobball_adjacent_to_the_target():
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK, DOFUS])
    king = sc.add("king_of_the_gobballs", side=0, at=(1, 1))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))
    sc.add("gobball", side=0, at=(3, 1), summoner=king)
    sc.activate(king)
    sc.cast(king, "gobbolob", (2, 1))
    assert anna.injuries == 3
    sc.cast(king, "gobbolob", (2, 1))  # 3 damage, 1 Armour success
    assert anna.injuries == 5
    assert sc.dice.remaining == 0


def test_r_a84_approach_toward_an_empty_cell_never_passes_it():
    """Approach 3 toward an empty cell one step away: the caster reaches it and stops there."""
    charger = character("charger", spells=(_special("charge", ("approach", {"cells": 3}), rmax=6),))
    sc = Scenario(BOARD, specs=[charger])
    me = sc.add(charger, side=0, at=(0, 1))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.activate(me)
    sc.cast(me, "charge", (1, 1))
    assert sc.xy(me) == (1, 1)
    assert [(e.origin, e.destination) for e in sc.events("moved")] == [(sc.cell(0, 1), sc.cell(1, 1))]


def test_r_a84_approach_off_the_line_stops_at_the_targets_column():
    """Not aligned: the move goes along the dominant axis (R-A88) and never past the target's column."""
    charger = character("charger", spells=(_special("charge", ("approach", {"cells": 5}), rmax=6),))
    sc = Scenario(BOARD, specs=[charger])
    me = sc.add(charger, side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.activate(me)
    sc.cast(me, "charge", (3, 1))
    assert sc.xy(me) == (3, 0)  # beside the King, not beyond him


def test_r_a86_attract_never_carries_the_target_past_the_caster():
    puller = character("puller", spells=(_special("lasso", ("attract", {"cells": 6}), rmax=6),))
    sc = Scenario(BOARD, specs=[puller])
    me = sc.add(puller, side=0, at=(2, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(6, 1))
    sc.activate(me)
    sc.cast(me, "lasso", (6, 1))
    assert sc.xy(king) == (2, 1)  # pulled along the row up to the caster's column, then stops
