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
from krosbalance.render.frame_state import SEAT_NAMES, FramePiece
from krosbalance.render.ruleset_steps import RulesetSteps
from krosbalance.rulesets.arena.tension import REFUND_KAMAS
from krosbalance.rulesets.blast.rolls import OUTCOMES

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


class _Builder(RulesetSteps):
    """Walks the events once, keeping the pieces, holdings and markers, and cuts them into steps
    (its state: :class:`~krosbalance.render.frame_state.FrameState`; the events of one ruleset:
    :class:`~krosbalance.render.ruleset_steps.RulesetSteps`)."""

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
            self.pieces[uid] = FramePiece(uid, r[1], r[2], r[3], r[4], r[5], cell, r[7], 0, True)
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
