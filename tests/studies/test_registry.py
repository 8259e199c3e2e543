"""The study registry: exactly one study claims each shipped experiment, strength by default."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import load_experiment
from krosbalance.studies import (
    DEFAULT_STUDY,
    get_study,
    list_studies,
    recorded_study,
    study_for,
    study_record,
)
from krosbalance.studies.registry import claimants, owned_sections

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "simulations").glob("*.toml"))

#: the study of each shipped experiment that is not the default's (the rest are per-figure strength,
#: or the study the file names: a new study's example names it, so this list needs no entry)
EXPECTED = {
    "ai-ladder-duel": "duel",  # a duel-ruleset experiment is the Duel study's (its report shows the ladder too)
    "ai-ladder-arena-4p": "seats",  # a four-seat experiment is the Seats study's (its report quotes the arena-4p ladder)
    "ai-ladder-blast": "challenges",  # a Blast experiment is the Divine Challenge study's (its report shows the ladder too)
    "arena-4p": "seats",
    "blast-challenges": "challenges",
    "duel": "duel",
    "fair-price-celestial-wand": "rewards",
    "fair-price-celestial-wand-gg": "rewards",
    "fix-anna-tommy": "patches",
    "fix-the-box": "patches",
    "my-collection": "teams",
    "neutral-grande-melee-de-iop": "challenges",
    "rewards-purchase": "rewards",
    "rewards-value": "rewards",
    "rewards-value-quick": "rewards",
    "rewards-value-search": "rewards",
    "team-ladder": "teams",
    "why-bill-tell": "restricted",
    "why-bill-tell-search": "restricted",
}


def test_the_folder_holds_shipped_experiments() -> None:
    assert len(SHIPPED) >= 20


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_at_most_one_study_claims_each_shipped_experiment(path: Path) -> None:
    experiment = load_experiment(path)
    assert len(claimants(experiment)) <= 1
    assert study_for(experiment).name == EXPECTED.get(path.stem, experiment.study or DEFAULT_STUDY)


def test_every_study_but_the_default_claims_a_shipped_experiment() -> None:
    claimed = {study_for(load_experiment(path)).name for path in SHIPPED}
    assert claimed == set(list_studies())


def test_two_claims_are_refused_with_both_names() -> None:
    blast = load_experiment(ROOT / "simulations" / "blast-challenges.toml")
    both = dataclasses.replace(blast, forbids=(("baseline", "{}"),))
    with pytest.raises(ExperimentError) as err:
        study_for(both)
    assert "challenges" in str(err.value) and "restricted" in str(err.value)


def test_a_record_reads_back_and_an_old_manifest_has_none() -> None:
    study = get_study("rewards")
    assert study_record(study) == {"name": "rewards", "version": study.version}
    assert recorded_study({"study": study_record(study)}) is study
    assert recorded_study({"experiment": "old"}) is None
    assert recorded_study({"study": {"name": "from-elsewhere", "version": 9}}) is None
    assert recorded_study(None) is None


def test_owned_sections_are_registered_report_sections() -> None:
    from krosbalance.analysis.sections import known_sections

    assert owned_sections() <= set(known_sections())
    assert get_study(DEFAULT_STUDY).sections == ()


def test_an_unknown_study_is_an_experiment_error() -> None:
    with pytest.raises(ExperimentError):
        get_study("no-such-study")


def test_a_file_may_name_its_study_and_a_claim_of_another_is_refused() -> None:
    from krosbalance.sim.experiment import loads_experiment

    smoke = (ROOT / "simulations" / "smoke.toml").read_text(encoding="utf-8")
    assert study_for(loads_experiment('study = "seats"\n' + smoke, "named.toml")).name == "seats"
    restricted = (ROOT / "simulations" / "why-bill-tell.toml").read_text(encoding="utf-8")
    with pytest.raises(ExperimentError, match="names study 'seats' and is claimed by restricted"):
        study_for(loads_experiment('study = "seats"\n' + restricted, "both.toml"))
    with pytest.raises(ExperimentError, match="study: unknown study 'no-such-study'"):
        loads_experiment('study = "no-such-study"\n' + smoke, "unknown.toml")


def test_every_study_of_the_folder_registers_itself() -> None:
    import pkgutil

    import krosbalance.studies as studies

    found = {m.name for m in pkgutil.iter_modules(studies.__path__)} - {"registry", "shapes"}
    assert found == set(list_studies())
