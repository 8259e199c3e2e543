"""Board geometry: adjacency (R-A5), distance (R-A6), rings, steps, directions (R-A88), ASCII, pickling."""

from __future__ import annotations

import pickle
import time
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from krosbalance.board import Board, iter_cells, mask_of
from krosbalance.errors import ContentError


@cache
def open_board(width: int, height: int) -> Board:
    return Board.from_ascii("\n".join("." * width for _ in range(height)), id=f"open-{width}x{height}")


def test_r_a5_adjacency_is_orthogonal_only() -> None:
    b = open_board(5, 4)
    centre = b.cell(2, 1)
    # N, E, S, W order; diagonals never adjacent.
    assert b.neighbours[centre] == (b.cell(2, 0), b.cell(3, 1), b.cell(2, 2), b.cell(1, 1))
    assert b.cell(1, 0) not in b.neighbours[centre]
    assert b.cell(3, 2) not in b.neighbours[centre]
    assert len(b.neighbours[b.cell(0, 0)]) == 2  # corner
    assert len(b.neighbours[b.cell(2, 0)]) == 3  # edge
    assert len(b.neighbours[b.cell(1, 1)]) == 4  # interior
    for c in range(b.n_cells):
        assert b.neighbour_mask[c] == mask_of(b.neighbours[c])
        assert all(b.distance[c][n] == 1 for n in b.neighbours[c])
        assert set(b.neighbours[c]) == {o for o in range(b.n_cells) if b.distance[c][o] == 1}


def test_r_a6_distance_is_manhattan() -> None:
    b = open_board(6, 5)
    assert b.distance[b.cell(0, 0)][b.cell(3, 4)] == 7
    assert b.distance[b.cell(2, 2)][b.cell(3, 3)] == 2  # a diagonal step counts as two
    assert b.distance[b.cell(4, 1)][b.cell(4, 1)] == 0  # the caster's own cell is distance 0


cells_12 = st.integers(min_value=0, max_value=143)


@given(cells_12, cells_12, cells_12)
def test_r_a6_distance_triangle_inequality_and_symmetry(a: int, b: int, c: int) -> None:
    d = open_board(12, 12).distance
    assert d[a][b] == d[b][a]
    assert d[a][c] <= d[a][b] + d[b][c]
    assert (d[a][b] == 0) == (a == b)


def test_square_mask_is_the_eight_cells_around() -> None:
    b = open_board(4, 4)
    assert b.square_mask[b.cell(1, 1)].bit_count() == 8
    assert b.square_mask[b.cell(0, 0)] == mask_of([b.cell(1, 0), b.cell(0, 1), b.cell(1, 1)])
    assert not b.square_mask[b.cell(2, 2)] & (1 << b.cell(2, 2))


def test_rings_partition_the_board_by_distance() -> None:
    b = open_board(5, 3)
    for c in range(b.n_cells):
        assert len(b.rings[c]) == b.width + b.height + 1
        assert b.rings[c][0] == (c,)
        seen = [o for ring in b.rings[c] for o in ring]
        assert sorted(seen) == list(range(b.n_cells))
        for d, ring in enumerate(b.rings[c]):
            assert all(b.distance[c][o] == d for o in ring)


def test_coordinates_step_and_bounds() -> None:
    b = open_board(5, 3)
    assert b.cell(4, 2) == 14 and b.xy(14) == (4, 2)
    assert b.in_bounds(4, 2) and not b.in_bounds(5, 0) and not b.in_bounds(0, -1)
    assert b.step(b.cell(0, 0), -1, 0) == -1
    assert b.step(b.cell(0, 0), 0, -1) == -1
    assert b.step(b.cell(4, 0), 1, 0) == -1  # no wrap-around to the next row
    assert b.step(b.cell(1, 1), 1, 0) == b.cell(2, 1)
    assert b.step(b.cell(1, 1), 0, 1) == b.cell(1, 2)


def test_r_a74_aligned() -> None:
    b = open_board(5, 5)
    assert b.aligned(b.cell(1, 1), b.cell(1, 4))
    assert b.aligned(b.cell(1, 1), b.cell(4, 1))
    assert b.aligned(b.cell(2, 2), b.cell(2, 2))
    assert not b.aligned(b.cell(1, 1), b.cell(2, 2))


def test_r_a88_direction_dominant_axis_none_on_diagonal() -> None:
    b = open_board(6, 6)
    c = b.cell(2, 2)
    assert b.direction(c, b.cell(5, 2)) == (1, 0)
    assert b.direction(c, b.cell(2, 0)) == (0, -1)
    assert b.direction(c, b.cell(5, 3)) == (1, 0)  # dx=3 > dy=1
    assert b.direction(c, b.cell(1, 5)) == (0, 1)  # dy=3 > dx=1
    assert b.direction(c, b.cell(4, 4)) is None  # exact diagonal
    assert b.direction(c, c) is None


@given(st.integers(0, 35), st.integers(0, 35))
def test_r_a88_direction_moves_away_consistently(a: int, t: int) -> None:
    """Stepping from the target in the direction never gets closer to the caster (a push goes away)."""
    b = open_board(6, 6)
    d = b.direction(a, t)
    if d is None:
        return
    nxt = b.step(t, *d)
    if nxt >= 0:
        assert b.distance[a][nxt] == b.distance[a][t] + 1
    back = b.direction(t, a)
    assert back == (-d[0], -d[1])


def test_iter_cells_round_trip() -> None:
    assert list(iter_cells(mask_of([5, 0, 63, 200]))) == [0, 5, 63, 200]
    assert list(iter_cells(0)) == []


def test_from_ascii_public_contract_and_round_trip() -> None:
    text = """
    . T .
    B . C
    """
    b = Board.from_ascii(text)
    assert (b.width, b.height) == (3, 2)
    assert b.trees == 1 << b.cell(1, 0)  # row 0 is the first line
    assert b.bushes == 1 << b.cell(0, 1)
    assert b.crates == 1 << b.cell(2, 1)
    full = Board.from_ascii("b D 1\n2 T a\n", id="x")
    assert full.demon_cells == 1 << 1
    assert full.kama_cells == {2: 1, 3: 2}
    assert full.deploy == (1 << 5, 1 << 0)
    assert Board.from_ascii(full.to_ascii(), id="x") == full
    assert full.to_ascii() == "b D 1\n2 T a\n"


def test_from_ascii_errors_name_row_and_column() -> None:
    with pytest.raises(ContentError, match=r"row y=1, column x=2: unknown glyph 'X'"):
        Board.from_ascii("...\n..X\n")
    with pytest.raises(ContentError, match="ragged"):
        Board.from_ascii("...\n..\n")


def test_board_pickles_compactly_and_rebuilds() -> None:
    b = Board.from_ascii("T . 1\n. D C\na . b\n", id="p", source="test board")
    data = pickle.dumps(b)
    assert len(data) < 1000  # the tables are rebuilt, not shipped to workers
    c = pickle.loads(data)
    assert c == b and c.los_path == b.los_path and c.source == b.source


def test_12x12_builds_fast() -> None:
    start = time.perf_counter()
    Board.from_ascii("\n".join("." * 12 for _ in range(12)), id="fresh")
    assert time.perf_counter() - start < 0.5
