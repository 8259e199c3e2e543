"""The AI ladder: how strong each AI is, from matches that pair different AIs.

* **Ratings** -- a Bradley-Terry model fitted as a logistic regression on the decided matches::

      logit P(side 0 wins) = a + b * first_0 + sum_c gamma_c x_c + r_ai0 - r_ai1

  with the ratings ``r`` summing to zero (0 = the field's average AI), a side-0 intercept, a term
  for playing first and, when the two sides field different teams, character contrasts ``x_c``
  (copies on side 0 minus side 1) so a lucky draw of teams is not credited to an AI. It is the same
  engine as the teammate-adjusted strength (:func:`krosbalance.analysis.strength.fit_effects`):
  statsmodels maximum likelihood, a ridge fallback, and deal-clustered intervals (paired seeds).
* **Win-rate matrix** -- every ordered pair of AIs that met, with its deal-clustered Wilson
  interval (draws count as non-wins).
* **Validity gate** -- the tiers must be ordered, judged with intervals: every heuristic AI above
  every baseline AI, every search AI above every heuristic and baseline AI (rating difference with
  its 95% interval above zero). An AI is *validated* when the comparisons that concern it hold:
  a heuristic beats every baseline played, a search AI beats every heuristic and baseline played,
  a baseline is the floor (some stronger AI is above it with confidence). An AI whose tier is
  unknown, or that met no AI of the tier it must be compared with, is not validated.

:func:`write_ladder` writes the matches' ruleset's ladder into the standing file that
:func:`krosbalance.ai.ladder.load_ladder` reads and every report quotes (``krosbalance report RESULTS
--write-ladder``), keeping the other rulesets' ladders.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.ai.ladder import (
    DEFAULT_RULESET,
    LADDER_FILE,
    LadderSource,
    LadderStanding,
    ladder_sources,
    load_ladders,
)
from krosbalance.ai.ladder_order import FOUR_PLAYER_LADDER
from krosbalance.analysis import stats
from krosbalance.analysis.dependence import TIER_ORDER, ai_tier
from krosbalance.analysis.design import CLUSTER, WEIGHT, clusters, weights, with_design
from krosbalance.analysis.strength import FIRST_TERM, SIDE_TERM, character_covariance, fit_effects

TierOf = Callable[[str], str]


def four_seat_sides(matches: pd.DataFrame) -> pd.DataFrame:
    """Four-seat matches read as two sides (four-player Arena's ladder, ``arena-4p``): a match whose
    AIs alternate round the table (seats 0 and 2 one AI, seats 1 and 3 another: one partnership each
    in two versus two, alternate seats in a free-for-all) becomes side 0 (seats 0 and 2: their AI,
    their teams joined) against side 1 (seats 1 and 3); the winner and the first player are the side
    of the winning partnership or seat (partnerships of two versus two are seats ``(0, 1, 0, 1)``,
    so both modes read ``% 2``). Four-seat matches whose AIs do not alternate are left out; a table
    without further seats is returned as it is."""
    if "ai2" not in matches.columns or not matches["ai2"].notna().any():
        return matches
    m = matches[
        (matches["ai2"].astype(str) == matches["ai0"].astype(str))
        & (matches["ai3"].astype(str) == matches["ai1"].astype(str))
    ].copy()
    winner = stats.winner_series(m)
    m["winner"] = winner % 2
    m["first_player"] = pd.to_numeric(m["first_player"], errors="coerce") % 2
    m["team0"] = m["team0"].astype(str) + "," + m["team2"].astype(str)
    m["team1"] = m["team1"].astype(str) + "," + m["team3"].astype(str)
    return m


def cross_ai_matches(matches: pd.DataFrame) -> pd.DataFrame:
    """The error-free matches in which the two sides had different AIs (four seats: read as two
    sides by :func:`four_seat_sides`)."""
    m = four_seat_sides(stats.ok_matches(matches))
    if m.empty or "ai0" not in m.columns:
        return m.iloc[0:0]
    return m[m["ai0"].astype(str) != m["ai1"].astype(str)]


def _design(m: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame]:
    y = (stats.winner_series(m) == 0).to_numpy(dtype=float)
    ai0, ai1 = m["ai0"].astype(str).to_numpy(), m["ai1"].astype(str).to_numpy()
    ais = sorted(set(ai0) | set(ai1))
    col = {a: i for i, a in enumerate(ais)}
    x = np.zeros((len(m), len(ais)))
    rows = np.arange(len(m))
    x[rows, [col[a] for a in ai0]] += 1
    x[rows, [col[a] for a in ai1]] -= 1
    cov = pd.DataFrame({SIDE_TERM: np.ones(len(m))})
    first = np.where(m["first_player"].to_numpy() == 0, 1.0, -1.0)
    if len(np.unique(first)) > 1:
        cov[FIRST_TERM] = first
    if "team0" in m.columns and (m["team0"].astype(str) != m["team1"].astype(str)).any():
        t0 = [stats.split_team(t) for t in m["team0"]]
        t1 = [stats.split_team(t) for t in m["team1"]]
        chars = sorted({c for team in t0 + t1 for c in team})
        diff = np.zeros((len(m), len(chars)))
        index = {c: i for i, c in enumerate(chars)}
        for r, (a, b) in enumerate(zip(t0, t1, strict=True)):
            for c in a:
                diff[r, index[c]] += 1
            for c in b:
                diff[r, index[c]] -= 1
        keep = [i for i in range(len(chars)) if np.any(diff[:, i] != 0)][:-1]  # drop one: a reference
        for i in keep:
            cov[f"(team: {chars[i]})"] = diff[:, i]
    return pd.DataFrame(x, columns=ais), y, cov


def ladder_ratings(
    matches: pd.DataFrame, tier_of: TierOf = ai_tier, alpha: float = stats.ALPHA
) -> pd.DataFrame:
    """Bradley-Terry rating of every AI that met another AI (see the module docstring).

    Returns:
        ai, tier, rating (log-odds against the field's average AI), se, ci_low, ci_high, n (decided
        matches it played against another AI), method, interval, note; sorted by rating. The
        ratings' covariance is in ``attrs["character_cov"]`` (see :func:`rating_covariance`).
    """
    cols = ["ai", "tier", "rating", "se", "ci_low", "ci_high", "n", "method", "interval", "note"]
    m = cross_ai_matches(matches)
    m = m[stats.winner_series(m).notna().to_numpy()] if len(m) else m
    if m.empty:
        return pd.DataFrame(columns=cols)
    x, y, cov = _design(m)
    w, g = weights(m), clusters(m)
    played = {a: 0.0 for a in x.columns}
    for a, b, k in zip(m["ai0"].astype(str), m["ai1"].astype(str), w, strict=True):
        played[a] += k
        played[b] += k
    fit = fit_effects(x, y, cov, w, g, played, kind="ai", absent_note="never met another AI", alpha=alpha)
    out = fit[fit["kind"] == "ai"].rename(columns={"term": "ai", "coef": "rating"})
    out = out.assign(tier=[tier_of(a) for a in out["ai"]])[cols].reset_index(drop=True)
    out.attrs["character_cov"] = fit.attrs["character_cov"]
    return out


def rating_covariance(ratings: pd.DataFrame) -> pd.DataFrame | None:
    """The covariance matrix of the ratings (None when there is none)."""
    return character_covariance(ratings)


def win_matrix(matches: pd.DataFrame, alpha: float = stats.ALPHA) -> pd.DataFrame:
    """Every ordered pair of AIs that met: n, wins, draws, losses, win_rate and its deal-clustered
    Wilson interval, from the row AI's point of view."""
    m = with_design(cross_ai_matches(matches))
    cols = ["ai", "opponent", "n", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "deff"]
    if m.empty:
        return pd.DataFrame(columns=cols)
    w = stats.winner_series(m).to_numpy()
    common = {WEIGHT: m[WEIGHT].to_numpy(), CLUSTER: m[CLUSTER].to_numpy(), "draw": np.isnan(w)}
    a = pd.DataFrame({"ai": m["ai0"].astype(str), "opponent": m["ai1"].astype(str), "won": w == 0} | common)
    b = pd.DataFrame({"ai": m["ai1"].astype(str), "opponent": m["ai0"].astype(str), "won": w == 1} | common)
    out = stats.rate_table(pd.concat([a, b], ignore_index=True), ["ai", "opponent"], alpha)
    return out[cols]


def validity_gate(
    ratings: pd.DataFrame, tier_of: TierOf | None = None, alpha: float = stats.ALPHA
) -> pd.DataFrame:
    """Every comparison the tier order requires, with the rating difference and its interval.

    Returns:
        lower, lower_tier, higher, higher_tier, diff (higher minus lower), ci_low, ci_high,
        holds (the interval is above zero).
    """
    cols = ["lower", "lower_tier", "higher", "higher_tier", "diff", "ci_low", "ci_high", "holds"]
    if ratings.empty:
        return pd.DataFrame(columns=cols)
    if tier_of is None:
        tiers = dict(zip(ratings["ai"], ratings["tier"], strict=True))
        tier: TierOf = tiers.__getitem__
    else:
        tier = tier_of
    r = ratings.set_index("ai")["rating"]
    cov = rating_covariance(ratings)
    z = float(sps.norm.ppf(1 - alpha / 2))
    rows = []
    for low in r.index:
        for high in r.index:
            lt, ht = tier(low), tier(high)
            if lt not in TIER_ORDER or ht not in TIER_ORDER or TIER_ORDER.index(lt) >= TIER_ORDER.index(ht):
                continue
            diff = float(r[high] - r[low])
            var = np.nan
            if cov is not None and low in cov.index and high in cov.index:
                var = float(cov.loc[high, high] + cov.loc[low, low] - 2 * cov.loc[high, low])
            half = z * math.sqrt(var) if np.isfinite(var) and var > 0 else np.nan
            lo, hi = diff - half, diff + half
            rows.append((low, lt, high, ht, diff, lo, hi, bool(np.isfinite(lo) and lo > 0)))
    return pd.DataFrame(rows, columns=cols)


def gate_passed(gate: pd.DataFrame) -> bool:
    """Whether every comparison the tier order requires holds (and there is at least one)."""
    return bool(len(gate)) and bool(gate["holds"].all())


def validated_ais(ratings: pd.DataFrame, gate: pd.DataFrame) -> dict[str, bool]:
    """Per AI, whether it passed the comparisons that concern it (see the module docstring)."""
    out: dict[str, bool] = {}
    for ai, tier in zip(ratings["ai"], ratings["tier"], strict=True):
        if tier == "baseline":
            above = gate[gate["lower"] == ai]
            out[ai] = bool(above["holds"].any())
        elif tier in ("heuristic", "search"):
            below = gate[gate["higher"] == ai]
            needs = {"heuristic": {"baseline"}, "search": {"heuristic"}}[tier]
            out[ai] = bool(len(below)) and needs <= set(below["lower_tier"]) and bool(below["holds"].all())
        else:
            out[ai] = False
    return out


def standings(
    matches: pd.DataFrame, tier_of: TierOf = ai_tier, alpha: float = stats.ALPHA
) -> dict[str, LadderStanding]:
    """The ladder standing of every AI that met another AI (what :func:`write_ladder` writes)."""
    ratings = ladder_ratings(matches, tier_of, alpha)
    if ratings.empty:
        return {}
    ok = validated_ais(ratings, validity_gate(ratings))
    return {
        r.ai: LadderStanding(
            ai=r.ai,
            tier=r.tier,
            rating=float(r.rating),
            ci_low=float(r.ci_low),
            ci_high=float(r.ci_high),
            n=int(r.n),
            validated=ok[r.ai],
        )
        for r in ratings.itertuples(index=False)
        if np.isfinite(r.rating)
    }


def _num(x: float) -> str:
    return "nan" if not np.isfinite(x) else f"{x:.4f}"


def _name(name: str) -> str:
    return name if name.replace("_", "").replace("-", "").isalnum() else f'"{name}"'


def ladder_toml(
    table: Mapping[str, LadderStanding],
    experiment: str = "",
    n_matches: int = 0,
    ruleset: str = DEFAULT_RULESET,
    others: Mapping[str, tuple[Mapping[str, LadderStanding], LadderSource]] | None = None,
) -> str:
    """The standing file's text (the schema :func:`krosbalance.ai.ladder.load_ladders` reads):
    ``ruleset``'s ladder ``table`` from ``experiment``, beside the ladders of ``others`` (ruleset
    -> its table and source) kept as they were; rulesets in name order."""
    sections = dict(others or {})
    sections[ruleset] = (table, LadderSource(experiment, n_matches))
    lines = [
        "# The AI ladders' standings, one per ruleset, read by every report (krosbalance.ai.ladder).",
        "# Each ruleset's is written by `krosbalance report RESULTS --write-ladder` from its ladder",
        "# experiment (named below with its decided cross-AI matches); writing one keeps the others.",
        "# rating: Bradley-Terry log-odds against the field's average AI, ci: its 95% deal-clustered",
        "# interval, n: decided matches against other AIs, validated: the AI passed the tier-order gate.",
    ]
    for name in sorted(sections):
        standings, source = sections[name]
        lines += [
            "",
            f"[{_name(name)}]",
            f'experiment = "{source.experiment}"',
            f"matches = {source.matches}",
        ]
        for ai in sorted(standings, key=lambda a: (-standings[a].rating, a)):
            s = standings[ai]
            lines += [
                "",
                f"[{_name(name)}.ais.{_name(ai)}]",
                f'tier = "{s.tier}"',
                f"rating = {_num(s.rating)}",
                f"ci = [{_num(s.ci_low)}, {_num(s.ci_high)}]",
                f"n = {s.n}",
                f"validated = {'true' if s.validated else 'false'}",
            ]
    return "\n".join(lines) + "\n"


def matches_ruleset(matches: pd.DataFrame) -> str:
    """The one ruleset of ``matches`` (Arena when they do not say).

    Raises:
        ValueError: the matches mix rulesets (a ladder is one ruleset's).
    """
    if "ruleset" not in matches.columns or matches.empty:
        return DEFAULT_RULESET
    names = sorted({str(r).split("(")[0].split("[")[0].split()[0] for r in matches["ruleset"].dropna()})
    if len(names) > 1:
        raise ValueError(f"the matches mix rulesets ({', '.join(names)}): a ladder is one ruleset's")
    name = names[0] if names else DEFAULT_RULESET
    if name == "arena" and "ai2" in matches.columns and matches["ai2"].notna().any():
        return FOUR_PLAYER_LADDER  # four-player Arena: a ladder of its own
    return name


def write_ladder(
    matches: pd.DataFrame,
    path: str | Path | None = None,
    experiment: str = "",
    tier_of: TierOf = ai_tier,
    ruleset: str | None = None,
) -> Path:
    """Fit the ladder on ``matches`` and write their ruleset's standing into the file (default: the
    shipped one), the other rulesets' ladders kept as they were. ``ruleset``: the matches' ruleset
    when their table does not say it (a summary table drops the column).

    Raises:
        ValueError: if the matches pair no two different AIs, or mix rulesets.
    """
    ruleset = ruleset or matches_ruleset(matches)
    table = standings(matches, tier_of)
    if not table:
        raise ValueError("no match pairs two different AIs: there is no ladder to write")
    out = Path(path) if path is not None else LADDER_FILE
    out.parent.mkdir(parents=True, exist_ok=True)
    sources = ladder_sources(out)
    others = {
        name: (kept, sources.get(name, LadderSource("", 0)))
        for name, kept in load_ladders(out).items()
        if name != ruleset
    }
    n = int(round(weights(cross_ai_matches(matches)).sum()))
    table = {ai: replace(s, ruleset=ruleset) for ai, s in table.items()}
    out.write_text(ladder_toml(table, experiment, n, ruleset, others), encoding="utf-8")
    return out
