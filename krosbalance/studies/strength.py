"""Per-figure strength: the default study, of every experiment no other study claims (round robins,
random deals, AI ladders). Its report is the common part of the report (win rates, strength per AI
tier, dependence on the AI, matchups), so it names no section of its own."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.registry import DEFAULT_STUDY, ExperimentShape, StudySection, register_study


class StrengthStudy:
    name = DEFAULT_STUDY
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """Every experiment: the registry asks the default study only when no other claims it."""
        return True

    def report_sections(self) -> tuple[StudySection, ...]:
        """None of its own: the report's common sections are this study's."""
        return ()

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The highest and lowest raw win rate (n, 95% CI, the AIs that played), then the strongest
        and weakest figure of the report's picture."""
        # loaded when asked (see registry)
        from krosbalance.analysis.answers import section_answer, win_rate_line

        lines = [win_rate_line(tables), *section_answer(self, rs, tables)]
        return [line for line in lines if line][:2]


register_study(StrengthStudy())
