"""The challenges study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each Divine Challenge's shift of the first player's win rate against
no challenge on the same deals, in win-rate points, with the interval the report gives it
(:func:`~krosbalance.studies.challenges.tables.verdicts`, the one estimator). The default half-width
is 4 points."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths
from krosbalance.studies import shapes

QUANTITY = "challenge's shift of the first player's win rate"
UNIT = "points"
DEFAULT_HALF_WIDTH = 4.0


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): a tier sweep answers with
    its neutral threshold, a crossing of its tiers that rounds of deals do not size."""
    if shapes.sweep_target(experiment):
        return (
            "a tier sweep answers with its neutral threshold, which a target does not size; remove [target]"
        )
    return ""


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each challenge's 95% CI half-width (win-rate points) from one AI's matches rows; ``inf`` for
    one the rows cannot estimate yet."""
    from krosbalance.studies.challenges.tables import blast_matches, verdicts  # heavy: pandas, scipy

    if not len(matches):
        return {}
    frame = blast_matches(matches)
    table = verdicts(frame) if len(frame) else frame
    if table.empty:
        return {}
    return interval_half_widths(table["arm"], table["first_lo"], table["first_hi"], scale=100)
