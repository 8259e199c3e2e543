"""The study protocol and the registry of studies, by name: a floor below ``sim`` and ``analysis``.

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

Why here, under ``sim`` and ``analysis``: both ask the registry (the runner which study an
experiment is, the experiment parser for a study's own ``[teams]`` mode, the report for the
sections), and the studies sit above both (their planners run matches through ``sim``, their
sections read results through ``analysis``). So the protocol and the registry import only
:mod:`krosbalance.errors`, and the studies register into them. The built-in studies are found the way
a plugin is (an entry point): on the first lookup the registry imports each package of
:data:`STUDY_PACKAGES` once, and importing :mod:`krosbalance.studies` registers every study of its
folder. Nothing below the studies names a study, and a new study is one new folder. A study's
package stays light: it loads its planner and its report sections when asked (they pull in the
statistics and plots), so finding the studies costs the command line nothing it can feel.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from krosbalance.errors import ExperimentError

DEFAULT_STUDY = "strength"
"""The study of an experiment no other study claims (per-figure strength)."""

STUDY_PACKAGES: tuple[str, ...] = ("krosbalance.studies",)
"""The packages whose import registers studies (:func:`register_study`), imported on the first
lookup: the built-in studies' folder (a plugin's package may be added, as an entry point would)."""

TeamModeParser = Callable[..., Any]
"""A study's parser of its own ``[teams]`` mode: ``parser(experiment_path, teams_table, raw, problems,
...)`` returns (mode, pairings, settings) (:func:`krosbalance.sim.parse_teams.team_pairings`)."""


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
    result set holds its study, else ``None``. ``header(doc, manifest)`` writes a note under the
    report's question in any study's report (the patched cards every arm played, said before the
    findings that pool the arms); it writes nothing when the manifest has nothing for it."""

    name: str
    hook: Callable[[Any, Any, dict[str, Any], Any], None]
    leading: bool = False
    mode: bool = False
    verdict: Callable[[Any, dict[str, Any]], Any] | None = None
    rank: int = 100
    header: Callable[[Any, Mapping[str, Any] | None], None] | None = None


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
        played once. A staged study loads its planner here, when ``run`` asks (its statistics are
        heavy: discovering the studies stays cheap)."""
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
_TEAM_MODES: dict[str, TeamModeParser] = {}
_STAGE_KINDS: dict[str, str] = {}
_PARTS: dict[str, dict[str, str]] = {}

PARTS: tuple[str, ...] = ("target", "planner", "command")
"""The optional parts a study may declare, each a module loaded when asked (:func:`study_part`):
``target``: its headline quantity for ``[target]`` (``QUANTITY``, ``UNIT``, ``problem(experiment)``,
``half_widths(matches, experiment)``; :mod:`krosbalance.sim.target`); ``planner``: how many matches its stages
plan (``planned_stages`` or ``planned_matches``, for ``validate``'s cost); ``command``: a command of
its own (``add_parser(sub)``: ``compare``)."""
_DISCOVERED = False


def _discover() -> None:
    """Import the study packages (:data:`STUDY_PACKAGES`) once, before the first lookup: each study
    registers itself as it is imported. The lookups ask at run time, never while a module loads, so
    every layer below the studies is loaded by then."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    try:
        for package in STUDY_PACKAGES:
            importlib.import_module(package)
    except BaseException:
        _DISCOVERED = False
        raise


def register_study(
    study: Study,
    *,
    team_modes: Mapping[str, TeamModeParser] | None = None,
    stage_kinds: Iterable[str] = (),
    parts: Mapping[str, str] | None = None,
) -> None:
    """Add (or replace) a study under its name, with the ``[teams]`` modes it owns (``mode = "ladder"``:
    the team study's parser, asked by the experiment file's parser through :func:`team_mode_parser`),
    the kinds its stage planner writes in a staged folder's ``meta`` (``"team_ladder"``: asked
    by the staged loader through :func:`study_of_stage_kind` when the experiment copy cannot be read)
    and its optional parts (:data:`PARTS`: ``{"target": "<module>"}``), declared by module name so
    that finding the studies loads none of them.

    Raises:
        ValueError: for a part not in :data:`PARTS` (a misspelt part would be silently never asked).
    """
    unknown = sorted(set(parts or {}) - set(PARTS))
    if unknown:
        raise ValueError(f"study {study.name!r}: unknown part(s) {unknown}; known: {', '.join(PARTS)}")
    _STUDIES[study.name] = study
    _TEAM_MODES.update(team_modes or {})
    _STAGE_KINDS.update(dict.fromkeys(stage_kinds, study.name))
    _PARTS[study.name] = dict(parts or {})


def study_part(study: Study, part: str) -> Any | None:
    """The module of one of a study's optional parts (:data:`PARTS`), imported now; None when the
    study declares no such part."""
    name = _PARTS.get(study.name, {}).get(part)
    return importlib.import_module(name) if name else None


def studies_with(part: str) -> list[Study]:
    """The registered studies that declare ``part``, in registration order."""
    _discover()
    return [_STUDIES[name] for name, parts in _PARTS.items() if part in parts and name in _STUDIES]


def list_studies() -> list[str]:
    """The registered studies' names, in registration order."""
    _discover()
    return list(_STUDIES)


def get_study(name: str) -> Study:
    """The study of a name; an unknown one is an ``ExperimentError``."""
    _discover()
    if name not in _STUDIES:
        raise ExperimentError("<study>", "study", f"unknown study {name!r}; known: {', '.join(_STUDIES)}")
    return _STUDIES[name]


def claimants(experiment: ExperimentShape) -> list[str]:
    """The studies other than the default that claim the experiment (at most one, for a valid one)."""
    _discover()
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


def team_mode_parser(mode: str) -> TeamModeParser | None:
    """The parser of a ``[teams]`` mode a study owns (``mode = "ladder"``: the team study's, given to
    :func:`register_study`), None for the experiment file's own modes."""
    _discover()
    return _TEAM_MODES.get(mode)


def study_of_stage_kind(kind: str) -> Study | None:
    """The study whose stage planner writes ``kind`` in a staged folder's ``meta`` (given to
    :func:`register_study`), None for a kind no study declares."""
    _discover()
    name = _STAGE_KINDS.get(kind)
    return _STUDIES.get(name) if name else None


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
    _discover()
    record = (manifest or {}).get("study")
    name = record.get("name") if isinstance(record, Mapping) else None
    return _STUDIES.get(str(name)) if name else None


def owned_sections() -> set[str]:
    """The report sections some study names as its own."""
    _discover()
    return {name for study in _STUDIES.values() for name in study.sections}


def study_sections() -> list[StudySection]:
    """Every registered study's report sections, each name once, in registration order."""
    _discover()
    found: dict[str, StudySection] = {}
    for study in _STUDIES.values():
        for section in study.report_sections():
            found.setdefault(section.name, section)
    return list(found.values())


__all__ = [
    "DEFAULT_STUDY",
    "PARTS",
    "STUDY_PACKAGES",
    "StageRunner",
    "TeamModeParser",
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
    "study_of_stage_kind",
    "study_part",
    "studies_with",
    "team_mode_parser",
    "study_record",
    "study_sections",
]
