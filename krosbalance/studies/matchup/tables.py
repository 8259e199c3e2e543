"""The matchup study's tables: per pair of named teams and per AI, team A's win rate over team B;
with three or more teams, each team's win rate over all its matches and the ranking it gives.

Every number is the shared statistics' (:mod:`krosbalance.analysis.stats`): draws count as
non-wins, Wilson 95% intervals on the deal-clustered effective n (a deal is played twice, sides
swapped, on one seed, so its two matches are not independent). Whether a pair *differs* is read
from the decided matches: a difference is measurable when the 95% interval of A's share of the
decided matches excludes 50%, i.e. when the result cannot be told from a coin flip otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from krosbalance.ai.ladder import load_ladder
from krosbalance.analysis import stats
from krosbalance.analysis.dependence import with_groups
from krosbalance.analysis.design import CLUSTER, WEIGHT, with_design
from krosbalance.analysis.top_ai import strength_order

PAIR_COLUMNS = [
    "pairing",
    "team_a",
    "team_b",
    "ai",
    "tier",
    "board",
    "n",
    "a_wins",
    "b_wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "b_win_rate",
    "b_ci_low",
    "b_ci_high",
    "decided",
    "decided_rate",
    "decided_low",
    "decided_high",
    "measurable",
    "deff",
]
RANK_COLUMNS = [
    "ai",
    "tier",
    "rank",
    "team",
    "n",
    "wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "opponents",
]
ALL_BOARDS = "all"


def ai_label(ai_a: str, ai_b: str) -> str:
    """``mcts-race`` when both teams had the same AI, else ``kiter (A) vs random (B)``."""
    return str(ai_a) if ai_a == ai_b else f"{ai_a} (A) vs {ai_b} (B)"


def ai_order(ais: list[str], ruleset: str = "arena") -> list[str]:
    """AI labels strongest first: the labels of one AI for both teams in the order that picks the
    answering AI (:func:`krosbalance.analysis.top_ai.strength_order`: validated first, then tier and
    ladder rating), then the mixed ones by name."""
    try:
        standings = dict(load_ladder(ruleset=ruleset.split("[", 1)[0].strip()))
    except Exception:  # a broken ladder file is the report's to flag; order by tier and name then
        standings = {}
    single = strength_order([a for a in ais if " vs " not in a], ruleset, standings)
    return single + sorted(a for a in ais if " vs " in a)


def _ok(matches: pd.DataFrame) -> pd.DataFrame:
    m = stats.ok_matches(matches)
    if m.empty or "team_a" not in m.columns:
        return m.iloc[0:0]
    m = with_groups(with_design(m))
    return m.assign(ai=[ai_label(a, b) for a, b in zip(m["ai_a"], m["ai_b"], strict=True)])


def _groups(m: pd.DataFrame, by_board: bool) -> Iterator[tuple[tuple[int, str, str], pd.DataFrame]]:
    boards = m["board"].astype(str) if by_board else pd.Series(ALL_BOARDS, index=m.index)
    for (pairing, ai, board), g in m.groupby([m["pairing"].astype(int), m["ai"], boards], sort=True):
        yield (int(pairing), str(ai), str(board)), g


def _row(mm: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    found = mm[(mm["team"] == stats.team_key(a)) & (mm["opponent"] == stats.team_key(b))]
    return None if found.empty else found.iloc[0]


def pair_rates(matches: pd.DataFrame, by_board: bool = False) -> pd.DataFrame:
    """Per pairing (team A against team B as the experiment names them) and AI (and board, with
    ``by_board``, else ``board = "all"``): A's win rate over every match (draws as non-wins) and over
    the decided ones, deal-clustered Wilson 95% intervals; ``measurable`` when the decided-match
    interval excludes 50%. A mirror pairing (a team against itself) has no rate."""
    m = _ok(matches)
    rows = []
    for (pairing, ai, board), g in _groups(m, by_board) if len(m) else ():
        a, b = str(g["team_a"].iloc[0]), str(g["team_b"].iloc[0])
        if stats.team_key(a) == stats.team_key(b):
            continue
        mm = stats.matchup_matrix(g)
        every, other = _row(mm, a, b), _row(mm, b, a)
        decided_rows = g[stats.winner_series(g).notna().to_numpy()]
        decided = _row(stats.matchup_matrix(decided_rows), a, b) if len(decided_rows) else None
        if every is None or other is None:
            continue
        n_decided = int(decided["n"]) if decided is not None else 0
        low = float(decided["ci_low"]) if decided is not None else np.nan
        high = float(decided["ci_high"]) if decided is not None else np.nan
        rows.append(
            {
                "pairing": pairing,
                "team_a": a,
                "team_b": b,
                "ai": ai,
                "tier": str(g["tier"].iloc[0]),
                "board": board,
                "n": int(every["n"]),
                "a_wins": int(every["wins"]),
                "b_wins": int(every["losses"]),
                "draws": int(every["draws"]),
                "win_rate": float(every["win_rate"]),
                "ci_low": float(every["ci_low"]),
                "ci_high": float(every["ci_high"]),
                "b_win_rate": float(other["win_rate"]),
                "b_ci_low": float(other["ci_low"]),
                "b_ci_high": float(other["ci_high"]),
                "decided": n_decided,
                "decided_rate": float(decided["win_rate"]) if decided is not None else np.nan,
                "decided_low": low,
                "decided_high": high,
                "measurable": bool(n_decided and (low > 0.5 or high < 0.5)),
                "deff": float(every["deff"]),
            }
        )
    out = pd.DataFrame(rows, columns=PAIR_COLUMNS)
    if out.empty:
        return out
    order = {ai: i for i, ai in enumerate(ai_order(sorted(set(out["ai"]))))}
    return out.sort_values(
        ["pairing", "ai", "board"], key=lambda c: c.map(order) if c.name == "ai" else c
    ).reset_index(drop=True)


def teams_of(matches: pd.DataFrame) -> list[str]:
    """The distinct teams named (team A and B of every pairing, as first written), in order."""
    m = stats.ok_matches(matches)
    if m.empty or "team_a" not in m.columns:
        return []
    first: dict[str, str] = {}
    for a, b in zip(m.sort_values("pairing")["team_a"], m.sort_values("pairing")["team_b"], strict=True):
        for team in (str(a), str(b)):
            first.setdefault(stats.team_key(team), team)
    return list(first.values())


def is_round_robin(matches: pd.DataFrame) -> bool:
    """Three or more teams, every two of them paired."""
    teams = teams_of(matches)
    if len(teams) < 3:
        return False
    m = stats.ok_matches(matches)
    met = {
        frozenset((stats.team_key(str(a)), stats.team_key(str(b))))
        for a, b in zip(m["team_a"], m["team_b"], strict=True)
    }
    keys = [stats.team_key(t) for t in teams]
    return all(frozenset((x, y)) in met for i, x in enumerate(keys) for y in keys[i + 1 :])


def ranking(matches: pd.DataFrame) -> pd.DataFrame:
    """Per AI, each team's win rate over all its matches (draws as non-wins; deal-clustered Wilson
    95%), ranked: in a round robin with as many matches per pair, its mean win rate over its
    opponents. Empty with fewer than three teams."""
    m = _ok(matches)
    teams = teams_of(matches)
    if m.empty or len(teams) < 3:
        return pd.DataFrame(columns=RANK_COLUMNS)
    named = {stats.team_key(t): t for t in teams}
    a = m["team_a"].astype(str).map(stats.team_key)
    b = m["team_b"].astype(str).map(stats.team_key)
    wt = m["winner_team"].astype(object).fillna("").astype(str)
    common = {"ai": m["ai"], "tier": m["tier"], WEIGHT: m[WEIGHT], CLUSTER: m[CLUSTER]}
    keep = (a != b).to_numpy()
    views = [
        pd.DataFrame({"team": a, "opponent": b, "won": wt == "A", "draw": wt == ""} | common)[keep],
        pd.DataFrame({"team": b, "opponent": a, "won": wt == "B", "draw": wt == ""} | common)[keep],
    ]
    obs = pd.concat(views, ignore_index=True)
    parts = []
    for ai in ai_order(sorted(set(obs["ai"]))):
        own = obs[obs["ai"] == ai]
        table = stats.rate_table(own, ["team"])
        met = own.groupby("team")["opponent"].nunique()
        table = table.assign(
            ai=ai,
            tier=str(own["tier"].iloc[0]),
            team=table["team"].map(named),
            opponents=table["team"].map(met).astype(int),
        ).sort_values(["win_rate", "team"], ascending=[False, True])
        table["rank"] = np.arange(1, len(table) + 1)
        parts.append(table[RANK_COLUMNS])
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=RANK_COLUMNS)


def round_robin_matrix(matches: pd.DataFrame, ai: str) -> pd.DataFrame:
    """One AI's round robin: the row team's win rate against the column team (draws as
    non-wins), ``rate [95% CI]`` per cell, teams in ranking order, a mirror cell blank."""
    m = _ok(matches)
    own = m[m["ai"] == ai] if len(m) else m
    teams = teams_of(own)
    if own.empty or not teams:
        return pd.DataFrame()
    mm = stats.matchup_matrix(own)
    rank = ranking(own)
    order = list(rank["team"]) if len(rank) else teams
    keyed = {stats.team_key(t): t for t in teams}
    cells = {
        (keyed[str(r.team)], keyed[str(r.opponent)]): f"{100 * r.win_rate:.1f}% "
        f"[{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}] n={int(r.n)}"
        for r in mm.itertuples(index=False)
        if not pd.isna(r.win_rate)
    }
    return pd.DataFrame(
        [[cells.get((row, col), "") for col in order] for row in order], index=order, columns=order
    )


__all__ = [
    "ALL_BOARDS",
    "PAIR_COLUMNS",
    "RANK_COLUMNS",
    "ai_label",
    "ai_order",
    "is_round_robin",
    "pair_rates",
    "ranking",
    "round_robin_matrix",
    "teams_of",
]
