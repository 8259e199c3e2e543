"""How balanced is the game? Summary numbers built from the win-rate, matchup and strength tables.

Definitions (every value comes with a 95% interval):

* **Strength spread** = max - min teammate-adjusted strength (log-odds, see
  :mod:`krosbalance.analysis.strength`). Its interval is a simulation interval: draws from the
  estimated normal distribution of the character effects, max - min of each draw, 2.5/97.5
  percentiles. (A max - min of noisy estimates is biased upward; the interval shows how much.)
* **Ludii-style balance** follows Ludii's "Balance" metric: ``1 - (max win rate - min win rate)``
  over the players (seats), so 1 means every seat wins equally often and 0 means one seat always
  wins. Draws count as non-wins for every seat (this does not change the difference). We give it
  over play order (first vs second player: Ludii's seats) and over sides 0/1. Interval: simulation
  from the Jeffreys Dirichlet posterior of (seat A wins, seat B wins, draws).
* **Character balance (raw)** = the same formula over characters' raw win rates, ``1 - (max - min)``
  (characters with at least ``min_n`` appearances). Confounded by teammates, given for reference.
  Interval: simulation with each rate drawn from its Jeffreys Beta posterior.
* **Character balance (adjusted)** = ``2 * expit(-spread)``: the Ludii balance of a match between two
  otherwise identical teams, one fielding the strongest and the other the weakest character. 1 when
  all characters are equal, towards 0 as the spread grows.
* **Dominated team**: a team that met at least two opponents (mirror excluded) and whose win rate
  against *every* one of them has a 95% upper bound below 0.5: it is worse than each of them, with
  confidence. Dominant teams are the mirror image (lower bound above 0.5 against every opponent).
  A team that met a single opponent is never called either (losing one pairing says which side of
  it is stronger, not that a team is dominated across a field); such teams are counted apart as
  "lost (won) its only matchup".
* **Draw share** and **turn-limit share** of error-free matches, with Wilson intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from krosbalance.analysis import stats
from krosbalance.analysis.design import weights
from krosbalance.analysis.names import display_name, team_label
from krosbalance.analysis.strength import adjusted_strength, character_covariance, character_strengths

COLUMNS = ["metric", "value", "ci_low", "ci_high", "n", "detail"]
N_DRAWS = 4000


MIN_OPPONENTS = 2


def _team_verdicts(
    matchups: pd.DataFrame, dominated: bool, min_opponents: int, max_opponents: int | None = None
) -> pd.DataFrame:
    cols = ["team", "opponents", "n", "win_rate", "worst_bound"]
    if matchups.empty:
        return pd.DataFrame(columns=cols)
    cells = matchups[(matchups["team"] != matchups["opponent"]) & (matchups["n"] > 0)]
    rows = []
    for team, grp in cells.groupby("team", sort=True):
        if len(grp) < min_opponents or (max_opponents is not None and len(grp) > max_opponents):
            continue
        if dominated:
            ok, bound = bool((grp["ci_high"] < 0.5).all()), float(grp["ci_high"].max())
        else:
            ok, bound = bool((grp["ci_low"] > 0.5).all()), float(grp["ci_low"].min())
        if ok:
            n = int(grp["n"].sum())
            rows.append((team, len(grp), n, float(grp["wins"].sum()) / n, bound))
    return pd.DataFrame(rows, columns=cols)


def dominated_teams(matchups: pd.DataFrame, min_opponents: int = MIN_OPPONENTS) -> pd.DataFrame:
    """Teams that met at least ``min_opponents`` opponents and whose 95% upper bound is below 0.5
    against every one of them.

    Args:
        matchups: the output of :func:`stats.matchup_matrix`.
        min_opponents: a team that met fewer opponents is never called dominated.

    Returns:
        team, opponents (how many), n (matches), win_rate (overall), worst_bound (the largest upper
        bound, i.e. the closest call).
    """
    return _team_verdicts(matchups, dominated=True, min_opponents=min_opponents)


def dominant_teams(matchups: pd.DataFrame, min_opponents: int = MIN_OPPONENTS) -> pd.DataFrame:
    """Teams whose lower bound is above 0.5 against every one of at least ``min_opponents``
    opponents (worst_bound = smallest)."""
    return _team_verdicts(matchups, dominated=False, min_opponents=min_opponents)


def losing_every_matchup(matchups: pd.DataFrame) -> pd.DataFrame:
    """Teams with a 95% upper bound below 0.5 against every opponent they met, however many: the
    dominated teams plus the single-matchup losers (what :func:`narrative.dominated_finding` reads)."""
    return _team_verdicts(matchups, dominated=True, min_opponents=1)


def single_matchup_losers(matchups: pd.DataFrame) -> pd.DataFrame:
    """Teams that met one opponent only and lost to it with 95% confidence (not "dominated")."""
    return _team_verdicts(matchups, dominated=True, min_opponents=1, max_opponents=1)


def single_matchup_winners(matchups: pd.DataFrame) -> pd.DataFrame:
    """Teams that met one opponent only and beat it with 95% confidence (not "dominant")."""
    return _team_verdicts(matchups, dominated=False, min_opponents=1, max_opponents=1)


def ludii_balance(
    wins_a: int, wins_b: int, n: int, alpha: float = stats.ALPHA, rng: np.random.Generator | None = None
) -> tuple[float, float, float]:
    """Ludii balance ``1 - |wins_a - wins_b| / n`` of two seats over ``n`` games, with its interval.

    The interval is a simulation interval: (win a, win b, draw) shares drawn from the Jeffreys
    posterior Dirichlet(wins_a + 1/2, wins_b + 1/2, draws + 1/2), balance of each draw, percentiles.
    Unlike a Wald interval it stays sensible for tiny or one-sided data.
    """
    if n <= 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(0) if rng is None else rng
    draws = max(n - wins_a - wins_b, 0)
    shares = rng.dirichlet([wins_a + 0.5, wins_b + 0.5, draws + 0.5], size=N_DRAWS)
    sim = 1 - np.abs(shares[:, 0] - shares[:, 1])
    lo, hi = np.quantile(sim, [alpha / 2, 1 - alpha / 2])
    value = 1 - abs(wins_a - wins_b) / n
    return value, float(min(lo, value)), float(max(hi, value))


def _spread_interval(chars: pd.DataFrame, cov: pd.DataFrame | None, rng: np.random.Generator, alpha: float):
    coef = chars.set_index("term")["coef"]
    if cov is not None and set(cov.index) >= set(coef.index):
        cov = cov.loc[coef.index, coef.index].to_numpy()
    else:  # no joint covariance: treat the estimates as independent
        cov = np.diag(chars["se"].fillna(0).to_numpy() ** 2)
    draws = rng.multivariate_normal(coef.to_numpy(), cov, size=N_DRAWS, method="eigh")
    spread = draws.max(axis=1) - draws.min(axis=1)
    return tuple(np.quantile(spread, [alpha / 2, 1 - alpha / 2]))


def _rate_spread_interval(rates: pd.DataFrame, rng: np.random.Generator, alpha: float):
    """Simulation interval of max - min win rate, each rate drawn from its Jeffreys Beta posterior."""
    wins = rates["wins"].to_numpy(float)
    n = rates["n"].to_numpy(float)
    draws = rng.beta(wins + 0.5, n - wins + 0.5, size=(N_DRAWS, len(n)))
    spread = draws.max(axis=1) - draws.min(axis=1)
    return tuple(np.quantile(spread, [alpha / 2, 1 - alpha / 2]))


def _team_list(teams: pd.Series, shown: int = 3) -> str:
    """A few team names for a summary cell; the full list is in the dominated-teams table."""
    names = [f"[{team_label(t)}]" for t in teams]
    if not names:
        return "none"
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return "; ".join(names[:shown]) + more


def balance_summary(
    matches: pd.DataFrame,
    *,
    strength: pd.DataFrame | None = None,
    win_rates: pd.DataFrame | None = None,
    matchups: pd.DataFrame | None = None,
    min_n: int = 1,
    rng: np.random.Generator | None = None,
    alpha: float = stats.ALPHA,
) -> pd.DataFrame:
    """Balance metrics of one experiment (definitions in the module docstring).

    Derived tables may be passed in to avoid recomputing them. ``rng`` drives the simulation
    intervals (default: a fixed seed, so reports are reproducible).

    Returns:
        metric, value, ci_low, ci_high, n, detail: one row per metric; a metric that cannot be
        computed on this data has NaN value and says why in ``detail``.
    """
    rng = np.random.default_rng(0) if rng is None else rng
    m = stats.ok_matches(matches)
    strength = adjusted_strength(matches) if strength is None else strength
    win_rates = stats.character_win_rates(matches) if win_rates is None else win_rates
    matchups = stats.matchup_matrix(matches) if matchups is None else matchups
    nan = float("nan")
    rows: list[tuple] = []

    chars = character_strengths(strength)
    if len(chars) >= 2:
        spread = float(chars["coef"].max() - chars["coef"].min())
        lo, hi = _spread_interval(chars, character_covariance(strength), rng, alpha)
        top, bottom = chars.loc[chars["coef"].idxmax(), "term"], chars.loc[chars["coef"].idxmin(), "term"]
        n_model = int(strength.loc[strength["kind"] == "covariate", "n"].max())
        rows.append(
            (
                "strength spread (log-odds)",
                spread,
                lo,
                hi,
                n_model,
                f"{display_name(top)} minus {display_name(bottom)}",
            )
        )
        rows.append(
            (
                "character balance (adjusted)",
                2 * expit(-spread),
                2 * expit(-hi),
                2 * expit(-lo),
                n_model,
                "2*expit(-spread): Ludii balance of strongest vs weakest swap",
            )
        )
    else:
        rows.append(
            (
                "strength spread (log-odds)",
                nan,
                nan,
                nan,
                0,
                "not enough data: fewer than 2 estimable characters",
            )
        )
        rows.append(("character balance (adjusted)", nan, nan, nan, 0, "not enough data"))

    w = stats.winner_series(m)
    k = weights(m)
    n = int(round(k.sum()))
    if n:
        first = m["first_player"].astype(float)
        first_wins = int(round(k[(w == first).to_numpy()].sum()))
        second_wins = int(round(k[(w.notna() & (w != first)).to_numpy()].sum()))
        rows.append(
            (
                "balance (first vs second player)",
                *ludii_balance(first_wins, second_wins, n, alpha, rng),
                n,
                f"first {first_wins}, second {second_wins}, draws {n - first_wins - second_wins}",
            )
        )
        s0, s1 = int(round(k[(w == 0).to_numpy()].sum())), int(round(k[(w == 1).to_numpy()].sum()))
        rows.append(
            (
                "balance (side 0 vs side 1)",
                *ludii_balance(s0, s1, n, alpha, rng),
                n,
                f"side 0 {s0}, side 1 {s1}, draws {n - s0 - s1}",
            )
        )
    else:
        rows.append(
            ("balance (first vs second player)", nan, nan, nan, 0, "not enough data: no error-free match")
        )
        rows.append(("balance (side 0 vs side 1)", nan, nan, nan, 0, "not enough data: no error-free match"))

    rates = win_rates[win_rates["n"] >= min_n] if not win_rates.empty else win_rates
    if len(rates) >= 2:
        raw_spread = float(rates["win_rate"].max() - rates["win_rate"].min())
        lo, hi = _rate_spread_interval(rates, rng, alpha)
        lo, hi = min(lo, raw_spread), max(hi, raw_spread)
        rows.append(
            (
                "character balance (raw win rates)",
                1 - raw_spread,
                1 - hi,
                1 - lo,
                int(rates["n"].sum()),
                "1 - (max - min) raw win rate; confounded by teammates",
            )
        )
    else:
        rows.append(
            (
                "character balance (raw win rates)",
                nan,
                nan,
                nan,
                0,
                "not enough data: fewer than 2 characters",
            )
        )

    dom = dominated_teams(matchups)
    n_teams = len(set(matchups["team"])) if not matchups.empty else 0
    several = f"teams that met at least {MIN_OPPONENTS} opponents"
    rows.append(
        ("dominated teams", float(len(dom)), nan, nan, n_teams, f"{several}: {_team_list(dom['team'])}")
    )
    dmt = dominant_teams(matchups)
    rows.append(
        ("dominant teams", float(len(dmt)), nan, nan, n_teams, f"{several}: {_team_list(dmt['team'])}")
    )
    lost = single_matchup_losers(matchups)
    if len(lost):
        rows.append(
            (
                "lost its only matchup",
                float(len(lost)),
                nan,
                nan,
                n_teams,
                "teams that met one opponent and lost to it with 95% confidence (not dominance)",
            )
        )

    rows += _ending_rows(m, alpha)
    return pd.DataFrame(rows, columns=COLUMNS)


def _ending_rows(m: pd.DataFrame, alpha: float) -> list[tuple]:
    """The draw share and the turn-limit share of error-free matches ``m``, with Wilson intervals."""
    w = stats.winner_series(m)
    k = weights(m)
    n = int(round(k.sum()))
    nan = float("nan")
    draws = int(round(k[w.isna().to_numpy()].sum()))
    lo, hi = stats.wilson_interval(draws, n, alpha)
    rows: list[tuple] = [("draw share", draws / n if n else nan, lo, hi, n, f"{draws} draws")]
    tl = int(round(k[(m["end_reason"].astype(str) == "turn_limit").to_numpy()].sum())) if n else 0
    lo, hi = stats.wilson_interval(tl, n, alpha)
    rows.append(("turn-limit share", tl / n if n else nan, lo, hi, n, f"{tl} matches hit the turn limit"))
    return rows


def ending_shares(matches: pd.DataFrame, alpha: float = stats.ALPHA) -> pd.DataFrame:
    """The rows ``draw share`` and ``turn-limit share`` of :func:`balance_summary` alone: they hold
    for any number of players (a draw is nobody's win), where the rest of the summary is two-player."""
    return pd.DataFrame(_ending_rows(stats.ok_matches(matches), alpha), columns=COLUMNS)
