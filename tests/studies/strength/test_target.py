"""The strength study's headline quantity for ``[target]``: each figure's 95% CI half-width, from the
report's own estimator (``adjusted_strength``), never a second one."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest

from krosbalance.analysis.strength import adjusted_strength
from krosbalance.sim.runner import read_table, run_experiment
from krosbalance.studies.strength import target
from tests.sim.fakes import FakeCatalog, fake_play

SPLITS = """
name = "splits"
master_seed = 3
matches_per_pairing = 2
ais = ["kiter-race"]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]
"""


def test_half_widths_are_the_strength_tables_intervals(tmp_path: Path) -> None:
    source = tmp_path / "splits.toml"
    source.write_text(textwrap.dedent(SPLITS), encoding="utf-8")
    run_experiment(source, tmp_path / "out", play=fake_play, catalog=FakeCatalog(), progress=False)
    matches = read_table(tmp_path / "out")
    widths = target.half_widths(matches)
    strength = adjusted_strength(matches)
    figures = strength[strength["kind"] == "character"]
    assert set(widths) == set(figures["term"]) and len(widths) == 8
    for term, low, high in zip(figures["term"], figures["ci_low"], figures["ci_high"], strict=True):
        assert widths[term] == pytest.approx((high - low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}
    assert all(math.isfinite(w) and w > 0 for w in widths.values())


def test_the_strength_target_needs_two_players() -> None:
    class Shape:
        seats = 4

    assert "two-player" in target.problem(Shape())
    Shape.seats = 2
    assert target.problem(Shape()) == ""
