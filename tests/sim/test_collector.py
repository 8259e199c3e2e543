"""The collector's pace during bulk play (krosbalance.sim.collector)."""

from __future__ import annotations

import gc

import pytest

from krosbalance.sim.collector import BULK_THRESHOLD, bulk_collection
from krosbalance.sim.experiment import MatchSpec
from krosbalance.sim.match import run_batch


@pytest.fixture
def default_thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_bulk_collection_raises_the_first_generation_threshold_and_restores_it(default_thresholds) -> None:
    with bulk_collection():
        assert gc.get_threshold() == (BULK_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_bulk_collection_never_collects_more_often_than_the_caller_asked(default_thresholds) -> None:
    gc.set_threshold(BULK_THRESHOLD * 2, 5, 5)
    with bulk_collection():
        assert gc.get_threshold() == (BULK_THRESHOLD * 2, 5, 5)
    assert gc.get_threshold() == (BULK_THRESHOLD * 2, 5, 5)


def test_bulk_collection_restores_the_thresholds_when_the_block_raises(default_thresholds) -> None:
    with pytest.raises(RuntimeError), bulk_collection():
        raise RuntimeError("a match crashed")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_batch_plays_under_the_bulk_threshold_and_gives_it_back(default_thresholds) -> None:
    seen = []

    def play(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        raise RuntimeError("no match needed")

    spec = MatchSpec(0, "gc", 0, 0, False, 1, ("a",), ("b",), "random", "random", "board", "arena", "{}")
    batch = run_batch([spec], play)
    assert seen == [BULK_THRESHOLD]
    assert batch.errors  # the crash was recorded, and the thresholds still came back
    assert gc.get_threshold() == (700, 10, 10)
