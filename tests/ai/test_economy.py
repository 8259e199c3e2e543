"""The AIs' Demonic Reward decisions: valuation, when to reveal, what to buy and for whom."""

from __future__ import annotations

import pytest

from krosbalance.ai.economy import advise, choose_alternative, gg_comes_first, improves, worth_buying
from krosbalance.ai.rewards import best_holder, expected_draw_value, kama_rate, reward_value
from krosbalance.content.registry import default_registry
from krosbalance.engine.legal import CAST, END, Action
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.arena.kinds import BUY_GG, BUY_REWARD, REVEAL_REWARD
from krosbalance.rulesets.arena.rewards import purchase_of, reveal_of
from krosbalance.rulesets.arena.view import arena_view
from krosbalance.testing import Scenario

BOARD = """D . . . .
           . . . . .
           . . . . ."""
END_ACTION = Action(END)


def reward(name):
    return default_registry().load_reward(name)


def position(options=None, at=(0, 0)):
    sc = Scenario(BOARD, options={"demonic_rewards": True, **(options or {})})
    sc.open_market()
    anna = sc.add("anna_tommy", side=0, at=at)  # fire attacks
    bill = sc.add("bill_tell", side=0, at=(4, 2))  # air attacks, long range
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 0))
    return sc, anna, bill, king


def test_a_token_is_worth_most_to_the_krosmaster_it_helps():
    sc, anna, bill, _ = position()
    view = MatchView(sc.state, 0)
    holders = [view.fighter(anna.uid), view.fighter(bill.uid)]
    assert best_holder(reward("fire_upgrade"), holders) == 0  # Anna's Assault is fire
    assert best_holder(reward("air_upgrade"), holders) == 1  # Bill's arrow is air
    assert reward_value(reward("water_upgrade"), holders[0]) < reward_value(
        reward("fire_upgrade"), holders[0]
    )
    assert (
        reward_value(reward("set_hp_healing"), holders[0])
        < reward_value(reward("set_hp_healing"), holders[1]) + 5
    )


def test_a_reward_is_bought_only_when_it_beats_a_gg_per_kama():
    assert kama_rate(10) == pytest.approx(0.33)
    assert worth_buying(4.0, 12, 10, gg_first=False)
    assert not worth_buying(1.0, 6, 10, gg_first=False)
    assert not worth_buying(10.0, 3, 10, gg_first=True)
    assert gg_comes_first(wild_gg=0, theirs=2, kamas=0, gg_price=10)
    assert not gg_comes_first(wild_gg=1, theirs=2, kamas=20, gg_price=10)


def test_a_random_draw_is_valued_at_the_mean_of_the_unseen_tokens():
    sc, anna, _, _ = position()
    holder = MatchView(sc.state, 0).fighter(anna.uid)
    pair = [reward("xelor_style"), reward("lightning")]
    mean = (reward_value(pair[0], holder) + reward_value(pair[1], holder)) / 2
    assert expected_draw_value(pair, [holder]) == pytest.approx(mean)


def test_advisor_reveals_equipment_at_once_and_an_attack_boost_right_before_its_attack():
    sc, anna, _, _ = position(at=(1, 0))
    sc.hold(anna, "fire_boost")
    sc.hold(anna, "pet_scout")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    me = view.fighter(anna.uid)
    first = advise(view, me, END_ACTION, first_decision=True)
    assert first is not None and first.kind == REVEAL_REWARD
    assert arena_view(view).reward_tokens(me)[reveal_of(first).token].id == "pet_scout"
    sc.do(anna, first)
    assert advise(view, me, END_ACTION, first_decision=False) is None  # the boost waits for its spell
    assault = sc.cast_action(anna, "assault", (3, 0))
    before = advise(view, me, assault, first_decision=False)
    assert (
        before is not None and arena_view(view).reward_tokens(me)[reveal_of(before).token].id == "fire_boost"
    )


def test_advisor_reveals_defences_as_the_activation_ends():
    sc, anna, _, _ = position()
    sc.hold(anna, "feca_style")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    me = view.fighter(anna.uid)
    assert advise(view, me, Action(CAST, 0, 1), first_decision=True) is None
    action = advise(view, me, END_ACTION, first_decision=False)
    assert action is not None and action.kind == REVEAL_REWARD


def test_r_a48_advisor_reveals_perfect_lock_only_with_an_enemy_in_melee_contact():
    """Perfect Lock (R-A48) is an Upgrade: it leaves the card at the holder's next turn (R-A54), so
    revealed with no enemy adjacent it holds nobody. The advisor keeps it until an enemy Krosmaster
    stands in melee contact at the end of the holder's activation."""
    sc, anna, _, king = position()
    sc.hold(anna, "perfect_lock")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    assert advise(view, view.fighter(anna.uid), END_ACTION, first_decision=False) is None  # king 3 away
    sc, anna, _, king = position(at=(2, 0))  # next to the King
    sc.hold(anna, "perfect_lock")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    action = advise(view, view.fighter(anna.uid), END_ACTION, first_decision=False)
    assert action is not None and action.kind == REVEAL_REWARD


def test_advisor_keeps_a_defence_upgrade_while_no_enemy_can_reach_the_holder():
    sc = Scenario(". " * 14 + "\n" + ". " * 14, options={"demonic_rewards": True})
    sc.open_market()
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(13, 1))  # 14 cells away: nobody strikes before it expires
    sc.hold(anna, "feca_style")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    assert advise(view, view.fighter(anna.uid), END_ACTION, first_decision=False) is None


def test_advisor_heals_when_it_is_worth_it():
    sc, anna, _, _ = position()
    sc.hold(anna, "bulb_potion")
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    me = view.fighter(anna.uid)
    assert advise(view, me, END_ACTION, first_decision=True) is None  # no injury
    anna.injuries = 4
    assert advise(view, me, END_ACTION, first_decision=True) is not None


def test_masqueraider_style_heals_a_krosmaster_in_danger_else_gives_ap():
    sc, anna, _, _ = position()
    me = MatchView(sc.state, 0).fighter(anna.uid)
    spec = reward("masqueraider_style")
    assert choose_alternative(spec, me) == 0  # +3 AP
    anna.injuries = 9
    assert choose_alternative(spec, me) == 2  # remove 4 injuries


def test_advisor_buys_on_a_demon_cell_for_the_ally_it_helps_most():
    sc, anna, bill, _ = position()
    sc.arena.kamas[0] = 12
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    action = advise(view, view.fighter(anna.uid), END_ACTION, first_decision=False)
    assert action is not None and action.kind == BUY_REWARD
    purchase = purchase_of(action)
    assert purchase.holder in (anna.uid, bill.uid)
    assert view.is_legal(action)


def test_advisor_keeps_the_kamas_for_a_gg_when_the_opponent_is_nearly_out():
    sc, anna, _, _ = position()
    sc.arena.kamas[0] = 12
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [11, 2]
    sc.activate(anna)
    view = MatchView(sc.state, 0)
    assert advise(view, view.fighter(anna.uid), Action(BUY_GG), first_decision=False) is None


def test_an_attack_bonus_improves_only_matching_attacks():
    sc, anna, _, _ = position()
    me = MatchView(sc.state, 0).fighter(anna.uid)
    assault = next(s for s in anna.spells if s.id == "assault")
    punch = next(s for s in anna.spells if s.id == "punch")
    assert improves(reward("fire_boost"), assault, me)
    assert not improves(reward("water_boost"), assault, me)
    assert not improves(reward("stasis_crystal"), punch, me)  # never neutral


def test_a_token_held_from_the_start_goes_to_the_krosmaster_it_helps_most():
    """R-A52 with ``start_rewards``: every AI (random included) gives it to the best holder."""
    import numpy as np

    from krosbalance.ai.registry import get_ai, list_ais

    sc, anna, bill, _ = position()
    view = MatchView(sc.state, 0)
    candidates = [view.fighter(anna.uid), view.fighter(bill.uid)]
    for name in list_ais():
        ai = get_ai(name)(np.random.default_rng(0))
        assert ai.give_reward(view, reward("air_upgrade"), candidates) == bill.uid
        assert ai.give_reward(view, reward("fire_upgrade"), candidates) == anna.uid


@pytest.mark.parametrize("ai", ["focus_fire", "kiter", "objective"])
def test_the_heuristic_planner_buys_and_reveals_in_full_economy_matches(ai):
    """The shared planner asks the advisor before its actions: with the economy on, matches of every
    heuristic see purchases and reveals, each legal (the engine checks every action)."""
    from krosbalance.content.registry import list_characters
    from krosbalance.engine.match import run_to_end
    from krosbalance.play import prepare_match
    from krosbalance.rulesets.arena.events import RewardBought, RewardRevealed

    box = list_characters(set="arena-box")
    bought = revealed = 0
    for seed in range(3):
        state, controllers, views = prepare_match(
            box[:4], box[4:], ai=ai, seed=seed, record="summary", options={"demonic_rewards": True}
        )
        run_to_end(state, controllers, views)
        assert state.finished
        bought += sum(isinstance(e, RewardBought) for e in state.events)
        revealed += sum(isinstance(e, RewardRevealed) for e in state.events)
    assert bought > 0 and revealed > 0
