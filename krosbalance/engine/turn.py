"""A player's game turn and each character's three phases (R-A30-R-A37), through the ruleset's hooks.

The engine runs the skeleton every Krosmaster game shares: a game turn starts, the ruleset's
start-of-turn phase runs (Arena: the tension roll), the ruleset activates the player's characters in
the order its rules give (Arena: the Timeline, each Krosmaster followed by its creatures), and the
turn ends. Each character's activation is the engine's: the preliminary phase (its bombs
self-detonate), the activation phase (markers act, then actions until it ends its turn) and the end
phase (end-of-turn powers); see ``krosbalance.engine.rules`` for the hooks.

Decisions are asked of a ``Controller`` (an AI) through a read-only view; the engine checks every
answer and raises IllegalActionError on an illegal one, since that is a bug in the AI. Each action
and each trigger is one instant (``krosbalance.engine.instant``): its KOs and victory settle when it
ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from krosbalance.engine.combat import cast, inflict
from krosbalance.engine.events import FULL, CharacterTurnStarted, TurnStarted
from krosbalance.engine.instant import settle
from krosbalance.engine.legal import CAST, END, MOVE, Action, is_legal
from krosbalance.engine.movement import walk
from krosbalance.engine.powers import END_OF_TURN_POWERS, end_of_turn_powers, run_end_of_turn
from krosbalance.engine.state import BOMB, Fighter, MatchState
from krosbalance.errors import IllegalActionError

if TYPE_CHECKING:
    from krosbalance.engine.view import MatchView

MAX_ACTIONS_PER_ACTIVATION = 400


class Trigger(NamedTuple):
    """A triggered effect waiting to resolve: ``kind`` (``self_detonation`` of a bomb, R-A112; an
    end-of-turn power such as ``stimulus``, R-A108) and the uid of the piece it belongs to."""

    kind: str
    uid: int


SELF_DETONATION = "self_detonation"


class Controller(Protocol):
    """What the engine itself asks of a player: the active character's next action, and the order of
    triggers that fire together (``order_triggers`` returns indices into ``triggers``, R-A32, R-A36).

    A ruleset asks more through its own protocol (Arena: ``krosbalance.rulesets.arena.ArenaController``
    adds deployment, the tension roll, the board edge and the order of creatures). The AIs of
    ``krosbalance.ai`` implement them all.
    """

    def choose_action(self, view: MatchView) -> Action: ...

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]: ...


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
    if settle(state) or state.ruleset.check_victory(state) or not fighter.alive:
        state.active = None
        return False
    state.ruleset.preliminary_phase(state, fighter)  # e.g. Arena's Upgrades leave the card (R-A32 b)
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
    state.ruleset.activation_started(state, fighter)
    return True


def end_activation(
    state: MatchState, fighter: Fighter, controller: Controller | None = None, view: MatchView | None = None
) -> None:
    """End phase: "this turn" effects expire; end-of-turn powers trigger, in the order the player
    chooses when there are several (R-A36); unspent MP and AP are lost (R-A11)."""
    fighter.acting = False
    fighter.range_bonus = 0
    fighter.mp = fighter.ap = 0
    if fighter.alive and not state.finished and not fighter.powers.isdisjoint(END_OF_TURN_POWERS):
        triggers = [Trigger(kind, fighter.uid) for kind in end_of_turn_powers(fighter)]
        for trigger in ordered(triggers, controller, view, f"{fighter!r} end phase"):
            if fighter.alive and not state.finished:
                run_end_of_turn(state, fighter, trigger.kind)
                settle(state)
    if fighter.alive:
        fighter.stats.turns_alive += 1
    state.ruleset.activation_ended(state, fighter)
    state.active = None


def perform(state: MatchState, fighter: Fighter, action: Action) -> None:
    """Carry out one legal action: one instant, settled before the next decision."""
    kind = action.kind
    if kind == MOVE:
        walk(state, fighter, action.target)
    elif kind == CAST:
        cast(state, fighter, fighter.spells[action.spell], action.target)
    else:
        state.ruleset.perform_extra(state, fighter, action)
    settle(state)  # the action was one instant (engine.instant)


def game_turn(state: MatchState, controller: Controller, view: MatchView) -> None:
    """One player's game turn: the ruleset's start-of-turn phase, its characters in the ruleset's
    order, then the end of the turn (scenery heals, R-A125) and the next player."""
    rules = state.ruleset
    side = state.active_side
    state.turn += 1
    if state.record >= FULL:
        state.events.append(TurnStarted(state.turn, side))
    rules.start_turn(state, side, controller, view)
    if state.finished:
        return
    rules.play_characters(state, side, controller, view)
    if state.finished:  # the last character's turn won the match: no turn end after the match end
        return
    state.scenery_injuries.clear()  # R-A125: scenery heals at the end of each player's turn
    rules.end_turn(state, side)
    state.active_side = rules.next_player(state, side)


def positions(state: MatchState) -> tuple[tuple[int, str, int, int, int], ...]:
    """(uid, character, side, cell, injuries) of every piece on the board, for replays."""
    return tuple(
        (f.uid, f.spec.id, f.side, f.cell, f.injuries) for f in state.fighters if f.alive and f.cell >= 0
    )
