"""Grid geometry tables: distances, adjacency, rings and directions (R-A5, R-A6, R-A88).

Everything here is computed once per board size and handed to :class:`~krosbalance.board.board.Board`,
so that the engine's hot paths are plain list lookups. Cells are ints ``y * width + x`` with row 0 the
first line of an ASCII grid (y grows downward); cell sets are int bitmasks (bit ``i`` = cell ``i``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

#: Orthogonal unit steps in the order the neighbour tables use: N, E, S, W (y grows downward).
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))

#: The eight steps around a cell, row by row, used for Square areas and bomb explosions (R-A99).
AROUND: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)


def iter_cells(mask: int) -> Iterator[int]:
    """Yield the cells of a bitmask in increasing order.

    Uses the lowest-set-bit trick so the cost is proportional to the number of cells, not the board.
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cells: Iterable[int]) -> int:
    """Bitmask of an iterable of cells (the inverse of :func:`iter_cells`)."""
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


def sign(v: int) -> int:
    """-1, 0 or 1."""
    return (v > 0) - (v < 0)


def distance_table(width: int, height: int) -> list[list[int]]:
    """Manhattan distances between every pair of cells (R-A6: orthogonal steps, never diagonal)."""
    xs = [c % width for c in range(width * height)]
    ys = [c // width for c in range(width * height)]
    n = width * height
    return [[abs(xs[a] - xs[b]) + abs(ys[a] - ys[b]) for b in range(n)] for a in range(n)]


def neighbour_tables(width: int, height: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Orthogonal neighbours of each cell, N/E/S/W order, as tuples and as bitmasks (R-A5).

    Diagonal cells are never adjacent, so an interior cell has 4 neighbours, an edge cell 3, a corner 2.
    """
    lists: list[tuple[int, ...]] = []
    masks: list[int] = []
    for y in range(height):
        for x in range(width):
            cells = tuple(
                (y + dy) * width + (x + dx)
                for dx, dy in ORTHOGONAL
                if 0 <= x + dx < width and 0 <= y + dy < height
            )
            lists.append(cells)
            masks.append(mask_of(cells))
    return tuple(lists), tuple(masks)


def square_masks(width: int, height: int) -> tuple[int, ...]:
    """Bitmask of the up-to-8 cells around each cell (the cell itself excluded)."""
    out: list[int] = []
    for y in range(height):
        for x in range(width):
            m = 0
            for dx, dy in AROUND:
                if 0 <= x + dx < width and 0 <= y + dy < height:
                    m |= 1 << ((y + dy) * width + x + dx)
            out.append(m)
    return tuple(out)


def ring_table(width: int, height: int, distance: list[list[int]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``rings[c][d]``: cells at exact distance ``d`` from ``c``, for d = 0..width+height.

    The table is longer than the largest possible distance (width+height-2) so callers that loop
    ``range(max_range + 1)`` with a generous bound never index out of range; the extra rings are empty.
    """
    n = width * height
    size = width + height + 1
    out: list[tuple[tuple[int, ...], ...]] = []
    for c in range(n):
        buckets: list[list[int]] = [[] for _ in range(size)]
        row = distance[c]
        for other in range(n):
            buckets[row[other]].append(other)
        out.append(tuple(tuple(b) for b in buckets))
    return tuple(out)


def dominant_direction(dx: int, dy: int) -> tuple[int, int] | None:
    """Unit step along the dominant axis of the offset ``(dx, dy)``, or None when there is none.

    R-A88 leaves push/attract/retreat direction undefined when caster and target are not in the same
    row or column (every printed example is a line spell). We choose the axis along which the target
    is farther away, because it is the natural reading of "straight away from" on a square grid and it
    agrees with the aligned case. On an exact diagonal (``|dx| == |dy| > 0``) neither axis dominates, so
    we return None and let the caller decide (the engine moves nothing; areas fall back to Cross);
    ``(0, 0)`` (same cell) also has no direction.
    """
    adx, ady = abs(dx), abs(dy)
    if adx == ady:
        return None
    if adx > ady:
        return (sign(dx), 0)
    return (0, sign(dy))
