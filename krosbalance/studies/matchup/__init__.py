"""The matchup study: does this team beat that one, and by how much?

Two or a few named teams (``[teams] mode = "pairs"``), each pair played on paired seeds; an
experiment asks for it by name (``study = "matchup"``), as ``krosbalance compare`` writes it. Its
home: ``tables`` (per pair and AI: A's win rate over B with n and 95% interval; a round robin's
ranking), ``section`` (its report section, verdict picture and headline answer), ``command`` (the
``compare`` command) and ``choice`` (the AI a time budget affords). This module registers the study
and imports none of them: the runner asks the registry, the report loads them when it asks.
"""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class MatchupStudy:
    name = "matchup"
    version = 1
    sections: tuple[str, ...] = ("matchup",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """None by itself: an experiment asks for it by name (``study = "matchup"``). Claiming every
        ``mode = "pairs"`` file would take shipped experiments (``smoke``, ``rewards-purchase``) from
        the studies that answer them today."""
        return False

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Matchup section, first of the report's sections."""
        from krosbalance.studies.matchup import section  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "matchup",
                section.add_report_section,
                leading=True,
                mode=True,
                verdict=section.matchup_verdict,
                rank=10,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """One sentence per pair under the strongest AI (A's win %, 95% CI, n, AI), or a round
        robin's ranking top."""
        from krosbalance.studies.matchup import section  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.matchup import tables as t  # heavy: pandas, scipy, statsmodels

        matches = rs.summary().matches
        found = tables if "matchup_pairs" in tables else section.matchup_tables(matches)
        return section.answer_lines(found, t.is_round_robin(matches))


register_study(MatchupStudy(), parts={"command": "krosbalance.studies.matchup.command"})
