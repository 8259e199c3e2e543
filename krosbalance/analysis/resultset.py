"""The tidy results of an experiment: matches, fighters and (optionally) events, with Parquet I/O.

A ``ResultSet`` holds the tables the runner writes and nothing else; every derived table (win rates,
matchups, strengths, balance, per-AI comparisons, the AI ladder) is computed on demand by a pure
function in :mod:`stats`, :mod:`strength`, :mod:`balance`, :mod:`dependence` or :mod:`ladder`,
exposed here as a method for convenience. Loaded from disk it is lazy (see :class:`ResultSet`).
Analysis never runs matches.

On disk a result directory looks like the runner's output::

    RESULTS/matches/*.parquet     one row per match
    RESULTS/fighters/*.parquet    one row per fighter per match
    RESULTS/events/*.parquet      optional
    RESULTS/errors/*.parquet      optional
    RESULTS/experiment.toml       the experiment spec, verbatim
    RESULTS/manifest.json         experiment name, master seed, n_matches, versions
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pandas as pd

from krosbalance.analysis import balance, dependence, ladder, scan, stats, strength
from krosbalance.analysis.names import current_ai_ids
from krosbalance.errors import KrosbalanceError
from krosbalance.sim import ledger

SPEC_FILE = "experiment.toml"
MANIFEST_FILE = "manifest.json"
TABLES = ("matches", "fighters", "events", "errors")


def read_shards(directory: Path) -> pd.DataFrame | None:
    """Concatenate every ``*.parquet`` shard of one table directory (None if there is none)."""
    files = scan.shard_files(directory)
    if not files:
        return None
    frames = [pd.read_parquet(f) for f in files]
    frames = [f for f in frames if len(f.columns)]
    if not frames:
        return None

    return current_ai_ids(pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0])


def _sorted(df: pd.DataFrame, keys: tuple[str, ...]) -> pd.DataFrame:
    by = [k for k in keys if k in df.columns]
    if by:
        df = df.sort_values(by, kind="stable")
    return df.reset_index(drop=True)


def _read_manifest(path: Path) -> dict[str, Any]:
    """The runner's manifest; one clear error when it is not a JSON object."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise KrosbalanceError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict):
        raise KrosbalanceError(
            f"{path}: not a krosbalance manifest (a JSON object), but a JSON {type(manifest).__name__}"
        )
    return manifest


class ResultSet:
    """Matches, fighters and optional events of one experiment.

    A result set loaded from a directory is **lazy**: the full tables are read the first time
    :attr:`matches`, :attr:`fighters`, :attr:`events` or :attr:`errors` is used (for notebooks),
    while every derived table (:meth:`character_win_rates`, :meth:`adjusted_strength`, ...) comes
    from :meth:`summary`, a chunked scan of the shards whose memory does not grow with the number
    of matches (:mod:`krosbalance.analysis.scan`). A result set built from DataFrames holds them.

    Attributes:
        matches: one row per match (see the runner's contract); rows whose ``error`` is non-empty are
            kept but excluded from every statistic (see :attr:`ok_matches`).
        fighters: one row per fighter (Krosmaster or summon) per match.
        events: the event log, if it was recorded.
        spec_text: the experiment TOML, verbatim ("" if unknown).
        manifest: the runner's manifest (experiment, master_seed, n_matches, versions...).
        errors: the runner's error table, if any.
        root: the result directory it was loaded from (None when built in memory).
    """

    def __init__(
        self,
        matches: pd.DataFrame | None = None,
        fighters: pd.DataFrame | None = None,
        events: pd.DataFrame | None = None,
        spec_text: str = "",
        manifest: dict[str, Any] | None = None,
        *,
        errors: pd.DataFrame | None = None,
        root: str | Path | None = None,
    ) -> None:
        if matches is None and root is None:
            raise ValueError("a ResultSet needs a matches table or a result directory")
        self.root = Path(root) if root is not None else None
        self.spec_text = spec_text
        self.manifest = manifest
        self._tables: dict[str, pd.DataFrame | None] = {}
        given = {"matches": matches, "fighters": fighters, "events": events, "errors": errors}
        for name, df in given.items():
            if df is not None or self.root is None:
                self._tables[name] = df
        if self.root is None and fighters is None:
            self._tables["fighters"] = pd.DataFrame({"match_id": pd.Series(dtype="int64")})
        self._summary: scan.Summary | None = None

    # ----------------------------------------------------------------- I/O
    @classmethod
    def load(cls, results_dir: str | Path) -> ResultSet:
        """Open a result directory written by the runner (or by :meth:`save`); tables load lazily.

        Raises:
            FileNotFoundError: if the directory holds no matches table at all.
        """
        root = Path(results_dir)
        if not scan.shard_files(root / "matches"):
            found = ledger.check(root) if root.is_dir() else None
            notes = (found.shard_notes() or found.notes()) if found is not None else []
            why = f" ({len(notes)} file(s) not read; the first: {notes[0]})" if notes else ""
            raise FileNotFoundError(f"{root}: no intact matches/*.parquet shards{why}")
        spec = root / SPEC_FILE
        manifest = root / MANIFEST_FILE
        return cls(
            spec_text=spec.read_text(encoding="utf-8", errors="replace") if spec.is_file() else "",
            manifest=_read_manifest(manifest) if manifest.is_file() else None,
            root=root,
        )

    def _table(self, name: str) -> pd.DataFrame | None:
        if name not in self._tables:
            assert self.root is not None
            df = read_shards(self.root / name)
            if name == "matches" and df is not None:
                df = _sorted(df, ("match_id",))
            elif name == "fighters":
                df = (
                    pd.DataFrame({"match_id": pd.Series(dtype="int64")})
                    if df is None
                    else _sorted(df, ("match_id", "side", "uid"))
                )
            elif name == "events" and df is not None:
                df = _sorted(df, ("match_id",))
            self._tables[name] = df
        return self._tables[name]

    @property
    def matches(self) -> pd.DataFrame:
        """The full matches table, sorted by match id (read on first use)."""
        df = self._table("matches")
        assert df is not None
        return df

    @property
    def fighters(self) -> pd.DataFrame:
        """The full fighters table (read on first use; empty when none was written)."""
        df = self._table("fighters")
        assert df is not None
        return df

    @property
    def events(self) -> pd.DataFrame | None:
        """The event log (read on first use), None when the experiment recorded none."""
        return self._table("events")

    @property
    def errors(self) -> pd.DataFrame | None:
        """The runner's error table (read on first use), None when no match raised."""
        return self._table("errors")

    def events_of(self, match_id: int) -> pd.DataFrame | None:
        """The events of one match, read alone from the shards (None when none were recorded)."""
        if "events" in self._tables or self.root is None:
            ev = self._tables.get("events")
            return None if ev is None else ev[ev["match_id"] == match_id]
        files = scan.shard_files(self.root / "events")
        if not files:
            return None
        import pyarrow.dataset as ds

        table = ds.dataset([str(f) for f in files], format="parquet").to_table(
            filter=ds.field("match_id") == int(match_id)
        )
        return _sorted(table.to_pandas(), ("match_id", "seq"))

    def folder_notes(self) -> list[str]:
        """One line per file or set of shards of the results folder that is not read, and why (a copy,
        a file that is not a shard, a set whose shard was lost or altered); empty when all is intact."""
        return ledger.check(self.root).notes() if self.root is not None else []

    def lost_matches(self) -> int:
        """Matches the runner wrote whose set of shards is left out because a file of it was lost or altered."""
        return ledger.check(self.root).lost_matches if self.root is not None else 0

    def summary(self, chunk_matches: int = scan.CHUNK_MATCHES) -> scan.Summary:
        """What every statistic needs, in memory bounded by the design, not the number of matches.

        Read by a chunked scan of the shards when the tables are not in memory (cached)."""
        if self._summary is None:
            if self.root is not None and "matches" not in self._tables:
                self._summary = scan.summarize(self.root, chunk_matches)
            else:
                self._summary = scan.Summary.from_tables(self.matches, self.fighters)
        return self._summary

    @property
    def n_matches(self) -> int:
        """How many matches (errors included), without reading the tables."""
        if "matches" in self._tables or self.root is None:
            return len(self.matches)
        return scan.count_rows(scan.shard_files(self.root / "matches"))

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write this result set in the runner's layout (one shard per table) so :meth:`load` reads it.

        Raises:
            FileExistsError: if ``path`` already holds shards and ``overwrite`` is False (saving into a
                live result directory would double-count its matches).
        """
        root = Path(path)
        tables = {"matches": self.matches, "fighters": self.fighters, "events": self.events}
        tables["errors"] = self.errors
        written: dict[str, Path] = {}
        for name, df in tables.items():
            directory = root / name
            existing = sorted(directory.glob("*.parquet")) if directory.is_dir() else []
            if existing and not overwrite:
                raise FileExistsError(f"{directory}: already holds Parquet shards")
            for f in existing:
                f.unlink()
            if df is not None:
                directory.mkdir(parents=True, exist_ok=True)
                written[name] = directory / "part-00000000.parquet"
                df.to_parquet(written[name], index=False)
        root.mkdir(parents=True, exist_ok=True)
        ids = [int(i) for i in self.matches["match_id"]] if "match_id" in self.matches else []
        if ids:  # the shard list, so that a copy put beside these shards is never read with them
            ledger.write_ledger(root, [ledger.describe("part-00000000", written, ids)])
        else:
            (root / ledger.LEDGER).unlink(missing_ok=True)
        if self.spec_text:
            (root / SPEC_FILE).write_text(self.spec_text, encoding="utf-8")
        if self.manifest is not None:
            (root / MANIFEST_FILE).write_text(
                json.dumps(self.manifest, indent=2, default=str), encoding="utf-8"
            )
        return root

    # ----------------------------------------------------------- filtered
    @property
    def ok_matches(self) -> pd.DataFrame:
        """Matches that finished without an error (the only rows statistics use)."""
        return stats.ok_matches(self.matches)

    @property
    def error_matches(self) -> pd.DataFrame:
        """Matches that ended in an error: counted and reported, never analysed."""
        m = self.matches
        if "error" not in m.columns:
            return m.iloc[0:0]
        return m[~m.index.isin(self.ok_matches.index)]

    @property
    def ok_fighters(self) -> pd.DataFrame:
        """Fighter rows of the matches in :attr:`ok_matches`."""
        return stats.ok_fighters(self.matches, self.fighters)

    # ------------------------------------------------------------ derived
    def character_win_rates(self) -> pd.DataFrame:
        """See :func:`stats.character_win_rates`."""
        return stats.character_win_rates(self.summary().matches)

    def damage_stats(self) -> pd.DataFrame:
        """See :func:`stats.damage_table`."""
        return stats.damage_table(self.summary().fighters)

    def ko_stats(self) -> pd.DataFrame:
        """See :func:`stats.ko_table`."""
        return stats.ko_table(self.summary().fighters)

    def matchup_matrix(self) -> pd.DataFrame:
        """See :func:`stats.matchup_matrix`."""
        return stats.matchup_matrix(self.summary().matches)

    def first_player_advantage(self) -> pd.DataFrame:
        """See :func:`stats.first_player_advantage`."""
        return stats.first_player_advantage(self.summary().matches)

    def match_length(self) -> pd.DataFrame:
        """See :func:`stats.match_length_table`."""
        return stats.match_length_table(self.summary().turns)

    def adjusted_strength(self, **kwargs: Any) -> pd.DataFrame:
        """See :func:`strength.adjusted_strength`."""
        return strength.adjusted_strength(self.summary().matches, **kwargs)

    def balance_summary(self) -> pd.DataFrame:
        """See :func:`balance.balance_summary`."""
        return balance.balance_summary(self.summary().matches)

    def dominated_teams(self) -> pd.DataFrame:
        """See :func:`balance.dominated_teams`."""
        return balance.dominated_teams(self.matchup_matrix())

    def strength_by_ai(self) -> pd.DataFrame:
        """Character strength per AI matchup and pooled; see :func:`dependence.strength_by`."""
        return dependence.strength_by(self.summary().matches, "ai_matchup")

    def strength_by_board(self) -> pd.DataFrame:
        """Character strength per board and pooled; see :func:`dependence.strength_by`."""
        return dependence.strength_by(self.summary().matches, "board")

    def headline_by_ai(self) -> pd.DataFrame:
        """Headline numbers per AI matchup and pooled; see :func:`dependence.headline_by`."""
        return dependence.headline_by(self.summary().matches, "ai_matchup")

    def verdicts(self) -> pd.DataFrame:
        """Per-character verdicts that hold across the validated AI tiers; see :func:`dependence.verdicts`."""
        return dependence.verdicts(self.summary().matches)

    def ladder_ratings(self) -> pd.DataFrame:
        """Bradley-Terry ratings of the AIs that met each other; see :func:`ladder.ladder_ratings`."""
        return ladder.ladder_ratings(self.summary().matches)

    def __repr__(self) -> str:
        name = (self.manifest or {}).get("experiment", "?")
        s = self.summary()
        n_ok = s.n_matches - s.n_errors
        where = f", root={str(self.root)!r}" if self.root is not None else ""
        return f"ResultSet(experiment={name!r}, matches={s.n_matches}, ok={n_ok}{where})"


def spec_question(spec_text: str) -> str:
    """The experiment's ``question`` (or ``description``), top level or in any top-level table."""
    if not spec_text.strip():
        return ""
    try:
        spec = tomllib.loads(spec_text)
    except tomllib.TOMLDecodeError:
        return ""
    tables = [spec] + [v for v in spec.values() if isinstance(v, dict)]
    for key in ("question", "description"):
        for table in tables:
            if isinstance(table.get(key), str) and table[key].strip():
                return table[key].strip()
    return ""
