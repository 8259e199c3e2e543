"""Invariants every match state must satisfy between two actions.

``check_invariants`` is what the conformance battery runs before every decision of every AI, i.e.
after every action the engine carried out. It recomputes from scratch what the engine keeps
incrementally (occupancy, the obstacle and line-of-sight bitmasks) and asks the ruleset for its own
laws (``MatchRules.state_problems``: Arena's GG and kama totals), and raises
``AssertionError`` with a message that names the piece, the cell and the two disagreeing values, so a
failing battery match can be replayed from its seed and read without a debugger.

The checks follow the rules they protect: injuries within 0..HP (R-A9, R-A10), one piece per cell
and nothing standing in a tree or a bush (R-A7, R-A120-R-A122), AP/MP and markers never negative
(R-A33-R-A35), the ruleset's own laws (Arena: GG conserved except the tension losses, kamas
conserved between the board, the stocks and the box reserve), KO'd pieces and
the tokens of a KO'd Krosmaster off the board (R-A10, R-A113), no Krosmaster standing on a trap
(R-A116), and nothing of an instant left unsettled between two actions (``engine.instant``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.pieces import blocks_sight
from krosbalance.engine.state import KROSMASTER, TRAP

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState

__all__ = ["check_invariants"]

_MARKERS = ("plus_mp", "minus_mp", "plus_ap", "minus_ap")


def _who(f: Fighter) -> str:
    return f"{f.spec.id}#{f.uid} (side {f.side})"


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _fail(state: MatchState, message: str) -> None:
    raise AssertionError(f"invariant broken at turn {state.turn} (board {state.board.id}): {message}")


def check_invariants(state: MatchState, *, mid_instant: bool = False) -> None:
    """Raise AssertionError, naming what is wrong, if ``state`` breaks an invariant; else return None.

    ``mid_instant``: the state is inside an instant that asks a player (four-player Arena asks whom a
    self-KO's GG goes to while the KO settles, R-A155, and whom a tension double hurts, R-A157), so
    the instant's KOs and holdings are not settled yet (the active piece may be among the KO'd);
    everything else must hold."""
    board = state.board
    n_cells = board.n_cells
    opts = state.opts

    # --- scenery: only the optional destruction rule removes any, and none is ever added
    for name in ("trees", "bushes", "crates"):
        live, printed = getattr(state, name), getattr(board, name)
        if live & ~printed:
            _fail(state, f"{name} on cells {_cells(live & ~printed)} that the board does not have")
        if not opts.scenery_destruction and live != printed:
            _fail(state, f"{name} changed without scenery_destruction: missing {_cells(printed & ~live)}")
    walls = state.trees | state.bushes

    # --- pieces: in play, KO'd, injuries, AP/MP, markers
    occupied = 0
    blockers = 0
    by_id: set[int] | None = None
    uids = set()
    for f in state.fighters:
        if f.uid in uids:
            _fail(state, f"uid {f.uid} used twice")
        uids.add(f.uid)
        if not f.alive:
            if f.cell != -1:
                _fail(state, f"KO'd piece {_who(f)} still on cell {f.cell}")
            continue
        if f.summoner is not None:
            if by_id is None:
                by_id = {id(g) for g in state.fighters}
            if id(f.summoner) not in by_id:
                _fail(state, f"{_who(f)} has a summoner that is not in the match")
            if not f.summoner.alive:
                _fail(state, f"{_who(f)} is in play but its summoner {_who(f.summoner)} is KO")
        if f.cell < 0:
            if f.kind != KROSMASTER or state.turn > 0:
                _fail(state, f"living piece {_who(f)} has no cell")
            continue
        if f.cell >= n_cells:
            _fail(state, f"{_who(f)} is on cell {f.cell}, outside the {n_cells}-cell board")
        if not 0 <= f.injuries <= f.hp:
            _fail(state, f"{_who(f)} has {f.injuries} injuries for {f.hp} HP")
        if f.injuries >= f.hp and f.kind != TRAP:
            _fail(state, f"{_who(f)} has {f.injuries} injuries = HP {f.hp} but is not KO")
        if f.mp < 0 or f.ap < 0:
            _fail(state, f"{_who(f)} has negative MP/AP: {f.mp} MP, {f.ap} AP")
        if min(f.plus_mp, f.minus_mp, f.plus_ap, f.minus_ap) < 0:
            for marker in _MARKERS:
                if getattr(f, marker) < 0:
                    _fail(state, f"{_who(f)} has {getattr(f, marker)} {marker} markers")
        bit = 1 << f.cell
        if walls & bit:
            _fail(state, f"{_who(f)} stands on cell {f.cell}, a tree or bush")
        if f.kind == TRAP:
            if state.traps.get(f.cell) is not f:
                _fail(state, f"trap {_who(f)} on cell {f.cell} is not in state.traps")
            continue
        if occupied & bit:
            other = next(g for g in state.fighters if g.alive and g.cell == f.cell and g is not f)
            _fail(state, f"two pieces on cell {f.cell}: {_who(other)} and {_who(f)}")
        occupied |= bit
        if blocks_sight(f):
            blockers |= bit
        if state.by_cell[f.cell] is not f:
            _fail(state, f"by_cell[{f.cell}] is {state.by_cell[f.cell]!r}, but {_who(f)} stands there")

    # every piece in play is in by_cell at its own cell (above), so equal counts leave no stray entry
    if len(state.by_cell) - state.by_cell.count(None) != occupied.bit_count():
        for cell, piece in enumerate(state.by_cell):
            if piece is not None and (not piece.alive or piece.cell != cell or piece.kind == TRAP):
                _fail(state, f"by_cell[{cell}] holds {piece!r}, which is not a living piece on that cell")
    for cell, trap in state.traps.items():
        if trap.kind != TRAP or not trap.alive or trap.cell != cell:
            _fail(state, f"state.traps[{cell}] holds {trap!r}, not a living trap on that cell")
        piece = state.by_cell[cell]
        if piece is not None and piece.kind == KROSMASTER:
            # a character moving onto a trap springs it (R-A116); a creature may be summoned onto a
            # trap's cell (it stays free, R-A64) and a bomb may be pushed there, but a Krosmaster
            # only ever gets there by moving
            _fail(state, f"{piece!r} ended a movement on the trap on cell {cell} (R-A116)")
    if state.pending_bombs:
        _fail(state, f"bombs waiting to explode between actions: {state.pending_bombs}")
    if not mid_instant and (state.pending_kos or state.unsettled):
        _fail(state, f"an instant left unsettled between actions: KOs {state.pending_kos}")

    # --- bitmasks equal what recomputing them gives
    if state.obstacles != walls | occupied:
        _fail(
            state,
            f"obstacles mask is off: extra cells {_cells(state.obstacles & ~(walls | occupied))}, "
            f"missing cells {_cells((walls | occupied) & ~state.obstacles)}",
        )
    if state.trees & ~state.fixed_sight:
        _fail(state, f"trees on cells {_cells(state.trees & ~state.fixed_sight)} missing from fixed_sight")
    want_sight = state.fixed_sight | blockers
    if state.sight_blockers != want_sight:
        _fail(
            state,
            f"sight_blockers mask is off: extra cells {_cells(state.sight_blockers & ~want_sight)}, "
            f"missing cells {_cells(want_sight & ~state.sight_blockers)}",
        )

    # --- Timelines and summon control
    for side in (0, 1):
        for f in state.timeline[side]:
            if f.side != side or f.kind != KROSMASTER:
                _fail(state, f"{_who(f)} is in the Timeline of side {side}")
    for f in state.fighters:
        for spell in f.spells:
            if spell.summon_control:
                in_play = sum(1 for t in f.summons if t.alive and t.summon_spell == spell.id)
                if in_play > spell.summon_control:
                    _fail(
                        state,
                        f"{_who(f)} controls {in_play} tokens of {spell.id}, limit {spell.summon_control}",
                    )

    # --- the ruleset's own laws (Arena: GG and kamas conserved)
    for problem in state.ruleset.state_problems(state):
        _fail(state, problem)

    # --- the match clock
    if state.turn > opts.turn_limit:
        _fail(state, f"turn {state.turn} is past the turn limit {opts.turn_limit}")
    if state.active is not None and not state.active.alive and not mid_instant:
        _fail(state, f"the active piece {_who(state.active)} is KO")
