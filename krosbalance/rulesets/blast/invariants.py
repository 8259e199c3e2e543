"""Blast's invariants, checked by the conformance kit through the ruleset's ``state_problems`` hook:
glyph ownership (R-B14), terrain tiles (R-B44, R-B45), the Fog in the sight blockers (R-B48), the
Dofus token and the favor deck (R-B9, R-B15)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from krosbalance.rulesets.blast.state import FOG, SLOTS, TERRAIN_NAMES

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState


def blast_problems(state: MatchState, bs: BlastState, opts: BlastOptions) -> list[str]:
    """Every broken Blast invariant, as a message naming the values that disagree."""
    problems = []
    if bs.owned[0] & bs.owned[1]:
        problems.append(f"glyph cells owned by both players: {bs.owned[0] & bs.owned[1]:#x}")
    if (bs.owned[0] | bs.owned[1]) & ~bs.glyph_cells:
        problems.append("a glyph tile lies on a cell that is not a glyph cell")
    seen = 0
    for kind, cells in enumerate(bs.tiles):
        name = TERRAIN_NAMES[kind]
        if len(cells) > opts.terrain_max_per_type:
            problems.append(
                f"{len(cells)} {name} tiles on the board; at most {opts.terrain_max_per_type} (R-B45)"
            )
        for cell in cells:
            bit = 1 << cell
            if seen & bit:
                problems.append(f"two terrain tiles on cell {cell} (R-B44)")
            if bs.glyph_cells & bit:
                problems.append(f"a {name} tile on glyph cell {cell} (R-B44)")
            if (state.trees | state.bushes) & bit:
                problems.append(f"a {name} tile under scenery on cell {cell} (R-B44)")
            seen |= bit
    fog = bs.terrain(FOG)
    if state.fixed_sight != state.trees | fog:
        problems.append(
            f"sight blockers other than trees and Fog: {state.fixed_sight ^ (state.trees | fog):#x}"
        )
    if state.enter_cells != bs.glyph_cells | seen:
        problems.append("enter_cells is not the glyph cells and the tiles")
    if bs.dofus not in (0, 1):
        problems.append(f"the Dofus token is with {bs.dofus}")
    revealed = sum(1 for slot in bs.slots if slot is not None)
    if len(bs.slots) != SLOTS or revealed > min(SLOTS, state.turn):
        problems.append(f"{revealed} favors revealed after {state.turn} turns")
    if len(bs.deck) + min(state.turn, opts.favor_deck_size) != opts.favor_deck_size:
        problems.append(
            f"{len(bs.deck)} favors left after {state.turn} turns of a deck of {opts.favor_deck_size}"
        )
    return problems


def blast_snapshot(bs: BlastState) -> tuple[Any, ...]:
    """Blast's holdings as plain comparable values."""
    return (
        tuple(bs.owned),
        tuple(tuple(cells) for cells in bs.tiles),
        bs.dofus,
        tuple(f.id for f in bs.deck),
        tuple(None if f is None else f.id for f in bs.slots),
        tuple(bs.slot_used),
        tuple(sorted(bs.bonus_used)),
        tuple(sorted(bs.spell_bonus.items())),
        tuple(sorted(bs.rerolled)),
        tuple(bs.peak),
        tuple(tuple(t) for t in bs.tier_turn),
    )
