"""Which reward arms a run played, from its record: the experiment copy beside the results
(:func:`krosbalance.analysis.sections.copy_experiment`), not a guess from the matches.

``held_rewards``: value arms (each token held from the start against the no-token deal);
``purchase_rewards``, or ``reward_holders`` other than ``"ai"`` beside held tokens: arms priced as
real play (:mod:`krosbalance.sim.reward_arms`). Results written without the copy have no record
(None): their sections ask the data instead, as before runs kept it
(:func:`~krosbalance.studies.rewards.value.is_value_experiment`,
:func:`~krosbalance.studies.rewards.purchase.is_priced_experiment`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from krosbalance.ai.registry import ai_tier
from krosbalance.analysis.sections import copy_experiment


@dataclass(frozen=True)
class RewardArms:
    """The reward arms an experiment declares."""

    value: bool
    priced: bool


def recorded_arms(rs: Any) -> RewardArms | None:
    """The reward arms of the run of ``rs`` as its experiment copy declares them; None without a copy."""
    experiment = copy_experiment(getattr(rs, "spec_text", "") or "", getattr(rs, "root", None))
    if experiment is None:
        return None
    held_by_name = bool(experiment.held_rewards) and experiment.reward_holders != "ai"
    return RewardArms(
        value=bool(experiment.held_rewards),
        priced=bool(experiment.purchase_rewards) or held_by_name,
    )


__all__ = ["RewardArms", "recorded_arms"]


def row_options(text: Any) -> dict[str, Any]:
    """A match row's ``options`` column (JSON) as a dict; {} when empty or unreadable (old rows)."""
    if not isinstance(text, str) or not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def row_tier(ai: str) -> str:
    """An AI's tier, "unknown" for one no longer registered: old results stay readable."""
    try:
        return ai_tier(ai)
    except Exception:
        return "unknown"
