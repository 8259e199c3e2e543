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
    assert len(err) == 1 and "experiment" in err[0] and "--out" in err[0]
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


# ---------------------------------------------------------------- issue 36: one rule for every name
def test_every_name_that_becomes_a_path_goes_through_one_rule() -> None:
    from krosbalance.paths import name_problem

    for good in ("box-round-robin", "anna-tommy-buff", "a.b_c-1", "x" * NAME_MAX):
        assert name_problem(good) == "", good
    bad = ("../x", "..", ".", "a/b", "a\\b", "/abs", "C:x", "", ".hidden", "a\nb", "x\n", "t\tab", "nul\x00")
    for name in (*bad, "x" * (NAME_MAX + 1), 7):
        assert name_problem(name), repr(name)
        assert "\n" not in name_problem(name)
    assert folder_name_problem("../x") == name_problem("../x")


def test_a_patch_name_cannot_steer_the_results_folder_out_of_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36: ``run --patch`` wrote results/<experiment>--<patch name>, and the name was never
    checked: ``name = "../../../../escaped"`` wrote the manifest and shards outside."""
    work = tmp_path / "a" / "b" / "c" / "d"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    (work / "evil.toml").write_text(
        'name = "../../../../escaped"\n[characters.anna_tommy]\nhp = 13\n', encoding="utf-8"
    )
    smoke = Path(__file__).resolve().parents[1] / "simulations" / "smoke.toml"
    assert main(["run", str(smoke), "--patch", "evil.toml", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: evil.toml: name: '../../../../escaped' must be")
    assert not (tmp_path / "escaped").exists() and not (work / "results").exists()


def test_a_shipped_patch_name_is_never_a_path(tmp_path: Path) -> None:
    import os

    from krosbalance.errors import ContentError
    from krosbalance.sim.patches import PATCH_FOLDER, load_patch

    (tmp_path / "outside.toml").write_text("[characters.anna_tommy]\nhp = 13\n", encoding="utf-8")
    sneaky = os.path.relpath(tmp_path / "outside", PATCH_FOLDER)  # "../../../../tmp/.../outside"
    with pytest.raises(ContentError, match="no patch file"):
        load_patch(sneaky)


def test_a_board_id_that_is_not_a_file_name_is_refused() -> None:
    from krosbalance.board import board_from_mapping
    from krosbalance.errors import ContentError

    data = {"id": "../../boards/x", "name": "x", "source": "test", "grid": {"rows": ". .\n. ."}}
    with pytest.raises(ContentError) as info:
        board_from_mapping(data, file="x.toml")
    assert info.value.field == "id" and "must be letters" in info.value.reason


def test_a_duel_token_set_is_a_file_name_never_a_path(tmp_path: Path) -> None:
    import os

    from krosbalance.content.duel import DUEL_TOKEN_FOLDER, duel_tokens
    from krosbalance.errors import ContentError

    sneaky = os.path.relpath(tmp_path / "tokens", DUEL_TOKEN_FOLDER)
    (tmp_path / "tokens.toml").write_text("garbage = 1\n", encoding="utf-8")
    with pytest.raises(ContentError, match="unknown set"):
        duel_tokens(sneaky)
