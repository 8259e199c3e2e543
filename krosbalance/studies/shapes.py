"""What several studies read of an experiment (its ruleset family and the kind of its sweep), and the
section two of them share (a sweep's crossing: a reward's fair price, a challenge's threshold)."""

from __future__ import annotations

import json

from krosbalance.study_registry import ExperimentShape, StudySection


def ruleset_family(experiment: ExperimentShape) -> str:
    """The experiment's ruleset without its options (``arena[mode=two_vs_two]`` is ``arena``)."""
    return str(experiment.ruleset).split("[")[0].split(":")[0]


def sweep_target(experiment: ExperimentShape) -> str:
    """What the ``[sweep]`` grid changes: ``figure``, ``reward``, ``challenge``... ('' = no sweep)."""
    if not experiment.sweep:
        return ""
    return str(json.loads(experiment.sweep).get("kind", ""))


def fair_price_section() -> StudySection:
    """The crossing of a ``[sweep]`` (a reward's fair price, a challenge's neutral threshold): the
    rewards and the challenges studies both own it."""
    from krosbalance.studies.rewards import fair_price_section as crossing  # heavy: matplotlib, pandas, scipy

    return StudySection(
        "fair_price",
        crossing.add_report_section,
        leading=True,
        mode=True,
        verdict=crossing.crossing_verdict,
        rank=30,
    )
