"""Seats: tables of more than two players (four-player Arena), play order and partnerships."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study


class SeatsStudy:
    name = "seats"
    version = 1
    sections: tuple[str, ...] = ("seats",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """Matches of more than two players."""
        return experiment.seats > 2


register_study(SeatsStudy())
