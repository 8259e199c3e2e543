"""A user's collection and what-if swaps, from a team study's ratings and matches.

* **Best teams of a collection** -- the legal teams the user can field from the figures owned,
  ranked by their Bradley-Terry rating against the field (one AI tier), with its interval.
* **What to buy next** -- for each figure of the roster (one more copy of an owned figure counts,
  where the team rule allows it): the best team reachable once it is added, and how much that
  raises the best rating, with the interval of that difference (the fit's covariance): the gain of
  a purchase is zero when no better team becomes reachable.
* **What-if swaps** -- team T with figure A replaced by B, both against the same field opponents
  with the same seeds (the study's two swap stages share them): the paired difference of their
  deal scores, with a normal interval over the paired deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis import stats
from krosbalance.studies.teams.ladder import deal_scores, rating_difference, team_key


def _fits(team: str, owned: Counter[str]) -> bool:
    return all(owned[c] >= n for c, n in Counter(team.split(",")).items())


def collection_best(ratings: pd.DataFrame, mine: Sequence[Sequence[str]], tier: str) -> pd.DataFrame:
    """The user's teams in one tier, best first: rank, team, rating, ci_low, ci_high, n."""
    keys = {team_key(t) for t in mine}
    r = ratings[(ratings["tier"] == tier) & ratings["team"].isin(keys)]
    r = r.sort_values("rating", ascending=False, na_position="last").reset_index(drop=True)
    r = r.assign(rank_in_collection=np.arange(1, len(r) + 1))
    return r[["rank_in_collection", "rank", "team", "label", "rating", "ci_low", "ci_high", "n"]]


def buy_next(
    ratings: pd.DataFrame,
    owned: Sequence[str],
    roster: Sequence[str],
    tier: str,
    copies: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """For each figure the user could add: the best reachable team, its rating and the gain over
    today's best (with its interval). ``copies``: how many of a figure a team may hold (default
    2, the white names of R-A147; a figure already owned that many times is not offered)."""
    have = Counter(owned)
    r = ratings[(ratings["tier"] == tier) & ratings["rating"].notna()]
    if r.empty:
        return pd.DataFrame()
    rated = dict(zip(r["team"], r["rating"], strict=True))
    reachable_now = [t for t in rated if _fits(t, have)]
    best_now = max(reachable_now, key=rated.__getitem__) if reachable_now else None
    rows: list[dict[str, Any]] = []
    for figure in roster:
        if have[figure] >= (copies or {}).get(figure, 2):
            continue
        more = have + Counter({figure: 1})
        reachable = [t for t in rated if _fits(t, more)]
        if not reachable:
            continue
        best = max(reachable, key=rated.__getitem__)
        if best_now is None:
            gain, lo, hi = rated[best], np.nan, np.nan
        else:
            gain, lo, hi = rating_difference(ratings, tier, best, best_now)
            if gain <= 0:
                best, gain, lo, hi = best_now, 0.0, 0.0, 0.0
        rows.append(
            {
                "figure": figure,
                "copy": have[figure] + 1,
                "best_team": best,
                "best_rating": rated[best],
                "gain": gain,
                "gain_ci_low": lo,
                "gain_ci_high": hi,
                "new_teams": len(reachable) - len(reachable_now),
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out.attrs["best_now"] = best_now or ""
    return out.sort_values(["gain", "new_teams"], ascending=False).reset_index(drop=True)


def swap_effects(
    matches: pd.DataFrame, swaps: Sequence[Mapping[str, Any]], alpha: float = stats.ALPHA
) -> pd.DataFrame:
    """Per swap and tier: the team's and the swapped team's field win rate over the same deals, the
    paired difference (swapped minus team) and its interval, n paired deals."""
    if "stage_pairing" in matches.columns:  # a staged result set offsets each stage's pairings
        matches = matches.assign(pairing=matches["stage_pairing"])
    d = deal_scores(matches)
    keys = ["tier", "pairing", "deal"]
    base, alt = d[d["stage"] == "swap-base"], d[d["stage"] == "swap-alt"]
    both = base.merge(alt, on=keys, suffixes=("_base", "_alt"), how="inner")
    cols = [
        "tier",
        "team",
        "out",
        "in",
        "swapped",
        "win_rate",
        "swapped_win_rate",
        "delta",
        "ci_low",
        "ci_high",
        "n_deals",
    ]
    rows = []
    for swap in swaps:
        team, swapped = team_key(swap["team"]), team_key(swap["swapped"])
        sub = both[(both["team_a_base"] == team) & (both["team_a_alt"] == swapped)]
        for tier, g in sub.groupby("tier"):
            diff = (g["score_a_alt"] - g["score_a_base"]).to_numpy()
            n = len(diff)
            mean, low, high = stats.bounded_mean_interval(diff, -1.0, 1.0, alpha)  # honest at a few deals
            rows.append(
                {
                    "tier": tier,
                    "team": team,
                    "out": swap["out"],
                    "in": swap["in"],
                    "swapped": swapped,
                    "win_rate": float(g["score_a_base"].mean()),
                    "swapped_win_rate": float(g["score_a_alt"].mean()),
                    "delta": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "n_deals": n,
                }
            )
    return pd.DataFrame(rows, columns=cols)
