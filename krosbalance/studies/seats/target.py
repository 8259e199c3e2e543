"""The seats study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each character's strength at a table of more than two players, in
log-odds, with the interval the report gives it (a conditional logit grouped by match,
:func:`~krosbalance.studies.seats.tables.character_strength`, the one estimator), per arm."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths

QUANTITY = "character's strength at the table"
UNIT = "log-odds"


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): the study reads tables of
    more than two seats (its claim), so every experiment it plays has characters to measure."""
    return ""


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each (character, arm)'s 95% CI half-width (log-odds) from one AI's matches rows, keyed
    ``character · arm``; ``inf`` for one the rows cannot estimate yet."""
    from krosbalance.studies.seats.tables import character_strength, seat_table  # heavy: statsmodels

    if not len(matches):
        return {}
    strength = character_strength(seat_table(matches))
    chars = strength[strength["kind"] == "character"] if len(strength) else strength
    if chars.empty:
        return {}
    keys = [f"{term} · {arm}" for term, arm in zip(chars["term"], chars["arm"], strict=True)]
    return interval_half_widths(keys, chars["ci_low"], chars["ci_high"])
