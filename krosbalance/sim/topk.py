"""Top-k identification by racing: which teams to sample next, and when the top k is known.

The team ladder's ``design = "lucb"`` (:class:`krosbalance.studies.teams.planner.TeamLadderPlanner`) and
its synthetic check (:func:`krosbalance.studies.teams.design_check.synthetic_lucb`) share these rules, so
the simulation measures the planner's own decisions.

**Samples.** One sample of a team is one pairing against an opponent drawn uniformly (with
replacement) from the field, scored as the share of the pairing's matches it won (draws half): a
number in [0, 1]; a team's samples are independent and identically distributed (fresh opponent,
fresh seeds), with mean mu_i, its *score against the field*.

**Anytime bounds.** After u samples of mean m, team i's interval is
[L, U] = {q : u * kl(m, q) <= beta(u)}, kl the Bernoulli relative entropy and
beta(u) = ln(pi^2 n u^2 / (3 delta)) (n teams). The Chernoff bound holds for any [0, 1]-valued
variable (Hoeffding 1963, Theorem 1), each side fails with probability at most exp(-beta(u)), and the
sum over the n teams and every u >= 1 is delta: with probability at least 1 - delta *every* interval
holds at *every* sample count, whichever teams the design chose to sample (the KL-LUCB bounds of
Kaufmann & Kalyanakrishnan 2013 with a union over counts).

**Stopping rule and guarantee** (LUCB, Kalyanakrishnan, Tewari, Auer & Stone 2012, "PAC subset
selection in stochastic multi-armed bandits"): let T be the k teams of highest mean (ties by index),
h the team of T with the lowest lower bound, l the team outside T with the highest upper bound.
Stop when U_l - L_h < epsilon. On the event that every interval holds, each selected team i and
each other team j then satisfy mu_i >= L_i >= L_h > U_l - epsilon >= mu_j - epsilon: the set is
*epsilon-correct* (every selected team is within epsilon of the k-th best score against the field; the
exact top k when the true k-th and (k+1)-th scores are more than epsilon apart), with probability at
least 1 - delta, whatever the sampling rule. A count budget may end the race first: then the set
is certified only at the reached epsilon, U_l - L_h (reported).

**Sampling rule** (batched LUCB1): a stage samples the ``batch`` teams of T with the lowest lower
bounds and the ``batch`` teams outside T with the highest upper bounds, among those that block the
stop (inside L_i <= U_l - epsilon, outside U_j >= L_h + epsilon), each against ``opponents`` more
field opponents. With ``batch = 1`` it is LUCB1, whose expected sample count is
O(H_eps log(H_eps / delta)), H_eps = sum_i 1 / max(gap_i, epsilon / 2)^2 (Theorem 6 there); the
batches spend at most 2 * batch times LUCB1's rounds per stage, and concentrate the samples on the
teams near the k-th / (k+1)-th boundary: a clearly weak team's upper bound falls below the
boundary after a few samples and it is not sampled again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

KL_STEPS = 30
"""Bisection steps of the KL bounds (2^-30: exact for any reported digit)."""


def exploration_rate(counts: np.ndarray, n_teams: int, delta: float) -> np.ndarray:
    """beta(u) = ln(pi^2 n u^2 / (3 delta)): the union over teams and sample counts is delta."""
    u = np.maximum(np.asarray(counts, dtype=float), 1.0)
    beta: np.ndarray = np.log(math.pi**2 * n_teams * u**2 / (3.0 * delta))
    return beta


def _kl(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    q = np.clip(q, 1e-12, 1 - 1e-12)
    kl: np.ndarray = p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q))
    return kl


def kl_bounds(means: np.ndarray, counts: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[L, U] = {q : u kl(m, q) <= beta} for each team (0 samples: [0, 1])."""
    m = np.clip(np.asarray(means, dtype=float), 0.0, 1.0)
    u = np.asarray(counts, dtype=float)
    level = np.where(u > 0, beta / np.maximum(u, 1.0), np.inf)
    lo_a, lo_b = np.zeros_like(m), m.copy()  # L in [0, m]: kl(m, q) decreases in q
    hi_a, hi_b = m.copy(), np.ones_like(m)  # U in [m, 1]: kl(m, q) increases in q
    for _ in range(KL_STEPS):
        mid = (lo_a + lo_b) / 2
        inside = _kl(m, mid) <= level
        lo_b = np.where(inside, mid, lo_b)
        lo_a = np.where(inside, lo_a, mid)
        mid = (hi_a + hi_b) / 2
        inside = _kl(m, mid) <= level
        hi_a = np.where(inside, mid, hi_a)
        hi_b = np.where(inside, hi_b, mid)
    lower = np.where(u > 0, lo_b, 0.0)
    upper = np.where(u > 0, hi_a, 1.0)
    return lower, upper


@dataclass(frozen=True)
class RaceStep:
    """One decision of the race: the current top k, whether it is certified, what to sample."""

    top: tuple[int, ...]  # indices of the k teams of highest mean, best first
    reached_epsilon: float  # U_l - L_h (<= 0: separated); the epsilon the top k is certified at
    stop: bool  # reached_epsilon < epsilon
    sample: tuple[int, ...]  # teams to sample in the next stage (most blocking first); () if stop
    lower: np.ndarray
    upper: np.ndarray


def ranking(means: np.ndarray) -> np.ndarray:
    """Indices by mean, best first; ties by index (deterministic)."""
    m = np.asarray(means, dtype=float)
    return np.lexsort((np.arange(len(m)), -m))


def race_step(
    sums: np.ndarray, counts: np.ndarray, *, k: int, epsilon: float, delta: float, batch: int
) -> RaceStep:
    """The race's decision from each team's sum of sample scores and sample count (see the module
    docstring). Every team must have been sampled at least once."""
    counts = np.asarray(counts, dtype=float)
    means = np.asarray(sums, dtype=float) / np.maximum(counts, 1.0)
    n = len(means)
    lower, upper = kl_bounds(means, counts, exploration_rate(counts, n, delta))
    order = ranking(means)
    top, rest = order[:k], order[k:]
    if len(rest) == 0:
        return RaceStep(tuple(int(i) for i in top), -1.0, True, (), lower, upper)
    h = top[np.lexsort((top, lower[top]))[0]]
    l_ = rest[np.lexsort((rest, -upper[rest]))[0]]
    reached = float(upper[l_] - lower[h])
    stop = reached < epsilon
    sample: list[int] = []
    if not stop:
        inside = top[lower[top] <= upper[l_] - epsilon]
        inside = inside[np.lexsort((inside, lower[inside]))][:batch]
        outside = rest[upper[rest] >= lower[h] + epsilon]
        outside = outside[np.lexsort((outside, -upper[outside]))][:batch]
        # most blocking first, alternating sides (a budget cut keeps both sides)
        for pair in zip(inside.tolist(), outside.tolist(), strict=False):
            sample += pair
        longer = inside if len(inside) > len(outside) else outside
        sample += longer.tolist()[min(len(inside), len(outside)) :]
    return RaceStep(tuple(int(i) for i in top), reached, stop, tuple(sample), lower, upper)


GROWTH = 0.5
"""A sampled team plays max(opponents, GROWTH x its samples so far) more opponents in the stage: the
stages grow geometrically (a team's count rises by half), so the race takes logarithmically many
stages instead of one per few matches (batched bandits, Perchet et al. 2016), at most 1.5 x the
samples a one-at-a-time race would have drawn for the teams it samples."""


def stage_opponents(counts: np.ndarray, sample: tuple[int, ...], opponents: int) -> list[int]:
    """How many field opponents each team of ``sample`` plays in the next stage: the same for all of
    them, ``max(opponents, GROWTH x the fewest samples among them)``."""
    if not sample:
        return []
    fewest = min(float(counts[i]) for i in sample)
    return [max(opponents, math.ceil(GROWTH * fewest))] * len(sample)
