"""The opponent model that draws among its heuristic's best plans (krosbalance/ai/mixed_reply.py)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.mixed_reply import MixedReply
from krosbalance.content.registry import list_characters
from krosbalance.engine.match import run_to_end
from krosbalance.engine.view import MatchView
from krosbalance.play import prepare_match
from tests.ai.test_lookahead import _at_an_activation

BOX = list_characters(set="arena-box")


def _ranks(mix: tuple[float, ...], offered: int, draws: int = 20_000) -> Counter[int]:
    model = MixedReply(KiterAI(np.random.default_rng(0)), mix, random.Random(4))
    return Counter(model._rank(offered) for _ in range(draws))


def test_ranks_are_drawn_with_the_mix_chances() -> None:
    counts = _ranks((0.6, 0.25, 0.15), 3)
    assert counts[0] / 20_000 == pytest.approx(0.6, abs=0.015)
    assert counts[1] / 20_000 == pytest.approx(0.25, abs=0.015)
    assert counts[2] / 20_000 == pytest.approx(0.15, abs=0.015)


def test_the_chances_of_missing_plans_go_to_the_best() -> None:
    counts = _ranks((0.6, 0.25, 0.15), 2)
    assert set(counts) == {0, 1}
    assert counts[1] / 20_000 == pytest.approx(0.25, abs=0.015)
    assert _ranks((0.6, 0.25, 0.15), 1) == Counter({0: 20_000})


def test_a_mix_must_be_chances_that_sum_to_one() -> None:
    for mix in ((0.5, 0.4), (1.2, -0.2)):
        with pytest.raises(ValueError, match="reply_mix"):
            MixedReply(KiterAI(np.random.default_rng(0)), mix, random.Random(0))
        with pytest.raises(ValueError, match="reply_mix"):
            MCTSAI(np.random.default_rng(0), reply_mix=mix)


def test_a_single_rank_mix_plays_as_the_heuristic() -> None:
    """With one rank the model is its heuristic: the same match, action for action."""
    logs = []
    for wrap in (False, True):
        state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=12, record="full")
        kiter = KiterAI(np.random.default_rng(12))
        player = MixedReply(kiter, (1.0,), random.Random(1)) if wrap else kiter
        run_to_end(state, [controllers[0], player], views)
        logs.append((state.winner, [repr(e) for e in state.events]))
    assert logs[0] == logs[1]


class _Adopting(KiterAI):
    """Notes the plans it is told to follow."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.adopted: list[list[str]] = []

    def adopt(self, plan):  # type: ignore[no-untyped-def]
        self.adopted.append([repr(s) for s in plan.steps])
        super().adopt(plan)


def test_the_model_plays_the_plan_of_the_rank_drawn() -> None:
    state, side, _ = _at_an_activation(3)
    view = MatchView(state, side)
    me = view.active
    assert me is not None
    kiter = KiterAI(np.random.default_rng(0))
    kiter.begin(view, me)
    plans = kiter.candidates(view, me, 3)
    assert len(plans) == 3
    for rank in range(3):
        mix = tuple(1.0 if r == rank else 0.0 for r in range(3))
        player = _Adopting(np.random.default_rng(0))
        MixedReply(player, mix, random.Random(0)).choose_action(view)
        assert player.adopted[0] == [repr(s) for s in plans[rank].steps]


def test_mcts_with_a_mixed_reply_is_deterministic() -> None:
    """The draws come from each world's stream: the same seed, the same match."""
    logs = []
    for _ in range(2):
        state, controllers, views = prepare_match(BOX[:4], BOX[4:], ai="kiter", seed=21, record="full")
        ai = MCTSAI(np.random.default_rng(21), candidates=3, schedule=(1, 2), reply_mix=(0.6, 0.25, 0.15))
        run_to_end(state, [ai, controllers[1]], views)
        logs.append((state.winner, [repr(e) for e in state.events]))
    assert logs[0] == logs[1]
