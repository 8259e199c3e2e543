"""The skills of issue 18 (krosbalance.testing.skill_puzzles): the ``-2`` AIs solve each puzzle,
a passive player does not, and the untuned AIs (kept as they were, for old studies) fail them."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.registry import ai_tier
from krosbalance.ai.skilled import SKILLED, skilled_weights
from krosbalance.ai.weights import Weights
from krosbalance.errors import ContentError
from krosbalance.testing.puzzles import attempt, solve_rate
from krosbalance.testing.skill_puzzles import SKILL_PUZZLES

from .test_puzzles import Passive


def _made(cls):  # type: ignore[no-untyped-def]
    """An instance: in the compiled build ``name`` and ``weights`` are instance attributes with
    defaults, which the class object does not expose."""
    return cls(np.random.default_rng(0))


SKILLED_NAMES = [_made(cls).name for cls in SKILLED]
UNTUNED = ["focus_fire", "kiter", "objective"]


@pytest.mark.parametrize("puzzle", SKILL_PUZZLES, ids=lambda p: p.name)
def test_doing_nothing_fails_the_skill_puzzle(puzzle) -> None:  # type: ignore[no-untyped-def]
    assert not any(attempt(puzzle, Passive, seed) for seed in range(3))


@pytest.mark.parametrize("ai", SKILLED_NAMES)
@pytest.mark.parametrize("puzzle", SKILL_PUZZLES, ids=lambda p: p.name)
def test_skilled_ais_solve_the_skill_puzzles(puzzle, ai: str) -> None:  # type: ignore[no-untyped-def]
    assert solve_rate(puzzle, ai, range(4)) >= 0.75


@pytest.mark.parametrize("puzzle", SKILL_PUZZLES, ids=lambda p: p.name)
def test_untuned_ais_lack_the_skill(puzzle) -> None:  # type: ignore[no-untyped-def]
    """What the skill adds: at least two of the three untuned personalities miss the puzzle."""
    missed = [ai for ai in UNTUNED if solve_rate(puzzle, ai, range(2)) < 0.5]
    assert len(missed) >= 2, missed


def test_untuned_personalities_keep_every_skill_off() -> None:
    """The identity of old studies: the untuned AIs' weights are what they were (skills off)."""
    for cls in (FocusFireAI, KiterAI, ObjectiveAI):
        w = _made(cls).weights
        assert (w.buy_first, w.free_escape, w.deny) == (False, False, 0.0)


def test_skilled_ais_are_their_base_with_the_skills_on() -> None:
    bases = {"focus_fire-2": FocusFireAI, "kiter-2": KiterAI, "objective-2": ObjectiveAI}
    for cls in SKILLED:
        ai = _made(cls)
        assert ai_tier(ai.name) == "heuristic"
        w, base = ai.weights, _made(bases[ai.name]).weights
        assert w.buy_first and w.free_escape and w.deny > 0
        assert w.damage == base.damage and w.safety == base.safety and w.kill == base.kill
        assert isinstance(w, Weights)


def test_an_unknown_skilled_ai_is_a_content_error() -> None:
    with pytest.raises(ContentError, match="skills"):
        skilled_weights("nobody-2")
