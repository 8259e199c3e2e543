"""Studies: one per question the simulator answers, each registered by importing its module here
(OpenSpiel's ``games/__init__.py``). Importing this package registers them and does nothing else."""

from krosbalance.studies import (  # noqa: F401  (each registers itself)
    challenges,
    duel,
    patches,
    restricted,
    rewards,
    seats,
    strength,
    teams,
)
from krosbalance.studies.registry import (
    DEFAULT_STUDY,
    Study,
    get_study,
    list_studies,
    recorded_study,
    study_for,
    study_record,
)

__all__ = [
    "DEFAULT_STUDY",
    "Study",
    "get_study",
    "list_studies",
    "recorded_study",
    "study_for",
    "study_record",
]
