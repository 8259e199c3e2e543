"""Playing on a copy of the match: the rest of a team's turn, and whole game turns.

A search AI copies the match it sees (``MatchView.clone_state``, with its own dice) and plays on
the copy with heuristic controllers, through the engine's own turn functions and the ruleset's
hooks, in the order Arena's ruleset would (``krosbalance.rulesets.arena.timeline``, R-A30, R-A31):
the active character finishes its activation, then its Krosmaster's creatures after it (in the
order the controller gives), then the Krosmasters after it in the Timeline, each followed by its
creatures. Finishing a turn from the middle of an activation follows Arena's Timeline, so the search
tier plays Arena only (its registry entry says so); a whole game turn (:func:`play_turn`) is the
engine's own under any ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.legal import END, is_legal
from krosbalance.engine.state import Fighter, MatchState
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
from krosbalance.rulesets.arena.timeline import creature_order

if TYPE_CHECKING:
    from krosbalance.rulesets.arena.tension import ArenaController


class ReplayDice:
    """Dice that replay a pre-drawn list of raw faces (cycling): every candidate a search tries
    meets the same luck (common random numbers)."""

    __slots__ = ("_faces", "_next")

    def __init__(self, faces: list[int]) -> None:
        self._faces = faces
        self._next = 0

    @property
    def position(self) -> int:
        """How many faces have been read so far."""
        return self._next

    def roll(self) -> int:
        face = self._faces[self._next % len(self._faces)]
        self._next += 1
        return face


def finish_activation(state: MatchState, fighter: Fighter, controller: Controller, view: MatchView) -> None:
    """The active ``fighter`` acts until it ends its activation (the end phase included), as
    ``engine.turn.character_turn`` would."""
    for _ in range(MAX_ACTIONS_PER_ACTIVATION):
        if state.finished or not fighter.alive:
            break
        action = controller.choose_action(view)
        if not is_legal(state, fighter, action):
            raise IllegalActionError(f"{fighter!r} cannot {action}")
        if action.kind == END:
            break
        perform(state, fighter, action)
    end_activation(state, fighter, controller, view)


def finish_team_turn(
    state: MatchState, fighter: Fighter, controller: ArenaController, view: MatchView
) -> None:
    """The rest of the game turn of ``fighter``'s side, from the middle of ``fighter``'s activation:
    it finishes, then everyone after it in the Timeline order acts (``play_timeline``); then the
    turn ends as ``engine.turn.game_turn`` ends it, and the victory check runs as after every game
    turn (``engine.match.run_to_end``)."""
    finish_activation(state, fighter, controller, view)
    finish_team_turn_after(state, fighter, controller, view)


def finish_team_turn_after(
    state: MatchState, fighter: Fighter, controller: ArenaController, view: MatchView
) -> None:
    """:func:`finish_team_turn` once ``fighter``'s activation has ended (``finish_activation``):
    everyone after it in the Timeline order acts, then the turn ends. A search can look at the
    position between the two (``ai/mcts.py`` keeps its transpositions by it)."""
    side = fighter.side
    rules = state.ruleset
    owner = fighter if fighter.summoner is None else fighter.summoner
    started = False
    for krosmaster in list(state.timeline[side]):
        if state.finished:
            return
        if krosmaster is owner:
            started = True
            if krosmaster.summons:
                tokens = creature_order(state, krosmaster, controller, view)
                if fighter is not owner:
                    tokens = tokens[tokens.index(fighter) + 1 :] if fighter in tokens else []
                _creatures(state, tokens, controller, view)
            continue
        if not started or not krosmaster.alive:
            continue
        character_turn(state, krosmaster, controller, view)
        if krosmaster.summons:
            _creatures(state, creature_order(state, krosmaster, controller, view), controller, view)
    if state.finished:
        return
    state.scenery_injuries.clear()  # R-A125, as at the end of engine.turn.game_turn
    rules.end_turn(state, side)
    state.active_side = rules.next_player(state, side)
    rules.check_victory(state)


def _creatures(state: MatchState, tokens: list[Fighter], controller: Controller, view: MatchView) -> None:
    for token in tokens:
        if state.finished:
            return
        if token.alive:
            character_turn(state, token, controller, view)


def play_turn(state: MatchState, controller: Controller) -> None:
    """One whole game turn of the side to play (its start-of-turn phase included), then the victory
    check, as ``engine.match.run_to_end`` plays it."""
    if state.finished:
        return
    side = state.active_side
    game_turn(state, controller, MatchView(state, side))
    state.ruleset.check_victory(state)
