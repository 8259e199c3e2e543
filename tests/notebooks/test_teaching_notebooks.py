"""The notebooks of each use (teams, rewards, Blast challenges, patches) run from a fresh clone
(no environment variable): each plays a small study with ``run_study``, shows the toolkit's own
tables and answers a pandas question of its own; and every shipped notebook is committed with its
outputs, so a reader sees them before running anything."""

from __future__ import annotations

import json

import pytest

from tests.notebooks.notebook_run import NOTEBOOKS, execute, images, tables

TEACHING = ("teams.ipynb", "rewards.ipynb", "blast-challenges.ipynb", "patches.ipynb")


@pytest.mark.parametrize("name", TEACHING)
def test_a_use_notebook_runs_a_small_study_and_shows_tables(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    outputs = execute(name, monkeypatch)
    assert tables(outputs).count("<table") >= 2, "the toolkit's table and the reader's own"
    last = outputs[-1]
    assert "text/html" in last.get("data", {}), "the pandas question ends on a table"
    if name in ("rewards.ipynb", "blast-challenges.ipynb"):
        assert images(outputs) >= 1


def test_every_notebook_is_committed_with_its_outputs_and_no_error() -> None:
    found = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert {p.name for p in found} >= set(TEACHING)
    for path in found:
        cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        outputs = [o for c in cells for o in c.get("outputs", [])]
        assert outputs, f"{path.name} has no saved outputs"
        assert not [o for o in outputs if o.get("output_type") == "error"], f"{path.name} saved an error"
        assert any(
            "Your own question" in "".join(c["source"]) for c in json.loads(path.read_text())["cells"]
        ), path.name
