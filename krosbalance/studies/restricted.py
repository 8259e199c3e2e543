"""Restricted play: a figure's spells, powers and options forbidden one at a time (why is it strong?)."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study


class RestrictedStudy:
    name = "restricted"
    version = 1
    sections: tuple[str, ...] = ("restricted",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """Arms that forbid elements to figures (``[restricted]``, or a variant's ``forbid``)."""
        return bool(experiment.forbids)


register_study(RestrictedStudy())
