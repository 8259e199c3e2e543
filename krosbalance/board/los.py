"""Exact line-of-sight tables (R-A78, R-A119-R-A121).

R-A78: LOS exists when the straight segment from the centre of one cell to the centre of the other
crosses no blocking cell; only a cell's **interior** counts, so passing exactly through a corner never
blocks, even between two blockers that meet at that corner (the community tools KrosmasterLOS and the
4err map editor agree on this, see external-facts.md). The caster's and the target's cells never block.

The geometry is exact: a cell ``(x, y)`` is the unit square ``[x, x+1] x [y, y+1]`` and its centre is
``(x + 1/2, y + 1/2)``. We work in doubled coordinates (centres are odd integers, grid lines even
integers) and parametrise the segment by ``t`` in ``[0, 1]`` with one common integer denominator, so no
floating point or sampling is involved. Between two consecutive grid-line crossings the segment lies in
the interior of exactly one cell; a ``t`` where a vertical and a horizontal crossing coincide is a
lattice point (corner) that the segment passes through.

The result only depends on the offset between the two cells, so each of the ``(2w-1) x (2h-1)`` offsets
is traced once and its cells translated to every origin by shifting a bitmask.
"""

from __future__ import annotations

from .geometry import sign

Offset = tuple[int, int]


def trace_offset(dx: int, dy: int) -> tuple[list[Offset], list[tuple[Offset, Offset]]]:
    """Trace the segment from the centre of cell (0, 0) to the centre of cell (dx, dy).

    Returns:
        ``(crossed, squeezes)``: ``crossed`` lists the cells (relative to the start) whose interior the
        segment crosses, start and end excluded, in order along the segment; ``squeezes`` lists, for
        every lattice point the segment passes exactly through, the two cells beside the segment at that
        point (the pair the line squeezes between), used by the strict corner option.
    """
    if dx == 0 or dy == 0:
        # Straight lines run along odd (centre) coordinates and so never touch a grid line or corner.
        length = abs(dx) + abs(dy)
        sx, sy = sign(dx), sign(dy)
        return [(sx * i, sy * i) for i in range(1, length)], []

    adx, ady = abs(dx), abs(dy)
    sx, sy = sign(dx), sign(dy)
    den = 4 * adx * ady  # t = num / den
    # Doubled coordinates: start (1, 1), direction (2dx, 2dy). Vertical grid line X = 2k is crossed at
    # t = (2k - 1) / (2dx) for the k strictly between the two centres.
    xs = range(1, dx + 1) if dx > 0 else range(0, dx, -1)
    ys = range(1, dy + 1) if dy > 0 else range(0, dy, -1)
    vertical = {(2 * k - 1) * sx * 2 * ady for k in xs}
    horizontal = {(2 * m - 1) * sy * 2 * adx for m in ys}
    stops = [0, *sorted(vertical | horizontal), den]

    crossed: list[Offset] = []
    for t1, t2 in zip(stops, stops[1:], strict=False):
        # Midpoint of the piece, in doubled coordinates X = 1 + 2dx * (t1 + t2) / (2 den); cell = X // 2.
        cx = (2 * den + 2 * dx * (t1 + t2)) // (4 * den)
        cy = (2 * den + 2 * dy * (t1 + t2)) // (4 * den)
        if (cx, cy) != (0, 0) and (cx, cy) != (dx, dy):
            crossed.append((cx, cy))

    squeezes: list[tuple[Offset, Offset]] = []
    for t in sorted(vertical & horizontal):
        # Lattice point (gx, gy) in cell units: X = 1 + 2dx t / den is even, gx = X / 2.
        gx = (den + 2 * dx * t) // (2 * den)
        gy = (den + 2 * dy * t) // (2 * den)
        if sx == sy:  # the segment goes from (gx-1, gy-1) to (gx, gy) or back
            squeezes.append(((gx, gy - 1), (gx - 1, gy)))
        else:  # from (gx-1, gy) to (gx, gy-1) or back
            squeezes.append(((gx - 1, gy - 1), (gx, gy)))
    return crossed, squeezes


def los_tables(width: int, height: int) -> tuple[list[list[int]], list[list[tuple[int, ...]]]]:
    """Build ``los_path[a][b]`` and ``los_corners[a][b]`` for every ordered pair of cells.

    ``los_path[a][b]`` is the mask of cells whose interior the segment a->b crosses (a and b excluded),
    so LOS against a blocker mask is one AND. ``los_corners[a][b]`` is a tuple of two-cell masks, one
    per corner the segment passes through exactly. Both are symmetric in a and b by construction.
    """
    n = width * height
    # Relative cell r = rx + ry * width lies in [-(n - 1), n - 1]; shift by k = n - 1 so bit indices
    # are non-negative, then (base << a) >> k places the pattern at origin a without losing bits.
    k = n - 1
    path_base: dict[Offset, int] = {}
    corner_base: dict[Offset, tuple[int, ...]] = {}
    for dy in range(-(height - 1), height):
        for dx in range(-(width - 1), width):
            crossed, squeezes = trace_offset(dx, dy)
            base = 0
            for rx, ry in crossed:
                base |= 1 << (rx + ry * width + k)
            path_base[(dx, dy)] = base
            corner_base[(dx, dy)] = tuple(
                (1 << (p[0] + p[1] * width + k)) | (1 << (q[0] + q[1] * width + k)) for p, q in squeezes
            )

    empty: tuple[int, ...] = ()
    paths: list[list[int]] = []
    corners: list[list[tuple[int, ...]]] = []
    for a in range(n):
        ax, ay = a % width, a // width
        prow: list[int] = []
        crow: list[tuple[int, ...]] = []
        for b in range(n):
            off = (b % width - ax, b // width - ay)
            prow.append((path_base[off] << a) >> k)
            cb = corner_base[off]
            crow.append(tuple((m << a) >> k for m in cb) if cb else empty)
        paths.append(prow)
        corners.append(crow)
    return paths, corners
