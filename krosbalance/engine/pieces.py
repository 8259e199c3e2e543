"""Putting pieces on the board, moving them, and taking them off, keeping the bitmasks in step.

``fixed_sight`` holds the cells that block line of sight without a piece on them: the trees, and
what a ruleset adds with :func:`block_sight` (Blast's Fog tiles).
"""

from __future__ import annotations

from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.powers import INVISIBLE_POWERS
from krosbalance.engine.state import TRAP, Fighter, MatchState


def spawn(
    state: MatchState,
    spec: CharacterSpec,
    side: int,
    summoner: Fighter | None = None,
    summon_spell: str = "",
) -> Fighter:
    """A new fighter (not yet on the board), with the spells the ruleset gives it (Arena: Krosmasters
    also get the punch, R-A39)."""
    fighter = Fighter(
        state.next_uid,
        spec,
        side,
        state.ruleset.spells_for(spec),
        summoner,
        summon_spell,
        state.team_of[side],
    )
    state.next_uid += 1
    state.fighters.append(fighter)
    return fighter


def blocks_sight(fighter: Fighter) -> bool:
    """Characters block line of sight unless Tiny; bombs and traps never do (R-A78, R-A103)."""
    return fighter.is_character and not fighter.has("tiny")


def place(state: MatchState, fighter: Fighter, cell: int) -> None:
    """Put a piece on a cell. Traps sit on free cells without becoming obstacles (R-A116)."""
    fighter.cell = cell
    if fighter.kind == TRAP:
        state.traps[cell] = fighter
        return
    state.by_cell[cell] = fighter
    bit = 1 << cell
    state.obstacles |= bit
    if blocks_sight(fighter):
        state.sight_blockers |= bit
    if not fighter.powers.isdisjoint(INVISIBLE_POWERS):
        state.invisible |= bit  # R-A108: see engine.legal.sight_blockers_from


def lift(state: MatchState, fighter: Fighter) -> None:
    """Take a piece off its cell (it keeps no cell)."""
    cell = fighter.cell
    if cell < 0:
        return
    if fighter.kind == TRAP:
        if state.traps.get(cell) is fighter:
            del state.traps[cell]
    else:
        state.by_cell[cell] = None
        mask = ~(1 << cell)
        state.obstacles &= mask
        if not (state.fixed_sight >> cell) & 1:
            state.sight_blockers &= mask
        state.invisible &= mask
    fighter.cell = -1


def relocate(state: MatchState, fighter: Fighter, cell: int) -> None:
    lift(state, fighter)
    place(state, fighter, cell)


def swap(state: MatchState, a: Fighter, b: Fighter) -> None:
    """Exchange the cells of two pieces (a special movement: no Lock, R-A95)."""
    cell_a, cell_b = a.cell, b.cell
    lift(state, a)
    lift(state, b)
    place(state, a, cell_b)
    place(state, b, cell_a)


def block_sight(state: MatchState, cell: int) -> None:
    """A cell starts blocking line of sight without a piece on it (Blast: a Fog tile)."""
    bit = 1 << cell
    state.fixed_sight |= bit
    state.sight_blockers |= bit


def unblock_sight(state: MatchState, cell: int) -> None:
    """A cell of ``fixed_sight`` stops blocking line of sight (a destroyed tree, a Fog tile gone);
    a piece standing there still blocks as it would anyway."""
    bit = 1 << cell
    state.fixed_sight &= ~bit
    piece = state.by_cell[cell]
    if piece is None or not blocks_sight(piece):
        state.sight_blockers &= ~bit
