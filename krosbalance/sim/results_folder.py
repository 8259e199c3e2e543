"""A run's output folder: its layout, manifest, shards and what is finished in it.

Layout::

    OUT/experiment.toml            copy of the experiment file (what ``report`` and ``replay`` read)
    OUT/manifest.json              name, master seed, match count, fingerprint, versions, times,
                                   the engine chosen and the core's version, the study
                                   (name and version, ``krosbalance.studies``) the experiment is
    OUT/matches/part-00000040.parquet   one row per match        } one set per flush, named after
    OUT/fighters/part-00000040.parquet  one row per fighter      } the smallest match id in it
    OUT/errors/part-00000040.parquet    matches that raised (only when there were some)
    OUT/events/part-00000040.parquet    the event log, when the experiment records events

Shards are written by :func:`write_shards` and committed to the folder's shard list
(:mod:`krosbalance.sim.ledger`); :func:`finished_mask` reads back what is done, so a resumed run plays
only what is missing. The runner (:mod:`krosbalance.sim.runner`) plays the matches.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from krosbalance.content.custom import read_content_folder, snapshot_content
from krosbalance.engine.results import ENGINE_VERSION
from krosbalance.errors import KrosbalanceError
from krosbalance.sim import ledger
from krosbalance.sim.content_key import RUN_CONTENT, experiment_copy_text
from krosbalance.sim.design import DEALT_MODES, Experiment
from krosbalance.sim.match import BatchResult
from krosbalance.sim.patches import load_patch, merge_patches, patch_from_json, patch_manifest
from krosbalance.sim.shard_content import FINGERPRINT_KEY
from krosbalance.sim.tables import (
    errors_frame,
    events_frame,
    fighters_frame,
    match_columns,
    matches_frame,
    package_version,
    ruleset_fighter_columns,
)
from krosbalance.study_registry import study_for, study_record

TABLES: tuple[str, ...] = ("matches", "fighters", "events", "errors")
MANIFEST = "manifest.json"
EXPERIMENT_COPY = "experiment.toml"


class RunError(KrosbalanceError):
    """A run that cannot start (output folder in the way, or belonging to another experiment), or
    that stopped because an arm's matches all fail."""


def with_patch(experiment: Experiment, name: str | Path) -> Experiment:
    """The experiment with the patch ``name`` (shipped name or path) played by every arm, over the
    experiment's own top-level patch (the command line's ``--patch``)."""

    extra = load_patch(name)
    if experiment.patch:
        base = patch_from_json(experiment.patch)
        extra = merge_patches(f"{base.name}+{extra.name}", [base, extra])
    return replace(experiment, patch=extra.json)


def fingerprint(experiment: Experiment) -> str:
    """A hash of everything that decides the match specs (not the description or file name)."""
    payload = {
        "name": experiment.name,
        "master_seed": experiment.master_seed,
        "matches_per_pairing": experiment.matches_per_pairing,
        "pairings": experiment.pairings,
        "boards": experiment.boards,
        "ais": experiment.ais,
        "paired_seeds": experiment.paired_seeds,
        "ruleset": experiment.ruleset,
        "record": experiment.record,
        "options": experiment.options_json,
    }
    # keys added since the first runs only when set, so older runs keep their fingerprint and resume
    if experiment.ai_deals:
        payload["ai_deals"] = experiment.ai_deals
    if experiment.variants:
        payload["variants"] = experiment.variants
    if experiment.held_rewards:
        payload["held_rewards"] = experiment.held_rewards
    if experiment.reward_holders != "ai":
        payload["reward_holders"] = experiment.reward_holders
    if experiment.purchase_rewards:
        payload["purchase_rewards"] = experiment.purchase_rewards
    if experiment.forbids:
        payload["forbids"] = experiment.forbids
    if experiment.board_choice:
        payload["board_choice"] = True
    if experiment.patch:  # balance patches change the cards, hence the matches
        payload["patch"] = experiment.patch
    if experiment.arm_patches:
        payload["arm_patches"] = experiment.arm_patches
    if experiment.content:  # the designer's own cards, by what they hold (not where they are)
        payload["content"] = experiment.content_digest
    if experiment.target:  # which deals are played depends on it (krosbalance.sim.target)
        payload["target"] = experiment.target

    if experiment.mode in DEALT_MODES or experiment.mode == "random_tables":  # the pairing is the pool
        payload["mode"] = experiment.mode
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


# ------------------------------------------------------------------------------------------- shards


def _write_shard(frame: Any, folder: Path, first_id: int, run_fingerprint: str = "") -> Path:
    """Write one table's shard atomically; the run's fingerprint goes into the file's metadata, so a
    reader can tell a shard of another run even without the shard list (``shard_content``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"part-{first_id:08d}.parquet"
    tmp = folder / f".part-{first_id:08d}.parquet.tmp-{os.getpid()}"
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if run_fingerprint:
        metadata = dict(table.schema.metadata or {})
        metadata[FINGERPRINT_KEY] = run_fingerprint.encode()
        table = table.replace_schema_metadata(metadata)
    pq.write_table(table, tmp)
    os.replace(tmp, final)
    return final


def _run_fingerprint(out: Path) -> str:
    """The fingerprint the folder's manifest records ('' for a folder without one)."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    value = manifest.get("fingerprint") if isinstance(manifest, dict) else None
    return value if isinstance(value, str) else ""


@dataclass(slots=True)
class ColumnBatch:
    """A finished batch as columns (``table -> column -> values``): what a worker sends back."""

    tables: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    n_matches: int = 0
    n_errors: int = 0
    seconds: float = 0.0
    content_version: str = ""

    @classmethod
    def of(cls, batch: BatchResult) -> ColumnBatch:
        tables = {}
        for name in TABLES:
            rows = getattr(batch, name)
            if rows:
                keys = list(dict.fromkeys(k for row in rows for k in row))  # first row's order first
                tables[name] = {k: [row.get(k) for row in rows] for k in keys}
        content = next((r["content_version"] for r in batch.matches if not r["error"]), "")
        return cls(tables, len(batch.matches), len(batch.errors), batch.seconds, content)

    def extend(self, other: ColumnBatch) -> None:
        for name, columns in other.tables.items():
            mine = self.tables.setdefault(name, {})
            filled = len(next(iter(mine.values()))) if mine else 0
            for key, values in columns.items():
                mine.setdefault(key, [None] * filled).extend(values)
            n = len(next(iter(columns.values())))
            for key in mine.keys() - columns.keys():
                mine[key].extend([None] * n)
        self.n_matches += other.n_matches
        self.n_errors += other.n_errors
        self.seconds += other.seconds
        self.content_version = self.content_version or other.content_version


_FRAMES = {
    "matches": matches_frame,
    "fighters": fighters_frame,
    "errors": errors_frame,
    "events": events_frame,
}


def write_shards(
    out: Path, batch: BatchResult | ColumnBatch, rulesets: Sequence[str] = ("arena",), seats: int = 2
) -> None:
    """Write one set of shards and commit it to the folder's shard list. The matches and fighters
    tables take the columns the experiment's ``rulesets`` declare (the same schema in every shard)."""
    columns = batch if isinstance(batch, ColumnBatch) else ColumnBatch.of(batch)
    matches = columns.tables.get("matches")
    if not matches:
        return
    ids = matches["match_id"]
    first = min(ids)
    frames = dict(_FRAMES)
    frames["matches"] = lambda rows: matches_frame(rows, match_columns(rulesets, seats))
    frames["fighters"] = lambda rows: fighters_frame(rows, ruleset_fighter_columns(rulesets))
    written: dict[str, Path] = {}
    run_fingerprint = _run_fingerprint(out)
    for name in ("fighters", "errors", "events", "matches"):
        if columns.tables.get(name):
            written[name] = _write_shard(
                frames[name](columns.tables[name]), out / name, first, run_fingerprint
            )
    ledger.commit(out, ledger.describe(f"part-{first:08d}", written, ids))


def _shards(out: Path, table: str) -> list[Path]:
    """The intact shards of ``table`` the run committed (see :mod:`krosbalance.sim.ledger`)."""
    return ledger.check(out).files(table)


def clean_partial(out: Path) -> list[str]:
    """Before a resume: delete temporary files, move what is not an intact committed set aside (the
    matches of a set with a lost or altered shard are then played again); one line per thing moved."""
    return ledger.repair(out)


def finished_ids(out: Path) -> set[int]:
    """Match ids already recorded (including matches that raised: they would raise again)."""
    import pyarrow.parquet as pq

    done: set[int] = set()
    for shard in _shards(out, "matches"):
        done.update(pq.read_table(shard, columns=["match_id"]).column("match_id").to_pylist())
    return done


def finished_mask(out: Path, n_matches: int) -> Any:
    """``finished_ids`` as a boolean array indexed by match id: one byte per match, not a Python set."""
    import numpy as np
    import pyarrow.parquet as pq

    done = np.zeros(n_matches, dtype=bool)
    for shard in _shards(out, "matches"):
        ids = pq.read_table(shard, columns=["match_id"]).column("match_id").to_numpy()
        done[ids[(ids >= 0) & (ids < n_matches)]] = True
    return done


def read_table(out: str | Path, table: str = "matches") -> Any:
    """One table of a run folder as a DataFrame sorted by match id (empty when there are no shards)."""
    import pandas as pd

    shards = _shards(Path(out), table)
    if not shards:
        return pd.DataFrame()
    frame = pd.concat([pd.read_parquet(p) for p in shards], ignore_index=True)
    keys = ["match_id", "uid"] if table == "fighters" and "uid" in frame else ["match_id"]
    return frame.sort_values(keys, kind="stable").reset_index(drop=True)


# ----------------------------------------------------------------------------------------- manifest


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_manifest(out: str | Path) -> dict[str, Any]:
    path = Path(out) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunError(f"{out}: not a krosbalance run folder (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise RunError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict):
        raise RunError(
            f"{path}: not a krosbalance manifest (a JSON object), but a JSON {type(manifest).__name__}"
        )
    return manifest


def content_record(experiment: Experiment, source: Path, out: Path) -> dict[str, Any]:
    """Copy the experiment's cards to ``OUT/content/`` and the experiment file beside them, its
    ``content`` key naming that copy; the manifest's record of the cards."""
    cards = read_content_folder(experiment.content)
    if cards.digest != experiment.content_digest:
        raise RunError(f"{cards.root}: the cards changed since the experiment was read; run it again")
    snapshot_content(cards, out / RUN_CONTENT)
    text = experiment_copy_text(source.read_text(encoding="utf-8"), RUN_CONTENT)
    (out / EXPERIMENT_COPY).write_text(text, encoding="utf-8")
    return cards.record()


def _prepare_out(out: Path, experiment: Experiment, source: Path, resume: bool) -> dict[str, Any]:
    fp = fingerprint(experiment)
    non_empty = out.is_dir() and any(out.iterdir())
    if out.exists() and not out.is_dir():
        raise RunError(f"{out}: exists and is not a folder; choose another --out")
    if non_empty and not resume:
        raise RunError(
            f"{out}: folder is not empty; use --resume to continue that run, or choose another --out"
        )
    if non_empty:
        manifest = read_manifest(out)
        if manifest.get("fingerprint") != fp:
            raise RunError(
                f"{out}: holds a run of a different experiment ({manifest.get('experiment')!r}, "
                f"fingerprint {manifest.get('fingerprint')}); --resume needs the same file: choose another --out"
            )
        manifest.update(status="running", resumed=_now(), finished=None)
        manifest.setdefault("ruleset", experiment.ruleset)  # a run begun before the manifest named it
        manifest.setdefault("study", study_record(study_for(experiment)))  # ... or its study
    else:
        out.mkdir(parents=True, exist_ok=True)
        manifest = {
            "experiment": experiment.name,
            "file": str(source),
            "master_seed": experiment.master_seed,
            "n_matches": experiment.n_matches,
            "fingerprint": fp,
            "ruleset": experiment.ruleset,  # the ruleset every shard's rows must be of (sim.ledger)
            "study": study_record(study_for(experiment)),  # decided once, here (krosbalance.studies)
            "engine_version": ENGINE_VERSION,
            "package_version": package_version(),
            "started": _now(),
            "finished": None,
            "status": "running",
            "shard_list": ledger.LEDGER,
        }
        manifest.update(patch_manifest(experiment))
        if experiment.forbids:  # restricted play: what each arm forbids (studies/restricted)
            manifest["forbids"] = {arm: json.loads(text) for arm, text in experiment.forbids}
        if experiment.content:  # the cards the run plays, kept beside it (sim.content_key)
            manifest["content"] = content_record(experiment, source, out)
        else:
            shutil.copyfile(source, out / EXPERIMENT_COPY)
        (out / ledger.LEDGER).touch()  # the shard list, empty until the first set is committed
    _write_json(out / MANIFEST, manifest)
    return manifest
