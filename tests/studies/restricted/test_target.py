"""The restricted-play study's headline quantity for ``[target]``: each restricted arm's Δ strength
half-width from the report's own table (``restricted_table``), the arms that changed no match left
out, as the report leaves them out."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pandas as pd
import pytest

from krosbalance.studies.restricted import target
from krosbalance.studies.restricted.tables import restricted_table
from tests.studies.restricted.test_restricted import FORBIDS, planted_matches


def experiment(seats: int = 2) -> SimpleNamespace:
    return SimpleNamespace(seats=seats, forbids=tuple((arm, json.dumps(f)) for arm, f in FORBIDS.items()))


def test_half_widths_are_the_restricted_tables_intervals() -> None:
    matches = planted_matches(deals=6)
    widths = target.half_widths(matches, experiment())
    table = restricted_table(matches, FORBIDS)
    moved = table[table["changed"] > 0]
    assert len(widths) == len(moved) >= 1
    for r in moved.itertuples(index=False):
        assert widths[f"{r.figure} without {r.element}"] == pytest.approx((r.ci_high - r.ci_low) / 2)


def test_an_arm_that_changed_no_match_is_left_out() -> None:
    matches = planted_matches(deals=6)
    base = matches[matches["variant"] == "unrestricted"]
    same = base.assign(variant="star-power-hat", match_id=base["match_id"] + 10**6)
    bow = matches[matches["variant"] == "star-spell-bow"]
    widths = target.half_widths(pd.concat([base, same, bow]), experiment())
    assert "star without hat" not in widths and "star without bow" in widths


def test_strength_needs_two_players() -> None:
    assert "two-player" in target.problem(experiment(seats=4))
    assert target.problem(experiment()) == ""
