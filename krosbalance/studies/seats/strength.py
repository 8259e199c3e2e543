"""Character strength at tables of more than two players: a conditional logit grouped by match.

The model behind :func:`krosbalance.studies.seats.tables.character_strength` (see it for the model and
its output). One row per partnership of a decided match (every player for himself: a seat); in a
match exactly one partnership wins, so the conditional likelihood of match ``g`` is the softmax
``exp(eta_j) / sum_i exp(eta_i)`` over its partnerships, and anything equal for every partnership
of a match (the board, the dice, the AIs of a one-AI table) cancels. With two partnerships a match
it is the logit of the difference, the model of :mod:`krosbalance.analysis.strength`.

Why not reuse :func:`krosbalance.analysis.strength.fit_effects`: that is a binary logit of one row a
match; a free-for-all has four partnerships a match. The conventions are the same: characters
effect-coded to sum to zero, ``statsmodels`` for the maximum-likelihood fit, an L2-penalised Newton
fit when it fails (separation, a singular design, no convergence), a deal-clustered CR1 sandwich
(:func:`krosbalance.analysis.design.cluster_sandwich`; the score of a row is ``x (y - p)``) with at
least ``MIN_CLUSTERS`` deals. Nothing here raises on data: too little of it is a "not enough data"
note on every row.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.analysis.design import CLUSTER, WEIGHT, cluster_sandwich
from krosbalance.analysis.strength import MAX_ABS_COEF, MIN_CLUSTERS

ALPHA = stats.ALPHA
STEP_TOLERANCE = 1e-8  # Newton has converged when no estimate moves more than this
POLISH_STEPS = 25  # Newton steps allowed after statsmodels' fit before it counts as not converged
MIN_DECIDED = 10  # fewer decided matches than this in a group: "not enough data"
STRENGTH_COLUMNS = [
    "term",
    "kind",
    "coef",
    "se",
    "ci_low",
    "ci_high",
    "p_value",
    "n",
    "appearances",
    "raw_win_rate",
    "raw_ci_low",
    "raw_ci_high",
    "even",
    "method",
    "interval",
    "note",
]


def decided_units(u: pd.DataFrame) -> pd.DataFrame:
    """Partnership rows of the matches with exactly one winning partnership (draws dropped)."""
    d = u[~u["draw"].astype(bool)]
    winners = d.groupby("match_id")["won"].transform("sum")
    return d[winners == 1]


def _softmax(eta: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, eta)
    e = np.exp(eta - top[group])
    total = np.zeros(n_groups)
    np.add.at(total, group, e)
    return e / total[group]


def _information(
    design: np.ndarray, p: np.ndarray, group: np.ndarray, n_groups: int, w: np.ndarray
) -> np.ndarray:
    """The conditional logit's information matrix: sum over groups of the p-weighted covariance."""
    mean = np.zeros((n_groups, design.shape[1]))
    np.add.at(mean, group, design * p[:, None])
    centred = design - mean[group]
    return (centred * (w * p)[:, None]).T @ centred


def _newton(
    design: np.ndarray,
    y: np.ndarray,
    group: np.ndarray,
    w: np.ndarray,
    penalty: np.ndarray,
    beta: np.ndarray,
    maxiter: int,
) -> tuple[np.ndarray, bool]:
    """Newton's method on the (penalised) conditional log-likelihood from ``beta``: (estimate,
    converged)."""
    n_groups = int(group.max()) + 1
    beta = beta.copy()
    for _ in range(maxiter):
        p = _softmax(design @ beta, group, n_groups)
        grad = design.T @ (w * (y - p)) - penalty @ beta
        step = np.linalg.solve(_information(design, p, group, n_groups, w) + penalty, grad)
        beta += step
        if np.max(np.abs(step), initial=0.0) < STEP_TOLERANCE:
            return beta, True
    return beta, False


def _fit_clogit_mle(design: np.ndarray, y: np.ndarray, group: np.ndarray) -> np.ndarray | None:
    """``statsmodels`` ``ConditionalLogit`` grouped by match; None when it fails, does not converge or
    separates (the caller falls back to the penalised fit).

    The results object keeps no convergence flag, and a quasi-Newton fit stops early along a
    separated direction (a character that always wins: the score vanishes while the estimate is
    still finite), so a few Newton steps from its estimate decide: a real maximum is reached at
    once, a separated fit keeps running off and is refused."""
    from statsmodels.discrete.conditional_models import ConditionalLogit

    n_groups = int(group.max()) + 1
    mean = np.zeros((n_groups, design.shape[1]))
    counts = np.bincount(group, minlength=n_groups).astype(float)
    np.add.at(mean, group, design)
    within = design - mean[group] / counts[group][:, None]
    if design.shape[1] == 0 or np.linalg.matrix_rank(within) < design.shape[1]:
        return None
    no_penalty = np.zeros((design.shape[1], design.shape[1]))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ConditionalLogit(y, design, groups=group).fit(maxiter=200, disp=False, skip_hessian=True)
            start = np.asarray(res.params, dtype=float)
            params, converged = _newton(design, y, group, np.ones(len(y)), no_penalty, start, POLISH_STEPS)
    except Exception:  # LinAlgError, overflow...: any failure means "use the fallback"
        return None
    if not converged or not np.all(np.isfinite(params)) or np.any(np.abs(params) > MAX_ABS_COEF):
        return None
    return params


def _fit_clogit_ridge(
    design: np.ndarray, y: np.ndarray, group: np.ndarray, w: np.ndarray, penalty: np.ndarray
) -> np.ndarray:
    """Penalised conditional logit by Newton's method (from zero; the penalty makes it converge)."""
    return _newton(design, y, group, w, penalty, np.zeros(design.shape[1]), 100)[0]


def _effects_design(u: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Character counts per partnership, the covariates (play positions against those holding
    position 1; team size when it varies within a match) and the estimable characters."""
    chars = sorted({c for cs in u["characters"] for c in cs})
    col = {c: i for i, c in enumerate(chars)}
    x = np.zeros((len(u), len(chars)))
    for r, cs in enumerate(u["characters"]):
        for c in cs:
            x[r, col[c]] += 1
    xf = pd.DataFrame(x, columns=chars, index=u.index)
    mid = u["match_id"].to_numpy()
    varies = xf.groupby(mid).transform(lambda v: v.max() - v.min()).to_numpy().max(axis=0, initial=0) > 0
    estimable = [c for c, v in zip(chars, varies, strict=True) if v]
    labels = sorted(set(u["positions"]), key=lambda v: [int(x) for x in str(v).split("+")])
    reference = next(
        (v for v in labels if 1 in {int(x) for x in str(v).split("+")}), labels[0] if labels else ""
    )
    cov = pd.DataFrame(index=u.index)
    for v in labels:
        if v != reference:
            word = "positions" if "+" in str(v) else "position"
            cov[f"({word} {v})"] = (u["positions"] == v).astype(float)
    size = u["size"].astype(float)
    if (size.groupby(mid).transform(lambda v: v.max() - v.min()) > 0).any():
        cov["(team size)"] = size
    return xf, cov, estimable


def _empty_strength(note: str, chars: list[str], n: dict[str, float]) -> pd.DataFrame:
    rows = [
        {
            "term": c,
            "kind": "character",
            "n": int(round(n.get(c, 0))),
            "method": "none",
            "interval": "none",
            "note": note,
        }
        for c in chars
    ]
    return pd.DataFrame(rows, columns=STRENGTH_COLUMNS)


def _fit_group(u: pd.DataFrame, ridge: float, alpha: float) -> pd.DataFrame:
    """The conditional logit of one group (see :func:`character_strength`)."""
    d = decided_units(u).reset_index(drop=True)
    played: dict[str, float] = {}  # decided matches the character played in (once per match)
    for c, w in (
        d.explode("characters")
        .drop_duplicates(["match_id", "characters"])[["characters", WEIGHT]]
        .itertuples(index=False)
    ):
        played[c] = played.get(c, 0.0) + float(w)
    every = sorted({c for cs in u["characters"] for c in cs})
    n_decided = d["match_id"].nunique()
    if n_decided < MIN_DECIDED:
        return _empty_strength(
            f"not enough data: {n_decided} decided matches (fewer than {MIN_DECIDED})", every, played
        )
    xf, cov_df, estimable = _effects_design(d)
    k = len(estimable)
    if k < 2:
        return _empty_strength(
            "not enough data: fewer than two characters differ within a match", every, played
        )
    L = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    design = np.hstack([cov_df.to_numpy(), xf[estimable].to_numpy() @ L])
    n_cov = cov_df.shape[1]
    y = d["won"].to_numpy(float)
    group = pd.factorize(d["match_id"])[0]
    n_groups = int(group.max()) + 1
    w = d[WEIGHT].to_numpy(float)
    penalty = np.zeros((design.shape[1], design.shape[1]))
    penalty[:n_cov, :n_cov] = ridge * np.eye(n_cov)
    penalty[n_cov:, n_cov:] = ridge * (L.T @ L)
    params = _fit_clogit_mle(design, y, group) if np.allclose(w, 1.0) else None
    method, note = "mle", ""
    if params is None or np.any(np.abs(L @ params[n_cov:]) > MAX_ABS_COEF):
        method = "ridge"
        note = f"maximum likelihood failed (separation or singular design); L2-penalised fit (ridge={ridge}), approximate intervals"
        try:
            params = _fit_clogit_ridge(design, y, group, w, penalty)
        except np.linalg.LinAlgError:
            return _empty_strength("not enough data: the model could not be fitted", every, played)
    else:
        penalty = np.zeros_like(penalty)
    p = _softmax(design @ params, group, n_groups)
    try:
        bread = np.linalg.inv(_information(design, p, group, n_groups, w) + penalty)
    except np.linalg.LinAlgError:
        return _empty_strength("not enough data: singular information matrix", every, played)
    deal = d[CLUSTER].to_numpy()
    covariance, interval = bread, "model"
    if np.unique(deal).size >= MIN_CLUSTERS and np.unique(deal).size < n_groups:
        robust, _ = cluster_sandwich(design, y - p, w, deal, bread)
        if np.all(np.isfinite(robust)):
            covariance, interval = robust, "deal-clustered"
    T = np.zeros((n_cov + k, design.shape[1]))
    T[:n_cov, :n_cov] = np.eye(n_cov)
    T[n_cov:, n_cov:] = L
    coef = T @ params
    se = np.sqrt(np.clip(np.diag(T @ covariance @ T.T), 0, None))
    z = float(sps.norm.ppf(1 - alpha / 2))
    rows = []
    for i, term in enumerate([*cov_df.columns, *estimable]):
        ok = bool(np.isfinite(se[i]) and se[i] > 0)
        rows.append(
            {
                "term": term,
                "kind": "character" if i >= n_cov else "covariate",
                "coef": coef[i],
                "se": se[i] if ok else np.nan,
                "ci_low": coef[i] - z * se[i] if ok else np.nan,
                "ci_high": coef[i] + z * se[i] if ok else np.nan,
                "p_value": float(2 * sps.norm.sf(abs(coef[i] / se[i]))) if ok else np.nan,
                "n": int(round(played.get(term, float(d.drop_duplicates("match_id")[WEIGHT].sum())))),
                "method": method,
                "interval": interval,
                "note": note,
            }
        )
    for c in every:
        if c not in estimable:
            absent = "never differs within a match (every partnership of its matches fields it alike): not estimable"
            rows.append(
                {
                    "term": c,
                    "kind": "character",
                    "n": int(round(played.get(c, 0))),
                    "method": method,
                    "interval": interval,
                    "note": absent,
                }
            )
    return pd.DataFrame(rows).reindex(columns=STRENGTH_COLUMNS)


def fit_strength(
    u: pd.DataFrame, by: tuple[str, ...], ridge: float = 1.0, alpha: float = ALPHA
) -> pd.DataFrame:
    """The model of :func:`krosbalance.studies.seats.tables.character_strength` on the partnership table
    (:func:`krosbalance.studies.seats.tables.units`), per group of ``by``: :data:`STRENGTH_COLUMNS` after
    the ``by`` columns."""
    cols = [*by, *STRENGTH_COLUMNS]
    if u.empty:
        return pd.DataFrame(columns=cols)
    raw = raw_character_rates(u, list(by), alpha)
    frames = []
    for group, sub in u.groupby(list(by), sort=True, observed=True):
        group = group if isinstance(group, tuple) else (group,)
        fit = _fit_group(sub.reset_index(drop=True), ridge, alpha).drop(
            columns=["appearances", "raw_win_rate", "raw_ci_low", "raw_ci_high", "even"]
        )
        for col, value in zip(by, group, strict=True):
            fit[col] = value
        chars = fit[fit["kind"] == "character"].sort_values(
            ["coef", "term"], ascending=[False, True], na_position="last"
        )
        frames.append(pd.concat([chars, fit[fit["kind"] == "covariate"]], ignore_index=True))
    out = pd.concat(frames, ignore_index=True)
    out = out.merge(raw, left_on=[*by, "term"], right_on=[*by, "character"], how="left")
    return out.drop(columns="character")[cols]


def raw_character_rates(u: pd.DataFrame, by: list[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Each character's raw win rate over the partnerships that fielded it (once per partnership),
    draws as non-wins, with its deal-clustered Wilson interval and its even share."""
    rows = []
    for r in u.itertuples(index=False):
        for c in dict.fromkeys(r.characters):
            rows.append(
                {
                    **{b: getattr(r, b) for b in by},
                    "character": c,
                    "won": r.won,
                    "draw": r.draw,
                    "k": r.k,
                    WEIGHT: getattr(r, WEIGHT),
                    CLUSTER: getattr(r, CLUSTER),
                }
            )
    cols = [*by, "character", "appearances", "raw_win_rate", "raw_ci_low", "raw_ci_high", "even"]
    if not rows:
        return pd.DataFrame(columns=cols)
    obs = pd.DataFrame(rows)
    out = stats.rate_table(obs, [*by, "character"], alpha)
    obs["_e"] = (~obs["draw"].astype(bool)).astype(float) / obs["k"] * obs[WEIGHT]
    g = obs.groupby([*by, "character"], sort=True)
    out = out.merge((g["_e"].sum() / g[WEIGHT].sum()).rename("even").reset_index(), on=[*by, "character"])
    out = out.rename(
        columns={
            "n": "appearances",
            "win_rate": "raw_win_rate",
            "ci_low": "raw_ci_low",
            "ci_high": "raw_ci_high",
        }
    )
    return out[cols]


def character_ranking(strength: pd.DataFrame, by: tuple[str, ...] = ("arm", "tier")) -> pd.DataFrame:
    """Only the character rows with an estimate, ranked within each group of ``by`` (1 = strongest)."""
    chars = strength[(strength["kind"] == "character") & strength["coef"].notna()].copy()
    if chars.empty:
        return chars.assign(rank=pd.Series(dtype="int64"))
    keys = [c for c in by if c in chars.columns]
    ranks = (
        chars.groupby(keys, sort=False)["coef"].rank(ascending=False, method="min")
        if keys
        else chars["coef"].rank(ascending=False, method="min")
    )
    chars["rank"] = ranks.astype("int64")
    return chars.sort_values([*keys, "rank", "term"]).reset_index(drop=True)
