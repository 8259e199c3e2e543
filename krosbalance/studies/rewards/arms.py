"""Which reward arms a run played, from its record: the experiment copy beside the results
(:func:`krosbalance.analysis.sections.copy_experiment`), not a guess from the matches.

``held_rewards``: value arms (each token held from the start against the no-token deal);
``purchase_rewards``, or ``reward_holders`` other than ``"ai"`` beside held tokens: arms priced as
real play (:mod:`krosbalance.sim.reward_arms`). Results written without the copy are asked their
data instead, as before runs kept it (:func:`~krosbalance.studies.rewards.value.is_value_experiment`,
:func:`~krosbalance.studies.rewards.purchase.is_priced_experiment`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd


def _recorded(rs: Any) -> Any:
    from krosbalance.analysis.sections import copy_experiment

    return copy_experiment(getattr(rs, "spec_text", "") or "")


def plays_value_arms(rs: Any, matches: pd.DataFrame) -> bool:
    """Whether the run played tokens held from the start against the no-token deal."""
    experiment = _recorded(rs)
    if experiment is None:  # results without the experiment copy: their data says
        from krosbalance.studies.rewards.value import is_value_experiment

        return is_value_experiment(matches)
    return bool(experiment.held_rewards)


def plays_priced_arms(rs: Any, matches: pd.DataFrame) -> bool:
    """Whether the run played per-holder or purchase arms (rewards priced as real play)."""
    experiment = _recorded(rs)
    if experiment is None:  # results without the experiment copy: their data says
        from krosbalance.studies.rewards.purchase import is_priced_experiment

        return is_priced_experiment(matches)
    held_by_name = bool(experiment.held_rewards) and experiment.reward_holders != "ai"
    return bool(experiment.purchase_rewards) or held_by_name


__all__ = ["plays_priced_arms", "plays_value_arms"]
