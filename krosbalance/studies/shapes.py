"""What several studies read of an experiment: its ruleset family and the kind of its sweep."""

from __future__ import annotations

import json

from krosbalance.studies.registry import ExperimentShape


def ruleset_family(experiment: ExperimentShape) -> str:
    """The experiment's ruleset without its options (``arena[mode=two_vs_two]`` is ``arena``)."""
    return str(experiment.ruleset).split("[")[0].split(":")[0]


def sweep_target(experiment: ExperimentShape) -> str:
    """What the ``[sweep]`` grid changes: ``figure``, ``reward``, ``challenge``... ('' = no sweep)."""
    if not experiment.sweep:
        return ""
    return str(json.loads(experiment.sweep).get("kind", ""))
