from __future__ import annotations

import re
from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.content.registry import load_board
from krosbalance.render.frames import build_replay
from krosbalance.render.replay_text import replay_lines
from krosbalance.sim.runner import run_experiment
from tests.render.replays import experiment_file, played


def test_text_replay_names_figures_and_squares(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    lines = list(replay_lines(build_replay(result, load_board(spec.board))))
    text = "\n".join(lines)
    assert not re.search(r"^\s*#\d+ |on cell \d+", text, re.M)  # the old numeric form
    assert re.search(r"walks [A-L]\d{1,2} → [A-L]\d{1,2}", text)
    assert re.search(r"casts [A-Z][\w' ]+ on [A-L]\d{1,2}", text)
    assert sum(line.startswith("--- turn") for line in lines) == result.turns


def test_text_replay_of_one_turn(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    lines = list(replay_lines(build_replay(result, load_board(spec.board)), turn=2))
    assert lines[0] == "--- turn 2 ---" and not any(line.startswith("--- turn 3") for line in lines)
    assert any(line.strip().startswith("End of turn 2") for line in lines)


def test_cli_replay_prints_names_hp_and_holdings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    run_experiment(experiment_file("arena", tmp_path), out, progress=False)
    capsys.readouterr()
    assert main(["replay", str(out), "1", "--no-pictures"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"takes \d+ \w+ injur(y|ies) from .*: \d+/\d+ HP", text)
    assert re.search(r"End of turn 1: GG \d+ / \d+, kamas \d+ / \d+", text)
    assert "result:" in text
