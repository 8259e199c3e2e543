"""The restricted-play study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each restricted arm's Δ strength of its figure, in log-odds, with
the interval the report gives it (:func:`~krosbalance.studies.restricted.tables.restricted_table`,
the one estimator). An arm whose element the AI never used (no paired match changed) says nothing
at any sample size and is left out, as the report leaves it out."""

from __future__ import annotations

import json
from typing import Any

from krosbalance.sim.target import interval_half_widths, two_player_problem

QUANTITY = "restricted arm's Δ strength"
UNIT = "log-odds"


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): strength is read from
    two-player matches."""
    return two_player_problem(experiment)


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each restricted arm's 95% CI half-width (log-odds) from one AI's matches rows, keyed
    ``figure without element``; ``inf`` for an arm the rows cannot estimate yet. ``experiment``
    gives the arms' forbids (as the manifest records them for the report)."""
    from krosbalance.studies.restricted.tables import restricted_table  # heavy: pandas, statsmodels

    forbids = {arm: json.loads(text) for arm, text in experiment.forbids} if experiment is not None else {}
    table = restricted_table(matches, forbids)
    if table.empty:
        return {}
    moved = table[table["changed"] != 0]
    keys = [
        f"{figure} without {element}"
        for figure, element in zip(moved["figure"], moved["element"], strict=True)
    ]
    return interval_half_widths(keys, moved["ci_low"], moved["ci_high"])
