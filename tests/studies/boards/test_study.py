"""The board study end to end: its example experiment names it, a run of it records it, its report
opens on the first player per board and has its Boards section, and the answer gives the numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.analysis.report import report_answer, write_report
from krosbalance.sim.experiment import load_experiment, loads_experiment
from krosbalance.sim.runner import read_manifest, run_experiment
from krosbalance.studies import get_study, list_studies, study_for

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "simulations" / "board-study.toml"


def test_the_example_names_the_study_and_runs_in_about_a_minute() -> None:
    experiment = load_experiment(EXAMPLE)
    assert "boards" in list_studies() and study_for(experiment) is get_study("boards")
    assert len(experiment.boards) >= 2 and experiment.paired_seeds
    assert experiment.n_matches <= 10_000  # ~30 s with the native core on 2 jobs


def test_no_experiment_is_the_board_study_unless_it_says_so() -> None:
    assert not get_study("boards").claims(load_experiment(ROOT / "simulations" / "characters-by-tier.toml"))


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("boards")
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace("matches_per_pairing = 20", "matches_per_pairing = 2").replace(
        'boards = ["arena-elemental", "arena-pit", "bonta-1", "bonta-2", "frigost-1", "frigost-2"]',
        'boards = ["arena-elemental", "bonta-1"]',
    )
    source = tmp / "board-study.toml"
    source.write_text(text, encoding="utf-8")
    assert loads_experiment(text, str(source)).n_matches == 35 * 2 * 2 * 2
    run_experiment(source, tmp / "run", jobs=1, progress=False)
    return tmp / "run"


def test_a_run_records_the_study_and_its_report_has_the_boards(small_run: Path, tmp_path: Path) -> None:
    assert read_manifest(small_run)["study"] == {"name": "boards", "version": 1}
    out = write_report(small_run, tmp_path / "report")
    text = (out.parent / "report.md").read_text(encoding="utf-8")
    assert "verdict: first-player win rate per board per AI]" in text
    assert "## Boards" in text and text.index("## Boards") < text.index("## AIs")
    for name in ("board_first_player", "board_figure_win_rates", "board_favours"):
        assert (out.parent / "tables" / f"{name}.csv").is_file()


def test_the_answer_gives_each_boards_first_player_rate_with_n_ci_and_the_ai(small_run: Path) -> None:
    study, lines = report_answer(small_run)
    assert study == "boards" and len(lines) == 2
    assert lines[0].startswith("First-player win rate per board under focus-fire, the strongest validated AI")
    assert lines[0].count("n=140") == 2 and lines[0].count("%") >= 6
    assert lines[1].startswith("Only focus-fire measured")  # one AI played: said plainly


def test_another_studys_report_has_no_boards_section(tmp_path: Path) -> None:
    run_experiment(ROOT / "simulations" / "smoke.toml", tmp_path / "run", jobs=1, progress=False)
    out = write_report(tmp_path / "run", tmp_path / "report")
    assert "## Boards" not in (out.parent / "report.md").read_text(encoding="utf-8")
