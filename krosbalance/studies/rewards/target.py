"""The rewards study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each token's Δ win rate, in win-rate points, with the 95% interval
the report gives it. A value experiment (``held_rewards`` against the no-token deal) reads
:func:`~krosbalance.studies.rewards.value.controlled_value`; a priced one (per-holder and purchase
arms) reads each token's mean over its holders,
:func:`~krosbalance.studies.rewards.purchase.holder_summary`, the number the Rewards priced
section leads with. Nothing is re-estimated here.

The default half-width is 4 points: about ±0.16 log-odds at an even match, the strength study's
±0.15 in the unit a designer reads a token in."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths
from krosbalance.studies import shapes

QUANTITY = "token's Δ win rate"
UNIT = "points"
DEFAULT_HALF_WIDTH = 4.0


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): a price sweep's answer is
    a crossing of its prices, which rounds of deals do not size; an experiment without token arms
    has no token to measure."""
    if shapes.sweep_target(experiment):
        return "a price sweep answers with its fair price, which a target does not size; remove [target]"
    if not (experiment.held_rewards or experiment.purchase_rewards):
        return "the experiment holds no token arms (held_rewards or purchase_rewards) to measure"
    return ""


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each token's 95% CI half-width (win-rate points) from one AI's matches rows; ``inf`` for a
    token the rows cannot estimate yet."""
    from krosbalance.studies.rewards import purchase, value  # heavy: pandas, scipy, matplotlib

    if purchase.is_priced_experiment(matches):
        table = purchase.holder_summary(matches)
        names, lows, highs = "token", "mean_low", "mean_high"
    else:
        table = value.controlled_value(matches)
        names, lows, highs = "reward", "delta_low", "delta_high"
    if table.empty:
        return {}
    return interval_half_widths(table[names], table[lows], table[highs], scale=100)
