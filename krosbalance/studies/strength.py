"""Per-figure strength: the default study, of every experiment no other study claims (round robins,
random deals, AI ladders). Its report is the common part of the report (win rates, strength per AI
tier, dependence on the AI, matchups), so it names no section of its own."""

from __future__ import annotations

from krosbalance.studies.registry import DEFAULT_STUDY, ExperimentShape, register_study


class StrengthStudy:
    name = DEFAULT_STUDY
    version = 1
    sections: tuple[str, ...] = ()

    def claims(self, experiment: ExperimentShape) -> bool:
        """Every experiment: the registry asks the default study only when no other claims it."""
        return True


register_study(StrengthStudy())
