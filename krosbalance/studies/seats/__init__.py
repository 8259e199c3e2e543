"""Seats: tables of more than two players (four-player Arena), play order and partnerships.

Its home: ``tables`` (win rates by play position, partnership and seat, the rotations, strength at the
table), ``strength`` (the conditional-logit model), ``lines`` (its sentences), ``section``, ``plots``
and ``verdict``. How many players a match seats is every report's question
(:mod:`krosbalance.analysis.seating`). This module registers the study and imports none of them."""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class SeatsStudy:
    name = "seats"
    version = 1
    sections: tuple[str, ...] = ("seats",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """Matches of more than two players."""
        return experiment.seats > 2

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Seats section: play order, partnerships and strength at the table."""
        from krosbalance.studies.seats import section, verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "seats",
                section.add_report_section,
                leading=True,
                mode=True,
                verdict=verdict.seat_verdict,
                rank=10,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy

        return section_answer(self, rs, tables)


register_study(SeatsStudy(), parts={"target": "krosbalance.studies.seats.target"})
