"""Glyph cells, their capture and the Dofus token (R-B14-R-B16, R-B41).

A Krosmaster that enters a glyph cell captures it for its player: the glyph tile shows his colour
(an opponent's tile is flipped). Invocations may stand on glyph cells but never capture them. The
player who captures a glyph and does not hold the Dofus token takes it, except during the first
player's first turn. Entering by walking always captures; by a spell or bonus effect or by sliding
on Ice it captures when the options ``glyph_capture_by_effect`` / ``glyph_capture_by_slide`` say so
(R-B16 gap). The counters of the Divine Challenge study (most glyphs held, the turn each tier was
first reached) are updated here, where glyph counts change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.events import FULL
from krosbalance.engine.state import KROSMASTER
from krosbalance.rulesets.blast.events import DofusTaken, GlyphCaptured
from krosbalance.rulesets.blast.passives import on_capture, refresh_range

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState

TIER_GLYPHS: tuple[int, ...] = (1, 3, 5)  # R-B41
WALK, SLIDE = "walk", "slide"


def captures_by(how: str, opts: BlastOptions) -> bool:
    """Whether entering a glyph cell this way (``events.Moved.how``) captures it (R-B14, R-B16)."""
    if how == WALK:
        return True
    if how == SLIDE:
        return opts.glyph_capture_by_slide
    return opts.glyph_capture_by_effect


def enter_glyph(
    state: MatchState, bs: BlastState, piece: Fighter, cell: int, how: str, opts: BlastOptions
) -> None:
    """A piece entered a glyph cell: a Krosmaster captures it (R-B14)."""
    if piece.kind == KROSMASTER and piece.alive and captures_by(how, opts):
        take_glyph(state, bs, piece.side, cell, piece)


def take_glyph(state: MatchState, bs: BlastState, side: int, cell: int, by: Fighter | None) -> bool:
    """``side`` captures the glyph cell ``cell`` (nothing happens if it is already his). Returns
    whether it changed hands. The Krosmaster ``by`` triggers the capture passives (Territorial,
    Baaaston!...) with the glyph count its player had *before* the capture (R-B41 example)."""
    bit = 1 << cell
    if bs.owned[side] & bit:
        return False
    before = bs.owned[side].bit_count()
    flipped = bool(bs.owned[1 - side] & bit)
    bs.owned[1 - side] &= ~bit
    bs.owned[side] |= bit
    bs.captures[side] += 1
    count = before + 1
    if count > bs.peak[side]:
        bs.peak[side] = count
        turns = bs.tier_turn[side]
        for i, need in enumerate(TIER_GLYPHS):
            if count >= need and turns[i] == 0:
                turns[i] = state.turn
    if state.record >= FULL:
        uid = -1 if by is None else by.uid
        state.events.append(GlyphCaptured(state.turn, uid, side, cell, flipped, (bs.glyphs(0), bs.glyphs(1))))
    if bs.dofus != side and state.turn != 1:  # R-B15: not during the first player's first turn
        bs.dofus = side
        if state.record >= FULL:
            state.events.append(DofusTaken(state.turn, side))
    if by is not None and by.alive:
        on_capture(state, bs, by, before)
    refresh_range(state, bs)
    return True
