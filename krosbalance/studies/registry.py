"""The study protocol and the registry of studies, by name.

A study is one question the simulator answers (issue 38): per-figure strength, the team ladder, the
value of a Demonic Reward, a balance patch... Which study an experiment is is decided once, from the
experiment file, when ``run`` writes a results folder: the one study whose :meth:`Study.claims` is
true (two claiming is an :class:`~krosbalance.errors.ExperimentError`; none is
:data:`DEFAULT_STUDY`), recorded in the manifest (:func:`study_record`). The report reads it back
(:func:`recorded_study`) and shows the study's sections, so nothing has to guess from the data.

A study owns its report sections (:meth:`Study.report_sections`: each a :class:`StudySection`, its
hook and its verdict picture) and its headline answer (:meth:`Study.answer`: one or two sentences,
the numbers with n, 95% interval and the AI that measured them: the strongest validated AI played,
with the next AI down beside it). The report shell and the CLI
iterate the registry (:func:`study_sections`); none of them names a study.

This module reads only the experiment's fields listed in :class:`ExperimentShape` and imports neither
the runner nor the analysis, so both can ask it. A study loads its sections when the report asks
for them (an import inside ``report_sections``): the runner asks the registry for ``claims``, and a
study's analysis reads results through ``sim``, a real cycle otherwise.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
    @property
    def study(self) -> str: ...


@dataclass(frozen=True)
class StudySection:
    """One report section: its name, its hook, where it stands and its study's verdict picture.

    ``hook(doc, rs, tables, section)`` writes it (``section(doc, title, build)`` is the report's guarded
    builder; a hook that finds nothing to show adds nothing). ``leading`` sections come before the
    report's common ones, the others after them, each half in ``rank`` order (lower first).
    ``mode``: a section shown where the study's data has it; ``mode=False``: a section a ruleset
    declares (``Ruleset.report_sections``), shown wherever that ruleset was played. ``verdict(rs,
    tables)`` returns the answer picture (a :class:`krosbalance.analysis.verdict.Verdict`) when the
    result set holds its study, else ``None``."""

    name: str
    hook: Callable[[Any, Any, dict[str, Any], Any], None]
    leading: bool = False
    mode: bool = False
    verdict: Callable[[Any, dict[str, Any]], Any] | None = None
    rank: int = 100


StageRunner = Callable[..., int]
"""Runs a staged experiment of a study: ``runner(experiment, source, out, *, patch, echo, jobs, resume,
**run_options)`` plays its stages (:mod:`krosbalance.sim.stages`) into ``out`` and returns the exit
status (1 when some matches raised)."""


class Study(Protocol):
    """One study: its name and version (written into the manifest), which experiments are its
    (``claims``), how ``run`` plays a staged one (``stage_runner``), the report sections that are its
    own (``report_sections``; ``sections`` names those the report shows only for this study's
    results) and its headline answer (``answer``)."""

    name: str
    version: int

    @property
    def sections(self) -> tuple[str, ...]:
        """The names of the study's own mode sections (a section no study owns is shown for any
        study whose data has it)."""
        ...

    def claims(self, experiment: ExperimentShape) -> bool:
        """Whether the experiment is this study's (the default study is asked last)."""
        ...

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """How ``krosbalance run`` plays an experiment of this study that is staged (planned stage by
        stage from the results before: the team ladder, the fix finder), None for one experiment
        played once. A staged study loads its planner here, when ``run`` asks (the planner runs
        matches through ``sim``, which reads this registry)."""
        ...

    def report_sections(self) -> tuple[StudySection, ...]:
        """The report sections this study writes (its own, and those a ruleset declares that it
        answers), loaded when the report asks."""
        ...

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The headline answer, one or two sentences with the numbers (n, 95% interval, the AI that
        measured them), from the result set and the report's derived tables: measured by the
        strongest validated AI that played the run (:mod:`krosbalance.analysis.top_ai`), then one
        clause on the next AI down and whether the two agree (:mod:`krosbalance.analysis.headline`)."""
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
    """The one study of an experiment: the one the file names (``study = "..."``), else the one that
    claims it, else the default.

    Raises:
        ExperimentError: when two studies claim it, or one claims a file that names another (the
            file asks two questions at once).
    """
    names = claimants(experiment)
    if experiment.study:
        others = [name for name in names if name != experiment.study]
        if others:
            raise ExperimentError(
                experiment.file,
                "study",
                f"the experiment names study {experiment.study!r} and is claimed by {', '.join(others)}; "
                "split it into one file per study",
            )
        return get_study(experiment.study)
    if len(names) > 1:
        raise ExperimentError(
            experiment.file,
            "study",
            f"the experiment is claimed by {len(names)} studies ({', '.join(names)}); "
            "split it into one file per study",
        )
    return get_study(names[0] if names else DEFAULT_STUDY)


def _folder_module(study: Study, name: str) -> Any:
    """A module of a study's folder (``studies/<study>/<name>.py``), None when it has none."""
    module_name = f"{type(study).__module__}.{name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None


def team_mode_parser(mode: str) -> Callable[..., Any] | None:
    """The parser of a ``[teams]`` mode a study owns (``mode = "ladder"``: the team study's), None for
    the experiment file's own modes: the ``parse_team_mode`` function of the study folder's
    ``experiment`` module whose ``TEAM_MODES`` names it (loaded when a file asks for the mode)."""
    for study in _STUDIES.values():
        module = _folder_module(study, "experiment")
        if module is not None and mode in getattr(module, "TEAM_MODES", ()):
            parser: Callable[..., Any] = module.parse_team_mode
            return parser
    return None


def stage_runner(study: Study, experiment: ExperimentShape) -> StageRunner | None:
    """How ``krosbalance run`` plays an experiment of ``study`` (:meth:`Study.stage_runner`): its
    stages' runner, None for one experiment played once."""
    return study.stage_runner(experiment)


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


def study_sections() -> list[StudySection]:
    """Every registered study's report sections, each name once, in registration order."""
    found: dict[str, StudySection] = {}
    for study in _STUDIES.values():
        for section in study.report_sections():
            found.setdefault(section.name, section)
    return list(found.values())


__all__ = [
    "DEFAULT_STUDY",
    "StageRunner",
    "ExperimentShape",
    "Study",
    "StudySection",
    "claimants",
    "get_study",
    "list_studies",
    "owned_sections",
    "recorded_study",
    "register_study",
    "stage_runner",
    "study_for",
    "team_mode_parser",
    "study_record",
    "study_sections",
]
