"""Gallons of Glory, kamas and victory in Arena (R-A10, R-A26, R-A49-R-A50, R-A128-R-A135).

GG gains and losses made during an action wait for its instant to settle before victory is checked
(``krosbalance.engine.instant``); ``ArenaRuleset.check_victory`` is the one place R-A132 is decided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.events import SUMMARY
from krosbalance.rulesets.arena.events import GGChanged, KamaPicked
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.state import arena_state

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.arena.options import ArenaOptions


def gain_gg(
    state: MatchState, side: int, amount: int, credit: Fighter | None = None, source: int = -1
) -> int:
    """``side`` gains ``amount`` GG: the wild GG first while it is there, then from the ``source``
    player (R-A129): with two players the opponent; with four the player whose Krosmaster was KO'd
    (R-A155) or, for a purchase, the opponent ``leading_opponent`` names. GG the source does not have
    are not created. Returns how many were gained."""
    arena = arena_state(state)
    gg = arena.gg
    gained = 0
    if amount > 0 and arena.wild_gg > 0:
        arena.wild_gg -= 1
        gg[side] += 1
        gained += 1
        amount -= 1
        if state.record >= SUMMARY:
            state.events.append(GGChanged(state.turn, side, 1, "wild", tuple(gg)))
    other = source if source >= 0 else (1 - side if state.n_seats == 2 else leading_opponent(state, side))
    taken = min(amount, gg[other])
    if taken:
        gg[other] -= taken
        gg[side] += taken
        gained += taken
        if state.record >= SUMMARY:
            state.events.append(GGChanged(state.turn, side, taken, "opponent", tuple(gg)))
    if credit is not None and credit.side == side:
        arena_stats(credit).gg_won += gained
    return gained


def leading_opponent(state: MatchState, side: int) -> int:
    """The opponent of ``side`` holding the most GG, ties to the one who plays soonest after it:
    whom a GG bought in a four-player match is taken from once the wild GG are gone (assumed: the
    rules say only that a bought GG comes from an opponent, R-A50; the leader is who a buyer would
    pick, and one fixed rule keeps the purchase a single action)."""
    gg = arena_state(state).gg
    order = state.play_order
    at = order.index(side)
    after = [order[(at + k) % len(order)] for k in range(1, len(order))]
    opponents = [seat for seat in after if state.team_of[seat] != state.team_of[side]]
    return max(opponents, key=lambda seat: (gg[seat], -after.index(seat)))


def gg_for_kos(state: MatchState, kos: list[Fighter]) -> None:
    """Each KO'd character with a level gives that many GG to the opponent of its side (R-A10,
    R-A131; summons have none, R-A110); the active player takes his gains first (R-A130), so he takes
    the wild GG when both players gain (R-A129)."""
    active = state.active_side
    for side in (active, 1 - active):  # R-A130: the active player gains first
        for victim in kos:
            if victim.side != side and victim.level > 0 and victim.is_character:
                gain_gg(state, side, victim.level, victim.ko_by)


def tension_rises(state: MatchState) -> None:
    """A tension double: each player loses 1 GG to the box, given to nobody (R-A26); both losses are
    one instant, so victory is checked once, after both (R-A133, option ``simultaneous_zero_gg``)."""
    state.unsettled = True
    for side in (0, 1):
        lose_gg(state, side, "tension")


def lose_gg(state: MatchState, side: int, why: str) -> None:
    """One GG of ``side`` goes back to the box (a tension double, R-A26, R-A157), if it has one."""
    arena = arena_state(state)
    gg = arena.gg
    state.unsettled = True
    if gg[side] > 0:
        gg[side] -= 1
        arena.gg_removed += 1
        if state.record >= SUMMARY:
            state.events.append(GGChanged(state.turn, side, -1, why, tuple(gg)))


def take_from_reserve(state: MatchState, side: int, amount: int) -> int:
    """Kamas from the box reserve to a team's stock, as many as the reserve still holds."""
    arena = arena_state(state)
    amount = min(amount, arena.kama_reserve)
    arena.kama_reserve -= amount
    arena.kamas[side] += amount
    return amount


def pick_kama(state: MatchState, fighter: Fighter) -> None:
    """1 AP: one kama token from the Krosmaster's own cell to the team stock (R-A49)."""
    arena = arena_state(state)
    fighter.ap -= 1
    arena.board_kamas[fighter.cell] -= 1
    arena.kamas[fighter.side] += 1
    arena_stats(fighter).kamas_collected += 1
    if state.record >= 2:
        state.events.append(KamaPicked(state.turn, fighter.uid, fighter.cell, 1))


def buy_gg(state: MatchState, fighter: Fighter) -> None:
    """1 AP and the GG price on a Demon cell: the wild GG if present, else one from the opponent
    (R-A50). The kamas go back to the reserve."""
    arena = arena_state(state)
    price = arena.gg_price
    fighter.ap -= 1
    arena.kamas[fighter.side] -= price
    arena.kama_reserve += price
    gain_gg(state, fighter.side, 1, fighter)
    state.unsettled = True  # victory is checked when the action's instant settles


def drop_loot(state: MatchState, cell: int, loot: int) -> None:
    """A destroyed piece of scenery leaves up to ``loot`` kamas from the reserve on its cell (R-A127)."""
    arena = arena_state(state)
    loot = min(loot, arena.kama_reserve)
    arena.kama_reserve -= loot
    arena.board_kamas[cell] += loot


def turn_limit_winner(state: MatchState, opts: ArenaOptions) -> int | None:
    """When the turn bound stops a match: a draw, or under ``turn_limit_result = "gg"`` the player
    with more GG (a draw when equal)."""
    gg = arena_state(state).gg
    if opts.turn_limit_result == "gg" and gg[0] != gg[1]:
        return 0 if gg[0] > gg[1] else 1
    return None
