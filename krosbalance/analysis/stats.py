"""Descriptive statistics with intervals: win rates, damage, KOs, matchups, first-player advantage.

Every function is pure: tables in, a tidy DataFrame out. Rows of ``matches`` whose ``error`` is
non-empty are dropped first (:func:`ok_matches`). Proportions carry Wilson 95% intervals; means carry
Student-t 95% intervals. **Draws count as non-wins** wherever a win rate is given (a draw is neither
side's win), unless a column says it is over decided matches only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

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
    one side counts once for that side; in a mirror appearance it counts once for each side.
    """
    m = ok_matches(matches)
    cols = ["match_id", "side", "character", "won", "draw"]
    if m.empty:
        return pd.DataFrame(
            {
                c: pd.Series(dtype=t)
                for c, t in zip(cols, ["int64", "int64", "str", "bool", "bool"], strict=True)
            }
        )
    w = winner_series(m).to_numpy()
    rows: list[tuple] = []
    for mid, t0, t1, win in zip(m["match_id"].to_numpy(), m["team0"], m["team1"], w, strict=True):
        for side, team in ((0, t0), (1, t1)):
            draw = bool(np.isnan(win))
            won = (not draw) and int(win) == side
            for c in dict.fromkeys(split_team(team)):
                rows.append((int(mid), side, c, won, draw))
    out = pd.DataFrame(rows, columns=cols)
    return out.astype({"match_id": "int64", "side": "int64", "won": "bool", "draw": "bool"})


# ------------------------------------------------------------------ win rates
def character_win_rates(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Raw win rate of every character over the teams that fielded it.

    Raw rates are confounded by teammates (a weak character picked beside a strong one looks good);
    see :func:`krosbalance.analysis.strength.adjusted_strength` for the corrected measure.

    Returns:
        character, n (team appearances), wins, draws, losses, win_rate = wins / n (draws count as
        non-wins), ci_low, ci_high (Wilson), sorted by win_rate descending.
    """
    app = team_appearances(matches)
    cols = ["character", "n", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]
    if app.empty:
        return pd.DataFrame(columns=cols)
    g = app.groupby("character", sort=True)
    out = pd.DataFrame(
        {"n": g.size(), "wins": g["won"].sum().astype("int64"), "draws": g["draw"].sum().astype("int64")}
    ).reset_index()
    out["losses"] = out["n"] - out["wins"] - out["draws"]
    out["win_rate"] = out["wins"] / out["n"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["wins"].to_numpy(), out["n"].to_numpy(), alpha)
    return out[cols].sort_values(["win_rate", "character"], ascending=[False, True]).reset_index(drop=True)


# ------------------------------------------------------------------ fighters
def _krosmasters_with_summons(matches: pd.DataFrame, fighters: pd.DataFrame) -> pd.DataFrame:
    """Krosmaster rows of ok matches, plus ``damage_dealt_incl_summons`` (own + all their summons').

    A summon's summoner may itself be a summon: damage climbs the chain to the Krosmaster at its root.
    """
    f = ok_fighters(matches, fighters)
    if f.empty or "is_summon" not in f.columns:
        return f.iloc[0:0].assign(damage_dealt_incl_summons=pd.Series(dtype=float))
    f = f.copy()
    summons = f[f["is_summon"].astype(bool)]
    kros = f[~f["is_summon"].astype(bool)].copy()
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


def _mean_columns(g: pd.core.groupby.DataFrameGroupBy, column: str, prefix: str) -> pd.DataFrame:
    rows = {name: mean_interval(grp[column]) for name, grp in g}
    return pd.DataFrame.from_dict(
        rows, orient="index", columns=[prefix, f"{prefix}_ci_low", f"{prefix}_ci_high"]
    )


def damage_stats(matches: pd.DataFrame, fighters: pd.DataFrame) -> pd.DataFrame:
    """Damage per Krosmaster per match, by character (summons excluded as fighters).

    Returns:
        character, n (Krosmaster appearances), mean ``damage_dealt`` / ``damage_taken`` /
        ``damage_dealt_incl_summons`` (own damage plus that of every summon it brought in) each with
        a t 95% interval, mean ``heals_given``, and mean damage dealt per element (``dealt_<element>``).
    """
    k = _krosmasters_with_summons(matches, fighters)
    base = ["character", "n"]
    if k.empty:
        return pd.DataFrame(columns=base + ["damage_dealt", "damage_taken", "damage_dealt_incl_summons"])
    g = k.groupby("character", sort=True)
    out = pd.DataFrame({"n": g.size()})
    for col in ("damage_dealt", "damage_taken", "damage_dealt_incl_summons"):
        out = out.join(_mean_columns(g, col, col))
    if "heals_given" in k.columns:
        out["heals_given"] = g["heals_given"].mean()
    for e in ELEMENTS:
        if f"damage_dealt_{e}" in k.columns:
            out[f"dealt_{e}"] = g[f"damage_dealt_{e}"].mean()
    out.index.name = "character"
    return out.reset_index().sort_values("damage_dealt", ascending=False).reset_index(drop=True)


def damage_by_element_table(damage: pd.DataFrame) -> pd.DataFrame:
    """Long table (character, element, damage) of mean damage dealt per element, for plotting."""
    cols = [f"dealt_{e}" for e in ELEMENTS if f"dealt_{e}" in damage.columns]
    if damage.empty or not cols:
        return pd.DataFrame(columns=["character", "element", "damage"])
    long = damage.melt(id_vars="character", value_vars=cols, var_name="element", value_name="damage")
    long["element"] = long["element"].str.removeprefix("dealt_")
    return long


def ko_stats(matches: pd.DataFrame, fighters: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Knock-outs, kills and survival per character (Krosmasters only).

    Returns:
        character, n, knocked_out (count), ko_rate with Wilson ci, kills (mean per match) with t ci,
        turns_alive (mean) with t ci, and mean gg_won and kamas_collected where present.
    """
    k = _krosmasters_with_summons(matches, fighters)
    if k.empty:
        return pd.DataFrame(columns=["character", "n", "knocked_out", "ko_rate", "ko_ci_low", "ko_ci_high"])
    g = k.groupby("character", sort=True)
    out = pd.DataFrame({"n": g.size(), "knocked_out": g["knocked_out"].sum().astype("int64")})
    out["ko_rate"] = out["knocked_out"] / out["n"]
    out["ko_ci_low"], out["ko_ci_high"] = wilson_interval(
        out["knocked_out"].to_numpy(), out["n"].to_numpy(), alpha
    )
    for col in ("kills", "turns_alive"):
        if col in k.columns:
            out = out.join(_mean_columns(g, col, col))
    for col in ("gg_won", "kamas_collected"):
        if col in k.columns:
            out[col] = g[col].mean()
    out.index.name = "character"
    return out.reset_index()


# ------------------------------------------------------------------ matchups
def matchup_matrix(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Team-versus-team results in long form: one row per ordered (team, opponent) pair.

    Teams are the pairing's ``team_a``/``team_b`` under :func:`team_key` (ids sorted), independent of
    which side they sat on. Each match gives one row from each team's point of view, so on data
    without draws ``win_rate(T, U) + win_rate(U, T) == 1``. A mirror cell (a team against itself) has
    ``n`` but no win rate (NaN): which copy "won" means nothing.

    Returns:
        team, opponent, n, wins, draws, losses, win_rate (draws as non-wins), ci_low, ci_high.
        Use :func:`matchup_pivot` for the square matrix.
    """
    m = ok_matches(matches)
    cols = ["team", "opponent", "n", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]
    if m.empty:
        return pd.DataFrame(columns=cols)
    a = m["team_a"].map(team_key)
    b = m["team_b"].map(team_key)
    wt = m["winner_team"].fillna("").astype(str)
    mirror = a == b
    view_a = pd.DataFrame({"team": a, "opponent": b, "won": wt == "A", "draw": wt == ""})
    view_b = pd.DataFrame({"team": b, "opponent": a, "won": wt == "B", "draw": wt == ""})[~mirror]
    both = pd.concat([view_a, view_b], ignore_index=True)
    g = both.groupby(["team", "opponent"], sort=True)
    out = pd.DataFrame(
        {"n": g.size(), "wins": g["won"].sum().astype("int64"), "draws": g["draw"].sum().astype("int64")}
    ).reset_index()
    out["losses"] = out["n"] - out["wins"] - out["draws"]
    out["win_rate"] = out["wins"] / out["n"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["wins"].to_numpy(), out["n"].to_numpy(), alpha)
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

    The rate is over **decided** matches (draws excluded, since a draw is neither player's win); the
    exact binomial test is against 0.5. ``win_rate_all`` counts draws as non-wins for reference.

    Returns:
        One row: n_matches, draws, n (decided), first_wins, win_rate, ci_low, ci_high (Wilson),
        p_value, win_rate_all.
    """
    m = ok_matches(matches)
    w = winner_series(m)
    decided = w.notna()
    n = int(decided.sum())
    first_wins = int((w[decided] == m.loc[decided, "first_player"].astype(float)).sum()) if n else 0
    lo, hi = wilson_interval(first_wins, n, alpha)
    row = {
        "n_matches": len(m),
        "draws": int((~decided).sum()),
        "n": n,
        "first_wins": first_wins,
        "win_rate": first_wins / n if n else float("nan"),
        "ci_low": lo,
        "ci_high": hi,
        "p_value": binomial_p(first_wins, n),
        "win_rate_all": first_wins / len(m) if len(m) else float("nan"),
    }
    return pd.DataFrame([row])


# ------------------------------------------------------------------ match length
def match_length_table(matches: pd.DataFrame) -> pd.DataFrame:
    """Turns per match by end reason (plus an ``all`` row): n, share, mean with t ci, median, min, max."""
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
    rows = []
    groups = [(str(r), grp) for r, grp in m.groupby("end_reason", sort=True)] + [("all", m)]
    for reason, grp in groups:
        mean, lo, hi = mean_interval(grp["turns"])
        t = grp["turns"].astype(float)
        rows.append(
            (
                reason,
                len(grp),
                len(grp) / len(m),
                mean,
                lo,
                hi,
                float(t.median()),
                float(t.min()),
                float(t.max()),
            )
        )
    return pd.DataFrame(rows, columns=cols)
