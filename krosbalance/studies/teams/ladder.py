"""The team ladder: every rated team's strength against the field, per AI tier, with deal-clustered
intervals.

* **Deal score** -- a deal is one seed played with sides swapped (paired seeds): the team's score in
  it is the share of its matches it won (draws half). Deals are independent, so the **field win
  rate** of a team (the mean of its deal scores against opponents drawn uniformly from the field,
  the adaptive design's stages) gets a normal interval over deals: ``mean +- z sd / sqrt(n)``.
* **Ratings** -- a Bradley-Terry model fitted as a logistic regression on every decided match of a
  tier, ``logit P(side 0 wins) = a + b * first_0 + r_team0 - r_team1``, ratings summing to zero
  over the rated teams (0 = the average rated team), penalised (:data:`RIDGE`: the adaptive design
  leaves most teams with few deals) with deal-clustered sandwich intervals: the engine
  of the AI ladder and the character strength (:func:`krosbalance.analysis.strength.fit_effects`).
  It uses every stage (the field stages and the round robins of the top teams): which teams met
  depends only on earlier results, which a likelihood fit may ignore.

The adaptive design's bookkeeping and its synthetic check are :mod:`krosbalance.studies.teams.design_check`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.analysis.dependence import TIER_ORDER, ai_tier
from krosbalance.analysis.names import short_name
from krosbalance.analysis.shared_attrs import SharedFrames
from krosbalance.analysis.strength import FIRST_TERM, SIDE_TERM, fit_effects
from krosbalance.analysis.verdict import sole_ai
from krosbalance.sim.runner import read_table
from krosbalance.sim.tables import UNKNOWN_TIER

Team = tuple[str, ...]
RIDGE = 1.0
"""The ratings' L2 penalty: a normal prior of sd 1 on each rating (log-odds), so that a team dropped
after a few deals is not ranked on its luck; the intervals stay deal-clustered sandwiches."""
FIELD_STAGE_PREFIX = ("halving-", "lucb-")
"""Stages whose team A faced opponents drawn uniformly from the field (their field win rates)."""


def team_key(team: Sequence[str]) -> str:
    return ",".join(team)


def team_label(key: str) -> str:
    """A short, readable name of a team (its figures' short names, copies counted)."""
    from collections import Counter

    parts = [f"{n}x {short_name(c)}" if n > 1 else short_name(c) for c, n in Counter(key.split(",")).items()]
    return " + ".join(parts)


SPLIT_TIERS = ("search",)
"""Tiers rated per AI when several of their AIs played: a search stage with the next AI down
``beside`` the strongest rates the teams once per AI, named by the AI, so that the answer can say
whether the two agree. The heuristic tier pools its AIs (the race's design)."""


def tiers_of(ais: pd.Series) -> np.ndarray:
    """The rating group of each row's AI: its AI tier, or the AI's own name for an AI of a
    :data:`SPLIT_TIERS` tier that other AIs of the tier played beside (the registry asked once per
    AI)."""
    names = ais.astype(str)
    unique = [str(a) for a in pd.unique(names)]
    group = {a: ai_tier(a) for a in unique}
    for tier in SPLIT_TIERS:
        members = [a for a in unique if group[a] == tier]
        if len(members) > 1:
            group.update({a: a for a in members})
    return names.map(group).to_numpy()


def group_ai(matches: pd.DataFrame, group: str) -> str:
    """The one AI behind a rating group: the group itself when it names an AI (a split tier), else
    the tier's sole AI ('' when the tier pools several)."""
    if matches is not None and not matches.empty and group in set(matches["ai0"].astype(str)):
        return group
    return sole_ai(matches, group)


def group_title(group: str) -> str:
    """How text names a rating group: ``heuristic tier`` for a tier, the AI's name for a group that
    is one AI of a split tier."""
    return f"{group} tier" if group in TIER_ORDER or group == UNKNOWN_TIER else group


# ------------------------------------------------------------------------------------- deal scores


def deal_scores(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per deal: stage, pairing, deal, tier, team_a, team_b, score_a (team A's share of the
    deal's matches won, draws half), n (its matches)."""
    m = stats.ok_matches(matches)
    cols = ["stage", "pairing", "deal", "tier", "team_a", "team_b", "score_a", "n"]
    if m.empty:
        return pd.DataFrame(columns=cols)
    winner = m["winner_team"].fillna("").astype(str)
    score = np.where(winner == "A", 1.0, np.where(winner == "B", 0.0, 0.5))
    df = pd.DataFrame(
        {
            "stage": m["stage"].astype(str) if "stage" in m.columns else "",
            "pairing": m["pairing"].to_numpy(),
            "deal": m["deal"].to_numpy(),
            "tier": tiers_of(m["ai0"]),
            "team_a": m["team_a"].astype(str).to_numpy(),
            "team_b": m["team_b"].astype(str).to_numpy(),
            "score_a": score,
        }
    )
    out = df.groupby(["stage", "pairing", "deal", "tier", "team_a", "team_b"], sort=False).agg(
        score_a=("score_a", "mean"), n=("score_a", "size")
    )
    return out.reset_index()[cols]


def stage_scores(finished: Sequence[Any]) -> dict[Team, tuple[float, float]]:
    """(mean deal score, deals) of every team over the finished stages: in a field stage only the
    rated team (team A: its opponent was drawn from the field, not chosen); in a round robin both."""
    totals: dict[str, list[float]] = {}
    for stage in finished:
        label = stage.experiment.name
        if label == "search" or label.startswith("swap-"):
            continue  # another tier, or another question
        deals = deal_scores(read_table(stage.folder, "matches").assign(stage=label))
        for key, s in zip(deals["team_a"], deals["score_a"], strict=True):
            totals.setdefault(key, []).append(float(s))
        if not label.startswith(FIELD_STAGE_PREFIX):
            for key, s in zip(deals["team_b"], deals["score_a"], strict=True):
                totals.setdefault(key, []).append(1.0 - float(s))
    return {tuple(k.split(",")): (float(np.mean(v)), float(len(v))) for k, v in totals.items()}


def pairing_samples(
    finished: Sequence[Any],
    teams: Sequence[Team],
    cache: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The race's samples after the ``finished`` stages (see :func:`pairing_samples_of`), summed
    stage by stage; ``cache`` (folder -> a stage's sums and counts) spares re-reading a finished
    stage, which never changes, at every later stage."""
    sums, counts = np.zeros(len(teams)), np.zeros(len(teams))
    for stage in finished:
        key = str(stage.folder)
        if cache is None or key not in cache:
            m = read_table(stage.folder, "matches").assign(stage=stage.experiment.name)
            found = pairing_samples_of(m, teams)
            if cache is None:
                sums, counts = sums + found[0], counts + found[1]
                continue
            cache[key] = found
        sums, counts = sums + cache[key][0], counts + cache[key][1]
    return sums, counts


def pairing_samples_of(matches: pd.DataFrame, teams: Sequence[Team]) -> tuple[np.ndarray, np.ndarray]:
    """The race's samples (:mod:`krosbalance.sim.topk`): for each of ``teams``, the sum over its
    field pairings (team A against a drawn opponent; one stage's pairing) of the pairing's score
    (the share of its matches won, every AI and seating, draws half), and the number of them."""
    sums, counts = np.zeros(len(teams)), np.zeros(len(teams))
    if matches.empty:
        return sums, counts
    d = deal_scores(matches)
    if d.empty:
        return sums, counts
    d = d.assign(points=d["score_a"] * d["n"])
    g = d.groupby(["stage", "pairing", "team_a"], sort=False)[["points", "n"]].sum().reset_index()
    g = g[g["n"] > 0]
    index = {team_key(t): i for i, t in enumerate(teams)}
    rows = g["team_a"].astype(str).map(index)
    keep = rows.notna().to_numpy()
    rows = rows[keep].astype(int).to_numpy()
    np.add.at(sums, rows, (g["points"] / g["n"]).to_numpy(float)[keep])
    np.add.at(counts, rows, 1.0)
    return sums, counts


def field_win_rates(matches: pd.DataFrame, alpha: float = stats.ALPHA) -> pd.DataFrame:
    """Per tier and team: its win rate against the field (field stages only), n deals, interval."""
    d = deal_scores(matches)
    d = d[d["stage"].astype(str).str.startswith(FIELD_STAGE_PREFIX)]
    cols = ["tier", "team", "field_win_rate", "ci_low", "ci_high", "n_deals"]
    if d.empty:
        return pd.DataFrame(columns=cols)
    z = float(sps.norm.ppf(1 - alpha / 2))
    g = d.groupby(["tier", "team_a"])["score_a"].agg(["mean", "std", "size"]).reset_index()
    half = z * g["std"].fillna(0.5).clip(lower=0.5 / np.sqrt(g["size"])) / np.sqrt(g["size"])  # never 0-wide
    return pd.DataFrame(
        {
            "tier": g["tier"],
            "team": g["team_a"],
            "field_win_rate": g["mean"],
            "ci_low": (g["mean"] - half).clip(0, 1),
            "ci_high": (g["mean"] + half).clip(0, 1),
            "n_deals": g["size"].astype("int64"),
        }
    )[cols]


# ------------------------------------------------------------------------------------------ ratings


def team_ratings(matches: pd.DataFrame, alpha: float = stats.ALPHA) -> pd.DataFrame:
    """Bradley-Terry rating of every team, per AI tier (see the module docstring).

    Returns:
        tier, rank, team, label, rating, se, ci_low, ci_high, n (decided matches), method, interval;
        sorted by tier then rating. Each tier's rating covariance is in ``attrs["cov"][tier]``.
    """
    m = stats.ok_matches(matches)
    m = m[stats.winner_series(m).notna().to_numpy()] if len(m) else m
    cols = ["tier", "rank", "team", "label", "rating", "se", "ci_low", "ci_high", "n", "method", "interval"]
    out: list[pd.DataFrame] = []
    covs: dict[str, pd.DataFrame] = {}
    if m.empty:
        empty = pd.DataFrame(columns=cols)
        empty.attrs["cov"] = SharedFrames(covs)
        return empty
    tiers = tiers_of(m["ai0"])
    for tier in sorted(set(tiers)):
        t = m[tiers == tier]
        fit = _fit(t, alpha)
        if fit is None:
            continue
        table, cov = fit
        table.insert(0, "tier", tier)
        out.append(table)
        covs[tier] = cov
    result = pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)
    result.attrs["cov"] = SharedFrames(covs)
    return result


def _fit(m: pd.DataFrame, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    t0, t1 = m["team0"].astype(str).to_numpy(), m["team1"].astype(str).to_numpy()
    teams = sorted(set(t0) | set(t1))
    if len(teams) < 2:
        return None
    col = {t: i for i, t in enumerate(teams)}
    x = np.zeros((len(m), len(teams)))
    rows = np.arange(len(m))
    np.add.at(x, (rows, [col[t] for t in t0]), 1.0)
    np.add.at(x, (rows, [col[t] for t in t1]), -1.0)
    y = (stats.winner_series(m) == 0).to_numpy(dtype=float)
    cov = pd.DataFrame({SIDE_TERM: np.ones(len(m))})
    first = np.where(m["first_player"].to_numpy() == 0, 1.0, -1.0)
    if len(np.unique(first)) > 1:
        cov[FIRST_TERM] = first
    keys = m["stage"].astype(str) if "stage" in m.columns else pd.Series("", index=m.index)
    g = pd.MultiIndex.from_arrays(
        [keys, m["pairing"].astype("int64"), m["deal"].astype("int64")]
    ).factorize()[0]
    played = dict.fromkeys(teams, 0.0)
    for a, b in zip(t0, t1, strict=True):
        played[a] += 1
        played[b] += 1
    fit = fit_effects(
        pd.DataFrame(x, columns=teams),
        y,
        cov,
        np.ones(len(m)),
        np.asarray(g),
        played,
        kind="team",
        absent_note="no decided match against another team",
        method="ridge",
        ridge=RIDGE,
        alpha=alpha,
    )
    table = (
        fit[fit["kind"] == "team"].rename(columns={"term": "team", "coef": "rating"}).reset_index(drop=True)
    )
    table["label"] = [team_label(t) for t in table["team"]]
    table["rank"] = np.arange(1, len(table) + 1)
    terms, values = fit.attrs["character_cov"]
    return table, pd.DataFrame(np.array(values, dtype=float), index=list(terms), columns=list(terms))


def rating_difference(
    ratings: pd.DataFrame, tier: str, a: str, b: str, alpha: float = stats.ALPHA
) -> tuple[float, float, float]:
    """Rating of ``a`` minus ``b`` in one tier, with its interval (from the fit's covariance)."""
    r = ratings[ratings["tier"] == tier].set_index("team")["rating"]
    cov = ratings.attrs.get("cov", {}).get(tier)
    diff = float(r.get(a, np.nan) - r.get(b, np.nan))
    if a == b:
        return 0.0, 0.0, 0.0
    if cov is None or a not in cov.index or b not in cov.index:
        return diff, math.nan, math.nan
    var = float(cov.loc[a, a] + cov.loc[b, b] - 2 * cov.loc[a, b])
    half = float(sps.norm.ppf(1 - alpha / 2)) * math.sqrt(max(var, 0.0))
    return diff, diff - half, diff + half
