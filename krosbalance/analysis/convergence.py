"""Convergence: does a character's strength stop moving as the AI gets stronger?

A verdict measured with one AI says how the character does *when played that way*. If stronger
play keeps changing the number, the verdict is about the bots; once the strongest AIs agree, it is
about the character. For each character this module lines up its teammate-adjusted strength
(:func:`.dependence.strength_by` over symmetric matchups: both teams played by the same AI) against
the AI's rating on the ladder, for every AI played except the baseline tier (random play), and
calls the verdict on the two strongest *validated* AIs played (the ladder's validity gate,
``krosbalance/ai/data/ladder.toml``; every AI when fewer than two are validated):

* **converged** when their strengths' difference has a 95% interval (normal approximation, the two
  fits taken as independent: they use disjoint matches) that contains 0;
* **still moves** when it does not: the stronger AI changed the number beyond noise.

AIs are ordered by tier (baseline, heuristic, search) and, within a tier, by ladder rating. An AI not
on the ladder yet (a newly registered search AI, until the ladder experiment is run again) has no
rating: it is placed at the top of its tier, the place its registration claims (a new search AI
must beat the strongest rated one head to head), shown as "unrated", and compared with the
strongest validated AI in a *provisional* verdict of its own.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis.dependence import POOLED, TIER_ORDER, ai_tier

#: the tier excluded from the convergence (uniformly random play measures nothing of the character)
EXCLUDED_TIER = "baseline"
Z95 = 1.959963984540054


def ai_order(ais: list[str], standings: dict[str, Any]) -> list[str]:
    """``ais`` weakest first: by tier, then ladder rating (unrated: top of its tier), then name."""

    def key(ai: str) -> tuple[int, float, str]:
        tier = ai_tier(ai)
        rank = TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER)
        standing = standings.get(ai)
        rating = math.inf if standing is None else float(standing.rating)
        return rank, rating, ai

    return sorted(ais, key=key)


def convergence_long(by_ai: pd.DataFrame, standings: dict[str, Any]) -> pd.DataFrame:
    """Per character and AI (baseline excluded): strength with its interval, the AI's tier, rating
    and place (0 = weakest) in :func:`ai_order`.

    ``by_ai`` is :func:`.dependence.strength_by` with ``by="ai_matchup"`` (its symmetric groups are
    the AIs' names; the pooled group and lopsided matchups are left out)."""
    cols = ["term", "ai", "tier", "rating", "validated", "place", "coef", "se", "ci_low", "ci_high", "n"]
    if by_ai is None or by_ai.empty:
        return pd.DataFrame(columns=cols)
    rows = by_ai[(by_ai["group"] != POOLED) & ~by_ai["group"].astype(str).str.contains(" vs ")]
    ais = [a for a in dict.fromkeys(rows["group"].astype(str)) if ai_tier(a) != EXCLUDED_TIER]
    order = ai_order(ais, standings)
    rows = rows[rows["group"].astype(str).isin(order)]
    if rows.empty:
        return pd.DataFrame(columns=cols)
    out = rows.rename(columns={"group": "ai"}).copy()
    out["ai"] = out["ai"].astype(str)
    out["tier"] = [ai_tier(a) for a in out["ai"]]
    out["rating"] = [float(standings[a].rating) if a in standings else float("nan") for a in out["ai"]]
    out["validated"] = [bool(getattr(standings.get(a), "validated", False)) for a in out["ai"]]
    out["place"] = [order.index(a) for a in out["ai"]]
    return out[cols].sort_values(["term", "place"]).reset_index(drop=True)


def _compare(top: Any, second: Any) -> tuple[float, float, float, str]:
    diff = float(top.coef - second.coef)
    se = math.sqrt(float(top.se) ** 2 + float(second.se) ** 2)
    low, high = diff - Z95 * se, diff + Z95 * se
    return diff, low, high, ("converged" if low <= 0.0 <= high else "still moves")


def convergence_table(long: pd.DataFrame) -> pd.DataFrame:
    """One row per character: its strength under the two strongest validated AIs played (every AI
    when fewer than two are validated), their difference with a 95% interval, the spread over every
    AI, and the verdict (``converged`` / ``still moves``; ``one AI`` when only one AI above the
    baseline played it); then, when an unvalidated AI ranks above them, its strength and its
    provisional verdict against the strongest of the two.

    Returns:
        term, strongest, strength (its ci_low, ci_high and n: decided matches the character played
        in), second, strength_second (second_low, second_high, n_second), difference, diff_low,
        diff_high, spread (largest minus smallest strength over the AIs), verdict, provisional_ai,
        provisional_strength (provisional_low, provisional_high, provisional_n), provisional_verdict.
    """
    cols = [
        "term",
        "strongest",
        "strength",
        "ci_low",
        "ci_high",
        "n",
        "second",
        "strength_second",
        "second_low",
        "second_high",
        "n_second",
        "difference",
        "diff_low",
        "diff_high",
        "spread",
        "verdict",
        "provisional_ai",
        "provisional_strength",
        "provisional_low",
        "provisional_high",
        "provisional_n",
        "provisional_verdict",
    ]
    rows = []
    for term, sub in long.groupby("term", sort=True):
        sub = sub.sort_values("place")
        spread = float(sub["coef"].max() - sub["coef"].min())
        judged = sub[sub["validated"]] if int(sub["validated"].sum()) >= 2 else sub
        top = judged.iloc[-1]
        above = sub[(sub["place"] > top.place) & ~sub["validated"]]
        extra: tuple[object, ...] = ("", np.nan, np.nan, np.nan, 0, "")
        if len(above):
            newest = above.iloc[-1]
            extra = (
                newest.ai,
                newest.coef,
                newest.ci_low,
                newest.ci_high,
                newest.n,
                _compare(newest, top)[3],
            )
        if len(judged) < 2:
            rows.append(
                (term, top.ai, top.coef, top.ci_low, top.ci_high, top.n, "", np.nan, np.nan, np.nan, 0)
                + (np.nan, np.nan, np.nan, spread, "one AI", *extra)
            )
            continue
        second = judged.iloc[-2]
        diff, low, high, verdict = _compare(top, second)
        rows.append(
            (term, top.ai, top.coef, top.ci_low, top.ci_high, top.n, second.ai, second.coef)
            + (second.ci_low, second.ci_high, second.n, diff, low, high, spread, verdict, *extra)
        )
    return pd.DataFrame(rows, columns=cols)


def convergence_line(table: pd.DataFrame) -> str:
    """One sentence naming the converged verdicts and those that still move."""
    if table.empty:
        return "No character was played by two AIs above the baseline tier: nothing to compare."
    done = table.loc[table["verdict"] == "converged", "term"].astype(str).tolist()
    moving = table.loc[table["verdict"] == "still moves", "term"].astype(str).tolist()
    top = table["strongest"].iloc[0]
    second = table["second"].iloc[0]
    line = (
        f"Between the two strongest validated AIs played ({second} and {top}): converged — "
        f"{', '.join(done) or 'none'}; still moves — {', '.join(moving) or 'none'}."
    )
    newest = [a for a in dict.fromkeys(table["provisional_ai"].astype(str)) if a]
    if newest:
        agree = table.loc[table["provisional_verdict"] == "converged", "term"].astype(str).tolist()
        moves = table.loc[table["provisional_verdict"] == "still moves", "term"].astype(str).tolist()
        line += (
            f" Provisionally, {', '.join(newest)} (not validated by the ladder yet) against {top}: agrees — "
            f"{', '.join(agree) or 'none'}; moves — {', '.join(moves) or 'none'}."
        )
    return line


def plot_convergence(long: pd.DataFrame, ax: Any = None) -> Any:
    """Strength (log-odds, 95% interval) of each character against the AIs, weakest AI left; the
    x axis is the AI's place, labelled with its name and ladder rating."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.8))
    else:
        fig = ax.figure
    places = sorted(set(long["place"].tolist()))
    labels = {}
    for row in long.drop_duplicates("place").itertuples():
        rating = "unrated" if pd.isna(row.rating) else f"{row.rating:.2f}"
        if not row.validated and not pd.isna(row.rating):
            rating += ", not validated"
        labels[row.place] = f"{row.ai}\n({rating})"
    terms = sorted(set(long["term"].astype(str)))
    offsets = np.linspace(-0.2, 0.2, max(1, len(terms)))
    for k, term in enumerate(terms):
        sub = long[long["term"].astype(str) == term].sort_values("place")
        x = sub["place"].to_numpy(dtype=float) + offsets[k]
        y = sub["coef"].to_numpy(dtype=float)
        err = np.vstack([y - sub["ci_low"].to_numpy(dtype=float), sub["ci_high"].to_numpy(dtype=float) - y])
        ax.errorbar(x, y, yerr=err, marker="o", capsize=2, linewidth=1, label=term)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xticks(places, [labels[p] for p in places])
    if len(places) > 6:  # long AI names side by side would overlap
        ax.tick_params(axis="x", labelrotation=30)
        for tick in ax.get_xticklabels():
            tick.set_horizontalalignment("right")
    ax.set_xlabel("AI (ladder rating), weakest left")
    ax.set_ylabel("teammate-adjusted strength (log-odds)")
    ax.legend(fontsize=7, ncol=2, loc="best")
    fig.tight_layout()
    return fig


def report_section(doc: Any, long: pd.DataFrame, table: pd.DataFrame) -> None:
    """The "Convergence over AI strength" section's body."""
    doc.p(convergence_line(table))
    doc.p(
        "Teammate-adjusted strength per AI (symmetric matchups: both teams played by that AI; random "
        "play excluded), AIs ordered by tier and ladder rating; an AI not on the ladder yet is placed at "
        "the top of its tier ('unrated'). A verdict is converged when the 95% interval of the difference "
        "between the two strongest validated AIs' strengths contains 0 (normal approximation, disjoint "
        "matches); spread = largest minus smallest strength over every AI; provisional: the same test "
        "between an unvalidated AI above them and the strongest validated one.",
        note=True,
    )
    from krosbalance.analysis.narrative import with_ci

    shown = pd.DataFrame(
        {
            "character": table["term"],
            "strongest": table["strongest"],
            "strength [95% CI] (n)": [
                f"{with_ci(c, lo, hi)} ({int(n)})"
                for c, lo, hi, n in zip(
                    table["strength"], table["ci_low"], table["ci_high"], table["n"], strict=True
                )
            ],
            "second": table["second"],
            "second strength [95% CI] (n)": [
                "" if pd.isna(c) else f"{with_ci(c, lo, hi)} ({int(n)})"
                for c, lo, hi, n in zip(
                    table["strength_second"],
                    table["second_low"],
                    table["second_high"],
                    table["n_second"],
                    strict=True,
                )
            ],
            "difference [95% CI]": [
                "" if pd.isna(d) else with_ci(d, lo, hi)
                for d, lo, hi in zip(table["difference"], table["diff_low"], table["diff_high"], strict=True)
            ],
            "spread": table["spread"].round(2),
            "verdict": table["verdict"],
            "provisional AI": table["provisional_ai"],
            "provisional strength [95% CI] (n)": [
                "" if pd.isna(c) else f"{with_ci(c, lo, hi)} ({int(n)})"
                for c, lo, hi, n in zip(
                    table["provisional_strength"],
                    table["provisional_low"],
                    table["provisional_high"],
                    table["provisional_n"],
                    strict=True,
                )
            ],
            "provisional verdict": table["provisional_verdict"],
        }
    )
    doc.table(shown)
    doc.image("convergence.png", plot_convergence(long), "character strength against AI strength")


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (a mode section): shown when the report measured character strength under
    two or more AIs above the baseline tier (``tables["strength_by_ai"]``), nothing otherwise."""
    by_ai = tables.get("strength_by_ai")
    if by_ai is None or by_ai.empty:
        return
    from krosbalance.ai.ladder import load_ladder
    from krosbalance.errors import KrosbalanceError

    try:
        standings: dict[str, Any] = dict(load_ladder())
    except KrosbalanceError:
        standings = {}
    long = convergence_long(by_ai, standings)
    if long.empty or long["ai"].nunique() < 2:
        return
    table = convergence_table(long)
    tables.update(convergence=table, convergence_by_ai=long)
    section(doc, "Convergence over AI strength", lambda: report_section(doc, long, table))
