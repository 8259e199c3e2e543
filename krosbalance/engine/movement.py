"""Walking (R-A40-R-A47) and special movement from spells (R-A83-R-A87, R-A95).

Whether a walking piece gets away from its cell is the ruleset's (``MatchRules.may_leave``: Arena's
Lock against Dodge, Blast's tackle zone). Special movement is never subject to it; it goes one cell
at a time and stops before the first obstacle or the board edge. A trap is triggered only where a
movement ends (R-A87, R-A171). Entering a cell of ``state.enter_cells`` calls the ruleset's
``on_enter`` (Blast's glyphs and terrain tiles; Arena has none).
"""

from __future__ import annotations

from krosbalance.engine.events import FULL, Moved
from krosbalance.engine.pieces import relocate
from krosbalance.engine.state import Fighter, MatchState


def held_fast(state: MatchState, mover: Fighter) -> bool:
    """R-A48: an enemy with Perfect Lock (e.g. from an Arena Demonic Reward upgrade) is adjacent, so
    the mover may not spend MP to leave melee contact with it — every step from an orthogonally
    adjacent cell does. Tiny characters too: Tiny exempts them from Lock *rolls* (R-A103), but
    the upgrade forbids the step, and the rule that forbids prevails (R-A8, seed L2113-L2115)."""
    adjacent = state.board.neighbour_mask[mover.cell]
    for holder in state.lock_holders:
        if (
            holder.alive
            and holder.cell >= 0
            and holder.team != mover.team
            and (adjacent >> holder.cell) & 1
            and holder.has("perfect_lock")
        ):
            return True
    return False


def walk(state: MatchState, mover: Fighter, destination: int) -> bool:
    """Spend 1 MP to step to an adjacent free cell, if the ruleset lets the mover leave its cell.

    Returns False when the mover was held: it stays, and the ruleset's ``may_leave`` has applied
    the consequences (Arena: lost MP, and AP under ``lock_block_ends_turn``).
    """
    mover.mp -= 1
    if not state.ruleset.may_leave(state, mover):
        return False
    origin = mover.cell
    relocate(state, mover, destination)
    mover.stats.moves += 1
    if state.record >= FULL:
        state.events.append(Moved(state.turn, mover.uid, origin, destination, "walk"))
    if destination in state.traps:
        from krosbalance.engine.combat import (
            trigger_trap,  # cycle: combat imports effects, which imports this (a trap casts a spell)
        )

        trigger_trap(state, destination)
    if (state.enter_cells >> destination) & 1:
        state.ruleset.on_enter(state, mover, origin, destination, "walk")
    return True


def slide(state: MatchState, piece: Fighter, dx: int, dy: int, cells: int, how: str) -> bool:
    """Move a piece up to ``cells`` cells in a straight line, stopping before an obstacle or the
    edge (R-A87). Returns whether it moved. When the path crosses cells of ``state.enter_cells``
    the piece moves cell by cell and the ruleset's ``on_enter`` runs for each such cell entered
    (stopping if it moved the piece elsewhere or took it off the board)."""
    board = state.board
    origin = cell = piece.cell
    path = 0
    for _ in range(cells):
        nxt = board.step(cell, dx, dy)
        if nxt < 0 or (state.obstacles >> nxt) & 1:
            break
        cell = nxt
        path |= 1 << nxt
    if cell == origin:
        return False
    if not path & state.enter_cells:
        relocate(state, piece, cell)
        if state.record >= FULL:
            state.events.append(Moved(state.turn, piece.uid, origin, cell, how))
        return True
    here = origin
    while here != cell:
        nxt = board.step(here, dx, dy)
        if (state.obstacles >> nxt) & 1:  # an on_enter effect put something in the way
            break
        relocate(state, piece, nxt)
        if state.record >= FULL:
            state.events.append(Moved(state.turn, piece.uid, here, nxt, how))
        if (state.enter_cells >> nxt) & 1:
            state.ruleset.on_enter(state, piece, here, nxt, how)
            if piece.cell != nxt or not piece.alive:
                break
        here = nxt
    return True
