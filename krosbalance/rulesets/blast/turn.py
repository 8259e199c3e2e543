"""A Blast player turn (R-B9-R-B12) and the end of the game (R-B2, R-B3).

1. New Krosmic Favor: the top favor is revealed and its player puts it left or right of the deck,
   covering the favor there (R-B9). The per-turn limits start afresh (R-B18, R-B43).
2. The player's Krosmasters act one after the other, in the order he chooses (R-B10): before each
   activation he picks the next Krosmaster among those that have not acted.
3. Then all his Invocations act, one after the other, in the order he chooses (R-B11).

The game ends at once when a team has at least half its Krosmasters KO (R-B2), otherwise at the end
of the player turn after which the favor deck is empty: the player controlling more glyph cells
wins, equal numbers are a draw (R-B3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from krosbalance.engine.events import FULL, SUMMARY
from krosbalance.engine.outcome import end_match
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.turn import character_turn
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.blast.events import FavorRevealed, GlyphCount
from krosbalance.rulesets.blast.state import SLOTS

if TYPE_CHECKING:
    from krosbalance.content.blast import FavorSpec
    from krosbalance.engine.legal import Action
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Trigger
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState

KO, GLYPHS, GLYPH_DRAW, MUTUAL_KO = "ko", "glyphs", "glyph_draw", "mutual_ko"
END_REASONS: tuple[str, ...] = (KO, GLYPHS, GLYPH_DRAW, MUTUAL_KO, "turn_limit")


class BlastController(Protocol):
    """What a Blast player decides (implemented by the AIs): his actions, the deployment (R-B8), the
    slot of each new favor (R-B9), and who acts next among his Krosmasters, then his Invocations
    (R-B10, R-B11) — ``choose_next`` returns the uid of one of ``candidates``."""

    def choose_action(self, view: MatchView) -> Action: ...

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]: ...

    def choose_deployment(
        self, view: MatchView, fighters: list[FighterView], cells: list[int]
    ) -> list[int]: ...

    def choose_favor_slot(self, view: MatchView, favor: FavorSpec, slots: list[FavorSpec | None]) -> int: ...

    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int: ...


def new_favor(
    state: MatchState, bs: BlastState, side: int, controller: BlastController, view: MatchView
) -> None:
    """Step 1 (R-B9): the per-turn limits start afresh, then the top favor is revealed and placed."""
    bs.slot_used = [False] * SLOTS
    bs.bonus_used.clear()
    bs.rerolled.clear()
    bs.spell_bonus.clear()
    if not bs.deck:
        return
    favor = bs.deck.pop()
    slot = controller.choose_favor_slot(view, favor, list(bs.slots))
    if slot not in range(SLOTS):
        raise IllegalActionError(f"player {side} put favor {favor.id} in slot {slot}; the slots are 0 and 1")
    bs.slots[slot] = favor
    if state.record >= FULL:
        state.events.append(FavorRevealed(state.turn, side, favor.id, slot))


def play_fighters(state: MatchState, side: int, controller: BlastController, view: MatchView) -> None:
    """Steps 2 and 3 (R-B10, R-B11): every Krosmaster once, in the player's order, then every
    Invocation in play once, in his order; an Invocation summoned this turn acts this turn."""
    krosmasters = [f for f in state.timeline[side] if f.alive]
    in_chosen_order(state, krosmasters, controller, view)
    if state.finished:
        return
    invocations = [
        f for f in state.fighters if f.side == side and f.kind != KROSMASTER and f.alive and f.cell >= 0
    ]
    in_chosen_order(state, invocations, controller, view)


def in_chosen_order(
    state: MatchState, fighters: list[Fighter], controller: BlastController, view: MatchView
) -> None:
    remaining = {f.uid: f for f in fighters}
    while remaining and not state.finished:
        candidates = [f for f in remaining.values() if f.alive and f.cell >= 0]
        if not candidates:
            return
        uid = candidates[0].uid
        if len(candidates) > 1:
            uid = controller.choose_next(view, [view.fighter(f.uid) for f in candidates])
            if uid not in remaining or not remaining[uid].alive:
                raise IllegalActionError(
                    f"{uid} is not one of the fighters still to act: {sorted(remaining)}"
                )
        character_turn(state, remaining.pop(uid), controller, view)


def end_of_turn(state: MatchState, bs: BlastState, side: int) -> None:
    """The end of a player turn: Brasier's unused bonus expires; after the last favor the glyph
    majority decides (R-B3)."""
    bs.spell_bonus.clear()
    if state.record >= SUMMARY:
        state.events.append(GlyphCount(state.turn, side, (bs.glyphs(0), bs.glyphs(1)), len(bs.deck)))
    if not bs.deck:
        glyph_victory(state, bs)


def glyph_victory(state: MatchState, bs: BlastState) -> None:
    """R-B3: more glyph cells wins; equal numbers, no winner."""
    counts = (bs.glyphs(0), bs.glyphs(1))
    if counts[0] == counts[1]:
        end_match(state, None, GLYPH_DRAW)
    else:
        end_match(state, 0 if counts[0] > counts[1] else 1, GLYPHS)


def ko_victory(state: MatchState, opts: BlastOptions) -> bool:
    """R-B2: a player with at least half his Krosmasters KO loses at once; both at one instant is
    the ``mutual_ko`` option. Returns whether the match is over."""
    if state.finished:
        return True
    beaten = [2 * sum(1 for f in team if not f.alive) >= len(team) > 0 for team in state.timeline]
    if beaten[0] and beaten[1]:
        winner = None if opts.mutual_ko == "draw" else 1 - state.active_side
        end_match(state, winner, MUTUAL_KO)
    elif beaten[0] or beaten[1]:
        end_match(state, 1 if beaten[0] else 0, KO)
    return state.finished
