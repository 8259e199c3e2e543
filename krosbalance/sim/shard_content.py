"""What a matches shard of a results folder must hold to be read (issue 36), whatever the shard list says.

The shard list (:mod:`krosbalance.sim.ledger`) proves a file is the one the runner wrote; this module
checks what it holds, so that a folder without a list (lost, or older than the list) or a list edited
by hand cannot make a reader count a match twice, count matches of another run, or end in a cast error:
its match ids once each and none an earlier set holds; its columns of the types the runner writes; in a
runner's folder (a manifest with a fingerprint) the same fingerprint in the shard's metadata when it
records one, its ids within ``0 .. n_matches - 1``, its rows of the manifest's experiment and ruleset,
and every column the readers read. Each problem is one line naming
the column or the ids; the ledger turns it into a set left out (and set aside by ``--resume``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from krosbalance.sim.tables import MATCH_COLUMNS, match_columns

#: the key of the run's fingerprint in a shard's Parquet metadata (written by the runner since issue 36)
FINGERPRINT_KEY = b"krosbalance.fingerprint"

# The matches columns every reader reads (``analysis.scan.MATCH_READ`` of the runner's neutral columns):
# a runner's shard without one of them would be read as empty cells, which end a report in a cast error.
READ_COLUMNS: tuple[str, ...] = (
    "match_id",
    "pairing",
    "deal",
    "swapped",
    "seed",
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
    "turns",
    "error",
    "experiment",
)


@dataclass(frozen=True, slots=True)
class Expected:
    """What the matches shards of a results folder must hold, from its manifest (and, for the ruleset of
    a run older than the manifest's ``ruleset``, its copy of the experiment file); None: not known.

    Only a runner's manifest (one with a fingerprint) states the run's match count, experiment and
    ruleset: a folder written otherwise is held only to what every reader needs."""

    n_matches: int | None = None
    fingerprint: str | None = None  # the run's: a shard that records another was written by another run
    experiment: str | None = None
    ruleset: str | None = None
    runner: bool = False  # a runner's folder (a manifest with a fingerprint): every read column is there
    dtypes: tuple[tuple[str, str], ...] = ()  # column -> the table dtype the runner writes


def _manifest(root: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _experiment_ruleset(root: Path) -> str | None:
    """The ``ruleset`` of the folder's copy of the experiment file ('arena' when it names none)."""
    import tomllib

    try:
        data = tomllib.loads((root / "experiment.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ruleset = data.get("ruleset", "arena")
    return ruleset if isinstance(ruleset, str) else None


def _dtypes(ruleset: str | None) -> tuple[tuple[str, str], ...]:
    """The matches columns the runner writes for ``ruleset`` (the neutral ones when it is unknown)."""
    try:
        columns = match_columns((ruleset,)) if ruleset else dict(MATCH_COLUMNS)
    except Exception:  # noqa: BLE001 - a ruleset this version does not know: its neutral columns
        columns = dict(MATCH_COLUMNS)
    return tuple(columns.items())


def expected(root: str | Path) -> Expected:
    """What the shards of the results folder ``root`` must hold (see :class:`Expected`)."""
    root = Path(root)
    manifest = _manifest(root)
    n = manifest.get("n_matches")
    name = manifest.get("experiment")
    ruleset = manifest.get("ruleset")
    if not isinstance(ruleset, str):
        ruleset = _experiment_ruleset(root)
    if not isinstance(manifest.get("fingerprint"), str):
        # a folder written by hand (a notebook's tables, a test's): its manifest says what it likes, so
        # only what every reader needs is checked (ids once each, the columns' types)
        return Expected(dtypes=_dtypes(ruleset))
    return Expected(
        n_matches=n if type(n) is int and n >= 0 else None,
        fingerprint=manifest["fingerprint"],
        experiment=name if isinstance(name, str) else None,
        ruleset=ruleset,
        runner=True,
        dtypes=_dtypes(ruleset),
    )


def _type_fits(arrow_type: Any, dtype: str) -> bool:
    """Whether a Parquet column of ``arrow_type`` reads as the table dtype ``dtype`` (NA allowed only
    in the nullable dtypes)."""
    import pyarrow as pa

    t = arrow_type.value_type if pa.types.is_dictionary(arrow_type) else arrow_type
    nullable = dtype in ("Int64", "boolean", "Float64", "string")
    if pa.types.is_null(t):
        return nullable
    if dtype in ("int64", "Int64"):
        return bool(pa.types.is_integer(t))
    if dtype in ("bool", "boolean"):
        return bool(pa.types.is_boolean(t))
    if dtype in ("float64", "Float64"):
        return bool(pa.types.is_floating(t) or pa.types.is_integer(t))
    if dtype == "string":
        return bool(pa.types.is_string(t) or pa.types.is_large_string(t))
    return True


def _type_name(arrow_type: Any) -> str:
    text = str(arrow_type)
    return {"large_string": "string", "double": "float64", "null": "empty"}.get(text, text)


def schema_problem(schema: Any, expect: Expected) -> str:
    """What makes a matches shard's Arrow ``schema`` unreadable with the others, naming the column, or ''."""
    names = set(schema.names)
    if "match_id" not in names:
        return "has no column 'match_id'"
    for column, dtype in (("match_id", "int64"), *expect.dtypes):
        if column in names and not _type_fits(schema.field(column).type, dtype):
            return f"column {column!r} is {_type_name(schema.field(column).type)}, not {dtype}"
    if expect.runner:
        missing = [c for c in READ_COLUMNS if c not in names]
        if missing:
            return f"has no column {missing[0]!r}" + (
                f" (nor {len(missing) - 1} more)" if len(missing) > 1 else ""
            )
    return ""


class SeenIds:
    """The match ids read so far: a bit per match when the run's count is known, else a set."""

    def __init__(self, n_matches: int | None) -> None:
        import numpy as np

        self.mask = np.zeros(n_matches, dtype=bool) if n_matches is not None else None
        self.ids: set[int] = set()

    def repeated(self, ids: Any) -> int:
        if self.mask is not None:
            return int(self.mask[ids].sum())
        return len(self.ids.intersection(ids.tolist()))

    def add(self, ids: Any) -> None:
        if self.mask is not None:
            self.mask[ids] = True
        else:
            self.ids.update(ids.tolist())


def _values(table: Any, column: str) -> list[Any]:
    import pyarrow.compute as pc

    if column not in table.column_names:
        return []
    return sorted(v for v in pc.unique(table.column(column)).to_pylist() if v is not None)


def content_problem(path: Path, expect: Expected, seen: SeenIds) -> tuple[str, Any, int]:
    """Why the matches shard ``path`` may not be read (its schema, ids or rows), or '', with its match
    ids (a numpy array) and how many of its rows ended without an error. An empty reason adds its ids
    to ``seen``."""
    import numpy as np
    import pyarrow.parquet as pq

    empty = np.zeros(0, dtype=np.int64)
    try:
        schema = pq.read_schema(path)
    except Exception:  # noqa: BLE001 - whatever pyarrow raises, the file is not a shard
        return "not a readable Parquet shard of matches", empty, 0
    problem = schema_problem(schema, expect)
    if problem:
        return problem, empty, 0
    written_by = (schema.metadata or {}).get(FINGERPRINT_KEY)
    if (
        written_by is not None
        and expect.fingerprint is not None
        and written_by.decode() != expect.fingerprint
    ):
        return (
            f"was written by another run (fingerprint {written_by.decode()}, this run's {expect.fingerprint})",
            empty,
            0,
        )
    wanted = [c for c in ("match_id", "error", "experiment", "ruleset") if c in schema.names]
    try:
        table = pq.read_table(path, columns=wanted)
    except Exception:  # noqa: BLE001
        return "not a readable Parquet shard of matches", empty, 0
    ids_col = table.column("match_id")
    if ids_col.null_count:
        return f"column 'match_id' has {ids_col.null_count} empty cell(s)", empty, 0
    ids = ids_col.to_numpy().astype(np.int64, copy=False)
    errors = table.column("error").to_pylist() if "error" in table.column_names else []
    ok = len(ids) - sum(1 for e in errors if e)
    unique, counts = np.unique(ids, return_counts=True)
    if len(unique) < len(ids):
        twice = unique[counts > 1]
        return f"holds {len(twice)} match id(s) more than once (first: {int(twice[0])})", ids, ok
    n = expect.n_matches
    outside = ids[(ids < 0) | (ids >= n)] if n is not None else ids[ids < 0]
    if len(outside):
        span = f"this run's 0-{n - 1}" if n else "this run's (none)" if n == 0 else "0 and up"
        return f"holds {len(outside)} match id(s) outside {span} (first: {int(outside.min())})", ids, ok
    for column, want in (("experiment", expect.experiment), ("ruleset", expect.ruleset)):
        # a ruleset played with options is recorded as "name[option=value,...]"
        others = [
            v for v in _values(table, column) if (v.split("[", 1)[0] if column == "ruleset" else v) != want
        ]
        if want is not None and others:
            which = ", ".join(repr(v) for v in others[:3])
            return f"holds matches of {column} {which}, not this run's {want!r}", ids, ok
    repeated = seen.repeated(ids)
    if repeated:
        return f"holds {repeated} match id(s) an earlier set already holds (a copy?)", ids, ok
    seen.add(ids)
    return "", ids, ok
