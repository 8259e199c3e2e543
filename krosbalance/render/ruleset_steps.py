"""The steps of a replay that belong to one ruleset: Arena's economy (GG, kamas, Demonic Rewards),
Blast's glyphs, favors, bonuses and terrain, Duel's tokens. Each handler reads one event kind
(``_on_<kind>``), updates the holdings and markers and says the step in words.
"""

from __future__ import annotations

from typing import Any

from krosbalance.render.frame_state import FrameState, humanize, plural


class RulesetSteps(FrameState):
    """The handlers of the events one ruleset alone has (the common ones are the builder's)."""

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
            f"{self.who(uid)} picks up {plural(amount, 'kama')} on {self.sq(cell)}"
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
