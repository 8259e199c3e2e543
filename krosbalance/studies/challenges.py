"""Divine Challenges (Krosmaster Blast): each challenge against none, and a challenge's neutral tier
threshold (a ``[sweep]`` of its tiers). The Divine Challenges section itself is Blast's own
(``Ruleset.report_sections``); the threshold's is this study's."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study
from krosbalance.studies.shapes import ruleset_family


class ChallengesStudy:
    name = "challenges"
    version = 1
    sections: tuple[str, ...] = ("fair_price",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A Krosmaster Blast experiment."""
        return ruleset_family(experiment) == "blast"


register_study(ChallengesStudy())
