"""A static evaluation of a Duel Pack position, for the duel search (``ai/duel/lookahead.py``): who is
ahead, in injury units.

A duel is won by KO alone (R-D42): no GG, no kamas. So :func:`evaluate` counts what keeps a
Krosmaster standing and what puts the other down, for one side against the other:

- **a decided duel**: ``WIN_SCORE`` for a win, its negative for a loss, 0 for a draw;
- **material**: every HP left on a Krosmaster in play (``HP_WORTH``) and its being there
  (``PRESENCE``: it acts and threatens); a creature half that per HP plus ``CREATURE``;
- **Duel Tokens**: the bonus points of each token a Krosmaster holds (``TOKEN_WORTH`` each, the
  planner's ``token_worth``): face down in full, face up without their HP (already in the HP left);
- **KO threats**: a Krosmaster the other side's Krosmasters could reach next turn (the planner's
  rough threat: reach = MP + range) risks its KO in proportion to that threat against its HP left,
  weighed ``KO_WORTH``; the side to move next strikes first, so threats against it weigh less.

The state is a search copy (``MatchView.clone_state``): what ``side`` knows, the opponent's
face-down tokens already replaced by guesses of their level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.ai.duel.planner import token_worth
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.view import FighterView

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.duel.state import DuelState

#: a decided duel, in injury units
WIN_SCORE = 10_000.0
#: worth of one HP left on a Krosmaster
HP_WORTH = 1.0
#: worth of a Krosmaster for being in play, besides its HP left
PRESENCE = 4.0
#: worth of a creature for being in play, besides half an HP's worth per HP left
CREATURE = 0.5
#: worth of one bonus point of a held Duel Token (1 MP = 1 AP = 1 range = 2 HP)
TOKEN_WORTH = 1.0
#: worth of a KO, weighed by its rough chance
KO_WORTH = 10.0
#: weight of the KO threats against the side to move next, and against the other side
THREAT_TO_MOVER = 0.25
THREAT_TO_OTHER = 0.5


def evaluate(state: MatchState, side: int) -> float:
    """How good ``state`` is for ``side``, in injury units (positive: ahead)."""
    if state.finished:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == side else -WIN_SCORE
    ds = cast("DuelState", state.rules)
    value = 0.0
    for f in state.fighters:
        if not f.alive or f.cell < 0:
            continue
        sign = 1.0 if f.side == side else -1.0
        left = f.hp - f.injuries
        if f.kind == KROSMASTER:
            value += sign * (HP_WORTH * left + PRESENCE + TOKEN_WORTH * held_tokens(ds, f))
            weight = THREAT_TO_MOVER if f.side == state.active_side else THREAT_TO_OTHER
            value -= sign * weight * KO_WORTH * ko_risk(state, f, left)
        elif f.kind == "creature":
            value += sign * (0.5 * HP_WORTH * left + CREATURE)
    return value


def held_tokens(ds: DuelState, f: Fighter) -> float:
    """Bonus points of the Duel Tokens ``f`` holds: face down in full, face up without their HP."""
    fighter = FighterView(f)
    points = 0.0
    for token in ds.hidden.get(f.uid, ()):
        points += token_worth(token, fighter)
    for token in ds.shown.get(f.uid, ()):
        points += token_worth(token, fighter) - token.hp / 2.0
    return points


def ko_risk(state: MatchState, victim: Fighter, left: int) -> float:
    """A rough chance that the other side's Krosmasters KO ``victim`` next turn: their threat on its
    cell (the planner's: reach = MP + longest attack range, a best attack repeated as the AP allow,
    at 0.6 of its printed injuries) against its HP left, capped at 1."""
    if left <= 0:
        return 1.0
    board = state.board
    total = 0.0
    for enemy in state.fighters:
        if enemy.side == victim.side or not enemy.alive or enemy.cell < 0 or enemy.kind != KROSMASTER:
            continue
        attacks = [s for s in enemy.spells if s.kind == "attack" and s.amount > 0]
        if not attacks:
            continue
        reach = enemy.base_mp + max(s.range_max for s in attacks)
        if board.distance[enemy.cell][victim.cell] <= reach:
            total += max(s.amount * max(1, enemy.base_ap // max(1, s.ap_cost)) for s in attacks) * 0.6
    return min(1.0, total / left)
