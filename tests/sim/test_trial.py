"""Validate plays what run plays: each arm's first match is set up and played for its first turns,
so an experiment whose every match would fail is refused before any match runs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import load_experiment
from krosbalance.sim.runner import run_experiment
from krosbalance.sim.trial import first_match_of_each_arm, trial_errors

BOX_SPLIT = """
name = "y"
master_seed = 1
matches_per_pairing = 1
[options]
{option}
[teams]
mode = "random_deal"
pool = {{ set = "arena-box" }}
"""


def _file(tmp_path: Path, option: str, extra: str = "") -> Path:
    path = tmp_path / "y.toml"
    path.write_text(textwrap.dedent(BOX_SPLIT.format(option=option)) + extra, encoding="utf-8")
    return path


def test_an_unknown_start_reward_passes_parsing_but_not_validate_and_run_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The reproducer of the robustness pass: validate said ok, run played every match into an error.
    path = _file(tmp_path, 'start_rewards = [["no_such_token"], []]')
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no_such_token" in err[0] and str(path) in err[0] and "first match" in err[0]
    with pytest.raises(ExperimentError, match="no_such_token"):
        run_experiment(path, tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()  # refused before the output folder was made


@pytest.mark.parametrize("option", ["scenery_hp = {}", "reward_prices = {}", "scenery_hp = { tree = 1 }"])
def test_a_table_option_must_give_every_key_of_its_default(tmp_path: Path, option: str, capsys) -> None:
    path = _file(tmp_path, option)
    assert main(["validate", str(path)]) == 2
    assert "needs exactly the keys" in capsys.readouterr().err


def test_each_arm_is_tried_once_and_a_failing_arm_is_named(tmp_path: Path) -> None:
    arms = """
[[variants]]
name = "plain"

[[variants]]
name = "broken"
options = { start_rewards = [["no_such_token"], []] }
"""
    path = _file(tmp_path, "", arms)
    experiment = load_experiment(path)
    firsts = first_match_of_each_arm(experiment)
    assert [spec.variant for spec in firsts] == ["plain", "broken"]
    errors = trial_errors(experiment, str(path))
    assert [e.field for e in errors] == ["variant 'broken'"]


def test_every_shipped_experiment_passes_its_trial() -> None:
    for path in sorted(Path(__file__).resolve().parents[2].glob("simulations/*.toml")):
        experiment = load_experiment(path)
        assert trial_errors(experiment, str(path)) == [], path.name
