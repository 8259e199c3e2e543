"""The report's Seats section (:func:`add_report_section` is its hook):
the tables of :class:`krosbalance.studies.seats.tables.SeatAnalysis` as text, tables and plots, each
figure with n, a 95% interval and the AI tier. The data are :mod:`seats`'; this module only shows them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.names import names_column
from krosbalance.analysis.narrative import fmt, p_text, pct, with_ci
from krosbalance.studies.seats.lines import (
    group_of,
    ordinal,
    partnership_lines,
    position_lines,
    rotation_line,
    strength_lines,
)
from krosbalance.studies.seats.plots import plot_position_rates, plot_seat_strength
from krosbalance.studies.seats.strength import character_ranking
from krosbalance.studies.seats.tables import BY, BY_AI, SeatAnalysis, for_result_set


def _ci_cells(
    df: pd.DataFrame, est: str = "win_rate", lo: str = "ci_low", hi: str = "ci_high", as_pct: bool = True
) -> list[str]:
    return [with_ci(e, a, b, as_pct=as_pct) for e, a, b in zip(df[est], df[lo], df[hi], strict=True)]


def wide_rates(
    rates: pd.DataFrame, tests: pd.DataFrame, by: tuple[str, ...], key: str = "position"
) -> pd.DataFrame:
    """One row per group: n, each position's (or seat's) win rate [95% CI], the even share and the
    chi-square test (for display; the long tables are the data)."""
    rows = []
    test_of = {group_of(t, by): t for t in tests.itertuples()}
    for group, sub in rates.groupby(list(by), sort=False):
        group = group if isinstance(group, tuple) else (group,)
        row: dict[str, Any] = dict(zip(by, group, strict=True))
        row["AIs"] = str(sub["ais"].iloc[0])
        row["n"] = int(sub["n"].max())
        for r in sub.sort_values(key).itertuples():
            label = ordinal(int(getattr(r, key))) if key == "position" else f"seat {getattr(r, key)}"
            row[label] = with_ci(r.win_rate, r.ci_low, r.ci_high, as_pct=True)
        row["even share"] = pct(float(sub["even"].mean()))
        t = test_of.get(group)
        if t is not None:
            row["chi-square (raw)"] = fmt(t.chi2, 2)
            row["design effect"] = fmt(t.deff, 2)
            row["p (deal-clustered)"] = p_text(t.p_value)
        rows.append(row)
    return pd.DataFrame(rows).rename(columns={"table_ai": "AI of the table"})


def report_section(doc: Any, analysis: SeatAnalysis, tables: dict[str, pd.DataFrame]) -> None:
    """The Seats section: position rates and tests, partnerships, the rotation-balanced figure, the
    position effects and the characters' strength, each with n, 95% intervals and the AI tier."""
    a = analysis
    tables.update(a.tables())
    if a.seats.empty:
        doc.p(f"Tables of {a.n_seats} players, but not enough data: no error-free match.")
        return
    doc.p(
        f"Tables of {a.n_seats} players. The play position is the order of play (1st = first to act); a seat "
        "wins when its partnership wins (in two versus two both partners win), so partners' rates are equal. "
        "Draws count as non-wins in every rate (a draw is in every position's n and in no one's wins) and are "
        "left out of the tests and the model, where a drawn match says nothing about who wins. Matches of one "
        "deal share their seed (every rotation and every arm), so intervals and tests are deal-clustered: Wilson "
        "intervals on the effective n, the chi-square statistic divided by its cells' mean design effect "
        "(Rao-Scott, first order). AI tier: the AIs' registered tier; the heuristic AIs are one tier.",
        note=True,
    )
    doc.p("**Win rate by play position**")
    for line in position_lines(a):
        doc.p(line)
    doc.table(
        wide_rates(a.positions, a.position_tests, BY),
        "Per arm and AI tier: win rate by play position [95% CI].",
    )
    doc.image("seat_positions.png", plot_position_rates(a.positions), "win rate by play position")
    if a.positions_by_ai["table_ai"].nunique() > 1:
        doc.table(
            wide_rates(a.positions_by_ai, a.position_tests_by_ai, BY_AI),
            "The same per AI (tables of one AI; 'mixed' = tables whose seats had different AIs).",
        )
    adjusted = a.strength[a.strength["kind"] == "covariate"]
    if not adjusted.empty:
        t = adjusted[["arm", "tier", "term", "n"]].rename(columns={"term": "against the player acting 1st"})
        t["log-odds [95% CI]"] = _ci_cells(adjusted, "coef", "ci_low", "ci_high", as_pct=False)
        t["p"] = [p_text(p) for p in adjusted["p_value"]]
        doc.p(
            "Adjusted for the characters (the strength model below), each play position's log-odds of winning "
            "against the partnership that acts first; an interval that includes 0 does not show the position matters."
        )
        doc.table(t.reset_index(drop=True))
    if not a.partnerships.empty:
        doc.p("**Partnerships**")
        for line in partnership_lines(a):
            doc.p(line)
        p = a.partnerships
        t = p[["arm", "tier", "ais", "positions", "n", "wins", "draws"]].rename(
            columns={"ais": "AIs", "positions": "partners (play positions)"}
        )
        t["win rate [95% CI]"] = _ci_cells(p)
        t["even share"] = [pct(e) for e in p["even"]]
        t["p"] = [p_text(x) for x in p["p_value"]]
        t["p (Holm)"] = [p_text(x) for x in p["p_holm"]]
        doc.table(
            t.reset_index(drop=True),
            "Each partnership by its players' play positions; exact binomial test against the even share on the "
            "deal-clustered effective counts of the decided matches, Holm-adjusted over this table.",
        )
    doc.p("**Rotation-balanced: win rate by seat**")
    rotation = rotation_line(a.stability, a.by_seat, a.seat_tests)
    if rotation:
        doc.p(rotation)
    doc.table(
        wide_rates(a.by_seat, a.seat_tests, BY, key="seat"), "Per arm and AI tier: win rate by seat [95% CI]."
    )
    s = a.stability.rename(
        columns={
            "complete": "played in every rotation",
            "team_slots": "table teams",
            "same_position": "kept one play position",
        }
    )
    s["share"] = [pct(x) for x in a.stability["share"]]
    doc.table(
        s,
        "Tables (a deal in one arm) and how often a team's play position stayed the same in every rotation.",
    )
    doc.image("seat_by_seat.png", plot_position_rates(a.by_seat, key="seat"), "win rate by seat")
    doc.p("**Character strength at the table**")
    for line in strength_lines(a):
        doc.p(line)
    chars = a.strength[a.strength["kind"] == "character"]
    if not chars.empty:
        t = chars[["arm", "tier"]].copy()
        ranked = character_ranking(a.strength).set_index(["arm", "tier", "term"])["rank"]
        keys = list(zip(chars["arm"], chars["tier"], chars["term"], strict=True))
        t["rank"] = [str(ranked[key]) if key in ranked.index else "" for key in keys]
        t["character"] = names_column(chars["term"])
        t["n"] = chars["n"].astype("int64")
        t["log-odds [95% CI]"] = _ci_cells(chars, "coef", "ci_low", "ci_high", as_pct=False)
        t["raw win rate [95% CI]"] = _ci_cells(chars, "raw_win_rate", "raw_ci_low", "raw_ci_high")
        t["appearances"] = chars["appearances"].fillna(0).astype("int64")
        t["even share"] = [pct(e) for e in chars["even"]]
        t["fit"] = (chars["method"].astype(str) + ", " + chars["interval"].astype(str)).where(
            chars["coef"].notna(), chars["note"]
        )
        doc.p(
            "Conditional logit grouped by match: a partnership's chance of winning the match (a seat's in a "
            "free-for-all) from the characters it fields, with its play positions (and team size when it varies) "
            "held fixed; log-odds against the average character (effects sum to zero). n = decided matches the "
            "character played in; raw win rate over its appearances (partnerships that fielded it), draws as "
            "non-wins, next to the share it would win if nothing mattered.",
            note=True,
        )
        doc.table(t.reset_index(drop=True))
        doc.image("seat_strength.png", plot_seat_strength(a.strength), "character strength at the table")


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (a mode section, :mod:`krosbalance.analysis.sections`): a "Seats" section
    when the result set's matches seat more than two players, nothing otherwise."""
    analysis = for_result_set(rs)
    if analysis is not None:
        section(doc, "Seats", lambda: report_section(doc, analysis, tables))
