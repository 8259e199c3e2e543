"""The team ladder's verdict picture: its top teams' Bradley-Terry rating per AI tier
(:mod:`krosbalance.analysis.verdict`), from the same study its section draws."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.sections import folder_is
from krosbalance.analysis.verdict import Verdict, verdict_frame
from krosbalance.studies.teams import section as team_section
from krosbalance.studies.teams.ladder import group_ai, group_title


def team_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """The team study's folder (its recorded study): the ladder's top teams, their Bradley-Terry
    rating per AI tier."""
    if not folder_is(rs, team_section.STUDY):
        return None
    study = team_section.team_study(rs)
    ratings = study.ratings.copy()
    ratings.attrs = {}  # the per-tier covariance frames stored there would break pandas' concatenation
    ratings = ratings[ratings["rating"].notna()] if not ratings.empty else ratings
    if ratings.empty:
        return None
    tiers = list(dict.fromkeys(ratings["tier"].astype(str)))
    lead = "heuristic" if "heuristic" in tiers else tiers[0]
    top = ratings[ratings["tier"] == lead].nlargest(team_section.TOP_SHOWN, "rating")["team"].tolist()
    shown = ratings[ratings["team"].isin(top)]
    ais = {t: group_ai(rs.summary().matches, t) for t in tiers}  # a group played by one AI: its rating
    rows = [
        {
            "figure": str(r.label),
            "group": group_title(str(r.tier)),
            "tier": ai_tier(ais[str(r.tier)]) if ais.get(str(r.tier)) else str(r.tier),
            "est": r.rating,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": ais.get(str(r.tier), ""),
        }
        for r in shown.itertuples(index=False)
    ]
    n_rated = int(ratings[ratings["tier"] == lead]["team"].nunique())
    lines = [
        f"{n_rated} teams rated under the {group_title(lead)}; the top {len(top)} are shown, best first."
    ]
    return Verdict(
        "team ladder",
        "Bradley-Terry rating (log-odds against the average team)",
        verdict_frame(rows),
        0.0,
        False,
        lines,
        "Ridge-penalised Bradley-Terry ratings of every rated team from paired deals, per AI tier, 95% "
        "deal-clustered intervals, n = decided matches. Details in the Teams section.",
        rows="teams",
    )


__all__ = ["team_verdict"]
