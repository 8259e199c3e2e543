"""Which reward arms a run played is read from its record (the experiment copy beside the results),
not guessed from the matches; results without the copy are asked their data, as before."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from krosbalance.analysis.resultset import ResultSet
from krosbalance.studies.rewards.arms import plays_priced_arms, plays_value_arms

ROOT = Path(__file__).resolve().parents[3]


def _copy(name: str) -> str:
    return (ROOT / "simulations" / name).read_text(encoding="utf-8")


def test_the_arms_come_from_the_experiment_copy() -> None:
    no_data = pd.DataFrame({"match_id": [0]})  # nothing in the matches says which arms were played
    value = ResultSet(no_data, spec_text=_copy("rewards-value-quick.toml"))
    priced = ResultSet(no_data, spec_text=_copy("rewards-purchase.toml"))
    plain = ResultSet(no_data, spec_text=_copy("characters-by-tier.toml"))
    assert plays_value_arms(value, no_data) and not plays_priced_arms(value, no_data)
    assert plays_value_arms(priced, no_data) and plays_priced_arms(priced, no_data)
    assert not plays_value_arms(plain, no_data) and not plays_priced_arms(plain, no_data)


def test_results_without_the_copy_are_asked_their_data() -> None:
    no_data = pd.DataFrame({"match_id": [0]})
    bare = ResultSet(no_data)
    assert not plays_value_arms(bare, no_data) and not plays_priced_arms(bare, no_data)
