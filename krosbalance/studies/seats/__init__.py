"""Seats: tables of more than two players (four-player Arena), play order and partnerships."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.registry import ExperimentShape, StudySection, register_study


class SeatsStudy:
    name = "seats"
    version = 1
    sections: tuple[str, ...] = ("seats",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """Matches of more than two players."""
        return experiment.seats > 2

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Seats section: play order, partnerships and strength at the table."""
        # loaded when the report asks (see registry)
        from krosbalance.studies.seats import section, verdict

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
        from krosbalance.analysis.answers import section_answer

        return section_answer(self, rs, tables)


register_study(SeatsStudy())
