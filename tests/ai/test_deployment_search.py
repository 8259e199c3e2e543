"""Deployment judged by rollouts (krosbalance/ai/deployment_search.py, MCTSAI's ``deployments``)."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.deployment_search import deployment_candidates
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.registry import register_ai, unregister_ai
from krosbalance.content.registry import list_characters
from krosbalance.play import prepare_match
from tests.ai.test_lookahead import CountingDice

BOX = list_characters(set="arena-box")


def test_candidates_lead_with_the_heuristics_and_never_repeat() -> None:
    first, cells = [3, 4, 5, 6], list(range(2, 12))
    options = deployment_candidates(first, cells, 6, np.random.default_rng(1))
    assert options[0] == first
    assert len(options) == 6
    assert len({tuple(o) for o in options}) == 6
    for option in options:
        assert len(set(option)) == len(first) and set(option) <= set(cells)


def test_a_single_candidate_is_the_heuristics() -> None:
    assert deployment_candidates([1, 2], [1, 2], 5, np.random.default_rng(0)) == [[1, 2], [2, 1]]
    assert deployment_candidates([1, 2], [1, 2, 3], 1, np.random.default_rng(0)) == [[1, 2]]


class _Noting(MCTSAI):
    """Notes the deployments it chose."""

    chosen: list[list[int]] = []

    def choose_deployment(self, view, fighters, cells):  # type: ignore[no-untyped-def]
        cells_chosen = super().choose_deployment(view, fighters, cells)
        _Noting.chosen.append(list(cells_chosen))
        return cells_chosen


@pytest.fixture
def noting():  # type: ignore[no-untyped-def]
    def factory(rng: np.random.Generator) -> MCTSAI:
        return _Noting(rng, candidates=2, schedule=(1,), deployments=4, deployment_worlds=2)

    register_ai("test-deploying", factory, tier="search", rulesets=("arena",), two_players_only=True)
    _Noting.chosen = []
    yield _Noting.chosen
    unregister_ai("test-deploying")


@pytest.mark.parametrize("seat", [0, 1])
def test_mcts_searches_its_deployment_without_rolling_the_match_dice(noting, seat: int) -> None:  # type: ignore[no-untyped-def]
    """Whichever seat deploys first (R-A25), the search plays on copies only: the match dice are
    never rolled, and the deployment is deterministic given the seed."""
    ais = ["kiter", "kiter"]
    ais[seat] = "test-deploying"
    placed = []
    for _ in range(2):
        dice = CountingDice(5)
        state, _, _ = prepare_match(BOX[:4], BOX[4:], ai=ais, seed=5, dice=dice)
        assert dice.rolls == 0
        placed.append(sorted((f.uid, f.cell) for f in state.timeline[seat]))
    assert len(noting) == 2 and noting[0] == noting[1]
    assert placed[0] == placed[1]
    assert all(cell >= 0 for _, cell in placed[0])


def test_deployment_knobs_must_be_positive() -> None:
    for knobs in ({"deployments": 0}, {"deployment_worlds": 0}):
        with pytest.raises(ValueError, match="deployments and deployment_worlds"):
            MCTSAI(np.random.default_rng(0), **knobs)  # type: ignore[arg-type]
