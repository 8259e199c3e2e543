"""The puzzle outcome check: the match played on from two answers to a puzzle, paired."""

from __future__ import annotations

import math

import pytest

from krosbalance.testing.puzzles import PUZZLES
from krosbalance.tools.puzzle_outcomes import answered, main, outcome, play_on


@pytest.fixture(autouse=True)
def _reference_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KROSBALANCE_SCENARIO_CORE", "0")


def _puzzle(name: str):  # type: ignore[no-untyped-def]
    return next(p for p in PUZZLES if p.name == name)


def test_the_same_answer_twice_differs_on_no_seed() -> None:
    row = outcome(_puzzle("lethal_ko"), "kiter", "kiter", "focus-fire", seeds=2, playouts=2, turns=4)
    assert row.differing_seeds == 0 and row.n == 0 and math.isnan(row.ai_score)
    assert "same answer on every seed" in row.line()


def test_different_answers_are_played_on_paired_and_scored() -> None:
    row = outcome(_puzzle("lethal_ko"), "random", "kiter-race", "focus-fire", seeds=2, playouts=3, turns=6)
    assert row.differing_seeds >= 1 and row.n == 3 * row.differing_seeds
    assert 0.0 <= row.ai_score <= 1.0 and 0.0 <= row.base_score <= 1.0
    assert row.diff == pytest.approx(row.ai_score - row.base_score)
    assert row.ci_low <= row.diff <= row.ci_high


def test_a_playout_is_a_pure_function_of_its_seeds_and_leaves_the_answer_untouched() -> None:
    answer = answered(_puzzle("lethal_ko"), "kiter-race", 0)
    before = answer.state.turn
    first = [play_on(answer, 0, "focus-fire", k, 8) for k in range(3)]
    assert [play_on(answer, 0, "focus-fire", k, 8) for k in range(3)] == first
    assert answer.state.turn == before


def test_the_tool_prints_a_table_row_per_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--ai", "kiter", "--base", "kiter", "--puzzle", "lethal_ko", "--seeds", "1", "--playouts", "1"])
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("| puzzle |") and "lethal_ko" in out


def test_a_variant_of_mcts_may_be_judged_by_its_knobs() -> None:
    knobs = '{"base": "kiter-race", "candidates": 2, "schedule": [1]}'
    puzzle = _puzzle("lethal_ko")
    assert puzzle.judge(answered(puzzle, knobs, 0))  # a KO in reach: the variant takes it


def test_the_seeds_may_start_elsewhere_and_the_seed_is_the_unit_of_the_second_interval() -> None:
    """``first_seed`` plays seeds ``first_seed ..``; the "by seed" interval is a t interval over
    each differing seed's mean difference (its playouts are one answer's, not independent draws)."""
    import numpy as np
    from scipy import stats as sps

    from krosbalance.engine.turn import positions

    puzzle = _puzzle("lethal_ko")
    row = outcome(puzzle, "random", "kiter-race", "focus-fire", seeds=3, playouts=2, turns=6, first_seed=5)
    means = []
    for seed in range(5, 8):
        mine, theirs = answered(puzzle, "random", seed), answered(puzzle, "kiter-race", seed)
        if positions(mine.state) == positions(theirs.state):
            continue
        means.append(
            np.mean(
                [
                    play_on(mine, seed, "focus-fire", k, 6) - play_on(theirs, seed, "focus-fire", k, 6)
                    for k in range(2)
                ]
            )
        )
    assert row.differing_seeds == len(means) >= 2
    assert row.diff == pytest.approx(float(np.mean(means)))
    half = sps.t.ppf(0.975, len(means) - 1) * np.std(means, ddof=1) / np.sqrt(len(means))
    assert (row.seed_low, row.seed_high) == pytest.approx((row.diff - half, row.diff + half))
