"""What a replay's builder knows while it walks a match's events: the pieces, the holdings, the cell
markers and the step being cut (:class:`FrameState`), and how it names figures, squares and seats.

The builder (:mod:`krosbalance.render.frames`) starts from the match's first checkpoint
(:mod:`krosbalance.render.checkpoints`) and takes each later one when its events have happened;
a piece whose HP or square, as counted from the events, differs from a checkpoint is listed in
``mismatches``. A step is closed into a frame: the board, the score and the step's text after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from krosbalance.render.checkpoints import Checkpoint
from krosbalance.render.notation import cell_name

#: the seats' colours, in seat order
SEAT_NAMES = ("Blue", "Red", "Green", "Gold")


@dataclass
class FramePiece:
    """One piece as the replay counts it: who it is, where it stands, its HP and injuries."""

    uid: int
    character: str
    name: str
    seat: int
    kind: str
    level: int
    cell: int
    hp: int
    injuries: int
    alive: bool


def humanize(identifier: str) -> str:
    """``plaguing_arrow`` -> ``Plaguing Arrow`` (ids of rewards, favors, bonuses without a name)."""
    tail = identifier.split(":", 1)[-1]
    return " ".join(
        word.capitalize() for word in tail.replace("/", " / ").replace("-", "_").split("_") if word
    )


def plural(n: int, word: str) -> str:
    """``1 kama``, ``3 kamas``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class FrameState:
    """The pieces, holdings and markers of a match being replayed, and the step being cut."""

    def __init__(self, result: Any, board: Any) -> None:
        checkpoints: Sequence[Checkpoint] = result.checkpoints
        if not checkpoints:
            raise ValueError("the match was played without record='full': it has no replay checkpoints")
        self.result = result
        self.width = int(board.width)
        self.checkpoints = list(checkpoints)
        self.next_checkpoint = 0
        last = self.checkpoints[-1]
        self.spells = dict(last.spells)
        self.roster = {p[0]: p for p in last.pieces}
        self.pieces: dict[int, FramePiece] = {}
        self.values: dict[str, Any] = {}
        self.marks: dict[str, dict[int, int]] = {}
        self.mismatches: list[str] = []
        self.labels = self._labels()
        self.summoner: dict[int, int] = {}  # summon uid -> its summoner's uid
        self.n_seats = len(result.teams)
        self.frames: list[dict[str, Any]] = []
        self.step: dict[str, Any] | None = None
        self.actor: int | None = None
        self.mp = self.ap = 0
        self.turn = 0
        self.seat = -1
        self._apply_checkpoint(self.checkpoints[0], check=False)
        self.next_checkpoint = 1

    # -------------------------------------------------------------------------------- naming
    def _labels(self) -> dict[int, str]:
        counts: dict[str, int] = {}
        for piece in self.roster.values():
            counts[piece[2]] = counts.get(piece[2], 0) + 1
        return {uid: (p[2] if counts[p[2]] == 1 else f"{p[2]} #{uid}") for uid, p in self.roster.items()}

    def who(self, uid: int) -> str:
        if uid < 0:
            return "nobody"
        return self.labels.get(uid, f"#{uid}")

    def sq(self, cell: int) -> str:
        return cell_name(cell, self.width)

    def at(self, uid: int) -> str:
        """A figure with its square: ``Bill Tell (F1)``."""
        piece = self.pieces.get(uid)
        return (
            self.who(uid) if piece is None or piece.cell < 0 else f"{self.who(uid)} ({self.sq(piece.cell)})"
        )

    def hp(self, uid: int) -> str:
        piece = self.pieces.get(uid)
        return "" if piece is None else f"{max(0, piece.hp - piece.injuries)}/{piece.hp} HP"

    def seat_name(self, seat: int) -> str:
        return f"player {seat} ({SEAT_NAMES[seat % len(SEAT_NAMES)]})"

    def spell(self, uid: int, spell: str) -> tuple[str, int, int]:
        """The display name, AP cost and MP cost of a figure's spell."""
        character = self.roster[uid][1] if uid in self.roster else ""
        return self.spells.get(f"{character}/{spell}") or (humanize(spell), 0, 0)

    # ------------------------------------------------------------------------------ the state
    def _apply_checkpoint(self, checkpoint: Checkpoint, check: bool = True) -> None:
        for uid, character, name, seat, kind, level, cell, hp, injuries, alive in checkpoint.pieces:
            piece = self.pieces.get(uid)
            if check and piece is not None and (piece.alive or alive):
                counted = (piece.cell, piece.hp - piece.injuries if piece.alive else 0, piece.alive)
                exact = (cell, hp - injuries if alive else 0, alive)
                if counted != exact:
                    self.mismatches.append(
                        f"turn {checkpoint.turn}: {self.who(uid)} counted (cell, HP, alive) {counted}, "
                        f"the engine had {exact}"
                    )
            if piece is None and not alive and cell < 0 and uid not in self.pieces and check:
                pass  # a summon that came and went within the turn: nothing to correct
            self.pieces[uid] = FramePiece(uid, character, name, seat, kind, level, cell, hp, injuries, alive)
        self.values = {k: (list(v) if isinstance(v, tuple) else v) for k, v in checkpoint.values.items()}
        self.marks = {name: dict(cells) for name, cells in checkpoint.marks.items()}

    def _maybe_checkpoint(self, done: int) -> None:
        """Take the checkpoint recorded once ``done`` events had happened, if there is one."""
        while self.next_checkpoint < len(self.checkpoints):
            checkpoint = self.checkpoints[self.next_checkpoint]
            if checkpoint.event_index > done:
                return
            self._apply_checkpoint(checkpoint)
            self.next_checkpoint += 1

    def _seat_of(self, uid: int) -> int:
        piece = self.pieces.get(uid)
        if piece is not None:
            return piece.seat
        return int(self.roster[uid][3]) if uid in self.roster else -1

    def _bump(self, name: str, seat: int, amount: int) -> None:
        values = self.values.get(name)
        if isinstance(values, list) and 0 <= seat < len(values):
            values[seat] = int(values[seat]) + amount

    # -------------------------------------------------------------------------------- steps
    def _open(self, kind: str) -> dict[str, Any]:
        self._close()
        self.step = {"kind": kind, "text": [], "dice": [], "cells": [], "walker": None}
        return self.step

    def _current(self) -> dict[str, Any]:
        return self.step if self.step is not None else self._open("other")

    def _close(self) -> None:
        step = self.step
        if step is None:
            return
        self.step = None
        self.frames.append(self._frame(step))

    def _frame(self, step: dict[str, Any]) -> dict[str, Any]:
        actor = self.actor if self.actor is not None and self.actor in self.pieces else None
        return {
            "index": len(self.frames),
            "kind": step["kind"],
            "turn": self.turn,
            "seat": self.seat,
            "actor": actor,
            "mp": self.mp if actor is not None else None,
            "ap": self.ap if actor is not None else None,
            "text": list(step["text"]),
            "dice": list(step["dice"]),
            "cells": list(dict.fromkeys(step["cells"])),
            "pieces": [
                [p.uid, p.cell, max(0, p.hp - p.injuries), p.hp]
                for p in sorted(self.pieces.values(), key=lambda p: p.uid)
                if p.alive and p.cell >= 0
            ],
            "ko": sorted(p.uid for p in self.pieces.values() if not p.alive),
            "holdings": self._holdings(),
            "marks": {name: {str(c): v for c, v in cells.items()} for name, cells in self.marks.items()},
        }

    def _holdings(self) -> list[list[list[Any]]]:
        """Per seat, ``[label, value]`` pairs of the ruleset's holdings the page shows."""
        out: list[list[list[Any]]] = []
        v = self.values
        for seat in range(self.n_seats):
            items: list[list[Any]] = []
            for key, label in (
                ("gg", "GG"),
                ("kamas", "kamas"),
                ("glyphs", "glyphs"),
                ("favors_used", "favors used"),
                ("tokens_held", "tokens held"),
            ):
                if isinstance(v.get(key), list) and seat < len(v[key]):
                    items.append([label, v[key][seat]])
            if v.get("dofus") == seat:
                items.append(["Dofus", "held"])
            out.append(items)
        return out
