"""Plots of the seat tables (:mod:`krosbalance.studies.seats.tables`). Each takes the table and an optional
``ax`` and returns the Figure; nothing here computes statistics and nothing calls ``show()`` (as in
:mod:`krosbalance.analysis.plots`, figures are built without pyplot). An empty table gives a figure
that says "not enough data".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.names import display_name
from krosbalance.analysis.plots import _axes, _errors, _height, _no_data

ARM_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1", "#4a5568")


def _groups(df: pd.DataFrame, by: tuple[str, ...]) -> list[tuple[str, pd.DataFrame]]:
    """(label, rows) of every group of ``by`` present, in table order."""
    keys = [c for c in by if c in df.columns]
    if not keys:
        return [("", df)]
    out = []
    for group, sub in df.groupby(keys, sort=False):
        values = group if isinstance(group, tuple) else (group,)
        out.append((", ".join(str(v) for v in values), sub))
    return out


def plot_position_rates(
    rates: pd.DataFrame, ax: Axes | None = None, key: str = "position", by: tuple[str, ...] = ("arm", "tier")
) -> Figure:
    """Win rate by play position (``key="position"``, from :func:`seats.position_rates`) or by seat
    (``key="seat"``, :func:`seats.seat_rates`) with 95% bars, one colour per arm (and tier), each
    arm's even share dashed."""
    fig, ax = _axes(ax)
    word = "play position" if key == "position" else "seat (rotation-balanced)"
    title = f"Win rate by {word}\n(95% Wilson CI, deal-clustered; draws count as non-wins)"
    if rates.empty or key not in rates.columns:
        _no_data(ax, title)
        return fig
    groups = _groups(rates, by)
    width = 0.6 / max(len(groups), 1)
    for i, (label, sub) in enumerate(groups):
        sub = sub.sort_values(key)
        x = sub[key].to_numpy(float) + (i - (len(groups) - 1) / 2) * width
        est = sub["win_rate"].to_numpy(float)
        colour = ARM_COLOURS[i % len(ARM_COLOURS)]
        n = int(sub["n"].max())
        ax.errorbar(
            x,
            est,
            yerr=_errors(est, sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float)),
            fmt="o",
            color=colour,
            capsize=3,
            label=f"{label} (n={n})",
        )
        if "even" in sub.columns:
            even = float(sub["even"].mean())
            ax.hlines(even, x.min() - width, x.max() + width, colors=colour, linestyles="--", lw=1)
    ticks = sorted(set(rates[key].astype(int)))
    names = [_ordinal(t) for t in ticks] if key == "position" else [f"seat {t}" for t in ticks]
    ax.set_xticks(ticks, names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.set_xlabel("player to act" if key == "position" else "seat")
    ax.legend(fontsize="small", loc="upper right")
    ax.set_title(title)
    return fig


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def plot_seat_strength(
    strength: pd.DataFrame, ax: Axes | None = None, by: tuple[str, ...] = ("arm", "tier")
) -> Figure:
    """Forest plot of the characters' conditional-logit strength (log-odds against the average
    character, 95% CI) from :func:`seats.character_strength`, one colour per arm (and tier)."""
    chars = (
        strength[(strength["kind"] == "character") & strength["coef"].notna()]
        if not strength.empty
        else strength
    )
    terms = list(dict.fromkeys(chars["term"])) if not chars.empty else []
    fig, ax = _axes(ax, _height(len(terms)))
    title = "Character strength at the table\n(conditional logit, log-odds, 95% CI)"
    if chars.empty:
        _no_data(ax, title)
        return fig
    order = chars.groupby("term")["coef"].mean().sort_values().index.tolist()
    row = {t: i for i, t in enumerate(order)}
    groups = _groups(chars, by)
    step = 0.6 / max(len(groups), 1)
    for i, (label, sub) in enumerate(groups):
        y = np.array([row[t] for t in sub["term"]], dtype=float) + (i - (len(groups) - 1) / 2) * step
        est = sub["coef"].to_numpy(float)
        colour = ARM_COLOURS[i % len(ARM_COLOURS)]
        ax.errorbar(
            est,
            y,
            xerr=_errors(est, sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float)),
            fmt="s",
            color=colour,
            ecolor=colour,
            capsize=2,
            label=label,
        )
    ax.axvline(0, color="grey", ls="--", lw=1)
    ax.set_yticks(range(len(order)), [display_name(t) for t in order])
    ax.set_xlabel("log-odds added vs the average character (play position held fixed)")
    ax.legend(fontsize="small", loc="lower right")
    ax.set_title(title)
    return fig


__all__ = ["plot_position_rates", "plot_seat_strength"]
