"""Read a result directory in bounded memory: scan its Parquet shards chunk by chunk and keep only
what the statistics need.

Why pyarrow datasets (not DuckDB): pyarrow already reads and writes every shard, so it costs no new
dependency; a dataset scan reads only the requested columns, turns strings into dictionary-encoded
(categorical) columns, and skips whole row groups by their match-id statistics, which is all the
report needs. The aggregation itself is small pandas code shared with the in-memory path.

One pass over the shards, in chunks of whole deals (``chunk_matches`` match ids at a time, cut at
even ids so the two matches of a paired deal never straddle a cut -- the runner's expansion puts
them at ``2k`` and ``2k + 1``), builds a :class:`Summary`:

* ``matches``: the matches table **compressed by deal pattern** -- all deals with the same teams,
  board, AIs, first players, winners and end reasons are one pattern, stored once per match slot
  with a ``weight`` (how many deals share it) and a ``cluster`` id. Every statistic in
  :mod:`stats`, :mod:`strength`, :mod:`balance`, :mod:`dependence` and :mod:`ladder` reads the
  weights, so the numbers are those of the full table while the size depends on the design (teams,
  boards, AIs), not on the number of matches;
* ``turns``: a histogram of match lengths per AI matchup, board and end reason;
* ``fighters``: additive per-character moments of the fighter counters (:func:`stats.fighter_moments`);
* versions, the count and the first rows of matches that ended in an error, and per board the first
  error-free match (whose events draw the board picture).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis import stats
from krosbalance.analysis.design import CLUSTER, WEIGHT
from krosbalance.analysis.names import current_ai_ids
from krosbalance.sim import ledger

CHUNK_MATCHES = 5_000
ERRORS_KEPT = 200
DEAL_COLUMNS = ("pairing", "team_a", "team_b", "board", "ai_a", "ai_b")
SLOT_COLUMNS = (
    "swapped",
    "team0",
    "team1",
    "ai0",
    "ai1",
    "first_player",
    "winner",
    "winner_team",
    "end_reason",
    "error",
)
MATCH_READ = (
    "match_id",
    "pairing",
    "deal",
    "swapped",
    "team_a",
    "team_b",
    "team0",
    "team1",
    "ai0",
    "ai1",
    "board",
    "first_player",
    "winner",
    "winner_team",
    "end_reason",
    "error",
    "turns",
    "seed",
    "experiment",
    "engine_version",
    "content_version",
    "package_version",
)
VERSION_COLUMNS = ("engine_version", "content_version", "package_version")
TURN_KEYS = ("ai0", "ai1", "board", "end_reason", "turns")
STRING_COLUMNS = (
    "team_a",
    "team_b",
    "team0",
    "team1",
    "ai0",
    "ai1",
    "board",
    "winner_team",
    "end_reason",
    "experiment",
    *VERSION_COLUMNS,
    "character",
    "ai",
)


def shard_files(directory: Path) -> list[Path]:
    """The shards of one table directory that may be read: for a results folder's tables, only the
    intact sets its shard list names (:func:`krosbalance.sim.ledger.check`; a copied, foreign or
    damaged file is never read), elsewhere every ``*.parquet`` file (hidden temporary files excluded)."""
    if not directory.is_dir():
        return []
    if directory.name in ledger.TABLES:
        return ledger.check(directory.parent).files(directory.name)
    return sorted(f for f in directory.glob("*.parquet") if not f.name.startswith("."))


def count_rows(files: list[Path]) -> int:
    """Rows in these Parquet files, from their footers (no data is read)."""
    import pyarrow.parquet as pq

    return sum(pq.read_metadata(f).num_rows for f in files)


def _dataset(files: list[Path]) -> Any:
    import pyarrow.dataset as ds

    fmt = ds.ParquetFileFormat(read_options=ds.ParquetReadOptions(dictionary_columns=list(STRING_COLUMNS)))
    return ds.dataset([str(f) for f in files], format=fmt)


def _file_ranges(files: list[Path]) -> list[tuple[Path, int, int, int]]:
    """``(file, min id, max id, rows)`` of every non-empty shard, from the Parquet footers' statistics
    (a file without them is read for its ids)."""
    import pyarrow.parquet as pq

    out = []
    for f in files:
        meta = pq.read_metadata(f)
        names = [meta.schema.column(i).name for i in range(meta.num_columns)]
        if "match_id" not in names or meta.num_rows == 0:
            continue
        j = names.index("match_id")
        stats = [meta.row_group(r).column(j).statistics for r in range(meta.num_row_groups)]
        if all(st is not None and st.has_min_max for st in stats):
            lo, hi = min(int(st.min) for st in stats), max(int(st.max) for st in stats)
        else:
            ids = pq.read_table(f, columns=["match_id"]).column("match_id").to_numpy()
            lo, hi = int(ids.min()), int(ids.max())
        out.append((f, lo, hi, meta.num_rows))
    return out


def _id_ranges(files: list[tuple[Path, int, int, int]], chunk: int) -> list[tuple[int, int]]:
    """Disjoint ``[lo, hi)`` match-id ranges covering every row, each holding about ``chunk`` matches,
    cut at even ids (from :func:`_file_ranges`: no data is read)."""
    if not files:
        return []
    groups = sorted((lo, hi, n) for _, lo, hi, n in files)
    ranges: list[tuple[int, int]] = []
    lo = groups[0][0] - groups[0][0] % 2
    rows = 0
    for gmin, _, n in groups:
        cut = gmin - gmin % 2
        if rows >= chunk and cut > lo:
            ranges.append((lo, cut))
            lo, rows = cut, 0
        rows += n
    ranges.append((lo, max(g[1] for g in groups) + 1))
    return ranges


def _read_range(
    files: list[tuple[Path, int, int, int]], lo: int, hi: int, columns: list[str]
) -> pd.DataFrame:
    """Rows with ``lo <= match_id < hi`` of the shards whose id range overlaps it, single-threaded
    (a dataset over only those files, so nothing is cached across chunks)."""
    import pyarrow.dataset as ds

    overlapping = [f for f, a, b, _ in files if a < hi and b >= lo]
    if not overlapping:
        return pd.DataFrame(columns=columns)
    dataset = _dataset(overlapping)
    present = [c for c in columns if c in dataset.schema.names]
    flt = (ds.field("match_id") >= lo) & (ds.field("match_id") < hi)

    return current_ai_ids(dataset.to_table(columns=present, filter=flt, use_threads=False).to_pandas())


def iter_chunks(
    root: str | Path,
    match_columns: tuple[str, ...] = MATCH_READ,
    fighter_columns: tuple[str, ...] | None = None,
    chunk_matches: int = CHUNK_MATCHES,
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame | None]]:
    """Yield ``(matches, fighters)`` for successive ranges of whole matches (fighters None unless
    ``fighter_columns`` is given, or when there are no fighter shards)."""
    root = Path(root)
    mfiles = _file_ranges(shard_files(root / "matches"))
    if not mfiles:
        return
    chunk = max(2, chunk_matches + chunk_matches % 2)
    ffiles = _file_ranges(shard_files(root / "fighters")) if fighter_columns is not None else []
    import pyarrow as pa

    pool = pa.default_memory_pool()
    for lo, hi in _id_ranges(mfiles, chunk):
        m = _read_range(mfiles, lo, hi, list(match_columns))
        if m.empty:
            continue
        f = _read_range(ffiles, lo, hi, list(fighter_columns or ())) if ffiles else None
        yield m, f
        del m, f
        pool.release_unused()  # hand the chunk's Arrow buffers back to the system, not to a cache


# --------------------------------------------------------------------------------------- compression


def _normalised(m: pd.DataFrame) -> pd.DataFrame:
    """The columns a deal pattern is made of, with plain, hashable values."""
    out = pd.DataFrame(index=m.index)
    swapped = m["swapped"].astype(bool) if "swapped" in m.columns else pd.Series(False, index=m.index)
    for c in ("team_a", "team_b", "team0", "team1", "ai0", "ai1", "board", "end_reason"):
        out[c] = m[c].astype(str) if c in m.columns else ""
    out["pairing"] = m["pairing"].astype("int64") if "pairing" in m.columns else -1
    out["ai_a"] = out["ai0"].where(~swapped, out["ai1"])
    out["ai_b"] = out["ai1"].where(~swapped, out["ai0"])
    out["swapped"] = swapped.astype("int8")
    out["first_player"] = m["first_player"].astype("int64") if "first_player" in m.columns else -1
    out["winner"] = pd.to_numeric(m["winner"], errors="coerce").fillna(-1).astype("int8")
    out["winner_team"] = m["winner_team"].astype(object).fillna("").astype(str)
    if "error" in m.columns:
        err = m["error"].astype(object).fillna("").astype(str) != ""
    else:
        err = pd.Series(False, index=m.index)
    out["error"] = (err | (out["end_reason"] == "error")).astype("int8")
    return out


def with_side_ais(m: pd.DataFrame) -> pd.DataFrame:
    """``m`` with ``ai_a``/``ai_b`` (the AI of the experiment's team A and B, whichever seat each
    took) when it has the seats' ``ai0``/``ai1`` but not them: the compressed summary has them, so
    the summary of tables already read must too."""
    if not {"ai0", "ai1"} <= set(m.columns) or {"ai_a", "ai_b"} <= set(m.columns):
        return m
    swapped = m["swapped"].astype(bool) if "swapped" in m.columns else pd.Series(False, index=m.index)
    return m.assign(ai_a=m["ai0"].where(~swapped, m["ai1"]), ai_b=m["ai1"].where(~swapped, m["ai0"]))


def _deal_codes(m: pd.DataFrame) -> np.ndarray:
    if "pairing" in m.columns and "deal" in m.columns:
        keys = m[["pairing", "deal"]].astype("int64")
        return np.asarray(pd.MultiIndex.from_frame(keys).factorize()[0])
    return m["match_id"].to_numpy(dtype=np.int64)


def deal_patterns(matches: pd.DataFrame) -> pd.DataFrame:
    """Wide deal patterns with their counts: one row per distinct deal (``count`` = how many deals).

    Columns: the deal columns, then ``<slot column>__<i>`` for the i-th match of the deal (by
    match id; ``swapped__i == -1`` when the deal has no i-th match), then ``count``.
    """
    if matches.empty:
        return pd.DataFrame()
    norm = _normalised(matches)
    norm["_deal"] = _deal_codes(matches)
    norm["_id"] = matches["match_id"].to_numpy() if "match_id" in matches.columns else np.arange(len(matches))
    norm = norm.sort_values(["_deal", "_id"], kind="stable")
    norm["_slot"] = norm.groupby("_deal", sort=False).cumcount()
    n_slots = int(norm["_slot"].max()) + 1
    base = norm[norm["_slot"] == 0].set_index("_deal")[list(DEAL_COLUMNS)]
    parts = [base]
    for i in range(n_slots):
        slot = norm[norm["_slot"] == i].set_index("_deal")[list(SLOT_COLUMNS)]
        slot = slot.reindex(base.index)
        fill = {c: ("" if slot[c].dtype == object else -1) for c in SLOT_COLUMNS}
        slot = slot.fillna(fill)
        for c in SLOT_COLUMNS:
            if c in ("swapped", "first_player", "winner", "error"):
                slot[c] = slot[c].astype("int64")
        parts.append(slot.add_suffix(f"__{i}"))
    wide = pd.concat(parts, axis=1)
    return _count_patterns(wide.groupby(list(wide.columns), sort=False, dropna=False).size())


def merge_patterns(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up pattern tables of several chunks (patterns of different slot counts are aligned)."""
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame()
    wide = pd.concat(parts, ignore_index=True)
    # one fillna for every slot column: a column at a time fragments a frame with many slots (a
    # reward-value deal has 122) and pandas warns once per column
    fill = {
        c: (-1 if c.split("__")[0] in ("swapped", "first_player", "winner", "error") else "")
        for c in wide.columns
        if "__" in c
    }
    wide = wide.fillna(fill)
    keys = [c for c in wide.columns if c != "count"]
    return _count_patterns(wide.groupby(keys, sort=False, dropna=False)["count"].sum())


def _count_patterns(counts: pd.Series) -> pd.DataFrame:
    """The pattern table from counts indexed by the pattern's columns, built in one go (``reset_index``
    inserts one column at a time, which fragments a frame of many slots and makes pandas warn)."""
    keys = counts.index.to_frame(index=False)
    return pd.concat([keys, pd.DataFrame({"count": counts.to_numpy()})], axis=1)


def explode_patterns(wide: pd.DataFrame) -> pd.DataFrame:
    """The compressed matches table: one row per match slot of each pattern, with ``weight`` and
    ``cluster`` (see :mod:`krosbalance.analysis.design`)."""
    if wide.empty:
        return pd.DataFrame(columns=[*DEAL_COLUMNS, *SLOT_COLUMNS, WEIGHT, CLUSTER])
    wide = wide.sort_values([c for c in wide.columns if c != "count"], kind="stable").reset_index(drop=True)
    slots = sorted({int(c.rsplit("__", 1)[1]) for c in wide.columns if "__" in c})
    frames = []
    for i in slots:
        part = wide[list(DEAL_COLUMNS)].copy()
        for c in SLOT_COLUMNS:
            part[c] = wide[f"{c}__{i}"].to_numpy()
        part[WEIGHT] = wide["count"].to_numpy(dtype=float)
        part[CLUSTER] = np.arange(len(wide), dtype=np.int64)
        part["_slot"] = i
        frames.append(part[part["swapped"] >= 0])
    long = pd.concat(frames, ignore_index=True).sort_values([CLUSTER, "_slot"], kind="stable")
    long = long.drop(columns="_slot").reset_index(drop=True)
    long["swapped"] = long["swapped"].astype(bool)
    long["winner"] = long["winner"].astype("Int64").where(long["winner"] >= 0, pd.NA).astype("Int64")
    long["error"] = np.where(long["error"].astype(int) > 0, "error", "")
    long.insert(0, "match_id", np.arange(len(long), dtype=np.int64))  # row ids, not the runner's
    return long


def compress_matches(matches: pd.DataFrame) -> pd.DataFrame:
    """The matches table compressed by deal pattern; every statistic gives the same result on it."""
    return explode_patterns(deal_patterns(matches))


# ------------------------------------------------------------------------------------------ summary


@dataclass
class Summary:
    """Everything the report reads, in memory that does not grow with the number of matches.

    Attributes:
        matches: compressed matches (``weight``, ``cluster``), or the full table.
        turns: ``end_reason``, ``turns`` (and AI/board columns) of error-free matches with ``weight``.
        fighters: per-(character, ai) moments (:func:`stats.fighter_moments`).
        n_matches: matches in the result directory, errors included.
        errors: the first ``ERRORS_KEPT`` matches that ended in an error (``n_errors`` counts all).
        versions: the distinct values of every version column.
        first_match: per board, the smallest error-free match id (for the board picture).
        experiment: the experiment column's value, if any.
    """

    matches: pd.DataFrame
    turns: pd.DataFrame
    fighters: pd.DataFrame
    n_matches: int
    errors: pd.DataFrame = field(default_factory=pd.DataFrame)
    n_errors: int = 0
    versions: dict[str, list[str]] = field(default_factory=dict)
    first_match: dict[str, int] = field(default_factory=dict)
    experiment: str = ""

    @classmethod
    def from_tables(cls, matches: pd.DataFrame, fighters: pd.DataFrame | None) -> Summary:
        """The summary of tables already in memory (nothing is compressed: same numbers)."""
        acc = _Accumulator()
        acc.add(matches, fighters, compress=False)
        return acc.result()


class _Accumulator:
    def __init__(self) -> None:
        self.patterns: list[pd.DataFrame] = []
        self.raw: list[pd.DataFrame] = []
        self.turns: list[pd.DataFrame] = []
        self.moments: list[pd.DataFrame] = []
        self.errors: list[pd.DataFrame] = []
        self.n_matches = 0
        self.n_errors = 0
        self.versions: dict[str, set[str]] = {}
        self.first_match: dict[str, int] = {}
        self.experiment = ""

    def add(self, m: pd.DataFrame, f: pd.DataFrame | None, compress: bool = True) -> None:
        self.n_matches += len(m)
        ok = stats.ok_matches(m)
        bad = m[~m.index.isin(ok.index)]
        self.n_errors += len(bad)
        kept = sum(len(e) for e in self.errors)
        if len(bad) and kept < ERRORS_KEPT:
            cols = [c for c in ("match_id", "seed", "team0", "team1", "board", "error") if c in bad.columns]
            self.errors.append(bad[cols].head(ERRORS_KEPT - kept).astype(object))
        for c in VERSION_COLUMNS:
            if c in m.columns:
                self.versions.setdefault(c, set()).update(map(str, m[c].dropna().unique()))
        if not self.experiment and "experiment" in m.columns and len(m):
            self.experiment = str(m["experiment"].iloc[0])
        if "board" in ok.columns and "match_id" in ok.columns and len(ok):
            firsts = ok.groupby(ok["board"].astype(str), observed=True)["match_id"].min()
            for board, mid in firsts.items():
                self.first_match[board] = min(int(mid), self.first_match.get(board, int(mid)))
        if "turns" in ok.columns and len(ok):
            keys = [c for c in TURN_KEYS if c in ok.columns]
            t = ok[keys].astype({c: str for c in keys if c != "turns"})
            self.turns.append(t.groupby(keys, sort=False).size().rename(WEIGHT).reset_index())
            if len(self.turns) > 1:
                self.turns = [_merge_turns(self.turns)]
        if compress:
            self.patterns.append(deal_patterns(m))
            if len(self.patterns) > 1:  # keep the running total small
                self.patterns = [merge_patterns(self.patterns)]
        else:
            self.raw.append(m)
        if f is not None and not f.empty:
            self.moments.append(stats.fighter_moments(m, f))
            if len(self.moments) > 1:
                self.moments = [stats.combine_moments(self.moments)]

    def result(self) -> Summary:
        if self.raw:
            matches = with_side_ais(
                pd.concat(self.raw, ignore_index=True) if len(self.raw) > 1 else self.raw[0]
            )
        else:
            matches = explode_patterns(merge_patterns(self.patterns))
        turns = _merge_turns(self.turns) if self.turns else pd.DataFrame(columns=[*TURN_KEYS, WEIGHT])
        errors = pd.concat(self.errors, ignore_index=True) if self.errors else pd.DataFrame()
        return Summary(
            matches=matches,
            turns=turns,
            fighters=stats.combine_moments(self.moments),
            n_matches=self.n_matches,
            errors=errors,
            n_errors=self.n_errors,
            versions={k: sorted(v) for k, v in self.versions.items()},
            first_match=self.first_match,
            experiment=self.experiment,
        )


def _merge_turns(parts: list[pd.DataFrame]) -> pd.DataFrame:
    t = pd.concat(parts, ignore_index=True)
    keys = [c for c in t.columns if c != WEIGHT]
    turns = t.groupby(keys, sort=True)[WEIGHT].sum().reset_index()
    turns[WEIGHT] = turns[WEIGHT].astype(float)
    return turns


def summarize(root: str | Path, chunk_matches: int = CHUNK_MATCHES) -> Summary:
    """One pass over a result directory's shards, in chunks of ``chunk_matches`` matches.

    Raises:
        FileNotFoundError: if the directory holds no matches shards.
    """
    root = Path(root)
    if not shard_files(root / "matches"):
        raise FileNotFoundError(f"{root}: no matches/*.parquet shards")
    acc = _Accumulator()
    for m, f in iter_chunks(root, MATCH_READ, stats.FIGHTER_COLUMNS, chunk_matches):
        acc.add(m, f)
    return acc.result()
