"""Restricted play: a figure's spells, powers and options forbidden one at a time (why is it strong?).

Its home: ``tables`` (Δ strength per forbidden element), ``section`` and ``verdict``. This module
registers the study and imports none of them."""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class RestrictedStudy:
    name = "restricted"
    version = 1
    sections: tuple[str, ...] = ("restricted",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """Arms that forbid elements to figures (``[restricted]``, or a variant's ``forbid``)."""
        return bool(experiment.forbids)

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Restricted play section: Δ strength per forbidden element."""
        from krosbalance.studies.restricted import section, verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "restricted",
                section.add_report_section,
                mode=True,
                verdict=verdict.restricted_verdict,
                rank=60,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy

        return section_answer(self, rs, tables)


register_study(RestrictedStudy(), parts={"target": "krosbalance.studies.restricted.target"})
