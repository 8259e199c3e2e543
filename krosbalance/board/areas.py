"""Area-of-effect shapes (R-A97-R-A99): which cells a spell hits around its main target.

Only Square is confirmed by the rulebook text (the Water Bomb "touches the eight cells around it");
the other shapes were diagrams lost in extraction, so each function below states the reading we chose.
"Behind" means continuing from the caster C through the target T. Directions come from
:meth:`Board.direction` (dominant axis, R-A88 gap); when there is none (C == T, or T on an exact
diagonal of C), every direction-dependent shape falls back to **Cross**, the symmetric shape that
covers all four candidate cells, rather than guessing one side.

Extra cells need no LOS (R-A98) and are simply clipped to the board. Whether the caster is hit when
its own cell is in the area is the engine's decision: shapes return pure geometry, caster included if
covered. Each shape is a small function registered in :data:`AREA_SHAPES` (a registry, not an if-chain),
so a new shape is one function and one entry.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .geometry import AROUND, ORTHOGONAL

ShapeFn = Callable[[Board, int, int], tuple[int, ...]]


def _cells(board: Board, target: int, offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Target first, then the on-board cells at the given offsets from it."""
    out = [target]
    for dx, dy in offsets:
        c = board.step(target, dx, dy)
        if c >= 0:
            out.append(c)
    return tuple(out)


def single(board: Board, caster: int, target: int) -> tuple[int, ...]:
    """Just the main target."""
    return (target,)


def square(board: Board, caster: int, target: int) -> tuple[int, ...]:
    """T plus the 8 cells around it (3x3). Confirmed (R-A99, Water Bomb text)."""
    return _cells(board, target, AROUND)


def cross(board: Board, caster: int, target: int) -> tuple[int, ...]:
    """T plus its 4 orthogonal neighbours, N/E/S/W (a "+" of 5), read from the name.

    When C is adjacent to T the caster's own cell is part of the Cross; we return it and leave the
    "does the caster hit itself" question (R-A98 gap) to the engine.
    """
    return _cells(board, target, ORTHOGONAL)


def _directional(
    build: Callable[[int, int], tuple[tuple[int, int], ...]],
) -> ShapeFn:
    """Wrap an offsets-from-direction builder: fall back to Cross when there is no direction."""

    def shape(board: Board, caster: int, target: int) -> tuple[int, ...]:
        d = board.direction(caster, target)
        if d is None:
            return cross(board, caster, target)
        return _cells(board, target, build(*d))

    shape.__doc__ = build.__doc__
    shape.__name__ = build.__name__
    return shape


def _hammer(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """T plus its orthogonal neighbours except the one toward the caster: behind, then both sides
    (a "T" of 4). Assumed (R-A99, medium-low): the head of the hammer lands across and beyond T."""
    return ((dx, dy), (-dy, dx), (dy, -dx))


def _staff(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """T plus the two cells beside it, perpendicular to C->T (a bar of 3 across the line of attack).
    Assumed (R-A99, medium-low)."""
    return ((-dy, dx), (dy, -dx))


def _shovel(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """T plus the one cell directly behind it (2 in line). Assumed (R-A99, low)."""
    return ((dx, dy),)


def _needle(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Duel Pack. T plus up to 2 cells continuing in line beyond it (3 in line). Assumed: the text
    only says "extra targets in line with the caster, beyond T"; 2 keeps it the size of a Staff."""
    return ((dx, dy), (2 * dx, 2 * dy))


def _axe(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Duel Pack. T plus the cell behind it plus the cell on the caster's right-hand side of T (an L
    of 3). Assumed: the Duel Pack names "two patterns, choose one"; we model the right-handed one
    (with y downward, facing (dx, dy) the right hand points to (-dy, dx))."""
    return ((dx, dy), (-dy, dx))


hammer = _directional(_hammer)
staff = _directional(_staff)
shovel = _directional(_shovel)
needle = _directional(_needle)
axe = _directional(_axe)

#: Shape name -> function ``(board, caster, target) -> cells``; the names match ``content.specs.AREAS``.
AREA_SHAPES: dict[str, ShapeFn] = {
    "single": single,
    "square": square,
    "cross": cross,
    "hammer": hammer,
    "staff": staff,
    "shovel": shovel,
    "axe": axe,
    "needle": needle,
}


def area_cells(board: Board, shape: str, caster: int, target: int) -> tuple[int, ...]:
    """Cells hit by an area spell: the main target first, then the extra cells, clipped to the board.

    Raises:
        ValueError: unknown shape name.
    """
    fn = AREA_SHAPES.get(shape)
    if fn is None:
        raise ValueError(f"unknown area shape {shape!r}; known: {', '.join(AREA_SHAPES)}")
    return fn(board, caster, target)


def area_mask(board: Board, shape: str, caster: int, target: int) -> int:
    """Same as :func:`area_cells` as a bitmask, for ANDing with occupancy."""
    m = 0
    for c in area_cells(board, shape, caster, target):
        m |= 1 << c
    return m
