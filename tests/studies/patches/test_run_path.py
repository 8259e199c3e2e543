"""``krosbalance run`` runs the fix finder of a ``[fix]`` file (the patches study's stage runner, found
by the registry); ``krosbalance fix`` is its alias and resumes what ``run`` started."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.sim.experiment import load_experiment, loads_experiment
from krosbalance.sim.stages import read_stages
from krosbalance.studies import get_study, study_for
from krosbalance.studies.patches.planner import run_fix_study
from krosbalance.studies.registry import stage_runner
from tests.studies.patches.conftest import BASE

SIMULATIONS = Path(__file__).resolve().parents[3] / "simulations"


def test_the_registry_gives_each_staged_study_its_runner() -> None:
    fix = load_experiment(SIMULATIONS / "fix-the-box.toml")
    assert study_for(fix).name == "patches" and stage_runner(study_for(fix), fix) is run_fix_study
    ladder = load_experiment(SIMULATIONS / "team-ladder.toml")
    assert study_for(ladder).name == "teams" and stage_runner(study_for(ladder), ladder) is not None
    plain = loads_experiment(BASE)
    assert stage_runner(study_for(plain), plain) is None  # one experiment, played once
    patched = load_experiment(SIMULATIONS / "why-bill-tell.toml")
    assert stage_runner(get_study("patches"), patched) is None  # patched arms without [fix]: played once


def test_run_plays_the_fix_finder_and_fix_resumes_it(
    tiny_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["run", str(tiny_file), "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "stage 1:" in printed and "proposed patch" in printed
    stages = [s["experiment"] for s in read_stages(out)["stages"]]
    assert stages == ["tiny-fix-probe", "tiny-fix-verify", "tiny-fix-probe2", "tiny-fix-verify2"]
    assert main(["fix", str(tiny_file), "--out", str(out), "--resume", "--no-progress"]) == 0
    assert "(0 played)" in capsys.readouterr().out  # every stage already complete


def test_run_refuses_a_patch_over_a_fix_file(
    tiny_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        ["run", str(tiny_file), "--patch", "anna-tommy-buff", "--out", str(tmp_path / "o"), "--no-progress"]
    )
    assert status == 2 and "--patch: a fix file plays the shipped cards" in capsys.readouterr().err
