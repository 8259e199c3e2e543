"""Convergence: does a character's strength stop moving as the AI gets stronger?

A verdict measured with one AI says how the character does *when played that way*. If stronger
play keeps changing the number, the verdict is about the bots; once the strongest AIs agree, it is
about the character. For each character this module lines up its teammate-adjusted strength
(:func:`.dependence.strength_by` over symmetric matchups: both teams played by the same AI) against
the AI's rating on the ladder, for every AI played except the baseline tier (random play), fits the
*skill trend* (strength against rating, :func:`.equivalence.skill_trend`), and calls the verdict on
the two strongest *validated* AIs played (the ladder's validity gate,
``krosbalance/ai/data/ladder.toml``; every AI when fewer than two are validated) by two one-sided
tests against a margin (:mod:`.equivalence`):

* **settled** when the two AIs agree within ±``MARGIN`` log-odds (the difference's 90% interval
  inside the margin);
* **still moving** when the difference's 95% interval excludes 0 (and they do not agree within the
  margin): the stronger AI changed the number, up or down;
* **undecided** when the matches cannot tell, with how many more each AI would need.

Overlapping intervals are not agreement: with few matches every interval is wide.

AIs are ordered by tier (baseline, heuristic, search) and, within a tier, by ladder rating. An AI not
on the ladder yet (a newly registered search AI, until the ladder experiment is run again) has no
rating: it is placed at the top of its tier, the place its registration claims (a new search AI
must beat the strongest rated one head to head), shown as "unrated", left out of the trend, and
compared with the strongest validated AI in a *provisional* verdict of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from krosbalance.ai.ladder import load_ladder
from krosbalance.analysis import equivalence
from krosbalance.analysis.dependence import POOLED, ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.top_ai import ladder_key
from krosbalance.errors import KrosbalanceError

#: the tier excluded from the convergence (uniformly random play measures nothing of the character)
EXCLUDED_TIER = "baseline"
#: the equivalence margin (log-odds) within which the two strongest AIs agree
MARGIN = equivalence.MARGIN
ONE_AI = "one AI"


def ai_order(ais: list[str], standings: dict[str, Any]) -> list[str]:
    """``ais`` weakest first, in the AI ladder's order (:func:`krosbalance.analysis.top_ai.ladder_key`:
    tier, then ladder rating (unrated: top of its tier), then name)."""
    return sorted(ais, key=lambda ai: ladder_key(ai, standings, ai_tier(ai)))


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


def _compare(top: Any, second: Any) -> equivalence.Agreement:
    return equivalence.compare(
        float(top.coef),
        float(top.se),
        float(second.coef),
        float(second.se),
        int(top.n),
        int(second.n),
        MARGIN,
    )


def convergence_table(long: pd.DataFrame) -> pd.DataFrame:
    """One row per character: its strength under the two strongest validated AIs played (every AI
    when fewer than two are validated), their difference with a 95% interval, the spread over every
    AI, the verdict (``settled`` / ``still moving`` / ``undecided``, see the module docstring;
    ``one AI`` when only one AI above the baseline played it) with what would decide it, the skill
    trend over the rated AIs; then, when an unvalidated AI ranks above them, its strength and its
    provisional verdict against the strongest of the two.

    Returns:
        term, strongest, strength (its ci_low, ci_high and n: decided matches the character played
        in), second, strength_second (second_low, second_high, n_second), difference, diff_low,
        diff_high, p_equivalent (TOST), spread (largest minus smallest strength over the AIs),
        verdict, direction ("up" / "down" when still moving), more_strongest, more_second (matches
        that would decide an undecided verdict), slope, slope_low, slope_high, trend_points,
        provisional_ai, provisional_strength (provisional_low, provisional_high, provisional_n),
        provisional_verdict.
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
        "p_equivalent",
        "spread",
        "verdict",
        "direction",
        "more_strongest",
        "more_second",
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
                _compare(newest, top).verdict,
            )
        head = (term, top.ai, top.coef, top.ci_low, top.ci_high, top.n)
        if len(judged) < 2:
            rows.append(
                head
                + ("", np.nan, np.nan, np.nan, 0, np.nan, np.nan, np.nan, np.nan, spread, ONE_AI, "", 0, 0)
                + extra
            )
            continue
        second = judged.iloc[-2]
        a = _compare(top, second)
        rows.append(
            head
            + (second.ai, second.coef, second.ci_low, second.ci_high, second.n)
            + (a.difference, a.low95, a.high95, a.p_equivalent, spread, a.verdict, a.direction)
            + (a.more_stronger, a.more_weaker, *extra)
        )
    table = pd.DataFrame(rows, columns=cols)
    rated = long[long["rating"].notna()]
    trend = equivalence.trend_table(rated) if len(rated) else equivalence.trend_table(long.iloc[0:0])
    table = table.merge(trend, on="term", how="left")
    table["trend_points"] = table["trend_points"].fillna(0).astype(int)
    order = [c for c in table.columns if not c.startswith("provisional")] + [
        c for c in table.columns if c.startswith("provisional")
    ]
    return table[order]


def convergence_line(table: pd.DataFrame) -> str:
    """One sentence naming the settled verdicts, those still moving and the undecided ones."""
    if table.empty:
        return "No character was played by two AIs above the baseline tier: nothing to compare."

    def named(column: str, verdict: str) -> str:
        return (
            ", ".join(display_name(t) for t in table.loc[table[column] == verdict, "term"].astype(str))
            or "none"
        )

    top = table["strongest"].iloc[0]
    second = table["second"].iloc[0]
    line = (
        f"Between the two strongest validated AIs played ({second} and {top}), within ±{MARGIN:.2f} log-odds: "
        f"settled — {named('verdict', equivalence.SETTLED)}; still moving — "
        f"{named('verdict', equivalence.MOVING)}; undecided — {named('verdict', equivalence.UNDECIDED)}."
    )
    newest = [a for a in dict.fromkeys(table["provisional_ai"].astype(str)) if a]
    if newest:
        line += (
            f" Provisionally, {', '.join(newest)} (not validated by the ladder yet) against {top}: agrees — "
            f"{named('provisional_verdict', equivalence.SETTLED)}; moves — "
            f"{named('provisional_verdict', equivalence.MOVING)}; undecided — "
            f"{named('provisional_verdict', equivalence.UNDECIDED)}."
        )
    return line


def plot_convergence(long: pd.DataFrame, ax: Any = None) -> Any:
    """The skill trend: strength (log-odds, 95% interval) of each character against the rating of
    the AI that played it (rated AIs only: an unrated one has no place on this axis), with the
    fitted line and its slope [95% CI] in the legend."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.8))
    else:
        fig = ax.figure
    rated = long[long["rating"].notna()]
    axis = "rating"
    if rated.empty:  # no AI on the ladder yet: their order is all there is
        rated, axis = long.assign(rating=long["place"].astype(float)), "place"
    terms = sorted(set(rated["term"].astype(str)))
    spread = float(rated["rating"].max() - rated["rating"].min()) if len(rated) else 0.0
    offsets = np.linspace(-0.01, 0.01, max(1, len(terms))) * max(spread, 0.1)
    for k, term in enumerate(terms):
        sub = rated[rated["term"].astype(str) == term].sort_values("rating")
        x = sub["rating"].to_numpy(dtype=float)
        y = sub["coef"].to_numpy(dtype=float)
        err = np.vstack([y - sub["ci_low"].to_numpy(dtype=float), sub["ci_high"].to_numpy(dtype=float) - y])
        trend = equivalence.skill_trend(x, y, sub["se"].to_numpy(dtype=float))
        name = display_name(term)
        label = (
            name
            if np.isnan(trend.slope)
            else f"{name}: {trend.slope:+.2f} [{trend.low:+.2f}, {trend.high:+.2f}]"
        )
        bars = ax.errorbar(
            x + offsets[k], y, yerr=err, marker="o", capsize=2, linewidth=0, elinewidth=1, label=label
        )
        if not np.isnan(trend.slope):
            line_x = np.array([x.min(), x.max()])
            mean_x = np.average(x, weights=1.0 / sub["se"].to_numpy(dtype=float) ** 2)
            mean_y = np.average(y, weights=1.0 / sub["se"].to_numpy(dtype=float) ** 2)
            ax.plot(line_x, mean_y + trend.slope * (line_x - mean_x), color=bars[0].get_color(), linewidth=1)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    for rating, ai in rated.drop_duplicates("ai")[["rating", "ai"]].itertuples(index=False):
        ax.annotate(
            str(ai),
            (rating, 0.0),
            xytext=(0, -12),
            textcoords="offset points",
            fontsize=6,
            ha="center",
            rotation=30,
            color="grey",
        )
    if axis == "rating":
        ax.set_xlabel("AI's ladder rating (log-odds against the field)")
    else:
        ax.set_xlabel("AI, weakest left (no AI played is on the ladder: no ratings)")
    ax.set_ylabel("teammate-adjusted strength (log-odds)")
    ax.legend(
        fontsize=7,
        ncol=1 if len(terms) <= 12 else 2,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        title="slope [95% CI]",
        title_fontsize=7,
    )
    fig.tight_layout()
    return fig


def report_section(doc: Any, long: pd.DataFrame, table: pd.DataFrame) -> None:
    """The "Convergence over AI strength" section's body."""
    doc.p(convergence_line(table))
    doc.p(
        "Teammate-adjusted strength per AI (symmetric matchups: both teams played by that AI; random "
        "play excluded), AIs ordered by tier and ladder rating; an AI not on the ladder yet is placed at "
        "the top of its tier ('unrated'). Two one-sided tests on the difference between the two strongest "
        f"validated AIs' strengths (normal approximation, disjoint matches): settled when they agree within "
        f"±{MARGIN:.2f} log-odds (90% interval inside the margin), still moving when its 95% interval "
        "excludes 0, otherwise undecided, with the matches each AI would need if the difference held. "
        "Spread = largest minus smallest strength over every AI; trend = the fitted slope of strength "
        "against the AIs' ladder ratings (weighted by precision; rated AIs only); provisional: the same "
        "test between an unvalidated AI above them and the strongest validated one.",
        note=True,
    )

    shown = pd.DataFrame(
        {
            "character": [display_name(t) for t in table["term"].astype(str)],
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
            "verdict": [_verdict_cell(row) for row in table.itertuples()],
            "trend [95% CI]": [
                "" if pd.isna(t) else with_ci(t, lo, hi)
                for t, lo, hi in zip(table["slope"], table["slope_low"], table["slope_high"], strict=True)
            ],
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
    doc.image("convergence.png", plot_convergence(long), "character strength against the AIs' ladder ratings")


def _verdict_cell(row: Any) -> str:
    if row.verdict == equivalence.MOVING:
        return f"still moving {row.direction}"
    if row.verdict == equivalence.UNDECIDED and (row.more_strongest or row.more_second):
        return f"undecided (+{int(row.more_strongest):,} / +{int(row.more_second):,} matches)"
    return str(row.verdict)


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (a mode section): shown when the report measured character strength under
    two or more AIs above the baseline tier (``tables["strength_by_ai"]``), nothing otherwise."""
    by_ai = tables.get("strength_by_ai")
    if by_ai is None or by_ai.empty:
        return

    from krosbalance.analysis.answers import verdict_ruleset  # cycle: answers -> sections -> convergence

    try:  # the run's own ladder: an Arena standing ranks no Blast or Duel AI
        standings: dict[str, Any] = dict(
            load_ladder(ruleset=verdict_ruleset(rs) if rs is not None else "arena")
        )
    except KrosbalanceError:
        standings = {}
    long = convergence_long(by_ai, standings)
    if long.empty or long["ai"].nunique() < 2:
        return
    table = convergence_table(long)
    tables.update(convergence=table, convergence_by_ai=long)
    section(doc, "Convergence over AI strength", lambda: report_section(doc, long, table))
