"""The opponent model that judges its heuristic's best plans on copies (krosbalance/ai/reply_search.py)."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.evaluation import evaluate_holdings
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.reply_search import SearchedReply
from krosbalance.content.registry import list_characters
from krosbalance.engine.match import run_to_end
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import MatchView
from krosbalance.play import prepare_match
from tests.ai.test_lookahead import CountingDice, _at_an_activation
from tests.ai.test_mixed_reply import _Adopting
from tests.engine.test_clone import snapshot

BOX = list_characters(set="arena-box")
FACES = [i % 6 for i in range(512)]


def _plans(seed: int, keep: int):  # type: ignore[no-untyped-def]
    state, side, _ = _at_an_activation(seed)
    view = MatchView(state, side)
    me = view.active
    assert me is not None
    kiter = KiterAI(np.random.default_rng(0))
    kiter.begin(view, me)
    return state, side, view, kiter.candidates(view, me, keep)


class _Ranked:
    """A leaf that rates each copy by the order it is met (rising or falling), and notes what it saw."""

    def __init__(self, rising: bool) -> None:
        self.rising = rising
        self.seen: list[tuple[int, int, bool]] = []

    def __call__(self, state: MatchState, side: int) -> float:
        self.seen.append((side, state.active_side, state.finished))
        count = float(len(self.seen))
        return count if self.rising else -count


@pytest.mark.parametrize("rising", [True, False])
def test_the_model_adopts_the_plan_its_leaf_rates_best(rising: bool) -> None:
    state, side, view, plans = _plans(3, 3)
    assert len(plans) == 3
    leaf = _Ranked(rising)
    player = _Adopting(np.random.default_rng(0))
    SearchedReply(player, 3, FACES, leaf, prior=0.0).choose_action(view)
    chosen = plans[-1] if rising else plans[0]
    assert player.adopted[-1] == [repr(s) for s in chosen.steps]
    # one copy per plan, each rated from the model's side once its team's turn is over
    assert len(leaf.seen) == 3
    assert all(seat == side and (finished or active != side) for seat, active, finished in leaf.seen)


def test_with_an_answer_each_copy_is_rated_after_the_other_sides_turn() -> None:
    """An ``answer`` plays the other side's whole next turn on each copy before the leaf, as
    lookahead judges a plan (mcts's ``continuation``): the leaf meets the copy back on the model's
    side, and the choice is still the plan it rates best."""
    state, side, view, plans = _plans(3, 3)
    leaf = _Ranked(rising=True)
    player = _Adopting(np.random.default_rng(0))
    answer = KiterAI(np.random.default_rng(1))
    SearchedReply(player, 3, FACES, leaf, 0.0, answer).choose_action(view)
    assert player.adopted[-1] == [repr(s) for s in plans[-1].steps]
    assert len(leaf.seen) == 3
    assert all(seat == side and (finished or active == side) for seat, active, finished in leaf.seen)


def test_the_copies_never_roll_the_match_dice_nor_touch_the_match() -> None:
    state, side, view, _ = _plans(5, 3)
    dice = CountingDice(5)
    state.dice = dice
    before = snapshot(state)
    SearchedReply(KiterAI(np.random.default_rng(0)), 3, FACES, evaluate_holdings, 0.5).choose_action(view)
    assert dice.rolls == 0
    assert snapshot(state) == before


def test_a_one_plan_search_plays_as_the_heuristic() -> None:
    """With one plan the model is its heuristic: the same match, action for action."""
    logs = []
    for wrap in (False, True):
        state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=12, record="full")
        kiter = KiterAI(np.random.default_rng(12))
        player = SearchedReply(kiter, 1, FACES, evaluate_holdings, 0.5) if wrap else kiter
        run_to_end(state, [controllers[0], player], views)
        logs.append((state.winner, [repr(e) for e in state.events]))
    assert logs[0] == logs[1]


def test_a_searched_reply_weighs_at_least_one_plan() -> None:
    with pytest.raises(ValueError, match="at least 1 plan"):
        SearchedReply(KiterAI(np.random.default_rng(0)), 0, FACES, evaluate_holdings, 0.5)
    with pytest.raises(ValueError, match="reply_search must be a count"):
        MCTSAI(np.random.default_rng(0), reply_search=0)
    with pytest.raises(ValueError, match="two opponent models"):
        MCTSAI(np.random.default_rng(0), reply_search=2, reply_mix=(0.5, 0.5))


def test_mcts_with_a_searched_reply_is_deterministic_and_plays_other_rollouts() -> None:
    """The copies roll faces drawn from each world's deal: the same seed, the same match; and the
    searched reply is played (its rollouts differ from the kiter model's)."""
    logs = []
    for reply in (2, 2, 1):
        state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=21, record="full")
        ai = MCTSAI(np.random.default_rng(21), candidates=3, schedule=(1, 2), reply_search=reply)
        run_to_end(state, [ai, controllers[1]], views)
        logs.append((state.winner, [repr(e) for e in state.events]))
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_a_reply_modelled_on_lookahead_plays_other_rollouts_and_needs_a_searched_reply() -> None:
    """``reply_lookahead`` judges the searched reply's plans after this side's answer, by
    lookahead's evaluation: a rollout comes out otherwise than with the plain searched reply, the
    same world gives the same value, and without ``reply_search`` it is refused."""
    state, side, _ = _at_an_activation(2)
    view = MatchView(state, side)
    me = view.active
    assert me is not None
    values = []
    for like_lookahead in (True, True, False):
        ai = MCTSAI(np.random.default_rng(0), reply_search=2, reply_lookahead=like_lookahead)
        ai.base.begin(view, me)
        plan = ai.base.candidates(view, me, 1)[0]
        values.append(ai._rollout(view, me, plan, FACES, 7, {}))
    assert values[0] == values[1]
    assert values[0] != values[2]
    with pytest.raises(ValueError, match="reply_lookahead"):
        MCTSAI(np.random.default_rng(0), reply_lookahead=True)
