"""The matchup study is asked for by name: the shipped example names it, and the shipped ``pairs``
files that do not keep the study they had (claiming them would change what they report)."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.sim.experiment import load_experiment
from krosbalance.studies import get_study, list_studies, study_for
from krosbalance.studies.registry import claimants

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "simulations").glob("*.toml"))


def test_the_example_names_the_study_and_is_small() -> None:
    experiment = load_experiment(ROOT / "simulations" / "matchup.toml")
    assert "matchup" in list_studies() and study_for(experiment) is get_study("matchup")
    assert experiment.mode == "pairs" and experiment.paired_seeds and experiment.n_matches <= 2_000


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_no_shipped_file_is_claimed_by_it_unless_it_says_so(path: Path) -> None:
    experiment = load_experiment(path)
    assert "matchup" not in claimants(experiment)
    assert (study_for(experiment).name == "matchup") == (experiment.study == "matchup")


def test_the_smoke_pairs_stay_the_strength_studys() -> None:
    assert study_for(load_experiment(ROOT / "simulations" / "smoke.toml")).name == "strength"


def test_its_section_leads_the_report_and_gives_the_verdict() -> None:
    (section,) = get_study("matchup").report_sections()
    assert section.leading and section.mode and section.verdict is not None and section.name == "matchup"
