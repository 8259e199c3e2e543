"""validate's cost: matches as run plays them (a staged study's stages counted) and a wall time from
each AI's measured cost, scaled by the workers and the engine."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from krosbalance.ai.registry import ai_cost, ai_tier, list_ais
from krosbalance.cli import main
from krosbalance.cli.cost import duration, effective_jobs, run_cost, seconds_per_match
from krosbalance.sim.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "simulations" / "smoke.toml"


def test_every_ai_has_a_cost_and_the_reference_engine_is_dearer_than_the_core() -> None:
    for name in list_ais():
        core, _ = ai_cost(name, core=True)
        reference, how = ai_cost(name, core=False)
        assert core > 0 and reference > 0, name
        if how == "scaled":  # a scaled reference cost keeps the measured AIs' ratio, above 1
            assert reference > core


def test_an_ai_never_timed_costs_its_tiers_median(monkeypatch: pytest.MonkeyPatch) -> None:
    import krosbalance.ai.registry as registry

    heuristic = [a for a in list_ais() if ai_tier(a) == "heuristic"]
    fake = {"core": {heuristic[0]: 1.0, heuristic[1]: 3.0}, "reference": {}}
    monkeypatch.setattr(registry, "_costs", lambda: fake)
    assert ai_cost(heuristic[2], core=True) == (2.0, "tier")
    value, how = ai_cost(heuristic[0], core=False)  # nothing timed on the reference engine
    assert math.isnan(value) and how == "unknown"
    baseline = next(a for a in list_ais() if ai_tier(a) == "baseline")
    value, how = ai_cost(baseline, core=True)
    assert math.isnan(value) and how == "unknown"


def test_the_time_scales_with_the_workers_and_the_engine() -> None:
    experiment = load_experiment(SMOKE)
    from krosbalance.ai.registry import run_startup_seconds

    one, two = run_cost(experiment, 1, core=True), run_cost(experiment, 2, core=True)
    assert one.matches == two.matches == experiment.n_matches
    assert one.seconds == pytest.approx(2 * (two.seconds - run_startup_seconds()))  # + the workers' start
    per, _ = seconds_per_match(experiment, core=False)
    assert run_cost(experiment, 1, core=False).seconds == pytest.approx(per * experiment.n_matches)


def test_a_fix_file_counts_its_probe_and_verification_stages() -> None:
    experiment = load_experiment(ROOT / "simulations" / "fix-the-box.toml")
    cost = run_cost(experiment, 2, core=True)
    names = [name for name, _ in cost.stages]
    assert any(n.endswith("-probe") for n in names) and any(n.endswith("-verify") for n in names)
    assert cost.matches == sum(n for _, n in cost.stages) > experiment.n_matches


def test_validate_prints_the_matches_and_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SMOKE), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "run plays 8 matches" in out and "with 1 job(s)" in out


def test_durations_and_jobs_read_as_a_person_says_them() -> None:
    assert duration(0.2) == "under 1 s" and duration(45) == "45 s" and duration(600) == "10 min"
    assert duration(3 * 3600) == "3.0 h"
    assert effective_jobs(-1, 8) == 8 and effective_jobs(-2, 8) == 7 and effective_jobs(3, 8) == 3


def test_patched_arms_are_costed_on_the_core_that_plays_them() -> None:
    from dataclasses import replace

    experiment = load_experiment(SMOKE)
    patched = replace(experiment, patch='{"name": "p", "changes": {}}')
    assert run_cost(patched, 1, core=True).seconds == pytest.approx(
        run_cost(experiment, 1, core=True).seconds
    )
    assert run_cost(patched, 1, core=True).seconds < run_cost(patched, 1, core=False).seconds


def test_a_team_ladders_search_stage_is_costed_with_its_own_ai() -> None:
    experiment = load_experiment(ROOT / "simulations" / "team-ladder.toml")
    cost = run_cost(experiment, 1, core=True)
    search = next(label for label, _ in cost.stages if label.startswith("search"))
    n_search = dict(cost.stages)[search]
    heuristic_per, _ = seconds_per_match(experiment, core=True)
    from krosbalance.studies.teams.planner import search_matchups

    ais, deals = search_matchups(json.loads(experiment.ladder)["search"])  # its AI and any beside it
    search_per, _ = seconds_per_match(replace(experiment, ais=ais, ai_deals=deals), core=True)
    rest = cost.matches - n_search
    assert cost.seconds == pytest.approx(rest * heuristic_per + n_search * search_per)
    assert search_per > heuristic_per  # the search tier is what the estimate was missing


@pytest.mark.parametrize("study", ["duel.toml", "blast-challenges.toml"])
def test_a_ruleset_the_core_plays_is_costed_on_the_core(study: str) -> None:
    """The Duel Pack and Blast play in the core (issue 41), so validate costs them there: cheaper than
    on the reference engine, as Arena is."""
    experiment = load_experiment(ROOT / "simulations" / study)
    on_core, _ = seconds_per_match(experiment, core=True)
    on_reference, _ = seconds_per_match(experiment, core=False)
    assert on_core < on_reference
