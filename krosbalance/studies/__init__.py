"""Studies: one per question the simulator answers, each a module or package of this folder that
registers itself when imported (OpenSpiel's ``games/__init__.py``) into the registry below ``sim``
and ``analysis`` (:mod:`krosbalance.study_registry`). Importing this package imports every one of
them (found in the folder, so a new study is one new folder and no edit here) and does nothing
else; the registry imports it on its first lookup (:data:`~krosbalance.study_registry.STUDY_PACKAGES`),
so no layer below has to."""

import importlib
import pkgutil

from krosbalance.study_registry import (
    DEFAULT_STUDY,
    Study,
    get_study,
    list_studies,
    recorded_study,
    study_for,
    study_record,
)

for _found in pkgutil.iter_modules(__path__):  # sorted by name: the registration order
    importlib.import_module(f"{__name__}.{_found.name}")

__all__ = [
    "DEFAULT_STUDY",
    "Study",
    "get_study",
    "list_studies",
    "recorded_study",
    "study_for",
    "study_record",
]
