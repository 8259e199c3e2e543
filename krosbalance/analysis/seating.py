"""How many players a match seats: the seat columns of a matches table (``team<s>``, ``ai<s>``,
``play_order``; see :mod:`krosbalance.sim.tables`), read alone.

Every study's report asks it (the common sections read seat 0 against seat 1, and only hold for two
players; the AIs of a match are every seat's), so it lives here; the seats study
(:mod:`krosbalance.studies.seats`) analyses tables of more than two players from these columns.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

LABELS = "ABCDEFGH"  # the table's teams by position, as the matches table names them (sim.tables)
MAX_SEATS = len(LABELS)
SEAT_READ = (
    "match_id",
    "pairing",
    "deal",
    "board",
    "ruleset",
    "variant",
    "winner",
    "end_reason",
    "error",
    "rotation",
    "partnerships",
    "play_order",
    *(f"team{s}" for s in range(MAX_SEATS)),
    *(f"ai{s}" for s in range(MAX_SEATS)),
)
"""The matches columns the seat analysis reads (those present)."""


# ------------------------------------------------------------------------------------ reading
def _seat_team_columns(columns: pd.Index | list[str]) -> list[int]:
    return sorted(int(c[4:]) for c in columns if re.fullmatch(r"team\d+", str(c)))


def _filled(series: pd.Series) -> np.ndarray:
    return (series.astype(object).fillna("").astype(str).str.strip() != "").to_numpy()


def _row_seats(matches: pd.DataFrame) -> np.ndarray:
    """Seats of each match: the entries of its ``play_order``, else its non-empty ``team<s>`` columns."""
    n = np.full(len(matches), 2, dtype=np.int64)
    seats = [s for s in _seat_team_columns(matches.columns) if s >= 2]
    for s in seats:
        n = np.where(_filled(matches[f"team{s}"]), np.maximum(n, s + 1), n)
    if "play_order" in matches.columns:
        order = matches["play_order"].astype(object).fillna("").astype(str)
        counted = np.array([len([x for x in o.split(",") if x.strip()]) for o in order], dtype=np.int64)
        n = np.maximum(n, counted)
    return n


def seat_count(matches: pd.DataFrame) -> int:
    """The most seats (players) any match of ``matches`` has; 2 when it has no seat columns."""
    if matches.empty:
        return 2
    return int(_row_seats(matches).max())


def read_seat_matches(rs: Any) -> pd.DataFrame:
    """The :data:`SEAT_READ` columns of the result set's matches of more than two seats.

    A result directory is read column by column (its memory is that of these columns; a two-player
    result, whose schema has no ``play_order``, reads nothing); an in-memory result set gives its
    own table's columns. Errors are kept (the Data section counts them)."""
    root = getattr(rs, "root", None)
    if root is None:
        m = rs.matches
        frame = m[[c for c in SEAT_READ if c in m.columns]]
    else:
        import pyarrow.dataset as ds

        from krosbalance.analysis import scan  # heavy: scipy, statsmodels

        files = scan.shard_files(root / "matches")
        if not files:
            return pd.DataFrame(columns=list(SEAT_READ[:2]))
        dataset = ds.dataset([str(f) for f in files], format="parquet")
        names = dataset.schema.names
        if "play_order" not in names and not any(re.fullmatch(r"team([2-9])", c) for c in names):
            return pd.DataFrame(columns=list(SEAT_READ[:2]))
        table = dataset.to_table(columns=[c for c in SEAT_READ if c in names])
        frame = table.to_pandas().sort_values("match_id", kind="stable").reset_index(drop=True)
    if frame.empty:
        return frame
    return frame[_row_seats(frame) > 2].reset_index(drop=True)


def more_than_two_seats(rs: Any) -> bool:
    """Whether any match of a result set seats more than two players (the seat columns, read alone)."""
    return seat_count(read_seat_matches(rs)) > 2


__all__ = ["LABELS", "MAX_SEATS", "SEAT_READ", "more_than_two_seats", "read_seat_matches", "seat_count"]
