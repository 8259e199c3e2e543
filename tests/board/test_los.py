"""Line of sight (R-A78, R-A119-R-A121): exact, centre to centre, interior only, corners pass."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from krosbalance.board import Board, mask_of

# external-facts.md "Line of sight": viewer at (0,0), x right, y UP. Board y points down, so on a board
# of height H the vector (x, y_up) is the cell (x, H - 1 - y_up).
VECTORS = [
    ([(1, 0), (0, 1)], (1, 1), True),
    ([(1, 1)], (3, 1), True),
    ([(2, 0)], (3, 1), True),
    ([(1, 0)], (3, 1), False),
    ([(2, 1)], (3, 1), False),
]


@cache
def open_board(width: int, height: int) -> Board:
    return Board.from_ascii("\n".join("." * width for _ in range(height)), id=f"open-{width}x{height}")


def up(b: Board, x: int, y_up: int) -> int:
    return b.cell(x, b.height - 1 - y_up)


@pytest.mark.parametrize(("blockers", "target", "visible"), VECTORS)
def test_r_a78_external_vectors(
    blockers: list[tuple[int, int]], target: tuple[int, int], visible: bool
) -> None:
    b = open_board(4, 4)
    mask = mask_of(up(b, x, y) for x, y in blockers)
    assert b.has_los(up(b, 0, 0), up(b, *target), mask) is visible
    assert b.has_los(up(b, *target), up(b, 0, 0), mask) is visible


@pytest.mark.parametrize(("blockers", "target", "visible"), VECTORS)
def test_r_a78_external_vectors_as_trees(
    blockers: list[tuple[int, int]], target: tuple[int, int], visible: bool
) -> None:
    rows = [["."] * 4 for _ in range(4)]
    for x, y in blockers:
        rows[3 - y][x] = "T"
    b = Board.from_ascii("\n".join("".join(r) for r in rows))
    assert b.line_of_sight((0, 3), (target[0], 3 - target[1])) is visible


def test_r_a78_r_a120_tree_blocks_r_a119_bush_and_r_a121_crate_do_not() -> None:
    for glyph, visible in (("T", False), ("B", True), ("C", True)):
        b = Board.from_ascii(f". {glyph} .")
        assert b.line_of_sight((0, 0), (2, 0)) is visible, glyph


def test_r_a78_corner_touch_does_not_block() -> None:
    b = Board.from_ascii(
        """
        . T
        T .
        """
    )
    assert b.line_of_sight((0, 0), (1, 1))
    assert b.los_path[b.cell(0, 0)][b.cell(1, 1)] == 0


def test_r_a78_endpoints_never_block() -> None:
    b = open_board(5, 5)
    a, t = b.cell(0, 0), b.cell(4, 2)
    assert b.has_los(a, t, (1 << a) | (1 << t))
    assert b.has_los(a, a, b.all_cells)
    assert b.has_los(a, b.cell(1, 0), b.all_cells)  # adjacent cells always see each other


def test_r_a78_strict_option_blocks_the_squeeze() -> None:
    b = Board.from_ascii(
        """
        . T .
        T . .
        . . .
        """
    )
    assert b.line_of_sight((0, 0), (1, 1))
    assert not b.line_of_sight((0, 0), (1, 1), strict=True)
    assert not b.line_of_sight((0, 0), (2, 2), strict=True)
    # one blocker at a corner is not a squeeze, even in strict mode
    one = Board.from_ascii(". T\n. .")
    assert one.line_of_sight((0, 0), (1, 1), strict=True)


def test_r_a78_path_cells_for_a_knight_move() -> None:
    b = open_board(4, 4)
    # (0,0) -> (3,1): crosses (1,0) and (2,1) and passes exactly through the corner between them, which
    # (2,0) and (1,1) squeeze.
    assert b.los_path[b.cell(0, 0)][b.cell(3, 1)] == mask_of([b.cell(1, 0), b.cell(2, 1)])
    assert b.los_corners[b.cell(0, 0)][b.cell(3, 1)] == (mask_of([b.cell(2, 0), b.cell(1, 1)]),)
    # (0,0) -> (2,1): crosses the shared edge of (1,0) and (1,1) at its midpoint, so both are crossed.
    assert b.los_path[b.cell(0, 0)][b.cell(2, 1)] == mask_of([b.cell(1, 0), b.cell(1, 1)])


def reference_crosses(b: Board, a: int, t: int) -> int:
    """Independent check: a cell's open square meets the segment iff its corners lie strictly on both
    sides of the line, for cells inside the two endpoints' bounding box (outside it the segment cannot
    reach). Integer cross products in doubled coordinates."""
    (ax, ay), (tx, ty) = b.xy(a), b.xy(t)
    px, py, qx, qy = 2 * ax + 1, 2 * ay + 1, 2 * tx + 1, 2 * ty + 1
    mask = 0
    for x in range(min(ax, tx), max(ax, tx) + 1):
        for y in range(min(ay, ty), max(ay, ty) + 1):
            c = b.cell(x, y)
            if c in (a, t):
                continue
            sides = {
                (qx - px) * (cy - py) - (qy - py) * (cx - px)
                for cx in (2 * x, 2 * x + 2)
                for cy in (2 * y, 2 * y + 2)
            }
            if any(s > 0 for s in sides) and any(s < 0 for s in sides):
                mask |= 1 << c
    return mask


def test_r_a78_los_path_matches_independent_reference() -> None:
    b = open_board(7, 5)
    for a in range(b.n_cells):
        for t in range(b.n_cells):
            assert b.los_path[a][t] == reference_crosses(b, a, t), (b.xy(a), b.xy(t))


boards = st.tuples(st.integers(1, 7), st.integers(1, 7)).flatmap(
    lambda wh: st.tuples(
        st.just(wh),
        st.integers(0, (1 << (wh[0] * wh[1])) - 1),
        st.integers(0, wh[0] * wh[1] - 1),
        st.integers(0, wh[0] * wh[1] - 1),
    )
)


@given(boards, st.booleans())
def test_r_a78_los_is_symmetric(case: tuple[tuple[int, int], int, int, int], strict: bool) -> None:
    (w, h), blockers, a, t = case
    b = open_board(w, h)
    assert b.has_los(a, t, blockers, strict) == b.has_los(t, a, blockers, strict)
    assert b.los_path[a][t] == b.los_path[t][a]
    if b.has_los(a, t, blockers, strict=True):
        assert b.has_los(a, t, blockers)  # strict only ever removes lines


@given(boards, st.booleans())
def test_r_a78_has_los_agrees_with_line_of_sight(
    case: tuple[tuple[int, int], int, int, int], strict: bool
) -> None:
    (w, h), trees, a, t = case
    b = Board(f"rnd-{w}x{h}", "", w, h, trees=trees)
    assert b.line_of_sight(b.xy(a), b.xy(t), strict) == b.has_los(a, t, trees, strict)
