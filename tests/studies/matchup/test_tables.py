"""The matchup study's tables and headline answer on synthetic results of known win rates."""

from __future__ import annotations

import pandas as pd
import pytest

from krosbalance.studies.matchup import section, tables

A = "a1,a2,a3,a4"
B = "b1,b2,b3,b4"
C = "c1,c2,c3,c4"


def deals(
    pairing: int, team_a: str, team_b: str, a_deals: int, split: int, b_deals: int, ai: str
) -> list[dict]:
    """Rows of ``a_deals`` deals A wins from both sides, ``split`` deals each side wins once (the
    first player wins both) and ``b_deals`` deals B wins from both sides."""
    outcomes = ["A"] * a_deals + ["split"] * split + ["B"] * b_deals
    rows = []
    for deal, outcome in enumerate(outcomes):
        for swapped in (False, True):
            team0, team1 = (team_b, team_a) if swapped else (team_a, team_b)
            winner_team = outcome if outcome != "split" else ("B" if swapped else "A")
            winner = 0 if (winner_team == "A") != swapped else 1
            rows.append(
                {
                    "match_id": 0,
                    "pairing": pairing,
                    "deal": deal,
                    "team_a": team_a,
                    "team_b": team_b,
                    "board": "arena-elemental",
                    "ai_a": ai,
                    "ai_b": ai,
                    "swapped": swapped,
                    "team0": team0,
                    "team1": team1,
                    "ai0": ai,
                    "ai1": ai,
                    "first_player": 0,
                    "winner": winner,
                    "winner_team": winner_team,
                    "end_reason": "gg",
                    "error": "",
                }
            )
    return rows


def frame(*parts: list[dict]) -> pd.DataFrame:
    m = pd.DataFrame([row for part in parts for row in part])
    m["match_id"] = range(len(m))
    return m


def test_a_pair_gives_as_win_rate_with_n_and_a_clustered_interval() -> None:
    m = frame(deals(0, A, B, 250, 80, 170, "mcts-race"))  # 1,000 matches: A wins 580
    pairs = tables.pair_rates(m)
    (row,) = pairs.itertuples(index=False)
    assert (row.n, row.a_wins, row.b_wins, row.draws) == (1000, 580, 420, 0)
    assert row.win_rate == pytest.approx(0.58) and row.ci_low < 0.58 < row.ci_high
    assert row.deff > 1  # the two matches of a deal mostly agree: wider than the plain Wilson
    assert row.measurable and row.b_win_rate == pytest.approx(0.42)


def test_the_answer_is_one_sentence_with_the_numbers_n_ci_and_the_ai() -> None:
    m = frame(deals(0, A, B, 250, 80, 170, "mcts-race"))
    found = section.matchup_tables(m)
    (line,) = section.answer_lines(found, tables.is_round_robin(m))
    r = found["matchup_pairs"].iloc[0]
    expected = f"58.0% [{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}] of 1,000 matches (mcts-race)"
    assert line == f"a1 + a2 + a3 + a4 beats b1 + b2 + b3 + b4 in {expected}."


def test_the_winner_is_named_first_whichever_side_it_was_listed_on() -> None:
    m = frame(deals(0, A, B, 100, 20, 300, "kiter"))
    (line,) = section.answer_lines(section.matchup_tables(m), False)
    assert line.startswith("b1 + b2 + b3 + b4 beats a1 + a2 + a3 + a4 in 73.8% [")
    assert line.endswith("of 840 matches (kiter).")


def test_a_coin_flip_says_no_difference_measurable() -> None:
    m = frame(deals(0, A, B, 20, 60, 20, "mcts-race"))
    (line,) = section.answer_lines(section.matchup_tables(m), False)
    assert "no difference measurable at n = 200 matches (mcts-race)" in line
    assert "50.0% [" in line


def test_the_answer_quotes_the_strongest_ai_and_the_others_after() -> None:
    m = frame(deals(0, A, B, 40, 10, 50, "random"), deals(0, A, B, 60, 0, 40, "mcts-race"))
    (line,) = section.answer_lines(section.matchup_tables(m), False)
    assert "(mcts-race)" in line and line.index("(mcts-race)") < line.index("Next AI down, random:")


def test_beside_the_top_ai_only_the_next_one_down_and_whether_they_agree() -> None:
    """Three AIs: the search AI answers, the heuristic beside it (not random); A's share moves from
    50% to 80% between them: still moving."""
    m = frame(
        deals(0, A, B, 50, 0, 50, "random"),
        deals(0, A, B, 400, 0, 100, "mcts-race"),
        deals(0, A, B, 250, 0, 250, "focus-fire"),
    )
    (line,) = section.answer_lines(section.matchup_tables(m), False)
    assert line.startswith(f"{section.team_name(A)} beats {section.team_name(B)} in 80.0%")
    assert "(mcts-race)" in line and "Next AI down, focus-fire:" in line and "random" not in line
    assert line.endswith("still moving: mcts-race gives A more.")


def test_a_round_robin_ranks_the_teams_and_answers_with_the_top() -> None:
    m = frame(
        deals(0, A, B, 70, 0, 30, "kiter"),
        deals(1, A, C, 80, 0, 20, "kiter"),
        deals(2, B, C, 55, 0, 45, "kiter"),
    )
    assert tables.is_round_robin(m)
    rank = tables.ranking(m)
    assert list(rank["team"]) == [A, B, C]
    assert rank["win_rate"].tolist() == pytest.approx([0.75, (0.30 + 0.55) / 2, (0.20 + 0.45) / 2])
    assert (rank["n"] == 400).all() and (rank["opponents"] == 2).all()
    (line,) = section.answer_lines(section.matchup_tables(m), True)
    assert line.startswith("Round robin of 3 teams: a1 + a2 + a3 + a4 ranks first, winning 75.0% [")
    assert "of its 400 matches (kiter)" in line
    wide = tables.round_robin_matrix(m, "kiter")
    assert (
        wide.loc[A, B].startswith("70.0% [") and wide.loc[B, A].startswith("30.0% [") and wide.loc[A, A] == ""
    )


def test_pairs_that_are_not_a_round_robin_get_a_sentence_each() -> None:
    d = "d1,d2,d3,d4"
    m = frame(deals(0, A, B, 60, 0, 40, "kiter"), deals(1, C, d, 50, 0, 50, "kiter"))
    assert not tables.is_round_robin(m)
    lines = section.answer_lines(section.matchup_tables(m), False)
    assert len(lines) == 2 and "no difference measurable" in lines[1]


def test_failed_matches_and_an_empty_table_give_no_answer() -> None:
    m = frame(deals(0, A, B, 3, 0, 1, "kiter")).assign(error="boom")
    assert tables.pair_rates(m).empty
    assert section.answer_lines(section.matchup_tables(m), False) == []
