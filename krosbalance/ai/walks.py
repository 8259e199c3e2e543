"""The walks of the heuristic planner: the safest shortest walk to each reachable cell
(:func:`walk_plan`: the chance of a lock block on the way, R-A16, and the kamas picked up, R-A49),
the walk it chose (:func:`route`), and the plain BFS path (:func:`bfs_path`).
"""

from __future__ import annotations

from collections.abc import Sequence

from krosbalance.ai import board_masks
from krosbalance.ai.context import _Context


def bfs_path(board_neighbours: Sequence[Sequence[int]], reach: dict[int, int], dest: int) -> list[int]:
    """Cells from the start to ``dest`` along decreasing BFS cost (start excluded, dest included)."""
    path = [dest]
    cur = dest
    while reach[cur] > 1:
        cost = reach[cur] - 1
        for n in board_neighbours[cur]:
            if reach.get(n) == cost:
                cur = n
                break
        else:
            break
        path.append(cur)
    path.reverse()
    return path


def walk_plan(ctx: _Context, reach: dict[int, int]) -> tuple[list[float], list[int], list[int]]:
    """Per cell of the board, the best of its shortest walks: (chance of being blocked on the way,
    kamas lying on the way, the previous cell of the walk or -1), as lists indexed by cell (read only
    for the cells of ``reach``).

    Among equally short walks the one least exposed to Lock is taken (every cell left next to an
    enemy may block, R-A16; a Lock holder rolls two dice), then the one passing over most kamas
    (picked up on the way, R-A49). ``reach`` is in BFS order (a cell's predecessors come first)."""
    n_cells = ctx.board.n_cells
    # the cells next to a locking enemy, and the kama and Demon cells (only Krosmasters pick up
    # kamas), a byte per cell: a board-wide mask is a long integer, slow to test bit by bit
    lockers = bytearray(n_cells)
    for c in board_masks.iter_bits(ctx.lockers):
        lockers[c] = 1
    kama_cells = ctx.econ_cells
    watched = False
    for cell in reach:
        if lockers[cell] or cell in kama_cells:
            watched = True
            break
    risks = [0.0] * n_cells
    on_way = [0] * n_cells
    parent = [-1] * n_cells
    if not watched:
        # nothing on any walk can block or be picked up: every walk is as good (callers fall back
        # on the BFS path)
        return risks, on_way, parent
    arena = ctx.arena
    neighbours = ctx.board.neighbours
    start = ctx.me_cell
    free_at = [1.0] * n_cells
    steps = [-1] * n_cells  # the walk's length to each cell of ``reach`` (-1 elsewhere)
    for cell, cost in reach.items():
        steps[cell] = cost
    for cell, cost in reach.items():
        if cost == 0:
            continue
        best_free, best_kamas, best_parent = -1.0, -1, -1
        for n in neighbours[cell]:
            if steps[n] != cost - 1:
                continue
            # the chance of walking off ``n`` unblocked (``block`` keeps its answers per cell)
            go = 1.0 - ctx.block(n) if lockers[n] else 1.0
            free = free_at[n] * go
            picked = on_way[n] + (arena.kamas_at(n) if n in kama_cells else 0)
            if free > best_free + 1e-12 or (abs(free - best_free) <= 1e-12 and picked > best_kamas):
                best_free, best_kamas, best_parent = free, picked, n
        free_at[cell] = best_free
        risks[cell] = 1.0 - best_free
        on_way[cell] = best_kamas
        parent[cell] = best_parent
    on_way[start] = 0
    return risks, on_way, parent


def route(parent: list[int], start: int, dest: int) -> list[int]:
    """The cells of the walk from ``start`` to ``dest`` chosen by :func:`walk_plan` (start excluded;
    empty when it chose none)."""
    path = []
    cur = dest
    while cur != start and parent[cur] >= 0:
        path.append(cur)
        cur = parent[cur]
    path.reverse()
    return path


__all__ = ["bfs_path", "route", "walk_plan"]
