"""The seats study's words: the Summary's and the Seats section's sentences from a
:class:`~krosbalance.studies.seats.tables.SeatAnalysis` (play position, partnership, strength at the
table, rotations)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import fmt, p_text, pct, with_ci
from krosbalance.analysis.stats import ALPHA
from krosbalance.studies.seats.tables import BY, MIXED, SeatAnalysis


def ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def group_of(row: Any, by: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(getattr(row, b) for b in by)


def _select(df: pd.DataFrame, by: tuple[str, ...], group: tuple[Any, ...]) -> pd.DataFrame:
    mask = np.ones(len(df), dtype=bool)
    for b, v in zip(by, group, strict=True):
        mask &= (df[b] == v).to_numpy()
    return df[mask]


def _tier_text(tier: str, ais: str) -> str:
    return f"AI tier {tier}: {ais}" if ais else f"AI tier {tier}"


def position_line(
    arm: str, tier: str, rates: pd.DataFrame, test: pd.Series | None, per_ai: pd.DataFrame
) -> str:
    """One arm's win rates by play position with the chi-square verdict, in one sentence."""
    r = rates.sort_values("position")
    ais = str(r["ais"].iloc[0]) if "ais" in r.columns else ""
    n = int(r["n"].max())
    parts = ", ".join(
        f"{ordinal(int(x.position))} {with_ci(x.win_rate, x.ci_low, x.ci_high, as_pct=True)}"
        for x in r.itertuples()
    )
    even = float(r["even"].mean())
    partners = "partners' rates are equal; " if "k" in r.columns and (r["k"] < len(r)).any() else ""
    text = (
        f"**{arm}** ({_tier_text(tier, ais)}; n={n} matches): win rate by play position {parts} "
        f"({partners}even share {pct(even)})"
    )
    if test is None or np.isnan(test["p_value"]):
        return text + "; the position test needs two decided outcomes: not enough data."
    p = float(test["p_value"])
    verdict = "the play position matters" if p < ALPHA else "the play position is not shown to matter"
    text += f"; chi-square p = {p_text(p)} (deal-clustered): {verdict}"
    if len(per_ai) > 1:
        text += (
            " (per AI: "
            + ", ".join(f"{a.table_ai} p = {p_text(a.p_value)}" for a in per_ai.itertuples())
            + ")"
        )
    return text + "."


def partnership_line(arm: str, tier: str, rows: pd.DataFrame) -> str:
    """One arm's partnerships (by play positions) with their Holm-adjusted tests, in one sentence."""
    ais = str(rows["ais"].iloc[0]) if len(rows) else ""
    parts = []
    for r in rows.itertuples():
        players = " and ".join(str(p) for p in str(r.positions).split("+"))
        parts.append(
            f"players {players} won {with_ci(r.win_rate, r.ci_low, r.ci_high, as_pct=True)} of {int(r.n)} matches "
            f"(even {pct(r.even)}, Holm-adjusted p = {p_text(r.p_holm)})"
        )
    significant = rows[rows["p_holm"] < ALPHA]
    verdict = (
        f"a partnership of play positions wins other than its share (Holm-adjusted p < {ALPHA})"
        if len(significant)
        else "no partnership of play positions is shown to win more or less than its share"
    )
    return f"**{arm}** ({_tier_text(tier, ais)}): " + "; ".join(parts) + f": {verdict}."


def strength_line(arm: str, tier: str, strength: pd.DataFrame) -> str:
    """One arm's strongest and weakest characters (conditional logit), in one sentence."""
    chars = strength[(strength["kind"] == "character") & strength["coef"].notna()]
    ais = str(strength["ais"].iloc[0]) if len(strength) and "ais" in strength.columns else ""
    if len(chars) < 2:
        note = str(strength["note"].dropna().iloc[0]) if strength["note"].notna().any() else "not enough data"
        return f"**{arm}** ({_tier_text(tier, ais)}): character strength at the table: {note}."
    chars = chars.sort_values("coef", ascending=False)
    top, bottom = chars.iloc[0], chars.iloc[-1]

    def one(r: pd.Series) -> str:
        return f"**{display_name(r['term'])}** {r['coef']:+.2f} log-odds [{fmt(r['ci_low'])}, {fmt(r['ci_high'])}] (n={int(r['n'])})"

    strong = int((chars["ci_low"] > 0).sum())
    weak = int((chars["ci_high"] < 0).sum())
    ridge = (
        " (penalised fallback fit: estimates shrunk, intervals approximate)"
        if chars["method"].iloc[0] == "ridge"
        else ""
    )
    return (
        f"**{arm}** ({_tier_text(tier, ais)}): strongest character at the table {one(top)}, weakest {one(bottom)}, "
        f"against the average character with the play position held fixed (conditional logit){ridge}; "
        f"{strong} of {len(chars)} intervals lie above zero and {weak} below (about {0.05 * len(chars):.1f} would by chance)."
    )


def rotation_line(stability: pd.DataFrame, by_seat: pd.DataFrame, seat_tests: pd.DataFrame) -> str:
    """What the rotations balance (the seats) and whether they move the play positions, in one sentence."""
    if stability.empty:
        return ""
    kept = "; ".join(
        f"{pct(r.share)} of {r.team_slots} table teams in {r.arm}" for r in stability.itertuples()
    )
    seat_parts = []
    for t in seat_tests.itertuples():
        rates = by_seat[(by_seat["arm"] == t.arm) & (by_seat["tier"] == t.tier)].sort_values("win_rate")
        lo, hi = rates.iloc[0], rates.iloc[-1]
        seat_parts.append(
            f"{t.arm} ({t.tier}, n={int(t.n)}): from {with_ci(lo.win_rate, lo.ci_low, lo.ci_high, as_pct=True)} "
            f"to {with_ci(hi.win_rate, hi.ci_low, hi.ci_high, as_pct=True)}, p = {p_text(t.p_value)}"
        )
    complete = bool((stability["complete"] == stability["tables"]).all())
    played = (
        "Every table was played in all its rotations"
        if complete
        else "Tables were played in several rotations"
    )
    text = (
        f"{played}, so by seat each team sits everywhere and team strength cancels (win rate by seat, "
        f"{'; '.join(seat_parts)})"
    )
    if float(stability["share"].min()) >= 0.5:
        return text + (
            f"; but the play position does not rotate with the seat: {kept} kept one position in every rotation "
            "(it follows the teams: in Arena their Initiative, R-A153, R-A159), so the position rates mix acting "
            "early with fielding high-Initiative characters, which the strength model separates."
        )
    return (
        text + f"; the play position moved with the rotations ({kept} kept one position in every rotation)."
    )


def position_lines(a: SeatAnalysis) -> list[str]:
    """:func:`position_line` for every arm and AI tier, with the per-AI tests of that tier."""
    lines = []
    by_ai = a.position_tests_by_ai
    for t in a.position_tests.itertuples():
        rates = _select(a.positions, BY, group_of(t, BY))
        if t.tier == MIXED:
            per_ai = by_ai.iloc[0:0]
        else:
            per_ai = by_ai[(by_ai["arm"] == t.arm) & (by_ai["table_ai"].map(ai_tier) == t.tier)]
        k = a.seats.groupby(list(BY))["k"].max()
        rates = rates.assign(k=k.get((t.arm, t.tier), len(rates)))
        lines.append(position_line(t.arm, t.tier, rates, pd.Series(t._asdict()), per_ai))
    return lines


def partnership_lines(a: SeatAnalysis) -> list[str]:
    """:func:`partnership_line` for every arm and AI tier that plays in partnerships."""
    return [partnership_line(g[0], g[1], rows) for g, rows in a.partnerships.groupby(list(BY), sort=False)]


def strength_lines(a: SeatAnalysis) -> list[str]:
    """:func:`strength_line` for every arm and AI tier."""
    return [strength_line(g[0], g[1], rows) for g, rows in a.strength.groupby(list(BY), sort=False)]


def summary_lines(analysis: SeatAnalysis) -> list[str]:
    """The headlines of a result set of more than two seats for the report's Summary: per arm (and
    AI tier) the win rate by play position with its test, the partnerships, the strongest and
    weakest characters, and what the rotations balance. Every figure with n, a 95% interval and its
    AI tier."""
    a = analysis
    if a.seats.empty:
        return [f"Tables of {a.n_seats} players, but no error-free match: nothing can be concluded."]
    arms = list(dict.fromkeys(a.seats["arm"]))
    modes = a.seats.drop_duplicates("arm").set_index("arm")["mode"]
    lines = [
        f"Tables of {a.n_seats} players: {', '.join(f'{arm} ({modes[arm]})' for arm in arms)}. The two-player "
        "analyses (first player, matchups, teammate-adjusted strength, balance) are replaced by the Seats section; "
        "draws count as non-wins."
    ]
    lines += position_lines(a) + partnership_lines(a) + strength_lines(a)
    rotation = rotation_line(a.stability, a.by_seat, a.seat_tests)
    return lines + ([rotation] if rotation else [])


__all__ = [
    "group_of",
    "ordinal",
    "partnership_line",
    "partnership_lines",
    "position_line",
    "position_lines",
    "rotation_line",
    "strength_line",
    "strength_lines",
    "summary_lines",
]
