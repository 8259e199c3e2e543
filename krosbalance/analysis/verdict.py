"""The answer a report opens with: one picture of who is strong, per AI, with intervals, and
whether the strongest AI and the next one down agree.

Every kind of study the report handles answers "which figure is strong?" with one number per
figure and AI group — a character's teammate-adjusted strength, a Demonic Reward's Δ win rate, a
Divine Challenge's shift of the first player's edge, a duel figure's win rate, a character's
strength at a four-player table. A :class:`Verdict` holds those numbers in one tidy table
(:data:`COLUMNS`), so one picture (:mod:`.verdict_plot`) and one summary serve every study; each study's builder lives with
the section that explains it in detail (the section registry's ``verdict`` hooks,
:mod:`krosbalance.analysis.sections`), the character-strength one here.

A row names the one AI whose matches measured it (``ai``; '' for a row pooled over a tier's AIs):
the answer is the strongest validated AI's (:mod:`.top_ai`, worded by :mod:`.headline`).
*Settled*, *still moving* or *undecided* (:func:`convergence`): the figure's estimates under that AI
and the next AI down (the two strongest tiers, for a picture pooled per tier), compared by two
one-sided tests against a margin (:mod:`.equivalence`): settled when they agree within it, still
moving when stronger play moved the answer beyond the noise, undecided when the matches cannot tell
(overlapping intervals are not agreement: with few matches every interval overlaps). With one AI
played it cannot be judged and the picture says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from krosbalance.analysis import equivalence, stats
from krosbalance.analysis.dependence import TIER_ORDER, _tier_rank, ai_tier, recorded_tiers, with_groups
from krosbalance.analysis.headline import headline_lines
from krosbalance.analysis.names import display_name
from krosbalance.analysis.picture import (
    COLUMNS,
    MOVING,
    NO_INTERVAL,
    ONE_TIER,
    PCT_MARGIN,
    SETTLED,
    UNDECIDED,
    Z95,
    Verdict,
    holds_reference,
    in_win_pct,
    one_ai,
    verdict_frame,
)
from krosbalance.analysis.strength import adjusted_strength, character_strengths
from krosbalance.analysis.top_ai import top_ais
from krosbalance.analysis.wording import win_pct_text

MAX_SUMMARY = 5
_MARK = {
    SETTLED: "#2a7a2a",
    MOVING: "#b22222",
    UNDECIDED: "#b8860b",
    ONE_TIER: "#777777",
    NO_INTERVAL: "#777777",
}


def sole_ai(matches: pd.DataFrame, tier: str) -> str:
    """The one AI of ``tier`` that played ``matches`` (any seat), '' when several did (a row pooled
    over a tier then measures no one AI) or none."""
    if matches is None or matches.empty:
        return ""
    recorded = recorded_tiers(matches)
    seats = [c for c in matches.columns if c.startswith("ai") and c[2:].isdigit()]
    names = {str(a) for c in seats for a in matches[c].dropna().unique()}
    found = [a for a in names if str(recorded.get(a) or ai_tier(a)) == str(tier)]
    return found[0] if len(found) == 1 else ""


def group_label(ai: str, tier: str | None = None) -> str:
    """``focus_fire (heuristic)``: an AI group as the picture's legend names it."""
    return f"{ai} ({tier or ai_tier(ai)})"


def ai_row(
    figure: str, ai: str, tier: str, est: float, ci_low: float, ci_high: float, n: float
) -> dict[str, Any]:
    """One row of a verdict picture measured by the AI matchup ``ai`` of ``tier``: its legend group,
    and its ``ai`` for the headline ('' for a lopsided ``a vs b`` matchup, which measures no one AI)."""
    return {
        "figure": figure,
        "group": group_label(ai, tier),
        "tier": tier,
        "est": est,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "n": n,
        "ai": one_ai(ai),
    }


# ------------------------------------------------------------------------------------ convergence


def strongest_tiers(data: pd.DataFrame) -> list[str]:
    """The two strongest AI tiers in the data (search > heuristic > baseline), strongest first; one
    or none when fewer were played."""
    tiers = sorted(set(data["tier"].astype(str)), key=_tier_rank, reverse=True) if len(data) else []
    known = [t for t in tiers if t in TIER_ORDER] or tiers
    return known[:2]


def _widest_sample(rows: pd.DataFrame) -> Any:
    """A group's row with the most matches: a tier's AIs pooled when the table has that group."""
    return rows.sort_values("n", ascending=False, na_position="last").iloc[0]


def compared(
    data: pd.DataFrame, ruleset: str = "arena", standings: Mapping[str, Any] | None = None
) -> tuple[str, list[str]]:
    """What the picture compares, strongest first: ``("ai", [top, next])`` when rows name their AI
    (the strongest validated AI played and the next one down, :func:`~.top_ai.top_ais`), else
    ``("tier", the two strongest tiers)``; one name when only one was played."""
    named = (
        data[(data["ai"].astype(str) != "") & data["est"].notna()] if "ai" in data.columns else data.iloc[0:0]
    )
    if len(named):
        tiers = dict(zip(named["ai"].astype(str), named["tier"].astype(str), strict=True))
        top = top_ais(tiers, ruleset, standings, tiers)
        if top is not None:
            return "ai", [a for a in (top.top, top.second) if a]
    return "tier", strongest_tiers(data)


def convergence(
    data: pd.DataFrame,
    as_pct: bool = False,
    ruleset: str = "arena",
    standings: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Per figure: ``status`` (settled / still moving / undecided / one tier), the two groups
    compared (``tiers``: the top two AIs when rows name their AI, :func:`compared`, else the two
    strongest tiers), the ``difference`` (strongest minus second) and, when undecided, the matches
    each would need (``more_top``, ``more_second``).

    A tier is its row with the most matches (its AIs pooled when there is that row); the standard
    errors are read off the 95% intervals; the margin is ±0.15 log-odds (:data:`PCT_MARGIN` on a
    proportion scale). A figure missing from either group is ``one tier``; one that both groups
    measured, one of them without an interval, is ``no interval``.
    """
    column, tiers = compared(data, ruleset, standings)
    margin = PCT_MARGIN if as_pct else equivalence.MARGIN
    rows = []
    for fig in dict.fromkeys(data["figure"]):
        own = data[(data["figure"] == fig) & data["ci_low"].notna() & data["ci_high"].notna()]
        status, diff, more = ONE_TIER, float("nan"), (0, 0)
        if len(tiers) >= 2 and all(((data["figure"] == fig) & (data[column] == t)).any() for t in tiers[:2]):
            status = NO_INTERVAL  # both measured it: only an interval is missing
        if len(tiers) >= 2:
            top = own[own[column] == tiers[0]]
            second = own[own[column] == tiers[1]]
            if not top.empty and not second.empty:
                a, b = _widest_sample(top), _widest_sample(second)
                agreement = equivalence.compare(
                    float(a["est"]),
                    float(a["ci_high"] - a["ci_low"]) / (2 * Z95),
                    float(b["est"]),
                    float(b["ci_high"] - b["ci_low"]) / (2 * Z95),
                    0 if pd.isna(a["n"]) else int(a["n"]),
                    0 if pd.isna(b["n"]) else int(b["n"]),
                    margin,
                )
                status, diff = agreement.verdict, agreement.difference
                more = (agreement.more_stronger, agreement.more_weaker)
        rows.append(
            {
                "figure": fig,
                "status": status,
                "tiers": " vs ".join(tiers),
                "difference": diff,
                "more_top": more[0],
                "more_second": more[1],
            }
        )
    return pd.DataFrame(rows, columns=["figure", "status", "tiers", "difference", "more_top", "more_second"])


def convergence_line(verdict: Verdict) -> str:
    """One sentence: how many rows (figures, prices, teams...) are settled between the two strongest AIs (or tiers, when
    rows pool a tier's AIs), which still move, and which the matches cannot decide yet."""
    conv = convergence(verdict.data, verdict.as_pct, verdict.ruleset)
    column, tiers = compared(verdict.data, verdict.ruleset)
    kind = "AI" if column == "ai" else "AI tier"
    if len(tiers) < 2:
        played = tiers[0] if tiers else "no"
        return (
            f"Stronger play cannot be judged: one {kind} played ({played}); a run with a second, stronger "
            f"{kind} would show whether better play changes these answers."
        )
    judged = conv[~conv["status"].isin([ONE_TIER, NO_INTERVAL])]
    margin = f"±{100 * PCT_MARGIN:.2g} points" if verdict.as_pct else f"±{equivalence.MARGIN:.2f} log-odds"

    def named(status: str) -> list[str]:
        return judged[judged["status"] == status]["figure"].astype(str).tolist()

    def shown(names: list[str]) -> str:
        return ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")

    settled, moving, open_ = named(SETTLED), named(MOVING), named(UNDECIDED)
    line = (
        f"{len(settled)} of {len(judged)} {verdict.rows} settled ({tiers[0]} and {tiers[1]}, the two strongest "
        f"{'AIs' if column == 'ai' else 'tiers'} played, agree within {margin})"
    )
    if moving:
        line += f"; still moving: {shown(moving)}, whose answer changes with the AI's strength"
    if open_:
        more = judged[judged["status"] == UNDECIDED]["more_top"].max()
        line += f"; undecided: {shown(open_)} (up to {int(more):,} more matches under {tiers[0]} would tell)"
    return line + "."


# ------------------------------------------------------------------------------------- numbers


def _fmt(x: float, as_pct: bool) -> str:
    return f"{100 * x:.1f}%" if as_pct else f"{x:+.2f}"


# -------------------------------------------------------------------------------------- summary


def extremes_line(verdict: Verdict) -> str:
    """The strongest and weakest figure in the strongest tier, with interval and n (and, for log-odds,
    the win % against the average they mean). When both intervals hold the "no effect" value the
    line says the figures cannot be told from noise instead of naming a strongest one."""
    data = verdict.data.dropna(subset=["est"])
    column, tiers = compared(data, verdict.ruleset) if len(data) else ("tier", [])
    if data.empty or not tiers:
        return ""
    top = data[data[column] == tiers[0]]
    group = str(top["group"].iloc[0])
    top = top[top["group"] == group].sort_values("est", ascending=False)

    def one(r: Any) -> str:
        ci = (
            ""
            if pd.isna(r.ci_low)
            else f" [{_fmt(r.ci_low, verdict.as_pct)}, {_fmt(r.ci_high, verdict.as_pct)}]"
        )
        win = f" ({win_pct_text(r.est, r.ci_low, r.ci_high)})" if in_win_pct(verdict) else ""
        n = "" if pd.isna(r.n) else f", n={int(r.n)}"
        return f"**{r.figure}** {_fmt(r.est, verdict.as_pct)}{ci}{win}{n}"

    best, worst = next(top.itertuples()), list(top.itertuples())[-1]
    unit = f"{verdict.measure}, 95% CI" + ("; win % against the average" if in_win_pct(verdict) else "")
    if len(top) == 1:
        return f"Under {group}: {one(best)} ({unit})."
    if holds_reference(verdict, best) and holds_reference(verdict, worst):
        return (
            f"Under {group}, no figure can be told from the average yet (every 95% interval holds "
            f"{_fmt(verdict.reference, verdict.as_pct).lstrip('+')}): highest {one(best)}, lowest {one(worst)} "
            f"({unit}). More deals would tell."
        )
    return f"Under {group}, strongest {one(best)}, weakest {one(worst)} ({unit})."


def summary(verdict: Verdict, header: Sequence[str], warnings: Sequence[str] = ()) -> list[str]:
    """At most :data:`MAX_SUMMARY` lines: how much data, the study's findings, who is strongest,
    whether the tiers settled, and the first warning (unvalidated AIs, errors)."""
    head = list(header[:1])
    conv = [] if verdict.empty else [convergence_line(verdict)]
    warn = list(warnings)[:1]
    said = not verdict.empty and bool(headline_lines(verdict))  # the answer names them already
    extreme = [] if verdict.empty or said else [line for line in (extremes_line(verdict),) if line]
    room = MAX_SUMMARY - len(head) - len(conv) - len(warn)
    return head + (list(verdict.lines[:2]) + extreme)[: max(room, 0)] + conv + warn


def answer_lines(verdict: Verdict) -> list[str]:
    """A study's headline answer from its picture: under the strongest validated AI played, then one
    clause on the next AI down (:func:`krosbalance.analysis.headline.headline_lines`); a picture
    whose rows pool several AIs each: the strongest and weakest figure under the strongest tier,
    then the study's first finding."""
    found = headline_lines(verdict)
    if found:
        return found
    extremes = extremes_line(verdict).replace("**", "") if not verdict.empty else ""
    return [line for line in (extremes, *verdict.lines[:1]) if line][:2]


# ----------------------------------------------------------------------------- character strength


def character_verdict(matches: pd.DataFrame, lines: list[str] | None = None) -> Verdict:
    """The character-strength study: each character's teammate-adjusted strength per AI, fitted on
    the matches where both sides had that AI (the headline reads the strongest AI's rows), or pooled
    over every match when no matchup had the same AI on both sides."""
    ok = stats.ok_matches(matches) if len(matches) else matches
    grouped = with_groups(ok) if len(ok) else ok
    same = grouped[grouped["symmetric"]] if len(grouped) else grouped
    parts: list[tuple[str, str, str, pd.DataFrame]] = []
    ais = same[["ai0", "tier"]].astype(str).drop_duplicates().itertuples(index=False) if len(same) else ()
    for ai, tier in sorted(ais, key=lambda a: (_tier_rank(a[1]), a[0])):
        sub = same[same["ai0"].astype(str) == ai]
        parts.append((tier, group_label(ai, tier), ai, character_strengths(adjusted_strength(sub))))
    caption = (
        "Teammate-adjusted strength: a logistic model of P(side 0 wins) with one log-odds effect per "
        "character (0 = the average character), fitted per AI on the matches where both sides had that "
        "AI, deal-clustered 95% intervals, n = decided matches the character played in."
    )
    if not any(len(p[3]) for p in parts) and len(ok):
        parts = [("pooled", "pooled (every AI)", "", character_strengths(adjusted_strength(ok)))]
        caption = (
            "Teammate-adjusted strength pooled over every AI and board (no matchup had the same AI on both "
            "sides): log-odds against the average character, 95% intervals, n = decided matches played in."
        )
    rows = [
        {
            "figure": display_name(str(r.term)),
            "group": group,
            "tier": tier,
            "est": r.coef,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": ai,
        }
        for tier, group, ai, s in parts
        if len(s)
        for r in s.itertuples(index=False)
    ]
    return Verdict(
        "character strength",
        "teammate-adjusted strength (log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        list(lines or []),
        caption,
    )


__all__ = [
    "COLUMNS",
    "MOVING",
    "NO_INTERVAL",
    "ONE_TIER",
    "SETTLED",
    "UNDECIDED",
    "Verdict",
    "answer_lines",
    "character_verdict",
    "compared",
    "one_ai",
    "sole_ai",
    "extremes_line",
    "holds_reference",
    "in_win_pct",
    "convergence",
    "convergence_line",
    "group_label",
    "strongest_tiers",
    "summary",
    "verdict_frame",
]
