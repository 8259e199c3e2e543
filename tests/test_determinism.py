"""A match is a pure function of its inputs and its seed.

Same seed: identical MatchResult (fighter rows from ``FighterRecord.as_row()``, outcome, holdings)
and identical event logs. Different seeds: different matches. No hidden state carries from one match
to the next in a process (play A, B, A), and nothing depends on the interpreter's string hashing
(a fresh interpreter with another PYTHONHASHSEED gives the same log).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.engine.results import MatchResult
from krosbalance.play import play_match, play_trial
from krosbalance.testing.conformance import first_difference
from krosbalance.tools.builds import match_digest, match_outcome
from tests.ai_params import every_ai

TEAM_A = ("queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy")
TEAM_B = ("bill_tell", "kassius_kaos", "lil_healey", "bad_aboum")
TEAM_C = ("bad_aboum", "bad_aboum", "king_of_the_gobballs", "lil_healey")
TEAM_D = ("anna_tommy", "anna_tommy", "queen_of_the_tofus", "bill_tell")


def outcome(result: MatchResult) -> tuple:
    """Everything in a MatchResult, events excluded, as comparable values."""
    return match_outcome(result)


def digest(result: MatchResult) -> str:
    """The digest both builds are compared by (``krosbalance.tools.builds``)."""
    return match_digest(result)


def assert_same(a: MatchResult, b: MatchResult) -> None:
    assert outcome(a) == outcome(b)
    assert a.events == b.events, first_difference(a.events, b.events)


@pytest.mark.parametrize("ai", every_ai("arena"))
@pytest.mark.parametrize("board", ["arena-elemental", "frigost-2"])
def test_same_seed_same_match(ai: str, board: str) -> None:
    first = play_match(TEAM_A, TEAM_B, board=board, ai=ai, seed=42, record="full")
    second = play_match(TEAM_A, TEAM_B, board=board, ai=ai, seed=42, record="full")
    assert len(first.events) > 50
    assert_same(first, second)


def test_recording_level_does_not_change_the_match() -> None:
    """Recording is observation only: the outcome and counters are the same at every level."""
    results = [play_match(TEAM_C, TEAM_D, seed=5, record=level) for level in ("none", "summary", "full")]
    assert not results[0].events
    assert outcome(results[0]) == outcome(results[1]) == outcome(results[2])
    summary_kinds = {e.kind for e in results[1].events}
    assert [e for e in results[2].events if e.kind in summary_kinds] == results[1].events


def test_different_seeds_differ() -> None:
    results = [play_match(TEAM_A, TEAM_B, seed=seed, record="full") for seed in range(8)]
    logs = {tuple(r.events) for r in results}
    assert len(logs) == len(results)
    assert len({tuple(tuple(sorted(f.as_row().items())) for f in r.fighters) for r in results}) > 1
    assert len({r.turns for r in results}) > 1


def _a_b_a(disturb_search: str) -> None:
    """A, B, A in one process (B on another board, teams and AI, to disturb any cache): A twice equal.
    B is played with every registered AI; a search AI plays it as ``disturb_search`` says: ``match``
    (the whole match) or ``opening`` (its first game turn, ``play_trial``: every figure's activation is
    decided by the search on the reference, its copies, rollouts and caches included)."""
    a1 = play_match(TEAM_A, TEAM_B, board="bonta-2", seed=9, record="full")
    for ai in list_ais("arena"):
        if ai_tier(ai) == "search" and disturb_search == "opening":
            play_trial(TEAM_C, TEAM_D, board="arena-pit", ai=ai, seed=10, turns=1)
        else:
            play_match(TEAM_C, TEAM_D, board="arena-pit", ai=ai, seed=10, record="full")
    play_match(TEAM_B, TEAM_A, board="bonta-2", seed=9, record="summary")
    a2 = play_match(TEAM_A, TEAM_B, board="bonta-2", seed=9, record="full")
    assert_same(a1, a2)


def test_a_match_does_not_depend_on_matches_played_before() -> None:
    """Every AI disturbs; the search AIs for their opening turns (a whole reference match of
    mcts-fair alone costs a minute and a half: it is ``make battery``'s, below)."""
    _a_b_a("opening")


@pytest.mark.slow
def test_a_match_does_not_depend_on_whole_matches_of_every_ai_played_before() -> None:
    _a_b_a("match")


_CHILD = """
import sys
sys.path.insert(0, {root!r})
from tests.test_determinism import TEAM_C, TEAM_D, digest
from krosbalance.play import play_match, play_trial
from krosbalance.tools.builds import match_digest
print(digest(play_match(TEAM_C, TEAM_D, board="bonta-1", seed=77, record="full")))
"""


def test_a_fresh_interpreter_with_another_hash_seed_plays_the_same_match() -> None:
    here = digest(play_match(TEAM_C, TEAM_D, board="bonta-1", seed=77, record="full"))
    root = str(Path(__file__).resolve().parent.parent)
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", _CHILD.format(root=root)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=root,
        )
        assert out.stdout.strip() == here
