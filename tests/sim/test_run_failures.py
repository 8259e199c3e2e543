"""A run that fails says so: matches that raised make a non-zero exit with the count and the first
error, an arm whose first matches all fail stops the run, and Ctrl-C keeps every finished match."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from krosbalance import cli
from krosbalance.sim import runner
from krosbalance.sim.backends import InlineExecutor
from krosbalance.sim.experiment import iter_matches, load_experiment
from krosbalance.sim.match import BatchInterrupted, run_batch
from krosbalance.sim.runner import RunError, RunSummary, read_table, run_experiment
from tests.sim.fakes import fake_play
from tests.sim.test_runner import CAT, small_file


def always_crashing_play(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("every match breaks")


class InterruptAfter:
    """A play function that is interrupted (Ctrl-C) when it starts its ``n``-th match."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls >= self.n:
            raise KeyboardInterrupt
        return fake_play(*args, **kwargs)


def test_an_arm_whose_first_matches_all_fail_stops_the_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(RunError, match="all failed.*every match breaks"):
        run_experiment(
            small_file(tmp_path), out, play=always_crashing_play, catalog=CAT, progress=False, batch_size=4
        )
    matches = read_table(out, "matches")
    # stopped after the first batches, not after 420 failures; what ran is recorded
    assert runner.ARM_FAILURES_TO_STOP <= len(matches) < 420
    assert len(read_table(out, "errors")) == len(matches)


def test_a_run_with_failed_matches_exits_non_zero_with_the_count_and_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = RunSummary(tmp_path, "small", 10, 10, 0, 2, 1.0, first_error="match 3: RuntimeError: boom")
    monkeypatch.setattr(runner, "run_experiment", lambda *args, **kwargs: summary)
    status = cli.main(
        [
            "run",
            str(small_file(tmp_path)),
            "--out",
            str(tmp_path / "o"),
            "--no-progress",
            "--jobs",
            "1",
            "--no-report",
        ]
    )
    err = capsys.readouterr().err
    assert status == cli.EXIT_MATCH_ERRORS != 0
    assert "2 of 10 matches failed" in err and "match 3: RuntimeError: boom" in err and "errors" in err


def test_a_run_whose_matches_fail_sometimes_reports_the_first_error(tmp_path: Path) -> None:
    from tests.sim.fakes import crashy_play

    summary = run_experiment(
        small_file(tmp_path), tmp_path / "out", play=crashy_play, catalog=CAT, progress=False, batch_size=25
    )
    assert summary.n_errors > 0 and "boom on seed" in summary.first_error


def test_ctrl_c_inside_a_batch_keeps_the_matches_it_finished() -> None:
    specs = list(iter_matches(load_experiment_small()))[:5]
    with pytest.raises(BatchInterrupted) as caught:
        run_batch(specs, InterruptAfter(4))
    assert [row["match_id"] for row in caught.value.partial.matches] == [s.match_id for s in specs[:3]]
    again = pickle.loads(pickle.dumps(caught.value))  # as a worker process sends it back
    assert len(again.partial.matches) == 3 and isinstance(again, KeyboardInterrupt)


def load_experiment_small() -> Any:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return load_experiment(small_file(Path(folder)), CAT)


def test_ctrl_c_is_not_stored_by_the_inline_executor() -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        InlineExecutor().submit(interrupted)


def test_ctrl_c_on_one_job_stops_at_once_and_keeps_every_finished_match(tmp_path: Path) -> None:
    out = tmp_path / "out"
    play = InterruptAfter(30)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(
            small_file(tmp_path), out, play=play, catalog=CAT, progress=False, batch_size=50, jobs=1
        )
    matches = read_table(out, "matches")
    assert play.calls == 30  # no further match was started after the interrupt
    assert matches["match_id"].tolist() == list(range(29))  # the 29 finished, in a batch of 50
    summary = run_experiment(
        small_file(tmp_path), out, resume=True, play=fake_play, catalog=CAT, progress=False
    )
    assert summary.n_skipped == 29 and read_table(out, "matches")["match_id"].is_unique
