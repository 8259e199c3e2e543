"""The team ladder (``mode = "ladder"``: a collection's teams raced, rated and swapped in stages)."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.registry import ExperimentShape, StudySection, register_study


class TeamsStudy:
    name = "teams"
    version = 1
    sections: tuple[str, ...] = ("teams",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A ``[teams]`` table with ``mode = "ladder"``."""
        return bool(experiment.ladder)

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Teams section: the ladder's stages, ratings and meta-game."""
        # loaded when the report asks (see registry)
        from krosbalance.analysis import study_verdicts, team_section

        return (
            StudySection(
                "teams",
                team_section.add_report_section,
                leading=True,
                mode=True,
                verdict=study_verdicts.team_verdict,
                rank=20,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer

        return section_answer(self, rs, tables)


register_study(TeamsStudy())
