"""Special terrain tiles: Ice, Fire and Fog (R-B44-R-B48), and what entering a cell does in Blast.

A tile goes on a free cell (no tree, bush or Combatant), never on a glyph cell or another tile, and
at most ``terrain_max_per_type`` tiles of one type lie on the board: placing one more first removes
one of that type, which the placing player chooses (R-B45). Fog blocks line of sight (the engine's
``fixed_sight``) and dissipates when a Combatant enters it; Fire injures whoever enters it; a
Combatant entering Ice from an adjacent cell slides one more cell the same way (R-B46-R-B48).

:func:`enter` is the ruleset's ``on_enter`` hook: the engine calls it when a piece enters a cell of
``state.enter_cells`` (glyph cells and tiles) by walking or by a special movement. The readings of
the gaps are the file's ``[choices]`` and options: a slide is free, is no walk (no dodge roll),
and does not happen when the next cell is off the board or blocked; a slide that ends on Ice slides
again under ``ice_slide_chain``; movements by effects trigger tiles under
``terrain_on_forced_moves``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.combat import inflict
from krosbalance.engine.events import FULL, Moved
from krosbalance.engine.pieces import block_sight, relocate, unblock_sight
from krosbalance.engine.state import ELEMENT_INDEX
from krosbalance.rulesets.blast.combat import combat_die
from krosbalance.rulesets.blast.events import TerrainChanged
from krosbalance.rulesets.blast.glyphs import SLIDE, WALK, enter_glyph
from krosbalance.rulesets.blast.state import FIRE, FOG, ICE, TERRAIN_NAMES

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState

FIRE_ELEMENT = ELEMENT_INDEX["fire"]


def placeable(state: MatchState, bs: BlastState) -> int:
    """Cells a tile may go on now: free, not a glyph cell, no tile (R-B44)."""
    return state.board.all_cells & ~state.obstacles & ~bs.glyph_cells & ~bs.all_tiles()


def refresh_enter_cells(state: MatchState, bs: BlastState) -> None:
    """The cells whose entering calls ``on_enter``: glyph cells and tiles."""
    state.enter_cells = bs.glyph_cells | bs.all_tiles()


def place_tile(
    state: MatchState, bs: BlastState, kind: int, cell: int, removed: int, opts: BlastOptions
) -> None:
    """Put a tile of ``kind`` on ``cell``; when the type is at its limit, ``removed`` (one of its
    tiles, the placing player's choice) is taken off first (R-B45). Legality is the caller's."""
    if len(bs.tiles[kind]) >= opts.terrain_max_per_type:
        remove_tile(state, bs, kind, removed)
    bs.tiles[kind].append(cell)
    if kind == FOG:
        block_sight(state, cell)
    refresh_enter_cells(state, bs)
    if state.record >= FULL:
        state.events.append(TerrainChanged(state.turn, TERRAIN_NAMES[kind], cell, True))


def remove_tile(state: MatchState, bs: BlastState, kind: int, cell: int) -> None:
    """Take a tile off the board (a fifth of its type placed, a Fog dissipated)."""
    bs.tiles[kind].remove(cell)
    if kind == FOG:
        unblock_sight(state, cell)
    refresh_enter_cells(state, bs)
    if state.record >= FULL:
        state.events.append(TerrainChanged(state.turn, TERRAIN_NAMES[kind], cell, False))


def enter(
    state: MatchState,
    bs: BlastState,
    piece: Fighter,
    origin: int,
    cell: int,
    how: str,
    opts: BlastOptions,
    may_slide: bool = True,
) -> None:
    """A piece entered ``cell`` from ``origin`` (``how`` as in ``events.Moved``): glyph capture,
    Fog dissipating, Fire injuring, Ice sliding (R-B14, R-B46-R-B48)."""
    if not piece.alive:
        return
    if (bs.glyph_cells >> cell) & 1:  # a glyph cell never holds a tile (R-B44)
        enter_glyph(state, bs, piece, cell, how, opts)
        return
    kind = bs.terrain_at(cell)
    if kind < 0 or (how != WALK and how != SLIDE and not opts.terrain_on_forced_moves):
        return
    if kind == FOG:  # R-B48
        remove_tile(state, bs, FOG, cell)
    elif kind == FIRE:  # R-B47
        burn(state, piece, opts)
    elif kind == ICE and may_slide:  # R-B46
        slide_on_ice(state, bs, piece, origin, cell, opts)


def burn(state: MatchState, piece: Fighter, opts: BlastOptions) -> None:
    """Fire injures the piece entering it; a combat roll changes it under ``fire_combat_roll``."""

    amount = opts.fire_damage
    if opts.fire_combat_roll:
        amount += combat_die(state, piece, opts)
    if amount > 0:
        inflict(state, None, piece, amount, FIRE_ELEMENT)


def slide_on_ice(
    state: MatchState, bs: BlastState, piece: Fighter, origin: int, cell: int, opts: BlastOptions
) -> None:
    """One more cell the same way, if the piece came from an adjacent cell and the next cell is on
    the board and enterable; the next cell is entered as a slide (R-B46)."""
    board = state.board
    if board.distance[origin][cell] != 1:
        return
    (x0, y0), (x1, y1) = board.xy(origin), board.xy(cell)
    nxt = board.step(cell, x1 - x0, y1 - y0)
    if nxt < 0 or (state.obstacles >> nxt) & 1:
        return
    relocate(state, piece, nxt)
    if state.record >= FULL:
        state.events.append(Moved(state.turn, piece.uid, cell, nxt, SLIDE))
    if (state.enter_cells >> nxt) & 1:
        enter(state, bs, piece, cell, nxt, SLIDE, opts, may_slide=opts.ice_slide_chain)


__all__ = ["FIRE", "FOG", "ICE", "burn", "enter", "place_tile", "placeable", "remove_tile", "slide_on_ice"]
