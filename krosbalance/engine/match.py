"""Running a set-up match to its end and summing it up as a MatchResult."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from krosbalance.engine.outcome import end_match
from krosbalance.engine.results import ENGINE_VERSION, FighterRecord, MatchResult
from krosbalance.engine.state import KROSMASTER, MatchState, Players
from krosbalance.engine.turn import game_turn

if TYPE_CHECKING:
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView


def run_to_end(
    state: MatchState,
    controllers: Sequence[Controller],
    views: Sequence[MatchView],
    after_turn: Callable[[MatchState], None] | None = None,
) -> None:
    """Play game turns (each seat's controller and view, indexed by seat) until a partnership wins or the turn bound stops the match (its winner is the
    ruleset's ``turn_limit_winner``). ``after_turn`` is called after each game turn (a replay's
    record of the holdings at every turn end, ``krosbalance.render.checkpoints``)."""
    rules = state.ruleset
    limit = state.opts.turn_limit
    state.players = Players(tuple(controllers), tuple(views))
    while not state.finished:
        if state.turn >= limit:
            end_match(state, rules.turn_limit_winner(state), "turn_limit")
            break
        side = state.active_side
        game_turn(state, controllers[side], views[side])
        rules.check_victory(state)
        if after_turn is not None:
            after_turn(state)


def play_opening(
    state: MatchState, controllers: Sequence[Controller], views: Sequence[MatchView], turns: int
) -> None:
    """Play at most ``turns`` game turns, then end the match as the turn bound would (unless a
    partnership won first): a short match that passes every stage of a full one (set-up, turns,
    the bound's winner, the result), as a trial of an experiment's arm plays it."""
    rules = state.ruleset
    state.players = Players(tuple(controllers), tuple(views))
    stop = min(state.turn + turns, state.opts.turn_limit)
    while not state.finished and state.turn < stop:
        side = state.active_side
        game_turn(state, controllers[side], views[side])
        rules.check_victory(state)
    if not state.finished:
        end_match(state, rules.turn_limit_winner(state), "turn_limit")


def summarise(state: MatchState, seed: int) -> MatchResult:
    """The MatchResult of a finished match: outcome, the ruleset's holdings and every fighter's
    counters."""
    rules = state.ruleset
    krosmasters = [f for f in state.fighters if f.kind == KROSMASTER]
    tokens = [f for f in state.fighters if f.kind != KROSMASTER]
    records = [
        FighterRecord(
            uid=f.uid,
            side=f.side,
            character=f.spec.id,
            name=f.spec.name,
            level=f.level,
            is_summon=f.kind != KROSMASTER,
            summoner=None if f.summoner is None else f.summoner.uid,
            stats=f.stats,
            values=rules.fighter_values(state, f),
        )
        for f in krosmasters + tokens
    ]
    teams = tuple(
        tuple(f.spec.id for f in state.fighters if f.kind == KROSMASTER and f.side == s)
        for s in range(state.n_seats)
    )
    result = MatchResult(
        winner=state.winner,
        end_reason=state.end_reason,
        turns=state.turn,
        first_player=state.first_player,
        teams=teams,
        partnerships=state.team_of,
        play_order=state.play_order,
        board=state.board.id,
        ruleset=state.ruleset.describe(),
        seed=seed,
        fighters=records,
        events=state.events,
        versions={"engine": ENGINE_VERSION, "ruleset": f"{state.ruleset.name}-{state.ruleset.version}"},
    )
    rules.fill_result(state, result)  # e.g. Arena's GG, kamas, wild GG
    return result
