"""The tidy results of an experiment: matches, fighters and (optionally) events, with Parquet I/O.

A ``ResultSet`` holds the tables the runner writes and nothing else; every derived table (win rates,
matchups, strengths, balance) is computed on demand by a pure function in :mod:`stats`,
:mod:`strength` or :mod:`balance`, exposed here as a method for convenience. Analysis never runs
matches.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from krosbalance.analysis import balance, stats, strength

SPEC_FILE = "experiment.toml"
MANIFEST_FILE = "manifest.json"
TABLES = ("matches", "fighters", "events", "errors")


def read_shards(directory: Path) -> pd.DataFrame | None:
    """Concatenate every ``*.parquet`` shard of one table directory (None if there is none)."""
    if not directory.is_dir():
        return None
    files = sorted(f for f in directory.glob("*.parquet") if not f.name.startswith("."))
    if not files:
        return None
    frames = [pd.read_parquet(f) for f in files]
    frames = [f for f in frames if len(f.columns)]
    if not frames:
        return None
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def _sorted(df: pd.DataFrame, keys: tuple[str, ...]) -> pd.DataFrame:
    by = [k for k in keys if k in df.columns]
    if by:
        df = df.sort_values(by, kind="stable")
    return df.reset_index(drop=True)


@dataclass(eq=False)  # DataFrames do not compare to a bool
class ResultSet:
    """Matches, fighters and optional events of one experiment.

    Attributes:
        matches: one row per match (see the runner's contract); rows whose ``error`` is non-empty are
            kept but excluded from every statistic (see :attr:`ok_matches`).
        fighters: one row per fighter (Krosmaster or summon) per match.
        events: the event log, if it was recorded.
        spec_text: the experiment TOML, verbatim ("" if unknown).
        manifest: the runner's manifest (experiment, master_seed, n_matches, versions...).
        errors: the runner's error table, if any.
    """

    matches: pd.DataFrame
    fighters: pd.DataFrame
    events: pd.DataFrame | None = None
    spec_text: str = ""
    manifest: dict[str, Any] | None = None
    errors: pd.DataFrame | None = field(default=None, kw_only=True)

    # ----------------------------------------------------------------- I/O
    @classmethod
    def load(cls, results_dir: str | Path) -> ResultSet:
        """Read a result directory written by the runner (or by :meth:`save`), sorted by match id.

        Raises:
            FileNotFoundError: if the directory holds no matches table at all.
        """
        root = Path(results_dir)
        matches = read_shards(root / "matches")
        if matches is None:
            raise FileNotFoundError(f"{root}: no matches/*.parquet shards")
        fighters = read_shards(root / "fighters")
        if fighters is None:
            fighters = pd.DataFrame({"match_id": pd.Series(dtype="int64")})
        spec = root / SPEC_FILE
        manifest = root / MANIFEST_FILE
        events = read_shards(root / "events")
        errors = read_shards(root / "errors")
        return cls(
            matches=_sorted(matches, ("match_id",)),
            fighters=_sorted(fighters, ("match_id", "side", "uid")),
            events=None if events is None else _sorted(events, ("match_id",)),
            spec_text=spec.read_text(encoding="utf-8") if spec.is_file() else "",
            manifest=json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() else None,
            errors=errors,
        )

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write this result set in the runner's layout (one shard per table) so :meth:`load` reads it.

        Raises:
            FileExistsError: if ``path`` already holds shards and ``overwrite`` is False (saving into a
                live result directory would double-count its matches).
        """
        root = Path(path)
        tables = {"matches": self.matches, "fighters": self.fighters, "events": self.events}
        tables["errors"] = self.errors
        for name, df in tables.items():
            directory = root / name
            existing = sorted(directory.glob("*.parquet")) if directory.is_dir() else []
            if existing and not overwrite:
                raise FileExistsError(f"{directory}: already holds Parquet shards")
            for f in existing:
                f.unlink()
            if df is not None:
                directory.mkdir(parents=True, exist_ok=True)
                df.to_parquet(directory / "part-00000.parquet", index=False)
        root.mkdir(parents=True, exist_ok=True)
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
        return stats.character_win_rates(self.matches)

    def damage_stats(self) -> pd.DataFrame:
        """See :func:`stats.damage_stats`."""
        return stats.damage_stats(self.matches, self.fighters)

    def ko_stats(self) -> pd.DataFrame:
        """See :func:`stats.ko_stats`."""
        return stats.ko_stats(self.matches, self.fighters)

    def matchup_matrix(self) -> pd.DataFrame:
        """See :func:`stats.matchup_matrix`."""
        return stats.matchup_matrix(self.matches)

    def first_player_advantage(self) -> pd.DataFrame:
        """See :func:`stats.first_player_advantage`."""
        return stats.first_player_advantage(self.matches)

    def match_length(self) -> pd.DataFrame:
        """See :func:`stats.match_length_table`."""
        return stats.match_length_table(self.matches)

    def adjusted_strength(self, **kwargs: Any) -> pd.DataFrame:
        """See :func:`strength.adjusted_strength`."""
        return strength.adjusted_strength(self.matches, **kwargs)

    def balance_summary(self) -> pd.DataFrame:
        """See :func:`balance.balance_summary`."""
        return balance.balance_summary(self.matches)

    def dominated_teams(self) -> pd.DataFrame:
        """See :func:`balance.dominated_teams`."""
        return balance.dominated_teams(self.matchup_matrix())

    def __repr__(self) -> str:
        n_ok = len(self.ok_matches)
        name = (self.manifest or {}).get("experiment", "?")
        return f"ResultSet(experiment={name!r}, matches={len(self.matches)}, ok={n_ok}, fighters={len(self.fighters)})"
