"""What a replay knows for certain at a few moments: every piece and the holdings, after deployment
and at each turn end.

The event log says what happened step by step, but not everything a viewer shows: deployment
records no event, and some changes (kamas taken from the reserve, max HP raised by a reward, a spell's
injury cost) have no event of their own. ``play_match(..., record="full")`` therefore stores one
:class:`Checkpoint` after deployment, one after every game turn and one at the end; the frame builder
(:mod:`krosbalance.render.frames`) steps through the events from one checkpoint to the next and
starts each turn from the checkpoint's exact values. Recording them costs nothing at the ``none`` and
``summary`` levels, which store none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from krosbalance.engine.match import summarise
from krosbalance.rulesets.blast.state import TERRAIN_NAMES

#: (uid, character id, name, seat, kind, level, cell (-1 off the board), max HP, injuries, alive)
Piece = tuple[int, str, str, int, str, int, int, int, int, bool]


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The pieces and holdings once the first ``event_index`` events had happened.

    Attributes:
        event_index: how many events of the log had been recorded.
        turn: the game turn just played (0: after deployment).
        pieces: every piece ever in play (``Piece`` tuples), summons and KO'd pieces included.
        values: the ruleset's holdings as its result declares them (Arena's ``gg`` and ``kamas``,
            Blast's ``glyphs``…; per-seat values are tuples).
        marks: what lies on cells, by name: ``kamas`` (Arena: kama tokens per cell), ``glyph``
            (Blast: the seat holding each glyph cell), ``ice``/``fire``/``fog`` (Blast's terrain
            tiles, value 1), ``token`` (Duel: the level of the token on each duel cell).
        spells: ``"character id/spell id"`` -> (display name, AP cost, MP cost), for every spell of
            every piece (filled in the last checkpoint only, where every piece has been seen).
    """

    event_index: int
    turn: int
    pieces: tuple[Piece, ...]
    values: dict[str, Any]
    marks: dict[str, dict[int, int]]
    spells: dict[str, tuple[str, int, int]] = field(default_factory=dict)


def _marks(state: Any) -> dict[str, dict[int, int]]:
    """Cell markers of the ruleset's own state, read by attribute so this module needs no ruleset."""
    rules = state.rules
    marks: dict[str, dict[int, int]] = {}
    board_kamas = getattr(rules, "board_kamas", None)
    if board_kamas is not None:  # Arena
        marks["kamas"] = {cell: n for cell, n in enumerate(board_kamas) if n}
    owned = getattr(rules, "owned", None)
    if owned is not None and hasattr(rules, "glyph_cells"):  # Blast
        marks["glyph"] = {cell: seat for seat, mask in enumerate(owned) for cell in _cells(mask)}

        for kind, cells in enumerate(rules.tiles):
            marks[TERRAIN_NAMES[kind]] = dict.fromkeys(cells, 1)
    on_cells = getattr(rules, "on_cells", None)
    if on_cells is not None:  # Duel
        marks["token"] = {cell: int(token.level) for cell, token in on_cells.items()}
    return marks


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def take_checkpoint(state: Any, seed: int = 0, last: bool = False) -> Checkpoint:
    """The checkpoint of a match state now (``last``: also every spell's display name)."""
    pieces = tuple(
        (
            f.uid,
            f.spec.id,
            f.spec.name,
            f.side,
            f.kind,
            f.level,
            f.cell if f.alive else -1,
            f.hp,
            f.injuries,
            bool(f.alive),
        )
        for f in state.fighters
    )
    spells = (
        {f"{f.spec.id}/{s.id}": (s.name, s.ap_cost, s.mp_cost) for f in state.fighters for s in f.spells}
        if last
        else {}
    )
    values = dict(summarise(state, seed).values)
    return Checkpoint(len(state.events), state.turn, pieces, values, _marks(state), spells)
