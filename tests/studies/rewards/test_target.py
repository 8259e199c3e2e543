"""The rewards study's headline quantity for ``[target]``: each token's Δ win rate half-width, in
points, from the report's own estimators (``controlled_value`` for held tokens, ``holder_summary``
for priced arms), never a second one."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

from krosbalance.studies.rewards import target
from krosbalance.studies.rewards.purchase import holder_summary
from krosbalance.studies.rewards.value import controlled_value
from tests.studies.rewards.test_purchase import synthetic
from tests.studies.rewards.test_value import value_matches


def test_a_held_token_experiment_reads_the_value_tables_intervals_in_points() -> None:
    matches = value_matches()
    widths = target.half_widths(matches)
    value = controlled_value(matches)
    assert set(widths) == set(value["reward"]) and len(widths) == 3
    for reward, low, high in zip(value["reward"], value["delta_low"], value["delta_high"], strict=True):
        assert widths[reward] == pytest.approx(100 * (high - low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}


def test_a_priced_experiment_reads_each_tokens_mean_over_its_holders() -> None:
    matches, _ = synthetic()
    widths = target.half_widths(matches)
    summary = holder_summary(matches)
    assert set(widths) == set(summary["token"]) == {"tok"}
    row = summary.iloc[0]
    assert widths["tok"] == pytest.approx(100 * (row["mean_high"] - row["mean_low"]) / 2)
    assert math.isfinite(widths["tok"]) and widths["tok"] > 0


def test_a_sweep_or_an_experiment_without_token_arms_cannot_be_sized() -> None:
    def shape(**fields: object) -> SimpleNamespace:
        return SimpleNamespace(**({"sweep": "", "held_rewards": (), "purchase_rewards": ()} | fields))

    assert "fair price" in target.problem(shape(sweep=json.dumps({"kind": "reward"}), held_rewards=("x",)))
    assert "no token arms" in target.problem(shape())
    assert target.problem(shape(held_rewards=("x",))) == ""
    assert target.problem(shape(purchase_rewards=("x",))) == ""
