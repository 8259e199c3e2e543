"""Which reward arms a run played is read from its record (the experiment copy beside the results),
not guessed from the matches; results without the copy have no record (their sections ask the data,
as before)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from krosbalance.analysis.resultset import ResultSet
from krosbalance.studies.rewards.arms import recorded_arms

ROOT = Path(__file__).resolve().parents[3]


def _copy(name: str) -> str:
    return (ROOT / "simulations" / name).read_text(encoding="utf-8")


def test_the_arms_come_from_the_experiment_copy() -> None:
    no_data = pd.DataFrame({"match_id": [0]})  # nothing in the matches says which arms were played
    value = recorded_arms(ResultSet(no_data, spec_text=_copy("rewards-value-quick.toml")))
    priced = recorded_arms(ResultSet(no_data, spec_text=_copy("rewards-purchase.toml")))
    plain = recorded_arms(ResultSet(no_data, spec_text=_copy("characters-by-tier.toml")))
    assert value is not None and value.value and not value.priced
    assert priced is not None and priced.value and priced.priced
    assert plain is not None and not plain.value and not plain.priced


def test_results_without_the_copy_have_no_record() -> None:
    assert recorded_arms(ResultSet(pd.DataFrame({"match_id": [0]}))) is None
