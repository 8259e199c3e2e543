"""Execute a shipped notebook as a reader would: from its folder, with no environment variable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: the variables a notebook may read; a fresh clone has none of them
VARIABLES = ("KROSBALANCE_RESULTS", "KROSBALANCE_TEAM_STUDY", "KROSBALANCE_CONTENT")


def execute(name: str, monkeypatch: pytest.MonkeyPatch, timeout: int = 300) -> list[Any]:
    """Run the notebook top to bottom; its code cells' outputs, after checking none is an error."""
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(
        notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    errors = [out for out in outputs if out.get("output_type") == "error"]
    assert not errors, f"{name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    return outputs


def tables(outputs: list[Any]) -> str:
    return "".join(out.get("data", {}).get("text/html", "") for out in outputs)


def images(outputs: list[Any]) -> int:
    return sum("image/png" in out.get("data", {}) for out in outputs)
