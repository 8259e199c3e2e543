"""The Duel Pack's extra action: pick up a Duel Token (R-D25).

A Krosmaster may pick up the token on the cell it stands on (a duel cell holding a token is free,
R-D9) for AP equal to its level plus the token's level (2-10 AP; a level-6 Krosmaster pays 7-10);
it looks at it and puts it face down on its card, to reveal at the start of a later turn (R-D21).
The level is printed on the token's back, so the cost is known before picking. The action names
the cell in ``target``.

The kind is ``EXTRA + 4``: past every kind the engine lists for Arena (``PICK_KAMA`` ...
``REVEAL_REWARD``), so no code that tests for an Arena kind mistakes it for one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from krosbalance.engine.events import FULL
from krosbalance.engine.legal import EXTRA, Action
from krosbalance.engine.state import KROSMASTER
from krosbalance.rulesets.duel.events import TokenPicked

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.duel.state import DuelState

PICK_TOKEN: Final = EXTRA + 4
NAMES: dict[int, str] = {PICK_TOKEN: "pick_token"}


def pick_cost(fighter: Fighter, level: int) -> int:
    """R-D25: the Krosmaster's level + the token's level, in AP."""
    return fighter.level + level


def can_pick(state: MatchState, ds: DuelState, fighter: Fighter) -> bool:
    """Whether the active Krosmaster may pick up the token on its cell now."""
    if fighter.kind != KROSMASTER or not fighter.alive or fighter.cell < 0:
        return False
    token = ds.on_cells.get(fighter.cell)
    return token is not None and fighter.ap >= pick_cost(fighter, token.level)


def add_actions(state: MatchState, ds: DuelState, fighter: Fighter, actions: list[Action]) -> None:
    if ds.on_cells and can_pick(state, ds, fighter):
        actions.append(Action(PICK_TOKEN, -1, fighter.cell))


def is_legal(state: MatchState, ds: DuelState, fighter: Fighter, action: Action) -> bool:
    return action.kind == PICK_TOKEN and action.target == fighter.cell and can_pick(state, ds, fighter)


def perform(state: MatchState, ds: DuelState, fighter: Fighter, action: Action) -> None:
    """Pay and take the token face down onto the card (legality checked by the engine)."""
    token = ds.on_cells.pop(fighter.cell)
    cost = pick_cost(fighter, token.level)
    fighter.ap -= cost
    ds.hidden.setdefault(fighter.uid, []).append(token)
    ds.picked[fighter.side] += 1
    if state.record >= FULL:
        state.events.append(TokenPicked(state.turn, fighter.uid, fighter.cell, token.id, cost))
