"""``make core-pgo``'s training run (krosbalance.tools.core_training)."""

from __future__ import annotations

import pytest

from krosbalance import native
from krosbalance.tools import core_training


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_the_training_run_plays_each_workload_in_the_core(capsys) -> None:
    played = core_training.train(matches=1, four=1, search=1)
    assert played == len(core_training.HEURISTICS) + len(core_training.FOUR_PLAYER) + 1
    assert core_training.main(["--matches", "1", "--four", "0", "--search", "0"]) == 0
    assert f"{len(core_training.HEURISTICS)} matches in" in capsys.readouterr().out
