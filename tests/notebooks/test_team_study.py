"""The team-study notebook runs from a fresh clone: without ``KROSBALANCE_TEAM_STUDY`` it plays a
small team ladder itself (``run_study``) and plots the ladder and the meta-game (nbclient)."""

from __future__ import annotations

import pytest

from tests.notebooks.notebook_run import execute, images


def test_team_study_notebook_plays_a_small_ladder_and_plots_it(monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = execute("team-study.ipynb", monkeypatch)
    assert images(outputs) >= 2, "the ladder and the win-rate matrix should render"
    text = "".join(out.get("text", "") for out in outputs)
    assert "legal teams in the field" in text and "effective number of viable teams" in text
    assert "text/html" in outputs[-1].get("data", {})
