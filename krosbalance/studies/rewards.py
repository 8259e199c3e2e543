"""Demonic Rewards as a study: a token's value (held from the start against the no-token deal),
its purchase as real play, and its fair price (a ``[sweep]`` of its price)."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study
from krosbalance.studies.shapes import sweep_target


class RewardsStudy:
    name = "rewards"
    version = 1
    sections: tuple[str, ...] = ("fair_price", "rewards_priced")

    def claims(self, experiment: ExperimentShape) -> bool:
        """``held_rewards`` or ``purchase_rewards`` arms, or a sweep over a reward."""
        held = bool(experiment.held_rewards or experiment.purchase_rewards)
        return held or sweep_target(experiment) == "reward"


register_study(RewardsStudy())
