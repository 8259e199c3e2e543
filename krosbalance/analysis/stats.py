"""Descriptive statistics with intervals: win rates, damage, KOs, matchups, first-player advantage.

Every function is pure: tables in, a tidy DataFrame out. Rows of ``matches`` whose ``error`` is
non-empty are dropped first (:func:`ok_matches`). Proportions carry Wilson 95% intervals on the
effective sample size of the deal-clustered design (``deff`` column; see :mod:`design`); means
carry Student-t 95% intervals. **Draws count as non-wins** wherever a win rate is given (a draw is
neither side's win), unless a column says it is over decided matches only.

A matches table may be the full one or a compressed one (``weight`` and ``cluster`` columns, see
:mod:`krosbalance.analysis.scan`); both give the same numbers. Fighter statistics go through
additive per-character moments (:func:`fighter_moments`), so they can be summed shard by shard.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from krosbalance.analysis.design import (
    CLUSTER,
    WEIGHT,
    design_effects,
    effective_wilson,
    weights,
    with_design,
)
from krosbalance.content.specs import ELEMENTS

ALPHA = 0.05


# ------------------------------------------------------------------ intervals
def wilson_interval(successes: int | np.ndarray, n: int | np.ndarray, alpha: float = ALPHA) -> tuple:
    """Wilson score interval for a binomial proportion (NaN where ``n == 0``).

    Works on scalars or arrays; wraps ``statsmodels`` ``proportion_confint(method="wilson")``.
    """
    s = np.asarray(successes, dtype=float)
    t = np.asarray(n, dtype=float)
    safe = np.where(t > 0, t, 1.0)
    lo, hi = proportion_confint(np.minimum(s, safe), safe, alpha=alpha, method="wilson")
    lo = np.where(t > 0, lo, np.nan)
    hi = np.where(t > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def mean_interval(values: pd.Series | np.ndarray, alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean with a Student-t interval: (mean, low, high); the interval is NaN for fewer than 2 values."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return float("nan"), float("nan"), float("nan")
    m = float(x.mean())
    if len(x) < 2:
        return m, float("nan"), float("nan")
    half = float(sps.t.ppf(1 - alpha / 2, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return m, m - half, m + half


def bounded_mean_interval(
    values: pd.Series | np.ndarray, lower: float = -1.0, upper: float = 1.0, alpha: float = ALPHA
) -> tuple[float, float, float]:
    """:func:`mean_interval` of a quantity bounded to ``[lower, upper]`` (a win-rate difference per
    deal: -1 to 1), honest at small n: the interval stays within the bounds, and it is never narrower
    than the Wilson interval of a proportion seen the same way in every one of n deals (half-width
    ``z² / (n + z²)`` of the range's half), so identical deals (zero variance) or one deal give a
    wide interval instead of none or a zero-width one."""
    m, lo, hi = mean_interval(values, alpha)
    x = np.asarray(values, dtype=float)
    n = int((~np.isnan(x)).sum())
    if n == 0 or math.isnan(m):
        return m, lo, hi
    z2 = float(sps.norm.ppf(1 - alpha / 2)) ** 2
    floor = z2 / (n + z2) * (upper - lower) / 2
    lo = m - floor if math.isnan(lo) else min(lo, m - floor)
    hi = m + floor if math.isnan(hi) else max(hi, m + floor)
    return m, max(lo, lower), min(hi, upper)


def binomial_p(successes: int, n: int, p: float = 0.5) -> float:
    """Two-sided exact binomial test p-value (NaN when ``n == 0``)."""
    if n <= 0:
        return float("nan")
    return float(sps.binomtest(int(successes), int(n), p).pvalue)


# ------------------------------------------------------------------ filtering
def ok_matches(matches: pd.DataFrame) -> pd.DataFrame:
    """Matches without an error (``error == ""`` and ``end_reason != "error"``)."""
    keep = pd.Series(True, index=matches.index)
    if "error" in matches.columns:
        keep &= matches["error"].fillna("").astype(str) == ""
    if "end_reason" in matches.columns:
        keep &= matches["end_reason"].astype(str) != "error"
    return matches[keep]


def ok_fighters(matches: pd.DataFrame, fighters: pd.DataFrame) -> pd.DataFrame:
    """Fighter rows belonging to error-free matches."""
    if "match_id" not in fighters.columns or fighters.empty:
        return fighters.iloc[0:0]
    ids = ok_matches(matches)["match_id"]
    return fighters[fighters["match_id"].isin(ids)]


def split_team(team: str) -> list[str]:
    """Character ids of a comma-joined team string (blank entries dropped)."""
    return [c.strip() for c in str(team).split(",") if c.strip()]


def team_key(team: str) -> str:
    """Canonical name of a team: its character ids sorted and comma-joined (order does not matter)."""
    return ",".join(sorted(split_team(team)))


def winner_series(matches: pd.DataFrame) -> pd.Series:
    """The ``winner`` column as float: 0.0, 1.0 or NaN for a draw."""
    return pd.to_numeric(matches["winner"], errors="coerce").astype(float)


def team_appearances(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per (ok match, side, distinct character on that side): won / draw from that side's view.

    Built from ``team0``/``team1`` so it needs only the matches table. A character fielded twice on
    one side counts once for that side; in a mirror appearance it counts once for each side. Each
    row carries the match's ``weight`` and deal ``cluster``.
    """
    m = with_design(ok_matches(matches))
    cols = ["match_id", "side", "character", "won", "draw", WEIGHT, CLUSTER]
    types = ["int64", "int64", "str", "bool", "bool", "float64", "int64"]
    if m.empty:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in zip(cols, types, strict=True)})
    w = winner_series(m).to_numpy()
    mids = m["match_id"].to_numpy() if "match_id" in m.columns else np.arange(len(m))
    rows: list[tuple] = []
    for mid, t0, t1, win, k, g in zip(
        mids, m["team0"], m["team1"], w, m[WEIGHT].to_numpy(), m[CLUSTER].to_numpy(), strict=True
    ):
        draw = bool(np.isnan(win))
        for side, team in ((0, t0), (1, t1)):
            won = (not draw) and int(win) == side
            for c in dict.fromkeys(split_team(team)):
                rows.append((int(mid), side, c, won, draw, float(k), int(g)))
    out = pd.DataFrame(rows, columns=cols)
    return out.astype(dict(zip(cols, types, strict=True)) | {"character": object})


def rate_table(obs: pd.DataFrame, by: list[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Weighted wins, draws, losses, rate and effective-n Wilson interval per group of ``obs``."""
    d = design_effects(obs, by, "won")
    draws = (
        obs.assign(_d=obs["draw"].astype(float) * obs[WEIGHT])
        .groupby(by, sort=True, observed=True)["_d"]
        .sum()
        .reset_index()
    )
    out = d.merge(draws, on=by, how="left")
    out["n"] = out["n"].round().astype("int64")
    out["wins"] = out["successes"].round().astype("int64")
    out["draws"] = out["_d"].round().astype("int64")
    out["losses"] = out["n"] - out["wins"] - out["draws"]
    out["win_rate"] = out["wins"] / out["n"]
    out["ci_low"], out["ci_high"] = effective_wilson(out["wins"], out["n"], out["deff"], alpha)
    return out


# ------------------------------------------------------------------ win rates
def character_win_rates(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Raw win rate of every character over the teams that fielded it.

    Raw rates are confounded by teammates (a weak character picked beside a strong one looks good);
    see :func:`krosbalance.analysis.strength.adjusted_strength` for the corrected measure.

    Returns:
        character, n (team appearances), wins, draws, losses, win_rate = wins / n (draws count as
        non-wins), ci_low, ci_high (Wilson on the deal-clustered effective n), deff (the design
        effect, 1 = no correlation within deals), sorted by win_rate descending.
    """
    app = team_appearances(matches)
    cols = ["character", "n", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "deff"]
    if app.empty:
        return pd.DataFrame(columns=cols)
    out = rate_table(app, ["character"], alpha)
    return out[cols].sort_values(["win_rate", "character"], ascending=[False, True]).reset_index(drop=True)


# ------------------------------------------------------------------ fighters
KO_COUNTERS = ("kills", "turns_alive")
MEAN_COUNTERS = ("heals_given", "gg_won", "kamas_collected")
DAMAGE_COLUMNS = ("damage_dealt", "damage_taken", "damage_dealt_incl_summons")
FIGHTER_COLUMNS = (
    "match_id",
    "uid",
    "summoner",
    "is_summon",
    "character",
    "ai",
    "damage_dealt",
    "damage_taken",
    *KO_COUNTERS,
    *MEAN_COUNTERS,
    "knocked_out",
    *(f"damage_dealt_{e}" for e in ELEMENTS),
)
"""The fighter columns the statistics read (a scan reads only these)."""


def _krosmasters_with_summons(fighters: pd.DataFrame) -> pd.DataFrame:
    """Krosmaster rows plus ``damage_dealt_incl_summons`` (own + all their summons').

    A summon's summoner may itself be a summon: damage climbs the chain to the Krosmaster at its root.
    All rows of a match must be in ``fighters`` (a scan hands over whole matches).
    """
    f = fighters
    if f.empty or "is_summon" not in f.columns:
        return f.iloc[0:0].assign(damage_dealt_incl_summons=pd.Series(dtype=float))
    is_summon = f["is_summon"].astype(bool).to_numpy()
    summons = f[is_summon]
    kros = f[~is_summon].copy()
    kros["damage_dealt_incl_summons"] = kros["damage_dealt"].astype(float)
    if not summons.empty:
        parent = {
            (int(m), int(u)): int(s) for m, u, s in zip(f["match_id"], f["uid"], f["summoner"], strict=True)
        }
        credit: dict[tuple[int, int], float] = {}
        for mid, uid, dmg in zip(summons["match_id"], summons["uid"], summons["damage_dealt"], strict=True):
            key = (int(mid), int(uid))
            for _ in range(16):  # climb the summoner chain (bounded: no cycles in valid data)
                up = parent.get(key, -1)
                if up < 0:
                    break
                key = (key[0], up)
            credit[key] = credit.get(key, 0.0) + float(dmg)
        extra = [
            credit.get((int(m), int(u)), 0.0) for m, u in zip(kros["match_id"], kros["uid"], strict=True)
        ]
        kros["damage_dealt_incl_summons"] += np.asarray(extra, dtype=float)
    return kros


def fighter_moments(matches: pd.DataFrame, fighters: pd.DataFrame) -> pd.DataFrame:
    """Additive per-(character, ai) moments of the Krosmaster counters in error-free matches.

    ``n`` (appearances) and, for every counter, ``<counter>_sum`` and ``<counter>_sumsq``: tables
    of several shards are combined by adding them (:func:`combine_moments`), and
    :func:`damage_table` / :func:`ko_table` turn them into means with intervals.
    """
    f = ok_fighters(matches, fighters)
    k = _krosmasters_with_summons(f)
    if k.empty:
        return pd.DataFrame(columns=["character", "ai", "n"])
    k = k.assign(ai=k["ai"].astype(str) if "ai" in k.columns else "")
    counters = [c for c in (*DAMAGE_COLUMNS, *KO_COUNTERS, *MEAN_COUNTERS) if c in k.columns]
    counters += [c for c in k.columns if c.startswith("damage_dealt_") and c != "damage_dealt_incl_summons"]
    data = {"character": k["character"].astype(str).to_numpy(), "ai": k["ai"].to_numpy(), "n": 1}
    for c in counters:
        x = k[c].to_numpy(dtype=float)
        data[f"{c}_sum"] = x
        data[f"{c}_sumsq"] = x * x
    if "knocked_out" in k.columns:
        data["knocked_out_sum"] = k["knocked_out"].astype(bool).to_numpy(dtype=float)
    return pd.DataFrame(data).groupby(["character", "ai"], sort=True).sum().reset_index()


def combine_moments(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Sum moment tables of several shards (missing counters count as absent, not as zero)."""
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame(columns=["character", "ai", "n"])
    return pd.concat(parts, ignore_index=True).groupby(["character", "ai"], sort=True).sum().reset_index()


def _pooled(moments: pd.DataFrame) -> pd.DataFrame:
    return moments.drop(columns="ai").groupby("character", sort=True).sum()


def _moment_mean(g: pd.DataFrame, column: str, alpha: float) -> pd.DataFrame:
    """Mean and Student-t interval from n, sum and sum of squares."""
    n = g["n"].to_numpy(float)
    s = g[f"{column}_sum"].to_numpy(float)
    ss = g[f"{column}_sumsq"].to_numpy(float)
    mean = np.where(n > 0, s / np.where(n > 0, n, 1), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(
            n > 1, np.maximum(ss - s * s / np.where(n > 0, n, 1), 0) / np.where(n > 1, n - 1, 1), np.nan
        )
        half = sps.t.ppf(1 - alpha / 2, np.maximum(n - 1, 1)) * np.sqrt(var / np.where(n > 0, n, 1))
    return pd.DataFrame(
        {column: mean, f"{column}_ci_low": mean - half, f"{column}_ci_high": mean + half}, index=g.index
    )


def damage_table(moments: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Damage per Krosmaster per match, by character, from :func:`fighter_moments`.

    Returns:
        character, n (Krosmaster appearances), mean ``damage_dealt`` / ``damage_taken`` /
        ``damage_dealt_incl_summons`` (own damage plus that of every summon it brought in) each with
        a t 95% interval, mean ``heals_given``, and mean damage dealt per element (``dealt_<element>``).
    """
    base = ["character", "n"]
    if moments.empty or "damage_dealt_sum" not in moments.columns:
        return pd.DataFrame(columns=base + list(DAMAGE_COLUMNS))
    g = _pooled(moments)
    out = pd.DataFrame({"n": g["n"].astype("int64")})
    for col in DAMAGE_COLUMNS:
        out = out.join(_moment_mean(g, col, alpha))
    if "heals_given_sum" in g.columns:
        out["heals_given"] = g["heals_given_sum"] / g["n"]
    for e in ELEMENTS:
        if f"damage_dealt_{e}_sum" in g.columns:
            out[f"dealt_{e}"] = g[f"damage_dealt_{e}_sum"] / g["n"]
    out.index.name = "character"
    return out.reset_index().sort_values("damage_dealt", ascending=False).reset_index(drop=True)


def damage_stats(matches: pd.DataFrame, fighters: pd.DataFrame) -> pd.DataFrame:
    """Damage per Krosmaster per match, by character (summons excluded as fighters); see
    :func:`damage_table`."""
    return damage_table(fighter_moments(matches, fighters))


def damage_by_element_table(damage: pd.DataFrame) -> pd.DataFrame:
    """Long table (character, element, damage) of mean damage dealt per element, for plotting."""
    cols = [f"dealt_{e}" for e in ELEMENTS if f"dealt_{e}" in damage.columns]
    if damage.empty or not cols:
        return pd.DataFrame(columns=["character", "element", "damage"])
    long = damage.melt(id_vars="character", value_vars=cols, var_name="element", value_name="damage")
    long["element"] = long["element"].str.removeprefix("dealt_")
    return long


def ko_table(moments: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Knock-outs, kills and survival per character (Krosmasters only), from :func:`fighter_moments`.

    Returns:
        character, n, knocked_out (count), ko_rate with Wilson ci, kills (mean per match) with t ci,
        turns_alive (mean) with t ci, and mean gg_won and kamas_collected where present.
    """
    if moments.empty or "knocked_out_sum" not in moments.columns:
        return pd.DataFrame(columns=["character", "n", "knocked_out", "ko_rate", "ko_ci_low", "ko_ci_high"])
    g = _pooled(moments)
    out = pd.DataFrame(
        {"n": g["n"].astype("int64"), "knocked_out": g["knocked_out_sum"].round().astype("int64")}
    )
    out["ko_rate"] = out["knocked_out"] / out["n"]
    out["ko_ci_low"], out["ko_ci_high"] = wilson_interval(
        out["knocked_out"].to_numpy(), out["n"].to_numpy(), alpha
    )
    for col in KO_COUNTERS:
        if f"{col}_sum" in g.columns:
            out = out.join(_moment_mean(g, col, alpha))
    for col in ("gg_won", "kamas_collected"):
        if f"{col}_sum" in g.columns:
            out[col] = g[f"{col}_sum"] / g["n"]
    out.index.name = "character"
    return out.reset_index()


def ko_stats(matches: pd.DataFrame, fighters: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Knock-outs, kills and survival per character; see :func:`ko_table`."""
    return ko_table(fighter_moments(matches, fighters), alpha)


# ------------------------------------------------------------------ matchups
def matchup_matrix(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Team-versus-team results in long form: one row per ordered (team, opponent) pair.

    Teams are the pairing's ``team_a``/``team_b`` under :func:`team_key` (ids sorted), independent of
    which side they sat on. Each match gives one row from each team's point of view, so on data
    without draws ``win_rate(T, U) + win_rate(U, T) == 1``. A mirror cell (a team against itself) has
    ``n`` but no win rate (NaN): which copy "won" means nothing.

    Returns:
        team, opponent, n, wins, draws, losses, win_rate (draws as non-wins), ci_low, ci_high
        (deal-clustered Wilson), deff. Use :func:`matchup_pivot` for the square matrix.
    """
    m = with_design(ok_matches(matches))
    cols = ["team", "opponent", "n", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "deff"]
    if m.empty:
        return pd.DataFrame(columns=cols)
    keys_a = {t: team_key(t) for t in pd.unique(m["team_a"].astype(str))}
    keys_b = {t: team_key(t) for t in pd.unique(m["team_b"].astype(str))}
    a = m["team_a"].astype(str).map(keys_a)
    b = m["team_b"].astype(str).map(keys_b)
    wt = m["winner_team"].astype(object).fillna("").astype(str)
    mirror = (a == b).to_numpy()
    common = {WEIGHT: m[WEIGHT].to_numpy(), CLUSTER: m[CLUSTER].to_numpy()}
    view_a = pd.DataFrame({"team": a, "opponent": b, "won": wt == "A", "draw": wt == ""} | common)
    view_b = pd.DataFrame({"team": b, "opponent": a, "won": wt == "B", "draw": wt == ""} | common)[~mirror]
    both = pd.concat([view_a, view_b], ignore_index=True)
    out = rate_table(both, ["team", "opponent"], alpha)
    is_mirror = out["team"] == out["opponent"]
    out.loc[is_mirror, ["win_rate", "ci_low", "ci_high"]] = np.nan
    return out[cols]


def matchup_pivot(matchups: pd.DataFrame, value: str = "win_rate") -> pd.DataFrame:
    """Square matrix (rows = team, columns = opponent) of one column of :func:`matchup_matrix`.

    Teams appear in the same order on both axes; pairs never played are NaN.
    """
    if matchups.empty:
        return pd.DataFrame(dtype=float)
    teams = sorted(set(matchups["team"]) | set(matchups["opponent"]))
    wide = matchups.pivot(index="team", columns="opponent", values=value)
    return wide.reindex(index=teams, columns=teams).astype(float)


# ------------------------------------------------------------------ first player
def first_player_advantage(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """How often the side that played first wins.

    The rate is over **decided** matches (draws excluded, since a draw is neither player's win).
    The interval is Wilson on the deal-clustered effective n; the exact binomial test against 0.5
    is made on the effective counts too (with one match per deal: the plain exact test).
    ``win_rate_all`` counts draws as non-wins for reference.

    Returns:
        One row: n_matches, draws, n (decided), first_wins, win_rate, ci_low, ci_high, p_value,
        win_rate_all, deff.
    """
    m = with_design(ok_matches(matches))
    w = winner_series(m)
    decided = w.notna().to_numpy()
    k = m[WEIGHT].to_numpy(float)
    n_matches = int(round(k.sum()))
    n = int(round(k[decided].sum()))
    first_won = decided & (w.to_numpy() == m["first_player"].to_numpy(dtype=float))
    first_wins = int(round(k[first_won].sum()))
    deff = 1.0
    if n:
        obs = m[decided].assign(won=first_won[decided])
        deff = float(design_effects(obs, [], "won")["deff"].iloc[0])
    lo, hi = effective_wilson(first_wins, n, deff, alpha) if n else (np.nan, np.nan)
    p_value = binomial_p(round(first_wins / deff), round(n / deff)) if n else float("nan")
    row = {
        "n_matches": n_matches,
        "draws": n_matches - n,
        "n": n,
        "first_wins": first_wins,
        "win_rate": first_wins / n if n else float("nan"),
        "ci_low": float(lo),
        "ci_high": float(hi),
        "p_value": p_value,
        "win_rate_all": first_wins / n_matches if n_matches else float("nan"),
        "deff": deff,
    }
    return pd.DataFrame([row])


# ------------------------------------------------------------------ match length
def _weighted_median(values: np.ndarray, w: np.ndarray) -> float:
    """The median of integer-weighted values (the two middle values averaged, as ``median`` does)."""
    order = np.argsort(values, kind="stable")
    v, c = values[order], np.cumsum(w[order])
    total = int(round(c[-1]))
    lo = v[np.searchsorted(c, (total + 1) // 2, side="left")]  # 1-based ranks of the middle values
    hi = v[np.searchsorted(c, total // 2 + 1, side="left")]
    return float((lo + hi) / 2)


def match_length_table(matches: pd.DataFrame) -> pd.DataFrame:
    """Turns per match by end reason (plus an ``all`` row): n, share, mean with t ci, median, min, max.

    Reads ``turns``, ``end_reason`` and the optional ``weight`` (a turns histogram is enough).
    """
    m = ok_matches(matches)
    cols = [
        "end_reason",
        "n",
        "share",
        "mean_turns",
        "ci_low",
        "ci_high",
        "median_turns",
        "min_turns",
        "max_turns",
    ]
    if m.empty:
        return pd.DataFrame(columns=cols)
    k_all = weights(m)
    total = k_all.sum()
    rows = []
    reasons = m["end_reason"].astype(str).to_numpy()
    groups = [(r, reasons == r) for r in sorted(set(reasons))] + [("all", np.ones(len(m), dtype=bool))]
    turns_all = m["turns"].to_numpy(dtype=float)
    for reason, mask in groups:
        t, k = turns_all[mask], k_all[mask]
        n = k.sum()
        mean = float((t * k).sum() / n)
        if n >= 2:
            sd = np.sqrt(max(float((k * (t - mean) ** 2).sum()) / (n - 1), 0.0))
            half = float(sps.t.ppf(1 - ALPHA / 2, n - 1) * sd / np.sqrt(n))
            lo, hi = mean - half, mean + half
        else:
            lo = hi = float("nan")
        rows.append(
            (
                reason,
                int(round(n)),
                n / total,
                mean,
                lo,
                hi,
                _weighted_median(t, k),
                float(t.min()),
                float(t.max()),
            )
        )
    return pd.DataFrame(rows, columns=cols)


def holm(pvalues: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """Holm-adjusted p-values (NaN stays NaN)."""
    from statsmodels.stats.multitest import multipletests

    adjusted = np.full(len(pvalues), np.nan)
    ok = np.isfinite(pvalues)
    if ok.any():
        adjusted[ok] = multipletests(pvalues[ok], alpha=alpha, method="holm")[1]
    return adjusted
