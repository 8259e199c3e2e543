"""Staged studies: stages are ordinary results folders, planned from the finished ones, resumable."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from krosbalance.sim.experiment import Experiment, loads_experiment
from krosbalance.sim.runner import fingerprint, read_manifest, read_table
from krosbalance.sim.stages import (
    FinishedStage,
    StageError,
    experiment_toml,
    read_stages,
    run_stages,
    stage_folders,
)
from tests.sim.fakes import FakeCatalog, fake_play

CAT = FakeCatalog()

FIRST = """
name = "wide"
master_seed = 7
matches_per_pairing = 2
boards = ["arena-elemental"]
ais = ["focus_fire", { ai = ["random", "focus_fire"], deals = 1 }]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]

[options]
turn_limit = 30

[[variants]]
name = "short"
options = { turn_limit = 20 }

[[variants]]
name = "long"
"""


class KeepWinners:
    """Stage 1: every split; stage 2: the pairings whose team A won most in stage 1, re-played with
    more deals (a stand-in of a racing design); then done."""

    name = "keep-winners"

    def __init__(self) -> None:
        self.calls = 0

    def first(self) -> Experiment:
        return loads_experiment(textwrap.dedent(FIRST), "first", CAT)

    def next(self, finished: Sequence[FinishedStage]) -> Experiment | None:
        self.calls += 1
        if len(finished) >= 2:
            return None
        matches = read_table(finished[-1].folder, "matches")
        a_won = (matches["winner_team"] == "A").groupby(matches["pairing"]).mean()
        keep = sorted(a_won.sort_values(ascending=False, kind="stable").index[:3])
        pairs = [finished[-1].experiment.pairings[int(p)] for p in keep]
        text = textwrap.dedent(
            f"""
            name = "narrow"
            master_seed = 8
            matches_per_pairing = 4
            ais = ["focus_fire"]
            [teams]
            mode = "pairs"
            pairs = {json.dumps([[list(a), list(b)] for a, b in pairs])}
            """
        )
        return loads_experiment(text, "narrow", CAT)


def test_experiment_toml_loads_back_to_the_same_matches() -> None:
    experiment = loads_experiment(textwrap.dedent(FIRST), "first", CAT)
    back = loads_experiment(experiment_toml(experiment, CAT), "back", CAT)
    assert fingerprint(back) == fingerprint(experiment)
    assert back.pairings == experiment.pairings and back.n_matches == experiment.n_matches


def test_stages_run_in_order_each_an_ordinary_results_folder(tmp_path: Path) -> None:
    planner = KeepWinners()
    summary = run_stages(planner, tmp_path / "out", play=fake_play, catalog=CAT, progress=False)
    folders = stage_folders(tmp_path / "out")
    assert [f.name for f in folders] == ["stage-01-wide", "stage-02-narrow"]
    assert [s.n_matches for s in summary.stages] == [35 * 3 * 2 * 2, 3 * 4 * 2]
    assert summary.n_played == summary.n_matches
    for folder in folders:
        assert read_manifest(folder)["status"] == "complete"
        assert len(read_table(folder, "matches")) == read_manifest(folder)["n_matches"]
    state = read_stages(tmp_path / "out")
    assert state["study"] == "keep-winners" and state["status"] == "complete"
    assert [s["status"] for s in state["stages"]] == ["complete", "complete"]


def test_resume_replans_the_same_stages_and_plays_nothing_finished(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run_stages(KeepWinners(), out, play=fake_play, catalog=CAT, progress=False)
    again = run_stages(KeepWinners(), out, resume=True, play=fake_play, catalog=CAT, progress=False)
    assert again.n_played == 0 and again.n_matches == first.n_matches
    assert [s.folder for s in again.stages] == [s.folder for s in first.stages]


def test_resume_continues_an_unfinished_stage(tmp_path: Path) -> None:
    out = tmp_path / "out"
    whole = run_stages(KeepWinners(), tmp_path / "whole", play=fake_play, catalog=CAT, progress=False)
    run_stages(KeepWinners(), out, play=fake_play, catalog=CAT, progress=False)
    # stage 2 stopped half-way: drop its completion and part of its shards
    stage2 = stage_folders(out)[1]
    manifest = json.loads((stage2 / "manifest.json").read_text())
    manifest["status"] = "running"
    (stage2 / "manifest.json").write_text(json.dumps(manifest))
    summary = run_stages(KeepWinners(), out, resume=True, play=fake_play, catalog=CAT, progress=False)
    assert summary.stages[0].n_played == 0
    a = read_table(stage2, "matches").sort_values("match_id").reset_index(drop=True)
    b = read_table(whole.stages[1].folder, "matches").sort_values("match_id").reset_index(drop=True)
    assert a["winner"].tolist() == b["winner"].tolist()


def test_a_used_folder_needs_resume_and_the_same_study(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_stages(KeepWinners(), out, play=fake_play, catalog=CAT, progress=False)
    with pytest.raises(StageError, match="not empty"):
        run_stages(KeepWinners(), out, play=fake_play, catalog=CAT, progress=False)
    other = KeepWinners()
    other.name = "another"
    with pytest.raises(StageError, match="keep-winners"):
        run_stages(other, out, resume=True, play=fake_play, catalog=CAT, progress=False)


def test_a_planner_that_never_stops_is_stopped(tmp_path: Path) -> None:
    class Forever(KeepWinners):
        def next(self, finished: Sequence[FinishedStage]) -> Experiment | None:
            return finished[-1].experiment

    with pytest.raises(StageError, match="more than 2 stages"):
        run_stages(Forever(), tmp_path / "out", max_stages=2, play=fake_play, catalog=CAT, progress=False)


@pytest.mark.parametrize("name", ["box-round-robin", "arena-4p", "rewards-value-quick", "duel", "smoke"])
def test_shipped_experiments_written_as_toml_load_back_to_the_same_matches(name: str) -> None:
    from krosbalance.sim.experiment import load_experiment

    experiment = load_experiment(Path(__file__).resolve().parents[2] / "simulations" / f"{name}.toml")
    back = loads_experiment(experiment_toml(experiment), "back")
    assert fingerprint(back) == fingerprint(experiment) and back.n_matches == experiment.n_matches
