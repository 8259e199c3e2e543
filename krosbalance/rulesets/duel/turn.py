"""A Duel Pack player turn (R-D20-R-D22, R-D40) and the decisions a duel player makes.

1. Start of the turn (R-D21): the player may reveal one, and only one, of his face-down Duel Tokens;
   its bonuses are permanent (MP/AP raise the Krosmaster's characteristics, HP its HP, max range its
   extendable spells' range through ``Fighter.max_range_bonus``). Under the default
   ``reveal_applies_this_turn`` the MP/AP bonus counts in this very turn (the activation sets MP and
   AP after it); otherwise it waits for the end of the turn.
2. His Krosmasters act, the first Krosmaster (higher Initiative) first (R-D36, R-D40), each followed
   by its creatures (the Duel Pack defers summons to the Arena rulebook, R-D30: Arena's Timeline,
   ``rulesets.arena.timeline.play_timeline``). Two Krosmasters of equal Initiative act in the order
   the team lists them: that order is the owner's choice of R-D36.
3. The end of the turn: a held-back MP/AP bonus starts to count; the turn end is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from krosbalance.content.duel import DuelTokenSpec
from krosbalance.content.specs import Frozen
from krosbalance.engine.events import FULL, SUMMARY
from krosbalance.engine.outcome import end_match
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.turn import positions
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.duel.events import DuelTurnEnded, TokenRevealed

if TYPE_CHECKING:
    from krosbalance.engine.legal import Action
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Trigger
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.duel.options import DuelOptions
    from krosbalance.rulesets.duel.state import DuelState

LAST_STANDING, MUTUAL_KO, TURN_LIMIT = "last_standing", "mutual_ko", "turn_limit"
END_REASONS: tuple[str, ...] = (LAST_STANDING, MUTUAL_KO, TURN_LIMIT)


@dataclass(frozen=True, slots=True)
class DraftChoice(Frozen):
    """One token a player may take in the draft (R-D16, R-D17): a token of ``level`` taken face down
    (``token`` None: the top of that level's pile, its bonuses unknown until taken), or the face-up
    ``token`` beside that pile (tactical option)."""

    level: int
    token: DuelTokenSpec | None = None


@dataclass(frozen=True, slots=True)
class RevealChoice(Frozen):
    """A face-down token a player may reveal at the start of his turn (R-D21): the Krosmaster's uid,
    the token's position among its face-down tokens, and the token (the player's own: he knows it)."""

    uid: int
    index: int
    token: DuelTokenSpec


class DuelController(Protocol):
    """What a Duel Pack player decides (implemented by the AIs):

    - ``choose_action``, ``order_triggers``: the engine's own decisions;
    - ``order_creatures``: the order of his creatures (Arena's R-A31, for summoners from the box);
    - ``choose_duel_draft``: which of ``choices`` to take (an index), ``budget`` being the levels left
      before the duel level (R-D16, R-D17);
    - ``choose_token_holder``: which of his Krosmasters gets a drafted token (a uid; asked with two
      figures only, R-D36);
    - ``choose_deployment``: the starting cells of his Krosmasters (R-D18);
    - ``choose_duel_cell``: the duel cell for a token drawn without looking (a cell, R-D19);
    - ``choose_reveal``: which face-down token to reveal at the start of his turn (an index into
      ``choices``, or -1 for none, R-D21).
    """

    def choose_action(self, view: MatchView) -> Action: ...

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]: ...

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]: ...

    def choose_deployment(
        self, view: MatchView, fighters: list[FighterView], cells: list[int]
    ) -> list[int]: ...

    def choose_duel_draft(self, view: MatchView, choices: list[DraftChoice], budget: int) -> int: ...

    def choose_token_holder(
        self, view: MatchView, token: DuelTokenSpec, candidates: list[FighterView]
    ) -> int: ...

    def choose_duel_cell(self, view: MatchView, level: int, cells: list[int]) -> int: ...

    def choose_reveal(self, view: MatchView, choices: list[RevealChoice]) -> int: ...


def reveal_choices(state: MatchState, ds: DuelState, side: int) -> list[RevealChoice]:
    """The face-down tokens of the player's Krosmasters in play, Timeline order."""
    return [
        RevealChoice(f.uid, i, token)
        for f in state.timeline[side]
        if f.alive and f.cell >= 0
        for i, token in enumerate(ds.hidden.get(f.uid, ()))
    ]


def reveal_at_turn_start(
    state: MatchState,
    ds: DuelState,
    opts: DuelOptions,
    side: int,
    controller: DuelController,
    view: MatchView,
) -> None:
    """R-D21: the player may reveal one of his face-down tokens; its bonuses apply from now on."""
    choices = reveal_choices(state, ds, side)
    if not choices:
        return
    index = controller.choose_reveal(view, choices)
    if index == -1:
        return
    if not 0 <= index < len(choices):
        raise IllegalActionError(f"player {side} revealed token {index} of {len(choices)} (or -1 for none)")
    choice = choices[index]
    reveal(state, ds, opts, state.fighters[choice.uid], choice.index)


def reveal(state: MatchState, ds: DuelState, opts: DuelOptions, fighter: Fighter, index: int) -> None:
    """Turn a Krosmaster's face-down token face up and give it its permanent bonuses (R-D21)."""
    token = ds.hidden[fighter.uid].pop(index)
    ds.shown.setdefault(fighter.uid, []).append(token)
    ds.revealed[fighter.side] += 1
    fighter.hp += token.hp
    fighter.max_range_bonus += token.range
    if opts.reveal_applies_this_turn:
        fighter.base_mp += token.mp
        fighter.base_ap += token.ap
    elif token.mp or token.ap:
        ds.pending.append((fighter.uid, token))
    if state.record >= FULL:
        state.events.append(
            TokenRevealed(state.turn, fighter.uid, token.id, token.mp, token.hp, token.ap, token.range)
        )


def end_of_turn(state: MatchState, ds: DuelState, side: int) -> None:
    """A held-back MP/AP bonus counts from now on; the turn end is recorded (``DuelTurnEnded``: the
    positions replays read; no GG in the Duel Pack)."""
    for uid, token in ds.pending:
        fighter = state.fighters[uid]
        fighter.base_mp += token.mp
        fighter.base_ap += token.ap
    ds.pending.clear()
    if state.record >= SUMMARY:
        state.events.append(DuelTurnEnded(state.turn, side, positions(state)))


def ko_victory(state: MatchState) -> bool:
    """R-D42 (with one figure: a KO'd Krosmaster ends the duel): the player who alone still has a
    Krosmaster in play wins; both teams KO'd at one instant is a draw. Returns whether it is over."""
    if state.finished:
        return True
    standing = [any(f.alive for f in team if f.kind == KROSMASTER) for team in state.timeline]
    if standing[0] != standing[1]:
        end_match(state, 0 if standing[0] else 1, LAST_STANDING)
    elif not standing[0]:
        end_match(state, None, MUTUAL_KO)
    return state.finished


def turn_limit_winner(state: MatchState, opts: DuelOptions) -> int | None:
    """``draw``, or under ``hp`` the player whose Krosmasters keep more HP in total (equal: draw)."""
    if opts.turn_limit_result != "hp":
        return None
    left = [sum(max(0, f.remaining_hp) for f in team if f.alive) for team in state.timeline]
    return None if left[0] == left[1] else (0 if left[0] > left[1] else 1)
