"""The report's Restricted play section (:func:`add_report_section` is its hook) and its picture.

The data are :func:`krosbalance.studies.restricted.tables.restricted_table`'s; this module shows them: a
sentence per figure and tier naming the element whose loss costs the figure most, the table with n
and 95% intervals, and one picture per figure (bars of Δ by element, one colour per AI tier).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import fmt, p_text, pct, with_ci
from krosbalance.studies.restricted.tables import restricted_table


def forbids_of(rs: Any) -> dict[str, dict[str, list[str]]]:
    """What each arm of a result set forbids, from its manifest ({} when nothing is restricted)."""
    manifest = getattr(rs, "manifest", None) or {}
    forbids = manifest.get("forbids") or {}
    return dict(forbids) if isinstance(forbids, dict) else {}


def headline(rows: pd.DataFrame) -> str:
    """One figure and tier in a sentence: the element whose loss costs the figure most, when its
    interval shows a loss, and any element whose loss makes it stronger (elements whose arm played
    the same matches as the baseline are left out: they say nothing)."""
    if "changed" in rows.columns and (rows["changed"] > 0).any():
        rows = rows[rows["changed"] > 0]
    r = rows.sort_values("delta").iloc[0]
    name = display_name(r.figure)
    scale = f"strength {fmt(r.strength)} log-odds against the average character"
    if r.ci_high < 0:
        text = (
            f"{r.tier}: {name} ({scale}) draws its strength most from its {r.kind} **{r.element}**: "
            f"Δ {with_ci(r.delta, r.ci_low, r.ci_high)} log-odds when it is forbidden, its side's win rate "
            f"{pct(r.win_base)} → {pct(r.win_restricted)} (n = {int(r.n)} matches, {int(r.deals)} deals)."
        )
    else:
        text = (
            f"{r.tier}: forbidding no single element is shown to weaken {name} ({scale}); the largest "
            f"loss is its {r.kind} {r.element}'s, Δ {with_ci(r.delta, r.ci_low, r.ci_high)} (n = {int(r.n)})."
        )
    helps = rows[(rows["ci_low"] > 0)].sort_values("delta", ascending=False)
    if not helps.empty:
        h = helps.iloc[0]
        text += (
            f" Forbidding its {h.kind} {h.element} makes it *stronger* (Δ {with_ci(h.delta, h.ci_low, h.ci_high)}): "
            "the AI uses it where it costs more than it brings."
        )
    return text


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """The table as the report shows it."""
    return pd.DataFrame(
        {
            "AI tier": table["tier"],
            "figure": [display_name(f) for f in table["figure"]],
            "kind": table["kind"],
            "forbidden": table["element"],
            "n": table["n"],
            "deals": table["deals"],
            "Δ log-odds [95% CI]": [
                with_ci(d, lo, hi) if c > 0 else "0 (no match changed)"
                for d, lo, hi, c in zip(
                    table["delta"], table["ci_low"], table["ci_high"], table["changed"], strict=True
                )
            ],
            "p": [p_text(p) for p in table["p_value"]],
            "win rate: free → forbidden": [
                f"{pct(a)} → {pct(b)}"
                for a, b in zip(table["win_base"], table["win_restricted"], strict=True)
            ],
            "Δ win rate [95% CI]": [
                with_ci(d, lo, hi, as_pct=True)
                for d, lo, hi in zip(table["delta_win"], table["win_low"], table["win_high"], strict=True)
            ],
            "matches changed": [pct(c) for c in table["changed"]],
            "strength (free)": [fmt(s) for s in table["strength"]],
            "interval": table["interval"],
        }
    )


def plot_restricted(table: pd.DataFrame, figure: str, ax: Any = None) -> Figure:
    """Bars of Δ log-odds [95% CI] by forbidden element of one figure, one bar per AI tier."""
    rows = table[table["figure"] == figure]
    labels = list(dict.fromkeys(f"{k}: {e}" for k, e in zip(rows["kind"], rows["element"], strict=True)))
    tiers = list(dict.fromkeys(rows["tier"]))
    if ax is None:
        fig = Figure(figsize=(7.5, 0.5 + 0.45 * len(labels) * max(1, len(tiers)) ** 0.5 + 1))
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    height = 0.8 / max(1, len(tiers))
    for i, tier in enumerate(tiers):
        mine = rows[rows["tier"] == tier]
        sub = mine.set_index(mine["kind"] + ": " + mine["element"])
        ys, xs, lo, hi = [], [], [], []
        for j, label in enumerate(labels):
            if label in sub.index:
                r = sub.loc[label]
                ys.append(j + (i - (len(tiers) - 1) / 2) * height)
                xs.append(r["delta"])
                lo.append(r["delta"] - r["ci_low"])
                hi.append(r["ci_high"] - r["delta"])
        ax.barh(ys, xs, height=height, xerr=[lo, hi], label=tier, capsize=2)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("Δ strength (log-odds) when forbidden, 95% CI")
    ax.set_title(f"{display_name(figure)}: restricted play")
    ax.legend(title="AI", fontsize="small")
    fig.tight_layout()
    return fig


def report_section(doc: Any, table: pd.DataFrame, tables: dict[str, pd.DataFrame]) -> None:
    """The section: method, headlines per figure and tier, the table, a picture per figure."""
    tables["restricted_play"] = table
    doc.p(
        "Restricted play (Jaffe et al., AIIDE 2012): each arm forbids one element to one figure — a spell it never "
        "casts, a power that does not act for it (a passive power cannot be 'not used', so it is switched off; a "
        "tension die of the same power still acts), or an option of the rules it never takes (picking up kamas, "
        "buying GG) — on whichever side fields it; its opponent is never restricted, and the restriction is known "
        "to both players. Every arm plays the same deals on the same seeds as the unrestricted arm. Δ is the "
        "change of the figure's teammate-adjusted strength (log-odds, the character-strength model fitted on both "
        "arms with one more term for the restricted figure; deal-clustered 95% CI over the pairs of arms): "
        "negative means the element makes the figure stronger. The win rates are the figure's side's, on the "
        "matches where it plays on one side only (a draw counts half), with the paired difference per deal "
        "and a t interval across deals; 'matches changed' is the share of paired matches whose winner differs "
        "(0%: the AI never used the element in these deals).",
        note=True,
    )
    for _, rows in table.groupby(["figure", "tier"], sort=False):
        if rows["delta"].notna().any():
            doc.p(headline(rows.dropna(subset=["delta"])))
    doc.table(display_table(table), "Per figure, AI tier and forbidden element (n = restricted-arm matches).")
    for figure in dict.fromkeys(table["figure"]):
        doc.image(f"restricted_{figure}.png", plot_restricted(table, figure), f"restricted play: {figure}")


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (a mode section): a "Restricted play" section when the result set's arms
    forbid elements to figures, nothing otherwise."""
    forbids = forbids_of(rs)
    if not forbids:
        return

    def build() -> None:
        table = restricted_table(rs.matches, forbids)
        if table.empty:
            doc.p("Restricted arms, but no baseline arm or no match where the figure plays on one side only.")
            return
        report_section(doc, table, tables)

    section(doc, "Restricted play", build)
