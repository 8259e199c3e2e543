"""Blast's extra actions: use a Krosmic Favor (R-B17, R-B18) and use an active Divine Challenge bonus
(R-B43). Capturing a glyph is free and happens on entering (``glyphs``), so it is no action.

An action names the favor slot (0 left, 1 right) or the bonus (its index among the bonuses of the
challenges in play) in ``spell``, and its target cell in ``target`` (-1 when it has none). A tile
placed when its type is at the limit also names the tile its player removes first (R-B45): then
``spell`` is ``index + REMOVAL * (removed cell + 1)`` (:func:`encode`, :func:`decode`).

Only the active player's Krosmasters use them (R-B19, R-B43). A favor costs 1 AP, 0 for the player
holding the Dofus token, and each favor in a slot serves once per turn per player; an active bonus
costs 1 AP, needs its tier's glyph cells, and serves each Krosmaster once per turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.events import FULL
from krosbalance.engine.legal import EXTRA, Action
from krosbalance.engine.state import KROSMASTER
from krosbalance.rulesets.blast.bonus import BonusContext, choices, resolve
from krosbalance.rulesets.blast.events import BonusUsed
from krosbalance.rulesets.blast.state import SLOTS

if TYPE_CHECKING:
    from krosbalance.content.blast import BonusActionSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState

USE_FAVOR, USE_BONUS = EXTRA, EXTRA + 1
NAMES: dict[int, str] = {USE_FAVOR: "use_favor", USE_BONUS: "use_bonus"}
REMOVAL = 1024


def encode(index: int, removed: int) -> int:
    """``spell`` for the favor slot or bonus ``index`` removing the tile on ``removed`` (-1: none)."""
    return index + REMOVAL * (removed + 1)


def decode(spell: int) -> tuple[int, int]:
    """(slot or bonus index, removed tile cell or -1) of an action's ``spell``."""
    return spell % REMOVAL, spell // REMOVAL - 1


def favor_cost(bs: BlastState, side: int) -> int:
    """1 AP, or 0 for the player holding the Dofus token (R-B17)."""
    return 0 if bs.dofus == side else 1


def _acting_krosmaster(state: MatchState, fighter: Fighter) -> bool:
    return fighter.kind == KROSMASTER and fighter.side == state.active_side and fighter.alive


def _favor_action(bs: BlastState, fighter: Fighter, slot: int) -> BonusActionSpec | None:
    if not 0 <= slot < SLOTS or bs.slot_used[slot]:
        return None
    favor = bs.slots[slot]
    if favor is None or fighter.ap < favor_cost(bs, fighter.side):
        return None
    return favor.action


def _bonus_action(bs: BlastState, fighter: Fighter, index: int) -> BonusActionSpec | None:
    if not 0 <= index < len(bs.bonuses) or fighter.ap < 1 or (fighter.uid, index) in bs.bonus_used:
        return None
    if not bs.has_tier(fighter.side, index):
        return None
    return bs.bonuses[index].action


def add_actions(
    state: MatchState, bs: BlastState, fighter: Fighter, actions: list[Action], opts: BlastOptions
) -> None:
    """Append every legal favor and bonus use of the active character."""
    if not _acting_krosmaster(state, fighter):
        return
    for slot in range(SLOTS):
        action = _favor_action(bs, fighter, slot)
        if action is not None:
            for target, removed in choices(state, bs, fighter, action, opts):
                actions.append(Action(USE_FAVOR, encode(slot, removed), target))
    for index in range(len(bs.bonuses)):
        action = _bonus_action(bs, fighter, index)
        if action is not None:
            for target, removed in choices(state, bs, fighter, action, opts):
                actions.append(Action(USE_BONUS, encode(index, removed), target))


def is_legal(state: MatchState, bs: BlastState, fighter: Fighter, action: Action, opts: BlastOptions) -> bool:
    if action.kind not in NAMES or not _acting_krosmaster(state, fighter) or action.spell < 0:
        return False
    index, removed = decode(action.spell)
    spec = (
        _favor_action(bs, fighter, index) if action.kind == USE_FAVOR else _bonus_action(bs, fighter, index)
    )
    return spec is not None and (action.target, removed) in choices(state, bs, fighter, spec, opts)


def perform(state: MatchState, bs: BlastState, fighter: Fighter, action: Action, opts: BlastOptions) -> None:
    """Pay, mark the use and resolve (legality checked by the engine)."""
    index, removed = decode(action.spell)
    side = fighter.side
    if action.kind == USE_FAVOR:
        favor = bs.slots[index]
        assert favor is not None
        cost = favor_cost(bs, side)
        bs.slot_used[index] = True
        bs.favor_uses[side] += 1
        spec, label = favor.action, f"favor:{favor.id}"
    else:
        bonus = bs.bonuses[index]
        assert bonus.action is not None
        cost = 1
        bs.bonus_used.add((fighter.uid, index))
        bs.bonus_uses[side][index] += 1
        spec, label = bonus.action, f"bonus:{index}"
    fighter.ap -= cost
    if state.record >= FULL:
        name = label if action.kind == USE_FAVOR else f"challenge:{bs.bonuses[index].id}"
        state.events.append(BonusUsed(state.turn, fighter.uid, name, action.target, cost))
    resolve(BonusContext(state, bs, opts, fighter, action.target, removed, label), spec)
