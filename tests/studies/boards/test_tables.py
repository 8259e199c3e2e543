"""The board study's tables on planted data: a board that changes a figure's strength is found, the
others are not, and the first player's planted edge shows on every board."""

from __future__ import annotations

import numpy as np
import pandas as pd

from krosbalance.studies.boards.tables import board_favours, figure_rates_by_board, first_player_by_board
from tests.analysis.fixtures import TRUE_STRENGTH, planted_tables


def _two_boards(anchor: float = 0.7) -> pd.DataFrame:
    flat, _ = planted_tables(n_pairings=1500, seed=11, board="flat")
    tilted, _ = planted_tables(
        n_pairings=1500,
        seed=12,
        board="tilted",
        strength={**TRUE_STRENGTH, "anchor": anchor},  # 0.7: the tilted board makes the weak anchor strong
        first_id=len(flat),
        first_pairing=1500,
    )
    return pd.concat([flat, tilted], ignore_index=True)


def test_the_first_players_planted_edge_shows_on_every_board_with_n_and_ci() -> None:
    first = first_player_by_board(_two_boards())
    assert list(first["board"]) == ["flat", "tilted"] and set(first["ai"]) == {"greedy"}
    assert (first["n"] > 2500).all() and (first["ci_low"] > 0.5).all()  # expit(0.3) = 57%
    assert ((first["ci_low"] <= first["win_rate"]) & (first["win_rate"] <= first["ci_high"])).all()


def test_a_board_that_changes_a_figure_is_found_first_and_equal_boards_favour_none() -> None:
    matches = _two_boards()
    favours = board_favours(matches)
    found = favours[favours["favoured"]]
    # raw win rates: the others move too (anchor's teammates win more, its opponents less), less so
    assert favours.loc[favours["delta"].abs().idxmax(), "character"] == "anchor"
    anchor = found[found["character"] == "anchor"].set_index("board")["delta"]
    assert anchor["tilted"] > 0.1 and np.isclose(
        anchor.sum(), 0
    )  # a jump of 1.4 log-odds; flat: the other side
    assert not board_favours(_two_boards(anchor=TRUE_STRENGTH["anchor"]))["favoured"].any()
    rates = figure_rates_by_board(matches)
    anchor = rates[rates["character"] == "anchor"].set_index("board")
    assert anchor.loc["tilted", "ci_low"] > anchor.loc["flat", "ci_high"]


def test_one_board_has_no_favours_and_no_match_no_rows() -> None:
    flat, _ = planted_tables(n_pairings=50, seed=3, board="flat")
    assert board_favours(flat).empty
    assert first_player_by_board(flat.iloc[0:0]).empty and figure_rates_by_board(flat.iloc[0:0]).empty
