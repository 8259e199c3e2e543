"""The team ladder (``mode = "ladder"``: a collection's teams raced, rated and swapped in stages).

Its home: ``experiment`` (the ``[teams] mode = "ladder"`` table), ``planner`` (the stages it plays),
``ladder`` (ratings and stage scores), ``collection`` (a user's best teams, what to buy, swaps),
``meta`` (the meta-game of the top teams), ``section``, ``plots`` and ``verdict`` (its report).
This module registers the study, its ``[teams]`` mode and the kind its planner writes in a staged
folder, and imports none of them (each pulls in the ladder's statistics): the runner, the experiment
parser and the staged loader ask the registry."""

from __future__ import annotations

from typing import Any

from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study


class TeamsStudy:
    name = "teams"
    version = 1
    sections: tuple[str, ...] = ("teams",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A ``[teams]`` table with ``mode = "ladder"``."""
        return bool(experiment.ladder)

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """A ``[teams]`` table with ``mode = "ladder"``: the ladder's stages (:mod:`.planner`)."""
        if not experiment.ladder:
            return None
        from krosbalance.studies.teams.planner import run_ladder_study  # heavy: pandas, scipy, statsmodels

        return run_ladder_study

    def report_sections(self) -> tuple[StudySection, ...]:
        """The Teams section: the ladder's stages, ratings and meta-game."""
        from krosbalance.studies.teams import section, verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "teams",
                section.add_report_section,
                leading=True,
                mode=True,
                verdict=verdict.team_verdict,
                rank=20,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The best team the collection can field, or the ladder's best
        (:func:`~krosbalance.studies.teams.answer.team_answer`); else the report's picture in one or two sentences
        (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.teams.answer import team_answer  # heavy: matplotlib, pandas, scipy

        return team_answer(rs) or section_answer(self, rs, tables)


def _parse_team_mode(*args: Any, **kwargs: Any) -> Any:
    """``[teams] mode = "ladder"``: :func:`krosbalance.studies.teams.experiment.parse_team_mode`."""
    from krosbalance.studies.teams.experiment import parse_team_mode  # heavy: scipy (the ladder's ratings)

    return parse_team_mode(*args, **kwargs)


#: the ``[teams]`` modes of this study (``experiment.TEAM_MODES``) and the ``meta`` kind its planner
#: writes in a staged folder (``planner.TeamLadderPlanner``)
register_study(
    TeamsStudy(),
    team_modes={"ladder": _parse_team_mode},
    stage_kinds=("team_ladder",),
    parts={"planner": "krosbalance.studies.teams.planner", "target": "krosbalance.studies.teams.target"},
)
