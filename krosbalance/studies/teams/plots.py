"""Pictures of a team study: the ladder (ratings with intervals, top N) and the win-rate heatmap of
the top teams. As in :mod:`krosbalance.analysis.plots`: each takes its table (and an optional
``ax``), returns the Figure, computes no statistic and never calls ``show()``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.plots import _axes, _errors, _height, _no_data
from krosbalance.studies.teams.ladder import group_title, team_label

TOP_N = 20


def plot_team_ladder(ratings: pd.DataFrame, tier: str, top: int = TOP_N, ax: Axes | None = None) -> Figure:
    """The top ``top`` teams of one tier by Bradley-Terry rating, 95% deal-clustered bars, n shown."""
    r = ratings[(ratings["tier"] == tier) & ratings["rating"].notna()].head(top)
    fig, ax = _axes(ax, (7.5, _height(len(r))[1]))
    title = f"Team ladder, {group_title(tier)}: top {len(r)} teams\n(Bradley-Terry log-odds vs the average team, 95% CI)"
    if r.empty:
        _no_data(ax, title)
        return fig
    r = r.iloc[::-1]
    y = np.arange(len(r))
    est = r["rating"].to_numpy(float)
    ax.errorbar(
        est,
        y,
        xerr=_errors(est, r["ci_low"].to_numpy(float), r["ci_high"].to_numpy(float)),
        fmt="o",
        color="#2b6cb0",
        capsize=3,
    )
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(
        y, [f"{team_label(t)} (n={int(n)})" for t, n in zip(r["team"], r["n"], strict=True)], fontsize=7
    )
    ax.set_xlabel("rating (log-odds of beating the average rated team)")
    ax.set_title(title, fontsize=9)
    return fig


def plot_win_matrix(square: pd.DataFrame, tier: str, ax: Axes | None = None) -> Figure:
    """Heatmap of the row team's win rate against the column team (readable up to ~30 teams)."""
    n = len(square)
    size = max(4.0, 0.32 * n + 2.5)
    fig, ax = _axes(ax, (size + 1.0, size))
    title = f"Win rate of the row team against the column team ({group_title(tier)}; blank: never met)"
    if n == 0:
        _no_data(ax, title)
        return fig
    values = square.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0.0, vmax=1.0)
    labels = [team_label(t) for t in square.index]
    ax.set_xticks(range(n), labels, rotation=90, fontsize=6)
    ax.set_yticks(range(n), labels, fontsize=6)
    if n <= 16:
        for i in range(n):
            for j in range(n):
                if np.isfinite(values[i, j]) and i != j:
                    ax.text(j, i, f"{values[i, j]:.0%}", ha="center", va="center", fontsize=5)
    fig.colorbar(image, ax=ax, shrink=0.7, label="win rate (deal score)")
    ax.set_title(title, fontsize=9)
    return fig


def plot_meta_weights(
    meta: pd.DataFrame, ax: Axes | None = None, labels: Sequence[str] | None = None
) -> Figure:
    """Nash weight and alpha-Rank mass of the top teams, side by side."""
    fig, ax = _axes(ax, (7.5, _height(len(meta))[1]))
    title = "The meta-game: Nash equilibrium weight and alpha-Rank mass"
    if meta.empty:
        _no_data(ax, title)
        return fig
    m = meta.iloc[::-1]
    y = np.arange(len(m))
    ax.barh(y - 0.2, m["nash_weight"], height=0.4, color="#2b6cb0", label="Nash weight")
    ax.barh(y + 0.2, m["alpha_rank_mass"], height=0.4, color="#c53030", label="alpha-Rank mass")
    ax.set_yticks(y, [team_label(t) for t in m["team"]] if labels is None else list(labels)[::-1], fontsize=7)
    ax.set_xlabel("probability")
    ax.legend(fontsize=7)
    ax.set_title(title, fontsize=9)
    return fig
