"""Kamas, GG purchases, GG gains and victory (R-A10, R-A22, R-A24, R-A49-R-A50, R-A128-R-A135)."""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK
from krosbalance.engine.legal import Action
from krosbalance.rulesets.arena.kinds import BUY_GG, PICK_KAMA
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.testing import Scenario

BOARD = """2 D . .
           1 . . .
           . . . ."""


def _scene(dice=(), **kwargs):
    sc = Scenario(BOARD, dice=dice, **kwargs)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 2))
    return sc, anna, king


def test_r_a22_kama_cells_and_demon_cells_start_with_their_kamas_the_rest_is_the_reserve():
    sc, anna, king = _scene()
    kamas = sc.arena.board_kamas
    assert (kamas[sc.cell(0, 0)], kamas[sc.cell(1, 0)], kamas[sc.cell(0, 1)]) == (2, 1, 1)
    assert sum(kamas) == 4
    assert sc.arena.kama_reserve == 54 - 4


def test_r_a24_r_a128_six_gg_each_and_one_wild_gg():
    sc, anna, king = _scene()
    assert sc.arena.gg == [6, 6] and sc.arena.wild_gg == 1 and sc.arena.gg_total() == 13
    assert sc.arena.kamas == [0, 0]


def test_r_a49_picking_up_a_kama_costs_one_ap_per_token_on_the_own_cell():
    sc, anna, king = _scene()
    sc.activate(anna)
    sc.pick_kama(anna)
    sc.pick_kama(anna)  # a cell showing 2 kamas needs 2 AP
    assert anna.ap == 4 and sc.arena.kamas == [2, 0]
    assert sc.arena.board_kamas[sc.cell(0, 0)] == 0
    assert not sc.can(anna, sc.move_action((0, 0)))
    assert not sc.can(anna, Action(PICK_KAMA))  # nothing left on the cell
    assert [e.kind for e in sc.events("kama_picked")] == ["kama_picked", "kama_picked"]


def test_r_a134_the_kama_stock_is_shared_by_the_team():
    sc, anna, king = _scene()
    lil = sc.add("lil_healey", side=0, at=(0, 1))
    sc.activate(anna)
    sc.pick_kama(anna)
    sc.end_turn()
    sc.activate(lil)
    sc.pick_kama(lil)
    assert sc.arena.kamas == [2, 0]


def test_r_a135_board_kamas_are_never_replenished():
    sc, anna, king = _scene()
    sc.activate(anna)
    sc.move(anna, (1, 0))
    sc.pick_kama(anna)  # the Demon cell's kama
    sc.end_turn()
    sc.new_turn(1)
    sc.new_turn(0)
    sc.activate(anna)
    assert sc.arena.board_kamas[sc.cell(1, 0)] == 0
    assert not sc.can(anna, Action(PICK_KAMA))


def test_r_a38_r_a49_creatures_cannot_pick_up_kamas_buy_or_punch():
    sc, anna, king = _scene()
    gobball = sc.add("gobball", side=1, at=(1, 0), summoner=king)  # on the Demon cell, with its kama
    sc.arena.kamas[1] = 20
    sc.activate(gobball)
    assert not sc.can(gobball, Action(PICK_KAMA))
    assert not sc.can(gobball, Action(BUY_GG))
    assert [s.id for s in gobball.spells] == ["bite"]  # R-A39: only Krosmasters punch
    assert [s.id for s in anna.spells][-1] == "punch"


def test_r_a50_buying_a_gg_takes_the_wild_gg_then_one_from_the_opponent():
    sc, anna, king = _scene()
    sc.arena.kamas[0] = 25
    reserve = sc.arena.kama_reserve
    sc.activate(anna)
    sc.move(anna, (1, 0))
    sc.buy_gg(anna)
    assert sc.arena.gg == [7, 6] and sc.arena.wild_gg == 0
    sc.buy_gg(anna)
    assert sc.arena.gg == [8, 5]
    assert sc.arena.kamas[0] == 5 and sc.arena.kama_reserve == reserve + 20  # paid to the reserve
    assert anna.ap == 4
    assert not sc.can(anna, sc.move_action((1, 0)))
    assert not sc.can(anna, Action(BUY_GG))  # 5 kamas are not enough
    assert [e.origin for e in sc.events("gg_changed")] == ["wild", "opponent"]


def test_r_a50_buying_a_gg_needs_a_demon_cell():
    sc, anna, king = _scene()
    sc.arena.kamas[0] = 10
    sc.activate(anna)
    assert not sc.can(anna, Action(BUY_GG))  # (0, 0) is a kama cell, not a Demon cell
    sc.move(anna, (1, 0))
    assert sc.can(anna, Action(BUY_GG))


def test_r_a50_option_gg_price():
    sc, anna, king = _scene(options={"gg_price": 12})
    sc.arena.kamas[0] = 11
    sc.activate(anna)
    sc.move(anna, (1, 0))
    assert not sc.can(anna, Action(BUY_GG))
    sc.arena.kamas[0] = 12
    sc.buy_gg(anna)
    assert sc.arena.kamas[0] == 0 and sc.arena.gg == [7, 6]


def _ko_king(sc, anna, king):
    """Anna (fire Assault, 1 + critical) KOs a King already carrying 9 injuries."""
    king.injuries = 9
    sc.activate(anna)
    sc.move(anna, (1, 0), (2, 0), (2, 1))
    sc.cast(anna, "assault", (2, 2))


def test_r_a129_ko_with_the_wild_gg_present_gives_the_wild_gg_plus_two_from_the_opponent():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 2))
    sc.add("bill_tell", side=1, at=(0, 2))
    _ko_king(sc, anna, king)
    assert not king.alive and king.cell == -1
    assert sc.arena.gg == [9, 4] and sc.arena.wild_gg == 0
    assert [(e.origin, e.amount) for e in sc.events("gg_changed")] == [("wild", 1), ("opponent", 2)]
    assert arena_stats(anna).gg_won == 3 and anna.stats.kills == 1
    assert sc.dice.remaining == 0


def test_r_a129_r_a131_ko_without_the_wild_gg_takes_the_level_from_the_opponent():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 2))
    sc.add("bill_tell", side=1, at=(0, 2))
    sc.arena.wild_gg = 0
    _ko_king(sc, anna, king)
    assert sc.arena.gg == [9, 3]
    assert not sc.state.finished  # both still hold GG
    assert sc.dice.remaining == 0


def test_r_a132_the_only_player_holding_gg_wins_once_the_wild_gg_is_gone():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 2))
    sc.add("bill_tell", side=1, at=(0, 2))
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [10, 3]
    _ko_king(sc, anna, king)
    assert sc.arena.gg == [13, 0]
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "gg"
    assert [e.kind for e in sc.state.events][-1] == "match_ended"


def test_r_a132_zero_gg_does_not_lose_while_a_wild_gg_remains_unless_the_variant_says_so():
    for variant in (False, True):
        sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK], options={"wild_gg": 2, "zero_gg_loses": variant})
        anna = sc.add("anna_tommy", side=0, at=(0, 0))
        king = sc.add("king_of_the_gobballs", side=1, at=(2, 2))
        sc.add("bill_tell", side=1, at=(0, 2))
        sc.arena.gg[:] = [6, 2]
        _ko_king(sc, anna, king)
        assert sc.arena.gg == [9, 0] and sc.arena.wild_gg == 1
        assert sc.state.finished is variant
        assert sc.state.winner == (0 if variant else None)
        assert sc.dice.remaining == 0


def test_r_a132_last_krosmaster_standing_wins():
    sc = Scenario(BOARD, dice=[CRITICAL, LOCK, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 2))
    _ko_king(sc, anna, king)
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "last_standing"


def test_r_a10_ko_removes_the_krosmaster_and_all_its_tokens_bombs_do_not_explode():
    sc = Scenario(
        """. . . . .
                     . . . . .
                     . . . . .""",
        dice=[CRITICAL, ARMOUR, LOCK],
    )
    kass = sc.add("kassius_kaos", side=0, at=(0, 1))
    bad = sc.add("bad_aboum", side=1, at=(2, 1), injuries=8)
    sc.add("king_of_the_gobballs", side=1, at=(4, 2))
    bomb = sc.add("water_bomb", side=1, at=(3, 1), summoner=bad)
    bomb2 = sc.add("water_bomb", side=1, at=(2, 0), summoner=bad)
    sc.activate(kass)
    sc.cast(kass, "irritating_sting", (2, 1))  # 2 Critical dice: 1 success; Bad's Armour die: miss
    assert not bad.alive
    assert not bomb.alive and bomb.cell == -1 and not bomb2.alive and bomb2.cell == -1
    assert sc.state.is_free(sc.cell(3, 1)) and sc.state.is_free(sc.cell(2, 0))
    assert sc.events("damaged")[-1].target == bad.uid  # no explosion damage after the KO
    assert sc.arena.gg == [9, 4]
    assert sc.dice.remaining == 0
