"""The team study's headline answer: the best team the user's collection can field (a collection
study), else the ladder's best team, with its rating, the win % it means against the average team,
its 95% interval, n and the AIs that rated it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis import equivalence
from krosbalance.analysis.answers import verdict_ruleset
from krosbalance.analysis.dependence import _tier_rank, ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.sections import folder_is
from krosbalance.analysis.top_ai import top_ais
from krosbalance.analysis.verdict import Z95
from krosbalance.analysis.wording import played_by, win_pct_text
from krosbalance.studies.teams.ladder import group_ai, group_title, team_label, tiers_of
from krosbalance.studies.teams.section import STUDY, team_study


def _rated(row: Any) -> str:
    n = "" if pd.isna(row.n) else f", n={int(row.n)}"
    noise = (
        " (its interval holds 0: not told from the average team yet)"
        if pd.isna(row.ci_low) or row.ci_low <= 0 <= row.ci_high
        else ""
    )
    return (
        f"{team_label(str(row.team))}, rating {with_ci(row.rating, row.ci_low, row.ci_high)} log-odds "
        f"({win_pct_text(row.rating, row.ci_low, row.ci_high)} against the average team){n}{noise}"
    )


def _tier_matches(rs: Any, tier: str) -> pd.DataFrame:
    m = rs.matches
    return m[tiers_of(m["ai0"]) == tier] if len(m) else m


def tier_order(rs: Any, tiers: list[str]) -> tuple[list[str], dict[str, str]]:
    """The rating groups strongest first, and the AI of each ('' when a tier pools several).

    A group played by one AI is placed by that AI's tier, and groups of the same tier (a search stage
    with the next AI down beside the strongest) by the AI ladder's order
    (:func:`krosbalance.analysis.top_ai.top_ais`): the strongest validated AI's group answers."""
    matches = rs.summary().matches
    ais = {t: group_ai(matches, t) for t in tiers}
    named = {a: t for t, a in ais.items() if a}
    tier_of = {a: ai_tier(a) for a in named}
    top = top_ais(named, verdict_ruleset(rs), tiers=tier_of) if named else None
    strength = {named[a]: i for i, a in enumerate(top.order)} if top is not None else {}
    if len(strength) == len(tiers):  # every group is one AI: the ladder orders them all
        return sorted(tiers, key=strength.__getitem__), ais

    def rank(group: str) -> tuple[int, int]:
        tier = tier_of.get(ais[group], group)
        return (-_tier_rank(tier), strength.get(group, len(strength)))

    return sorted(tiers, key=rank), ais


def _who(tier: str, ais: dict[str, str]) -> str:
    ai = ais.get(tier)
    if not ai:
        return f"the {group_title(tier)}"
    return ai if group_title(tier) == ai else f"{ai} ({group_title(tier)})"


def next_tier_clause(best: Any, ratings: pd.DataFrame, tier: str, following: str, ais: dict[str, str]) -> str:
    """One clause: the next AI down's rating of the best team, and whether the two agree (±0.15
    log-odds), or that only one AI rated teams."""
    if not following:
        return f"Only {_who(tier, ais)} rated the teams: no weaker AI to compare."
    theirs = ratings[(ratings["tier"] == following) & (ratings["team"] == best.team)]
    if theirs.empty or pd.isna(theirs["rating"].iloc[0]):
        return f"Next AI down, {_who(following, ais)}: did not rate {team_label(str(best.team))}."
    other = next(theirs.itertuples(index=False))
    head = f"Next AI down, {_who(following, ais)}: {team_label(str(best.team))} {with_ci(other.rating, other.ci_low, other.ci_high)}"
    if pd.isna(best.ci_low) or pd.isna(other.ci_low):
        return head + "."
    a = equivalence.compare(
        float(best.rating),
        float(best.ci_high - best.ci_low) / (2 * Z95),
        float(other.rating),
        float(other.ci_high - other.ci_low) / (2 * Z95),
        0 if pd.isna(best.n) else int(best.n),
        0 if pd.isna(other.n) else int(other.n),
    )
    if a.verdict == equivalence.SETTLED:
        status = f"settled (the two agree within ±{equivalence.MARGIN:.2f} log-odds)"
    elif a.verdict == equivalence.MOVING:
        status = f"still moving: {_who(tier, ais)} rates it {'higher' if a.direction == 'up' else 'lower'}"
    else:
        more = max(a.more_stronger, a.more_weaker)
        status = "undecided" + (f": about {more:,} more matches under each would tell" if more else "")
    return f"{head} — {status}."


def team_answer(rs: Any) -> list[str] | None:
    """The team study's answer (None when ``rs`` is no team study)."""
    if not folder_is(rs, STUDY):
        return None
    study = team_study(rs)
    ratings = study.ratings[study.ratings["rating"].notna()] if len(study.ratings) else study.ratings
    if ratings.empty:
        return ["No team could be rated yet."]
    tiers, ais = tier_order(rs, sorted(set(ratings["tier"].astype(str))))
    mine = [t for t in tiers if t in study.collection and study.collection[t]["rating"].notna().any()]
    if mine:  # a collection study: the best team the collection can field, in the strongest tier
        tier = mine[0]
        col = study.collection[tier].dropna(subset=["rating"])
        best = next(col.itertuples())
        rated = int(ratings[ratings["tier"] == tier]["team"].nunique())
        lines = [
            f"The best team your collection can field: {_rated(best)}, ladder rank {int(best.rank)} of "
            f"{rated} ({group_title(tier)}, rated by {played_by(_tier_matches(rs, tier))}; 95% CI)."
        ]
        buy = study.buy.get(tier)
        if buy is not None and len(buy) and "gain" in buy.columns:
            top = buy.sort_values("gain", ascending=False).iloc[0]
            lines.append(
                f"Buy next: {display_name(str(top['figure']))} (best team then {team_label(str(top['best_team']))}, rating gain "
                f"{with_ci(top['gain'], top['gain_ci_low'], top['gain_ci_high'])} log-odds, 95% CI)."
            )
        return lines
    tier = tiers[0]
    top = ratings[ratings["tier"] == tier].sort_values("rating", ascending=False)
    best = next(top.itertuples())
    following = tiers[1] if len(tiers) > 1 else ""
    return [
        f"The ladder's best team: {_rated(best)}, first of {top['team'].nunique()} rated ({group_title(tier)}, "
        f"rated by {played_by(_tier_matches(rs, tier))}; 95% CI).",
        next_tier_clause(best, ratings, tier, following, ais),
    ]


__all__ = ["team_answer"]
