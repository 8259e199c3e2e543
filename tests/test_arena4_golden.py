"""Four-player Arena results stay identical: seeded matches replayed against golden hashes.

``tests/fixtures/golden/arena4-golden.jsonl`` (``python -m tests.fixtures.golden.arena4_golden``):
120 matches, free-for-all and two versus two, every Arena AI that plays four seats, the three
four-zone boards, option variants and player 4's board choice (R-A154), each hashed over its full
event log and its result. The default suite replays every 6th match; ``make battery`` all of them.
"""

from __future__ import annotations

import pytest

from tests.fixtures.golden.arena4_golden import (
    BOARDS,
    MODES,
    four_player_ais,
    four_player_searches,
    load,
    plan,
    play,
    search_plan,
)
from tests.fixtures.golden.arena_golden import digest

ALL_ROWS = load()
SEARCH_ROWS = ALL_ROWS[len(ALL_ROWS) - len(search_plan()) :]  # the four-player search's, appended
ROWS = ALL_ROWS[: len(ALL_ROWS) - len(SEARCH_ROWS)]
SLICE = ROWS[3::6]  # from the 4th match: board choices are every 8th from it


def _replay(row):
    data = play(row)
    assert len(data) == row["bytes"] and digest(data) == row["sha256"], (
        f"four-player Arena match changed: mode {row['mode']}, seed {row['seed']}, AIs {row['ai']}, "
        f"board {row['board']}, options {row['options']}, teams {row['teams']}"
    )


def test_golden_plan_is_the_recorded_plan_and_covers_modes_ais_boards_and_board_choice():
    from krosbalance.ai.registry import canonical_ai

    # the recorded rows name the AIs by their former ids (focus_fire): read as today's (focus-fire)
    recorded = [
        {
            k: ([canonical_ai(a) for a in v] if k == "ai" else v)
            for k, v in row.items()
            if k not in ("sha256", "bytes")
        }
        for row in ROWS
    ]
    assert recorded == plan(len(ROWS) // len(MODES))
    assert {row["mode"] for row in ROWS} == set(MODES)
    assert {canonical_ai(ai) for row in ROWS for ai in row["ai"]} == set(four_player_ais())
    assert {row["board"] for row in ROWS} == set(BOARDS)
    assert any("board_choice" in row for row in SLICE)
    assert {row["mode"] for row in SLICE} == set(MODES)


def test_search_rows_are_the_search_plan_and_seat_the_search_in_both_modes():
    recorded = [{k: v for k, v in row.items() if k not in ("sha256", "bytes")} for row in SEARCH_ROWS]
    assert recorded == search_plan()
    assert {ai for row in SEARCH_ROWS for ai in row["ai"]} >= set(four_player_searches())
    assert {row["mode"] for row in SEARCH_ROWS} == set(MODES)


@pytest.mark.parametrize("row", SEARCH_ROWS[::2], ids=lambda r: f"search-{r['mode']}-{r['seed']}")
def test_four_player_search_match_identical_to_golden(row):
    _replay(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", SEARCH_ROWS, ids=lambda r: f"search-{r['mode']}-{r['seed']}")
def test_four_player_search_match_identical_to_golden_all(row):
    _replay(row)


@pytest.mark.parametrize("row", SLICE, ids=lambda r: f"{r['mode']}-{r['seed']}")
def test_four_player_match_identical_to_golden(row):
    _replay(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['mode']}-{r['seed']}")
def test_four_player_match_identical_to_golden_all(row):
    _replay(row)
