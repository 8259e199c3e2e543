"""The team ladder (``mode = "ladder"``: a collection's teams raced, rated and swapped in stages)."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study


class TeamsStudy:
    name = "teams"
    version = 1
    sections: tuple[str, ...] = ("teams",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A ``[teams]`` table with ``mode = "ladder"``."""
        return bool(experiment.ladder)


register_study(TeamsStudy())
