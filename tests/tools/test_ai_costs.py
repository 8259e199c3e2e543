"""The AI cost table behind `validate`'s time estimates: matches timed alone after a warm-up (a run's
own start-up is measured apart), written in the file the registry reads."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from krosbalance.tools import ai_costs


def test_a_match_is_timed_alone_after_a_warm_up_both_sides_of_each_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import krosbalance.play

    seats: list[tuple[tuple[str, ...], ...]] = []
    monkeypatch.setattr(krosbalance.play, "play_match", lambda *teams, **kw: seats.append(teams))
    seconds = ai_costs.seconds_per_match("focus-fire", "auto", deals=3)
    assert len(seats) == 1 + 2 * 3  # the warm-up, then each deal from both sides
    assert seats[1] == ai_costs.BOX_SPLIT and seats[2] == ai_costs.BOX_SPLIT[::-1]
    assert seconds >= 0


def test_the_written_table_reads_back(tmp_path: Path) -> None:
    costs = {"core": {"focus-fire": 0.0015}, "reference": {"focus-fire": 0.09}}
    path = ai_costs.write_costs(costs, tmp_path / "costs.toml", "a test", startup=2.0)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["core"]["focus-fire"] == pytest.approx(0.0015) and data["startup"] == pytest.approx(2.0)
