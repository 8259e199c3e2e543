"""A study's headline in words: the strongest validated AI's figures, and one clause on the next AI
down (issue 39).

The answer is measured on the matches of one AI, the strongest validated for the run's ruleset
that played (:mod:`krosbalance.analysis.top_ai`), with n, the 95% interval and the AI named; a
log-odds figure is also given as the win % it means (designers read win %). Then one clause: the
next AI down's figure for the same figures and whether the two agree (:mod:`.equivalence`:
settled, still moving with its direction, or undecided with the matches that would tell). A run of
one AI says so; a top AI with too few matches says that its numbers cannot carry a verdict yet.

The rows are a :class:`~krosbalance.analysis.picture.Verdict`'s (its ``ai`` column names the AI of
each row); the other AIs' figures are the comparison section's (:func:`comparison_lines`), not the
answer's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from krosbalance.analysis import equivalence
from krosbalance.analysis.picture import PCT_MARGIN, Z95, Verdict, holds_reference, in_win_pct
from krosbalance.analysis.top_ai import TopAIs, ai_note, top_ais
from krosbalance.analysis.wording import win_pct_text

#: fewer matches than this behind the top AI's figures and they are too wide (about ±0.6 log-odds,
#: ±14 points of win rate) to carry a verdict: the answer says so
MIN_N = 30


def ai_rows(verdict: Verdict) -> pd.DataFrame:
    """The verdict's rows measured by one AI each (``ai`` set) with an estimate."""
    data = verdict.data
    if data.empty or "ai" not in data.columns:
        return data.iloc[0:0]
    return data[(data["ai"].astype(str) != "") & data["est"].notna()]


def verdict_top(verdict: Verdict, standings: Mapping[str, Any] | None = None) -> TopAIs | None:
    """The AI whose rows answer and the next one down (:func:`~krosbalance.analysis.top_ai.top_ais`
    over the AIs with rows, in the verdict's ruleset); None when no row names its AI."""
    rows = ai_rows(verdict)
    if rows.empty:
        return None
    tiers = dict(zip(rows["ai"].astype(str), rows["tier"].astype(str), strict=True))
    return top_ais(tiers, verdict.ruleset, standings, tiers)


def _value(x: float, as_pct: bool, shift: bool = False) -> str:
    """A log-odds value signed, a win rate in %, a shift of win rate in signed points."""
    if as_pct:
        return f"{100 * x:+.1f} pts" if shift else f"{100 * x:.1f}%"
    return f"{x:+.2f}"


def _is_shift(verdict: Verdict) -> bool:
    """Whether the verdict's proportions are differences (its "no effect" is 0, not 50%)."""
    return verdict.as_pct and verdict.reference == 0


def figure_text(verdict: Verdict, row: Any) -> str:
    """``Bill Tell +0.52 [+0.20, +0.84] (≈ 63% [55%, 70%] win), n=420``."""
    shift = _is_shift(verdict)
    ci = (
        ""
        if pd.isna(row.ci_low) or pd.isna(row.ci_high)
        else f" [{_value(row.ci_low, verdict.as_pct, shift)}, {_value(row.ci_high, verdict.as_pct, shift)}]".replace(
            " pts", ""
        )
    )
    win = f" ({win_pct_text(row.est, row.ci_low, row.ci_high)})" if in_win_pct(verdict) else ""
    n = "" if pd.isna(row.n) else f", n={int(row.n)}"
    return f"{row.figure} {_value(row.est, verdict.as_pct, shift)}{ci}{win}{n}"


def _unit(verdict: Verdict) -> str:
    """``teammate-adjusted strength, log-odds vs the average character, 95% CI``: the measure, its
    own brackets flattened (the unit stands in brackets already)."""
    return f"{verdict.measure.replace(' (', ', ').replace(')', '')}, 95% CI"


def _extremes(rows: pd.DataFrame) -> list[Any]:
    """The highest and the lowest row (one row: itself)."""
    ranked = list(rows.sort_values("est", ascending=False).itertuples(index=False))
    return ranked[:1] if len(ranked) == 1 else [ranked[0], ranked[-1]]


def top_line(verdict: Verdict, top: TopAIs) -> str:
    """The answer under the top AI: its highest and lowest figure (n, 95% CI, win %), or that its
    matches are too few, or that no figure is told from "no effect" yet."""
    rows = ai_rows(verdict)
    rows = rows[rows["ai"] == top.top]
    who = f"Under {ai_note(top)}"
    shown = _extremes(rows)
    n_max = rows["n"].max()
    if pd.isna(n_max) or n_max < MIN_N:
        n = 0 if pd.isna(n_max) else int(n_max)
        return (
            f"{who}: only n={n} matches behind any figure, too few to tell a figure from another "
            f"({_highest_lowest(verdict, rows)}; {_unit(verdict)}). More matches under {top.top} would tell."
        )
    if len(shown) == 1:
        return f"{who}: {figure_text(verdict, shown[0])} ({_unit(verdict)})."
    best, worst = shown
    if holds_reference(verdict, best) and holds_reference(verdict, worst):
        ref = "no effect" if _is_shift(verdict) else _value(verdict.reference, verdict.as_pct).lstrip("+")
        return (
            f"{who}, no figure can be told from {ref} yet: highest {figure_text(verdict, best)}; lowest "
            f"{figure_text(verdict, worst)} ({_unit(verdict)}). More matches under {top.top} would tell."
        )
    return f"{who}: highest {figure_text(verdict, best)}; lowest {figure_text(verdict, worst)} ({_unit(verdict)})."


def agreement(verdict: Verdict, top_row: Any, second_row: Any) -> equivalence.Agreement:
    """The top AI's figure against the next AI's (standard errors read off the 95% intervals; the
    margin ±0.15 log-odds, or :data:`~krosbalance.analysis.verdict.PCT_MARGIN` on a proportion)."""

    def se(row: Any) -> float:
        return float(row.ci_high - row.ci_low) / (2 * Z95)

    return equivalence.compare(
        float(top_row.est),
        se(top_row),
        float(second_row.est),
        se(second_row),
        0 if pd.isna(top_row.n) else int(top_row.n),
        0 if pd.isna(second_row.n) else int(second_row.n),
        PCT_MARGIN if verdict.as_pct else equivalence.MARGIN,
    )


def status_text(a: equivalence.Agreement, top: TopAIs, margin: str) -> str:
    """``settled (within ±0.15 log-odds)``, ``still moving: mcts-race rates it higher`` or
    ``undecided: about 1,200 more matches under each would tell``."""
    if a.verdict == equivalence.SETTLED:
        return f"settled (the two agree within {margin})"
    if a.verdict == equivalence.MOVING:
        return f"still moving: {top.top} rates it {'higher' if a.direction == 'up' else 'lower'}"
    more = max(a.more_stronger, a.more_weaker)
    return "undecided" + (f": about {more:,} more matches under each would tell" if more else "")


def next_ai_clause(verdict: Verdict, top: TopAIs) -> str:
    """One clause: the next AI down's figure for the headline figures, and whether it agrees."""
    if top.one_ai:
        return (
            f"Only {top.top} measured these figures in this run: no weaker AI to tell whether stronger "
            "play moves them."
        )
    rows = ai_rows(verdict)
    mine, theirs = rows[rows["ai"] == top.top], rows[rows["ai"] == top.second].set_index("figure")
    second = top.second + ("" if top.second_validated else " (not validated)")
    margin = f"±{100 * PCT_MARGIN:.2g} points" if verdict.as_pct else f"±{equivalence.MARGIN:.2f} log-odds"
    parts = []
    for row in _extremes(mine):
        if row.figure not in theirs.index or pd.isna(theirs.loc[row.figure, "est"]):
            parts.append(f"{row.figure} not measured")
            continue
        other = next(theirs.loc[[row.figure]].reset_index().itertuples(index=False))
        if pd.isna(row.ci_low) or pd.isna(other.ci_low):
            parts.append(f"{figure_text(verdict, other)} (no interval to compare)")
            continue
        status = status_text(agreement(verdict, row, other), top, margin)
        parts.append(f"{figure_text(verdict, other)} — {status}")
    return f"Next AI down, {second}: {'; '.join(parts)}."


def headline_lines(verdict: Verdict, standings: Mapping[str, Any] | None = None) -> list[str]:
    """The headline: the top AI's answer and the clause on the next AI down; [] when no row names
    its AI (the caller falls back on the tier picture)."""
    if verdict.empty:
        return []
    top = verdict_top(verdict, standings)
    if top is None:
        return []
    return [top_line(verdict, top), next_ai_clause(verdict, top)]


def comparison_lines(verdict: Verdict, standings: Mapping[str, Any] | None = None) -> list[str]:
    """The comparison section: each AI below the top one (strongest first) with its highest and
    lowest figure, then the rows pooled over several AIs; not the answer."""
    top = verdict_top(verdict, standings)
    rows = ai_rows(verdict)
    lines = []
    for ai in top.others() if top is not None else ():
        own = rows[rows["ai"] == ai]
        lines.append(f"{ai} ({own['tier'].iloc[0]}): {_highest_lowest(verdict, own)}.")
    pooled = verdict.data[(verdict.data["ai"].astype(str) == "") & verdict.data["est"].notna()]
    for group, own in pooled.groupby("group", sort=False):
        lines.append(f"{group} (not one AI's): {_highest_lowest(verdict, own)}.")
    return lines


def _highest_lowest(verdict: Verdict, rows: pd.DataFrame) -> str:
    shown = _extremes(rows)
    if len(shown) == 1:
        return figure_text(verdict, shown[0])
    return f"highest {figure_text(verdict, shown[0])}; lowest {figure_text(verdict, shown[1])}"


__all__ = [
    "MIN_N",
    "agreement",
    "ai_rows",
    "comparison_lines",
    "figure_text",
    "headline_lines",
    "next_ai_clause",
    "status_text",
    "top_line",
    "verdict_top",
]
