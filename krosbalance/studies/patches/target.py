"""The patches study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`, and a fix file's verification, ``verify_half_width``): every
figure's teammate-adjusted strength in every arm, in log-odds, with the interval the report gives
it (:func:`~krosbalance.studies.patches.tables.arm_strengths`, the one estimator). Every figure, not
only the patched ones: a patch is judged by the whole box staying within the band."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths, two_player_problem
from krosbalance.studies import shapes

QUANTITY = "figure's strength in each arm"
UNIT = "log-odds"
IN_STAGES = "a fix file sizes its verification with verify_half_width in [fix]"
"""Where a staged file of this study asks for a target (its own ``[target]`` is refused)."""


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): a sweep's answer is a
    fitted line over its values, which rounds of deals do not size; strength is read from two-player
    matches."""
    if shapes.sweep_target(experiment):
        return "a sweep answers with a line fitted over its values, which a target does not size; remove [target]"
    return two_player_problem(experiment)


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each (figure, arm)'s 95% CI half-width (log-odds) from one AI's matches rows, keyed
    ``figure · arm``; ``inf`` for one the rows cannot estimate yet."""
    from krosbalance.analysis.dependence import POOLED  # heavy: pandas, scipy, statsmodels
    from krosbalance.studies.patches.tables import arm_strengths  # heavy: pandas, scipy, statsmodels

    table = arm_strengths(matches, by="ai_matchup")
    table = table[table["group"] == POOLED]  # the rows are one AI's: its fit is the pooled one
    if table.empty:
        return {}
    keys = [f"{term} · {arm}" for term, arm in zip(table["term"], table["arm"], strict=True)]
    return interval_half_widths(keys, table["ci_low"], table["ci_high"])
