"""Arena results stay identical: seeded matches of every AI replayed against golden hashes.

``tests/fixtures/golden/arena-golden.jsonl`` was recorded from the commit before the ruleset seam
(issue 9) by ``python -m tests.fixtures.golden.arena_golden``: 960 matches (240 with each AI of the
baseline and heuristic tiers as player 0's AI, against itself and against every other AI), on the
six Arena boards, with option variants, R-A17 team deals and R-A19 board choices, each hashed over
its full event log and its result. The matches with a heuristic AI were re-recorded when the
heuristic planner was rewritten (issue 7: its decisions changed on purpose); the 120 matches of the
random AI against itself, which exercise the engine alone, are those of the seam's recording. The
default suite replays every 40th match; ``make battery`` replays them all.
"""

from __future__ import annotations

import pytest

from tests.fixtures.golden.arena_golden import check_pregame, digest, load, play

ROWS = load()
SLICE = ROWS[::40]


def _replay(row):
    data = play(row)
    assert len(data) == row["bytes"] and digest(data) == row["sha256"], (
        f"Arena match changed: seed {row['seed']}, AIs {row['ai']}, board {row['board']}, "
        f"options {row['options']}, teams {row['teams']}"
    )


def test_golden_plan_covers_every_ai_board_and_pregame_mode():
    assert {row["ai"][0] for row in ROWS} == {"focus_fire", "kiter", "objective", "random"}
    assert {row["ai"][1] for row in ROWS} == {row["ai"][0] for row in ROWS}
    assert len({row["board"] for row in ROWS}) == 6
    assert {row["deal"]["mode"] for row in ROWS if "deal" in row} == {"draft", "random_deal"}
    assert any("board_choice" in row for row in ROWS)
    assert {row["ai"][0] for row in SLICE} == {row["ai"][0] for row in ROWS}


@pytest.mark.parametrize("row", SLICE, ids=lambda r: f"{r['ai'][0]}-{r['ai'][1]}-{r['seed']}")
def test_arena_match_identical_to_golden(row):
    _replay(row)


def test_pregame_deals_and_board_choices_identical_to_golden():
    for row in ROWS:
        if "deal" in row or "board_choice" in row:
            assert check_pregame(row) == [*row["teams"][0], "|", *row["teams"][1], "|", row["board"]]


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['ai'][0]}-{r['ai'][1]}-{r['seed']}")
def test_arena_match_identical_to_golden_all(row):
    _replay(row)
