"""Each study owns its report sections and its headline answer; the report and the CLI ask the registry."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from krosbalance.analysis import sections
from krosbalance.analysis.report import report_answer
from krosbalance.analysis.resultset import ResultSet
from krosbalance.cli import main
from krosbalance.sim.runner import run_experiment
from krosbalance.studies import get_study, list_studies
from krosbalance.studies.registry import study_sections

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "simulations" / "smoke.toml"


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("smoke") / "run"
    run_experiment(SMOKE, out, jobs=1, progress=False)
    return out


@pytest.mark.parametrize("name", list_studies())
def test_a_studys_own_sections_are_among_the_sections_it_writes(name: str) -> None:
    study = get_study(name)
    written = {s.name: s for s in study.report_sections()}
    assert set(study.sections) <= set(written)
    assert all(written[own].mode for own in study.sections)


def test_the_sections_rulesets_declare_are_written_by_studies() -> None:
    by_study = {s.name for s in study_sections() if not s.mode}
    assert {"divine_challenges", "demonic_rewards", "duel_tokens"} <= by_study
    assert by_study <= set(sections.known_sections())


def test_the_mode_sections_stand_in_rank_order() -> None:
    """The order every report showed before studies owned their sections (a later study stands at its rank)."""
    shown = sections.ruleset_sections(ResultSet(matches=pd.DataFrame({"ruleset": ["arena"]})))
    modes = [s for s in shown if s.mode]
    assert [s.rank for s in modes] == sorted(s.rank for s in modes)
    before = [
        "seats",
        "teams",
        "fair_price",
        "balance_patches",
        "fix_finder",
        "restricted",
        "convergence",
        "rewards_priced",
    ]
    assert [s.name for s in modes if s.name in before] == before


def test_the_strength_answer_is_the_top_ais_with_n_ci_and_win_pct(smoke: Path) -> None:
    study, lines = report_answer(smoke)
    assert study == "strength"
    assert len(lines) == 2
    assert lines[0].startswith("Under random") and "n=" in lines[0] and "%" in lines[0]
    assert "win" in lines[0] and "log-odds" in lines[0]  # the verdict in win % beside log-odds
    assert lines[1].startswith("Only random measured these figures")  # one AI played: said plainly


@pytest.fixture(scope="module")
def two_ais(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The smoke deals played by random and by a heuristic: the heuristic's figures must answer."""
    folder = tmp_path_factory.mktemp("two-ais")
    source = folder / "two-ais.toml"
    source.write_text(
        SMOKE.read_text(encoding="utf-8").replace('ais = ["random"]', 'ais = ["random", "focus-fire"]'),
        encoding="utf-8",
    )
    run_experiment(source, folder / "run", jobs=1, progress=False)
    return folder / "run"


def test_the_answer_is_the_stronger_ais_with_the_weaker_one_beside_it(two_ais: Path) -> None:
    _study, lines = report_answer(two_ais)
    assert lines[0].startswith("Under focus-fire, the strongest validated AI played")
    assert "too few" in lines[0]  # a handful of matches: said, not hidden
    assert lines[1].startswith("Next AI down, random:")


def test_the_cli_prints_the_answer_and_lists_the_studies(
    smoke: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["answer", str(smoke)]) == 0
    assert capsys.readouterr().out.startswith(
        "answer (strength):\n  Under random, the strongest validated AI"
    )
    assert main(["list", "studies"]) == 0
    assert capsys.readouterr().out.split() == list_studies()
