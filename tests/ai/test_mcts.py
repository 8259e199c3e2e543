"""The deeper search tier (mcts): determinized worlds (the dice and a fresh deal of the unseen
Demonic Rewards), successive halving over a counted budget, a transposition table, an evaluation
that prices kamas and held tokens, and a strength bar against lookahead.

The bar of issue 18 (>= 60% of >= 400 paired matches against lookahead, the 95% Wilson interval
above 50%) is the ``slow`` test, on mcts-race (mcts with the GG race priced in its own plans: mcts
itself scores about 56%, mcts-2 about 58%); the default suite plays a small slice of each.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from krosbalance.ai.determinize import redeal
from krosbalance.ai.evaluation import evaluate, evaluate_holdings, holdings_value
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.mcts import MCTSAI, position_key, undecided
from krosbalance.ai.registry import ai_tier, get_ai
from krosbalance.ai.rewards import kama_rate
from krosbalance.ai.rollout import ReplayDice
from krosbalance.ai.skilled import Kiter2AI
from krosbalance.ai.tuned import KiterRaceAI
from krosbalance.content.registry import list_characters
from krosbalance.engine.dice import LOCK, SeededDice
from krosbalance.engine.match import run_to_end
from krosbalance.engine.turn import game_turn
from krosbalance.engine.view import MatchView
from krosbalance.play import prepare_match
from krosbalance.rulesets.arena.state import arena_state
from krosbalance.rulesets.arena.tension import TensionChoice, apply_tension
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.testing.scenario import Scenario
from tests.ai.test_lookahead import CountingDice, _at_an_activation
from tests.ai.test_validity import paired_results, wilson
from tests.engine.test_clone import snapshot

BOX = list_characters(set="arena-box")
REWARDS = {"demonic_rewards": True}


def _market_position() -> tuple[Scenario, object, object]:
    sc = Scenario(". . . . . .\n. . . . . .", options=REWARDS)
    mine = sc.add("anna_tommy", side=0, at=(0, 0))
    theirs = sc.add("bill_tell", side=1, at=(5, 0))
    sc.open_market(seed=5)
    sc.hold(mine, "fire_boost")
    sc.hold(theirs, "xelor_style")
    sc.hold(theirs, "iop_style")
    sc.activate(theirs)
    sc.reveal(theirs, "iop_style")
    return sc, mine, theirs


def test_mcts_is_registered_in_the_search_tier() -> None:
    assert ai_tier("mcts") == "search"
    assert isinstance(get_ai("mcts")(np.random.default_rng(0)), MCTSAI)


def test_redeal_shuffles_only_what_the_side_has_not_seen() -> None:
    """R-A51, R-A52: a world keeps this side's tokens and every face-up one; the market's face-down
    piles and the enemy's face-down tokens are dealt again among themselves (rank and count kept),
    and different worlds deal them differently."""
    sc, mine, theirs = _market_position()
    view = MatchView(sc.state, 0)
    deals = set()
    for seed in range(6):
        world = view.clone_state(SeededDice(np.random.default_rng(0)))
        market = world.rules.market  # type: ignore[attr-defined]
        pool_before = Counter(s.id for p in market.piles for s in p) + Counter(
            t.spec.id for f in world.fighters if f.side == 1 for t in tokens_of(f) if not t.face_up
        )
        sizes = [len(p) for p in market.piles]
        ranks = [[s.rank for s in p] for p in market.piles]
        mine_before = [(t.spec.id, t.face_up) for t in tokens_of(world.fighters[mine.uid])]  # type: ignore[attr-defined]
        up_before = [t.spec.id for t in tokens_of(world.fighters[theirs.uid]) if t.face_up]  # type: ignore[attr-defined]
        redeal(world, 0, np.random.default_rng(seed))
        pool_after = Counter(s.id for p in market.piles for s in p) + Counter(
            t.spec.id for f in world.fighters if f.side == 1 for t in tokens_of(f) if not t.face_up
        )
        assert pool_after == pool_before
        assert [len(p) for p in market.piles] == sizes
        assert [[s.rank for s in p] for p in market.piles] == ranks
        assert [(t.spec.id, t.face_up) for t in tokens_of(world.fighters[mine.uid])] == mine_before  # type: ignore[attr-defined]
        assert [t.spec.id for t in tokens_of(world.fighters[theirs.uid]) if t.face_up] == up_before  # type: ignore[attr-defined]
        deals.add(tuple(s.id for p in market.piles for s in p))
    assert len(deals) > 1


def test_mcts_does_not_peek_at_hidden_tokens() -> None:
    """R-A52: two matches that differ only in what side 0 cannot see (the enemy's face-down token
    and the market's pile order) get the same decision and the same search from the same seed."""
    seed = 11
    first = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=seed, options=REWARDS)
    second = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=seed, options=REWARDS)
    decisions = []
    for state, _, _ in (first, second):
        side = state.active_side
        arena = arena_state(state)
        market = arena.market
        assert market is not None
        enemy = next(k for k in state.timeline[1 - side])
        gold = [s for p in market.piles[4:] for s in p]
        enemy_card_before = len(tokens_of(enemy))
        if state is second[0]:
            for pile in market.piles:  # another real pile order
                pile.reverse()
        from krosbalance.rulesets.arena.tokens import HeldToken, RewardCard

        if enemy.extra is None:
            enemy.extra = RewardCard()
        # the enemy holds a different face-down gold token in each match
        assert gold[0].id != gold[-1].id
        pick = gold[0] if state is first[0] else gold[-1]
        enemy.extra.tokens.append(HeldToken(pick))  # type: ignore[union-attr]
        assert len(tokens_of(enemy)) == enemy_card_before + 1
        from krosbalance.engine.turn import begin_activation

        state.turn += 1
        me = next(k for k in state.timeline[side] if k.alive)
        assert begin_activation(state, me)
        ai = MCTSAI(np.random.default_rng(3), candidates=3, schedule=(1, 2))
        action = ai.choose_action(MatchView(state, side))
        decisions.append((action, ai.rollouts, ai.transpositions, ai.base._steps))
    assert decisions[0][:3] == decisions[1][:3]
    assert [(s.kind, s.target) for s in decisions[0][3]] == [(s.kind, s.target) for s in decisions[1][3]]


@pytest.mark.parametrize("seed", [1, 2])
def test_mcts_never_rolls_the_match_dice_nor_changes_the_match(seed: int) -> None:
    state, side, _ = _at_an_activation(seed)
    dice = CountingDice(seed)
    state.dice = dice
    before = snapshot(state)
    ai = MCTSAI(np.random.default_rng(seed), candidates=3, schedule=(1, 2))
    action = ai.choose_action(MatchView(state, side))
    assert dice.rolls == 0
    assert snapshot(state) == before
    assert MatchView(state, side).is_legal(action)


def test_budget_is_a_count_cut_by_successive_halving() -> None:
    """6 plans meet 2 worlds, the best 3 go on to 4, the best 2 to 8: at most 6*2 + 3*2 + 2*4
    rollouts, the transpositions answering the rest."""
    state, side, _ = _at_an_activation(3)
    ai = MCTSAI(np.random.default_rng(0), candidates=6, schedule=(2, 4, 8))
    ai.choose_action(MatchView(state, side))
    assert ai.searches == 1
    assert ai.rollouts + ai.transpositions == 6 * 2 + 3 * 2 + 2 * 4
    assert ai.rollouts > 0
    ai.choose_action(MatchView(state, side))  # same activation: no new search
    assert ai.searches == 1


def test_a_schedule_must_grow() -> None:
    with pytest.raises(ValueError, match="schedule"):
        MCTSAI(np.random.default_rng(0), schedule=(2, 2))


def _at_a_tension_roll(seed: int):  # type: ignore[no-untyped-def]
    """A match after a few game turns, stopped where the side to play rolls its tension dice."""
    state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=seed)
    for _ in range(3):
        game_turn(state, controllers[state.active_side], views[state.active_side])
    side = state.active_side
    state.turn += 1
    for fighter in state.timeline[side]:
        fighter.inspired.clear()
    return state, side


def test_apply_tension_is_the_second_half_of_the_tension_roll() -> None:
    """R-A26-R-A28 by the rules' own code: a forced double costs each player a GG, and a refunded
    die pays a kama, applied to a copy exactly as the roll applies it."""
    state, side = _at_a_tension_roll(5)
    copy_ = MatchView(state, side).clone_state(ReplayDice([0]))
    arena = arena_state(copy_)
    gg_before, kamas_before = list(arena.gg), list(arena.kamas)
    first = next(k for k in copy_.timeline[side] if k.alive)
    apply_tension(copy_, side, (LOCK, LOCK), TensionChoice((LOCK, LOCK), (first.uid, -1)))
    assert arena.gg == [g - 1 for g in gg_before]
    assert arena.kamas[side] == kamas_before[side] + 1
    assert "lock" in first.inspired


def test_position_key_tells_positions_and_dice_apart() -> None:
    state, side, first = _at_an_activation(4)
    dice = ReplayDice(list(range(6)) * 10)
    copy_ = MatchView(state, side).clone_state(dice)
    key = position_key(copy_, dice)
    assert position_key(copy_, dice) == key
    dice.roll()
    assert position_key(copy_, dice) != key
    moved = copy_.fighters[first.uid]
    moved.injuries += 1
    assert position_key(copy_, dice) != key


def test_holdings_price_kamas_at_what_they_buy_and_tokens_at_their_worth() -> None:
    """R-A50: a kama is worth a share of the going rate through GG (10 kamas a GG), not a flat
    0.1; a held token is worth its value to the holder, the enemy's counted against."""
    sc, mine, theirs = _market_position()
    state = sc.state
    base = holdings_value(state, 0)
    assert holdings_value(state, 1) == pytest.approx(-base)
    arena = arena_state(state)
    arena.kamas[0] += 5
    assert holdings_value(state, 0) - base == pytest.approx(5 * 0.6 * kama_rate(arena.gg_price))
    without = holdings_value(state, 0)
    tokens_of(mine).clear()  # type: ignore[arg-type]
    assert holdings_value(state, 0) < without  # the fire boost on Anna's card was worth something
    assert evaluate_holdings(state, 0) == pytest.approx(
        evaluate(state, 0, kama_worth=0.0) + holdings_value(state, 0)
    )


def test_same_seed_same_match() -> None:
    """Deterministic: a match with the search tier is a pure function of its seed (a small budget,
    for the pure build's sake)."""
    logs = []
    for _ in range(2):
        state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=21, record="full")
        players = [MCTSAI(np.random.default_rng(21), candidates=3, schedule=(1, 2)), controllers[1]]
        run_to_end(state, players, views)
        assert players[0].searches > 0
        logs.append((state.winner, state.turn, [repr(e) for e in state.events]))
    assert logs[0] == logs[1]


def test_mcts_slice_holds_its_own_against_lookahead() -> None:
    """A small slice of the head-to-head (the 400-match bar is the slow test below)."""
    wins, draws, n = paired_results("mcts", "lookahead", deals=2, seed=18)
    assert (wins + 0.5 * draws) / n >= 0.5, f"mcts won {wins}/{n} against lookahead"


@pytest.mark.parametrize(("name", "planner"), [("mcts-2", Kiter2AI), ("mcts-race", KiterRaceAI)])
def test_the_mcts_tiers_are_mcts_with_their_own_planner_and_the_kiter_reply(name: str, planner: type) -> None:
    """mcts-2 plans with kiter-2 (the -2 skills), mcts-race with kiter-race (the GG race priced); the
    reply is still modelled by kiter, and the budget and prior are mcts's."""
    ai = get_ai(name)(np.random.default_rng(0))
    assert isinstance(ai, MCTSAI) and ai_tier(name) == "search"
    assert type(ai.base) is planner and type(ai.model) is KiterAI
    plain = get_ai("mcts")(np.random.default_rng(0))
    assert isinstance(plain, MCTSAI)
    assert (ai.candidates, ai.schedule, ai.prior) == (plain.candidates, plain.schedule, plain.prior)


@pytest.mark.parametrize("name", ["mcts-2", "mcts-race"])
def test_the_mcts_tiers_slice_holds_its_own_against_lookahead(name: str) -> None:
    """A small slice of the head-to-head the slow test below plays in full (on mcts-race)."""
    wins, draws, n = paired_results(name, "lookahead", deals=2, seed=18)
    assert (wins + 0.5 * draws) / n >= 0.5, f"{name} won {wins}/{n} against lookahead"


@pytest.mark.slow
def test_mcts_race_beats_lookahead_in_60_percent_of_400_paired_matches() -> None:
    """The deeper tier's bar (issue 18, item 3) on mcts-race: mcts with the GG race priced in its own
    plans (kiter-race). mcts-2 scored 60.8% of these deals but 57.9% pooled over every deal set it
    met; mcts-race's figures on deal sets no screen chose it on are in the README ('The GG race')."""
    wins, draws, n = paired_results("mcts-race", "lookahead", deals=200, seed=1800)
    score = wins + 0.5 * draws
    low, _ = wilson(int(score), n)
    assert n == 400
    assert score / n >= 0.6 and low > 0.5, f"mcts-race scored {score}/{n} (CI low {low:.3f})"


def test_the_union_keeps_the_base_plans_first_and_adds_each_other_plan_once_at_the_lowest_value() -> None:
    """``alternatives`` (issue 39): plans another heuristic proposes join the base's, after them; a
    plan with the same steps and walk as one already in is left out; an added plan is valued at the
    lowest of the base's values, so the prior never favours it for its origin."""
    from krosbalance.ai.casts import Step
    from krosbalance.ai.plan_choice import union_of_plans
    from krosbalance.ai.plan_search import Plan

    def plan(cell: int, value: float, route: tuple[int, ...] = ()) -> Plan:
        return Plan([Step("goto", cell, 0), Step("end")], value, list(route))

    base = [plan(3, 2.0), plan(4, 1.5)]
    union = union_of_plans(base, [[plan(4, 9.0), plan(5, 7.0)], [plan(5, 1.0), plan(5, 1.0, (1, 5))]])
    assert [p.steps[0].arg for p in union] == [3, 4, 5, 5]
    assert [p.value for p in union] == [2.0, 1.5, 1.5, 1.5]
    assert union[3].route == [1, 5]
    assert union_of_plans(base, []) == base


def test_the_alternatives_are_built_and_alt_plans_must_be_positive() -> None:
    ai = MCTSAI(np.random.default_rng(5), candidates=2, schedule=(1,), alternatives=(KiterRaceAI,))
    assert len(ai.alternatives) == 1 and ai.alt_plans == 1
    with pytest.raises(ValueError, match="alt_plans must be positive"):
        MCTSAI(np.random.default_rng(5), alternatives=(KiterRaceAI,), alt_plans=0)


def test_mcts_deep_is_the_confirmed_screening_form() -> None:
    """``mcts-deep`` (issue 39, item 4) is the variant confirmed in
    ``reports/ai-ladder-connected/NOTES-2026-12-07-stronger-ai-2.md`` (row 23): a search AI whose
    knobs are those of the screening form, which the core plays as ``search_spec("mcts-deep")``."""
    from krosbalance.ai.focus_fire import FocusFireAI
    from krosbalance.ai.objective import ObjectiveAI

    ai = get_ai("mcts-deep")(np.random.default_rng(0))
    assert isinstance(ai, MCTSAI) and ai_tier("mcts-deep") == "search"
    assert (ai.candidates, ai.schedule, ai.prior, ai.keep_base, ai.alt_plans) == (
        16,
        (4, 8, 16, 32),
        0.0,
        True,
        1,
    )
    assert type(ai.base) is KiterRaceAI and type(ai.model) is KiterRaceAI and not ai.replies
    assert [type(a) for a in ai.alternatives] == [KiterAI, FocusFireAI, ObjectiveAI]


def test_confirm_and_confirm_turns_are_checked() -> None:
    with pytest.raises(ValueError, match="confirm needs keep_base"):
        MCTSAI(np.random.default_rng(0), confirm=8)
    with pytest.raises(ValueError, match="at least 2 worlds"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm=1)
    with pytest.raises(ValueError, match="confirm_turns needs confirm"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm_turns=3)


def test_the_sequential_confirmation_is_checked_and_waits_out_close_calls_only() -> None:
    """``confirm_max`` needs ``confirm`` and lies above it; more fresh worlds are drawn while the
    paired mean is within ``confirm_band`` standard errors of the margin (:func:`undecided`)."""
    with pytest.raises(ValueError, match="confirm_max needs confirm"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm_max=32)
    with pytest.raises(ValueError, match="confirm_max needs confirm"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm=16, confirm_max=16)
    with pytest.raises(ValueError, match="confirm_step must be positive"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm=16, confirm_max=32, confirm_step=0)
    with pytest.raises(ValueError, match="confirm_band must be >= 0"):
        MCTSAI(np.random.default_rng(0), keep_base=True, confirm=16, confirm_max=32, confirm_band=-1.0)
    ai = MCTSAI(np.random.default_rng(0))
    assert (ai.confirm_max, ai.confirm_step, ai.confirm_band) == (0, 8, 1.0)  # off
    base = [0.0] * 4
    assert undecided([1.0, -1.0, 1.0, -1.0], base, 0.0, 1.0)  # mean 0: a coin flip
    assert not undecided([1.0, 2.0, 3.0, 2.0], base, 0.0, 1.0)  # 2 against an SE of 0.41
    assert undecided([1.0, 2.0, 3.0, 2.0], base, 4.0, 1.0)  # near a margin of 4 SE (1.63)
    assert not undecided([1.0, 1.0, 1.0, 1.0], base, 0.0, 1.0)  # no noise to wait out
    assert not undecided([1.0], [0.0], 0.0, 1.0)  # one world: no standard error


def test_mcts_fair_is_mcts_deep_with_the_confirming_judge() -> None:
    """``mcts-fair`` (issue 39, item 4): mcts-deep's knobs, and the halving's winner confirmed on 16
    fresh worlds played 10 game turns past the reply; the core plays it as ``search_spec("mcts-fair")``."""
    deep = get_ai("mcts-deep")(np.random.default_rng(0))
    fair = get_ai("mcts-fair")(np.random.default_rng(0))
    assert isinstance(fair, MCTSAI) and ai_tier("mcts-fair") == "search"
    assert (fair.candidates, fair.schedule, fair.prior, fair.keep_base) == (
        deep.candidates,
        deep.schedule,
        deep.prior,
        deep.keep_base,
    )
    assert [type(a) for a in fair.alternatives] == [type(a) for a in deep.alternatives]
    assert (fair.confirm, fair.confirm_turns) == (16, 10) and (deep.confirm, deep.confirm_turns) == (0, 0)


def test_the_fair_judge_keeps_the_pin_that_the_deep_search_gives_up() -> None:
    """The King pins the archer: mcts-deep walks away on seed 0 (its rollouts, one reply deep, prefer
    it by ~1 injury unit; played on to the end that position wins 17% against 74% for the pin:
    ``krosbalance.tools.puzzle_outcomes``); the confirming judge keeps kiter-race's pin."""
    from krosbalance.testing.puzzles import PUZZLES, attempt

    puzzle = next(p for p in PUZZLES if p.name == "king_pins_the_archer")
    assert not attempt(puzzle, "mcts-deep", 0)
    assert attempt(puzzle, "mcts-fair", 0)


FAIR_KNOBS = (
    '{"candidates": 16, "schedule": [4, 8, 16, 32], "base": "kiter-race", "model": "kiter-race",'
    ' "prior": 0.0, "keep_base": true, "alternatives": ["kiter", "focus-fire", "objective"],'
    ' "confirm": 16, "confirm_turns": 10'
)


def test_a_proven_confirmation_keeps_kassius_where_the_base_keeps_him(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``keep_the_puff`` on seed 1 (``reports/ai-ladder-connected/NOTES-2026-12-07-never-worse.md``):
    both sting the Tofu; mcts-fair then walks Kassius to the corner, which its 16 confirming worlds
    prefer (none decided within 10 turns, against 1 won and 3 lost after kiter-race's answer: +1,249
    with a standard error of 1,250, a leaf where a finished match is worth 10,000) and which, played
    on to the end, scores 4.8 points less (it puts the losses off past the horizon and never wins).
    mcts-fair's knobs written out give its answer; with ``proof = 1.645`` that advantage is not
    proven, and kiter-race's answer is played."""
    from krosbalance.testing.puzzles import PUZZLES
    from krosbalance.tools.puzzle_outcomes import answered

    monkeypatch.setenv("KROSBALANCE_SCENARIO_CORE", "0")
    puzzle = next(p for p in PUZZLES if p.name == "keep_the_puff")

    def kassius(ai: str) -> int:
        return answered(puzzle, ai, 1).pieces["kassius"].cell

    base = kassius("kiter-race")
    assert kassius("mcts-fair") == kassius(FAIR_KNOBS + "}") != base
    assert kassius(FAIR_KNOBS + ', "proof": 1.645}') == base


def test_mcts_sure_is_mcts_deep_with_a_sequential_proven_judge() -> None:
    """``mcts-sure`` (``NOTES-2026-12-07-sequential-confirmation.md``): mcts-deep's knobs; the
    halving's winner must be 1.645 standard errors better on 16 fresh worlds of 20 game turns past
    the reply, 16 more at a time up to 64 while within one standard error of that margin."""
    deep = get_ai("mcts-deep")(np.random.default_rng(0))
    sure = get_ai("mcts-sure")(np.random.default_rng(0))
    assert isinstance(sure, MCTSAI) and ai_tier("mcts-sure") == "search"
    assert (sure.candidates, sure.schedule, sure.prior, sure.keep_base) == (
        deep.candidates,
        deep.schedule,
        deep.prior,
        deep.keep_base,
    )
    assert [type(a) for a in sure.alternatives] == [type(a) for a in deep.alternatives]
    assert (sure.confirm, sure.confirm_turns, sure.proof) == (16, 20, 1.645)
    assert (sure.confirm_max, sure.confirm_step, sure.confirm_band) == (64, 16, 1.0)


def test_the_sequential_judge_keeps_kassius_where_the_base_keeps_him(monkeypatch: pytest.MonkeyPatch) -> None:
    """``keep_the_puff`` on seed 1, where mcts-fair walks Kassius to the corner (above): mcts-sure
    keeps kiter-race's cell (on seeds 0-63 it departs from kiter-race on none)."""
    from krosbalance.testing.puzzles import PUZZLES
    from krosbalance.tools.puzzle_outcomes import answered

    monkeypatch.setenv("KROSBALANCE_SCENARIO_CORE", "0")
    puzzle = next(p for p in PUZZLES if p.name == "keep_the_puff")
    cell = answered(puzzle, "mcts-sure", 1).pieces["kassius"].cell
    assert cell == answered(puzzle, "kiter-race", 1).pieces["kassius"].cell
