"""The team ladder: every rated team's strength against the field, per AI tier, with deal-clustered
intervals; and the adaptive design's bookkeeping (matches used, the synthetic-field check).

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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.strength import FIRST_TERM, SIDE_TERM, fit_effects

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

    from krosbalance.analysis.names import short_name

    parts = [f"{n}x {short_name(c)}" if n > 1 else short_name(c) for c, n in Counter(key.split(",")).items()]
    return " + ".join(parts)


def tiers_of(ais: pd.Series) -> np.ndarray:
    """The AI tier of each row's AI (the registry asked once per AI)."""
    names = ais.astype(str)
    tier = {a: ai_tier(a) for a in pd.unique(names)}
    return names.map(tier).to_numpy()


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
    from krosbalance.sim.runner import read_table

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
    from krosbalance.sim.runner import read_table

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
        empty.attrs["cov"] = covs
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
    result.attrs["cov"] = covs
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


# --------------------------------------------------------------------------- the adaptive design


def matches_saved(n_teams: int, per_pair: int, survivor_pairs: int, used: int) -> dict[str, int]:
    """The adaptive design's matches against the full round robin (every pair of teams once per
    AI matchup and seating) and against a one-stage field design that gives every team as many
    field opponents as the survivors got (``survivor_pairs``)."""
    full = n_teams * (n_teams - 1) // 2 * per_pair
    same_precision = n_teams * survivor_pairs * per_pair
    return {
        "used": used,
        "full_round_robin": full,
        "same_precision_field": same_precision,
        "saved_vs_round_robin": full - used,
        "saved_vs_field": same_precision - used,
    }


def synthetic_halving(
    strengths: Sequence[float],
    *,
    top_k: int,
    opponents: int,
    keep: float,
    min_teams: int,
    seed: int,
) -> dict[str, Any]:
    """The adaptive design on a synthetic field of known strengths (Bradley-Terry: team i beats j
    with probability ``1 / (1 + exp(s_j - s_i))``; a deal is two matches, scored as the runner's).

    Uses the planner's own rules (:func:`krosbalance.studies.teams.planner.halving_sizes`, ``rank_teams``)
    with the same opponent draws; returns the recovered top ``top_k`` (indices), the true one, the
    deals used and those of the full round robin (every pair one deal)."""
    from krosbalance.studies.teams.planner import halving_sizes, rank_teams

    s = np.asarray(strengths, dtype=float)
    n = len(s)
    rng = np.random.default_rng(seed)
    sizes = halving_sizes(n, keep, min_teams)
    active: list[Team] = [(str(i),) for i in range(n)]
    totals: dict[Team, list[float]] = {}
    deals = 0
    for r, size in enumerate(sizes):
        active = rank_teams(active, {t: (float(np.mean(v)), float(len(v))) for t, v in totals.items()})[:size]
        k = opponents * 2**r
        for team in active:
            i = int(team[0])
            opp = rng.integers(n, size=k)
            p = 1.0 / (1.0 + np.exp(s[opp] - s[i]))
            wins = rng.random((k, 2)) < p[:, None]
            totals.setdefault(team, []).extend(wins.mean(axis=1).tolist())
            deals += k
    scores = {t: (float(np.mean(v)), float(len(v))) for t, v in totals.items()}
    ranked = rank_teams(active, scores)
    found = sorted(int(t[0]) for t in ranked[:top_k])
    truth = sorted(int(i) for i in np.argsort(-s, kind="stable")[:top_k])
    return {
        "found": found,
        "truth": truth,
        "recovered": len(set(found) & set(truth)),
        "deals": deals,
        "round_robin_deals": n * (n - 1) // 2,
        "same_precision_deals": n * sum(opponents * 2**r for r in range(len(sizes))),
    }


# ------------------------------------------------- the lucb design on synthetic fields (numpy)


def field_scores(strengths: Sequence[float], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A Bradley-Terry field of known strengths, its teams in an order shuffled by ``seed`` (ties
    are broken by index: a field listed best first would leak the truth): ``p[i, j]``, team i's
    chance to win a match against j, ``1 / (1 + exp(s_j - s_i))``; and ``mu[i]``, its true score
    against the field (the mean over j drawn uniformly, itself included, as the planner draws)."""
    s = np.asarray(strengths, dtype=float)
    s = s[np.random.default_rng([seed, 7]).permutation(len(s))]
    p = 1.0 / (1.0 + np.exp(s[None, :] - s[:, None]))
    return p, p.mean(axis=1)


def _judge(mu: np.ndarray, found: np.ndarray, k: int, epsilon: float) -> dict[str, Any]:
    kth = float(np.sort(mu)[::-1][k - 1])
    truth = set(ranking_of(mu)[:k].tolist())
    return {
        "found": sorted(int(i) for i in found),
        "eps_correct": bool(mu[found].min() >= kth - epsilon - 1e-12),
        "exact": set(int(i) for i in found) == truth,
    }


def ranking_of(values: np.ndarray) -> np.ndarray:
    from krosbalance.sim.topk import ranking

    return ranking(values)


def synthetic_lucb(
    strengths: Sequence[float],
    *,
    top_k: int,
    epsilon: float,
    delta: float,
    batch: int,
    opponents: int,
    per_pairing: int,
    budget: int | None,
    seed: int,
    max_samples: int = 5_000_000,
    max_stages: int | None = None,
) -> dict[str, Any]:
    """The lucb design on a synthetic field (:func:`field_scores`), by the planner's own rules
    (:func:`krosbalance.sim.topk.race_step`, ``stage_opponents``, the same budget cut): a sample is
    one pairing of ``per_pairing`` matches against an opponent drawn uniformly from the field, scored
    as the share won. ``budget`` in matches (None: race until certified, at most ``max_samples``);
    at most ``max_stages`` stages (default: the planner's cap, :func:`max_race_stages`; the
    certified runs lift it, as a runner without the cap would).

    Returns the recovered top k, whether it is epsilon-correct and exact, the matches used, the
    stages, whether the race stopped certified, and the epsilon it reached."""
    from krosbalance.sim.topk import race_step, stage_opponents
    from krosbalance.studies.teams.planner import max_race_stages

    p, mu = field_scores(strengths, seed)
    n = len(mu)
    rng = np.random.default_rng(seed)
    sums, counts = np.zeros(n), np.zeros(n)

    def play(teams: np.ndarray, reps: np.ndarray) -> None:
        rows = np.repeat(teams, reps)
        opp = rng.integers(n, size=len(rows))
        score = rng.binomial(per_pairing, p[rows, opp]) / per_pairing
        np.add.at(sums, rows, score)
        np.add.at(counts, rows, 1.0)

    play(np.arange(n), np.full(n, opponents))
    stages = 1
    limit = max_samples * per_pairing if budget is None else budget
    cap = max_race_stages() if max_stages is None else max_stages
    while True:
        step = race_step(sums, counts, k=top_k, epsilon=epsilon, delta=delta, batch=batch)
        if step.stop or stages >= cap:
            break
        left = limit - int(counts.sum()) * per_pairing
        teams, reps = [], []
        for i, o in zip(step.sample, stage_opponents(counts, step.sample, opponents), strict=True):
            if o * per_pairing <= left:
                teams.append(i)
                reps.append(o)
                left -= o * per_pairing
        if not teams:
            break
        play(np.asarray(teams), np.asarray(reps))
        stages += 1
    out = _judge(mu, np.asarray(step.top), top_k, epsilon)
    return out | {
        "matches": int(counts.sum()) * per_pairing,
        "stages": stages,
        "certified": step.stop,
        "reached_epsilon": step.reached_epsilon,
    }


def synthetic_uniform(
    strengths: Sequence[float],
    *,
    per_team: int,
    top_k: int,
    epsilon: float,
    delta: float,
    per_pairing: int,
    seed: int,
) -> dict[str, Any]:
    """The uniform design on the same synthetic field: every team ``per_team`` field opponents, the
    top k by mean score; ``certified``: whether the lucb bounds would certify it (the same epsilon,
    delta)."""
    from krosbalance.sim.topk import race_step

    p, mu = field_scores(strengths, seed)
    n = len(mu)
    rng = np.random.default_rng(seed)
    opp = rng.integers(n, size=(n, per_team))
    score = rng.binomial(per_pairing, p[np.arange(n)[:, None], opp]) / per_pairing
    sums, counts = score.sum(axis=1), np.full(n, float(per_team))
    step = race_step(sums, counts, k=top_k, epsilon=epsilon, delta=delta, batch=1)
    return _judge(mu, np.asarray(step.top), top_k, epsilon) | {
        "matches": n * per_team * per_pairing,
        "certified": step.stop,
    }


UNIFORM_SEED = 1_000_000
"""The uniform design's replicates use seeds from here (independent of the adaptive design's)."""


def smallest_uniform(
    strengths: Sequence[float],
    target: float,
    criterion: str,
    *,
    replicates: int,
    max_per_team: int = 1 << 16,
    **design: Any,
) -> dict[str, Any]:
    """The smallest per-team count whose uniform design reaches ``target`` (a rate over
    ``replicates`` seeded fields) on ``criterion`` ("eps_correct", "exact" or "certified"):
    doubling, then bisection. Returns per_team, matches, rate (None if ``max_per_team`` fails)."""

    def rate(m: int) -> float:
        runs = [
            synthetic_uniform(strengths, per_team=m, seed=UNIFORM_SEED + r, **design)
            for r in range(replicates)
        ]
        return float(np.mean([x[criterion] for x in runs]))

    n = len(strengths)
    lo, hi = 0, 1
    while rate(hi) < target:
        lo, hi = hi, hi * 2
        if hi > max_per_team:
            return {"per_team": None, "matches": None, "rate": None}
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rate(mid) >= target:
            hi = mid
        else:
            lo = mid
    return {"per_team": hi, "matches": n * hi * design["per_pairing"], "rate": rate(hi)}


def synthetic_round_robin(
    strengths: Sequence[float], *, top_k: int, delta: float, per_pairing: int, seed: int
) -> dict[str, Any]:
    """The full round robin on the same synthetic field (every pair of teams ``per_pairing``
    matches) and the epsilon its own Chernoff bounds certify the top k at, confidence 1 - delta: a
    fixed design, so the union runs over the teams only, beta = ln(2 n / delta), on each team's
    (n - 1) x per_pairing matches (their mean: its score against the rest of the field)."""
    from krosbalance.sim.topk import kl_bounds, ranking

    p, mu = field_scores(strengths, seed)
    n = len(mu)
    rng = np.random.default_rng(seed)
    upper = np.triu(rng.binomial(per_pairing, p), 1)
    wins = upper.sum(axis=1) + np.triu(per_pairing - upper, 1).sum(axis=0)  # j > i: j's wins against i
    counts = np.full(n, float((n - 1) * per_pairing))
    lower, up = kl_bounds(wins / counts, counts, np.full(n, math.log(2 * n / delta)))
    order = ranking(wins / counts)
    top, rest = order[:top_k], order[top_k:]
    return _judge(mu, top, top_k, 0.0) | {
        "matches": n * (n - 1) // 2 * per_pairing,
        "certified_epsilon": float(up[rest].max() - lower[top].min()),
    }


SYNTHETIC_REPLICATES = 20
"""Seeded synthetic fields per check at the study's budget (the uniform design: twice as many)."""
CERTIFIED_REPLICATES = 5
"""Seeded fields per race run to its stopping rule (each up to a million matches of numpy)."""
SEPARATION = 1.0
"""The separated field: the study's strengths with the top k raised by this many log-odds."""


def lucb_check(strengths: Sequence[float], settings: dict[str, Any], per_pairing: int) -> dict[str, Any]:
    """The lucb design's synthetic-field check (the report's and the tests'): on the field whose
    known strengths are ``strengths`` and on a separated one (the top k raised by
    :data:`SEPARATION`), with the study's epsilon, delta, batch, opponents and budget:

    * at the budget: the race's epsilon-correct and exact top-k rates and matches, and the smallest
      uniform design (every team the same number of field opponents) reaching the same rate
      (epsilon-correct on the study's field, exact on the separated one), its matches, the saving;
    * run to its stopping rule (certified): matches, rates; on the separated field against the
      smallest uniform design the same bounds certify; on the study's field against the full
      round robin: the epsilon the round robin certifies, and the race's matches to certify it."""
    k = int(settings["top_k"])
    race = {
        "top_k": k,
        "epsilon": float(settings["epsilon"]),
        "delta": float(settings["delta"]),
        "batch": int(settings["batch"]),
        "opponents": int(settings["opponents"]),
        "per_pairing": per_pairing,
    }
    uniform = {x: race[x] for x in ("top_k", "epsilon", "delta", "per_pairing")}
    s = np.sort(np.asarray(strengths, dtype=float))[::-1]
    separated = s.copy()
    separated[:k] += SEPARATION
    _, mu = field_scores(separated, 0)
    top = np.sort(mu)[::-1]
    out: dict[str, Any] = {"settings": race, "budget": int(settings["budget"]), "n_teams": len(s)}
    for name, field, criterion in (("study", s, "eps_correct"), ("separated", separated, "exact")):
        runs = [
            synthetic_lucb(field, budget=out["budget"], seed=r, **race) for r in range(SYNTHETIC_REPLICATES)
        ]
        rate = float(np.mean([x[criterion] for x in runs]))
        same = (
            smallest_uniform(field, rate, criterion, replicates=2 * SYNTHETIC_REPLICATES, **uniform)
            if rate > 0
            else {"per_team": None, "matches": None, "rate": None}  # no recovery: nothing to match
        )
        matches = float(np.mean([x["matches"] for x in runs]))
        out[name] = {
            "criterion": criterion,
            "replicates": len(runs),
            "eps_rate": float(np.mean([x["eps_correct"] for x in runs])),
            "exact_rate": float(np.mean([x["exact"] for x in runs])),
            "certified_rate": float(np.mean([x["certified"] for x in runs])),
            "matches": matches,
            "uniform": same,
            "saved": None if same["matches"] is None else same["matches"] - matches,
        }
        certified = [
            synthetic_lucb(field, budget=None, seed=r, max_stages=1 << 30, **race)
            for r in range(CERTIFIED_REPLICATES)
        ]
        out[name]["certified"] = {
            "replicates": len(certified),
            "all_stopped": all(x["certified"] for x in certified),
            "eps_rate": float(np.mean([x["eps_correct"] for x in certified])),
            "exact_rate": float(np.mean([x["exact"] for x in certified])),
            "matches": float(np.mean([x["matches"] for x in certified])),
        }
    out["separated"]["gap"] = float(top[k - 1] - top[k])
    out["separated"]["uniform_certified"] = smallest_uniform(
        separated, 1.0, "certified", replicates=CERTIFIED_REPLICATES, **uniform
    )
    rr = synthetic_round_robin(s, top_k=k, delta=race["delta"], per_pairing=per_pairing, seed=0)
    eps_rr = max(rr["certified_epsilon"], 1e-3)
    at_rr = [
        synthetic_lucb(s, budget=None, seed=r, max_stages=1 << 30, **(race | {"epsilon": eps_rr}))
        for r in range(CERTIFIED_REPLICATES)
    ]
    out["round_robin"] = {
        "matches": rr["matches"],
        "certified_epsilon": eps_rr,
        "race_matches": float(np.mean([x["matches"] for x in at_rr])),
        "race_all_stopped": all(x["certified"] for x in at_rr),
    }
    return out
