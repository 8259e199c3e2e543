"""blast-lookahead (krosbalance/ai/blast/lookahead.py, plans.py, evaluation.py): the base plan is
always offered and plays the heuristic's own decision, a rollout is a pure function of its dice and
never touches the match, the rest of a player turn lets every Krosmaster that has not acted act once
(R-B10) and hands the turn over, the leaf evaluation is one side's gain the other's loss and values a
glyph lead more as the favor deck runs out. Teams are drawn from the Blast Krosmasters by kind and
game; the budget is cut so the reference stays quick."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import pytest

from krosbalance.ai.blast.evaluation import GLYPH_CLOCK, GLYPH_WORTH, WIN_SCORE, evaluate
from krosbalance.ai.blast.lookahead import (
    FACES_PER_SET,
    BlastLookaheadAI,
    PlanPlayer,
    finish_player_turn,
)
from krosbalance.ai.blast.planner import decide
from krosbalance.ai.blast.plans import BASE, HIT_AND_WALK, WALK, BlastPlan, candidate_plans, plan_action
from krosbalance.ai.blast.weights import BRAWLER
from krosbalance.ai.registry import ai_problem, ai_rulesets, ai_tier, register_ai, unregister_ai
from krosbalance.ai.rollout import ReplayDice
from krosbalance.content.registry import default_registry, list_boards
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.view import MatchView
from krosbalance.play import play_match
from krosbalance.rulesets.blast.pregame import legal_teams
from krosbalance.rulesets.blast.state import BlastState
from krosbalance.rulesets.registry import get_ruleset

PROBE = "blast-lookahead-probe"
SEEN: list[dict[str, Any]] = []


class Probe(BlastLookaheadAI):
    """blast-lookahead on a small budget that checks each search it makes."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng, walks=2, dice_sets=2, turns=0, bands=3)

    def choose_plan(self, view: MatchView, uid: int, plans: list[BlastPlan]) -> BlastPlan:
        before = fingerprint(view)
        faces = self.rng.integers(0, 6, size=FACES_PER_SET).tolist()
        twice = [self._rollout(view, uid, plans[0], faces) for _ in range(2)]
        after = fingerprint(view)
        state = view.clone_state(_NoDice())
        turn = view.clone_state(ReplayDice(faces), keep_stats=True)
        acted = {f.uid: f.stats.turns_alive for f in turn.fighters if f.kind == KROSMASTER}
        finish_player_turn(
            turn,
            turn.fighters[uid],
            PlanPlayer(self.rng, plans[0], uid),
            MatchView(turn, view.side),
            self._acted,
        )
        SEEN.append(
            {
                "plans": plans,
                "twice": twice,
                "untouched": before == after,
                "base_is_heuristic": plan_action(view, BRAWLER, plans[0]) == decide(view, BRAWLER),
                "repeatable": candidate_plans(view, BRAWLER, 2, 3) == plans,
                "values": (evaluate(state, 0), evaluate(state, 1)),
                "state": state,
                "fresh": view.clone_state(_NoDice()),  # for the glyph test alone
                "uid": uid,
                "acted_before": set(self._acted),
                "activations": {
                    f.uid: f.stats.turns_alive - acted[f.uid]
                    for f in turn.fighters
                    if f.kind == KROSMASTER and f.side == view.side and f.alive
                },
                "turn_over": turn.finished or turn.active_side != view.side,
                "finished": turn.finished,
            }
        )
        return super().choose_plan(view, uid, plans)


def fingerprint(view: MatchView) -> tuple[object, ...]:
    """What a rollout could wrongly change in the match: every piece's cell, HP, AP and MP, and
    the glyph cells each side holds."""
    pieces = [*view.allies(), *view.enemies()]
    bv = view.ruleset_view()
    return (
        view.turn,
        tuple((f.uid, f.cell, f.remaining_hp, f.ap, f.mp, f.alive) for f in pieces),
        bv.owned(0),  # type: ignore[attr-defined]
        bv.owned(1),  # type: ignore[attr-defined]
        bv.favors_left,  # type: ignore[attr-defined]
    )


class _NoDice:
    def roll(self) -> int:
        raise AssertionError("a snapshot rolls no dice")


@pytest.fixture(scope="module")
def searched() -> Iterator[list[dict[str, Any]]]:
    register_ai(PROBE, Probe, tier="search", rulesets=("blast",))
    try:
        rng = np.random.default_rng(51)
        teams = legal_teams(default_registry().list_characters("krosmaster", game="blast"), 2)
        boards = list_boards("blast")
        for k, options in enumerate(({"turn_limit": 4}, {"turn_limit": 4, "challenges": ["random"]})):
            team0 = teams[int(rng.integers(len(teams)))]
            team1 = [t for t in teams if set(t).isdisjoint(team0)][0]
            play_match(
                list(team0),
                list(team1),
                board=boards[k % len(boards)],
                ai=[PROBE, "blast-brawler"] if k == 0 else ["blast-brawler", PROBE],
                seed=k,
                ruleset=get_ruleset("blast", options),
                engine="reference",
            )
        yield SEEN
    finally:
        unregister_ai(PROBE)


def test_it_is_a_blast_search_ai() -> None:
    assert ai_rulesets("blast-lookahead") == ("blast",)
    assert ai_tier("blast-lookahead") == "search"
    assert "does not play ruleset 'arena'" in ai_problem("blast-lookahead", "arena")


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


def test_the_rest_of_the_turn_activates_each_krosmaster_once_and_hands_the_turn_over(searched) -> None:
    """R-B10: the Krosmaster under way finishes its activation (counted at its end), one that had
    finished before does not act again, one that had not acted acts once; then the other player's
    turn comes."""
    both = [seen for seen in searched if len(seen["activations"]) == 2 and not seen["finished"]]
    assert any(len(seen["acted_before"]) == 1 for seen in both)
    assert any(len(seen["acted_before"]) == 2 for seen in both)
    for seen in both:
        expected = {
            uid: 0 if uid in seen["acted_before"] and uid != seen["uid"] else 1 for uid in seen["activations"]
        }
        assert seen["activations"] == expected
    assert all(seen["turn_over"] for seen in searched)


def test_the_evaluation_is_one_side_gain_the_other_loss(searched) -> None:
    for seen in searched[:4]:
        state = seen["state"]
        mine, theirs = seen["values"]
        assert mine == pytest.approx(-theirs)
        state.finished, state.winner = True, 1
        assert (evaluate(state, 0), evaluate(state, 1)) == (-WIN_SCORE, WIN_SCORE)
        state.winner = None
        assert evaluate(state, 0) == 0.0


def test_a_glyph_lead_counts_more_as_the_favor_deck_runs_out(searched) -> None:
    state = searched[0]["fresh"]
    assert not state.finished
    bs = cast(BlastState, state.rules)
    free = bs.glyph_cells & ~(bs.owned[0] | bs.owned[1])
    cell = (free & -free).bit_length() - 1
    assert cell >= 0
    deck = list(bs.deck)
    assert len(deck) >= 2
    gains = []
    for left in (len(deck), 0):
        del bs.deck[left:]
        before = evaluate(state, 0), evaluate(state, 1)
        bs.owned[0] |= 1 << cell
        gains.append((evaluate(state, 0) - before[0], evaluate(state, 1) - before[1]))
        bs.owned[0] &= ~(1 << cell)
    early, late = gains
    assert early[0] == pytest.approx(GLYPH_WORTH + GLYPH_CLOCK / (len(deck) + 1)) == pytest.approx(-early[1])
    assert late[0] == pytest.approx(GLYPH_WORTH + GLYPH_CLOCK)
    assert late[0] > early[0]
    bs.deck[:] = deck
