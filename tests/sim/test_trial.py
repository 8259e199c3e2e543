"""Validate plays what run plays: each arm's first match is set up and played for its first turns,
so an experiment whose every match would fail is refused before any match runs."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import load_experiment
from krosbalance.sim.runner import run_experiment
from krosbalance.sim.trial import first_match_of_each_arm, trial_errors, trial_problem

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


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "simulations").glob("*.toml"))
#: shipped experiments of restricted play: each arm's first match is also tried with a heuristic AI
#: in its seats (below). Their whole trial is in the default suite: why-bill-tell's 12 arms are each
#: mcts-fair's opening, 140 CPU s on the reference, ~3 s now that the core plays trials.
RESTRICTED_TRIALS = ("why-bill-tell.toml",)


def test_the_shipped_experiments_are_found() -> None:
    assert len(SHIPPED) > 20 and {"box-round-robin.toml", *RESTRICTED_TRIALS} <= {
        path.name for path in SHIPPED
    }


# One case per file, so that `-n 2` spreads them.
@pytest.mark.parametrize("path", SHIPPED, ids=[path.name for path in SHIPPED])
def test_every_shipped_experiment_passes_its_trial(path: Path) -> None:
    experiment = load_experiment(path)
    assert trial_errors(experiment, str(path)) == [], path.name


@pytest.mark.parametrize("name", RESTRICTED_TRIALS)
def test_a_long_trial_passes_on_every_arm_with_a_heuristic_and_on_a_restricted_arm_with_its_own_ais(
    name: str,
) -> None:
    """Every arm's first match (its restriction, options, set-up and table rows) with kiter in its
    seats, and the first restricted arm's with its own AIs (mcts-fair planning under a restriction):
    a heuristic's play under each restriction beside the search AI's of the whole trial."""
    path = Path(__file__).resolve().parents[2] / "simulations" / name
    firsts = first_match_of_each_arm(load_experiment(path))
    restricted = next(spec for spec in firsts if spec.forbid)
    assert all(spec.ruleset == "arena" for spec in firsts) and len(firsts) > 2
    cases = [replace(spec, ai_a="kiter", ai_b="kiter") for spec in firsts] + [restricted]
    assert all(not spec.more_ais for spec in firsts)
    assert [(spec.variant, spec.ais, trial_problem(spec)) for spec in cases] == [
        (spec.variant, spec.ais, "") for spec in cases
    ]


def test_a_trial_is_the_arms_first_match_with_its_turn_bound_lowered_to_one_turn_per_player(
    tmp_path: Path,
) -> None:
    from krosbalance.play import play_match
    from krosbalance.sim.catalog import arm_ruleset
    from krosbalance.sim.trial import trial_ruleset

    (spec,) = first_match_of_each_arm(load_experiment(_file(tmp_path, "")))
    rules = trial_ruleset(spec)
    assert arm_ruleset(spec.ruleset, spec.options_json).opts.turn_limit > spec.n_seats  # the arm's own
    assert rules.opts.turn_limit == spec.n_seats and rules.name == spec.ruleset
    result = play_match(
        *(list(t) for t in spec.teams), board=spec.board, ai=spec.ais, seed=spec.seed, ruleset=rules
    )
    assert result.turns <= spec.n_seats
    # an arm whose own bound is lower than the trial's keeps it
    short = _file(tmp_path, "turn_limit = 1")
    (spec,) = first_match_of_each_arm(load_experiment(short))
    assert trial_ruleset(spec).opts.turn_limit == 1
    assert trial_errors(load_experiment(short), str(short)) == []
