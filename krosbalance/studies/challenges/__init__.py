"""Divine Challenges (Krosmaster Blast): each challenge against none, and a challenge's neutral tier
threshold (a ``[sweep]`` of its tiers). The Divine Challenges section itself is Blast's own
(``Ruleset.report_sections``); the threshold's is this study's (written by the rewards study's
``fair_price_section``, which both share).

Its home: ``tables`` (paired arms, McNemar tests, tiers reached, the Divine Challenges section) and
``verdict``. This module registers the study and imports neither."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.shapes import fair_price_section, ruleset_family
from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class ChallengesStudy:
    name = "challenges"
    version = 1
    sections: tuple[str, ...] = ("fair_price",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A Krosmaster Blast experiment."""
        return ruleset_family(experiment) == "blast"

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """Blast's Divine Challenges (declared by the ruleset) and a tier threshold's crossing."""
        from krosbalance.studies.challenges import tables, verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "divine_challenges",
                tables.add_report_section,
                leading=True,
                verdict=verdict.challenge_verdict,
            ),
            fair_price_section(),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy

        return section_answer(self, rs, tables)


register_study(ChallengesStudy(), parts={"target": "krosbalance.studies.challenges.target"})
