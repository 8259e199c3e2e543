"""The tension roll: Arena's start-of-turn phase (R-A26-R-A29).

Two dice are rolled; the roller turns wild faces (R-A13). A double costs each player 1 GG (tension
rises, R-A26). Each die then inspires one of the roller's Krosmasters with the power of its face
until his next tension roll (R-A27), or is refunded: 3 kamas for two refunded dice, 1 for one
(R-A28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from krosbalance.engine.dice import FACE_POWER, TURNABLE
from krosbalance.engine.events import FULL
from krosbalance.engine.instant import settle
from krosbalance.engine.turn import Controller
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.arena.economy import take_from_reserve, tension_rises
from krosbalance.rulesets.arena.events import TensionRolled
from krosbalance.rulesets.arena.four_player import tension_double

if TYPE_CHECKING:
    from krosbalance.content.specs import RewardSpec
    from krosbalance.engine.state import MatchState
    from krosbalance.engine.view import FighterView, MatchView

REFUND_KAMAS = (3, 1, 0)  # kamas for 0, 1 or 2 dice used for inspiration (R-A28)


class TensionChoice(NamedTuple):
    """The roller's answer to the tension roll: the faces the dice are turned to (R-A13) and, per
    die, the uid of the Krosmaster it inspires or -1 to refund it (R-A27, R-A28)."""

    faces: tuple[int, int]
    assigned: tuple[int, int] = (-1, -1)


def tension_options(face_a: int, face_b: int) -> list[tuple[int, int]]:
    """Every pair of basic faces the roller may turn two raw tension dice into (R-A13, R-A26)."""
    return [(a, b) for a in TURNABLE[face_a] for b in TURNABLE[face_b]]


class ArenaController(Controller, Protocol):
    """What Arena asks of a player besides the engine's decisions.

    ``choose_deployment`` returns distinct cells among ``cells`` for ``fighters`` (R-A25);
    ``choose_tension`` the faces and inspirations of a tension roll (R-A26-R-A28); ``choose_edge`` an
    index into ``edges`` (the board's deployment zones as cell bitmasks, R-A19); ``order_creatures``
    the uids of ``creatures`` in the order they act (R-A31); ``give_reward`` the uid of the Krosmaster
    among ``candidates`` that receives a Demonic Reward held from the start (R-A52, ``start_rewards``);
    ``choose_player`` an index into ``seats``, the player a four-player choice names (``purpose``: a
    tension loss or its pass, R-A157, or a self-KO's GG, R-A155; ``rulesets.arena.four_player``).
    """

    def choose_deployment(
        self, view: MatchView, fighters: list[FighterView], cells: list[int]
    ) -> list[int]: ...

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice: ...

    def choose_edge(self, view: MatchView, edges: list[int]) -> int: ...

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]: ...

    def give_reward(self, view: MatchView, reward: RewardSpec, candidates: list[FighterView]) -> int: ...

    def choose_player(self, view: MatchView, purpose: str, seats: list[int]) -> int: ...


def tension_roll(state: MatchState, side: int, controller: ArenaController, view: MatchView) -> None:
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
    apply_tension(state, side, raw, choice)


def apply_tension(state: MatchState, side: int, raw: tuple[int, int], choice: TensionChoice) -> None:
    """The roller's answer takes effect: a double raises the tension, each die inspires its
    Krosmaster or is refunded (R-A26-R-A28). A search plays a candidate answer on a copy of the
    match through this, the rules' own code."""
    faces = (choice.faces[0], choice.faces[1])
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
        if state.n_seats == 2:
            tension_rises(state)
        else:
            tension_double(state, side)  # R-A157
        if settle(state):  # both losses are one instant (R-A133)
            return
    for face, uid in zip(faces, choice.assigned, strict=True):
        if uid != -1:
            own[uid].inspired.add(FACE_POWER[face])
    used = sum(1 for uid in choice.assigned if uid != -1)
    take_from_reserve(state, side, REFUND_KAMAS[used])
