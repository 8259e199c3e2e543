"""duel-lookahead (krosbalance/ai/duel/lookahead.py, plans.py, evaluation.py): the base plan is
always offered and judged on the same dice as the others, a rollout never touches the match, the
leaf evaluation is one side's gain the other's loss, and the AI plays duels of one and two figures.
Teams are drawn from the duel pool by set and game; the budget is cut so the reference stays quick."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from krosbalance.ai.duel.evaluation import WIN_SCORE, evaluate
from krosbalance.ai.duel.lookahead import FACES_PER_SET, DuelLookaheadAI
from krosbalance.ai.duel.planner import BRAWLER, decide
from krosbalance.ai.duel.plans import BASE, HIT_AND_WALK, WALK, DuelPlan, candidate_plans, plan_action
from krosbalance.ai.registry import ai_problem, ai_rulesets, ai_tier, register_ai, unregister_ai
from krosbalance.content.registry import list_boards
from krosbalance.engine.view import MatchView
from krosbalance.play import play_match
from krosbalance.rulesets.duel.pregame import legal_teams
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.duel import duel_pack, duel_registry

PROBE = "duel-lookahead-probe"
SEEN: list[dict[str, Any]] = []


def pool() -> list[str]:
    registry = duel_registry()
    return list(dict.fromkeys([*duel_pack(), *registry.list_characters("krosmaster", game="arena")]))


class Probe(DuelLookaheadAI):
    """duel-lookahead on a small budget that checks each search it makes."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng, walks=2, dice_sets=2, turns=0, bands=3)

    def choose_plan(self, view: MatchView, uid: int, plans: list[DuelPlan]) -> DuelPlan:
        before = fingerprint(view)
        faces = self.rng.integers(0, 6, size=FACES_PER_SET).tolist()
        twice = [self._rollout(view, uid, plans[0], faces) for _ in range(2)]
        after = fingerprint(view)
        state = view.clone_state(_NoDice())
        SEEN.append(
            {
                "plans": plans,
                "twice": twice,
                "untouched": before == after,
                "base_is_heuristic": plan_action(view, BRAWLER, plans[0]) == decide(view, BRAWLER),
                "repeatable": candidate_plans(view, BRAWLER, 2, 3) == plans,
                "values": (evaluate(state, 0), evaluate(state, 1)),
                "state": state,
            }
        )
        return super().choose_plan(view, uid, plans)


def fingerprint(view: MatchView) -> tuple[object, ...]:
    """What a rollout could wrongly change in the match: every piece's cell, HP, AP and MP."""
    pieces = [*view.allies(), *view.enemies()]
    return (view.turn, tuple((f.uid, f.cell, f.remaining_hp, f.ap, f.mp, f.alive) for f in pieces))


class _NoDice:
    def roll(self) -> int:
        raise AssertionError("a snapshot rolls no dice")


@pytest.fixture(scope="module")
def searched() -> Iterator[list[dict[str, Any]]]:
    register_ai(PROBE, Probe, tier="search")
    try:
        rng = np.random.default_rng(41)
        boards = list_boards("duel")
        for k, figures in enumerate((1, 2)):
            teams = legal_teams(pool(), figures)
            pair = [list(teams[int(rng.integers(len(teams)))]) for _ in range(2)]
            rules = get_ruleset("duel", {"figures": figures, "turn_limit": 4})
            play_match(
                *pair,
                board=boards[k % len(boards)],
                ai=[PROBE, "duel-brawler"],
                seed=k,
                ruleset=rules,
                engine="reference",
            )
        yield SEEN
    finally:
        unregister_ai(PROBE)


def test_it_is_a_duel_search_ai() -> None:
    assert ai_rulesets("duel-lookahead") == ("duel",)
    assert ai_tier("duel-lookahead") == "search"
    assert "does not play ruleset 'arena'" in ai_problem("duel-lookahead", "arena")


def test_the_base_plan_comes_first_and_every_walk_ends_on_a_distinct_cell(searched) -> None:
    assert searched, "no activation was searched"
    for seen in searched:
        plans = seen["plans"]
        assert plans[0].kind == BASE and plans[0].goal == -1
        walks = [p.goal for p in plans if p.kind == WALK]
        assert walks and len(walks) == len(set(walks))
        hits = [p for p in plans if p.kind == HIT_AND_WALK]
        assert all(p.goal != p.start and p.goal in walks for p in hits)


def test_the_base_plan_plays_the_heuristic_own_decision(searched) -> None:
    assert all(seen["base_is_heuristic"] for seen in searched)


def test_a_rollout_is_a_pure_function_of_its_dice_and_leaves_the_match_alone(searched) -> None:
    for seen in searched:
        assert seen["twice"][0] == seen["twice"][1]
        assert seen["untouched"]


def test_candidate_plans_are_the_same_for_the_same_view(searched) -> None:
    assert all(seen["repeatable"] for seen in searched)


def test_the_evaluation_is_one_side_gain_the_other_loss(searched) -> None:
    for seen in searched[:4]:
        state = seen["state"]
        mine, theirs = seen["values"]
        assert mine == pytest.approx(-theirs)
        state.finished, state.winner = True, 1
        assert (evaluate(state, 0), evaluate(state, 1)) == (-WIN_SCORE, WIN_SCORE)
        state.winner = None
        assert evaluate(state, 0) == 0.0
