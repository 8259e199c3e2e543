"""The Duel Pack's own match state: the Duel Token supply, the tokens on duel cells and on the
Krosmasters' cards, and the duel level (R-D4, R-D9, R-D15-R-D21, R-D25).

The ruleset creates it with every ``MatchState`` (``DuelRuleset.new_state``) and keeps it in
``state.rules``; only the duel ruleset's code writes it, and ``duel_state(state)`` gives it typed.
Pieces are named by uid (a copy of the match has new ``Fighter`` objects), cells by index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.content.duel import TOKEN_LEVELS, DuelTokenSet, DuelTokenSpec
from krosbalance.engine.rules import RulesetState

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState


class DuelState(RulesetState):
    """The Duel Pack holdings of one match.

    Attributes:
        token_set: every token of the set in play (immutable).
        duel_cells: the board's duel cells, a mask (R-D5, R-D9).
        duel_level: 2 + the higher (team) level (R-D15, R-D38); 0 until set-up.
        piles: per level (index ``level - 1``) the face-down supply, top token last (R-D16, R-D17).
        face_up: per level the face-up token beside its pile in the tactical draft (R-D17), or None.
        on_cells: cell -> the face-down token lying there (R-D19, R-D39).
        hidden: Krosmaster uid -> its face-down tokens, in the order received (R-D16, R-D25).
        shown: Krosmaster uid -> its revealed tokens, whose bonuses are permanent (R-D21).
        pending: (uid, token) revealed this turn whose MP/AP bonus waits for the turn's end (option
            ``reveal_applies_this_turn`` off).
        placement_seed: the seed of the blind draws of the tokens placed on duel cells (R-D19).
        drafted, picked, revealed: per player, how many tokens were drafted, picked up, revealed.
        start_tokens: per player, the tokens held from the start (study option
            ``start_token_levels``, seat 0 only); each is also on one of his cards (``hidden`` or
            ``shown``), and none counts in his draft budget (:meth:`team_levels`).
    """

    __slots__ = (
        "token_set",
        "duel_cells",
        "duel_level",
        "piles",
        "face_up",
        "on_cells",
        "hidden",
        "shown",
        "pending",
        "placement_seed",
        "drafted",
        "picked",
        "revealed",
        "start_tokens",
    )

    def __init__(self, token_set: DuelTokenSet, duel_cells: int) -> None:
        self.token_set = token_set
        self.duel_cells = duel_cells
        self.duel_level = 0
        self.piles: list[list[DuelTokenSpec]] = [token_set.of_level(level) for level in TOKEN_LEVELS]
        self.face_up: list[DuelTokenSpec | None] = [None] * len(TOKEN_LEVELS)
        self.on_cells: dict[int, DuelTokenSpec] = {}
        self.hidden: dict[int, list[DuelTokenSpec]] = {}
        self.shown: dict[int, list[DuelTokenSpec]] = {}
        self.pending: list[tuple[int, DuelTokenSpec]] = []
        self.placement_seed = 0
        self.drafted: list[int] = [0, 0]
        self.picked: list[int] = [0, 0]
        self.revealed: list[int] = [0, 0]
        self.start_tokens: list[list[DuelTokenSpec]] = [[], []]

    def copy(self) -> DuelState:
        other = DuelState(self.token_set, self.duel_cells)
        other.duel_level = self.duel_level
        other.piles = [list(pile) for pile in self.piles]
        other.face_up = list(self.face_up)
        other.on_cells = dict(self.on_cells)
        other.hidden = {uid: list(tokens) for uid, tokens in self.hidden.items()}
        other.shown = {uid: list(tokens) for uid, tokens in self.shown.items()}
        other.pending = list(self.pending)
        other.placement_seed = self.placement_seed
        other.drafted = list(self.drafted)
        other.picked = list(self.picked)
        other.revealed = list(self.revealed)
        other.start_tokens = [list(tokens) for tokens in self.start_tokens]
        return other

    def hide_from(self, state: MatchState, side: int) -> None:
        """In a copy made for ``side``: every token it has not seen (the supply's face-down tokens,
        those on duel cells, the opponent's face-down ones) is replaced by one of the same level it
        has not seen, dealt in id order — what it could have guessed, never what lies there."""
        seen: set[str] = set()
        for fighter in state.fighters:
            if fighter.side == side:
                seen.update(t.id for t in self.hidden.get(fighter.uid, ()))
        for tokens in self.shown.values():
            seen.update(t.id for t in tokens)
        seen.update(t.id for t in self.face_up if t is not None)
        unseen = {
            level: sorted((t for t in self.token_set.of_level(level) if t.id not in seen), key=lambda t: t.id)
            for level in TOKEN_LEVELS
        }

        def guess(token: DuelTokenSpec) -> DuelTokenSpec:
            return unseen[token.level].pop(0)

        enemy = {f.uid for f in state.fighters if f.side != side}
        guessed: dict[str, DuelTokenSpec] = {}
        for uid in sorted(self.hidden):
            if uid in enemy:
                real = self.hidden[uid]
                self.hidden[uid] = [guess(t) for t in real]
                guessed.update((t.id, g) for t, g in zip(real, self.hidden[uid], strict=True))
        # an enemy's token held from the start is the same guess as on his card
        self.start_tokens = [[guessed.get(t.id, t) for t in tokens] for tokens in self.start_tokens]
        for cell in sorted(self.on_cells):
            self.on_cells[cell] = guess(self.on_cells[cell])
        self.piles = [[guess(t) for t in pile] for pile in self.piles]

    # ------------------------------------------------------------------ reading
    def team_levels(self, state: MatchState, side: int) -> int:
        """R-D16: a player's Krosmaster levels plus the levels of the tokens on their cards — but for
        the tokens held from the start (a study option on top of the rules' game, not counted)."""
        total = 0
        for fighter in state.timeline[side]:
            total += fighter.level
            total += sum(t.level for t in self.hidden.get(fighter.uid, ()))
            total += sum(t.level for t in self.shown.get(fighter.uid, ()))
        return total - sum(t.level for t in self.start_tokens[side])

    def on_cards(self, state: MatchState, side: int) -> tuple[int, int]:
        """How many tokens the player's Krosmasters hold (face down, revealed)."""
        down = up = 0
        for fighter in state.timeline[side]:
            down += len(self.hidden.get(fighter.uid, ()))
            up += len(self.shown.get(fighter.uid, ()))
        return down, up

    def start_revealed(self, state: MatchState, side: int) -> int:
        """How many of the player's tokens held from the start are revealed."""
        shown = {t.id for f in state.timeline[side] for t in self.shown.get(f.uid, ())}
        return sum(1 for t in self.start_tokens[side] if t.id in shown)

    def all_tokens(self) -> list[DuelTokenSpec]:
        """Every token wherever it is (supply, face up, cells, cards), for the conservation check."""
        found = [t for pile in self.piles for t in pile]
        found += [t for t in self.face_up if t is not None]
        found += list(self.on_cells.values())
        found += [t for tokens in self.hidden.values() for t in tokens]
        found += [t for tokens in self.shown.values() for t in tokens]
        return found


def duel_state(state: MatchState) -> DuelState:
    """The Duel Pack state of a match played under the duel ruleset."""
    return cast(DuelState, state.rules)
