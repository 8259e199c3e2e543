"""The study and the AI tiers are recorded when ``run`` writes a folder, and read back by the report;
a folder written before either still opens."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from krosbalance.analysis import dependence
from krosbalance.analysis.report import write_report
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.sections import folder_study, ruleset_sections
from krosbalance.sim.experiment import iter_matches, load_experiment
from krosbalance.sim.runner import read_manifest, read_table, run_experiment
from krosbalance.sim.tables import failed_match_row, match_columns

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "simulations" / "smoke.toml"
OLD_FOLDER = ROOT / "tests" / "fixtures" / "results-small"


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("smoke") / "run"
    run_experiment(SMOKE, out, jobs=1, progress=False)
    return out


def test_the_manifest_records_the_study(smoke: Path) -> None:
    assert read_manifest(smoke)["study"] == {"name": "strength", "version": 1}
    assert folder_study(ResultSet.load(smoke)).name == "strength"


def test_each_row_records_each_seats_ai_tier(smoke: Path) -> None:
    matches = read_table(smoke)
    assert {"ai0_tier", "ai1_tier"} <= set(matches.columns)
    assert (matches["ai0"] == "random").all() and (matches["ai0_tier"] == "baseline").all()
    assert (matches["ai1_tier"] == "baseline").all()
    assert dependence.recorded_tiers(matches) == {"random": "baseline"}


def test_four_seats_record_four_tiers() -> None:
    columns = match_columns(seats=4)
    assert [c for c in columns if c.endswith("_tier")] == ["ai0_tier", "ai1_tier", "ai2_tier", "ai3_tier"]
    assert list(columns).index("ai2_tier") == list(columns).index("ai3") + 1
    experiment = load_experiment(ROOT / "simulations" / "arena-4p.toml")
    spec = next(iter_matches(experiment))
    row = failed_match_row(spec, "not played")
    from krosbalance.ai.registry import ai_tier

    for seat, ai in enumerate(spec.ais):
        assert row[f"ai{seat}"] == ai and row[f"ai{seat}_tier"] == ai_tier(ai)


def test_the_rows_tier_wins_over_the_live_registry() -> None:
    rows = pd.DataFrame({"ai0": ["random", "kiter"], "ai1": ["kiter", "random"]})
    assert dependence.recorded_tiers(rows) == {}  # a folder written before the tier columns
    assert set(dependence.with_groups(rows)["tier"]) == {"mixed"}  # the live registry's tiers
    rows = rows.assign(ai0_tier=["baseline", "tier-then"], ai1_tier=["tier-then", "baseline"])
    assert dependence.recorded_tiers(rows) == {"random": "baseline", "kiter": "tier-then"}
    assert set(dependence.with_groups(rows.assign(ai1=rows["ai0"], ai1_tier=rows["ai0_tier"]))["tier"]) == {
        "baseline",
        "tier-then",
    }
    assert dependence.ai_tier("no-such-ai") == "unknown"


def _old_copy(tmp_path: Path) -> Path:
    out = tmp_path / "old"
    shutil.copytree(OLD_FOLDER, out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "study" not in manifest  # written before manifests named their study
    return out


def test_an_old_folder_takes_its_study_from_the_experiment_copy(tmp_path: Path) -> None:
    out = _old_copy(tmp_path)
    rs = ResultSet.load(out)
    assert folder_study(rs).name == "strength"
    assert write_report(out, tmp_path / "report").is_file()


def test_an_old_folder_without_a_readable_copy_shows_every_section(tmp_path: Path) -> None:
    out = _old_copy(tmp_path)
    (out / "experiment.toml").write_text("not = [an experiment", encoding="utf-8")
    rs = ResultSet.load(out)
    assert folder_study(rs) is None
    assert [s.name for s in ruleset_sections(rs, None)] == [s.name for s in ruleset_sections(rs)]
    assert write_report(out, tmp_path / "report").is_file()


def test_a_study_hides_the_sections_other_studies_own(smoke: Path) -> None:
    rs = ResultSet.load(smoke)
    shown = {s.name for s in ruleset_sections(rs, folder_study(rs))}
    assert not shown & {"teams", "fair_price", "rewards_priced", "fix_finder", "restricted", "seats"}
    assert {"convergence", "balance_patches"} <= shown
