"""The team-study notebook runs top to bottom on a synthetic team study (nbclient)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from krosbalance.sim.experiment import loads_experiment
from krosbalance.sim.stages import run_stages
from krosbalance.studies.teams.planner import TeamLadderPlanner
from tests.sim.fakes import STAR_ROSTER, FakeCatalog, strength_play
from tests.studies.teams.test_team_ladder import LADDER

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "team-study.ipynb"


def synthetic_study(out: Path) -> Path:
    """A small staged team study on the synthetic field of known strengths, with a swap."""
    text = textwrap.dedent(LADDER).replace('roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}")
    text = text.replace("opponents = 4", "opponents = 2").replace(
        "top_round_robin = 6",
        'top_round_robin = 6\nswaps = [{ team = ["bill_tell", "bill_tell", "oscar_kass", "oscar_kass"], '
        'out = "oscar_kass", in = "lil_healey" }]',
    )
    experiment = loads_experiment(text, "synthetic.toml", FakeCatalog())
    run_stages(TeamLadderPlanner(experiment), out, play=strength_play, catalog=FakeCatalog(), progress=False)
    (out / "experiment.toml").write_text(text, encoding="utf-8")
    return out


def test_team_study_notebook_plots_the_ladder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KROSBALANCE_TEAM_STUDY", str(synthetic_study(tmp_path / "study")))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]
    images = [out for out in outputs if "image/png" in out.get("data", {})]
    assert len(images) >= 2, "the ladder and the win-rate matrix should render"
    text = "".join(out.get("text", "") for out in outputs)
    assert "legal teams in the field" in text and "effective number of viable teams" in text
