"""The meta-game of a team study: who beats whom among the top teams, counters, and the equilibria
of the symmetric team-versus-team game.

* **Win-rate matrix** -- for every two teams that met, the row team's mean deal score against the
  column team (deals are independent, so a normal interval over deals), from the matches of one AI
  tier; the diagonal is 1/2.
* **Nash equilibrium** -- the symmetric zero-sum game whose payoff is ``W - 1/2`` (row's expected
  score above even): its maximin mixture, solved as a linear program by ``scipy.optimize.linprog``
  (HiGHS). The game is symmetric, so the value is 0 and the mixture is an equilibrium strategy of
  both players; its *support* (teams of positive weight) is the meta. Its robustness: the share of
  parametric bootstrap replicates (each cell redrawn from its deals' normal sampling law) in which a
  team is in the support.
* **alpha-Rank** (Omidshafiei et al. 2019, "alpha-Rank: Multi-Agent Evaluation by Evolution"; the
  single-population model of OpenSpiel's ``alpharank``): a Markov chain over the teams in which a
  mutant team ``r`` takes over a population of ``m`` players of ``s`` with the Fermi fixation
  probability ``(1 - e^{-alpha d}) / (1 - e^{-m alpha d})``, ``d = W[r,s] - W[s,r]``; the
  stationary distribution ranks the teams (large ``alpha``: by how they survive invasions).
* **Diversity** -- the effective number of viable teams, ``exp(entropy)`` of the Nash mixture
  (Hill's number of order 1): 1 when one team dominates, k for k teams of equal weight; also of
  the mean bootstrap mixture (a point-estimate equilibrium is often pure where cells are noisy).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import optimize
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.studies.teams.ladder import deal_scores

ALPHA_RANK_ALPHA = 50.0
ALPHA_RANK_POPULATION = 50
SUPPORT_MIN = 1e-6
BOOTSTRAP = 200


def pair_scores(matches: pd.DataFrame, teams: Sequence[str], tier: str) -> pd.DataFrame:
    """Every deal between two of ``teams`` in one tier, from both teams' points of view:
    team, opponent, score (the team's share of the deal's matches won, draws half)."""
    d = deal_scores(matches)
    d = d[(d["tier"] == tier) & d["team_a"].isin(teams) & d["team_b"].isin(teams)]
    d = d[d["team_a"] != d["team_b"]]
    a = pd.DataFrame({"team": d["team_a"], "opponent": d["team_b"], "score": d["score_a"]})
    b = pd.DataFrame({"team": d["team_b"], "opponent": d["team_a"], "score": 1.0 - d["score_a"]})
    return pd.concat([a, b], ignore_index=True)


def win_matrix(
    matches: pd.DataFrame, teams: Sequence[str], tier: str, alpha: float = stats.ALPHA
) -> pd.DataFrame:
    """Long table: team, opponent, win_rate (mean deal score), ci_low, ci_high, n_deals, se."""
    p = pair_scores(matches, teams, tier)
    cols = ["team", "opponent", "win_rate", "ci_low", "ci_high", "n_deals", "se"]
    if p.empty:
        return pd.DataFrame(columns=cols)
    g = p.groupby(["team", "opponent"])["score"].agg(["mean", "std", "size"]).reset_index()
    z = float(sps.norm.ppf(1 - alpha / 2))
    se = g["std"].fillna(0.5).clip(lower=0.5 / np.sqrt(g["size"].clip(lower=1))) / np.sqrt(g["size"])
    return pd.DataFrame(
        {
            "team": g["team"],
            "opponent": g["opponent"],
            "win_rate": g["mean"],
            "ci_low": (g["mean"] - z * se).clip(0, 1),
            "ci_high": (g["mean"] + z * se).clip(0, 1),
            "n_deals": g["size"].astype("int64"),
            "se": se,
        }
    )[cols]


def square(long: pd.DataFrame, teams: Sequence[str], value: str = "win_rate") -> pd.DataFrame:
    """The long matrix as a square frame in ``teams`` order (diagonal 1/2, NaN where teams never met)."""
    sq = long.pivot(index="team", columns="opponent", values=value).reindex(
        index=list(teams), columns=list(teams)
    )
    for t in teams:
        sq.loc[t, t] = 0.5 if value == "win_rate" else 0.0
    return sq


def nash_mixture(w: np.ndarray) -> np.ndarray:
    """The maximin mixture of the symmetric zero-sum game with payoff ``w - 1/2`` (``w[i, j]``: row
    i's expected score against j; cells never played count as even), by linear programming."""
    a = np.nan_to_num(np.asarray(w, dtype=float) - 0.5)
    a = (a - a.T) / 2  # exactly antisymmetric: the two halves of a cell are one estimate
    n = len(a)
    # variables x_1..x_n, v; maximise v: for every column j, sum_i x_i a_ij >= v
    c = np.zeros(n + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    res = optimize.linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(n),
        A_eq=np.hstack([np.ones((1, n)), np.zeros((1, 1))]),
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if not res.success:
        raise RuntimeError(f"the Nash linear program failed: {res.message}")
    x = np.clip(res.x[:n], 0, None)
    return x / x.sum()


def effective_number(p: np.ndarray) -> float:
    """exp(Shannon entropy): the effective number of teams a mixture plays."""
    q = np.asarray(p, dtype=float)
    q = q[q > SUPPORT_MIN]
    q = q / q.sum()
    return float(math.exp(-np.sum(q * np.log(q))))


def _fixation(d: np.ndarray, alpha: float, m: int) -> np.ndarray:
    """Fermi fixation probability of a mutant with payoff advantage ``d`` (numerically stable)."""
    x = alpha * d
    out = np.full(d.shape, 1.0 / m)
    pos = x > 1e-12
    neg = x < -1e-12
    out[pos] = -np.expm1(-x[pos]) / -np.expm1(-m * x[pos])
    y = -x[neg]
    out[neg] = np.exp(y - m * y) * (-np.expm1(-y)) / (-np.expm1(-m * y))
    return out


def alpha_rank(w: np.ndarray, alpha: float = ALPHA_RANK_ALPHA, m: int = ALPHA_RANK_POPULATION) -> np.ndarray:
    """The stationary distribution of single-population alpha-Rank (see the module docstring)."""
    a = np.nan_to_num(np.asarray(w, dtype=float), nan=0.5)
    n = len(a)
    if n == 1:
        return np.ones(1)
    d = a - a.T  # d[r, s]: mutant r's payoff against resident s minus the resident's against r
    rho = _fixation(d, alpha, m)  # rho[r, s]: r fixes in a population of s
    c = rho.T / (n - 1)  # c[s, r]: from s to r
    np.fill_diagonal(c, 0.0)
    np.fill_diagonal(c, 1.0 - c.sum(axis=1))
    lhs = np.vstack([c.T - np.eye(n), np.ones((1, n))])
    rhs = np.concatenate([np.zeros(n), [1.0]])
    pi = np.linalg.lstsq(lhs, rhs, rcond=None)[0]
    pi = np.clip(pi, 0, None)
    return pi / pi.sum()


def meta_game(
    long: pd.DataFrame, teams: Sequence[str], seed: int = 0, bootstrap: int = BOOTSTRAP
) -> pd.DataFrame:
    """Per team: Nash weight, in_support, support_share (bootstrap), alpha_rank mass and rank,
    mean win rate against the other top teams."""
    w = square(long, teams).to_numpy(dtype=float)
    se = square(long, teams, "se").to_numpy(dtype=float)
    x = nash_mixture(w)
    pi = alpha_rank(w)
    rng = np.random.default_rng(seed)
    hits = np.zeros(len(teams))
    mixtures = np.zeros(len(teams))
    upper = np.triu_indices(len(teams), 1)
    for _ in range(bootstrap):
        draw = w.copy()
        noise = rng.normal(0.0, np.nan_to_num(se[upper], nan=0.0))
        draw[upper] = np.clip(w[upper] + noise, 0, 1)
        draw.T[upper] = 1 - draw[upper]
        mixture = nash_mixture(draw)
        hits += mixture > SUPPORT_MIN
        mixtures += mixture
    mean_vs_top = np.nanmean(np.where(np.eye(len(teams), dtype=bool), np.nan, w), axis=1)
    out = pd.DataFrame(
        {
            "team": list(teams),
            "nash_weight": x,
            "in_support": x > SUPPORT_MIN,
            "support_share": hits / max(bootstrap, 1),
            "alpha_rank_mass": pi,
            "mean_vs_top": mean_vs_top,
        }
    )
    out["alpha_rank"] = out["alpha_rank_mass"].rank(ascending=False, method="min").astype("int64")
    out.attrs["effective_teams_nash"] = effective_number(x)
    out.attrs["effective_teams_alpha_rank"] = effective_number(pi)
    out.attrs["bootstrap"] = bootstrap
    # the point estimate's mixture is often pure where cells are noisy: the mean bootstrap mixture's
    # effective number says how many teams the meta plays once that noise is averaged
    out.attrs["effective_teams_bootstrap"] = (
        effective_number(mixtures / max(bootstrap, 1)) if bootstrap else np.nan
    )
    return out.sort_values(["nash_weight", "alpha_rank_mass"], ascending=False).reset_index(drop=True)


def counters(
    matches: pd.DataFrame, team: str, tier: str, alpha: float = stats.ALPHA, min_deals: int = 2
) -> pd.DataFrame:
    """The teams that beat ``team`` most (every stage of the tier): opponent, their win rate
    against it [interval over deals], n_deals; best counter first, only opponents met ``min_deals``
    times or more."""
    d = deal_scores(matches)
    d = d[(d["tier"] == tier) & ((d["team_a"] == team) ^ (d["team_b"] == team))]
    opp = np.where(d["team_a"] == team, d["team_b"], d["team_a"])
    score = np.where(d["team_a"] == team, 1.0 - d["score_a"], d["score_a"])
    p = pd.DataFrame({"opponent": opp, "score": score})
    cols = ["opponent", "win_rate", "ci_low", "ci_high", "n_deals"]
    if p.empty:
        return pd.DataFrame(columns=cols)
    g = p.groupby("opponent")["score"].agg(["mean", "std", "size"]).reset_index()
    g = g[g["size"] >= min_deals]
    z = float(sps.norm.ppf(1 - alpha / 2))
    se = g["std"].fillna(0.5).clip(lower=0.5 / np.sqrt(g["size"])) / np.sqrt(g["size"])
    out = pd.DataFrame(
        {
            "opponent": g["opponent"],
            "win_rate": g["mean"],
            "ci_low": (g["mean"] - z * se).clip(0, 1),
            "ci_high": (g["mean"] + z * se).clip(0, 1),
            "n_deals": g["size"].astype("int64"),
        }
    )
    return out.sort_values(["win_rate", "n_deals"], ascending=False).reset_index(drop=True)[cols]
