"""Gallons of Glory, kamas and victory (R-A49-R-A50, R-A128-R-A135).

GG gains and losses made during an action wait for its instant to settle before victory is checked
(``krosbalance.engine.instant``); ``check_victory`` is the one place R-A132 is decided.
"""

from __future__ import annotations

from krosbalance.engine.events import SUMMARY, GGChanged, KamaPicked, MatchEnded
from krosbalance.engine.state import Fighter, MatchState


def gain_gg(state: MatchState, side: int, amount: int, credit: Fighter | None = None) -> int:
    """``side`` gains ``amount`` GG: the wild GG first while it is there, then from the opponent
    (R-A129). GG the opponent does not have are not created. Returns how many were gained."""
    gained = 0
    if amount > 0 and state.wild_gg > 0:
        state.wild_gg -= 1
        state.gg[side] += 1
        gained += 1
        amount -= 1
        if state.record >= SUMMARY:
            state.events.append(GGChanged(state.turn, side, 1, "wild", (state.gg[0], state.gg[1])))
    other = 1 - side
    taken = min(amount, state.gg[other])
    if taken:
        state.gg[other] -= taken
        state.gg[side] += taken
        gained += taken
        if state.record >= SUMMARY:
            state.events.append(GGChanged(state.turn, side, taken, "opponent", (state.gg[0], state.gg[1])))
    if credit is not None and credit.side == side:
        credit.stats.gg_won += gained
    return gained


def tension_rises(state: MatchState) -> None:
    """A tension double: each player loses 1 GG to the box, given to nobody (R-A26); both losses are
    one instant, so victory is checked once, after both (R-A133, option ``simultaneous_zero_gg``)."""
    state.unsettled = True
    for side in (0, 1):
        if state.gg[side] > 0:
            state.gg[side] -= 1
            state.gg_removed += 1
            if state.record >= SUMMARY:
                state.events.append(GGChanged(state.turn, side, -1, "tension", (state.gg[0], state.gg[1])))


def take_from_reserve(state: MatchState, side: int, amount: int) -> int:
    """Kamas from the box reserve to a team's stock, as many as the reserve still holds."""
    amount = min(amount, state.kama_reserve)
    state.kama_reserve -= amount
    state.kamas[side] += amount
    return amount


def pick_kama(state: MatchState, fighter: Fighter) -> None:
    """1 AP: one kama token from the Krosmaster's own cell to the team stock (R-A49)."""
    fighter.ap -= 1
    state.board_kamas[fighter.cell] -= 1
    state.kamas[fighter.side] += 1
    fighter.stats.kamas_collected += 1
    if state.record >= 2:
        state.events.append(KamaPicked(state.turn, fighter.uid, fighter.cell, 1))


def buy_gg(state: MatchState, fighter: Fighter) -> None:
    """1 AP and the GG price on a Demon cell: the wild GG if present, else one from the opponent
    (R-A50). The kamas go back to the reserve."""
    price = state.opts.gg_price
    fighter.ap -= 1
    state.kamas[fighter.side] -= price
    state.kama_reserve += price
    gain_gg(state, fighter.side, 1, fighter)
    state.unsettled = True  # victory is checked when the action's instant settles


def end_match(state: MatchState, winner: int | None, reason: str) -> None:
    if state.finished:
        return
    state.finished = True
    state.winner = winner
    state.end_reason = reason
    if state.record >= SUMMARY:
        state.events.append(MatchEnded(state.turn, -1 if winner is None else winner, reason))


def check_victory(state: MatchState) -> bool:
    """End the match if a player has won (R-A132) and say whether it is over.

    Called once per instant, after its KOs and GG gains (``engine.instant``):

    - Krosmasters: a player wins if he *alone* still has Krosmasters in play (``last_standing``).
    - GG, once the wild GG is gone (or at once under the ``zero_gg_loses`` variant): the only player
      holding GG wins (``gg``). Nobody holding GG (a tension double at 1-1, R-A133) is what the
      ``simultaneous_zero_gg`` option says: ``draw`` (``gg_exhausted``), or ``play_on`` (nobody is
      *the only* player holding GG, so the match goes on until one player alone has Krosmasters).
    - Neither player has Krosmasters (their last ones were KO'd at one instant): the GG condition
      decides if it can, else the match is a draw (``mutual_ko``).
    """
    if state.finished:
        return True
    standing0 = any(f.alive for f in state.timeline[0])
    standing1 = any(f.alive for f in state.timeline[1])
    if standing0 != standing1:
        end_match(state, 0 if standing0 else 1, "last_standing")
        return True
    if state.wild_gg == 0 or state.opts.zero_gg_loses:
        holding0, holding1 = state.gg[0] > 0, state.gg[1] > 0
        if holding0 != holding1:
            end_match(state, 0 if holding0 else 1, "gg")
            return True
        if not holding0 and standing0 and state.opts.simultaneous_zero_gg == "draw":
            end_match(state, None, "gg_exhausted")
            return True
    if not standing0:
        end_match(state, None, "mutual_ko")
        return True
    return False
