"""The lucb team ladder (``design = "lucb"``): (epsilon, delta)-PAC top-k racing against the field.

The synthetic fields are Bradley-Terry fields of known strengths (drawn from a seeded generator, not
today's content); the race must recover their known top k -- epsilon-correct in at least 1 - delta of
the seeded fields, exactly on a separated field -- with fewer matches than the uniform design (every
team the same number of field opponents) at the same rate.
"""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest

from krosbalance.analysis.staged import load_staged
from krosbalance.sim.experiment import check_experiment_text
from krosbalance.sim.stages import FinishedStage, read_stages, run_stages
from krosbalance.sim.topk import exploration_rate, kl_bounds, race_step, stage_opponents
from krosbalance.studies.teams.design_check import (
    field_scores,
    smallest_uniform,
    synthetic_lucb,
    synthetic_round_robin,
)
from krosbalance.studies.teams.ladder import pairing_samples, team_key
from krosbalance.studies.teams.planner import TeamLadderPlanner, planned_matches
from krosbalance.studies.teams.section import team_study
from tests.sim.fakes import STAR_ROSTER, STAR_TEAMS, strength_play, team_strength
from tests.studies.teams.test_team_ladder import CAT, LADDER, ladder

LUCB = (
    LADDER.replace('roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}")
    .replace("top_k = 3", 'design = "lucb"\ntop_k = 3\nepsilon = 0.2\ndelta = 0.1\nbudget = 1200\nbatch = 3')
    .replace("min_teams = 8\n", "")
    .replace("keep = 0.5\n", "")
)


def field(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, 1.0, size=n)


# ------------------------------------------------------------------------------- bounds and rule


def test_exploration_rate_spends_at_most_delta_over_every_team_and_sample_count() -> None:
    n, delta = 50, 0.1
    u = np.arange(1, 200_001)
    spent = n * 2 * np.exp(-exploration_rate(u, n, delta)).sum()  # two sides, every count, every team
    assert spent <= delta and spent > 0.99 * delta * (1 - 1 / 200_000) ** 2


def test_kl_bounds_hold_the_true_mean_and_narrow_with_samples() -> None:
    rng = np.random.default_rng(3)
    mu = rng.uniform(0.1, 0.9, size=2000)
    counts = np.full(2000, 50.0)
    means = rng.binomial(50, mu) / 50
    beta = np.full(2000, math.log(1 / 0.05))  # one-sided miss at most 5%
    lower, upper = kl_bounds(means, counts, beta)
    assert np.all(lower <= means) and np.all(means <= upper)
    assert np.mean(mu < lower) <= 0.05 and np.mean(mu > upper) <= 0.05
    wide = kl_bounds(means, counts / 10, beta)
    assert np.all(wide[0] <= lower + 1e-12) and np.all(wide[1] >= upper - 1e-12)
    none = kl_bounds(means, np.zeros(2000), beta)
    assert np.all(none[0] == 0) and np.all(none[1] == 1)


def test_race_stops_when_the_top_k_is_separated_and_samples_only_the_boundary_otherwise() -> None:
    means = np.array([0.9, 0.85, 0.8, 0.75, 0.3, 0.2, 0.1])
    many = np.full(7, 1e5)
    done = race_step(means * many, many, k=3, epsilon=0.05, delta=0.1, batch=2)
    assert done.stop and set(done.top) == {0, 1, 2} and done.sample == ()
    # the 3rd and 4th are close and little sampled: they straddle, first; the clearly weak teams do not
    counts = np.array([1e5, 1e5, 40, 40, 1e5, 1e5, 1e5])
    step = race_step(means * counts, counts, k=3, epsilon=0.05, delta=0.1, batch=2)
    assert not step.stop and step.reached_epsilon >= 0.05
    assert set(step.sample[:2]) == {2, 3} and not set(step.sample) & {4, 5, 6} and len(step.sample) <= 4
    opponents = stage_opponents(counts, step.sample, 1)
    assert opponents == [20] * len(step.sample)  # half the fewest samples, the same for all


# --------------------------------------------------------------------------- synthetic fields


def test_certified_race_is_epsilon_correct_in_at_least_1_minus_delta_of_seeded_fields() -> None:
    s = field(40, 19)
    design = dict(top_k=4, epsilon=0.15, delta=0.2, batch=4, opponents=2, per_pairing=6)
    runs = [synthetic_lucb(s, budget=None, seed=r, max_stages=1 << 30, **design) for r in range(10)]
    assert all(r["certified"] for r in runs)
    assert np.mean([r["eps_correct"] for r in runs]) >= 1 - design["delta"]
    # the same bounds certify a uniform design only with many more matches
    uniform = smallest_uniform(
        s, 1.0, "certified", replicates=5, top_k=4, epsilon=0.15, delta=0.2, per_pairing=6
    )
    assert uniform["matches"] > 2 * np.mean([r["matches"] for r in runs])


def test_race_at_a_budget_beats_the_uniform_design_at_the_same_epsilon_correct_rate() -> None:
    s = field(80, 19)
    design = dict(top_k=5, epsilon=0.05, delta=0.1, batch=5, opponents=2, per_pairing=6)
    runs = [synthetic_lucb(s, budget=14_000, seed=r, **design) for r in range(20)]
    rate = np.mean([r["eps_correct"] for r in runs])
    assert rate >= 1 - design["delta"]
    assert all(r["matches"] <= 14_000 for r in runs)
    uniform = smallest_uniform(
        s, rate, "eps_correct", replicates=40, top_k=5, epsilon=0.05, delta=0.1, per_pairing=6
    )
    assert uniform["matches"] > 1.5 * np.mean([r["matches"] for r in runs])


def test_race_recovers_the_exact_top_k_of_a_separated_field_with_fewer_matches_than_uniform() -> None:
    s = np.sort(field(80, 19))[::-1]
    s[:5] += 1.5
    _, mu = field_scores(s, 0)
    top = np.sort(mu)[::-1]
    assert top[4] - top[5] > 0.05  # separated by more than epsilon: epsilon-correct is exact
    design = dict(top_k=5, epsilon=0.05, delta=0.1, batch=5, opponents=2, per_pairing=6)
    runs = [synthetic_lucb(s, budget=6_000, seed=r, **design) for r in range(20)]
    assert all(r["exact"] for r in runs)
    uniform = smallest_uniform(
        s, 1.0, "exact", replicates=40, top_k=5, epsilon=0.05, delta=0.1, per_pairing=6
    )
    assert uniform["matches"] > 6_000


def test_a_smaller_uniform_design_misses_what_the_race_finds_at_its_budget() -> None:
    """The comparison can fail: the uniform design with the race's matches recovers less."""
    s = field(80, 19)
    n = len(s)
    per_team = 14_000 // (n * 6)
    from krosbalance.studies.teams.design_check import synthetic_uniform

    rate = np.mean(
        [
            synthetic_uniform(s, per_team=per_team, top_k=5, epsilon=0.05, delta=0.1, per_pairing=6, seed=r)[
                "eps_correct"
            ]
            for r in range(40)
        ]
    )
    assert rate < 0.9


def test_round_robin_certifies_its_own_epsilon_from_both_sides_of_every_match() -> None:
    s = field(30, 4)
    rr = synthetic_round_robin(s, top_k=3, delta=0.1, per_pairing=6, seed=0)
    assert rr["matches"] == 30 * 29 // 2 * 6
    loose = synthetic_round_robin(s, top_k=3, delta=0.1, per_pairing=1, seed=0)
    assert 0 < rr["certified_epsilon"] < loose["certified_epsilon"]


# ----------------------------------------------------------------------------------- the planner


def test_lucb_ladder_races_within_its_budget_on_the_planners_own_decisions(tmp_path: Path) -> None:
    experiment = ladder(LUCB)
    planned = planned_matches(experiment)
    assert list(planned)[:2] == ["lucb-01", "lucb (at most)"] and sum(list(planned.values())[:2]) == 1200
    out = tmp_path / "out"
    summary = run_stages(TeamLadderPlanner(experiment), out, play=strength_play, catalog=CAT, progress=False)
    labels = [s["experiment"] for s in read_stages(out)["stages"]]
    race = [s for s in summary.stages if s.folder.name.split("-", 2)[2].startswith("lucb-")]
    assert labels[0] == "lucb-01" and labels[-1] == "top-round-robin" and len(race) >= 2
    assert sum(s.n_matches for s in race) <= 1200
    # every later stage samples exactly the teams the race chose after the stages before it
    planner = TeamLadderPlanner(experiment)
    finished = [FinishedStage(planner.first(), race[0].folder)]
    settings = json.loads(experiment.ladder)
    teams = [tuple(t) for t in settings["teams"]]
    for stage in race[1:]:
        step, _, _ = planner.race_state(finished)
        planned_stage = planner.next(finished)
        assert planned_stage is not None and planned_stage == planner.next(finished)  # deterministic
        sampled = {a for a, _ in planned_stage.pairings}
        assert sampled <= {teams[i] for i in step.sample}
        finished.append(FinishedStage(planned_stage, stage.folder))
    sums, counts = pairing_samples(finished, teams)
    assert counts.sum() == sum(len(f.experiment.pairings) for f in finished)
    # the strongest teams of the synthetic field lead the race, and the report reads it
    truth = {team_key(t) for t in sorted(STAR_TEAMS, key=team_strength, reverse=True)[:3]}
    study = team_study(load_staged(out))
    assert study.design["design"] == "lucb" and set(study.design["top"]) == truth
    assert study.design["race_matches"] == sum(s.n_matches for s in race)
    assert study.synthetic["study"]["replicates"] > 0


def test_lucb_ladder_resumes_to_the_same_stages(tmp_path: Path) -> None:
    experiment = ladder(LUCB.replace("budget = 1200", "budget = 700"))
    a, b = tmp_path / "a", tmp_path / "b"
    run_stages(TeamLadderPlanner(experiment), a, play=strength_play, catalog=CAT, progress=False)
    first = read_stages(a)["stages"]
    run_stages(TeamLadderPlanner(experiment), b, play=strength_play, catalog=CAT, progress=False)
    again = run_stages(
        TeamLadderPlanner(experiment), b, play=strength_play, catalog=CAT, progress=False, resume=True
    )
    assert [s["experiment"] for s in read_stages(b)["stages"]] == [s["experiment"] for s in first]
    assert [s.n_matches for s in again.stages] == [s["n_matches"] for s in first]


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("epsilon", "0", "teams.ladder.epsilon: must be a number between 0 and 1 (exclusive), not 0"),
        ("epsilon", "1.5", "teams.ladder.epsilon: must be a number between 0 and 1 (exclusive), not 1.5"),
        ("delta", '"x"', "teams.ladder.delta: must be a number between 0 and 1 (exclusive), not 'x'"),
        ("budget", "0", "teams.ladder.budget: must be an integer >= 1, not 0"),
        ("batch", "2.5", "teams.ladder.batch: must be an integer >= 1, not 2.5"),
    ],
)
def test_bad_lucb_setting_is_one_clear_line(tmp_path: Path, key: str, value: str, reason: str) -> None:
    text = LUCB.replace(f"\n{key} = ", f"\n{key}_old = ").replace(
        "[teams.ladder]", f"[teams.ladder]\n{key} = {value}"
    )
    text = text.replace(f"{key}_old = ", "# ")
    _, errors = check_experiment_text(textwrap.dedent(text), str(tmp_path / "x.toml"), CAT)
    assert [f"{e.field}: {e.reason}" for e in errors] == [reason]


def test_lucb_keys_are_refused_by_the_halving_design(tmp_path: Path) -> None:
    text = LADDER.replace("top_k = 3", "top_k = 3\nepsilon = 0.1")
    _, errors = check_experiment_text(textwrap.dedent(text), str(tmp_path / "x.toml"), CAT)
    assert [f"{e.field}: {e.reason}" for e in errors] == [
        "teams.ladder.epsilon: used by design 'lucb' only, not 'adaptive'"
    ]


def test_the_race_ends_within_the_staged_runners_stage_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import krosbalance.sim.stages as stages

    monkeypatch.setattr(stages, "MAX_STAGES", 7)  # room for 3 race stages and the 4 that may follow
    experiment = ladder(LUCB.replace("budget = 1200", "budget = 100000"))
    out = tmp_path / "out"
    run_stages(
        TeamLadderPlanner(experiment), out, play=strength_play, catalog=CAT, progress=False, max_stages=7
    )
    labels = [s["experiment"] for s in read_stages(out)["stages"]]
    assert labels == ["lucb-01", "lucb-02", "lucb-03", "top-round-robin"]
    s = field(40, 19)
    capped = synthetic_lucb(
        s,
        top_k=4,
        epsilon=0.05,
        delta=0.1,
        batch=2,
        opponents=1,
        per_pairing=6,
        budget=None,
        seed=0,
        max_stages=5,
    )
    assert capped["stages"] == 5 and not capped["certified"]
