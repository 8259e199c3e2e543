"""Krosmaster Blast results stay identical: seeded matches replayed against golden hashes.

``tests/fixtures/golden/blast-golden.jsonl`` was recorded by ``python -m
tests.fixtures.golden.blast_golden`` on the reference engine: 144 matches (16 for each ordered pair
of Blast heuristic and baseline AIs) and 14 with the search ``blast-lookahead`` (2 against each AI on
either seat and itself, under a 3-turn bound), both Blast boards, the Blast options cycled (favor decks, every Divine Challenge and
random draws, tier readings and overridden tiers, terrain, tackle, dice faces); each hashed over its
full event log and its result. The default suite replays every fourth match; ``make battery``
(``slow``) replays them all.
"""

from __future__ import annotations

import pytest

from krosbalance.ai.registry import list_ais
from krosbalance.content.registry import list_boards
from tests.fixtures.golden.blast_golden import CHALLENGE, VARIANTS, challenge_ids, digest, load, play

ROWS = load()
SLICE = ROWS[::4]


def _replay(row):
    data = play(row)
    assert len(data) == row["bytes"] and digest(data) == row["sha256"], (
        f"Blast match changed: seed {row['seed']}, AIs {row['ai']}, board {row['board']}, "
        f"options {row['options']}, teams {row['teams']}"
    )


def _id(row):
    return f"{row['ai'][0]}-{row['ai'][1]}-{row['seed']}"


def _matches(variant, options):
    """Whether ``options`` were planned from ``variant`` (a ``CHALLENGE`` stands for any challenge)."""
    if variant.keys() - options.keys():
        return False
    for key, value in variant.items():
        if key == "challenges":
            if len(value) != len(options[key]):
                return False
        elif value != CHALLENGE and options[key] != value:
            return False
    return True


def test_golden_plan_covers_every_ai_board_challenge_and_variant():
    ais = set(list_ais("blast"))
    assert {row["ai"][0] for row in ROWS} == ais == {row["ai"][1] for row in ROWS}
    assert {row["board"] for row in ROWS} == set(list_boards("blast"))
    assert {row["board"] for row in SLICE} == set(list_boards("blast"))
    named = {name for row in ROWS for name in row["options"].get("challenges", ())}
    assert set(challenge_ids()) <= named
    for variant in VARIANTS:
        assert any(_matches(variant, row["options"]) for row in ROWS), variant
    for row in ROWS:
        assert not set(row["teams"][0]) & set(row["teams"][1]), row


@pytest.mark.parametrize("row", SLICE, ids=_id)
def test_blast_match_identical_to_golden(row):
    _replay(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_blast_match_identical_to_golden_all(row):
    _replay(row)
