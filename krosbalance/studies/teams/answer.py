"""The team study's headline answer: the best team the user's collection can field (a collection
study), else the ladder's best team, with its rating, the win % it means against the average team,
its 95% interval, n and the AIs that rated it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import _tier_rank
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.sections import folder_is
from krosbalance.analysis.wording import played_by, win_pct_text
from krosbalance.studies.teams import TeamsStudy
from krosbalance.studies.teams.ladder import team_label, tiers_of
from krosbalance.studies.teams.section import team_study


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


def team_answer(rs: Any) -> list[str] | None:
    """The team study's answer (None when ``rs`` is no team study)."""
    if not folder_is(rs, TeamsStudy.name):
        return None
    study = team_study(rs)
    ratings = study.ratings[study.ratings["rating"].notna()] if len(study.ratings) else study.ratings
    if ratings.empty:
        return ["No team could be rated yet."]
    tiers = sorted(set(ratings["tier"].astype(str)), key=_tier_rank, reverse=True)
    mine = [t for t in tiers if t in study.collection and study.collection[t]["rating"].notna().any()]
    if mine:  # a collection study: the best team the collection can field, in the strongest tier
        tier = mine[0]
        col = study.collection[tier].dropna(subset=["rating"])
        best = next(col.itertuples())
        rated = int(ratings[ratings["tier"] == tier]["team"].nunique())
        lines = [
            f"The best team your collection can field: {_rated(best)}, ladder rank {int(best.rank)} of "
            f"{rated} ({tier} tier, rated by {played_by(_tier_matches(rs, tier), tier)}; 95% CI)."
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
    return [
        f"The ladder's best team: {_rated(best)}, first of {top['team'].nunique()} rated ({tier} tier, "
        f"rated by {played_by(_tier_matches(rs, tier), tier)}; 95% CI)."
    ]


__all__ = ["team_answer"]
