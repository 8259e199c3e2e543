"""Demonic Rewards as a study: a token's value (held from the start against the no-token deal),
its purchase as real play, and its fair price (a ``[sweep]`` of its price).

Its home: ``value`` (each token's paired value, value for money, tokens in play: the Demonic Rewards
section, Arena's own), ``purchase`` (per-holder and purchase arms: Rewards priced as real play),
``fair_price`` and ``fair_price_section`` (the crossing of a sweep: a reward's fair price, and a
Divine Challenge's neutral threshold, which the challenges study shares), ``arms`` (which arms the
run played, from its record) and ``verdict``. This module registers the study and imports none of
them: the runner asks the registry, the report loads them when it asks."""

from __future__ import annotations

from typing import Any

from krosbalance.studies import shapes
from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class RewardsStudy:
    name = "rewards"
    version = 1
    sections: tuple[str, ...] = ("fair_price", "rewards_priced")

    def claims(self, experiment: ExperimentShape) -> bool:
        """``held_rewards`` or ``purchase_rewards`` arms, or a sweep over a reward."""
        held = bool(experiment.held_rewards or experiment.purchase_rewards)
        return held or shapes.sweep_target(experiment) == "reward"

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """Arena's Demonic Rewards (declared by the ruleset), a price's crossing, a purchase's value."""
        from krosbalance.studies.rewards import purchase, value, verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection("demonic_rewards", value.add_report_section, verdict=verdict.reward_verdict),
            shapes.fair_price_section(),
            StudySection(
                "rewards_priced",
                purchase.add_report_section,
                mode=True,
                verdict=verdict.purchase_verdict,
                rank=80,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """A price sweep's fair price under the strongest validated AI, the next AI down beside it
        (:func:`~krosbalance.studies.rewards.fair_price_section.crossing_answer`); otherwise the
        report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.rewards.fair_price_section import crossing_answer  # heavy: matplotlib

        return crossing_answer(rs, tables) or section_answer(self, rs, tables)


register_study(RewardsStudy(), parts={"target": "krosbalance.studies.rewards.target"})
