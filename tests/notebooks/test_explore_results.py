"""The exploration notebook runs top to bottom on the committed results fixture (nbclient)."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "explore-results.ipynb"
FIXTURE = ROOT / "tests" / "fixtures" / "results-small"


def test_notebook_executes_on_the_fixture(monkeypatch):
    monkeypatch.setenv("KROSBALANCE_RESULTS", str(FIXTURE))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]
    images = [out for out in outputs if "image/png" in out.get("data", {})]
    assert len(images) >= 4, "the strength plots, the per-AI plot, the matchups and the replay should render"
    text = "".join(out.get("text", "") for out in outputs)
    assert "winner:" in text
    tables = "".join(out.get("data", {}).get("text/html", "") for out in outputs)
    assert "focus-fire" in tables and "random" in tables  # the per-AI comparison is there
    assert "Bill Tell" in tables  # display names, not ids
    assert "depends on AI" in tables or "over-powered" in tables or "not shown" in tables
