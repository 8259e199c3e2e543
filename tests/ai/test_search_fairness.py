"""A search must not play a position worse than its own heuristic base (issue 39, item 4): the base's
plan stays among the candidates and is judged fairly.

The position: a Demon cell the opponent can reach with the 10 kamas of a GG (R-A50) that takes this
side's last GG, so it wins the match (R-A132; the wild GG is gone). ``kiter-race`` keeps Anna Tommy
off it; ``mcts-race``, which searches kiter-race's own plans, does not, because its rollouts model the
opponent by ``kiter``, who does not go for the GG in this position: every plan
then looks safe, and the search plays one that opens the way. With the opponent modelled by the base
itself (``model = kiter-race``) the rollouts lose the match after those plans and the search keeps
the base's. Found by playing small random positions (a Demon cell, a few box Krosmasters, the
opponent one purchase from winning) with both AIs and keeping those where the base did better.

``keep_base`` is the other half: the base's plan (the heuristic's first) is never cut by successive
halving, so it meets every world the finalists meet and another plan replaces it only when better on
the same worlds.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from krosbalance.ai.mcts import MCTSAI, proven_better
from krosbalance.ai.plan_search import Plan
from krosbalance.ai.registry import get_ai
from krosbalance.ai.tuned import KiterRaceAI
from krosbalance.engine.dice import SeededDice
from krosbalance.engine.turn import Controller
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.testing.puzzles import _grid, _scenario
from krosbalance.testing.scenario import Scenario

SEEDS = range(6)


def _anna_races_for_the_demon_cell() -> tuple[Scenario, object]:
    """Side 0 (one GG left, no kamas) plays Lil' Healey; side 1 holds the 10 kamas of the GG that
    wins and Anna Tommy five cells from the Demon cell at (1, 0)."""
    sc = _scenario(_grid(7, 7, {(1, 0): "D"}))
    healey = sc.add("lil_healey", 0, (0, 1))
    sc.add("anna_tommy", 1, (2, 4))
    sc.arena.gg[:] = [1, 5]
    sc.arena.wild_gg = 0
    sc.arena.kamas[:] = [0, 10]
    return sc, healey


def _holds_the_cell(ai: Controller, seed: int) -> bool:
    """Whether side 0 still stands after its activation (by ``ai``) and the opponent's whole game
    turn (its tension roll, R-A26, then Anna by kiter-race)."""
    sc, healey = _anna_races_for_the_demon_cell()
    sc.state.dice = SeededDice(np.random.default_rng([seed, 17]))
    sc.play_character(healey, ai)  # type: ignore[arg-type]
    if not sc.state.finished:
        sc.state.active_side = 1
        sc.play_turn(get_ai("kiter-race")(np.random.default_rng([seed, 29])))
    return sc.state.winner != 1


def _fair(rng: np.random.Generator) -> MCTSAI:
    return MCTSAI(rng, base=KiterRaceAI, model=KiterRaceAI, keep_base=True)


def test_r_a50_r_a132_the_base_keeps_the_opponent_off_the_winning_demon_cell() -> None:
    assert all(_holds_the_cell(get_ai("kiter-race")(np.random.default_rng([s, 23])), s) for s in SEEDS)


def test_r_a50_r_a132_mcts_race_judges_by_a_model_that_does_not_race_and_opens_the_cell() -> None:
    """The failure as it stands (the registered mcts-race, kept as it is: its goldens and every study
    made with it replay)."""
    assert not any(_holds_the_cell(get_ai("mcts-race")(np.random.default_rng([s, 23])), s) for s in SEEDS)


def test_r_a50_r_a132_modelled_by_its_base_the_search_keeps_the_cell() -> None:
    assert all(_holds_the_cell(_fair(np.random.default_rng([s, 23])), s) for s in SEEDS)


class _Scripted(MCTSAI):
    """An mcts whose rollouts read a fixed table: the base's plan (0) looks worst on the first two
    worlds and best on the rest, as a plan does whose merit shows in the worlds where the opponent's
    dice let it race."""

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        self.order = plans
        self.worlds: Counter[int] = Counter()
        self.chosen = super().choose_plan(view, me, plans)
        return self.chosen

    def _rollout(self, view, me, plan, faces, deal, table):  # type: ignore[no-untyped-def]
        i = next(k for k, p in enumerate(self.order) if p is plan)
        world = self.worlds[i]
        self.worlds[i] += 1
        if i == 0:
            return -1.0 if world < 2 else 10.0
        return 1.0


@pytest.mark.parametrize("keep_base", [False, True])
def test_keep_base_the_base_plan_meets_every_world_and_is_played_when_best_there(keep_base: bool) -> None:
    sc, healey = _anna_races_for_the_demon_cell()
    sc.activate(healey)
    ai = _Scripted(np.random.default_rng(3), base=KiterRaceAI, keep_base=keep_base, prior=0.0)
    ai.choose_action(MatchView(sc.state, 0))
    assert len(ai.order) == ai.candidates
    chosen = ai.chosen
    if keep_base:
        assert ai.worlds[0] == ai.schedule[-1]
        assert chosen is ai.order[0]
    else:
        assert ai.worlds[0] == ai.schedule[0]  # cut after the first round
        assert chosen is not ai.order[0]


class _Lucky(_Scripted):
    """Rollouts where plan 1 beats the base (0) only by luck: better on most worlds by a little,
    far worse on a few; every other plan is worse everywhere."""

    def _rollout(self, view, me, plan, faces, deal, table):  # type: ignore[no-untyped-def]
        i = next(k for k, p in enumerate(self.order) if p is plan)
        world = self.worlds[i]
        self.worlds[i] += 1
        if i == 0:
            return 0.0
        if i == 1:
            return -3.0 if world % 4 == 3 else 1.1
        return -5.0


def test_proven_better_is_a_one_sided_paired_test() -> None:
    assert proven_better([1.0, 1.2, 0.9, 1.1], [0.0, 0.1, 0.0, 0.0], 2.0)
    noisy = [1.0, -1.0, 1.2, -0.9]
    assert sum(a - b for a, b in zip(noisy, [0.0] * 4, strict=True)) > 0
    assert not proven_better(noisy, [0.0] * 4, 2.0)  # ahead on average, not beyond the noise
    assert proven_better(noisy, [0.0] * 4, 0.0)  # proof 0: ahead at all
    assert not proven_better([5.0], [0.0], 0.0)  # one world cannot tell
    assert proven_better([2.0, 2.0, 2.0], [1.0, 1.0, 1.0], 3.0)  # no spread: any lead is proof


@pytest.mark.parametrize("proof", [0.0, 2.0])
def test_proof_the_base_plan_is_replaced_only_by_one_better_beyond_the_noise(proof: float) -> None:
    sc, healey = _anna_races_for_the_demon_cell()
    sc.activate(healey)
    ai = _Lucky(np.random.default_rng(3), base=KiterRaceAI, keep_base=True, prior=0.0, proof=proof)
    ai.choose_action(MatchView(sc.state, 0))
    # plan 1's mean over the worlds is (3 x 1.1 - 3) / 4 = +0.075 above the base's: it wins the
    # halving, but its spread makes that lead noise
    assert (ai.chosen is ai.order[0]) == (proof > 0)


def test_proof_needs_keep_base() -> None:
    with pytest.raises(ValueError, match="keep_base"):
        MCTSAI(np.random.default_rng(0), proof=2.0)
