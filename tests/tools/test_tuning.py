"""The weight tuner (issue 18, item 2): seeded and deterministic, common random numbers, held-out
boards apart, and the kept weights written where the tuned AI reads them."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

pytest.importorskip("optuna")

from krosbalance.ai.registry import list_ais  # noqa: E402
from krosbalance.ai.tuned import tuned_weights  # noqa: E402
from krosbalance.ai.weights import Weights  # noqa: E402
from krosbalance.tools.tuning import (  # noqa: E402
    CANDIDATE,
    HELD_OUT_BOARDS,
    SEARCH_SPACE,
    TUNING_BOARDS,
    Budget,
    Score,
    TuningResult,
    base_weights,
    candidate_ai,
    candidate_weights,
    deal_list,
    score_weights,
    tune,
    write_entry,
)

TINY = Budget(trials=3, deals=1, finalists=2, final_deals=1)


def test_the_tuner_is_deterministic_for_a_seed() -> None:
    first, second = tune(TINY, seed=5), tune(TINY, seed=5)
    assert first.params == second.params and first.final_score == second.final_score
    assert [r["score"] for r in first.trials] == [r["score"] for r in second.trials]
    assert len(first.trials) == TINY.trials
    assert first.trials[0]["trial"] == 0  # the baseline is enqueued first
    assert {f: first.trials[0][f] for f in SEARCH_SPACE} == {
        f: getattr(base_weights(), f) for f in SEARCH_SPACE
    }


def test_the_baseline_scores_exactly_half_against_itself() -> None:
    """The candidate plays each deal from both seats with the same seed (common random numbers): with
    kiter-2's own weights the two games of each pair are one game mirrored, so it scores 1/2."""
    result = score_weights(base_weights(), "kiter-2", deal_list(2, 11, TUNING_BOARDS))
    assert result.n == 8 and result.rate == 0.5


def test_the_candidate_is_registered_only_while_it_plays() -> None:
    with candidate_ai(base_weights()) as name:
        assert name == CANDIDATE and CANDIDATE in list_ais("arena")
    assert CANDIDATE not in list_ais()


def test_tuning_and_held_out_boards_are_apart_and_the_held_out_are_the_ladders() -> None:
    assert not set(TUNING_BOARDS) & set(HELD_OUT_BOARDS)
    root = Path(__file__).resolve().parents[2]
    ladder = tomllib.loads((root / "simulations" / "ai-ladder.toml").read_text(encoding="utf-8"))
    assert set(ladder["boards"]) == set(HELD_OUT_BOARDS)
    assert {board for *_, board in deal_list(6, 1, TUNING_BOARDS)} == set(TUNING_BOARDS)


def test_the_search_space_is_float_weights_within_range() -> None:
    numbers = {f.name for f in fields(Weights) if not isinstance(getattr(base_weights(), f.name), bool)}
    assert set(SEARCH_SPACE) <= numbers
    for field, (low, high) in SEARCH_SPACE.items():
        assert low <= getattr(base_weights(), field) <= high, field  # the baseline can be sampled


def test_the_kept_weights_are_written_where_the_tuned_ai_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "tuned.toml"
    path.write_text('# header\n\n[other-3]\nbase = "kiter-2"\nkill = 1.5\n', encoding="utf-8")
    params = {"safety": 0.65, "deny": 1.35}
    result = TuningResult(candidate_weights(params), params, Score(3, 1, 2), [], 9, TINY, TUNING_BOARDS)
    for _ in range(2):  # writing twice replaces the table, keeps the other one
        write_entry("kiter-4", result, path, date="2026-12-02")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# header") and text.count("[kiter-4]") == 1
    assert tuned_weights("kiter-4", path) == candidate_weights(params)
    assert tuned_weights("other-3", path).kill == 1.5
    source = tomllib.loads(text)["kiter-4"]["source"]
    assert "Optuna TPE" in source and "seed 9" in source and "2026-12-02" in source
    assert all(board in source for board in TUNING_BOARDS + HELD_OUT_BOARDS)
