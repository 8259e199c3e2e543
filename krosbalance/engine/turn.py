"""The game turn (R-A26-R-A37): tension roll, inspiration, refund, then each character's three phases.

Decisions are asked of a ``Controller`` (an AI) through a read-only view; the engine checks every
answer and raises IllegalActionError on an illegal one, since that is a bug in the AI. Besides its
actions, a player decides the order in which several of his creatures act after their summoner
(R-A31) and the order of triggers that fire together (R-A32, R-A36), and picks his board edge
(R-A19, ``krosbalance.rulesets.arena.choose_edges``). Each action and each trigger is one instant
(``krosbalance.engine.instant``): its KOs, GG and victory settle when it ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from krosbalance.engine.combat import cast, inflict
from krosbalance.engine.dice import FACE_POWER, tension_options
from krosbalance.engine.economy import buy_gg, check_victory, pick_kama, take_from_reserve, tension_rises
from krosbalance.engine.events import (
    FULL,
    SUMMARY,
    CharacterTurnStarted,
    TensionRolled,
    TurnEnded,
    TurnStarted,
)
from krosbalance.engine.instant import settle
from krosbalance.engine.legal import BUY_GG, CAST, END, MOVE, PICK_KAMA, Action, is_legal
from krosbalance.engine.movement import walk
from krosbalance.engine.powers import END_OF_TURN_POWERS, end_of_turn_powers, run_end_of_turn
from krosbalance.engine.rewards import end_of_turn as reward_turn_end
from krosbalance.engine.rewards import expire_upgrades
from krosbalance.engine.state import BOMB, CREATURE, Fighter, MatchState
from krosbalance.errors import IllegalActionError

if TYPE_CHECKING:
    from krosbalance.engine.view import FighterView, MatchView

MAX_ACTIONS_PER_ACTIVATION = 400
REFUND_KAMAS = (3, 1, 0)  # kamas for 0, 1 or 2 dice used for inspiration (R-A28)


class TensionChoice(NamedTuple):
    """The roller's answer to a tension roll: the faces the dice are turned to (R-A13) and, per die,
    the uid of the Krosmaster it inspires or -1 to refund it (R-A27, R-A28)."""

    faces: tuple[int, int]
    assigned: tuple[int, int] = (-1, -1)


class Trigger(NamedTuple):
    """A triggered effect waiting to resolve: ``kind`` (``self_detonation`` of a bomb, R-A112; an
    end-of-turn power such as ``stimulus``, R-A108) and the uid of the piece it belongs to."""

    kind: str
    uid: int


SELF_DETONATION = "self_detonation"


class Controller(Protocol):
    """What the engine asks of a player. Implemented by the AIs in ``krosbalance.ai``.

    ``choose_edge`` returns an index into ``edges`` (the board's deployment zones as cell bitmasks,
    R-A19); ``order_creatures`` the uids of ``creatures`` in the order they act (R-A31);
    ``order_triggers`` the indices of ``triggers`` in the order they resolve (R-A32, R-A36).
    """

    def choose_deployment(
        self, view: MatchView, fighters: list[FighterView], cells: list[int]
    ) -> list[int]: ...

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice: ...

    def choose_action(self, view: MatchView) -> Action: ...

    def choose_edge(self, view: MatchView, edges: list[int]) -> int: ...

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]: ...

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]: ...


def tension_roll(state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
    """Roll 2 dice; a double (after turning wild faces) costs each player 1 GG; the dice then inspire
    Krosmasters or are refunded for kamas (R-A26-R-A29)."""
    for fighter in state.timeline[side]:
        fighter.inspired.clear()
    raw = (state.dice.roll(), state.dice.roll())
    options = tension_options(*raw)
    choice = controller.choose_tension(view, raw, options)
    faces = (choice.faces[0], choice.faces[1])
    if faces not in options:
        raise IllegalActionError(f"tension faces {faces} cannot be made from raw dice {raw}")
    own = {f.uid: f for f in state.timeline[side] if f.alive}
    for uid in choice.assigned:
        if uid != -1 and uid not in own:
            raise IllegalActionError(
                f"tension die given to #{uid}, not a Krosmaster of player {side} in play"
            )
    double = faces[0] == faces[1]
    if state.record >= FULL:
        state.events.append(
            TensionRolled(state.turn, side, raw, faces, double, (choice.assigned[0], choice.assigned[1]))
        )
    if double:
        tension_rises(state)
        if settle(state):  # both losses are one instant (R-A133)
            return
    for face, uid in zip(faces, choice.assigned, strict=True):
        if uid != -1:
            own[uid].inspired.add(FACE_POWER[face])
    used = sum(1 for uid in choice.assigned if uid != -1)
    take_from_reserve(state, side, REFUND_KAMAS[used])


def character_turn(state: MatchState, fighter: Fighter, controller: Controller, view: MatchView) -> None:
    """Preliminary, activation and end phases of one character (R-A32-R-A36)."""
    if not begin_activation(state, fighter, controller, view):
        return
    for _ in range(MAX_ACTIONS_PER_ACTIVATION):
        action = controller.choose_action(view)
        if not is_legal(state, fighter, action):
            raise IllegalActionError(f"{fighter!r} cannot {action}")
        if action.kind == END:
            break
        perform(state, fighter, action)
        if state.finished or not fighter.alive:
            break
    else:
        raise IllegalActionError(
            f"{fighter!r} took more than {MAX_ACTIONS_PER_ACTIVATION} actions in one turn"
        )
    end_activation(state, fighter, controller, view)


def ordered(
    items: list[Trigger], controller: Controller | None, view: MatchView | None, what: str
) -> list[Trigger]:
    """Triggers in the order the controller gives (R-A32, R-A36); one trigger, or no controller
    (scenario tests), keeps the listed order."""
    if len(items) < 2 or controller is None or view is None:
        return items
    order = list(controller.order_triggers(view, list(items)))
    if sorted(order) != list(range(len(items))):
        raise IllegalActionError(f"{what}: trigger order {order} is not a permutation of 0..{len(items) - 1}")
    return [items[i] for i in order]


def begin_activation(
    state: MatchState, fighter: Fighter, controller: Controller | None = None, view: MatchView | None = None
) -> bool:
    """The preliminary phase and the start of the activation phase; False when the character does not
    get to act (KO'd by its own bomb, or the match is over).

    Preliminary phase (R-A32): this character's bombs from its previous turn self-detonate (R-A112),
    in the order its player chooses when there are several; each detonation is one instant.
    """
    state.active = fighter
    bombs = (
        [
            Trigger(SELF_DETONATION, token.uid)
            for token in fighter.summons
            if token.kind == BOMB and token.alive and token.placed_turn < state.turn
        ]
        if fighter.summons
        else None
    )
    if bombs:
        by_uid = {token.uid: token for token in fighter.summons}
        for trigger in ordered(bombs, controller, view, f"{fighter!r} preliminary phase"):
            bomb = by_uid[trigger.uid]
            if bomb.alive and not state.finished:  # an earlier explosion or the summoner's KO took it
                inflict(state, None, bomb, 1, 0)
                settle(state)
    if settle(state) or check_victory(state) or not fighter.alive:
        state.active = None
        return False
    if fighter.tokens:  # R-A32 (b), R-A54: its face-up Upgrades leave the card
        expire_upgrades(state, fighter)
    # Activation phase: markers apply, then are discarded (R-A33, R-A34).
    fighter.mp = max(0, fighter.base_mp + fighter.plus_mp - fighter.minus_mp)
    fighter.ap = max(0, fighter.base_ap + fighter.plus_ap - fighter.minus_ap)
    fighter.plus_mp = fighter.minus_mp = fighter.plus_ap = fighter.minus_ap = 0
    fighter.turn_uses.clear()
    fighter.range_bonus = 0
    fighter.blocked = False
    fighter.acting = True
    if state.record >= FULL:
        state.events.append(
            CharacterTurnStarted(state.turn, fighter.uid, fighter.spec.name, fighter.mp, fighter.ap)
        )
    return True


def end_activation(
    state: MatchState, fighter: Fighter, controller: Controller | None = None, view: MatchView | None = None
) -> None:
    """End phase: "this turn" effects expire; end-of-turn powers trigger, in the order the player
    chooses when there are several (R-A36); unspent MP and AP are lost (R-A11)."""
    fighter.acting = False
    fighter.range_bonus = 0
    fighter.mp = fighter.ap = 0
    if fighter.reward_mods is not None:  # boosts "for this turn" no spell used are lost
        reward_turn_end(fighter)
    if fighter.alive and not state.finished and not fighter.powers.isdisjoint(END_OF_TURN_POWERS):
        triggers = [Trigger(kind, fighter.uid) for kind in end_of_turn_powers(fighter)]
        for trigger in ordered(triggers, controller, view, f"{fighter!r} end phase"):
            if fighter.alive and not state.finished:
                run_end_of_turn(state, fighter, trigger.kind)
                settle(state)
    if fighter.alive:
        fighter.stats.turns_alive += 1
    state.active = None


def perform(state: MatchState, fighter: Fighter, action: Action) -> None:
    """Carry out one legal action: one instant, settled before the next decision."""
    kind = action.kind
    if kind == MOVE:
        walk(state, fighter, action.target)
    elif kind == CAST:
        cast(state, fighter, fighter.spells[action.spell], action.target)
    elif kind == PICK_KAMA:
        pick_kama(state, fighter)
    elif kind == BUY_GG:
        buy_gg(state, fighter)
    settle(state)  # the action was one instant (engine.instant)


def game_turn(state: MatchState, controller: Controller, view: MatchView) -> None:
    """One player's game turn: tension, then the Timeline left to right, each Krosmaster followed by
    its creatures in the order its player chooses (R-A30, R-A31, R-A37)."""
    side = state.active_side
    state.turn += 1
    if state.record >= FULL:
        state.events.append(TurnStarted(state.turn, side))
    first_turn = state.turn == 1
    if not first_turn or state.opts.first_turn_tension:
        tension_roll(state, side, controller, view)
    for krosmaster in list(state.timeline[side]):
        if state.finished:
            return
        if not krosmaster.alive:
            continue
        character_turn(state, krosmaster, controller, view)
        if krosmaster.summons:
            for token in creature_order(state, krosmaster, controller, view):
                if state.finished:
                    return
                if token.alive:
                    character_turn(state, token, controller, view)
    if state.finished:  # the last character's turn won the match: no turn end after the match end
        return
    state.scenery_injuries.clear()  # R-A125: scenery heals at the end of each player's turn
    if state.record >= SUMMARY:
        state.events.append(TurnEnded(state.turn, side, (state.gg[0], state.gg[1]), positions(state)))
    state.active_side = 1 - side


def creature_order(
    state: MatchState, summoner: Fighter, controller: Controller, view: MatchView
) -> list[Fighter]:
    """The summoner's creatures in play, in the order its player chooses (R-A31); a creature summoned
    during its summoner's turn acts in that same game turn."""
    creatures = [t for t in summoner.summons if t.alive and t.kind == CREATURE]
    if len(creatures) < 2:
        return creatures
    by_uid = {c.uid: c for c in creatures}
    views = [view.fighter(c.uid) for c in creatures]
    order = list(controller.order_creatures(view, view.fighter(summoner.uid), views))
    if sorted(order) != sorted(by_uid):
        raise IllegalActionError(
            f"creature order {order} of {summoner!r} is not an order of its creatures {sorted(by_uid)}"
        )
    return [by_uid[uid] for uid in order]


def positions(state: MatchState) -> tuple[tuple[int, str, int, int, int], ...]:
    """(uid, character, side, cell, injuries) of every piece on the board, for replays."""
    return tuple(
        (f.uid, f.spec.id, f.side, f.cell, f.injuries) for f in state.fighters if f.alive and f.cell >= 0
    )
