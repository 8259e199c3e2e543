"""Per-figure strength: the default study, of every experiment no other study claims (round robins,
random deals, AI ladders). Its report is the common part of every report (win rates, strength per AI
tier, dependence on the AI, matchups...), so it names no section of its own: the report shell asks it
for that part (:meth:`StrengthStudy.report_body`).

Its home: ``common`` (the tables, computed once per result set, and the Findings), ``tables``
(display tables: cells, headline numbers, board pictures), ``section`` (the common sections). This
module registers the study and imports none of them: the runner asks the registry."""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import (
    DEFAULT_STUDY,
    ExperimentShape,
    StageRunner,
    StudySection,
    register_study,
)


class StrengthStudy:
    name = DEFAULT_STUDY
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """Every experiment: the registry asks the default study only when no other claims it."""
        return True

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """None of its own: the report's common sections are this study's."""
        return ()

    def report_body(self, rs: Any, doc: Any, tables: dict[str, Any]) -> Any:
        """The common part of every report (:class:`krosbalance.analysis.document.ReportBody`): its
        tables (into ``tables``), Findings and sections, the shell writes after the leading sections."""
        from krosbalance.studies.strength import section  # heavy: matplotlib, pandas, scipy

        return section.report_body(rs, doc, tables)

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The strongest and weakest figure under the strongest validated AI played (teammate-adjusted,
        in log-odds and win %, n, 95% CI), then the next AI down's figures for them and whether the two
        agree (:mod:`krosbalance.analysis.headline`). The raw win rates, pooled over every AI and
        confounded with the teammates, are the report's comparison section, not the answer."""
        from krosbalance.analysis.answers import (  # heavy: matplotlib, pandas, scipy
            section_answer,
            win_rate_line,
        )

        lines = section_answer(self, rs, tables) or [win_rate_line(tables)]
        return [line for line in lines if line][:2]


register_study(StrengthStudy(), parts={"target": "krosbalance.studies.strength.target"})
