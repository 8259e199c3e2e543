"""Playing on a copy of the match: the rest of a team's turn, and whole game turns.

A search AI copies the match it sees (``MatchView.clone_state``, with its own dice) and plays on
the copy with heuristic controllers, through the engine's own turn functions, in the order the
engine would (R-A30, R-A31): the active character finishes its activation, then the creatures its
Krosmaster summoned, then the Krosmasters after it in the Timeline, each followed by its creatures.
"""

from __future__ import annotations

from krosbalance.engine.economy import check_victory
from krosbalance.engine.legal import END, is_legal
from krosbalance.engine.state import CREATURE, Fighter, MatchState
from krosbalance.engine.turn import (
    MAX_ACTIONS_PER_ACTIVATION,
    Controller,
    character_turn,
    end_activation,
    game_turn,
    perform,
)
from krosbalance.engine.view import MatchView
from krosbalance.errors import IllegalActionError


class ReplayDice:
    """Dice that replay a pre-drawn list of raw faces (cycling): every candidate a search tries
    meets the same luck (common random numbers)."""

    __slots__ = ("_faces", "_next")

    def __init__(self, faces: list[int]) -> None:
        self._faces = faces
        self._next = 0

    def roll(self) -> int:
        face = self._faces[self._next % len(self._faces)]
        self._next += 1
        return face


def finish_activation(state: MatchState, fighter: Fighter, controller: Controller, view: MatchView) -> None:
    """The active ``fighter`` acts until it ends its activation (the end phase included)."""
    for _ in range(MAX_ACTIONS_PER_ACTIVATION):
        if state.finished or not fighter.alive:
            break
        action = controller.choose_action(view)
        if not is_legal(state, fighter, action):
            raise IllegalActionError(f"{fighter!r} cannot {action}")
        if action.kind == END:
            break
        perform(state, fighter, action)
    end_activation(state, fighter)


def finish_team_turn(state: MatchState, fighter: Fighter, controller: Controller, view: MatchView) -> None:
    """The rest of the game turn of ``fighter``'s side, from the middle of ``fighter``'s activation:
    it finishes, then everyone after it in the Timeline order acts; then the turn ends."""
    side = fighter.side
    finish_activation(state, fighter, controller, view)
    timeline = state.timeline[side]
    owner = fighter if fighter.summoner is None else fighter.summoner
    started = False
    for krosmaster in list(timeline):
        if state.finished:
            return
        if krosmaster is owner:
            started = True
            tokens = list(krosmaster.summons)
            if fighter is not owner:
                tokens = tokens[tokens.index(fighter) + 1 :] if fighter in tokens else []
            _creatures(state, tokens, controller, view)
            continue
        if not started or not krosmaster.alive:
            continue
        character_turn(state, krosmaster, controller, view)
        _creatures(state, list(krosmaster.summons), controller, view)
    if state.finished:
        return
    state.scenery_injuries.clear()  # R-A125, as at the end of engine.turn.game_turn
    state.active_side = 1 - side
    check_victory(state)


def _creatures(state: MatchState, tokens: list[Fighter], controller: Controller, view: MatchView) -> None:
    for token in tokens:
        if state.finished:
            return
        if token.alive and token.kind == CREATURE:
            character_turn(state, token, controller, view)


def play_turn(state: MatchState, controller: Controller) -> None:
    """One whole game turn of the side to play (tension roll included), then the victory check."""
    if state.finished:
        return
    side = state.active_side
    game_turn(state, controller, MatchView(state, side))
    check_victory(state)
