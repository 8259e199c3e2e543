"""The AI a time budget affords: the strongest of the AI ladder whose estimated run fits.

``krosbalance compare`` plays its matches with the strongest AI it can afford. The candidates are
the AIs of the shipped ladder (``krosbalance/ai/data/ladder.toml``, Bradley-Terry ratings from
``simulations/ai-ladder-connected.toml``) that play the ruleset, strongest first. Each candidate's
cost is measured on this machine (a deal of the compared teams, both sides: two matches) and the
run's cost estimated as ``matches x seconds per match / jobs``; the first that fits the budget is
chosen. When none fits, the one of smallest estimate is, and the line says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """The AI chosen and the one line that says why."""

    ai: str
    reason: str


def ladder_candidates(
    ratings: dict[str, float], playable: Callable[[str], bool], registered: Sequence[str]
) -> list[str]:
    """The ladder's AIs that are registered and play the ruleset, strongest (highest rating) first."""
    known = set(registered)
    order = sorted(ratings, key=lambda ai: (-ratings[ai], ai))
    return [ai for ai in order if ai in known and playable(ai)]


def _seconds(x: float) -> str:
    return f"{x:,.0f} s" if x >= 10 else f"{x:.1f} s"


def choose_ai(
    candidates: Sequence[str],
    n_matches: int,
    jobs: int,
    budget: float,
    measure: Callable[[str], float],
) -> Choice:
    """The first candidate (strongest first) whose estimated run fits ``budget`` seconds.

    Args:
        candidates: AI names, strongest first.
        n_matches: matches the run plays.
        jobs: parallel workers (the estimate divides by them).
        budget: seconds the run may take.
        measure: seconds one match of an AI takes on this machine (timed by the caller).

    Returns:
        The choice and its one-line reason (the estimate, and what the stronger AI would have needed).
    """
    if not candidates:
        raise ValueError("no AI to choose from")
    jobs = max(1, jobs)
    tried: list[tuple[str, float, float]] = []
    for ai in candidates:
        per_match = measure(ai)
        estimate = per_match * n_matches / jobs
        if estimate <= budget:
            stronger = (
                f"; {tried[-1][0]} would need ~{_seconds(tried[-1][2])}"
                if tried
                else "; the strongest there is"
            )
            return Choice(
                ai,
                f"AI: {ai}, the strongest on the AI ladder that fits --budget {_seconds(budget)}: "
                f"{n_matches:,} matches x {per_match:.2f} s / {jobs} jobs ~ {_seconds(estimate)}{stronger}.",
            )
        tried.append((ai, per_match, estimate))
    ai, per_match, estimate = min(tried, key=lambda t: t[2])
    return Choice(
        ai,
        f"AI: {ai}, the fastest on the AI ladder: none fits --budget {_seconds(budget)} "
        f"({n_matches:,} matches x {per_match:.2f} s / {jobs} jobs ~ {_seconds(estimate)}); "
        "lower --matches or raise --budget.",
    )


__all__ = ["Choice", "choose_ai", "ladder_candidates"]
