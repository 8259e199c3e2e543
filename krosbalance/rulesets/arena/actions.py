"""Arena's extra actions: picking up a kama (R-A49) and buying a GG on a Demon cell (R-A50).

Both cost 1 AP and are for Krosmasters only. Their kinds, ``PICK_KAMA`` and ``BUY_GG``, come from
the engine's ``EXTRA`` range (``rulesets.arena.kinds``).
Listing them among the legal actions is ``ArenaRuleset.extra_actions`` (on the hot path, so it reads
the state itself); checking one the AI chose is :func:`is_legal`, and carrying it out :func:`perform`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.legal import Action
from krosbalance.engine.state import KROSMASTER
from krosbalance.rulesets.arena.economy import buy_gg, pick_kama
from krosbalance.rulesets.arena.kinds import BUY_GG, PICK_KAMA
from krosbalance.rulesets.arena.state import arena_state

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState

__all__ = ["BUY", "BUY_GG", "NAMES", "PICK", "PICK_KAMA", "is_legal", "perform"]

NAMES: dict[int, str] = {PICK_KAMA: "pick_kama", BUY_GG: "buy_gg"}
#: the two actions, built once (``ArenaRuleset.extra_actions`` appends these)
PICK = Action(PICK_KAMA)
BUY = Action(BUY_GG)


def is_legal(state: MatchState, fighter: Fighter, action: Action) -> bool:
    if fighter.kind != KROSMASTER or fighter.ap < 1:
        return False
    kind = action.kind
    arena = arena_state(state)
    if kind == PICK_KAMA:
        return arena.board_kamas[fighter.cell] > 0
    if kind == BUY_GG:
        on_demon = (state.board.demon_cells >> fighter.cell) & 1
        return bool(on_demon) and arena.kamas[fighter.side] >= arena.gg_price
    return False


def perform(state: MatchState, fighter: Fighter, action: Action) -> None:
    if action.kind == PICK_KAMA:
        pick_kama(state, fighter)
    else:
        buy_gg(state, fighter)
