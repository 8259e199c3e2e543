"""The Demonic Reward market, buying and giving (R-A23, R-A51-R-A54, FAQ R-A163), as Arena actions."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RANKS
from krosbalance.engine.dice import ARMOUR, CRITICAL
from krosbalance.engine.legal import legal_actions
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.arena.kinds import BUY_REWARD, REVEAL_REWARD
from krosbalance.rulesets.arena.market import Purchase, setup_market, staged_turn_start
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.rewards import (
    Reveal,
    buy_action,
    purchase_of,
    reveal_action,
    reveal_of,
    reward_problems,
)
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.rulesets.arena.view import arena_view
from krosbalance.testing import Scenario, ScriptedController

PRICES = {"granite": 3, "jade": 6, "gold": 12}
BOARD = """D . . .
           . . . .
           . . . ."""


def market(reveal="setup", seed=0):
    return setup_market(default_registry().all_rewards(), PRICES, reveal, np.random.default_rng(seed))


def shop(kamas=20, options=None):
    sc = Scenario(BOARD, options={"demonic_rewards": True, **(options or {})})
    sc.open_market()
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))  # on the Demon cell
    ally = sc.add("bill_tell", side=0, at=(3, 2))
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.arena.kamas[0] = kamas
    sc.activate(buyer)
    return sc, buyer, ally


def _legal(sc, fighter):
    return legal_actions(sc.state, fighter)


def buy_moves(sc, buyer):
    return [purchase_of(a) for a in _legal(sc, buyer) if a.kind == BUY_REWARD]


def test_action_encodings_round_trip():
    for p in (Purchase(-1, 2, 7), Purchase(3, 1, 0)):
        assert purchase_of(buy_action(p)) == p
    for r in (Reveal(0), Reveal(2, 3, 17), Reveal(1, 1, -1)):
        assert reveal_of(reveal_action(r)) == r
    assert reveal_action(Reveal(0)).kind == REVEAL_REWARD


def test_r_a23_six_face_down_piles_two_per_rank_and_one_token_face_up_beside_each():
    m = market()
    assert len(m.piles) == 6 and len(m.face_up) == 6
    tokens = default_registry().all_rewards()
    for pile, (beside, spec) in enumerate(m.face_up):
        assert beside == pile and spec.rank == RANKS[pile // 2]
    for r, rank in enumerate(RANKS):
        n = sum(1 for s in tokens if s.rank == rank)
        assert m.face_down_count(r) == n - 2
        assert all(s.rank == rank for s in m.piles[2 * r] + m.piles[2 * r + 1])
    assert m.count() == m.total == len(tokens)


def test_r_a23_the_piles_are_shuffled_by_the_set_up_stream():
    assert [s.id for s in market(seed=1).piles[0]] != [s.id for s in market(seed=2).piles[0]]
    assert [s.id for s in market(seed=1).piles[0]] == [s.id for s in market(seed=1).piles[0]]


def test_r_a51_buying_a_face_up_token_costs_one_ap_and_its_price_to_the_reserve():
    sc, buyer, ally = shop(kamas=7)
    m = sc.arena.market
    index = next(i for i, (_, s) in enumerate(m.face_up) if s.rank == "jade")
    spec = m.face_up[index][1]
    reserve = sc.arena.kama_reserve
    sc.buy_reward(buyer, index, "jade", ally)
    assert buyer.ap == 5 and sc.arena.kamas[0] == 1 and sc.arena.kama_reserve == reserve + 6
    (token,) = tokens_of(ally)  # R-A52: given to any ally, face down
    assert token.spec is spec and not token.face_up
    assert arena_stats(ally).rewards_held == [f"{spec.id}:v"] and arena_stats(buyer).rewards_bought == 1
    assert sc.events("reward_bought")[0].visible


def test_r_a23_refill_turns_up_the_top_of_the_same_pile():
    sc, buyer, ally = shop()
    m = sc.arena.market
    index = next(i for i, (_, s) in enumerate(m.face_up) if s.rank == "granite")
    pile = m.face_up[index][0]
    top = m.piles[pile][-1]
    sc.buy_reward(buyer, index, "granite", buyer)
    assert (pile, top) in m.face_up and len(m.face_up) == 6


def test_r_a23_option_no_refill_leaves_the_place_empty():
    sc, buyer, ally = shop(options={"reward_refill": "none"})
    sc.buy_reward(buyer, 0, sc.arena.market.face_up[0][1].rank, buyer)
    assert len(sc.arena.market.face_up) == 5


def test_r_a51_a_random_purchase_takes_a_face_down_token_of_the_chosen_rank():
    sc, buyer, ally = shop(kamas=12)
    m = sc.arena.market
    before = m.face_down_count(2)
    sc.buy_reward(buyer, -1, "gold", buyer)
    (token,) = tokens_of(buyer)
    assert token.spec.rank == "gold" and m.face_down_count(2) == before - 1 and len(m.face_up) == 6
    assert arena_stats(buyer).rewards_held == [f"{token.spec.id}:r"]
    assert not sc.events("reward_bought")[0].visible


def test_r_a51_only_on_a_demon_cell_with_an_ap_and_the_price():
    sc, buyer, ally = shop(kamas=2)
    assert buy_moves(sc, buyer) == []  # 2 kamas buy nothing
    sc.arena.kamas[0] = 3
    assert {p.rank for p in buy_moves(sc, buyer)} == {0}
    buyer.ap = 0
    assert buy_moves(sc, buyer) == []
    buyer.ap = 6
    sc.move(buyer, (1, 0))
    assert buy_moves(sc, buyer) == []


def test_r_a51_no_market_no_purchase_without_the_option():
    sc = Scenario(BOARD)
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.arena.kamas[0] = 20
    sc.activate(buyer)
    assert not any(a.kind == BUY_REWARD for a in _legal(sc, buyer))
    assert not sc.can(buyer, buy_action(Purchase(-1, 0, buyer.uid)))


def test_r_a163_the_full_price_is_paid_before_any_effect():
    """With 4 kamas, Enutrof Style (jade, 6) cannot be bought on the strength of the 2 it returns."""
    sc, buyer, ally = shop(kamas=4)
    m = sc.arena.market
    enutrof = default_registry().load_reward("enutrof_style")
    for pile in m.piles:  # put Enutrof Style face up
        if enutrof in pile:
            pile.remove(enutrof)
    m.face_up = [(p, s) for p, s in m.face_up if s is not enutrof] + [(2, enutrof)]
    index = len(m.face_up) - 1
    assert not sc.can(buyer, buy_action(Purchase(index, 1, buyer.uid)))
    sc.arena.kamas[0] = 6
    sc.buy_reward(buyer, index, "jade", buyer)
    assert sc.arena.kamas[0] == 0
    sc.reveal(buyer, "enutrof_style")
    assert sc.arena.kamas[0] == 2


def test_r_a53_a_krosmaster_holds_at_most_its_level_in_tokens():
    sc, buyer, ally = shop(kamas=60)
    for _ in range(3):
        sc.buy_reward(buyer, -1, "granite", buyer)
    assert len(tokens_of(buyer)) == 3
    assert not sc.can(buyer, buy_action(Purchase(-1, 0, buyer.uid)))
    assert {p.holder for p in buy_moves(sc, buyer)} == {ally.uid}


def test_r_a52_only_allied_krosmasters_in_play_receive_tokens():
    sc, buyer, ally = shop()
    enemy = sc.state.timeline[1][0]
    assert not sc.can(buyer, buy_action(Purchase(-1, 0, enemy.uid)))
    tofu = sc.add("tofu", side=0, at=(1, 1))
    assert not sc.can(buyer, buy_action(Purchase(-1, 0, tofu.uid)))  # creatures hold no rewards


def test_r_a51_a_creature_cannot_buy():
    sc = Scenario(BOARD, options={"demonic_rewards": True})
    sc.open_market()
    queen = sc.add("queen_of_the_tofus", side=0, at=(2, 2))
    tofu = sc.add("tofu", side=0, at=(0, 0), summoner=queen)  # on the Demon cell
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.arena.kamas[0] = 20
    sc.activate(tofu)
    assert not any(a.kind == BUY_REWARD for a in _legal(sc, tofu))


def test_r_a52_a_bought_token_is_face_down_and_can_be_revealed_in_the_holders_own_activation():
    sc, buyer, ally = shop(kamas=12)
    sc.buy_reward(buyer, -1, "gold", ally)
    assert not any(a.kind == REVEAL_REWARD for a in _legal(sc, buyer))
    sc.end_turn()
    sc.activate(ally)
    assert any(a.kind == REVEAL_REWARD for a in _legal(sc, ally))


def test_option_staged_reveal_nothing_face_up_then_one_per_rank_each_turn():
    sc, buyer, ally = shop(options={"reward_reveal": "staged"})
    m = sc.arena.market
    assert m.face_up == []  # the first player can buy only face down on turn one
    assert {p.visible for p in buy_moves(sc, buyer)} == {-1}
    staged_turn_start(m, 2)
    assert sorted(s.rank for _, s in m.face_up) == sorted(RANKS)
    sc.buy_reward(buyer, 0, m.face_up[0][1].rank, buyer)
    assert len(m.face_up) == 2  # not replaced


def test_option_staged_reveal_happens_at_each_game_turn_start():
    sc = Scenario(
        BOARD, dice=[CRITICAL, ARMOUR], options={"demonic_rewards": True, "reward_reveal": "staged"}
    )
    sc.open_market()
    sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    sc.play_turn(ScriptedController(tension=sc.tension((CRITICAL, ARMOUR))))
    assert sc.state.turn == 2 and len(sc.arena.market.face_up) == 3


@pytest.mark.parametrize("reveal", ["setup", "staged"])
def test_tokens_are_conserved_through_purchases_and_reveals(reveal):
    sc, buyer, ally = shop(kamas=100, options={"reward_reveal": reveal})
    m = sc.arena.market
    staged_turn_start(m, 3)
    sc.buy_reward(buyer, -1, "granite", buyer)
    sc.buy_reward(buyer, -1, "gold", ally)
    held = len(tokens_of(buyer)) + len(tokens_of(ally))
    assert m.count() + held == m.total
    assert reward_problems(sc.state) == []


def test_r_a51_the_view_hides_the_opponents_face_down_tokens():
    """A player sees his own face-down tokens, never the opponent's (a random purchase is secret),
    and the unseen tokens of a rank never in pile order."""
    sc, buyer, ally = shop(kamas=30)
    enemy = sc.state.timeline[1][0]
    sc.buy_reward(buyer, -1, "gold", ally)
    sc.hold(enemy, "feca_style")
    secret = tokens_of(ally)[0].spec
    mine_view, theirs_view = MatchView(sc.state, 0), MatchView(sc.state, 1)
    mine, theirs = arena_view(mine_view), arena_view(theirs_view)
    assert mine.reward_tokens(mine_view.fighter(ally.uid)) == [secret]
    assert theirs.reward_tokens(theirs_view.fighter(ally.uid)) == [None]
    assert mine.reward_tokens(mine_view.fighter(enemy.uid)) == [None]
    unseen = theirs.unseen_rewards(2)
    assert secret in unseen and unseen == sorted(unseen, key=lambda s: s.id)
    assert secret not in mine.unseen_rewards(2)
    assert mine.face_down_left(2) == sc.arena.market.face_down_count(2)
    assert mine.market_face_up() == [s for _, s in sc.arena.market.face_up]
    assert mine.rewards_in_play and mine.reward_prices() == (3, 6, 12)


def test_r_a51_a_token_bought_face_up_is_seen_by_the_opponent():
    """Only a random purchase is secret (seed L2396-L2398): a token taken face up from the market is
    known to both players, on the card, in the unseen pool and in the copies an AI searches on."""
    from krosbalance.engine.dice import SeededDice

    sc, buyer, ally = shop(kamas=30)
    m = sc.arena.market
    index = next(i for i, (_, s) in enumerate(m.face_up) if s.rank == "gold")
    spec = m.face_up[index][1]
    sc.buy_reward(buyer, index, "gold", ally)
    sc.buy_reward(buyer, -1, "granite", ally)
    secret = tokens_of(ally)[1].spec
    theirs_view = MatchView(sc.state, 1)
    theirs = arena_view(theirs_view)
    assert theirs.reward_tokens(theirs_view.fighter(ally.uid)) == [spec, None]
    assert spec not in theirs.unseen_rewards(2)
    assert secret in theirs.unseen_rewards(0)
    for seed in range(4):
        copy = theirs_view.clone_state(SeededDice(np.random.default_rng(seed)))
        assert tokens_of(copy.fighters[ally.uid])[0].spec is spec
