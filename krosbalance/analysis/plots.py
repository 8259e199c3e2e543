"""Plots of the derived tables. Each takes the table and an optional ``ax`` and returns the Figure.

Nothing here computes statistics (that is :mod:`stats`, :mod:`strength`, :mod:`balance`) and nothing
calls ``show()``. Figures are built with ``matplotlib.figure.Figure`` directly, not through pyplot:
no global figure registry, no GUI backend, nothing to close (the PNG is drawn by Agg on save), so
they work headless and in joblib workers.
An empty table gives a figure that says "not enough data" rather than an error. Characters and
teams are labelled with display names (:mod:`names`), and plots whose size grows with the number of
teams are capped (``MAX_TEAMS``, ``MAX_PAIRINGS``) with the cap stated in the title.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.design import weights
from krosbalance.analysis.names import display_name, names_column, team_label
from krosbalance.analysis.stats import damage_by_element_table, matchup_pivot, ok_matches
from krosbalance.analysis.strength import character_strengths

MAX_TEAMS = 30  # a heatmap shows at most this many teams (those with the most matches)
MAX_PAIRINGS = 40  # a pairing plot shows at most this many pairings (the most lopsided)
TIER_COLOURS = {"baseline": "#9e9e9e", "heuristic": "#2b6cb0", "search": "#2f855a"}

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
    ax.set_yticks(y, [f"{display_name(c)} (n={n})" for c, n in zip(d["character"], d["n"], strict=True)])
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
    ax.set_yticks(y, names_column(d["term"]))
    method = str(d["method"].iloc[0])
    ax.set_xlabel(
        "log-odds added vs the average character" + (" (ridge fallback)" if method == "ridge" else "")
    )
    ax.set_title(title)
    return fig


def matchup_design(matchups: pd.DataFrame) -> str:
    """``pairings`` when teams meet at most two opponents each (splits and pairs designs: a matrix
    would be a near-empty diagonal), else ``matrix``."""
    cells = matchups[matchups["team"] != matchups["opponent"]] if not matchups.empty else matchups
    if cells.empty:
        return "matrix"
    return "pairings" if int(cells.groupby("team").size().max()) <= 2 else "matrix"


def plot_matchups(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """The readable picture of a matchup table: a pairing plot or a (capped) heatmap, see
    :func:`matchup_design`."""
    if matchup_design(df) == "pairings":
        return plot_pairings(df, ax=ax)
    return plot_matchup_heatmap(df, ax=ax)


def plot_pairings(df: pd.DataFrame, ax: Axes | None = None, limit: int = MAX_PAIRINGS) -> Figure:
    """One row per pairing, "team A vs team B", with team A's win rate and its 95% interval.

    For designs where each team meets one or two opponents (splits: each team meets only its
    complement). Shows the ``limit`` most lopsided pairings when there are more.
    """
    cells = df[(df["team"] < df["opponent"]) & df["win_rate"].notna()] if not df.empty else df
    title = "Pairings: win rate of the left team (95% CI)"
    fig, ax = _axes(ax, (8.0, max(2.5, 0.32 * min(len(cells), limit) + 1.4)))
    if cells.empty:
        _no_data(ax, title)
        return fig
    d = cells.assign(_d=(cells["win_rate"] - 0.5).abs()).sort_values(["_d", "n"], ascending=False)
    if len(d) > limit:
        title += f"\n{limit} most lopsided of {len(d)} pairings (all in tables/matchups.csv)"
        d = d.head(limit)
    d = d.sort_values("win_rate")
    y = np.arange(len(d))
    est = d["win_rate"].to_numpy(float)
    lo, hi = d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)
    colours = np.where(lo > 0.5, "#2f855a", np.where(hi < 0.5, "#c53030", "#555"))
    ax.errorbar(est, y, xerr=_errors(est, lo, hi), fmt="none", ecolor="#888", capsize=2)
    ax.scatter(est, y, c=list(colours), zorder=3, s=14)
    ax.axvline(0.5, color="grey", ls="--", lw=1)
    labels = [
        f"{team_label(a, short=True)}  vs  {team_label(b, short=True)} (n={int(n)})"
        for a, b, n in zip(d["team"], d["opponent"], d["n"], strict=True)
    ]
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the left team")
    ax.set_title(title, fontsize=9)
    return fig


def plot_matchup_heatmap(df: pd.DataFrame, ax: Axes | None = None, limit: int = MAX_TEAMS) -> Figure:
    """Heatmap of the row team's win rate against the column team (annotated when small).

    At most ``limit`` teams are drawn (those with the most matches; the title says so), so the
    figure stays readable and small whatever the number of teams.
    """
    title = "Matchups: row team's win rate vs column team"
    teams_all = sorted(set(df["team"]) | set(df["opponent"])) if not df.empty else []
    shown = df
    if len(teams_all) > limit:
        played = df.groupby("team")["n"].sum().sort_values(ascending=False)
        keep = set(played.index[:limit])
        shown = df[df["team"].isin(keep) & df["opponent"].isin(keep)]
        title += f"\n{limit} most-played of {len(teams_all)} teams (all in tables/matchups.csv)"
    rates = matchup_pivot(shown, "win_rate")
    k = len(rates)
    fig, ax = _axes(ax, (max(5.0, 0.32 * k + 4), max(4.0, 0.3 * k + 2.5)))
    if k == 0:
        _no_data(ax, title)
        return fig
    counts = matchup_pivot(shown, "n")
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#d9d9d9")  # grey: never met, or mirror
    im = ax.imshow(np.ma.masked_invalid(rates.to_numpy()), cmap=cmap, vmin=0, vmax=1)
    labels = [team_label(t, short=True) for t in rates.index]
    ax.set_xticks(np.arange(k), labels, rotation=60, ha="right", fontsize=6)
    ax.set_yticks(np.arange(k), labels, fontsize=6)
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
    ax.set_title(title, fontsize=9)
    return fig


def plot_strength_by_group(long: pd.DataFrame, ax: Axes | None = None, title: str = "") -> Figure:
    """Teammate-adjusted strength per character, one marker per group (AI or board) beside the
    pooled estimate, with 95% intervals: where the AIs disagree, the markers part."""
    groups = list(dict.fromkeys(long["group"])) if not long.empty else []
    terms = long[long["group"] == groups[0]].sort_values("coef")["term"].tolist() if groups else []
    terms += [t for t in dict.fromkeys(long["term"]) if t not in terms] if groups else []
    fig, ax = _axes(ax, (7.0, max(3.0, 0.45 * len(terms) + 1.5)))
    title = title or "Teammate-adjusted strength by group (log-odds, 95% CI)"
    if not groups:
        _no_data(ax, title)
        return fig
    row = {t: i for i, t in enumerate(terms)}
    step = 0.7 / max(len(groups), 1)
    cmap = matplotlib.colormaps["tab10"]
    for j, group in enumerate(groups):
        d = long[long["group"] == group]
        y = np.array([row[t] for t in d["term"]]) - 0.35 + step * (j + 0.5)
        est = d["coef"].to_numpy(float)
        colour = "#222" if group == "pooled" else cmap(j % 10)
        ax.errorbar(
            est,
            y,
            xerr=_errors(est, d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)),
            fmt="s" if group == "pooled" else "o",
            ms=4,
            color=colour,
            ecolor=colour,
            capsize=2,
            lw=1,
            label=group,
        )
    ax.axvline(0, color="grey", ls="--", lw=1)
    ax.set_yticks(np.arange(len(terms)), names_column(terms))
    ax.set_xlabel("log-odds added vs the average character")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title(title, fontsize=9)
    return fig


def plot_ladder(ratings: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """AI ratings (Bradley-Terry log-odds, 95% CI), coloured by tier."""
    fig, ax = _axes(ax, _height(len(ratings)))
    title = "AI ladder: Bradley-Terry rating (log-odds vs the average AI, 95% CI)"
    d = ratings[ratings["rating"].notna()] if not ratings.empty else ratings
    if d.empty:
        _no_data(ax, title)
        return fig
    d = d.sort_values("rating")
    y = np.arange(len(d))
    est = d["rating"].to_numpy(float)
    colours = [TIER_COLOURS.get(t, "#c05621") for t in d["tier"]]
    ax.errorbar(
        est,
        y,
        xerr=_errors(est, d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)),
        fmt="none",
        ecolor="#888",
        capsize=3,
    )
    ax.scatter(est, y, c=colours, zorder=3, marker="s")
    ax.axvline(0, color="grey", ls="--", lw=1)
    ax.set_yticks(y, [f"{a} ({t}, n={n})" for a, t, n in zip(d["ai"], d["tier"], d["n"], strict=True)])
    ax.set_xlabel("rating (log-odds)")
    ax.set_title(title, fontsize=9)
    return fig


def plot_win_matrix(matrix: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Heatmap of the row AI's win rate against the column AI, with n."""
    title = "AI against AI: row AI's win rate"
    if matrix.empty:
        fig, ax = _axes(ax)
        _no_data(ax, title)
        return fig
    ais = sorted(set(matrix["ai"]) | set(matrix["opponent"]))
    rates = matrix.pivot(index="ai", columns="opponent", values="win_rate").reindex(index=ais, columns=ais)
    counts = matrix.pivot(index="ai", columns="opponent", values="n").reindex(index=ais, columns=ais)
    k = len(ais)
    fig, ax = _axes(ax, (max(4.5, 0.9 * k + 2.5), max(3.5, 0.8 * k + 1.5)))
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#d9d9d9")
    im = ax.imshow(np.ma.masked_invalid(rates.to_numpy(float)), cmap=cmap, vmin=0, vmax=1)
    ax.set_xticks(np.arange(k), ais, rotation=45, ha="right", fontsize=7)
    ax.set_yticks(np.arange(k), ais, fontsize=7)
    for i in range(k):
        for j in range(k):
            r, n = rates.iat[i, j], counts.iat[i, j]
            if not np.isnan(r):
                ax.text(
                    j,
                    i,
                    f"{r:.2f}\nn={int(n)}",
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="white" if abs(r - 0.5) > 0.3 else "black",
                )
    ax.figure.colorbar(im, ax=ax, label="win rate (grey: did not meet)", shrink=0.6)
    ax.set_title(title, fontsize=9)
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
    ax.set_yticks(y, names_column(wide.index))
    ax.set_xlabel("damage per match")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title(title, fontsize=10)
    return fig


def plot_match_length(matches: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Histogram of turns per match, stacked by end reason (error rows excluded).

    Reads ``turns``, ``end_reason`` and the optional ``weight`` (a turns histogram is enough).
    """
    fig, ax = _axes(ax)
    title = "Match length (turns) by end reason"
    m = ok_matches(matches) if not matches.empty else matches
    if m.empty:
        _no_data(ax, title)
        return fig
    reason = m["end_reason"].astype(str)
    reasons = sorted(reason.unique())
    k = weights(m)
    turns = [m.loc[(reason == r).to_numpy(), "turns"].to_numpy(float) for r in reasons]
    w = [k[(reason == r).to_numpy()] for r in reasons]
    lo, hi = float(m["turns"].min()), float(m["turns"].max())
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo < 60 else 40
    ax.hist(turns, bins=bins, weights=w, stacked=True, label=reasons)
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
