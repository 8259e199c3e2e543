"""Duel Pack results stay identical: seeded duels replayed against golden hashes.

``tests/fixtures/golden/duel-golden.jsonl`` was recorded by ``python -m
tests.fixtures.golden.duel_golden`` on the reference engine: 96 duels (24 for each ordered pair of
the baseline and heuristic duel AIs) and 10 with the search AI under a 3-turn bound, one figure and
two each, the plain and the tactical draft, both duel boards, the duel
options cycled; each hashed over its full event log and its result. The default suite replays every
third match; ``make battery`` (``slow``) replays them all.
"""

from __future__ import annotations

import pytest

from krosbalance.ai.registry import list_ais
from krosbalance.content.registry import list_boards
from tests.fixtures.golden.duel_golden import VARIANTS, digest, load, play

ROWS = load()
SLICE = ROWS[::3]


def _replay(row):
    data = play(row)
    assert len(data) == row["bytes"] and digest(data) == row["sha256"], (
        f"duel changed: seed {row['seed']}, AIs {row['ai']}, board {row['board']}, "
        f"options {row['options']}, teams {row['teams']}"
    )


def _id(row):
    return f"{row['ai'][0]}-{row['ai'][1]}-{row['seed']}"


def test_golden_plan_covers_every_ai_board_draft_and_team_size():
    ais = set(list_ais("duel"))
    assert {row["ai"][0] for row in ROWS} == ais == {row["ai"][1] for row in ROWS}
    assert {row["board"] for row in ROWS} == set(list_boards("duel"))
    shapes = {(row["options"]["figures"], row["options"]["draft"], row["board"]) for row in ROWS}
    assert len(shapes) == 2 * 2 * len(list_boards("duel"))
    for variant in VARIANTS:
        assert any(variant.items() <= row["options"].items() for row in ROWS), variant
    assert {row["options"]["figures"] for row in SLICE} == {1, 2}


@pytest.mark.parametrize("row", SLICE, ids=_id)
def test_duel_match_identical_to_golden(row):
    _replay(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_duel_match_identical_to_golden_all(row):
    _replay(row)
