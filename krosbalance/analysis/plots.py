"""Plots of the derived tables. Each takes the table and an optional ``ax`` and returns the Figure.

Nothing here computes statistics (that is :mod:`stats`, :mod:`strength`, :mod:`balance`) and nothing
calls ``show()``. Figures are built with ``matplotlib.figure.Figure`` directly, not through pyplot:
no global figure registry, no GUI backend, nothing to close (the PNG is drawn by Agg on save), so
they work headless and in joblib workers.
An empty table gives a figure that says "not enough data" rather than an error.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.stats import damage_by_element_table, matchup_pivot, ok_matches
from krosbalance.analysis.strength import character_strengths

ELEMENT_COLOURS = {
    "neutral": "#9e9e9e",
    "water": "#2b7bba",
    "air": "#4caf50",
    "earth": "#8d6e3f",
    "fire": "#d9402b",
}
SIDE_COLOURS = ("#2b6cb0", "#c53030")


def _axes(ax: Axes | None, size: tuple[float, float] = (6.4, 4.0)) -> tuple[Figure, Axes]:
    if ax is None:
        fig = Figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        return fig, ax
    return ax.figure, ax


def _height(rows: int) -> tuple[float, float]:
    return (6.4, max(2.5, 0.35 * rows + 1.2))


def _no_data(ax: Axes, title: str) -> None:
    ax.text(0.5, 0.5, "not enough data", ha="center", va="center", transform=ax.transAxes, color="grey")
    ax.set_title(title)
    ax.set_xticks([])
    ax.set_yticks([])


def _errors(est: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Asymmetric error bar lengths (NaN-safe: missing interval draws no bar)."""
    return np.nan_to_num(np.vstack([est - lo, hi - est]), nan=0.0).clip(min=0)


def plot_win_rates(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Raw win rate per character with Wilson 95% bars, n in the labels, 0.5 marked."""
    fig, ax = _axes(ax, _height(len(df)))
    title = "Raw win rate by character\n(95% Wilson CI; draws count as non-wins)"
    if df.empty:
        _no_data(ax, title)
        return fig
    d = df.sort_values("win_rate")
    y = np.arange(len(d))
    est = d["win_rate"].to_numpy(float)
    ax.errorbar(
        est,
        y,
        xerr=_errors(est, d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)),
        fmt="o",
        color="#333",
        ecolor="#666",
        capsize=3,
    )
    ax.axvline(0.5, color="grey", ls="--", lw=1)
    ax.set_yticks(y, [f"{c} (n={n})" for c, n in zip(d["character"], d["n"], strict=True)])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate")
    ax.set_title(title)
    return fig


def plot_strength_forest(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Forest plot of teammate-adjusted strength (log-odds vs the average character, 95% CI)."""
    chars = character_strengths(df) if not df.empty else df
    fig, ax = _axes(ax, _height(len(chars)))
    title = "Teammate-adjusted strength (log-odds, 95% CI)"
    if chars.empty:
        _no_data(ax, title)
        return fig
    d = chars.sort_values("coef")
    y = np.arange(len(d))
    est = d["coef"].to_numpy(float)
    lo, hi = d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)
    excl = (lo > 0) | (hi < 0)
    colours = np.where(excl, np.where(est > 0, "#2f855a", "#c53030"), "#555")
    ax.errorbar(est, y, xerr=_errors(est, lo, hi), fmt="none", ecolor="#888", capsize=3)
    ax.scatter(est, y, c=list(colours), zorder=3, marker="s")
    ax.axvline(0, color="grey", ls="--", lw=1)
    ax.set_yticks(y, list(d["term"]))
    method = str(d["method"].iloc[0])
    ax.set_xlabel(
        "log-odds added vs the average character" + (" (ridge fallback)" if method == "ridge" else "")
    )
    ax.set_title(title)
    return fig


def plot_matchup_heatmap(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Heatmap of the row team's win rate against the column team (annotated when small)."""
    rates = matchup_pivot(df, "win_rate")
    k = len(rates)
    fig, ax = _axes(ax, (max(5.0, 0.5 * k + 3), max(4.0, 0.5 * k + 2)))
    title = "Matchups: row team's win rate vs column team"
    if k == 0:
        _no_data(ax, title)
        return fig
    counts = matchup_pivot(df, "n")
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#d9d9d9")  # grey: never met, or mirror
    im = ax.imshow(np.ma.masked_invalid(rates.to_numpy()), cmap=cmap, vmin=0, vmax=1)
    ax.set_xticks(np.arange(k), list(rates.columns), rotation=60, ha="right", fontsize=7)
    ax.set_yticks(np.arange(k), list(rates.index), fontsize=7)
    if k <= 12:
        for i in range(k):
            for j in range(k):
                r, n = rates.iat[i, j], counts.iat[i, j]
                if not np.isnan(n):
                    text = f"{r:.2f}\nn={int(n)}" if not np.isnan(r) else f"mirror\nn={int(n)}"
                    dark = not np.isnan(r) and abs(r - 0.5) > 0.3
                    ax.text(
                        j, i, text, ha="center", va="center", fontsize=6, color="white" if dark else "black"
                    )
    ax.figure.colorbar(im, ax=ax, label="win rate (grey: not played / mirror)", shrink=0.6)
    ax.set_title(title)
    return fig


def plot_damage_by_element(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Stacked bars: mean damage dealt per Krosmaster per match, split by element, per character."""
    long = damage_by_element_table(df)
    chars = list(dict.fromkeys(long["character"])) if not long.empty else []
    fig, ax = _axes(ax, _height(len(chars)))
    title = "Mean damage dealt per match, by element\n(the Krosmaster's own damage, summons excluded)"
    if not chars:
        _no_data(ax, title)
        return fig
    wide = long.pivot(index="character", columns="element", values="damage").reindex(chars[::-1]).fillna(0)
    order = [e for e in ELEMENT_COLOURS if e in wide.columns] + [
        e for e in wide.columns if e not in ELEMENT_COLOURS
    ]
    wide = wide[order]
    left = np.zeros(len(wide))
    y = np.arange(len(wide))
    for element in wide.columns:
        vals = wide[element].to_numpy(float)
        ax.barh(y, vals, left=left, color=ELEMENT_COLOURS.get(element, "#777"), label=element)
        left += vals
    ax.set_yticks(y, list(wide.index))
    ax.set_xlabel("damage per match")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title(title, fontsize=10)
    return fig


def plot_match_length(matches: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Histogram of turns per match, stacked by end reason (error rows excluded)."""
    fig, ax = _axes(ax)
    title = "Match length (turns) by end reason"
    m = ok_matches(matches) if not matches.empty else matches
    if m.empty:
        _no_data(ax, title)
        return fig
    reasons = sorted(m["end_reason"].astype(str).unique())
    turns = [m.loc[m["end_reason"] == r, "turns"].to_numpy(float) for r in reasons]
    lo, hi = float(m["turns"].min()), float(m["turns"].max())
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo < 60 else 40
    ax.hist(turns, bins=bins, stacked=True, label=reasons)
    ax.set_xlabel("turns")
    ax.set_ylabel("matches")
    ax.legend(fontsize=7)
    ax.set_title(title)
    return fig


def plot_first_player(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """First vs second player win rate over decided matches, with Wilson 95% bars and 0.5 marked."""
    fig, ax = _axes(ax, (4.5, 3.5))
    title = "First-player advantage (decided matches, 95% CI)"
    if df.empty or not df["n"].iloc[0]:
        _no_data(ax, title)
        return fig
    row = df.iloc[0]
    est = np.array([row["win_rate"], 1 - row["win_rate"]])
    lo = np.array([row["ci_low"], 1 - row["ci_high"]])
    hi = np.array([row["ci_high"], 1 - row["ci_low"]])
    ax.bar([0, 1], est, color=["#2b6cb0", "#a0aec0"], yerr=_errors(est, lo, hi), capsize=6)
    ax.axhline(0.5, color="grey", ls="--", lw=1)
    ax.set_xticks([0, 1], ["first player", "second player"])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.set_title(f"{title}\nn={int(row['n'])}, p={row['p_value']:.3g}", fontsize=9)
    return fig
