"""The Duel Pack: who beats whom one against one, and the value of a Duel Token. Its section is the
duel ruleset's own (``Ruleset.report_sections``)."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.registry import ExperimentShape, StudySection, register_study
from krosbalance.studies.shapes import ruleset_family


class DuelStudy:
    name = "duel"
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """A Duel Pack experiment."""
        return ruleset_family(experiment) == "duel"

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Duel Pack's section (declared by the duel ruleset)."""
        # loaded when the report asks (see registry)
        from krosbalance.analysis import duel, study_verdicts

        return (StudySection("duel_tokens", duel.add_report_section, verdict=study_verdicts.duel_verdict),)

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer

        return section_answer(self, rs, tables)


register_study(DuelStudy())
