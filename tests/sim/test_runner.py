"""The runner: shards, determinism across job counts, crashes inside matches, resume after SIGKILL."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from krosbalance.sim.runner import RunError, finished_ids, read_manifest, read_table, run_experiment
from krosbalance.sim.tables import match_columns
from tests.sim.fakes import FakeCatalog, crashy_play, fake_play

ROOT = Path(__file__).resolve().parents[2]
CAT = FakeCatalog()

SMALL = """
name = "small"
master_seed = 99
matches_per_pairing = 3
boards = ["arena-elemental", "test-open-5x5"]
ais = [["focus-fire", "random"]]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]
"""
# 35 pairings x 2 boards x 3 deals x 2 sides = 420 matches


def small_file(tmp_path: Path, text: str = SMALL) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def run(tmp_path: Path, out: str, **kwargs) -> Path:
    kwargs.setdefault("play", fake_play)
    kwargs.setdefault("catalog", CAT)
    kwargs.setdefault("progress", False)
    run_experiment(small_file(tmp_path), tmp_path / out, **kwargs)
    return tmp_path / out


def tables(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return read_table(out, "matches"), read_table(out, "fighters")


def test_runner_writes_shards_and_reads_them_back(tmp_path: Path) -> None:
    out = run(tmp_path, "out", batch_size=50)
    matches, fighters = tables(out)
    assert list(matches.columns) == list(match_columns(["arena"]))
    assert matches["match_id"].tolist() == list(range(420))
    assert len(list((out / "matches").glob("part-*.parquet"))) >= 1
    assert (out / "experiment.toml").read_text() == small_file(tmp_path).read_text()
    manifest = read_manifest(out)
    assert (
        manifest["experiment"] == "small"
        and manifest["n_matches"] == 420
        and manifest["status"] == "complete"
    )
    assert manifest["master_seed"] == 99 and manifest["finished"]
    assert str(matches["winner"].dtype) == "Int64"
    assert (matches["error"] == "").all()
    # sides, teams and AIs are consistent
    twins = matches.set_index(["pairing", "deal", "swapped"])
    assert (twins.xs(False, level="swapped")["seed"] == twins.xs(True, level="swapped")["seed"]).all()
    direct, swapped = matches[~matches["swapped"]], matches[matches["swapped"]]
    assert (direct["team0"] == direct["team_a"]).all() and (swapped["team0"] == swapped["team_b"]).all()
    assert (direct["ai0"] == "focus-fire").all() and (swapped["ai1"] == "focus-fire").all()
    won = matches.dropna(subset=["winner"])
    expected = [("A" if (w == 0) != s else "B") for w, s in zip(won["winner"], won["swapped"], strict=True)]
    assert won["winner_team"].tolist() == expected
    assert (matches.loc[matches["winner"].isna(), "winner_team"] == "").all()
    # fighters: 8 per match, team labels and outcomes agree with the matches table
    assert len(fighters) == 8 * 420
    merged = fighters.merge(matches[["match_id", "winner", "team_a", "team_b"]], on="match_id")
    assert (merged["won"] == (merged["winner"] == merged["side"]).fillna(False)).all()
    assert (merged["draw"] == merged["winner"].isna()).all()
    assert (merged["team_ids"] == merged["team_a"].where(merged["team"] == "A", merged["team_b"])).all()
    for column in ("damage_dealt", "kills", "character", "uid"):
        assert column in fighters


def test_jobs_1_and_2_give_identical_tables(tmp_path: Path) -> None:
    one = tables(run(tmp_path, "one", jobs=1, batch_size=40))
    two = tables(run(tmp_path, "two", jobs=2, batch_size=17))
    pd.testing.assert_frame_equal(one[0], two[0])
    pd.testing.assert_frame_equal(one[1], two[1])


def test_auto_batch_size_runs_everything(tmp_path: Path) -> None:
    out = run(tmp_path, "auto", jobs=1)
    assert finished_ids(out) == set(range(420))


def test_a_match_that_raises_is_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    out = run(tmp_path, "crashy", play=crashy_play, batch_size=25)
    matches, fighters = tables(out)
    errors = read_table(out, "errors")
    bad = matches[matches["seed"] % 5 == 0]
    assert len(matches) == 420 and 0 < len(bad) < 420
    assert (bad["error"].str.startswith("RuntimeError: boom")).all()
    assert (matches.loc[matches["seed"] % 5 != 0, "error"] == "").all()
    assert errors["match_id"].tolist() == bad["match_id"].tolist()
    assert errors["seed"].tolist() == bad["seed"].tolist()
    assert errors["traceback"].str.contains("Traceback").all()
    spec = json.loads(errors["spec"].iloc[0])
    assert spec["match_id"] == int(bad["match_id"].iloc[0]) and spec["seed"] == int(bad["seed"].iloc[0])
    assert not fighters["match_id"].isin(bad["match_id"]).any()


def test_non_empty_out_needs_resume_and_the_same_experiment(tmp_path: Path) -> None:
    out = run(tmp_path, "out", batch_size=100)
    with pytest.raises(RunError, match="--resume"):
        run(tmp_path, "out")
    summary = run_experiment(
        small_file(tmp_path), out, resume=True, play=fake_play, catalog=CAT, progress=False
    )
    assert summary.n_played == 0 and summary.n_skipped == 420
    other = small_file(tmp_path, SMALL.replace("master_seed = 99", "master_seed = 100"))
    with pytest.raises(RunError, match="different experiment"):
        run_experiment(other, out, resume=True, play=fake_play, catalog=CAT, progress=False)


def test_resume_continues_a_partial_run_without_duplicates(tmp_path: Path) -> None:
    full = run(tmp_path, "full", batch_size=30)
    part = run(tmp_path, "part", batch_size=30, flush_seconds=0)  # one set of shards per batch
    # Simulate an interruption: drop some committed sets and leave an orphan fighters shard + a temp file.
    shards = sorted((part / "matches").glob("part-*.parquet"))
    assert len(shards) == 14
    for shard in shards[3:7]:
        shard.unlink()
    (part / "matches" / ".part-00000999.parquet.tmp-1").write_bytes(b"half written")
    summary = run_experiment(
        small_file(tmp_path), part, resume=True, play=fake_play, catalog=CAT, progress=False, batch_size=7
    )
    assert summary.n_played == 4 * 30
    for a, b in zip(tables(full), tables(part), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert not list((part / "matches").glob(".part-*"))


RESUME_CHILD = """
import sys
from krosbalance.sim.runner import run_experiment
from tests.sim.fakes import FakeCatalog, slow_play
run_experiment(sys.argv[1], sys.argv[2], jobs=1, batch_size=3, flush_seconds=0, play=slow_play,
               catalog=FakeCatalog(), progress=False)
"""


def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    source = small_file(tmp_path)
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", RESUME_CHILD, str(source), str(out)], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (out / "matches").is_dir() and len(list((out / "matches").glob("part-*.parquet"))) >= 10:
                break
            if child.poll() is not None:
                pytest.fail(f"child exited early with {child.returncode}")
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    done = finished_ids(out)
    assert 0 < len(done) < 420, "the kill should land half-way"
    summary = run_experiment(source, out, resume=True, play=fake_play, catalog=CAT, progress=False, jobs=2)
    assert summary.n_skipped == len(done) and summary.n_played == 420 - len(done)
    reference = run(tmp_path, "reference", batch_size=64)
    for a, b in zip(tables(reference), tables(out), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert read_manifest(out)["status"] == "complete"


@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None, reason="distributed (dask) not installed"
)
def test_dask_backend_on_a_local_cluster_gives_identical_tables(tmp_path: Path) -> None:
    local = tables(run(tmp_path, "local", jobs=2, batch_size=60))
    dask = tables(run(tmp_path, "dask", backend="dask", jobs=2, batch_size=60))
    assert len(dask[0]) == 420 and len(dask[1]) == 8 * 420
    for a, b in zip(local, dask, strict=True):  # matches and fighters, row for row
        pd.testing.assert_frame_equal(a, b)


def test_real_engine_smoke_is_identical_for_jobs_1_and_2(tmp_path: Path) -> None:
    source = ROOT / "simulations" / "smoke.toml"
    one = run_experiment(source, tmp_path / "one", jobs=1, progress=False, batch_size=3)
    run_experiment(source, tmp_path / "two", jobs=2, progress=False, batch_size=2)
    assert one.n_errors == 0
    for table in ("matches", "fighters"):
        pd.testing.assert_frame_equal(
            read_table(tmp_path / "one", table), read_table(tmp_path / "two", table)
        )
    matches = read_table(tmp_path / "one")
    assert matches["engine_version"].ne("").all() and len(matches) == one.n_matches


KILLED_POOL_CHILD = """
import sys
from krosbalance.sim.runner import run_experiment
from tests.sim.fakes import FakeCatalog, slow_play
run_experiment(sys.argv[1], sys.argv[2], jobs=2, batch_size=5, flush_seconds=0, play=slow_play,
               catalog=FakeCatalog(), progress=False, backend=sys.argv[3])
"""


def _live(processes: list) -> list:
    import psutil

    live = []
    for p in processes:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                live.append(p)
        except psutil.NoSuchProcess:
            pass
    return live


@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_a_runner_killed_with_sigkill_leaves_no_worker_behind(tmp_path: Path, backend: str) -> None:
    psutil = pytest.importorskip("psutil")
    if backend == "dask":
        pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runner = subprocess.Popen(
        [sys.executable, "-c", KILLED_POOL_CHILD, str(small_file(tmp_path)), str(tmp_path / "out"), backend],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        workers: list = []
        while time.monotonic() < deadline and runner.poll() is None:
            workers = psutil.Process(runner.pid).children(recursive=True)
            shards = list((tmp_path / "out" / "matches").glob("part-*.parquet"))
            if len(workers) >= 2 and len(shards) >= 2:
                break
            time.sleep(0.05)
        assert runner.poll() is None, "the run ended before it could be killed"
        assert len(workers) >= 2, "the runner should have started its worker processes"
        runner.send_signal(signal.SIGKILL)
    finally:
        runner.wait(timeout=30)
    deadline = time.monotonic() + 15
    while _live(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _live(workers)
    for p in left:  # do not leak them into the rest of the suite, then fail
        p.kill()
    assert not left, f"{len(left)} process(es) outlived the killed runner: {[p.cmdline()[:3] for p in left]}"


def test_column_batches_keep_every_column_once_and_align_missing_values() -> None:
    from krosbalance.sim.match import BatchResult
    from krosbalance.sim.runner import ColumnBatch

    rows = [{"match_id": 0, "a": 1}, {"match_id": 1, "b": 2}, {"match_id": 2, "b": 3, "a": 4}]
    batch = ColumnBatch.of(BatchResult(fighters=rows))
    assert batch.tables["fighters"] == {"match_id": [0, 1, 2], "a": [1, None, 4], "b": [None, 2, 3]}
    more = ColumnBatch.of(BatchResult(fighters=[{"match_id": 3, "c": 5}]))
    batch.extend(more)
    assert batch.tables["fighters"] == {
        "match_id": [0, 1, 2, 3],
        "a": [1, None, 4, None],
        "b": [None, 2, 3, None],
        "c": [None, None, None, 5],
    }


def test_fingerprint_changes_with_everything_that_decides_the_matches() -> None:
    """--resume refuses a folder written by another design: every field that changes the match specs
    (per-matchup deals, variants, R-A19 board choice, dealt team modes) changes the fingerprint."""
    from dataclasses import replace

    from krosbalance.sim.experiment import loads_experiment
    from krosbalance.sim.runner import fingerprint

    base = loads_experiment(SMALL, catalog=CAT)
    changed = [
        replace(base, ai_deals=(2,) * len(base.ais)),
        replace(base, variants=(("a", "{}"), ("b", '{"turn_limit":9}'))),
        replace(base, board_choice=True),
        replace(base, mode="draft"),
        replace(base, master_seed=base.master_seed + 1),
    ]
    prints = {fingerprint(e) for e in changed}
    assert fingerprint(base) not in prints and len(prints) == len(changed)
