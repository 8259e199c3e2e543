"""The Duel Pack: who beats whom one against one, and the value of a Duel Token. Its section is the
duel ruleset's own (``Ruleset.report_sections``), written here.

Its home: ``tables`` (the duel frame, figure win rates, the who-beats-whom matrix, token value, pick
ups, its headline and section), ``plots`` and ``verdict``. This module registers the study and imports
none of them: the runner asks the registry."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.shapes import ruleset_family
from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class DuelStudy:
    name = "duel"
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """A Duel Pack experiment."""
        return ruleset_family(experiment) == "duel"

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Duel Pack's section (declared by the duel ruleset)."""
        from krosbalance.studies.duel import tables, verdict  # heavy: matplotlib, pandas, scipy

        return (StudySection("duel_tokens", tables.add_report_section, verdict=verdict.duel_verdict),)

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The report's picture in one or two sentences (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy

        return section_answer(self, rs, tables)


register_study(DuelStudy(), parts={"target": "krosbalance.studies.duel.target"})
