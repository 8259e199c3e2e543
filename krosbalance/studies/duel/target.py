"""The Duel Pack study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each figure's duel win rate (no token held from the start), in
win-rate points, with the interval the report gives it
(:func:`~krosbalance.studies.duel.tables.figure_win_rates`, the one estimator). The default
half-width is 4 points, the strength study's ±0.15 log-odds at an even duel."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths

QUANTITY = "figure's duel win rate"
UNIT = "points"
DEFAULT_HALF_WIDTH = 4.0


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): every Duel Pack
    experiment has figures' win rates to measure."""
    return ""


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each figure's 95% CI half-width (win-rate points) from one AI's matches rows; ``inf`` for one
    the rows cannot estimate yet."""
    from krosbalance.studies.duel.tables import duel_frame, figure_win_rates  # heavy: pandas, scipy

    frame = duel_frame(matches)
    rates = figure_win_rates(frame) if len(frame) else frame
    if rates.empty:
        return {}
    return interval_half_widths(rates["character"], rates["ci_low"], rates["ci_high"], scale=100)
