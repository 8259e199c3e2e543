"""Staged studies: a study run as a sequence of ordinary experiments, each planned from the results
of the ones before it (the adaptive team ladder; a fix finder's proposal, then its verification).

One mechanism for every staged study, so that each stage is a normal results folder (its own
manifest, resumable, readable by ``krosbalance report``) and the whole study resumes where it
stopped. Layout of a staged output folder::

    OUT/stages.json                the study's name, status and its stages in order
    OUT/stage-01-<experiment>/     stage 1: an ordinary results folder (``krosbalance.sim.runner``)
    OUT/stage-02-<experiment>/     stage 2, planned from stage 1's results
    ...

A planner (:class:`StagePlanner`) gives the first stage's experiment, then each next one from the
finished stages, until it returns None. Each stage's experiment must be a pure function of the
finished stages' results (never of the time or of the job count), so a resumed study plans the
same stages: ``--resume`` re-plans stage by stage, skips the stages whose folder is complete, and
continues the first unfinished one (the runner's own resume checks its fingerprint).

A stage's experiment is written as TOML (:func:`experiment_toml`) because a results folder keeps
the experiment file it ran (``report`` and ``replay`` read it); the text is checked to load back to
the very same matches (same fingerprint and pairings) before anything runs.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from krosbalance.errors import KrosbalanceError
from krosbalance.sim.catalog import Catalog
from krosbalance.sim.design import DEALT_MODES, Experiment, folder_name_problem
from krosbalance.sim.experiment_file import loads_experiment
from krosbalance.sim.runner import RunError, fingerprint, read_manifest, run_experiment

STAGES_FILE = "stages.json"
STAGE_PREFIX = "stage-"
MAX_STAGES = 99
"""Stages a study may have at most (the folder names number them with two digits)."""


class StageError(KrosbalanceError):
    """A staged study that cannot run: its folder belongs to another study, a stage's experiment
    cannot be written as a file, or the planner does not stop."""


@dataclass(frozen=True, slots=True)
class FinishedStage:
    """A stage that has run: its experiment and its results folder (read it with ``ResultSet``)."""

    experiment: Experiment
    folder: Path


class StagePlanner(Protocol):
    """Plans a staged study. ``next`` sees every finished stage, in order, and returns the next
    stage's experiment, or None when the study is done; it must be deterministic."""

    name: str  # the study's name (folder-safe); an optional ``meta`` (JSON-able mapping) is kept
    # in stages.json for the study's report, and an optional ``meta_after(finished)`` rewrites it
    # after every finished stage (so a study stopped between stages reports what it finished)

    def first(self) -> Experiment: ...

    def next(self, finished: Sequence[FinishedStage]) -> Experiment | None: ...


@dataclass(frozen=True, slots=True)
class StageRun:
    """One stage's run: its folder, matches in it, matches played now (0 when already complete)."""

    index: int
    folder: Path
    n_matches: int
    n_played: int
    n_errors: int


@dataclass(frozen=True, slots=True)
class StagesSummary:
    """What ``run_stages`` did."""

    out: Path
    study: str
    stages: tuple[StageRun, ...]
    seconds: float

    @property
    def n_matches(self) -> int:
        return sum(stage.n_matches for stage in self.stages)

    @property
    def n_played(self) -> int:
        return sum(stage.n_played for stage in self.stages)

    @property
    def n_errors(self) -> int:
        return sum(stage.n_errors for stage in self.stages)


# ------------------------------------------------------------------------------------------ layout


def stage_folder(out: Path, index: int, experiment: Experiment) -> Path:
    """``OUT/stage-NN-<experiment name>`` (``index`` counts from 1)."""
    return out / f"{STAGE_PREFIX}{index:02d}-{experiment.name}"


def is_staged(out: str | Path) -> bool:
    """Whether ``out`` is a staged study's folder (it has ``stages.json``)."""
    return (Path(out) / STAGES_FILE).is_file()


def read_stages(out: str | Path) -> dict[str, Any]:
    """The study's ``stages.json``: ``{"study", "status", "stages": [{"index", "folder", ...}]}``."""
    path = Path(out) / STAGES_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StageError(f"{out}: not a staged study (no {STAGES_FILE})") from None
    except (OSError, ValueError) as exc:
        raise StageError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("stages"), list):
        raise StageError(f"{path}: not a stages file (a JSON object with a list 'stages')")
    return data


def stage_folders(out: str | Path) -> list[Path]:
    """The folders of a staged study's stages, in order (those that exist)."""
    out = Path(out)
    folders = [out / str(entry.get("folder", "")) for entry in read_stages(out)["stages"]]
    return [folder for folder in folders if folder.is_dir() and folder != out]


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


# ------------------------------------------------------------------------------- experiment as TOML


def _toml_value(value: Any) -> str:
    """A TOML value (inline): JSON's string escapes are TOML's basic-string escapes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{" + items + "}"
    raise StageError(f"cannot write {value!r} ({type(value).__name__}) in an experiment file")


def _ais_value(experiment: Experiment) -> list[Any]:
    entries: list[Any] = []
    for i, matchup in enumerate(experiment.ais):
        ai: Any = list(matchup)
        if experiment.ai_deals:
            entries.append({"ai": ai, "deals": experiment.ai_deals[i]})
        else:
            entries.append(ai)
    return entries


def _target_lines(experiment: Experiment) -> list[str]:
    """The ``[target]`` table of an experiment with one (a team ladder's search stage plays to its
    half-width), naming the study whose headline it sizes; [] without one."""
    if not experiment.target:
        return []
    target = json.loads(experiment.target)
    rounds = {(r, c) for _, _, r, c in target["ais"]}
    if len(rounds) != 1:  # one [target] table holds one round and one cap
        raise StageError(f"stage {experiment.name!r}: its targeted AIs have different rounds or caps")
    ((round_deals, max_deals),) = rounds
    return [
        "",
        "[target]",
        f"half_width = {_toml_value(float(target['half_width']))}",
        f"ais = {_toml_value([ai for ai, _, _, _ in target['ais']])}",
        f"round_deals = {round_deals}",
        f"max_deals = {max_deals}",
        f"measure = {_toml_value(target['study'])}",
    ]


def _inline_patch(patch_json: str) -> dict[str, Any]:
    """A patch's canonical JSON as the inline table of a patch (its name and its changes)."""
    data = json.loads(patch_json)
    return {"name": data["name"], **data["changes"]}


def experiment_toml(experiment: Experiment, catalog: Catalog | None = None) -> str:
    """The experiment as an experiment file that loads back to the same matches.

    Pairings are written explicitly (``mode = "pairs"``, or ``"tables"`` for a table of more than
    two); dealt and drawn modes keep their mode and pool. Raises ``StageError`` when the text does
    not load back to the same fingerprint and pairings (a field this writer does not know)."""
    lines = [
        f"name = {_toml_value(experiment.name)}",
        f"description = {_toml_value(experiment.description)}",
        f"master_seed = {experiment.master_seed}",
        f"matches_per_pairing = {experiment.matches_per_pairing}",
        f"paired_seeds = {_toml_value(experiment.paired_seeds)}",
        f"boards = {_toml_value(list(experiment.boards))}",
        f"ais = {_toml_value(_ais_value(experiment))}",
        f"ruleset = {_toml_value(experiment.ruleset)}",
        f"record = {_toml_value(experiment.record)}",
    ]
    if experiment.board_choice:
        lines.append("board_choice = true")
    if experiment.content:  # the designer's own cards (sim.content_key), by their absolute folder
        lines.append(f"content = {_toml_value(experiment.content)}")
    if experiment.held_rewards:
        lines.append(f"held_rewards = {_toml_value(list(experiment.held_rewards))}")
    if experiment.reward_holders != "ai":
        lines.append(f"reward_holders = {_toml_value(experiment.reward_holders)}")
    if experiment.purchase_rewards:
        lines.append(f"purchase_rewards = {_toml_value(list(experiment.purchase_rewards))}")
    lines += ["", "[teams]"]
    if experiment.mode in DEALT_MODES or experiment.mode == "random_tables":
        lines += [
            f"mode = {_toml_value(experiment.mode)}",
            f"pool = {_toml_value(list(experiment.pairings[0][0]))}",
        ]
    elif experiment.seats == 2 and all(len(p) == 2 for p in experiment.pairings):
        lines += [
            'mode = "pairs"',
            f"pairs = {_toml_value([[list(t) for t in p] for p in experiment.pairings])}",
        ]
    else:
        lines += [
            'mode = "tables"',
            f"tables = {_toml_value([[list(t) for t in p] for p in experiment.pairings])}",
        ]
    lines += ["", "[options]"]
    lines += [f"{json.dumps(key)} = {_toml_value(value)}" for key, value in experiment.options.items()]
    if experiment.patch:  # balance patches (krosbalance.sim.patches), written inline
        lines.insert(lines.index("[teams]") - 1, f"patch = {_toml_value(_inline_patch(experiment.patch))}")
    arm_patches = dict(experiment.arm_patches)
    for name, arm_options in experiment.variants:
        lines += [
            "",
            "[[variants]]",
            f"name = {_toml_value(name)}",
            f"options = {_toml_value(json.loads(arm_options))}",
        ]
        if name in arm_patches:
            lines.append(f"patch = {_toml_value(_inline_patch(arm_patches[name]))}")
    lines += _target_lines(experiment)
    text = "\n".join(lines) + "\n"
    try:
        back = loads_experiment(text, f"<stage {experiment.name}>", catalog)
    except KrosbalanceError as exc:
        raise StageError(
            f"stage {experiment.name!r}: its experiment does not load back from a file: {exc}"
        ) from None
    if fingerprint(back) != fingerprint(experiment) or back.pairings != experiment.pairings:
        raise StageError(
            f"stage {experiment.name!r}: its experiment written as a file plays other matches "
            "(a field krosbalance.sim.stages.experiment_toml does not write)"
        )
    return text


# ------------------------------------------------------------------------------------------- runner


def _check_out(out: Path, study: str, resume: bool) -> dict[str, Any]:
    if out.exists() and not out.is_dir():
        raise StageError(f"{out}: exists and is not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()):
        if not resume:
            raise StageError(
                f"{out}: folder is not empty; use --resume to continue that study, or another --out"
            )
        if not is_staged(out):
            raise StageError(f"{out}: not a staged study (no {STAGES_FILE}); choose another --out")
        state = read_stages(out)
        if state.get("study") != study:
            raise StageError(
                f"{out}: holds the staged study {state.get('study')!r}, not {study!r}; choose another --out"
            )
        state.update(status="running", resumed=_now())
        return state
    out.mkdir(parents=True, exist_ok=True)
    return {"study": study, "status": "running", "started": _now(), "stages": []}


def _complete(folder: Path) -> bool:
    try:
        return read_manifest(folder).get("status") == "complete"
    except RunError:
        return False


def run_stages(
    planner: StagePlanner,
    out: str | Path,
    *,
    jobs: int = 1,
    resume: bool = False,
    max_stages: int = MAX_STAGES,
    **run_options: Any,
) -> StagesSummary:
    """Run a staged study into ``out``: each stage's experiment (``planner.first``, then
    ``planner.next`` of the finished stages) into ``OUT/stage-NN-<name>/`` with the ordinary runner
    (``run_options`` go to ``run_experiment``: backend, progress, play, ...).

    Raises:
        StageError: ``out`` is in the way or holds another study; a stage's experiment cannot be
            written as a file; the planner plans more than ``max_stages`` stages.
        RunError, ExperimentError: from a stage's run.
    """
    if folder_name_problem(planner.name):
        raise StageError(f"study name {folder_name_problem(planner.name)}")
    out = Path(out)
    start = time.perf_counter()
    state = _check_out(out, planner.name, resume)
    meta = getattr(planner, "meta", None)  # what the study's report needs beyond the stages' results
    if meta is not None:
        state["meta"] = json.loads(json.dumps(meta))
    _write_json(out / STAGES_FILE, state)
    finished: list[FinishedStage] = []
    runs: list[StageRun] = []
    experiment: Experiment | None = planner.first()
    while experiment is not None:
        index = len(finished) + 1
        if index > max_stages:
            raise StageError(
                f"study {planner.name!r}: more than {max_stages} stages planned; the planner must stop"
            )
        folder = stage_folder(out, index, experiment)
        entry = {
            "index": index,
            "folder": folder.name,
            "experiment": experiment.name,
            "n_matches": experiment.n_matches,
        }
        entries = [e for e in state["stages"] if e.get("index") != index] + [{**entry, "status": "running"}]
        state["stages"] = sorted(entries, key=lambda e: int(e.get("index", 0)))[:index]
        _write_json(out / STAGES_FILE, state)
        if _complete(folder):
            manifest = read_manifest(folder)
            runs.append(StageRun(index, folder, int(manifest.get("n_matches", 0)), 0, 0))
        else:
            source = out / f".{folder.name}.toml"
            source.write_text(experiment_toml(experiment, run_options.get("catalog")), encoding="utf-8")
            try:
                summary = run_experiment(source, folder, jobs=jobs, resume=folder.exists(), **run_options)
            finally:
                source.unlink(missing_ok=True)
            runs.append(StageRun(index, folder, summary.n_matches, summary.n_played, summary.n_errors))
        state["stages"][-1]["status"] = "complete"
        _write_json(out / STAGES_FILE, state)
        finished.append(FinishedStage(experiment, folder))
        refresh = getattr(planner, "meta_after", None)
        if refresh is not None:
            state["meta"] = json.loads(json.dumps(refresh(tuple(finished))))
            _write_json(out / STAGES_FILE, state)
        experiment = planner.next(tuple(finished))
    state.update(status="complete", finished=_now())
    _write_json(out / STAGES_FILE, state)
    return StagesSummary(out=out, study=planner.name, stages=tuple(runs), seconds=time.perf_counter() - start)
