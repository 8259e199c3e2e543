"""Who acts in an Arena game turn: the Timeline (R-A20, R-A30, R-A31, R-A37).

A player's Krosmasters act left to right along his Timeline (decreasing Initiative, built at set-up),
each followed by its creatures in the order its player chooses; a creature summoned during its
summoner's turn acts in that same game turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.events import SUMMARY
from krosbalance.engine.state import CREATURE
from krosbalance.engine.turn import character_turn, positions
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.arena.events import TurnEnded
from krosbalance.rulesets.arena.state import arena_state

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.tension import ArenaController


def play_timeline(state: MatchState, side: int, controller: ArenaController, view: MatchView) -> None:
    """The Timeline left to right, each Krosmaster followed by its creatures (R-A30, R-A31)."""
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


def creature_order(
    state: MatchState, summoner: Fighter, controller: ArenaController, view: MatchView
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


def record_turn_end(state: MatchState, side: int) -> None:
    """The turn-end record of replays: GG and every piece's position."""
    if state.record >= SUMMARY:
        gg = arena_state(state).gg
        state.events.append(TurnEnded(state.turn, side, tuple(gg), positions(state)))
