"""The report's sections: those a ruleset declares, those a study owns, and those every study shares.

A ruleset names its sections (``Ruleset.report_sections``, plain strings: the rules layers know
nothing of pandas or reports); a study (:mod:`krosbalance.studies`) writes them, and its own,
through :meth:`~krosbalance.study_registry.Study.report_sections`; this module adds the sections
no study owns (convergence over the AIs) and puts them in order. The
report asks the result set which rulesets it played (its ``ruleset`` column, read alone) and adds
their sections in the order the rulesets declare them: *leading* sections before the report's
common ones (a Blast report opens on its Divine Challenges), the others after them. A *mode*
section belongs to no ruleset: it is asked of every result set and shows only where the matches
have what it studies. A mode section that a study names as its own is asked only of that study's
results: the study the manifest records (:func:`folder_study`), so the report need not guess it.
Mode sections stand in ``rank`` order within their half of the report.

A hook is ``hook(doc, rs, tables, section)``: ``section(doc, title, build)`` is the report's guarded
builder (a failing section says so in place and the rest is written); a hook that finds nothing to
show for this result set adds nothing.

This module is the analysis's one door to the study registry (:mod:`krosbalance.studies`): the report
shell, the answers and the staged loader ask it, never a study.

A section may also give the report its *verdict*, the answer picture every report opens with
(:mod:`krosbalance.analysis.verdict`): ``verdict(rs, tables)`` returns a ``Verdict`` when the result
set holds its study, else ``None``. The first section (in the order above) whose verdict is not
``None`` gives the picture; without one the report shows the characters' strength per AI tier.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from krosbalance.analysis import convergence, scan
from krosbalance.analysis.resultset import SPEC_FILE, ResultSet
from krosbalance.errors import ContentError, KrosbalanceError
from krosbalance.rulesets.registry import get_ruleset, list_rulesets
from krosbalance.sim.experiment import loads_experiment
from krosbalance.study_registry import (
    DEFAULT_STUDY,
    Study,
    StudySection,
    get_study,
    owned_sections,
    recorded_study,
    study_for,
    study_record,
    study_sections,
)

GuardedSection = Callable[[Any, str, Callable[[], None]], None]
SectionHook = Callable[[Any, ResultSet, dict[str, pd.DataFrame], GuardedSection], None]
VerdictHook = Callable[[ResultSet, dict[str, pd.DataFrame]], Any]
"""``verdict(rs, tables)``: the study's ``Verdict``, or ``None`` when the result set has no such study."""


ReportSection = StudySection
"""One section: its hook, where it stands, and the verdict picture of its study (if it has one)."""


_SECTIONS: dict[str, ReportSection] = {}
RULESET_BEFORE_COLUMN = "arena"
"""The ruleset of results whose matches table has no ``ruleset`` column (the only one there was)."""


def register_section(
    name: str,
    hook: SectionHook,
    *,
    leading: bool = False,
    mode: bool = False,
    verdict: VerdictHook | None = None,
    rank: int = 100,
) -> None:
    """Add (or replace) the analysis behind a section no study owns (``mode``: a section of every
    result set, declared by none; ``verdict``: the answer picture of its study; ``rank``: its place)."""
    _SECTIONS[name] = ReportSection(name, hook, leading, mode, verdict, rank)


def _all_sections() -> dict[str, ReportSection]:
    """The sections no study owns, then every study's (:func:`study_sections`), by name."""
    _register_builtins()
    found = dict(_SECTIONS)
    for section in study_sections():
        found.setdefault(section.name, section)
    return found


def known_sections() -> list[str]:
    """The section names a ruleset may declare."""
    return sorted(_all_sections())


def played_rulesets(rs: ResultSet) -> list[str]:
    """The rulesets of a result set's matches, in order of first appearance (the column read alone);
    results written before matches named their ruleset are Arena's (:data:`RULESET_BEFORE_COLUMN`)."""
    if rs.root is None:
        if "ruleset" not in rs.matches.columns:
            return [RULESET_BEFORE_COLUMN] if len(rs.matches) else []
        column = rs.matches["ruleset"]
    else:
        import pyarrow.dataset as ds

        files = scan.shard_files(rs.root / "matches")
        if not files:
            return []
        dataset = ds.dataset([str(f) for f in files], format="parquet")
        if "ruleset" not in dataset.schema.names:
            return [RULESET_BEFORE_COLUMN]
        column = dataset.to_table(columns=["ruleset"]).to_pandas()["ruleset"]
    return [str(name) for name in pd.unique(column.dropna().astype(str))]


def default_study() -> Study:
    """The study of an experiment no other study claims (per-figure strength): the report asks it for
    the common part of every report, and for the answer of a folder whose study is unknown."""
    return get_study(DEFAULT_STUDY)


def folder_study(rs: ResultSet) -> Study | None:
    """The study of a result set: the one its manifest records (``run`` decides it once, from the
    experiment); for a folder written before manifests named it, the one that claims the
    experiment copy beside the results; None when that copy cannot be read either (the mode sections
    then each ask the data, as before studies were recorded)."""
    recorded = recorded_study(rs.manifest)
    return recorded if recorded is not None else copy_study(rs.spec_text, rs.root)


def folder_is(rs: ResultSet, study_name: str) -> bool:
    """Whether a result set is the named study's (:func:`folder_study`): how a study's section or
    verdict knows the folder is its own, from the record rather than from the data (a folder whose
    study is unknown is no study's)."""
    study = folder_study(rs)
    return study is not None and study.name == study_name


def copy_experiment(spec_text: str, root: Path | None = None) -> Any:
    """The experiment of the copy beside the results (``experiment.toml`` in ``root``): what the run
    was asked to play, so a study's section reads its arms from the record rather than guessing them
    from the matches; None when there is no copy or it cannot be read (results written before the
    copy). Read as the file in ``root``, so that its ``content`` key finds the run's copy of the cards."""
    if not spec_text:
        return None
    try:
        return loads_experiment(spec_text, str(root / SPEC_FILE) if root is not None else SPEC_FILE)
    except KrosbalanceError:
        return None


def copy_study(spec_text: str, root: Path | None = None) -> Study | None:
    """The study that claims an experiment copy (``experiment.toml`` beside the results, in ``root``);
    None when there is none or it cannot be read."""
    experiment = copy_experiment(spec_text, root)
    if experiment is None:
        return None
    try:
        return study_for(experiment)
    except KrosbalanceError:
        return None


def ruleset_sections(rs: ResultSet, study: Study | None = None) -> list[ReportSection]:
    """The sections the result set's rulesets declare, each once, in declaration order, then the
    mode sections: those no study names, and the study's own (every one when ``study`` is None).

    A ruleset this installation does not know (results from elsewhere) adds none; a declared name
    without a registered analysis is a ``ContentError`` naming the ruleset and the section."""
    sections = _all_sections()
    known = set(list_rulesets())
    found: list[ReportSection] = []
    for ruleset_name in played_rulesets(rs):
        base = ruleset_name.split("[")[0].split(":")[0]  # "arena[mode=two_vs_two]" is Arena
        if base not in known:
            continue
        for name in get_ruleset(base).report_sections:
            if name not in sections:
                raise ContentError(
                    f"ruleset {base!r}",
                    "report_sections",
                    f"unknown report section {name!r}; known: {', '.join(sorted(sections))}",
                )
            if all(s.name != name for s in found):
                found.append(sections[name])
    others = owned_sections() - set(study.sections) if study is not None else set()
    modes = sorted((s for s in sections.values() if s.mode), key=lambda s: s.rank)
    return found + [s for s in modes if s.name not in others]


_BUILTINS_DONE = False


def _register_builtins() -> None:
    """The section no study owns that the analysis writes itself: convergence over the AIs (imported
    late: it pulls in its own statistics). A patch every arm plays is the patches study's section,
    shown in any study's report because no study names it as its own."""
    global _BUILTINS_DONE
    if _BUILTINS_DONE:
        return
    _BUILTINS_DONE = True

    register_section("convergence", convergence.add_report_section, mode=True, rank=70)


def report_headers() -> list[Callable[[Any, dict[str, Any] | None], None]]:
    """The notes every report writes under its question (:attr:`StudySection.header`), in section
    order: each writes nothing when the manifest has nothing for it."""
    return [s.header for s in _all_sections().values() if s.header is not None]


__all__ = [
    "ReportSection",
    "default_study",
    "study_record",
    "register_section",
    "known_sections",
    "copy_experiment",
    "copy_study",
    "folder_is",
    "folder_study",
    "played_rulesets",
    "report_headers",
    "ruleset_sections",
]
