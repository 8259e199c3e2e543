"""The shipped Krosmaster Blast boards (assumed layouts): box counts, deployment rows, fairness."""

from __future__ import annotations

import pytest

from krosbalance.board import Board, iter_cells
from krosbalance.content.registry import list_boards, load_board

BLAST_BOARDS = list_boards("blast")


def test_blast_boards_are_listed_apart_from_arena_boards() -> None:
    assert len(BLAST_BOARDS) >= 2
    assert not set(BLAST_BOARDS) & set(list_boards("arena"))


@pytest.mark.parametrize("bid", BLAST_BOARDS)
def test_r_b1_r_b4_box_counts(bid: str) -> None:
    """R-B1: 8 glyph tiles, 4 trees and 4 bushes in the box; the assumed board is 8x10."""
    b: Board = load_board(bid)
    assert (b.width, b.height) == (8, 10)
    assert b.features["glyph"].bit_count() == 8
    assert (b.trees.bit_count(), b.bushes.bit_count()) == (4, 4)
    assert "assumed layout" in b.source


@pytest.mark.parametrize("bid", BLAST_BOARDS)
def test_r_b8_deployment_in_the_first_two_rows(bid: str) -> None:
    b: Board = load_board(bid)
    assert {b.xy(c)[1] for c in iter_cells(b.deploy[0])} <= {b.height - 2, b.height - 1}
    assert {b.xy(c)[1] for c in iter_cells(b.deploy[1])} <= {0, 1}
    assert b.deploy[0].bit_count() == b.deploy[1].bit_count() >= 2


@pytest.mark.parametrize("bid", BLAST_BOARDS)
def test_r_b14_glyph_cells_can_be_entered(bid: str) -> None:
    """A glyph cell stays free (R-B14): never under a tree or a bush, never a deployment cell."""
    b: Board = load_board(bid)
    glyphs = b.features["glyph"]
    assert not glyphs & b.obstacles
    assert not glyphs & (b.deploy[0] | b.deploy[1])


@pytest.mark.parametrize("bid", BLAST_BOARDS)
def test_blast_boards_are_point_symmetric(bid: str) -> None:
    b: Board = load_board(bid)

    def image(mask: int) -> int:
        return sum(1 << b.cell(b.width - 1 - x, b.height - 1 - y) for x, y in map(b.xy, iter_cells(mask)))

    for mask in (b.trees, b.bushes, b.features["glyph"]):
        assert image(mask) == mask
    assert image(b.deploy[0]) == b.deploy[1]
