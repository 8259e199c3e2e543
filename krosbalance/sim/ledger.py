"""The shard list of a results folder: which Parquet files the runner wrote, so that nothing else is read.

Why: a results folder is an ordinary folder. A shard copied under another name, a file that is not
Parquet, a shard deleted by hand would otherwise be read (or missed) silently: a copied shard made a
report count its matches twice, a garbage one ended ``report`` and ``--resume`` in tracebacks, a lost
fighters shard was never replayed. So the runner lists every set of shards it commits in
``OUT/shards.jsonl``, one JSON line per set, appended (and flushed to disk) after the set's files are
in place: that line, not the files, is the commit record. Each line names the set (``part-00000040``,
after its smallest match id), its match count and id range, and per table the file's size and SHA-256.

Readers (:func:`check`) take only the sets whose every listed file is present with its size and
checksum; any other file in a table folder is *foreign* (an unfinished write, a copy, a stranger) and
is not read. A listed set with a missing or altered file is *broken*: its matches are left out, and
``--resume`` (:func:`repair`) moves its remaining files and every foreign file into ``OUT/set-aside/``
(nothing is deleted but temporary files), drops its line and replays its matches.

A folder without a shard list (written before it existed, or by :meth:`ResultSet.save` of an older
version) is read the old way, with two guards: a matches shard that is not readable Parquet, or that
holds match ids an earlier shard already holds, is foreign. ``--resume`` on such a folder adopts its
readable sets into a new shard list first.

Whatever the list says, every matches shard is then checked for what it holds
(:func:`krosbalance.sim.shard_content.content_problem`, issue 36): its match ids once each, none that an earlier set already holds, its columns of the types
the runner writes and, in a runner's folder (a manifest with a fingerprint), its ids within the run's
``0 .. n_matches - 1``, its rows of this run's experiment and ruleset, and every column the readers
read. A listed set that fails is *broken*, an unlisted shard *foreign*: not read, named in one line
with the reason (the file and, for the schema, the column), set aside by ``--resume``, which replays
the matches then missing (so nothing is counted twice and nothing is lost). A shard of the wrong schema is set aside rather than refused with an
error because that is what the list does with every file it cannot trust: the report of the rest is
still right, and the line says what it left out.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from krosbalance.sim.shard_content import SeenIds, content_problem, expected

LEDGER = "shards.jsonl"
SET_ASIDE = "set-aside"
TABLES: tuple[str, ...] = ("matches", "fighters", "events", "errors")
# the runner names a set part-<first id>; a folder adopted from before the shard list may hold other
# names: any plain file name (no folder part) is a set name
SET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
RUNNER_NAME = re.compile(r"part-\d{1,12}")


@dataclass(frozen=True, slots=True)
class ShardFile:
    """One listed file: its table, size and SHA-256 (hex)."""

    table: str
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class ShardSet:
    """One committed set: the shards of every table written by one flush, named after its first id."""

    name: str
    n_matches: int
    first_id: int
    last_id: int
    files: tuple[ShardFile, ...]

    def path(self, root: Path, table: str) -> Path:
        return root / table / f"{self.name}.parquet"

    def tables(self) -> tuple[str, ...]:
        return tuple(f.table for f in self.files)

    def as_line(self) -> str:
        files = {f.table: {"bytes": f.size, "sha256": f.sha256} for f in self.files}
        record = {
            "set": self.name,
            "matches": self.n_matches,
            "ids": [self.first_id, self.last_id],
            "files": files,
        }
        return json.dumps(record, sort_keys=True)


@dataclass
class FolderCheck:
    """What a results folder holds that may be read, and what may not (with one line of reason each)."""

    root: Path
    listed: bool  # the folder has a shard list
    sets: list[ShardSet] = field(default_factory=list)
    foreign: list[tuple[Path, str]] = field(default_factory=list)
    broken: list[tuple[ShardSet, str]] = field(default_factory=list)
    bad_lines: list[str] = field(default_factory=list)
    # a folder without a shard list: readable files of a table that belong to no matches shard's name
    loose: dict[str, list[Path]] = field(default_factory=dict)
    # matches of broken sets that no intact set holds (None: every broken set's matches)
    missing: int | None = None

    def files(self, table: str) -> list[Path]:
        """The intact shards of ``table``, in set order (what every reader reads)."""
        listed = [s.path(self.root, table) for s in self.sets if table in s.tables()]
        return sorted(listed + self.loose.get(table, []))

    @property
    def lost_matches(self) -> int:
        """Matches of listed sets that are left out because a file of their set is missing or altered,
        or holds what this run did not write (and that no intact set holds)."""
        return self.missing if self.missing is not None else sum(s.n_matches for s, _ in self.broken)

    @property
    def complete(self) -> bool:
        return not (self.foreign or self.broken or self.bad_lines)

    def notes(self) -> list[str]:
        """One line per file or set that is not read, naming it and why."""
        return [f"{LEDGER}: {reason}" for reason in self.bad_lines] + self.shard_notes()

    def shard_notes(self) -> list[str]:
        """The lines of :meth:`notes` that name a shard or a set (not the shard list's own lines)."""
        lines = []
        for s, reason in self.broken:
            lines.append(
                f"{s.name} ({s.n_matches} matches, ids {s.first_id}-{s.last_id}): {reason}; "
                "its matches are left out (--resume replays those no other set holds)"
            )
        for path, reason in self.foreign:
            lines.append(f"{path.relative_to(self.root)}: {reason}; not read")
        return lines


# ------------------------------------------------------------------------------------------ writing


def digest(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def describe(name: str, paths: dict[str, Path], ids: Sequence[int]) -> ShardSet:
    """The ledger entry of a set whose files are ``paths`` (table -> file) and whose match ids are ``ids``."""
    files = tuple(ShardFile(t, p.stat().st_size, digest(p)) for t, p in paths.items())
    return ShardSet(name, len(ids), int(min(ids)), int(max(ids)), files)


def _recorded(entry: ShardSet, root: Path) -> ShardSet:
    """``entry`` with the size and checksum of its files as they are now (adopting an unlisted set)."""
    files = tuple(
        ShardFile(t, entry.path(root, t).stat().st_size, digest(entry.path(root, t))) for t in entry.tables()
    )
    return ShardSet(entry.name, entry.n_matches, entry.first_id, entry.last_id, files)


def commit(root: Path, entry: ShardSet) -> None:
    """Append ``entry`` to the shard list and flush it to disk: from now on its set exists."""
    with (root / LEDGER).open("a", encoding="utf-8") as fh:
        fh.write(entry.as_line() + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def write_ledger(root: Path, entries: Iterable[ShardSet]) -> None:
    """Replace the shard list with ``entries`` (atomically: a crash leaves the old or the new list)."""
    tmp = root / (LEDGER + ".tmp")
    tmp.write_text("".join(e.as_line() + "\n" for e in entries), encoding="utf-8")
    os.replace(tmp, root / LEDGER)


# ------------------------------------------------------------------------------------------ reading


def _entry(record: Any) -> ShardSet | None:
    """A ledger line's record as a set, or None when it is not one the runner writes."""
    if not isinstance(record, dict):
        return None
    name, n, ids, files = record.get("set"), record.get("matches"), record.get("ids"), record.get("files")
    if not (isinstance(name, str) and SET_NAME.fullmatch(name)):
        return None
    if type(n) is not int or n < 1 or not isinstance(files, dict) or "matches" not in files:
        return None
    if not (isinstance(ids, list) and len(ids) == 2 and all(type(i) is int and i >= 0 for i in ids)):
        return None
    shard_files = []
    for table, meta in files.items():
        if table not in TABLES or not isinstance(meta, dict):
            return None
        size, sha = meta.get("bytes"), meta.get("sha256")
        if type(size) is not int or not (isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha)):
            return None
        shard_files.append(ShardFile(table, size, sha))
    return ShardSet(name, n, ids[0], ids[1], tuple(shard_files))


def read_ledger(root: Path) -> tuple[list[ShardSet], list[str]]:
    """The listed sets (first listing of a name wins) and one line per line that is not a set."""
    entries: list[ShardSet] = []
    problems: list[str] = []
    seen: set[str] = set()
    try:
        text = (root / LEDGER).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return [], [f"unreadable ({exc.strerror or exc})"]
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = _entry(json.loads(line))
        except ValueError:
            entry = None
        if entry is None:
            problems.append(f"line {number} is not a set of shards the runner wrote: ignored")
        elif entry.name in seen:
            problems.append(f"line {number} lists {entry.name} again: ignored")
        else:
            seen.add(entry.name)
            entries.append(entry)
    return entries, problems


def _table_files(root: Path) -> dict[Path, str]:
    """Every visible file of the table folders -> its table."""
    found: dict[Path, str] = {}
    for table in TABLES:
        folder = root / table
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if not path.name.startswith("."):
                    found[path] = table
    return found


def _file_problem(path: Path, listed: ShardFile) -> str:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return f"{listed.table}/{path.name} is missing"
    except OSError as exc:
        return f"{listed.table}/{path.name} is unreadable ({exc.strerror or exc})"
    if size != listed.size:
        return f"{listed.table}/{path.name} has {size} bytes, not the {listed.size} written"
    try:
        if digest(path) != listed.sha256:
            return f"{listed.table}/{path.name} differs from what was written (checksum)"
    except OSError as exc:
        return f"{listed.table}/{path.name} is unreadable ({exc.strerror or exc})"
    return ""


def _check_listed(root: Path) -> FolderCheck:
    import numpy as np

    entries, bad = read_ledger(root)
    result = FolderCheck(root, listed=True, bad_lines=bad)
    expected_files: set[Path] = set()
    expect = expected(root)
    seen = SeenIds(expect.n_matches)
    left_out: list[Any] = []  # the ids of each broken set, when they could be read
    lost = 0
    for entry in entries:
        problems = [p for f in entry.files if (p := _file_problem(entry.path(root, f.table), f))]
        for f in entry.files:
            expected_files.add(entry.path(root, f.table))
        if not problems:  # intact as written: now what it holds (the list may have been written by hand)
            problem, ids, _ = content_problem(entry.path(root, "matches"), expect, seen)
            if problem:
                problems.append(f"matches/{entry.name}.parquet {problem}")
                if len(ids):
                    left_out.append(ids)
                else:
                    lost += entry.n_matches
        else:
            lost += entry.n_matches
        if problems:
            result.broken.append((entry, "; ".join(problems)))
        else:
            result.sets.append(entry)
    for ids in left_out:  # of a set left out for what it holds, only the ids no intact set holds are lost
        ids = np.unique(ids[(ids >= 0) & (ids < expect.n_matches)] if expect.n_matches is not None else ids)
        lost += len(ids) - seen.repeated(ids)
    result.missing = lost
    for path in _table_files(root):
        if path not in expected_files:
            result.foreign.append(
                (path, "not in the run's shard list (a copy, an unfinished write or a stranger)")
            )
    return result


def _parquet_readable(path: Path) -> bool:
    import pyarrow.parquet as pq

    try:
        pq.read_metadata(path)
    except Exception:  # noqa: BLE001 - whatever pyarrow raises, the file is not a shard
        return False
    return True


def _check_unlisted(root: Path) -> FolderCheck:
    """A folder without a shard list (an older run, or tables written by hand): a matches shard that is
    unreadable or repeats ids already read is not read, nor are the other tables' files of its name.
    The runner's ``part-<id>`` names are read first, so that a copy under another name is the one found
    repeating ids; a runner-named set whose error-free matches have no fighters shard is broken. The
    other tables' readable files of no matches shard's name are read too (a folder written by hand
    need not cut every table the same way)."""
    result = FolderCheck(root, listed=False)
    files = _table_files(root)
    runner_fighters = any(t == "fighters" and RUNNER_NAME.fullmatch(p.stem) for p, t in files.items())
    expect = expected(root)
    seen = SeenIds(expect.n_matches)
    claimed: set[Path] = set()
    rejected: set[str] = set()

    def foreign(path: Path, reason: str) -> None:
        result.foreign.append((path, reason))
        claimed.add(path)

    matches = sorted(
        (p for p, t in files.items() if t == "matches"),
        key=lambda p: (not RUNNER_NAME.fullmatch(p.stem), p.name),
    )
    for path in matches:
        if path.suffix == ".parquet" and SET_NAME.fullmatch(path.stem):
            why, id_array, ok = content_problem(path, expect, seen)
        else:
            why, id_array, ok = "not a readable Parquet shard of matches", None, 0
        if why:
            rejected.add(path.name)
            foreign(path, why)
            continue
        ids = [int(i) for i in id_array]
        if not ids:
            claimed.add(path)
            continue
        siblings = {t: root / t / path.name for t in TABLES if (root / t / path.name) in files}
        problems = [
            f"{t}/{path.name} is not readable Parquet"
            for t, p in siblings.items()
            if t != "matches" and not _parquet_readable(p)
        ]
        if ok and runner_fighters and RUNNER_NAME.fullmatch(path.stem) and "fighters" not in siblings:
            problems.append(f"fighters/{path.name} is missing")
        entry = ShardSet(
            path.stem, len(ids), min(ids), max(ids), tuple(ShardFile(t, 0, "") for t in siblings)
        )
        claimed.update(siblings.values())
        if problems:
            result.broken.append((entry, "; ".join(problems)))
        else:
            result.sets.append(entry)
    for path, table in files.items():
        if path in claimed:
            continue
        if path.name in rejected:
            foreign(path, "belongs to a matches shard that is not read")
        elif RUNNER_NAME.fullmatch(path.stem) or path.suffix != ".parquet" or not _parquet_readable(path):
            foreign(path, "has no matches shard of its set (an unfinished write?)")
        else:
            result.loose.setdefault(table, []).append(path)
    return result


_CACHE: dict[Path, tuple[tuple[Any, ...], FolderCheck]] = {}


def _manifest_lists_shards(root: Path) -> bool:
    try:
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("shard_list") == LEDGER


def _signature(root: Path) -> tuple[Any, ...]:
    """What the check depends on: the list's, the manifest's, the experiment copy's and every table
    file's size and modification time."""
    sig: list[Any] = []
    for path in [root / LEDGER, root / "manifest.json", root / "experiment.toml", *_table_files(root)]:
        try:
            st = path.stat()
        except OSError:
            continue
        sig.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(sig)


def check(root: str | Path) -> FolderCheck:
    """What may be read from the results folder ``root`` (cached until a file changes)."""
    root = Path(root)
    key = root.resolve()
    sig = _signature(root)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == sig:
        return cached[1]
    if (root / LEDGER).is_file():
        result = _check_listed(root)
    else:
        result = _check_unlisted(root)
        if _manifest_lists_shards(root):
            result.bad_lines.append(
                "missing (the manifest says the run kept one): each shard is read only if its match ids, "
                "rows and columns are this run's, once"
            )
    _CACHE[key] = (sig, result)
    return result


# ------------------------------------------------------------------------------------------- repair


def _set_aside(root: Path, path: Path) -> Path:
    """Move ``path`` under ``root/set-aside/<table>/``, never over an earlier one."""
    target_dir = root / SET_ASIDE / path.parent.name
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / path.name
    k = 1
    while target.exists():
        target = target_dir / f"{path.stem}.{k}{path.suffix}"
        k += 1
    shutil.move(str(path), str(target))
    return target


def repair(root: str | Path) -> list[str]:
    """Make the folder hold only intact listed sets before a resume; one line per thing moved aside.

    Temporary files of an interrupted write are deleted; foreign files and the files of broken sets
    are moved into ``set-aside/`` (the matches of a broken set are then missing, so the resume plays
    them again); a folder without a shard list gets one, of its intact sets."""
    root = Path(root)
    for table in TABLES:
        folder = root / table
        if folder.is_dir():
            for tmp in folder.glob(".part-*"):
                tmp.unlink()
    found = check(root)
    lines = [f"{LEDGER}: {reason}" for reason in found.bad_lines]
    for path, reason in found.foreign:
        _set_aside(root, path)
        lines.append(f"{path.relative_to(root)}: {reason}; moved to {SET_ASIDE}/")
    for entry, reason in found.broken:
        for table in entry.tables():
            path = entry.path(root, table)
            if path.exists():
                _set_aside(root, path)
        lines.append(
            f"{entry.name} ({entry.n_matches} matches): {reason}; its files moved to {SET_ASIDE}/, "
            "those of its matches no other set holds are played again"
        )
    if found.listed:
        if found.broken or found.bad_lines:
            write_ledger(root, found.sets)
    else:
        for paths in found.loose.values():
            for path in paths:
                _set_aside(root, path)
                lines.append(
                    f"{path.relative_to(root)}: has no matches shard of its name, so no place in the "
                    f"shard list; moved to {SET_ASIDE}/"
                )
        write_ledger(root, [_recorded(s, root) for s in found.sets])
    _CACHE.pop(root.resolve(), None)
    return lines
