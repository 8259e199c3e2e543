"""The Duel Pack: who beats whom one against one, and the value of a Duel Token. Its section is the
duel ruleset's own (``Ruleset.report_sections``)."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study
from krosbalance.studies.shapes import ruleset_family


class DuelStudy:
    name = "duel"
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """A Duel Pack experiment."""
        return ruleset_family(experiment) == "duel"


register_study(DuelStudy())
