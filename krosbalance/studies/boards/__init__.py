"""The board study: does a board favour the first player, or some figures?

An experiment names it (``study = "boards"``) and plays its pairings on several boards (see
``simulations/board-study.toml`` and this folder's README.md). Its home: ``tables`` (per board and
AI: the first player's win rate, each figure's win rate, the figures a board favours) and
``section`` (its report section, verdict picture and headline answer). This module registers the
study and imports neither: the runner asks the registry, the report loads them when it asks.
"""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class BoardsStudy:
    name = "boards"
    version = 1
    sections: tuple[str, ...] = ("boards",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """None by itself: an experiment asks for it by name (``study = "boards"``)."""
        return False

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """None: an experiment of this study is played once."""
        return None

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Boards section, before the report's common ones."""
        from krosbalance.studies.boards import section  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "boards",
                section.add_report_section,
                leading=True,
                mode=True,
                verdict=section.board_verdict,
                rank=25,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The first player's win rate per board, then the figures a board favours (n, 95% CI, AI)."""
        from krosbalance.studies.boards import section  # heavy: matplotlib, pandas, scipy

        found = tables if "board_first_player" in tables else section.board_tables(rs.summary().matches)
        return section.answer_lines(found)


register_study(BoardsStudy())
