"""The strength study's tables for display: n per experiment cell, headline numbers per group, board
pictures, and the sections that hold for two players only (the common part of every report)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis import stats
from krosbalance.analysis.design import weights
from krosbalance.analysis.document import Doc
from krosbalance.analysis.names import display_name, names_column
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.scan import Summary, with_side_ais
from krosbalance.board import BOARDS_DIR, load_board_file
from krosbalance.paths import name_problem
from krosbalance.render.board_picture import plot_board, positions_at

CELLS_SHOWN = 20  # more cells than this are summarised (n per cell), the full table goes to CSV
BOARDS_DRAWN = 3


def ci_col(df: pd.DataFrame, est: str, lo: str, hi: str, as_pct: bool = False, digits: int = 2) -> pd.Series:
    """``est [lo, hi]`` per row of ``df`` (``with_ci`` of three columns)."""
    return pd.Series(
        [with_ci(e, a, b, as_pct, digits) for e, a, b in zip(df[est], df[lo], df[hi], strict=True)],
        index=df.index,
        dtype=object,
    )


def cells_table(matches: pd.DataFrame) -> pd.DataFrame:
    """n per experiment cell (pairing of two teams, on a board, with one AI matchup): total,
    error-free, errors, draws."""
    m = matches.copy()
    k = weights(m)
    ok = m.index.isin(stats.ok_matches(m).index)
    m["_n"] = k
    m["ok"] = k * ok
    m["draws"] = k * (ok & stats.winner_series(m).isna().to_numpy())
    if "swapped" in m.columns:
        m = with_side_ais(m)
    keys = [c for c in ("pairing", "team_a", "team_b", "board", "ai_a", "ai_b") if c in m.columns]
    for c in keys:
        m[c] = m[c].astype(str) if c != "pairing" else m[c]
    g = m.groupby(keys, sort=True, dropna=False)
    out = g[["_n", "ok", "draws"]].sum().round().astype("int64").rename(columns={"_n": "n"}).reset_index()
    out["errors"] = out["n"] - out["ok"]
    return out


def board_figures(rs: ResultSet, summary: Summary) -> list[tuple[str, Figure]]:
    """Pictures of the experiment's boards (and pieces at the last recorded turn end, if events exist).

    Each picture carries the board's own label when its layout is assumed."""
    figs = []
    for board_id in list(summary.first_match)[:BOARDS_DRAWN]:
        if name_problem(board_id):  # a results folder's board column names a file: never a path
            continue
        path = BOARDS_DIR / f"{board_id}.toml"
        if not path.is_file():
            continue
        try:
            board = load_board_file(path)
        except Exception:  # a broken board file is the content layer's problem, not the report's
            continue
        pieces: list = []
        title = board.name
        mid = summary.first_match[board_id]
        events = rs.events_of(mid)
        if events is not None and {"kind", "turn", "positions"} <= set(events.columns):
            pieces = positions_at(events.to_dict("records"))
            title += f", match {mid} at its last recorded turn end" if pieces else ""
        figs.append((board_id, plot_board(board, pieces, title=title)))
    return figs


def named(df: pd.DataFrame, column: str, label: str = "") -> pd.DataFrame:
    """``df`` with its id column shown as display names (``label`` renames the column)."""
    out = df.copy()
    out[column] = names_column(out[column])
    return out.rename(columns={column: label}) if label else out


def headline_table(head: pd.DataFrame, by: str) -> pd.DataFrame:
    """The headline numbers per AI matchup or board (``by``), one row per group, for display."""
    t = pd.DataFrame({by: head["group"]})
    if "tier" in head.columns:
        t["tier"] = head["tier"]
    t["matches"] = head["matches"]
    for label in ("strongest", "weakest"):
        t[label] = [
            f"{display_name(c)} {with_ci(e, lo, hi)}" if c else "n/a"
            for c, e, lo, hi in zip(
                head[label],
                head[f"{label}_coef"],
                head[f"{label}_ci_low"],
                head[f"{label}_ci_high"],
                strict=True,
            )
        ]
    t["first-player win rate (decided)"] = ci_col(
        head, "first_rate", "first_ci_low", "first_ci_high", as_pct=True
    )
    t["draw share"] = ci_col(head, "draw_share", "draw_ci_low", "draw_ci_high", as_pct=True)
    return t


TWO_PLAYER_ONLY: dict[str, str] = {
    "Character win rates (raw)": "side 0 against side 1",
    "Teammate-adjusted strength": "a logit of side 0 against side 1",
    "How much the verdict depends on the AI and the board": "the two-player strength model per AI and board",
    "AI ladder": "one AI against another",
    "Balance summary": "first against second player, side 0 against side 1, dominated teams",
    "First-player advantage": "first against second player",
    "Matchups": "team against team",
}
"""The common sections that read seat 0 against seat 1, and what each compares."""


def two_player_only(doc: Doc, heading: str, n_seats: int, build: Callable[[], None]) -> Callable[[], None]:
    """``build``, or, for a two-player-only section of a report of ``n_seats`` players, one sentence
    that says so and points to the Seats section."""
    compares = TWO_PLAYER_ONLY.get(heading)
    if compares is None:
        return build
    return lambda: doc.p(
        f"This section is a two-player analysis ({compares}) and these matches seat {n_seats} players, so it "
        "is left out: see the Seats section, which gives the win rates by play position, partnership and seat "
        "and each character's strength at the table."
    )


__all__ = [
    "BOARDS_DRAWN",
    "CELLS_SHOWN",
    "TWO_PLAYER_ONLY",
    "board_figures",
    "cells_table",
    "ci_col",
    "headline_table",
    "named",
    "two_player_only",
]
