"""Every path built from a manifest or an experiment stays inside its folder, and report.md escapes
experiment text as the HTML page does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from krosbalance.analysis.document import Doc, render_markdown
from krosbalance.cli import main
from krosbalance.sim.experiment import NAME_MAX, check_experiment_text, folder_name_problem

FIXTURE = Path(__file__).parent / "fixtures" / "results-small"


def _results_with_manifest(tmp_path: Path, manifest: object) -> Path:
    results = tmp_path / "R"
    shutil.copytree(FIXTURE, results)
    (results / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return results


def test_a_manifest_naming_a_folder_outside_reports_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    results = _results_with_manifest(tmp_path, {"experiment": "../../x"})
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    assert main(["report", str(results)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "experiment" in err[0] and "--to" in err[0]
    assert not (tmp_path / "x").exists() and not (work / "reports").exists()


def test_a_manifest_that_is_a_json_list_is_one_clear_error(tmp_path: Path, capsys) -> None:
    results = _results_with_manifest(tmp_path, ["experiment"])
    assert main(["report", str(results), "--to", str(tmp_path / "rep")]) == 2
    assert "not a krosbalance manifest" in capsys.readouterr().err


def test_an_experiment_name_is_one_short_folder_name() -> None:
    assert folder_name_problem("box-round-robin") == ""
    for bad in ("../x", "a/b", ".hidden", "x" * (NAME_MAX + 1), ""):
        assert folder_name_problem(bad), bad
    _, errors = check_experiment_text(f'name = "{"n" * 300}"\nmaster_seed = 1\nmatches_per_pairing = 1\n')
    assert any(e.field == "name" and "at most" in e.reason for e in errors)


def test_report_markdown_escapes_experiment_text_and_no_fence_can_be_closed() -> None:
    doc = Doc()
    doc.p("<script>alert(1)</script> **bold** & more")
    doc.code("````\n<b>not closed</b>\n````", "toml")
    text = render_markdown("krosbalance report: <x>", doc, Path("."))
    assert "<script>" not in text and "&lt;script&gt;" in text and "**bold**" in text
    assert "# krosbalance report: &lt;x&gt;" in text
    assert "`````toml" in text  # a fence longer than any backtick run inside
