"""Plots of the Duel Pack study's tables (:mod:`krosbalance.studies.duel.tables`).

Each takes a table, an optional AI matchup (the first one in the table when None) and an optional
``ax``, returns the figure and never calls ``show()``; every title names the AI and its tier. The
figure win rates and the who-beats-whom matrix are drawn by the report's own plots
(:func:`krosbalance.analysis.plots.plot_win_rates`, ``plot_matchup_heatmap``), titled here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis import plots


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        fig = ax.figure
        assert isinstance(fig, Figure)
        return fig, ax
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _no_data(ax: Axes, title: str) -> None:
    ax.text(0.5, 0.5, "not enough data", ha="center", va="center", transform=ax.transAxes, color="grey")
    ax.set_title(title)


def _bars(part: pd.DataFrame, est: str, low: str, high: str) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and their asymmetric error bars (no bar where the interval is missing)."""
    e = part[est].to_numpy(float)
    bars = np.vstack([e - part[low].to_numpy(float), part[high].to_numpy(float) - e])
    return e, np.nan_to_num(bars, nan=0.0).clip(min=0)


def ai_labels(table: pd.DataFrame) -> str:
    """Every AI matchup of a table with its tier: ``duel_brawler (heuristic)``, comma separated."""
    pairs = table[["ai", "tier"]].drop_duplicates().sort_values("ai")
    return ", ".join(f"{a} ({t})" for a, t in zip(pairs["ai"], pairs["tier"], strict=True))


def one_ai(table: pd.DataFrame, ai: str | None = None) -> tuple[pd.DataFrame, str]:
    """The rows of one AI matchup (the first by name when ``ai`` is None) and its label
    ``ai (tier)``; an empty table gives itself and ''."""
    if table.empty or "ai" not in table.columns:
        return table, ""
    ai = ai if ai is not None else str(sorted(table["ai"].astype(str))[0])
    rows = table[table["ai"].astype(str) == ai]
    tier = str(rows["tier"].iloc[0]) if len(rows) and "tier" in rows.columns else "unknown"
    return rows, f"{ai} ({tier})"


def plot_figure_win_rates(rates: pd.DataFrame, ai: str | None = None, ax: Axes | None = None) -> Figure:
    """Each figure's duel win rate (Wilson 95% bars, n in the labels) under one AI matchup."""
    rows, label = one_ai(rates, ai)
    fig = plots.plot_win_rates(rows, ax=ax)
    fig.axes[0].set_title(
        f"Duel win rate by figure, no token held — AI {label}\n"
        "95% Wilson CI (deal-clustered); draws count as non-wins",
        fontsize=9,
    )
    return fig


def plot_figure_matrix(matrix: pd.DataFrame, ai: str | None = None, ax: Axes | None = None) -> Figure:
    """Who beats whom: the row figure's win rate against the column figure, under one AI matchup."""
    rows, label = one_ai(matrix, ai)
    fig = plots.plot_matchup_heatmap(rows, ax=ax)
    fig.axes[0].set_title(f"Who beats whom: row figure's duel win rate — AI {label}", fontsize=9)
    return fig


def plot_token_value(value: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Δ of the holder's win rate per token level held from the start, paired with the same seed
    without it (95% deal-clustered normal CI), one marker series per AI matchup."""
    fig, ax = _axes(ax, (6.4, 3.8))
    title = "Value of a Duel Token held from the start (seat 0)"
    if value.empty:
        _no_data(ax, title)
        return fig
    arms = list(dict.fromkeys(value["arm"]))
    ais = sorted(set(value["ai"].astype(str)))
    for k, ai in enumerate(ais):
        part = value[value["ai"].astype(str) == ai].set_index("arm").reindex(arms)
        x = np.arange(len(arms)) + (k - (len(ais) - 1) / 2) * 0.15
        est, err = _bars(part, "delta", "delta_low", "delta_high")
        tier = str(part["tier"].dropna().iloc[0]) if part["tier"].notna().any() else "unknown"
        n = int(part["n_pairs"].median()) if part["n_pairs"].notna().any() else 0
        ax.errorbar(x, est, yerr=err, fmt="o", capsize=3, label=f"{ai} ({tier}), n ≈ {n} pairs each")
    ax.axhline(0.0, color="grey", ls="--", lw=1)
    ax.set_xticks(np.arange(len(arms)), arms)
    ax.set_ylabel("Δ holder's win rate vs no token")
    ax.set_title(
        f"{title} — AI {ai_labels(value)}\npaired on seed and seating, 95% CI clustered by deal", fontsize=9
    )
    ax.legend(fontsize=7)
    return fig


def plot_pick_ups(pick: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Share of duels ending before any Duel Token is picked up from a duel cell, per arm (95%
    Wilson CI), one marker series per AI matchup."""
    fig, ax = _axes(ax, (6.4, 3.6))
    title = "Duels that end before any token is picked up"
    if pick.empty:
        _no_data(ax, title)
        return fig
    arms = list(dict.fromkeys(pick["arm"]))
    ais = sorted(set(pick["ai"].astype(str)))
    for k, ai in enumerate(ais):
        part = pick[pick["ai"].astype(str) == ai].set_index("arm").reindex(arms)
        x = np.arange(len(arms)) + (k - (len(ais) - 1) / 2) * 0.15
        est, err = _bars(part, "no_pick_up_share", "no_pick_up_low", "no_pick_up_high")
        tier = str(part["tier"].dropna().iloc[0]) if part["tier"].notna().any() else "unknown"
        ax.errorbar(x, est, yerr=err, fmt="s", capsize=3, label=f"{ai} ({tier})")
    ax.set_xticks(np.arange(len(arms)), arms)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of duels (95% Wilson CI)")
    ax.set_title(f"{title} — AI {ai_labels(pick)}", fontsize=9)
    ax.legend(fontsize=7)
    return fig
