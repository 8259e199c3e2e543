"""The verdict picture a report opens with: a forest plot of each figure's strength per AI, with
95% intervals and each figure's settled / still moving / undecided mark.

A verdict whose rows are named ``figure · arm`` (a four-player study reads each figure per mode,
:mod:`krosbalance.studies.seats.verdict`) is drawn as one panel per arm side by side, on one
scale: stacked, its 16 rows would fill the first screen and push the answer's words below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.dependence import _tier_rank
from krosbalance.analysis.picture import ONE_TIER, Verdict, in_win_pct
from krosbalance.analysis.verdict import _MARK, compared, convergence

_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
#: how a row names its arm: ``Queen of the Tofus · free_for_all``
ARM_SEPARATOR = " · "
_ROW_INCHES = 0.32
_PANEL_WIDTH = 5.6


def _to_win_pct(x: Any) -> Any:
    """Log-odds against the average -> win % (the top axis of a log-odds verdict)."""
    return 100.0 / (1.0 + np.exp(-np.asarray(x, dtype=float)))


def _from_win_pct(p: Any) -> Any:
    q = np.clip(np.asarray(p, dtype=float), 1e-6, 100 - 1e-6)
    return np.log(q / (100.0 - q))


def arms_of(figures: list[str]) -> list[str]:
    """The arms, in order of first appearance, when every row is named ``figure · arm`` and there
    are at least two; else ``[]`` (one panel)."""
    if not figures or not all(ARM_SEPARATOR in f for f in figures):
        return []
    arms = list(dict.fromkeys(f.rsplit(ARM_SEPARATOR, 1)[1] for f in figures))
    return arms if len(arms) > 1 else []


def plot_verdict(verdict: Verdict, ax: Axes | None = None) -> Figure:
    """Forest plot: one row per figure (strongest first in the strongest AI or tier), one marker and
    95% interval per AI group, and each figure's convergence mark at the right; one panel per arm
    when the rows name one (and no axes were handed in)."""
    data = verdict.data.dropna(subset=["est"]) if not verdict.data.empty else verdict.data
    figures = list(dict.fromkeys(data["figure"])) if len(data) else []
    title = f"Verdict: {verdict.study} per AI (95% CI)"
    arms = arms_of([str(f) for f in figures]) if ax is None else []
    per_panel = max(
        (sum(str(f).endswith(ARM_SEPARATOR + a) for f in figures) for a in arms), default=len(figures)
    )
    height = max(2.6, _ROW_INCHES * per_panel + 1.6)
    if ax is None:
        fig = Figure(
            figsize=(_PANEL_WIDTH * max(len(arms), 1) + (0.0 if arms else 2.4), height), layout="constrained"
        )
        axes = list(fig.subplots(1, len(arms), sharex=True)) if arms else [fig.add_subplot()]
    else:
        fig, axes = ax.figure, [ax]  # type: ignore[assignment]
    if not figures:
        axes[0].text(
            0.5, 0.5, "not enough data for a verdict", ha="center", va="center", transform=axes[0].transAxes
        )
        axes[0].set_title(title)
        axes[0].set_axis_off()
        return fig
    column, tiers = compared(data, verdict.ruleset)
    status = convergence(data, verdict.as_pct, verdict.ruleset).set_index("figure")["status"]
    groups = sorted(
        dict.fromkeys(zip(data["group"], data["tier"], strict=True)), key=lambda g: (_tier_rank(g[1]), g[0])
    )
    labels = {g: _group_label(data, *g) for g in groups}  # one legend entry a group, whatever the panel
    if arms:
        for panel, arm in zip(axes, arms, strict=True):
            rows = data[data["figure"].astype(str).str.endswith(ARM_SEPARATOR + arm)]
            _draw_panel(panel, rows, verdict, column, tiers, labels, status, suffix=ARM_SEPARATOR + arm)
            panel.set_title(arm.replace("_", " "), fontsize=9)
    else:
        _draw_panel(axes[0], data, verdict, column, tiers, labels, status)
    limits = _scale(data, verdict, column, tiers)
    if limits is not None:
        axes[0].set_xlim(*limits)  # shared by every panel
    pair = (
        f"settled = {tiers[0]} and {tiers[1]} agree within the margin (two one-sided tests)"
        if len(tiers) > 1
        else f"one {'AI' if column == 'ai' else 'tier'} played"
    )
    if arms:
        fig.suptitle(f"{title}\n{pair}", fontsize=10)
    else:
        axes[0].set_title(f"{title}\n{pair}", fontsize=10)
    legend = {
        label: handle
        for panel in axes
        for handle, label in zip(*panel.get_legend_handles_labels(), strict=True)
    }
    handles, labels = list(legend.values()), list(legend)
    fig.legend(  # below the picture, never over a point nor the axis label (the layout makes room)
        handles,
        labels,
        fontsize=7,
        loc="outside lower center",
        ncol=min(len(groups), 3 if not arms else 4),
        title="AI (tier)",
        title_fontsize=7,
        frameon=False,
    )
    return fig


def _group_label(data: pd.DataFrame, group: Any, tier: Any) -> str:
    """``kiter (heuristic), n=1534``: the group and its median n over every row it measured."""
    n = data[(data["group"] == group) & (data["tier"] == tier)]["n"].dropna()
    return f"{group}" + (f", n={int(n.median())}" if len(n) else "")


def _scale(data: pd.DataFrame, verdict: Verdict, column: str, tiers: list[str]) -> tuple[float, float] | None:
    """The x range the compared AIs' (or tiers') intervals need, with the no-effect line and a
    margin: a weaker AI's much wider interval runs off the edge instead of squeezing the answer's
    (four-player focus-fire at 50 tables spans ±10 log-odds against lookahead-4p's ±0.15)."""
    shown = data[data[column].isin(tiers[:2])] if tiers else data
    lows = pd.concat([shown["ci_low"], shown["est"]]).dropna()
    highs = pd.concat([shown["ci_high"], shown["est"]]).dropna()
    if lows.empty or highs.empty:
        return None
    lo, hi = min(float(lows.min()), verdict.reference), max(float(highs.max()), verdict.reference)
    pad = 0.08 * (hi - lo) or 0.1
    return lo - pad, hi + pad


def _draw_panel(
    ax: Axes,
    data: pd.DataFrame,
    verdict: Verdict,
    column: str,
    tiers: list[str],
    labels: Mapping[tuple[Any, Any], str],
    status: Mapping[Any, Any],
    suffix: str = "",
) -> None:
    """One forest of ``data``'s figures (``suffix`` cut from their labels), each group in its own
    colour at the same place in every panel, so the legend serves them all."""
    figures = list(dict.fromkeys(data["figure"]))
    top = data[data[column] == tiers[0]] if tiers else data
    order = top.groupby("figure")["est"].mean().reindex(figures)
    order = order.fillna(data.groupby("figure")["est"].mean()).sort_values(ascending=True)
    row = {f: i for i, f in enumerate(order.index)}
    groups = list(labels)
    step = 0.7 / max(len(groups), 1)
    for i, (group, tier) in enumerate(groups):
        sub = data[(data["group"] == group) & (data["tier"] == tier)]
        if sub.empty:
            continue
        y = np.array([row[f] for f in sub["figure"]], dtype=float) + (i - (len(groups) - 1) / 2) * step
        est = sub["est"].to_numpy(float)
        lo = np.nan_to_num(est - sub["ci_low"].to_numpy(float))
        hi = np.nan_to_num(sub["ci_high"].to_numpy(float) - est)
        ax.errorbar(
            est,
            y,
            xerr=[np.maximum(lo, 0), np.maximum(hi, 0)],
            fmt="o",
            ms=4,
            lw=1.2,
            color=_COLOURS[i % len(_COLOURS)],
            label=labels[(group, tier)],
        )
    ax.axvline(verdict.reference, color="#444", lw=0.8)
    labels = [str(f).removesuffix(suffix) for f in order.index]
    ax.set_yticks(range(len(order)), labels, fontsize=8)
    ax.set_ylim(-0.7, len(order) - 0.3)
    for f, i in row.items():
        mark = str(status.get(f, ONE_TIER))
        ax.annotate(
            mark,
            xy=(1.0, i),
            xycoords=("axes fraction", "data"),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color=_MARK[mark],
        )
    if verdict.as_pct:
        ax.xaxis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")
    elif in_win_pct(verdict):  # the same axis read as a win % against the average, on top
        top_axis = ax.secondary_xaxis("top", functions=(_to_win_pct, _from_win_pct))
        top_axis.set_xlabel("≈ win % against the average", fontsize=8)
        top_axis.tick_params(labelsize=7)
    ax.set_xlabel(verdict.measure)
