"""The study protocol and the registry of studies, by name.

A study is one question the simulator answers (issue 38): per-figure strength, the team ladder, the
value of a Demonic Reward, a balance patch... Which study an experiment is is decided once, from the
experiment file, when ``run`` writes a results folder: the one study whose :meth:`Study.claims` is
true (two claiming is an :class:`~krosbalance.errors.ExperimentError`; none is
:data:`DEFAULT_STUDY`), recorded in the manifest (:func:`study_record`). The report reads it back
(:func:`recorded_study`) and shows the study's sections, so nothing has to guess from the data.

For now a study is declarative, as a ruleset's ``report_sections`` are: it names the report sections
that are its own (plain strings, mapped to their analysis by :mod:`krosbalance.analysis.sections`),
and reads only the experiment's fields listed in :class:`ExperimentShape`; it imports neither the
runner nor the analysis, so both can ask the registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from krosbalance.errors import ExperimentError

DEFAULT_STUDY = "strength"
"""The study of an experiment no other study claims (per-figure strength)."""


class ExperimentShape(Protocol):
    """The fields of an experiment (:class:`krosbalance.sim.experiment.Experiment`) a study's
    ``claims`` may read."""

    @property
    def file(self) -> str: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def seats(self) -> int: ...
    @property
    def ladder(self) -> str: ...
    @property
    def held_rewards(self) -> tuple[str, ...]: ...
    @property
    def purchase_rewards(self) -> tuple[str, ...]: ...
    @property
    def arm_patches(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def sweep(self) -> str: ...
    @property
    def forbids(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def fix(self) -> bool: ...


class Study(Protocol):
    """One study: its name and version (written into the manifest), which experiments are its
    (``claims``), and the report sections that are its own (``sections``, names registered in
    :mod:`krosbalance.analysis.sections`; a section no study names is shown for any study whose
    data has it)."""

    name: str
    version: int
    sections: tuple[str, ...]

    def claims(self, experiment: ExperimentShape) -> bool:
        """Whether the experiment is this study's (the default study is asked last)."""
        ...


_STUDIES: dict[str, Study] = {}


def register_study(study: Study) -> None:
    """Add (or replace) a study under its name."""
    _STUDIES[study.name] = study


def list_studies() -> list[str]:
    """The registered studies' names, in registration order."""
    return list(_STUDIES)


def get_study(name: str) -> Study:
    """The study of a name; an unknown one is an ``ExperimentError``."""
    if name not in _STUDIES:
        raise ExperimentError("<study>", "study", f"unknown study {name!r}; known: {', '.join(_STUDIES)}")
    return _STUDIES[name]


def claimants(experiment: ExperimentShape) -> list[str]:
    """The studies other than the default that claim the experiment (at most one, for a valid one)."""
    return [s.name for s in _STUDIES.values() if s.name != DEFAULT_STUDY and s.claims(experiment)]


def study_for(experiment: ExperimentShape) -> Study:
    """The one study of an experiment: the one that claims it, else the default.

    Raises:
        ExperimentError: when two studies claim it (the file asks two questions at once).
    """
    names = claimants(experiment)
    if len(names) > 1:
        raise ExperimentError(
            experiment.file,
            "study",
            f"the experiment is claimed by {len(names)} studies ({', '.join(names)}); "
            "split it into one file per study",
        )
    return get_study(names[0] if names else DEFAULT_STUDY)


def study_record(study: Study) -> dict[str, Any]:
    """What a results folder's manifest says of its study: ``{"name": ..., "version": ...}``."""
    return {"name": study.name, "version": study.version}


def recorded_study(manifest: Mapping[str, Any] | None) -> Study | None:
    """The study a manifest records (:func:`study_record`), None for a folder written before it
    did, or by a study this installation does not know."""
    record = (manifest or {}).get("study")
    name = record.get("name") if isinstance(record, Mapping) else None
    return _STUDIES.get(str(name)) if name else None


def owned_sections() -> set[str]:
    """The report sections some study names as its own."""
    return {name for study in _STUDIES.values() for name in study.sections}


__all__ = [
    "DEFAULT_STUDY",
    "ExperimentShape",
    "Study",
    "claimants",
    "get_study",
    "list_studies",
    "owned_sections",
    "recorded_study",
    "register_study",
    "study_for",
    "study_record",
]
