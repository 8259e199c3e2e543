"""The team ladder's adaptive design, checked: the matches it saves against a full round robin
(:func:`matches_saved`), and how often its stages pick the truly best teams of a synthetic field
whose strengths are known (successive halving, LUCB, a uniform design and a round robin of the
same budget; :func:`lucb_check` is the report's certificate). The ratings themselves are
:mod:`krosbalance.studies.teams.ladder`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from krosbalance.sim.topk import kl_bounds, race_step, ranking, stage_opponents
from krosbalance.studies.teams.ladder import Team
from krosbalance.studies.teams.planner import halving_sizes, max_race_stages, rank_teams


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
