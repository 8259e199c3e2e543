"""SIGTERM (a scheduler's stop, ``kill``) is handled as Ctrl-C is: what finished is written, the resume
line is printed and the exit is non-zero (issue 36: before, a run killed by SIGTERM before its first
10-second flush saved nothing)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from krosbalance.sim.runner import finished_ids, read_table, run_experiment
from tests.sim.fakes import fake_play

ROOT = Path(__file__).resolve().parents[2]

EXPERIMENT = """
name = "sigterm"
master_seed = 5
matches_per_pairing = 100
paired_seeds = true
boards = ["arena-elemental"]
ais = ["random"]

[teams]
mode = "pairs"
pairs = [
    [["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
     ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]],
    [["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
     ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"]],
]
"""
# 2 pairings x 100 deals x 2 sides = 400 matches; at 40 ms a match the run lasts 16 s, unflushed for 10

CHILD = """
import sys
from pathlib import Path
from krosbalance import cli
from krosbalance.sim import runner
from tests.sim.fakes import slow_play
marker = Path(sys.argv[3])
played = []
def play(*args, **kwargs):
    result = slow_play(*args, **kwargs)
    played.append(1)
    if len(played) == 5:
        marker.touch()
    return result
runner.default_play = lambda: play
sys.exit(cli.main(["run", sys.argv[1], "--out", sys.argv[2], "--no-progress", "--batch-size", "4", "--jobs", "1"]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_sigterm_before_the_first_flush_saves_the_finished_matches_and_says_resume(tmp_path: Path) -> None:
    source = tmp_path / "sigterm.toml"
    source.write_text(EXPERIMENT, encoding="utf-8")
    out, marker = tmp_path / "out", tmp_path / "five-played"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(source), str(out), str(marker)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        while not marker.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the child did not play five matches: {child.communicate(timeout=30)}")
            time.sleep(0.02)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, stderr
    resume = f"krosbalance run {source} --out {out} --resume --jobs 1"
    assert (
        stderr.strip().splitlines()[-1] == f"interrupted: finished matches are saved; continue with: {resume}"
    )
    done = finished_ids(out)
    assert 5 <= len(done) < 400 and done == set(range(len(done)))  # every match finished, in order
    summary = run_experiment(source, out, resume=True, play=fake_play, progress=False)
    assert summary.n_skipped == len(done) and summary.n_played == 400 - len(done)
    matches = read_table(out, "matches")
    assert matches["match_id"].tolist() == list(range(400))
    reference = tmp_path / "reference"
    run_experiment(source, reference, play=fake_play, progress=False)
    assert matches.drop(columns=["seconds"], errors="ignore").equals(
        read_table(reference, "matches").drop(columns=["seconds"], errors="ignore")
    )
