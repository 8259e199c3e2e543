"""Seats: who wins at a table of more than two players, by play position, partnership and character.

The report's common sections read seat 0 against seat 1 (``team0``/``team1``, ``winner`` 0 or 1);
at a table of four they are wrong. This module reads every seat of a match (the matches table's
``team<s>``, ``ai<s>``, ``partnerships``, ``play_order``, ``rotation``; see :mod:`krosbalance.sim.tables`)
and answers the seat questions of a mode of more than two players (four-player Arena, R-A150-R-A159):

* **win rate by play position** (the 1st to the Nth player to act), per arm (the experiment's
  variant, else its ruleset label) and per AI tier, with a chi-square test of "the position does not
  matter" per arm;
* **win rate by partnership** where players play in partnerships (two versus two: which play
  positions are partners, e.g. players 1 and 3 against 2 and 4), each tested against an even share,
  Holm-adjusted over the table;
* the **rotation-balanced** figure: every deal seats its table's teams in every rotation on one seed,
  so by *seat* each team sits everywhere equally often and team strength cancels. The play position
  does not rotate with the seat (it follows the teams' Initiative, R-A153, R-A159): the module
  measures how often a team kept its position in every rotation (:func:`position_stability`);
* each **character's strength** at these tables: a conditional logit grouped by match of "this
  partnership won" on the characters it fields, controlling for its play positions (and team size
  when it varies), per arm and tier (:func:`character_strength`).

Conventions: an observation is a seat (rates by position or seat) or a partnership (tests, the
strength model; with every player for himself a partnership is one seat). A seat wins when its
partnership wins. **Draws count as non-wins** in every rate (a draw is in every position's n and in
nobody's wins); the tests and the model compare the winners, so a drawn match carries no information
there. Matches of one deal share their seed (all rotations, all arms): proportions get Wilson
intervals on the deal-clustered effective n (:func:`krosbalance.analysis.stats.rate_table`), the
chi-square statistics are divided by the mean design effect of their cells (a first-order Rao-Scott
correction), binomial tests use the effective counts (as :func:`stats.first_player_advantage` does)
and the model's covariance is deal-clustered (:func:`krosbalance.analysis.design.cluster_sandwich`).
Every function is pure (tables in, a tidy DataFrame out) except :func:`read_seat_matches` and
:func:`for_result_set`, which read a result set.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.analysis.dependence import _tier_rank, ai_tier
from krosbalance.analysis.design import CLUSTER, WEIGHT, clusters, design_effects, weights
from krosbalance.analysis.seating import (
    LABELS,
    MAX_SEATS,
    SEAT_READ,
    _row_seats,
    _seat_team_columns,
    read_seat_matches,
    seat_count,
)
from krosbalance.analysis.stats import holm
from krosbalance.studies.seats.strength import character_ranking, decided_units, fit_strength

ALPHA = stats.ALPHA
BY = ("arm", "tier")
BY_AI = ("arm", "table_ai")  # per AI: the tables of one AI ("mixed": seats of different AIs)
MIXED = "mixed"


# ------------------------------------------------------------------------------------ the seats
def arm_labels(matches: pd.DataFrame) -> pd.Series:
    """Each match's arm: its variant, else its ruleset label, else ``all``."""
    arm = pd.Series("all", index=matches.index, dtype=object)
    if "ruleset" in matches.columns:
        ruleset = matches["ruleset"].astype(object).fillna("").astype(str)
        arm = arm.where(ruleset == "", ruleset)
    if "variant" in matches.columns:
        variant = matches["variant"].astype(object).fillna("").astype(str)
        arm = arm.where(variant == "", variant)
    return arm


def _ints(text: Any) -> list[int]:
    return [int(x) for x in str(text).split(",") if x.strip()]


def mode_label(partnerships: list[int]) -> str:
    """``free-for-all`` when every player plays for himself, else the partnership sizes (``2 v 2``)."""
    sizes = sorted(Counter(partnerships).values(), reverse=True)
    if all(s == 1 for s in sizes):
        return "free-for-all"
    return " v ".join(str(s) for s in sizes)


def _joined(values: list[int]) -> str:
    return "+".join(str(v) for v in values)


def seat_table(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per seat of every error-free match of more than two seats.

    Returns:
        match_id, arm, mode (``free-for-all``, ``2 v 2``), board, seat, label (the table team the
        seat played: A, B...), team (its character ids), ai, tier (the table's AI tier, ``mixed``
        when its AIs' tiers differ), table_ai (its AI, or ``mixed``), position (1 = first to act),
        partnership, positions and seats (those of the seat's partnership, ``1+3``, ``0+2``), k (the
        match's partnerships), won (the seat's partnership won), draw, weight, cluster (the deal).
    """
    cols = [
        "match_id",
        "arm",
        "mode",
        "board",
        "seat",
        "label",
        "team",
        "ai",
        "tier",
        "table_ai",
        "position",
        "partnership",
        "positions",
        "seats",
        "k",
        "won",
        "draw",
        WEIGHT,
        CLUSTER,
    ]
    if matches.empty or "play_order" not in matches.columns:
        return pd.DataFrame(columns=cols)
    m = stats.ok_matches(matches)
    m = m[_row_seats(m) > 2] if len(m) else m
    if m.empty:
        return pd.DataFrame(columns=cols)
    arm = arm_labels(m).to_numpy()
    w, g = weights(m), clusters(m)
    winner = stats.winner_series(m).to_numpy()
    rotation = m["rotation"].to_numpy() if "rotation" in m.columns else np.zeros(len(m), dtype=np.int64)
    board = m["board"].astype(str).to_numpy() if "board" in m.columns else np.full(len(m), "")
    mids = m["match_id"].to_numpy()
    column = {c: m[c].astype(object).fillna("").astype(str).tolist() for c in m.columns if c in SEAT_READ}
    blank = [""] * len(m)
    tiers: dict[str, str] = {}
    rows: list[tuple[Any, ...]] = []
    for i in range(len(m)):
        order = _ints(column["play_order"][i])
        n = len(order)
        if n < 3:  # no play order recorded: nothing to say about positions
            continue
        partners = _ints(column.get("partnerships", blank)[i])
        if len(partners) != n:
            partners = list(range(n))
        ais = [column.get(f"ai{s}", blank)[i] for s in range(n)]
        for a in ais:
            tiers.setdefault(a, ai_tier(a))
        seat_tiers = {tiers[a] for a in ais}
        tier = seat_tiers.pop() if len(seat_tiers) == 1 else MIXED
        table_ai = ais[0] if len(set(ais)) == 1 else MIXED
        position = {seat: k + 1 for k, seat in enumerate(order)}
        k = len(set(partners))
        draw = bool(np.isnan(winner[i]))
        mode = mode_label(partners)
        for seat in range(n):
            p = partners[seat]
            mates = [s for s in range(n) if partners[s] == p]
            rows.append(
                (
                    int(mids[i]),
                    arm[i],
                    mode,
                    board[i],
                    seat,
                    LABELS[(seat + int(rotation[i])) % n],
                    column.get(f"team{seat}", blank)[i],
                    ais[seat],
                    tier,
                    table_ai,
                    position[seat],
                    p,
                    _joined(sorted(position[s] for s in mates)),
                    _joined(mates),
                    k,
                    (not draw) and int(winner[i]) == p,
                    draw,
                    float(w[i]),
                    int(g[i]),
                )
            )
    return pd.DataFrame(rows, columns=cols)


def units(seats: pd.DataFrame) -> pd.DataFrame:
    """One row per partnership of every match (the seats of one partnership merged): ``characters``
    is the list of character ids its seats field; ``position`` its first play position; ``size``
    its Krosmasters."""
    if seats.empty:
        return seats.assign(characters=pd.Series(dtype=object), size=pd.Series(dtype="int64"))
    s = seats.sort_values(["match_id", "position"], kind="stable")
    first = s.drop_duplicates(["match_id", "partnership"]).copy()
    members = s.groupby(["match_id", "partnership"], sort=False)["team"].agg(
        lambda teams: [c for t in teams for c in stats.split_team(t)]
    )
    first["characters"] = [
        members[(mid, p)] for mid, p in zip(first["match_id"], first["partnership"], strict=True)
    ]
    first["size"] = [len(c) for c in first["characters"]]
    return first.reset_index(drop=True)


def _ai_names(seats: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The AIs that played in each group of ``by`` (tier first, then name)."""
    names = seats.groupby(by, sort=True, observed=True)["ai"].agg(
        lambda a: ", ".join(sorted(set(a), key=lambda x: (_tier_rank(ai_tier(x)), x)))
    )
    return names.rename("ais").reset_index()


def _rates(rows: pd.DataFrame, by: list[str], key: str, alpha: float) -> pd.DataFrame:
    out = stats.rate_table(rows, [*by, key], alpha)
    even = rows.assign(
        _e=(~rows["draw"].astype(bool)).astype(float) / rows["k"] * rows[WEIGHT], _w=rows[WEIGHT]
    )
    share = even.groupby([*by, key], sort=True, observed=True)[["_e", "_w"]].sum()
    out = out.merge((share["_e"] / share["_w"]).rename("even").reset_index(), on=[*by, key], how="left")
    out = out.merge(_ai_names(rows, by), on=by, how="left")
    cols = [*by, "ais", key, "n", "wins", "draws", "win_rate", "ci_low", "ci_high", "deff", "even"]
    return out[cols]


def position_rates(seats: pd.DataFrame, by: tuple[str, ...] = BY, alpha: float = ALPHA) -> pd.DataFrame:
    """Win rate of the 1st ... Nth player to act, per group of ``by`` (from :func:`seat_table`).

    Returns:
        the ``by`` columns, ais (the AIs of the group), position, n (matches), wins, draws,
        win_rate (draws as non-wins), ci_low, ci_high (Wilson on the deal-clustered effective n),
        deff, even (the share a seat wins if positions do not matter: the decided share over the
        number of partnerships). With partnerships a seat wins with its partners, so partners'
        rates are equal and the rates of one match sum to the partnership size.
    """
    cols = [*by, "ais", "position", "n", "wins", "draws", "win_rate", "ci_low", "ci_high", "deff", "even"]
    if seats.empty:
        return pd.DataFrame(columns=cols)
    return _rates(seats, list(by), "position", alpha)


def seat_rates(seats: pd.DataFrame, by: tuple[str, ...] = BY, alpha: float = ALPHA) -> pd.DataFrame:
    """Win rate by seat (0 ... N-1), the rotation-balanced figure: every rotation of a deal seats
    each table team in each seat, so team strength cancels by seat. Columns as
    :func:`position_rates`, with ``seat`` for ``position``."""
    cols = [*by, "ais", "seat", "n", "wins", "draws", "win_rate", "ci_low", "ci_high", "deff", "even"]
    if seats.empty:
        return pd.DataFrame(columns=cols)
    return _rates(seats, list(by), "seat", alpha)


def equal_share_tests(seats: pd.DataFrame, by: tuple[str, ...] = BY, key: str = "positions") -> pd.DataFrame:
    """Chi-square test per group that every partnership wins equally often, whatever its ``key``
    (``positions``: the play positions; ``seats``: the seats, the rotation-balanced test).

    Over the decided matches: observed = wins of each key value, expected = the matches in which it
    played over their number of partnerships (``scipy.stats.chisquare``). The statistic is divided
    by the mean design effect of its cells (deal clusters; a first-order Rao-Scott correction)
    before its p-value is taken. Draws are nobody's win: they count as non-wins in the rates and
    do not enter the test.

    Returns:
        the ``by`` columns, ais, n (matches), decided, draws, categories (the key values), chi2,
        deff, chi2_adjusted, df, p_value (NaN with fewer than two categories or no decided match).
    """
    cols = [
        *by,
        "ais",
        "n",
        "decided",
        "draws",
        "categories",
        "chi2",
        "deff",
        "chi2_adjusted",
        "df",
        "p_value",
    ]
    if seats.empty:
        return pd.DataFrame(columns=cols)
    u = units(seats)
    names = _ai_names(seats, list(by)).set_index(list(by))["ais"]
    rows = []
    for group, sub in u.groupby(list(by), sort=True, observed=True):
        group = group if isinstance(group, tuple) else (group,)
        per_match = sub.drop_duplicates("match_id")
        n = float(per_match[WEIGHT].sum())
        draws = float(per_match.loc[per_match["draw"].astype(bool), WEIGHT].sum())
        d = decided_units(sub)
        labels = sorted(set(d[key]), key=lambda v: [int(x) for x in str(v).split("+")])
        row: dict[str, Any] = dict(zip(by, group, strict=True))
        row.update(ais=names.get(group if len(group) > 1 else group[0], ""), n=int(round(n)))
        row.update(decided=int(round(n - draws)), draws=int(round(draws)), categories=" / ".join(labels))
        if len(labels) < 2 or d.empty:
            row.update(chi2=np.nan, deff=np.nan, chi2_adjusted=np.nan, df=0, p_value=np.nan)
            rows.append(row)
            continue
        w = d[WEIGHT].to_numpy(float)
        observed = np.array([(w * d["won"].to_numpy(bool))[d[key].to_numpy() == v].sum() for v in labels])
        expected = np.array([(w / d["k"].to_numpy(float))[d[key].to_numpy() == v].sum() for v in labels])
        expected *= observed.sum() / expected.sum()  # equal up to rounding; chisquare checks the sums
        chi2 = float(sps.chisquare(observed, expected).statistic)
        deff = float(design_effects(d.assign(_key=d[key]), ["_key"], "won")["deff"].mean())
        df = len(labels) - 1
        row.update(
            chi2=chi2,
            deff=deff,
            chi2_adjusted=chi2 / deff,
            df=df,
            p_value=float(sps.chi2.sf(chi2 / deff, df)),
        )
        rows.append(row)
    return pd.DataFrame(rows, columns=cols)


def partnership_rates(seats: pd.DataFrame, by: tuple[str, ...] = BY, alpha: float = ALPHA) -> pd.DataFrame:
    """Win rate of each partnership of more than one player, named by its play positions (``1+3``:
    the first and third players to act), per group of ``by``.

    Each row is tested against its even share (1 / partnerships) by an exact binomial test over the
    decided matches, on the deal-clustered effective counts; the p-values are Holm-adjusted over
    the rows of the table (``statsmodels`` ``multipletests``).

    Returns:
        the ``by`` columns, ais, positions, n, wins, draws, win_rate (draws as non-wins),
        ci_low, ci_high, deff, even, decided, p_value, p_holm. Empty when every player plays alone.
    """
    cols = [*by, "ais", "positions", "n", "wins", "draws", "win_rate", "ci_low", "ci_high", "deff", "even"]
    cols += ["decided", "p_value", "p_holm"]
    if seats.empty:
        return pd.DataFrame(columns=cols)
    u = units(seats)
    u = u[u["seats"].astype(str).str.contains(r"\+", regex=True)]
    if u.empty:
        return pd.DataFrame(columns=cols)
    key = [*by, "positions"]
    out = stats.rate_table(u, key, alpha)
    u = u.assign(_e=(~u["draw"].astype(bool)).astype(float) / u["k"] * u[WEIGHT], _p=1.0 / u["k"])
    g = u.groupby(key, sort=True, observed=True)
    share = (g["_e"].sum() / g[WEIGHT].sum()).rename("even").reset_index()
    null = g["_p"].mean().rename("_null").reset_index()
    out = out.merge(share, on=key, how="left").merge(null, on=key, how="left")
    out = out.merge(_ai_names(seats, list(by)), on=list(by), how="left")
    decided = decided_units(u)
    tested = (
        design_effects(decided, key, "won")
        if len(decided)
        else pd.DataFrame(columns=[*key, "n", "successes", "deff"])
    )
    tested = tested.rename(columns={"n": "decided", "successes": "_tested_wins", "deff": "_tested_deff"})
    out = out.merge(tested, on=key, how="left")
    out["decided"] = out["decided"].fillna(0).round().astype("int64")
    pvals = [
        stats.binomial_p(round(s / d), round(n / d), p) if n and n > 0 else np.nan
        for s, n, d, p in zip(
            out["_tested_wins"].fillna(0),
            out["decided"],
            out["_tested_deff"].fillna(1),
            out["_null"],
            strict=True,
        )
    ]
    out["p_value"] = pvals
    out["p_holm"] = holm(out["p_value"].to_numpy(float))
    return out[cols].reset_index(drop=True)


def position_stability(seats: pd.DataFrame) -> pd.DataFrame:
    """Whether the rotations move the play positions: per arm, the tables (a deal's matches in one
    arm), those played in all their rotations, and the share of table teams that kept one play
    position in every rotation (1.0: the position follows the team, not the seat).

    Returns:
        arm, tables, complete (tables played in every rotation), team_slots (table teams),
        same_position (table teams with one position), share.
    """
    cols = ["arm", "tables", "complete", "team_slots", "same_position", "share"]
    if seats.empty:
        return pd.DataFrame(columns=cols)
    rows = []
    for arm, sub in seats.groupby("arm", sort=True):
        per_table = sub.groupby(CLUSTER)
        n_seats = sub.groupby("match_id")["seat"].count()
        rotations = per_table["match_id"].nunique()
        seats_of = sub.drop_duplicates(CLUSTER).set_index(CLUSTER)["match_id"].map(n_seats)
        complete = int((rotations >= seats_of.reindex(rotations.index)).sum())
        kept = sub.groupby([CLUSTER, "label"])["position"].nunique()
        rows.append(
            (arm, len(rotations), complete, len(kept), int((kept == 1).sum()), float((kept == 1).mean()))
        )
    return pd.DataFrame(rows, columns=cols)


def character_strength(
    seats: pd.DataFrame, by: tuple[str, ...] = BY, ridge: float = 1.0, alpha: float = ALPHA
) -> pd.DataFrame:
    """Each character's strength at these tables, per group of ``by``: a conditional logit grouped
    by match (:mod:`krosbalance.studies.seats.strength`).

    Model: for the partnerships ``j`` of a decided match, ``P(j wins) = exp(eta_j) / sum exp(eta)``
    with ``eta_j = sum_c delta_c x_jc + position terms (+ mu * size_j)``, ``x_jc`` the copies of
    character ``c`` in partnership ``j`` (with every player for himself a partnership is a seat; in
    two versus two a seat wins with its partner, so the partnership is the unit). The position terms
    are log-odds against the partnership holding play position 1 (``(position 2)``, ``(positions
    2+4)``); ``(team size)`` joins them when the number of Krosmasters varies within a match.
    Characters are effect-coded to **sum to zero** (0 = an average character), as in
    :mod:`krosbalance.analysis.strength`. Fit: ``statsmodels`` ``ConditionalLogit``; when it fails,
    separates or diverges, an L2-penalised conditional logit (``method`` = ``ridge``, approximate
    intervals). Covariance deal-clustered (CR1) with enough deals holding several matches, else the
    model's. A group with too few decided matches, or without two characters that differ within a
    match, gives NaN estimates with a "not enough data" note.

    Returns:
        the ``by`` columns, ais, then term, kind (``character`` / ``covariate``), coef (log-odds),
        se, ci_low, ci_high, p_value (Wald), n (decided matches the character played in; the
        model's matches for covariates), appearances (partnerships that fielded it, all error-free
        matches), raw_win_rate (draws as non-wins) with raw_ci_low / raw_ci_high (deal-clustered
        Wilson), even (the raw rate if nothing mattered), method, interval, note. Characters by
        coef, descending, then covariates, within each group.
    """
    fit = fit_strength(units(seats), by, ridge, alpha)
    if seats.empty:
        return fit.assign(ais=pd.Series(dtype=object))[[*by, "ais", *fit.columns[len(by) :]]]
    out = fit.merge(_ai_names(seats, list(by)), on=list(by), how="left")
    return out[[*by, "ais", *fit.columns[len(by) :]]]


def cells_table(matches: pd.DataFrame) -> pd.DataFrame:
    """n per arm, board and AIs of the table (every match, errors included): tables (deals),
    matches, error-free, errors, draws."""
    cols = ["arm", "board", "ais", "tables", "n", "ok", "errors", "draws"]
    if matches.empty:
        return pd.DataFrame(columns=cols)
    m = matches.copy()
    ok = m.index.isin(stats.ok_matches(m).index)
    seats = [s for s in _seat_team_columns(m.columns) if f"ai{s}" in m.columns]
    ai_cols = [f"ai{s}" for s in seats]
    m["arm"] = arm_labels(m)
    m["board"] = m["board"].astype(str) if "board" in m.columns else ""
    m["ais"] = [
        ", ".join(dict.fromkeys(str(a) for a in row if pd.notna(a) and str(a)))
        for row in m[ai_cols].itertuples(index=False)
    ]
    m["ok"] = ok
    m["errors"] = ~ok
    m["draws"] = ok & stats.winner_series(m).isna().to_numpy()
    m["_deal"] = clusters(m)
    g = m.groupby(["arm", "board", "ais"], sort=True)
    out = g.agg(
        tables=("_deal", "nunique"),
        n=("ok", "size"),
        ok=("ok", "sum"),
        errors=("errors", "sum"),
        draws=("draws", "sum"),
    )
    return out.reset_index()[cols]


# ------------------------------------------------------------------------------------ together
@dataclass
class SeatAnalysis:
    """Every seat table of one result set (see the module docstring)."""

    n_seats: int
    matches: pd.DataFrame
    seats: pd.DataFrame
    positions: pd.DataFrame
    positions_by_ai: pd.DataFrame
    position_tests: pd.DataFrame
    position_tests_by_ai: pd.DataFrame
    partnerships: pd.DataFrame
    by_seat: pd.DataFrame
    seat_tests: pd.DataFrame
    stability: pd.DataFrame
    strength: pd.DataFrame
    strength_by_ai: pd.DataFrame
    cells: pd.DataFrame

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables to export as CSV, by file name."""
        return {
            "seat_positions": self.positions,
            "seat_positions_by_ai": self.positions_by_ai,
            "seat_position_tests": self.position_tests,
            "seat_position_tests_by_ai": self.position_tests_by_ai,
            "seat_partnerships": self.partnerships,
            "seat_by_seat": self.by_seat,
            "seat_by_seat_tests": self.seat_tests,
            "seat_rotations": self.stability,
            "seat_strength": self.strength,
            "seat_strength_by_ai": self.strength_by_ai,
        }


def analyse(matches: pd.DataFrame, alpha: float = ALPHA) -> SeatAnalysis:
    """Every seat table of a matches table of more than two seats (:func:`read_seat_matches`)."""
    seats = seat_table(matches)
    return SeatAnalysis(
        n_seats=seat_count(matches),
        matches=matches,
        seats=seats,
        positions=position_rates(seats, BY, alpha),
        positions_by_ai=position_rates(seats, BY_AI, alpha),
        position_tests=equal_share_tests(seats, BY, "positions"),
        position_tests_by_ai=equal_share_tests(seats, BY_AI, "positions"),
        partnerships=partnership_rates(seats, BY, alpha),
        by_seat=seat_rates(seats, BY, alpha),
        seat_tests=equal_share_tests(seats, BY, "seats"),
        stability=position_stability(seats),
        strength=character_strength(seats, BY, alpha=alpha),
        strength_by_ai=character_strength(seats, BY_AI, alpha=alpha),
        cells=cells_table(matches),
    )


_ANALYSED: weakref.WeakKeyDictionary[Any, SeatAnalysis | None] = weakref.WeakKeyDictionary()


def for_result_set(rs: Any) -> SeatAnalysis | None:
    """The seat analysis of a result set, None when its matches seat two players (computed once per
    result set: the report's summary and its Seats section share it)."""
    if rs not in _ANALYSED:
        matches = read_seat_matches(rs)
        _ANALYSED[rs] = analyse(matches) if seat_count(matches) > 2 else None
    return _ANALYSED[rs]


__all__ = [
    "MAX_SEATS",
    "SeatAnalysis",
    "analyse",
    "arm_labels",
    "cells_table",
    "character_ranking",
    "character_strength",
    "equal_share_tests",
    "for_result_set",
    "holm",
    "partnership_rates",
    "position_rates",
    "position_stability",
    "read_seat_matches",
    "seat_count",
    "seat_rates",
    "seat_table",
    "units",
]
