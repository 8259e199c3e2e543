"""A staged study's folder (:mod:`krosbalance.sim.stages`) read as one result set.

Every stage's matches and fighters are concatenated with a ``stage`` column (the stage's experiment
name). Match ids and pairings are offset per stage so that they stay unique: a deal,
``(pairing, deal)``, is then one stage's deal, and every deal-clustered interval of the analysis
stays right. The manifest names the study: the one that claims the experiment copy beside the
stages (a team ladder's), else the one its stages record (a fix finder's stages play its arms) unless
that is the default study (a team ladder's stage is a plain experiment: it tells nothing of the
study; the report then asks every section). It carries its ``meta`` (what its report needs: a team study's
roster, rated teams, collection and swaps) and its stages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from krosbalance.analysis.resultset import (
    MANIFEST_FILE,
    SPEC_FILE,
    ResultSet,
    _read_manifest,
    read_shards,
    spec_question,
)
from krosbalance.analysis.sections import copy_study, default_study, study_record
from krosbalance.sim.stages import read_stages, stage_folders
from krosbalance.study_registry import study_of_stage_kind


def _told(record: object) -> object:
    """A stage's recorded study, unless it is the default (which any plain stage records)."""
    return record if isinstance(record, dict) and record.get("name") != default_study().name else None


def load_staged(out: str | Path) -> ResultSet:
    """The result set of every stage of the staged study in ``out``.

    Raises:
        FileNotFoundError: when no stage has any match.
    """
    out = Path(out)
    state = read_stages(out)
    matches: list[pd.DataFrame] = []
    fighters: list[pd.DataFrame] = []
    stages = []
    id_offset = pairing_offset = 0
    recorded = None
    targets: list[dict[str, Any]] = []  # each stage played to a target: its record (sim.target)
    for folder in stage_folders(out):
        m = read_shards(folder / "matches")
        if m is None or m.empty:
            continue
        stage_manifest = _read_manifest(folder / MANIFEST_FILE)
        label = str(stage_manifest.get("experiment", folder.name))
        recorded = recorded or _told(stage_manifest.get("study"))
        if stage_manifest.get("target"):
            targets.append(stage_manifest["target"])
        m = m.sort_values("match_id").reset_index(drop=True)
        f = read_shards(folder / "fighters")
        m = m.assign(
            stage=label,
            stage_pairing=m["pairing"],
            stage_match_id=m["match_id"],
            match_id=m["match_id"] + id_offset,
            pairing=m["pairing"] + pairing_offset,
        )
        if f is not None and not f.empty:
            fighters.append(f.assign(match_id=f["match_id"] + id_offset))
        matches.append(m)
        stages.append({"stage": label, "folder": folder.name, "n_matches": len(m)})
        id_offset = int(m["match_id"].max()) + 1
        pairing_offset = int(m["pairing"].max()) + 1
    if not matches:
        raise FileNotFoundError(f"{out}: no stage has matches yet")
    spec = out / SPEC_FILE
    spec_text = spec.read_text(encoding="utf-8", errors="replace") if spec.is_file() else ""
    study = copy_study(spec_text, out)
    if study is None:
        # the copy names files beside the original (a collection): it cannot always be read here, but
        # the planner said what it ran (the study that declares the kind: a team ladder's)
        study = study_of_stage_kind(str(state.get("meta", {}).get("kind", "")))
    manifest = {
        "experiment": state.get("study", out.name),
        "staged": True,
        "status": state.get("status", ""),
        "stages": stages,
        "meta": state.get("meta", {}),
        "n_matches": sum(s["n_matches"] for s in stages),
    }
    if targets:  # the report's Summary says where the last targeted stage's rounds stopped
        manifest["target"] = targets[-1]
    if study is not None or recorded:
        manifest["study"] = study_record(study) if study is not None else recorded
    if not spec_text:  # the study's question, as its first stage's experiment file carries it
        first = next((f / SPEC_FILE for f in stage_folders(out) if (f / SPEC_FILE).is_file()), None)
        if first is not None:
            manifest["question"] = spec_question(first.read_text(encoding="utf-8", errors="replace"))
    return ResultSet(
        pd.concat(matches, ignore_index=True),
        pd.concat(fighters, ignore_index=True) if fighters else None,
        spec_text=spec_text,
        manifest=manifest,
    )
