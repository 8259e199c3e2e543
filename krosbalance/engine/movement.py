"""Walking with Lock and Dodge (R-A40-R-A47), and special movement from spells (R-A83-R-A87, R-A95).

Special movement is never subject to Lock; it goes one cell at a time and stops before the first
obstacle or the board edge. A trap is triggered only where a movement ends (R-A87, R-A171).
"""

from __future__ import annotations

from krosbalance.engine.dice import DODGE, LOCK, count_successes
from krosbalance.engine.events import FULL, LockRolled, Moved
from krosbalance.engine.pieces import relocate
from krosbalance.engine.powers import dice_for
from krosbalance.engine.state import Fighter, MatchState


def adjacent_lockers(state: MatchState, mover: Fighter) -> list[Fighter]:
    """Enemy characters adjacent to the mover that may lock it: not Tiny, not mechanisms (R-A44)."""
    lockers = []
    for cell in state.board.neighbours[mover.cell]:
        piece = state.by_cell[cell]
        if (
            piece is not None
            and piece.alive
            and piece.side != mover.side
            and piece.is_character
            and not piece.has("tiny")
        ):
            lockers.append(piece)
    return lockers


def held_fast(state: MatchState, mover: Fighter) -> bool:
    """R-A48: an enemy with Perfect Lock (a Demonic Reward upgrade) is adjacent, so the mover may not
    spend MP to leave melee contact with it — every step from an orthogonally adjacent cell does.
    Tiny characters are not affected by the Lock rules (R-A103)."""
    if mover.has("tiny"):
        return False
    adjacent = state.board.neighbour_mask[mover.cell]
    for holder in state.lock_holders:
        if (
            holder.alive
            and holder.cell >= 0
            and holder.side != mover.side
            and (adjacent >> holder.cell) & 1
            and holder.has("perfect_lock")
        ):
            return True
    return False


def walk(state: MatchState, mover: Fighter, destination: int) -> bool:
    """Spend 1 MP to step to an adjacent free cell; each adjacent enemy may lock (R-A41-R-A47).

    Returns False when the mover was blocked: it stays, and loses its remaining MP (and AP, under
    the default ``lock_block_ends_turn``). A Dodge roll is made only against a lock roll with at
    least one success: with none, the mover escapes whatever it rolls.
    """
    mover.mp -= 1
    if not mover.has("tiny"):
        for locker in adjacent_lockers(state, mover):
            lock, lock_faces = count_successes(state.dice, dice_for(locker, LOCK), LOCK)
            dodge = 0
            if lock:
                dodge, _ = count_successes(state.dice, dice_for(mover, DODGE), DODGE)
            blocked = lock > dodge
            if state.record >= FULL:
                state.events.append(LockRolled(state.turn, mover.uid, locker.uid, lock, dodge, blocked))
            if blocked:
                mover.mp = 0
                if state.opts.lock_block_ends_turn:
                    mover.ap = 0
                mover.blocked = True
                mover.stats.times_blocked += 1
                return False
    origin = mover.cell
    relocate(state, mover, destination)
    mover.stats.moves += 1
    if state.record >= FULL:
        state.events.append(Moved(state.turn, mover.uid, origin, destination, "walk"))
    if destination in state.traps:
        from krosbalance.engine.combat import trigger_trap

        trigger_trap(state, destination)
    return True


def slide(state: MatchState, piece: Fighter, dx: int, dy: int, cells: int, how: str) -> bool:
    """Move a piece up to ``cells`` cells in a straight line, stopping before an obstacle or the
    edge (R-A87). Returns whether it moved."""
    board = state.board
    origin = cell = piece.cell
    for _ in range(cells):
        nxt = board.step(cell, dx, dy)
        if nxt < 0 or (state.obstacles >> nxt) & 1:
            break
        cell = nxt
    if cell == origin:
        return False
    relocate(state, piece, cell)
    if state.record >= FULL:
        state.events.append(Moved(state.turn, piece.uid, origin, cell, how))
    return True
