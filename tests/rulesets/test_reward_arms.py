"""The reward study's arms in the engine (issue 18): a token on a named holder (option
``start_reward_holders``), a token for sale to one side (``purchasable_rewards``, R-A51, R-A136),
and the game turns a token came and was revealed (the fighter columns)."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.economy import advise
from krosbalance.ai.rewards import best_holder, kama_rate, reward_value
from krosbalance.content.registry import default_registry, list_characters
from krosbalance.engine.legal import END, Action, legal_actions
from krosbalance.engine.view import MatchView
from krosbalance.errors import ContentError
from krosbalance.play import prepare_match
from krosbalance.rulesets.arena.kinds import BUY_REWARD
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.rewards import open_market, purchase_of
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.testing import Scenario

BOARD = """D . . .
           . . . .
           D . . ."""


def box_teams() -> tuple[list[str], list[str]]:
    box = list_characters(set="arena-box")
    return box[:4], box[4:8]


def test_r_a52_start_reward_holders_put_the_token_on_the_named_krosmaster_not_the_ais_pick() -> None:
    team_a, team_b = box_teams()
    token = default_registry().all_rewards()[0].id
    state, _, _ = prepare_match(
        team_a, team_b, ai="focus_fire", seed=1, options={"start_rewards": [[token], []]}
    )
    ai_pick = next(f for f in state.timeline[0] if tokens_of(f))
    named = next(f for f in state.timeline[0] if f.spec.id != ai_pick.spec.id)
    options = {"start_rewards": [[token], []], "start_reward_holders": [[named.spec.id], []]}
    state, _, _ = prepare_match(team_a, team_b, ai="focus_fire", seed=1, options=options)
    holders = [f for f in state.timeline[0] if tokens_of(f)]
    assert [f.spec.id for f in holders] == [named.spec.id]
    assert arena_stats(holders[0]).rewards_held == [f"{token}:s"]
    assert arena_stats(holders[0]).rewards_held_turns == [state.turn]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (
            {"start_rewards": [["<t>"], []], "start_reward_holders": [["nobody"], []]},
            "start_reward_holders[0][0]",
        ),
        (
            {"start_rewards": [["<t>"], []], "start_reward_holders": [["<b>"], []]},
            "start_reward_holders[0][0]",
        ),
        ({"purchasable_rewards": [["no_such_token"], []]}, "purchasable_rewards[0]"),
        (
            {"start_rewards": [["<t>"], []], "start_reward_holders": [["a", "b"], []]},
            "start_reward_holders[0]",
        ),
    ],
)
def test_r_a52_an_unknown_holder_or_token_is_one_clear_line(options, field) -> None:
    team_a, team_b = box_teams()
    token = default_registry().all_rewards()[0].id
    filled = {
        k: [[token if x == "<t>" else team_b[0] if x == "<b>" else x for x in side] for side in v]
        for k, v in options.items()
    }
    with pytest.raises(ContentError) as info:
        prepare_match(team_a, team_b, ai="focus_fire", seed=0, options=filled)
    assert info.value.field == field and "\n" not in str(info.value)


def shop(token: str, kamas: int):
    sc = Scenario(BOARD, options={"purchasable_rewards": [[token], []]})
    opts = sc.rules.options
    open_market(sc.state, opts, default_registry().all_rewards(), np.random.default_rng(0))
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))  # on a Demon cell
    ally = sc.add("bill_tell", side=0, at=(3, 1))
    rival = sc.add("king_of_the_gobballs", side=1, at=(0, 2))  # on the other Demon cell
    sc.arena.kamas[:] = [kamas, kamas]
    return sc, buyer, ally, rival


def test_r_a51_a_purchasable_reward_lies_face_up_and_only_its_side_may_buy_it() -> None:
    token = default_registry().all_rewards()[0]
    sc, buyer, ally, rival = shop(token.id, kamas=20)
    market = sc.arena.market
    assert [s.id for _, s in market.face_up] == [token.id]  # nothing else for sale
    sc.activate(buyer)
    buys = [purchase_of(a) for a in legal_actions(sc.state, buyer) if a.kind == BUY_REWARD]
    assert buys and all(p.visible == 0 for p in buys)  # no random face-down draw
    assert {p.holder for p in buys} == {buyer.uid, ally.uid}
    sc.activate(rival)
    assert not [a for a in legal_actions(sc.state, rival) if a.kind == BUY_REWARD]


def test_r_a136_the_ai_buys_the_token_for_sale_and_pays_its_price() -> None:
    """The advisor offered a single face-up token buys it (when it beats a GG per kama) and the
    purchase costs its rank's price (R-A136) and 1 AP (R-A51); the token goes face down to an ally."""
    sc0, buyer0, ally0, _ = shop(default_registry().all_rewards()[0].id, kamas=20)
    view0 = MatchView(sc0.state, 0)
    holders = [view0.fighter(buyer0.uid), view0.fighter(ally0.uid)]
    prices = sc0.arena.market.prices
    ranks = ("granite", "jade", "gold")
    worth = [
        s
        for s in default_registry().all_rewards()
        if max(reward_value(s, h) for h in holders) / prices[ranks.index(s.rank)]
        > kama_rate(sc0.arena.gg_price)
    ]
    assert worth, "no token beats a GG per kama for these two"
    spec = max(worth, key=lambda s: max(reward_value(s, h) for h in holders) / prices[ranks.index(s.rank)])
    price = prices[ranks.index(spec.rank)]
    sc, buyer, ally, _ = shop(spec.id, kamas=price + 1)
    sc.activate(buyer)
    view = MatchView(sc.state, 0)
    action = advise(view, view.fighter(buyer.uid), Action(END), first_decision=False)
    assert action is not None and action.kind == BUY_REWARD
    purchase = purchase_of(action)
    target = next(f for f in (buyer, ally) if f.uid == purchase.holder)
    assert (
        target.uid
        == [buyer.uid, ally.uid][best_holder(spec, [view.fighter(buyer.uid), view.fighter(ally.uid)])]
    )
    ap, reserve = buyer.ap, sc.arena.kama_reserve
    sc.do(buyer, action)
    assert sc.arena.kamas[0] == 1 and sc.arena.kama_reserve == reserve + price and buyer.ap == ap - 1
    assert [t.spec.id for t in tokens_of(target)] == [spec.id]
    assert arena_stats(target).rewards_held == [f"{spec.id}:v"]
    assert arena_stats(target).rewards_held_turns == [sc.state.turn]
    assert not sc.arena.market.face_up  # not replaced: nothing else is for sale


def test_r_a54_the_reveal_turn_is_recorded_beside_the_token() -> None:
    sc = Scenario(BOARD)
    hero = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(3, 2))
    equipment = next(s for s in default_registry().all_rewards() if s.kind == "equipment")
    sc.hold(hero, equipment.id)
    sc.state.turn = 3
    sc.activate(hero)
    sc.reveal(hero, equipment.id)
    values = arena_stats(hero).values()
    assert values["rewards_used"] == equipment.id and values["rewards_used_turns"] == "3"
