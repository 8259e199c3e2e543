"""Area-of-effect shapes (R-A97-R-A99), checked against little pictures.

In the pictures ``C`` is the caster, ``T`` the main target, ``x`` an extra cell, ``X`` the caster's own
cell when the area covers it, ``.`` untouched. Row 0 is the top line.
"""

from __future__ import annotations

import pytest

from krosbalance.board import AREA_SHAPES, Board, area_cells, area_mask
from krosbalance.content.specs import AREAS


def picture(text: str) -> tuple[Board, int, int, set[int]]:
    """Parse a picture into (board, caster, target, expected cells)."""
    rows = ["".join(line.split()) for line in text.strip().splitlines()]
    board = Board.from_ascii("\n".join("." * len(r) for r in rows))
    caster = target = -1
    expected: set[int] = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            c = board.cell(x, y)
            if ch in "CX":
                caster = c
            if ch in "TxX":
                expected.add(c)
            if ch == "T":
                target = c
    return board, caster, target, expected


CASES = {
    "single": [
        """
        . . . .
        C . T .
        . . . .
        """,
    ],
    "square": [
        """
        . . . . .
        . x x x .
        C x T x .
        . x x x .
        """,
        """
        T x . .
        x x . C
        """,
    ],
    "cross": [
        """
        . . x . .
        . x T x C
        . . x . .
        """,
        """
        . x . .
        x T X .
        . x . .
        """,
    ],
    "hammer": [
        """
        . . . . . .
        . . . x . .
        C . . T x .
        . . . x . .
        """,
        """
        . . C .
        . . . .
        . x T x
        . . x .
        """,
    ],
    "staff": [
        """
        . . . . .
        . . x . .
        C . T . .
        . . x . .
        """,
        """
        . C .
        x T x
        . . .
        """,
    ],
    "shovel": [
        """
        C . T x .
        """,
        """
        x
        T
        .
        C
        """,
    ],
    "needle": [
        """
        C T x x .
        """,
        """
        C . . T x
        """,
    ],
    "axe": [
        """
        . . . . .
        C . T x .
        . . x . .
        """,
        """
        . x . .
        . T x .
        . C . .
        """,
    ],
}


@pytest.mark.parametrize(("shape", "text"), [(s, t) for s, ts in CASES.items() for t in ts])
def test_r_a99_area_shapes(shape: str, text: str) -> None:
    board, caster, target, expected = picture(text)
    cells = area_cells(board, shape, caster, target)
    assert cells[0] == target
    assert len(cells) == len(set(cells))
    assert set(cells) == expected
    assert area_mask(board, shape, caster, target) == sum(1 << c for c in expected)


def test_r_a99_non_aligned_uses_dominant_axis() -> None:
    # Caster two columns left and one row up of T: the direction is east, as if aligned.
    board, _, target, expected = picture(
        """
        C . . . .
        . . T x .
        """
    )
    assert set(area_cells(board, "shovel", board.cell(0, 0), target)) == expected


@pytest.mark.parametrize("shape", ["hammer", "staff", "shovel", "axe", "needle"])
def test_r_a99_no_direction_falls_back_to_cross(shape: str) -> None:
    board = Board.from_ascii("\n".join("....." for _ in range(5)))
    t = board.cell(2, 2)
    cross = set(area_cells(board, "cross", t, t))
    assert set(area_cells(board, shape, t, t)) == cross  # caster on the target
    assert set(area_cells(board, shape, board.cell(0, 0), t)) == cross  # exact diagonal


def test_r_a99_registry_covers_the_spec_vocabulary() -> None:
    assert set(AREA_SHAPES) == set(AREAS)
    with pytest.raises(ValueError, match="unknown area shape"):
        area_cells(Board.from_ascii(".."), "spiral", 0, 1)
