"""Sample sizes from a target (``[target]``, :mod:`krosbalance.sim.target`): parsing and validation,
rounds that stop at the target or at the cap, and runs that are the same for any job count and after
an interruption, mid-round or between rounds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from krosbalance.sim.experiment import check_experiment_text, loads_experiment
from krosbalance.sim.runner import finished_ids, read_manifest, read_table, run_experiment
from krosbalance.sim.target import deal_step, strongest_ai, target_lines, target_of
from tests.sim.fakes import FakeCatalog, fake_play

ROOT = Path(__file__).resolve().parents[2]
CAT = FakeCatalog()

ADAPTIVE = """
name = "adaptive"
master_seed = 7
matches_per_pairing = 2
boards = ["arena-elemental"]
ais = ["focus-fire", {{ ai = "kiter-race", deals = 1 }}]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]

[target]
{target}
"""
# 35 pairings x 2 sides = 70 matches per deal of a matchup: focus-fire plays 2 deals (140 matches),
# kiter-race (the stronger on the ladder) 1 deal a round


def adaptive_text(target: str) -> str:
    return textwrap.dedent(ADAPTIVE.format(target=target))


def adaptive_file(tmp_path: Path, target: str) -> Path:
    path = tmp_path / "adaptive.toml"
    path.write_text(adaptive_text(target), encoding="utf-8")
    return path


def run(tmp_path: Path, out: str, target: str, **kwargs) -> Path:
    kwargs.setdefault("play", fake_play)
    kwargs.setdefault("catalog", CAT)
    kwargs.setdefault("progress", False)
    run_experiment(adaptive_file(tmp_path, target), tmp_path / out, **kwargs)
    return tmp_path / out


def problems(target: str) -> list[str]:
    _, errors = check_experiment_text(adaptive_text(target), "adaptive.toml", CAT)
    return [str(e) for e in errors]


# ------------------------------------------------------------------------------------------ parsing


def test_the_target_defaults_to_the_strongest_ai_its_own_deals_a_round_and_twenty_rounds() -> None:
    experiment = loads_experiment(adaptive_text(""), "adaptive.toml", CAT)
    target = target_of(experiment)
    assert target is not None and target.half_width == 0.15 and target.study == "strength"
    (only,) = target.ais
    assert (only.ai, only.matchup, only.round_deals, only.max_deals) == ("kiter-race", 1, 1, 20)
    assert experiment.deals_per_matchup == (2, 20)  # the targeted matchup expanded to its cap
    assert deal_step(experiment) == 70 and experiment.n_matches == 70 * 22
    assert target.quantity == "figure's strength" and target.unit == "log-odds"


def test_the_cap_in_matches_and_the_round_are_read() -> None:
    experiment = loads_experiment(
        adaptive_text('half_width = 0.3\nais = "focus-fire"\nround_deals = 3\nmax_matches = 700'), "f", CAT
    )
    target = target_of(experiment)
    assert target is not None and target.half_width == 0.3
    only = target.ais[0]
    assert (only.ai, only.matchup, only.round_deals, only.max_deals) == ("focus-fire", 0, 3, 10)  # 700 // 70


def test_the_fingerprint_holds_the_target() -> None:
    from krosbalance.sim.runner import fingerprint

    a = loads_experiment(adaptive_text("half_width = 0.2"), "f", CAT)
    b = loads_experiment(adaptive_text("half_width = 0.25"), "f", CAT)
    assert fingerprint(a) != fingerprint(b)


@pytest.mark.parametrize(
    ("target", "field", "reason"),
    [
        ("half_width = -1", "target.half_width", "must be a number > 0"),
        ("half_width = 'narrow'", "target.half_width", "must be a number"),
        ("ais = ['mcts']", "target.ais[0]", "plays no matchup of its own"),
        ("ais = ['kiter-race', 'kiter-race']", "target.ais[1]", "listed twice"),
        ("round_deals = 0", "target.round_deals", "must be an int >= 1"),
        ("max_deals = 4\nmax_matches = 300", "target.max_matches", "not both"),
        ("round_deals = 5\nmax_deals = 4", "target.max_deals", "less than one round"),
        ("max_matches = 50", "target.max_matches", "less than one round"),
        ("rounds = 3", "target.rounds", "unknown key"),
    ],
)
def test_a_wrong_target_is_one_line_naming_file_field_and_reason(
    target: str, field: str, reason: str
) -> None:
    found = problems(target)
    assert any(line.startswith(f"adaptive.toml: {field}: ") and reason in line for line in found), found
    assert all("\n" not in line for line in found)


def test_a_study_without_a_headline_quantity_refuses_a_target() -> None:
    found = problems('measure = "boards"')
    assert any(
        "adaptive.toml: target.measure: the boards study states no headline quantity" in line
        for line in found
    ), found
    found = problems('measure = "nonesuch"')
    assert any(
        line.startswith("adaptive.toml: target.measure: unknown study 'nonesuch'") and "rewards" in line
        for line in found
    ), found


def test_a_study_states_its_own_default_half_width_and_unit() -> None:
    text = adaptive_text("").replace("[teams]", 'held_rewards = ["xelor_style"]\n\n[teams]')
    target = target_of(loads_experiment(text, "adaptive.toml", CAT))
    assert target is not None
    assert (target.study, target.unit, target.half_width) == ("rewards", "points", 4.0)
    assert target_of(loads_experiment(adaptive_text(""), "adaptive.toml", CAT)).half_width == 0.15


def test_a_target_may_size_another_studys_headline() -> None:
    found = problems('measure = "teams"')
    assert any("target: teams are rated from explicit team pairings" in line for line in found), found
    pairs = adaptive_text('measure = "teams"').split("[teams]")[0] + textwrap.dedent(
        """
        [teams]
        mode = "pairs"
        pairs = [[["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
                  ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]]]

        [target]
        measure = "teams"
        """
    )
    target = target_of(loads_experiment(pairs, "adaptive.toml", CAT))
    assert target is not None and (target.study, target.quantity) == ("teams", "team's rating")


def test_the_strongest_ai_is_the_top_of_the_ladder() -> None:
    assert strongest_ai(["focus-fire", "mcts-race", "lookahead"], "arena") == ("mcts-race", "")
    assert strongest_ai(["random", "kiter-race"], "arena")[0] == "kiter-race"


# ------------------------------------------------------------------------------------------- rounds


def test_a_run_stops_when_the_target_is_reached(tmp_path: Path) -> None:
    out = run(tmp_path, "reached", "half_width = 0.2\nmax_deals = 12", batch_size=30)
    record = read_manifest(out)["target"]
    kiter = record["ais"]["kiter-race"]
    assert kiter["status"] == "reached" and kiter["half_width"] <= 0.2
    assert 1 < kiter["rounds"] < 12 and kiter["deals"] == kiter["rounds"]
    matches = read_table(out, "matches")
    assert (matches["ai0"] == "kiter-race").sum() == kiter["matches"] == 70 * kiter["deals"]
    assert (matches["ai0"] == "focus-fire").sum() == 140  # the other matchup: its deals, once
    widths = [r["ais"]["kiter-race"]["half_width"] for r in record["rounds"]]
    assert widths[-1] <= 0.2 < min(widths[:-1])  # it went on exactly until the target was met
    assert target_lines(record)[0].startswith(f"kiter-race: ±0.20 reached after {kiter['matches']:,} matches")


def test_a_run_stops_at_the_cap(tmp_path: Path) -> None:
    out = run(tmp_path, "capped", "half_width = 0.05\nround_deals = 2\nmax_deals = 5", batch_size=30)
    kiter = read_manifest(out)["target"]["ais"]["kiter-race"]
    assert kiter["status"] == "cap" and kiter["deals"] == 5 and kiter["rounds"] == 3  # 2, 4, then 5
    assert kiter["half_width"] > 0.05 and kiter["matches"] == 350
    assert len(finished_ids(out)) == 140 + 350  # of 140 + 70 x 5 (the cap)
    line = target_lines(read_manifest(out)["target"])[0]
    assert line.startswith(f"kiter-race: cap reached at ±{kiter['half_width']:.2f} after 350 matches")


def _rows(out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return read_table(out, "matches"), read_table(out, "fighters")


TARGET = "half_width = 0.25\nmax_deals = 12"


def test_one_and_two_jobs_play_the_same_rounds_and_rows(tmp_path: Path) -> None:
    one = run(tmp_path, "one", TARGET, jobs=1, batch_size=13)
    two = run(tmp_path, "two", TARGET, jobs=2, batch_size=29)
    for a, b in zip(_rows(one), _rows(two), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert read_manifest(one)["target"] == read_manifest(two)["target"]


def test_a_resume_between_rounds_and_mid_round_plays_the_same_matches(tmp_path: Path) -> None:
    reference = run(tmp_path, "reference", TARGET, batch_size=40)
    assert read_manifest(reference)["target"]["ais"]["kiter-race"]["rounds"] >= 3
    source = adaptive_file(tmp_path, TARGET)
    # batches of 35, one set of shards each: round 1 (140 + 70 matches) is the first 6 sets, round 2
    # the next 2; stop after round 1 (between rounds) and half-way through round 2 (mid-round)
    for n_sets in (6, 7):
        out = tmp_path / f"cut-{n_sets}"
        run_experiment(
            source, out, play=fake_play, catalog=CAT, progress=False, batch_size=35, flush_seconds=0
        )
        _keep_sets(out, n_sets)
        summary = run_experiment(
            source, out, resume=True, play=fake_play, catalog=CAT, progress=False, jobs=2
        )
        assert summary.n_skipped == 35 * n_sets
        for a, b in zip(_rows(reference), _rows(out), strict=True):
            pd.testing.assert_frame_equal(a, b)
        assert read_manifest(out)["target"] == read_manifest(reference)["target"]


def _keep_sets(out: Path, n_sets: int) -> None:
    """Leave only the first ``n_sets`` sets of shards the run wrote, as if it had stopped there."""
    import json

    ledger = out / "shards.jsonl"
    lines = ledger.read_text().splitlines()
    for line in lines[n_sets:]:
        entry = json.loads(line)
        for table in entry["files"]:
            (out / table / f"{entry['set']}.parquet").unlink()
    ledger.write_text("".join(f"{line}\n" for line in lines[:n_sets]))
    assert len(finished_ids(out)) == 35 * n_sets


#: the child plays round 1 (210 matches) and the start of round 2 at full speed, then slows to a
#: crawl, so the parent kills it inside round 2 without waiting on 230 slow matches
RESUME_CHILD = """
import itertools, sys, time
from krosbalance.sim.runner import run_experiment
from tests.sim.fakes import FakeCatalog, fake_play
calls = itertools.count()
def play(*args, **kwargs):
    if next(calls) >= 240:
        time.sleep(0.5)
    return fake_play(*args, **kwargs)
run_experiment(sys.argv[1], sys.argv[2], jobs=1, batch_size=5, flush_seconds=0, play=play,
               catalog=FakeCatalog(), progress=False)
"""


def test_a_run_killed_in_its_rounds_resumes_to_the_same_rows(tmp_path: Path) -> None:
    source = adaptive_file(tmp_path, TARGET)
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", RESUME_CHILD, str(source), str(out)], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if (out / "shards.jsonl").is_file() and len(finished_ids(out)) >= 140 + 70 + 20:
                break  # past round 1, in round 2
            if child.poll() is not None:
                pytest.fail(f"child exited early with {child.returncode}")
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert "target" in read_manifest(out)  # round 1 was measured before the kill
    # one job: the job count's independence is the test above's (a second worker pool here cost 6 s)
    run_experiment(source, out, resume=True, play=fake_play, catalog=CAT, progress=False, jobs=1)
    reference = run(tmp_path, "reference", TARGET, batch_size=64)
    for a, b in zip(_rows(reference), _rows(out), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert read_manifest(out)["target"] == read_manifest(reference)["target"]
    assert read_manifest(out)["status"] == "complete"


def test_a_round_plays_the_very_specs_of_the_full_expansion() -> None:
    from krosbalance.sim.expansion import expand, iter_matches
    from krosbalance.sim.target import Rounds

    experiment = loads_experiment(adaptive_text("max_deals = 4"), "f", CAT)
    target = target_of(experiment)
    assert target is not None
    rounds = Rounds(experiment, target)
    full = {spec.match_id: spec for spec in expand(experiment)}
    planned = list(iter_matches(experiment, rounds.keep()))
    assert [spec.match_id for spec in planned] == rounds.ids()
    assert all(spec == full[spec.match_id] for spec in planned)  # same ids, seeds, teams and AIs
    assert len(planned) == 140 + 70 and {spec.ai_a for spec in planned} == {"focus-fire", "kiter-race"}


REAL = """
name = "real-target"
master_seed = 5
matches_per_pairing = 1
boards = ["arena-elemental"]
ais = ["kiter-race"]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]

[target]
half_width = 0.5
max_deals = 6
"""


def test_the_real_engine_plays_the_same_rounds_on_one_and_two_jobs(tmp_path: Path) -> None:
    source = tmp_path / "real.toml"
    source.write_text(textwrap.dedent(REAL), encoding="utf-8")
    one = run_experiment(source, tmp_path / "one", jobs=1, progress=False)
    two = run_experiment(source, tmp_path / "two", jobs=2, progress=False, batch_size=7)
    assert one.n_errors == 0 and one.n_matches == two.n_matches and one.target == two.target
    for table in ("matches", "fighters"):
        pd.testing.assert_frame_equal(
            read_table(tmp_path / "one", table), read_table(tmp_path / "two", table)
        )
    record = read_manifest(tmp_path / "one")["target"]
    assert record == read_manifest(tmp_path / "two")["target"] and record["ais"]["kiter-race"]["rounds"] >= 2
