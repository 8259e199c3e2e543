"""The frames of a replay: one per step of a match, as plain JSON-ready dicts, built from its events.

A **step** is one thing a player would point at: a turn starting, a Krosmaster's activation, a
walk (consecutive cells merged), a spell with its dice, injuries and KOs, a kama picked up, a turn
end. Each frame holds what the board and the score look like *after* its step: every piece on the
board with its HP, the acting figure with its MP and AP (counted from its activation's start and
the costs of what it did), each seat's holdings (Arena: GG and kamas; Blast: glyphs and favors;
Duel: tokens), the cell markers (kamas, glyphs, terrain tiles, Duel tokens), the dice rolled with
their faces, and the step's text with names and squares (:mod:`krosbalance.render.notation`).

The events say what changed; the match's checkpoints (:mod:`krosbalance.render.checkpoints`) say
where the pieces stood after deployment and what everything was at each turn end. The builder
starts from the first checkpoint, applies the events one by one, and at each turn end takes the
checkpoint's values, so a change without an event of its own (kamas from the reserve, a reward's
max HP) is shown from that turn end on. ``Replay.mismatches`` lists every piece whose HP or square,
as counted from the events, differed from a checkpoint: the tests keep it empty.

The text replay (:mod:`krosbalance.render.replay_text`) and the replay page
(:mod:`krosbalance.render.replay_page`) both read these frames, so they say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from krosbalance.engine.dice import FACE_NAMES
from krosbalance.render.checkpoints import Checkpoint
from krosbalance.render.notation import cell_name

#: events that open a new step; every other event belongs to the step before it
HEADLINES = frozenset(
    {
        "turn_started",
        "character_turn_started",
        "spell_cast",
        "kama_picked",
        "reward_bought",
        "bonus_used",
        "token_picked",
        "tension_rolled",
        "turn_ended",
        "glyph_count",
        "match_ended",
        "favor_revealed",
        "token_drafted",
        "token_held_from_start",
        "token_placed",
        "lock_rolled",
    }
)
TURN_ENDS = frozenset({"turn_ended", "glyph_count"})
MOVE_VERBS = {
    "walk": "walks",
    "push": "is pushed",
    "attract": "is attracted",
    "retreat": "retreats",
    "approach": "approaches",
    "swap": "swaps places",
    "deploy": "is deployed",
    "slide": "slides",
    "carry": "is carried",
    "leap": "leaps",
    "recall": "is recalled",
    "spell_move": "moves",
}
SEAT_NAMES = ("Blue", "Red", "Green", "Gold")


@dataclass
class _Piece:
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


@dataclass
class Replay:
    """A replay's frames and what they refer to (``as_json`` is what the page reads)."""

    board: dict[str, Any]
    seats: list[dict[str, Any]]
    figures: dict[int, dict[str, Any]]
    frames: list[dict[str, Any]]
    meta: dict[str, Any]
    mismatches: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "seats": self.seats,
            "figures": {str(uid): figure for uid, figure in self.figures.items()},
            "frames": self.frames,
            "meta": self.meta,
        }


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def board_json(board: Any) -> dict[str, Any]:
    """The board's size and scenery: cell lists per layer, start zones, Blast/Duel feature cells."""
    return {
        "id": str(board.id),
        "name": str(getattr(board, "name", board.id)),
        "width": int(board.width),
        "height": int(board.height),
        "trees": _cells(board.trees),
        "bushes": _cells(board.bushes),
        "crates": _cells(board.crates),
        "demon": _cells(board.demon_cells),
        "deploy": [_cells(mask) for mask in board.deploy],
        "features": {name: _cells(mask) for name, mask in dict(getattr(board, "features", {})).items()},
    }


def humanize(identifier: str) -> str:
    """``plaguing_arrow`` -> ``Plaguing Arrow`` (ids of rewards, favors, bonuses without a name)."""
    tail = identifier.split(":", 1)[-1]
    return " ".join(
        word.capitalize() for word in tail.replace("/", " / ").replace("-", "_").split("_") if word
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Builder:
    """Walks the events once, keeping the pieces, holdings and markers, and cuts them into steps."""

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
        self.pieces: dict[int, _Piece] = {}
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
            self.pieces[uid] = _Piece(uid, character, name, seat, kind, level, cell, hp, injuries, alive)
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

    # ------------------------------------------------------------------------------- events
    def run(self) -> None:
        events = self.result.events
        for index, event in enumerate(events):
            kind = event.kind
            handler = getattr(self, f"_on_{kind}", None)
            if kind in HEADLINES:
                self._open(kind)
            if handler is None:
                self._current()["text"].append(str(event).strip())
            else:
                handler(event)
            if kind in TURN_ENDS:
                # the checkpoint of this turn's end, so the turn-end line shows exact holdings
                self._turn_end_checkpoint(index, events)
                self._turn_end_line(event)
            self._maybe_checkpoint(index + 1)
        self._close()

    def _turn_end_checkpoint(self, index: int, events: Sequence[Any]) -> None:
        if self.next_checkpoint >= len(self.checkpoints):
            return
        target = self.checkpoints[self.next_checkpoint].event_index
        between = events[index + 1 : target]
        if target > index and all(e.kind not in ("turn_started", "character_turn_started") for e in between):
            self._maybe_checkpoint(target)

    def _on_turn_started(self, e: Any) -> None:
        self.turn, self.seat, self.actor = int(e.turn), int(e.side), None
        self._current()["text"].append(f"Turn {e.turn}: {self.seat_name(e.side)} plays")

    def _on_character_turn_started(self, e: Any) -> None:
        self.actor, self.mp, self.ap = int(e.uid), int(e.mp), int(e.ap)
        self._current()["text"].append(f"{self.at(e.uid)} acts with {e.mp} MP and {e.ap} AP")
        if e.uid in self.pieces:
            self._current()["cells"].append(self.pieces[e.uid].cell)

    def _on_moved(self, e: Any) -> None:
        uid, origin, destination = int(e.uid), int(e.origin), int(e.destination)
        step = self.step
        if e.how == "walk":
            if uid == self.actor:
                self.mp -= 1
            if step is not None and step.get("walker") == uid and step.get("walk_end") == origin:
                step["text"][-1] += f" → {self.sq(destination)}"
            else:
                step = self._open("walk") if step is None or step["kind"] != "lock_rolled" else step
                step["text"].append(f"{self.who(uid)} walks {self.sq(origin)} → {self.sq(destination)}")
            step["walker"], step["walk_end"] = uid, destination
        elif e.how == "swap":  # one event for both pieces: the other goes to the mover's square
            step = self._current()
            other = next(
                (p for p in self.pieces.values() if p.alive and p.cell == destination and p.uid != uid), None
            )
            with_whom = "" if other is None else f" with {self.who(other.uid)}"
            step["text"].append(
                f"{self.who(uid)} swaps places{with_whom}: {self.sq(origin)} ↔ {self.sq(destination)}"
            )
            if other is not None:
                other.cell = origin
        else:
            step = self._current()
            verb = MOVE_VERBS.get(str(e.how), str(e.how))
            if origin < 0 or e.how == "deploy":
                step["text"].append(f"{self.who(uid)} {verb} on {self.sq(destination)}")
            else:
                step["text"].append(f"{self.who(uid)} {verb} {self.sq(origin)} → {self.sq(destination)}")
        step["cells"].extend(c for c in (origin, destination) if c >= 0)
        if uid in self.pieces:
            self.pieces[uid].cell = destination

    def _on_lock_rolled(self, e: Any) -> None:
        verdict = "blocked" if e.blocked else "escapes"
        self._current()["text"].append(
            f"{self.at(e.locker)} locks {self.at(e.mover)}: {e.lock} lock vs {e.dodge} dodge, {verdict}"
        )

    def _on_spell_cast(self, e: Any) -> None:
        uid, target = int(e.uid), int(e.target)
        name, ap_cost, mp_cost = self.spell(uid, e.spell)
        if uid == self.actor:
            self.ap -= ap_cost
            self.mp -= mp_cost
        on = next((p for p in self.pieces.values() if p.alive and p.cell == target and target >= 0), None)
        whom = "" if on is None or on.uid == uid else f" ({self.who(on.uid)})"
        self._current()["text"].append(f"{self.at(uid)} casts {name} on {self.sq(target)}{whom}")
        self._current()["cells"].append(target)
        caster = self.pieces.get(uid)
        if caster is not None and caster.kind == "trap":  # R-A116: a trap goes once it has acted
            caster.alive, caster.cell = False, -1

    def _dice(self, uid: int, roll: str, faces: Sequence[int], result: str) -> None:
        names = [FACE_NAMES[f] if 0 <= f < len(FACE_NAMES) else str(f) for f in faces]
        self._current()["dice"].append({"who": self.who(uid), "roll": roll, "faces": names, "result": result})
        shown = ", ".join(names) if names else "no dice"
        self._current()["text"].append(f"{self.who(uid)} rolls {roll}: {shown} → {result}")

    def _on_dice_rolled(self, e: Any) -> None:
        n = int(e.successes)
        self._dice(int(e.uid), str(e.roll), e.faces, f"{n} success" + ("" if n == 1 else "es"))

    def _on_combat_rolled(self, e: Any) -> None:
        self._dice(int(e.uid), "combat", e.faces, f"{int(e.delta):+d}")

    def _on_dodge_rolled(self, e: Any) -> None:
        from krosbalance.rulesets.blast.rolls import OUTCOMES

        self._dice(int(e.uid), "dodge", e.faces, str(OUTCOMES[e.outcome]))

    def _on_tension_rolled(self, e: Any) -> None:
        names = [FACE_NAMES[f] for f in e.faces]
        given = []
        refunded = 0
        for face, uid in zip(names, e.assigned, strict=False):
            if uid < 0:
                refunded += 1
            else:
                given.append(f"{face} to {self.who(uid)}")
        tail = f"; {'both dice' if refunded == 2 else 'one die'} refunded in kamas" if refunded else ""
        if refunded:  # R-A28: 3 kamas for no die used, 1 for one (the reserve may hold fewer: the
            # turn end's checkpoint then corrects the count)
            from krosbalance.rulesets.arena.tension import REFUND_KAMAS

            self._bump("kamas", int(e.side), REFUND_KAMAS[len(names) - refunded])
        rise = " (a double: tension rises)" if e.double else ""
        step = self._current()
        step["dice"].append({"who": self.seat_name(e.side), "roll": "tension", "faces": names, "result": ""})
        step["text"].append(
            f"Tension roll: {' + '.join(names)}{rise}; " + (", ".join(given) or "no inspiration") + tail
        )

    def _on_damaged(self, e: Any) -> None:
        target = int(e.target)
        piece = self.pieces.get(target)
        if piece is not None:
            piece.injuries += int(e.amount)
        source = "" if e.source < 0 else f" from {self.who(e.source)}"
        self._current()["text"].append(
            f"{self.at(target)} takes {e.amount} {e.element} injur{'y' if e.amount == 1 else 'ies'}{source}: "
            f"{self.hp(target)}"
        )

    def _on_healed(self, e: Any) -> None:
        target = int(e.target)
        piece = self.pieces.get(target)
        if piece is not None:
            piece.injuries = max(0, piece.injuries - int(e.amount))
        source = "" if e.source == e.target else f" (from {self.who(e.source)})"
        self._current()["text"].append(f"{self.at(target)} heals {e.amount}{source}: {self.hp(target)}")

    def _on_knocked_out(self, e: Any) -> None:
        uid = int(e.uid)
        by = "" if e.by < 0 or e.by == uid else f" by {self.who(e.by)}"
        self._current()["text"].append(f"{self.at(uid)} is knocked out{by}")
        piece = self.pieces.get(uid)
        if piece is not None:
            piece.alive, piece.cell = False, -1
            if piece.kind == "krosmaster":  # R-A10, R-A113: its summons leave the board with it
                for token, summoner in self.summoner.items():
                    other = self.pieces.get(token)
                    if summoner == uid and other is not None and other.alive:
                        other.alive, other.cell = False, -1
                        self._current()["text"].append(
                            f"{self.who(token)} leaves the board with its summoner"
                        )

    def _on_summoned(self, e: Any) -> None:
        uid, cell = int(e.uid), int(e.cell)
        r = self.roster.get(uid)
        self.summoner[uid] = int(e.summoner)
        if r is not None:
            self.pieces[uid] = _Piece(uid, r[1], r[2], r[3], r[4], r[5], cell, r[7], 0, True)
        self._current()["text"].append(f"{self.who(e.summoner)} summons {self.who(uid)} on {self.sq(cell)}")
        self._current()["cells"].append(cell)

    def _on_match_ended(self, e: Any) -> None:
        self.actor = None
        if e.winner < 0:
            verdict = "a draw"
        else:
            seats = [s for s, team in enumerate(self.result.partnerships) if team == e.winner]
            verdict = " and ".join(self.seat_name(s) for s in seats) + (" win" if len(seats) > 1 else " wins")
        self._current()["text"].append(f"Match over after turn {e.turn}: {verdict} ({e.reason})")

    # Arena
    def _on_gg_changed(self, e: Any) -> None:
        self.values["gg"] = list(e.gg)
        self._current()["text"].append(
            f"GG: {self.seat_name(e.side)} {int(e.amount):+d} ({e.origin.replace('_', ' ')}) → "
            + " / ".join(str(g) for g in e.gg)
        )

    def _on_kama_picked(self, e: Any) -> None:
        uid, cell, amount = int(e.uid), int(e.cell), int(e.amount)
        if uid == self.actor:
            self.ap -= 1
        kamas = self.marks.setdefault("kamas", {})
        kamas[cell] = kamas.get(cell, 0) - amount
        if kamas[cell] <= 0:
            del kamas[cell]
        self._bump("kamas", self._seat_of(uid), amount)
        self._current()["text"].append(
            f"{self.who(uid)} picks up {_plural(amount, 'kama')} on {self.sq(cell)}"
        )
        self._current()["cells"].append(cell)

    def _on_reward_bought(self, e: Any) -> None:
        if e.buyer == self.actor:
            self.ap -= 1
        how = "a face-up" if e.visible else "a random face-down"
        self._current()["text"].append(
            f"{self.at(e.buyer)} buys {how} {e.rank} reward ({humanize(e.reward)}) for {self.who(e.holder)}"
        )

    def _on_reward_revealed(self, e: Any) -> None:
        self._current()["text"].append(f"{self.who(e.uid)} reveals {humanize(e.reward)} ({e.detail})")

    def _turn_end_line(self, e: Any) -> None:
        parts = []
        for key, label in (
            ("gg", "GG"),
            ("kamas", "kamas"),
            ("glyphs", "glyphs"),
            ("tokens_held", "tokens held"),
        ):
            if isinstance(self.values.get(key), list):
                parts.append(f"{label} " + " / ".join(str(x) for x in self.values[key]))
        if "favors_left" in self.values:
            parts.append(f"{self.values['favors_left']} favors left")
        step = self._current()
        step["text"].append(f"End of turn {e.turn}" + (f": {', '.join(parts)}" if parts else ""))
        self.actor = None

    def _on_turn_ended(self, e: Any) -> None:
        if hasattr(e, "gg"):
            self.values["gg"] = list(e.gg)

    # Blast
    def _on_glyph_count(self, e: Any) -> None:
        self.values["glyphs"] = list(e.glyphs)
        self.values["favors_left"] = int(e.favors_left)

    def _on_glyph_captured(self, e: Any) -> None:
        self.values["glyphs"] = list(e.glyphs)
        self.marks.setdefault("glyph", {})[int(e.cell)] = int(e.side)
        how = "takes the opponent's" if e.flipped else "captures the"
        self._current()["text"].append(
            f"{self.who(e.uid)} {how} glyph on {self.sq(e.cell)}: glyphs " + " / ".join(map(str, e.glyphs))
        )
        self._current()["cells"].append(int(e.cell))

    def _on_favor_revealed(self, e: Any) -> None:
        where = "left" if e.slot == 0 else "right"
        self._current()["text"].append(
            f"{self.seat_name(e.side)} reveals the favor {humanize(e.favor)} ({where})"
        )

    def _on_bonus_used(self, e: Any) -> None:
        if e.uid == self.actor:
            self.ap -= int(e.ap)
        if str(e.bonus).startswith("favor:"):
            self._bump("favors_used", self._seat_of(e.uid), 1)
        target = f" on {self.sq(e.target)}" if e.target >= 0 else ""
        self._current()["text"].append(f"{self.at(e.uid)} uses {humanize(e.bonus)}{target} ({e.ap} AP)")

    def _on_dofus_taken(self, e: Any) -> None:
        self.values["dofus"] = int(e.side)
        self._current()["text"].append(f"{self.seat_name(e.side)} takes the Dofus token")

    def _on_terrain_changed(self, e: Any) -> None:
        tiles = self.marks.setdefault(str(e.terrain), {})
        if e.placed:
            tiles[int(e.cell)] = 1
        else:
            tiles.pop(int(e.cell), None)
        what = "placed on" if e.placed else "removed from"
        self._current()["text"].append(f"{str(e.terrain).capitalize()} tile {what} {self.sq(e.cell)}")

    # Duel
    def _on_token_drafted(self, e: Any) -> None:
        how = "face-up" if e.face_up else "face-down"
        self._current()["text"].append(
            f"{self.seat_name(e.side)} drafts a {how} level-{e.level} token for {self.who(e.uid)}"
        )

    def _on_token_placed(self, e: Any) -> None:
        self.marks.setdefault("token", {})[int(e.cell)] = int(e.level)
        self._current()["text"].append(
            f"{self.seat_name(e.side)} places a level-{e.level} token on {self.sq(e.cell)}"
        )

    def _on_token_picked(self, e: Any) -> None:
        self.marks.setdefault("token", {}).pop(int(e.cell), None)
        self._bump("tokens_held", self._seat_of(e.uid), 1)
        self._current()["text"].append(
            f"{self.who(e.uid)} picks up the token on {self.sq(e.cell)} ({e.ap} AP)"
        )

    def _on_token_revealed(self, e: Any) -> None:
        piece = self.pieces.get(int(e.uid))
        if piece is not None:
            piece.hp += int(e.hp)
        self._current()["text"].append(
            f"{self.who(e.uid)} reveals {humanize(e.token)}: +{e.mp} MP, +{e.hp} HP, +{e.ap} AP, +{e.range} range"
        )


def build_replay(result: Any, board: Any, title: str = "", ais: Sequence[str] = ()) -> Replay:
    """The frames of a match played with ``record="full"`` on ``board`` (a ``Board``)."""
    builder = _Builder(result, board)
    builder._open("start")
    builder.step["text"].append(  # type: ignore[index]
        f"{board.name}: the figures deployed, {builder.seat_name(result.first_player)} plays first"
    )
    builder.run()
    seats = [
        {
            "seat": seat,
            "name": builder.seat_name(seat),
            "colour_name": SEAT_NAMES[seat % len(SEAT_NAMES)],
            "partnership": int(result.partnerships[seat]) if seat < len(result.partnerships) else seat,
            "ai": ais[seat] if seat < len(ais) else "",
            "team": [
                builder.who(p[0]) for p in builder.roster.values() if p[3] == seat and p[4] == "krosmaster"
            ],
        }
        for seat in range(len(result.teams))
    ]
    figures = {
        uid: {
            "name": builder.who(uid),
            "character": p[1],
            "seat": p[3],
            "kind": p[4],
            "level": p[5],
            "short": _short(p[2]),
        }
        for uid, p in builder.roster.items()
    }
    if result.winner is None:
        winner = "Draw"
    else:
        won = [s for s, team in enumerate(result.partnerships) if team == result.winner]
        winner = " and ".join(builder.seat_name(s) for s in won) + (" win" if len(won) > 1 else " wins")
    meta = {
        "title": title or f"{result.ruleset}: {board.name}, seed {result.seed}",
        "ruleset": str(result.ruleset),
        "seed": int(result.seed),
        "turns": int(result.turns),
        "winner": f"{winner} ({result.end_reason}) after {result.turns} turns",
        "notation": "Squares: column letter + row number, A1 top left, rows counted downwards",
    }
    return Replay(board_json(board), seats, figures, builder.frames, meta, builder.mismatches)


def _short(name: str) -> str:
    """Two or three letters for a piece's disc: ``Queen of the Tofus`` -> ``QoT``, ``Tofu`` -> ``Tof``."""
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) == 1:
        return words[0][:3]
    return "".join(w[0] for w in words[:3])
