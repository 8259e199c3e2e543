"""Which AI's figures are the answer: the strongest validated AI of the ruleset that played the run,
and the next one down (issue 39: the verdict is the strongest validated AI's).

The ladder's order is one rule for every layer, :mod:`krosbalance.ai.ladder_order` (the run's
adaptive target plays the same AI this module names): the AIs validated for the run's ruleset first,
then tier, rating and name. A run's answer is measured by the strongest AI *validated for its
ruleset* that played it; the next AI down is the next one of that order that also played (validated
or not: the comparison says which). When no AI that played is validated for the ruleset, the
strongest one played answers, marked provisional.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from krosbalance.ai.ladder_order import (
    FOUR_PLAYER_LADDER,
    LADDER_RULESETS,
    base_ruleset,
    ladder_key,
    ladder_ruleset,
    strength_order,
    validated_for,
)


@dataclass(frozen=True)
class TopAIs:
    """The AI whose figures answer (``top``), the next one down that also played (``second``, ''
    when only one AI played), whether each is validated for ``ruleset``, and every AI played,
    strongest first."""

    top: str
    second: str
    ruleset: str
    top_validated: bool
    second_validated: bool
    order: tuple[str, ...]

    @property
    def one_ai(self) -> bool:
        """Whether the run had one AI only (no second AI to compare with)."""
        return not self.second

    def others(self) -> tuple[str, ...]:
        """The AIs below the top one, strongest first (the comparison section's)."""
        return self.order[1:]


def top_ais(
    ais: Iterable[str],
    ruleset: str,
    standings: Mapping[str, Any] | None = None,
    tiers: Mapping[str, str] | None = None,
) -> TopAIs | None:
    """The strongest AI of ``ais`` (those that played the run) validated for ``ruleset``, and the
    next one down that also played (see the module docstring); None when no AI played.
    ``standings`` default to the shipped ladder's (:func:`krosbalance.analysis.ais.load_standings`)."""
    if standings is None:
        from krosbalance.analysis.ais import load_standings  # heavy: pandas, scipy, statsmodels

        standings = load_standings(ruleset)[0]
    order = strength_order(ais, ruleset, standings, tiers)
    if not order:
        return None
    top, second = order[0], order[1] if len(order) > 1 else ""
    return TopAIs(
        top,
        second,
        base_ruleset(ruleset),
        validated_for(top, ruleset, standings),
        bool(second) and validated_for(second, ruleset, standings),
        tuple(order),
    )


def run_ruleset(matches: Any) -> str:
    """The ruleset of a run's matches (its most played one; Arena for rows written before the
    column); four-seat Arena's ladder (``arena-4p``) when the matches seat more than two players."""
    if matches is None or len(matches) == 0 or "ruleset" not in matches.columns:
        return "arena"
    named = matches["ruleset"].dropna().astype(str).map(base_ruleset)
    name = str(named.value_counts().index[0]) if len(named) else "arena"
    four = "ai2" in matches.columns and bool(matches["ai2"].notna().any())
    return ladder_ruleset(name, 4 if four else 2)


def ai_note(top: TopAIs) -> str:
    """How the answering AI stands: ``mcts-race, the strongest validated AI played`` or, when none
    is validated for the ruleset, that its answer is provisional."""
    if top.top_validated:
        return f"{top.top}, the strongest validated AI played"
    return (
        f"{top.top}, the strongest AI played (provisional: not validated for {top.ruleset} by the AI ladder)"
    )


__all__ = [
    "FOUR_PLAYER_LADDER",
    "LADDER_RULESETS",
    "TopAIs",
    "ai_note",
    "base_ruleset",
    "ladder_key",
    "run_ruleset",
    "strength_order",
    "top_ais",
    "validated_for",
]
