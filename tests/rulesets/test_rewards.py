"""The Demonic Reward market, buying and giving (R-A23, R-A51-R-A53, FAQ R-A163)."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RANKS
from krosbalance.rulesets.rewards import (
    Purchase,
    buy,
    can_buy,
    purchases,
    setup_market,
    staged_turn_start,
)
from krosbalance.testing import Scenario

PRICES = {"granite": 3, "jade": 6, "gold": 12}
BOARD = """D . . .
           . . . .
           . . . ."""


def market(reveal="setup", seed=0):
    return setup_market(default_registry().all_rewards(), PRICES, reveal, np.random.default_rng(seed))


def shop(kamas=20, options=None, reveal="setup"):
    sc = Scenario(BOARD, options={**(options or {}), "reward_reveal": reveal})
    sc.state.market = market(reveal)
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))  # on the Demon cell
    ally = sc.add("bill_tell", side=0, at=(3, 2))
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.state.kamas[0] = kamas
    sc.activate(buyer)
    return sc, buyer, ally


def test_r_a23_six_face_down_piles_two_per_rank_and_one_token_face_up_beside_each():
    m = market()
    assert len(m.piles) == 6 and len(m.face_up) == 6
    ranks = default_registry().all_rewards()
    for pile, (beside, spec) in enumerate(m.face_up):
        assert beside == pile and spec.rank == RANKS[pile // 2]
    for r, rank in enumerate(RANKS):
        n = sum(1 for s in ranks if s.rank == rank)
        assert m.face_down_count(r) == n - 2
        assert all(s.rank == rank for s in m.piles[2 * r] + m.piles[2 * r + 1])
    assert m.count() == 60


def test_r_a23_the_piles_are_shuffled_by_the_set_up_stream():
    assert [s.id for s in market(seed=1).piles[0]] != [s.id for s in market(seed=2).piles[0]]
    assert [s.id for s in market(seed=1).piles[0]] == [s.id for s in market(seed=1).piles[0]]


def test_r_a51_buying_a_face_up_token_costs_one_ap_and_its_price_to_the_reserve():
    sc, buyer, ally = shop(kamas=7)
    m = sc.state.market
    index = next(i for i, (_, s) in enumerate(m.face_up) if s.rank == "jade")
    pile, spec = m.face_up[index]
    reserve = sc.state.kama_reserve
    move = Purchase(index, 1, ally.uid)
    assert can_buy(sc.state, buyer, move)
    buy(sc.state, buyer, move)
    assert buyer.ap == 5 and sc.state.kamas[0] == 1 and sc.state.kama_reserve == reserve + 6
    (token,) = ally.tokens  # R-A52: given to any ally, face down
    assert token.spec is spec and not token.face_up
    assert ally.stats.rewards_held == [f"{spec.id}:v"] and buyer.stats.rewards_bought == 1


def test_r_a23_refill_turns_up_the_top_of_the_same_pile():
    sc, buyer, ally = shop()
    m = sc.state.market
    index = next(i for i, (_, s) in enumerate(m.face_up) if s.rank == "granite")
    pile = m.face_up[index][0]
    top = m.piles[pile][-1]
    buy(sc.state, buyer, Purchase(index, 0, buyer.uid))
    assert (pile, top) in m.face_up and len(m.face_up) == 6


def test_r_a23_option_no_refill_leaves_the_place_empty():
    sc, buyer, ally = shop(options={"reward_refill": "none"})
    buy(sc.state, buyer, Purchase(0, 0, buyer.uid))
    assert len(sc.state.market.face_up) == 5


def test_r_a51_a_random_purchase_takes_a_face_down_token_of_the_chosen_rank():
    sc, buyer, ally = shop(kamas=12)
    m = sc.state.market
    before = m.face_down_count(2)
    spec = buy(sc.state, buyer, Purchase(-1, 2, buyer.uid))
    assert spec.rank == "gold" and m.face_down_count(2) == before - 1 and len(m.face_up) == 6
    assert buyer.stats.rewards_held == [f"{spec.id}:r"]


def test_r_a51_only_on_a_demon_cell_with_an_ap_and_the_price():
    sc, buyer, ally = shop(kamas=2)
    assert purchases(sc.state, buyer) == []  # 2 kamas buy nothing
    sc.state.kamas[0] = 3
    assert {p.rank for p in purchases(sc.state, buyer)} == {0}
    buyer.ap = 0
    assert purchases(sc.state, buyer) == []
    buyer.ap = 6
    sc.move(buyer, (1, 0))
    assert purchases(sc.state, buyer) == []


def test_r_a163_the_full_price_is_paid_before_any_effect():
    """With 4 kamas, Enutrof Style (jade, 6) cannot be bought on the strength of the 2 it returns."""
    sc, buyer, ally = shop(kamas=4)
    m = sc.state.market
    enutrof = default_registry().load_reward("enutrof_style")
    m.face_up.append((2, enutrof))
    index = len(m.face_up) - 1
    assert not can_buy(sc.state, buyer, Purchase(index, 1, buyer.uid))
    sc.state.kamas[0] = 6
    buy(sc.state, buyer, Purchase(index, 1, buyer.uid))
    assert sc.state.kamas[0] == 0


def test_r_a53_a_krosmaster_holds_at_most_its_level_in_tokens():
    sc, buyer, ally = shop(kamas=60)
    for _ in range(3):
        buy(sc.state, buyer, Purchase(-1, 0, buyer.uid))
    assert len(buyer.tokens) == 3
    assert not can_buy(sc.state, buyer, Purchase(-1, 0, buyer.uid))
    assert {p.holder for p in purchases(sc.state, buyer)} == {ally.uid}


def test_r_a52_only_allied_krosmasters_in_play_receive_tokens():
    sc, buyer, ally = shop()
    enemy = sc.state.timeline[1][0]
    assert not can_buy(sc.state, buyer, Purchase(-1, 0, enemy.uid))
    tofu = sc.add("tofu", side=0, at=(1, 1))
    assert not can_buy(sc.state, buyer, Purchase(-1, 0, tofu.uid))  # creatures hold no rewards


def test_r_a51_a_creature_cannot_buy():
    sc = Scenario(BOARD)
    sc.state.market = market()
    queen = sc.add("queen_of_the_tofus", side=0, at=(2, 2))
    tofu = sc.add("tofu", side=0, at=(0, 0), summoner=queen)  # on the Demon cell
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.state.kamas[0] = 20
    sc.activate(tofu)
    assert purchases(sc.state, tofu) == []


def test_option_staged_reveal_nothing_face_up_then_one_per_rank_each_turn():
    sc, buyer, ally = shop(reveal="staged")
    m = sc.state.market
    assert m.face_up == []  # the first player can buy only face down on turn one
    assert {p.visible for p in purchases(sc.state, buyer)} == {-1}
    sc.state.turn = 2
    staged_turn_start(sc.state)
    assert sorted(s.rank for _, s in m.face_up) == sorted(RANKS)
    buy(sc.state, buyer, Purchase(0, RANKS.index(m.face_up[0][1].rank), buyer.uid))
    assert len(m.face_up) == 2  # not replaced


@pytest.mark.parametrize("reveal", ["setup", "staged"])
def test_tokens_are_conserved_through_purchases(reveal):
    sc, buyer, ally = shop(kamas=100, reveal=reveal)
    m = sc.state.market
    sc.state.turn = 3
    staged_turn_start(sc.state)
    for move in (Purchase(-1, 0, buyer.uid), Purchase(-1, 2, ally.uid)):
        buy(sc.state, buyer, move)
    held = len(buyer.tokens) + len(ally.tokens)
    assert m.count() + held == 60
