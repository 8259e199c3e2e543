"""The end of a match: the one place a winner and an end reason are written.

Rulesets decide *who* has won (``MatchRules.check_victory``, ``turn_limit_winner``) and call
:func:`end_match`; the engine only records it, once.
"""

from __future__ import annotations

from krosbalance.engine.events import SUMMARY, MatchEnded
from krosbalance.engine.state import MatchState


def end_match(state: MatchState, winner: int | None, reason: str) -> None:
    """Finish the match with ``winner`` (a partnership — the seat, without partnerships — or None
    for a draw) for ``reason``; a second call
    changes nothing."""
    if state.finished:
        return
    state.finished = True
    state.winner = winner
    state.end_reason = reason
    if state.record >= SUMMARY:
        state.events.append(MatchEnded(state.turn, -1 if winner is None else winner, reason))


def seats_standing(state: MatchState) -> list[bool]:
    """Whether each seat still has a Krosmaster in play."""
    return [any(f.alive for f in line) for line in state.timeline]
