"""The matchup study's report: its headline answer, its verdict picture (a forest of win rates with
their 95% intervals) and its Matchup section (per pair and AI; a round robin and its ranking)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis import equivalence
from krosbalance.analysis.names import board_title, short_name
from krosbalance.analysis.verdict import PCT_MARGIN, Z95, Verdict, group_label, one_ai, verdict_frame
from krosbalance.studies.matchup import tables as t
from krosbalance.studies.matchup.api import folder_study

STUDY = "matchup"
MAX_PAIR_LINES = 6
"""Pairs the answer names one sentence each; more are counted (the report lists every one)."""


def is_matchup_study(rs: Any) -> bool:
    """Whether the result set is the matchup study's (the study its folder records or its file names)."""
    study = folder_study(rs)
    return study is not None and study.name == STUDY


def team_name(team: str) -> str:
    """``Tell + Healey + Queen + Kaos``: a team of comma-joined ids as the answer names it."""
    from collections import Counter

    counted = Counter(c.strip() for c in str(team).split(",") if c.strip())
    return " + ".join(f"{n}x {short_name(c)}" if n > 1 else short_name(c) for c, n in counted.items())


def pct_ci(rate: float, low: float, high: float) -> str:
    """``58.3% [55.1, 61.4]`` (the interval left out when undefined)."""
    if pd.isna(low) or pd.isna(high):
        return f"{100 * rate:.1f}%"
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def matchup_tables(matches: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The study's tables, as the report exports them."""
    found = {"matchup_pairs": t.pair_rates(matches), "matchup_ranking": t.ranking(matches)}
    boards = set(matches["board"].astype(str)) if "board" in matches.columns else set()
    if len(boards) > 1:
        found["matchup_pairs_by_board"] = t.pair_rates(matches, by_board=True)
    return found


def _lead_ai(frame: pd.DataFrame) -> str:
    """The AI the answer quotes: the strongest played (ladder order), one AI for both teams first."""
    return t.ai_order(sorted(set(frame["ai"].astype(str))))[0]


def pair_line(r: Any) -> str:
    """One sentence: A beats B in x% [lo, hi] of n matches (AI), or no difference measurable."""
    a, b = team_name(r.team_a), team_name(r.team_b)
    drawn = f", {int(r.draws):,} drawn" if int(r.draws) else ""
    if not r.measurable:
        return (
            f"{a} vs {b}: no difference measurable at n = {int(r.n):,} matches ({r.ai}): "
            f"{a} wins {pct_ci(r.win_rate, r.ci_low, r.ci_high)}{drawn}, a coin flip cannot be ruled out."
        )
    if r.decided_rate > 0.5:
        return f"{a} beats {b} in {pct_ci(r.win_rate, r.ci_low, r.ci_high)} of {int(r.n):,} matches ({r.ai}){drawn}."
    return f"{b} beats {a} in {pct_ci(r.b_win_rate, r.b_ci_low, r.b_ci_high)} of {int(r.n):,} matches ({r.ai}){drawn}."


def _under_next(top: Any, rows: pd.DataFrame) -> str:
    """`` Next AI down, kiter-2: A wins 55.0% [50.6, 59.3] of 500 — settled.``: the pair under the
    next AI down, and whether the two AIs agree on A's win rate (±3.75 points)."""
    if rows.empty:
        return ""
    r = next(rows.itertuples(index=False))
    said = f"{r.ai}: {team_name(r.team_a)} wins {pct_ci(r.win_rate, r.ci_low, r.ci_high)} of {int(r.n):,}"
    if pd.isna(top.ci_low) or pd.isna(r.ci_low):
        return f" Next AI down, {said}."
    agreed = equivalence.compare(
        float(top.win_rate),
        float(top.ci_high - top.ci_low) / (2 * Z95),
        float(r.win_rate),
        float(r.ci_high - r.ci_low) / (2 * Z95),
        int(top.n),
        int(r.n),
        PCT_MARGIN,
    )
    if agreed.verdict == equivalence.SETTLED:
        status = "settled (the two agree within ±3.75 points)"
    elif agreed.verdict == equivalence.MOVING:
        status = f"still moving: {top.ai} gives A {'more' if agreed.direction == 'up' else 'less'}"
    else:
        more = max(agreed.more_stronger, agreed.more_weaker)
        status = "undecided" + (f": about {more:,} more matches under each would tell" if more else "")
    return f" Next AI down, {said} — {status}."


def ranking_line(rank: pd.DataFrame, ai: str) -> str:
    """The round robin's ranking under one AI: the top team, whether it is ahead of the second beyond
    the noise, then the others, each with its win rate, 95% CI and n."""
    own = rank[rank["ai"] == ai].sort_values("rank")
    top, rest = own.iloc[0], own.iloc[1:]
    lead = ""
    if len(rest):
        second = team_name(str(rest.iloc[0]["team"]))
        ahead = top["ci_low"] > rest.iloc[0]["ci_high"]
        lead = f", ahead of {second} beyond the noise" if ahead else f", not measurably ahead of {second}"
    others = "; ".join(
        f"{int(r['rank'])}. {team_name(str(r['team']))} {pct_ci(r['win_rate'], r['ci_low'], r['ci_high'])}"
        for _, r in rest.iterrows()
    )
    return (
        f"Round robin of {len(own)} teams: {team_name(str(top['team']))} ranks first, winning "
        f"{pct_ci(top['win_rate'], top['ci_low'], top['ci_high'])} of its {int(top['n']):,} matches "
        f"({top['ai']}){lead}" + (f"; then {others}." if others else ".")
    )


def answer_lines(found: dict[str, pd.DataFrame], round_robin: bool) -> list[str]:
    """The headline answer: with a round robin of three or more teams, its ranking's top under the
    strongest AI; else one sentence per pair (under the strongest AI played), in win %."""
    pairs = found["matchup_pairs"]
    if pairs.empty:
        return []
    order = [a for a in t.ai_order(sorted(set(pairs["ai"].astype(str)))) if " vs " not in a]
    ai = order[0] if order else _lead_ai(pairs)
    following = order[1] if len(order) > 1 else ""
    rank = found.get("matchup_ranking", pd.DataFrame())
    if round_robin and len(rank) and (rank["ai"] == ai).any():
        return [ranking_line(rank, ai)]
    own = pairs[pairs["ai"] == ai]
    lines = [
        pair_line(r) + _under_next(r, pairs[(pairs["pairing"] == r.pairing) & (pairs["ai"] == following)])
        for r in own.head(MAX_PAIR_LINES).itertuples(index=False)
    ]
    if len(own) > MAX_PAIR_LINES:
        lines.append(f"And {len(own) - MAX_PAIR_LINES} more pairs (the report lists every one).")
    return lines


def _verdict_rows(found: dict[str, pd.DataFrame], round_robin: bool) -> list[dict[str, Any]]:
    rank = found.get("matchup_ranking", pd.DataFrame())
    if round_robin and len(rank):
        return [
            {
                "figure": team_name(str(r.team)),
                "group": group_label(str(r.ai), str(r.tier)),
                "tier": str(r.tier),
                "est": r.win_rate,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "n": r.n,
            }
            for r in rank.itertuples(index=False)
        ]
    return [
        {
            "figure": f"{team_name(str(r.team_a))} vs {team_name(str(r.team_b))}",
            "group": group_label(str(r.ai), str(r.tier)) if " vs " not in str(r.ai) else str(r.ai),
            "tier": str(r.tier),
            "est": r.win_rate,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": one_ai(str(r.ai)),
        }
        for r in found["matchup_pairs"].itertuples(index=False)
    ]


def matchup_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """The picture: a forest of team A's win rate over B per pair and AI (a round robin: each team's
    win rate over all its matches), 95% intervals, 50% marked."""
    if not is_matchup_study(rs):
        return None
    matches = rs.summary().matches
    found = matchup_tables(matches)
    if found["matchup_pairs"].empty:
        return None
    round_robin = t.is_round_robin(matches)
    what = "each team's win rate over its matches" if round_robin else "team A's win rate over team B"
    return Verdict(
        "matchup",
        f"{what} (draws as non-wins)",
        verdict_frame(_verdict_rows(found, round_robin)),
        0.5,
        True,
        answer_lines(found, round_robin),
        "Each deal is played twice on one seed, sides swapped; win rates count draws as non-wins, Wilson 95% "
        "intervals on the deal-clustered effective n, n = matches. A pair differs measurably when the interval "
        "of A's share of the decided matches excludes 50%. Details in the Matchup section.",
        rows="teams and matchups",
    )


def _pairs_table(pairs: pd.DataFrame, by_board: bool) -> pd.DataFrame:
    out = pd.DataFrame(
        {
            "team A": [team_name(str(a)) for a in pairs["team_a"]],
            "team B": [team_name(str(b)) for b in pairs["team_b"]],
            "AI": pairs["ai"],
        }
    )
    if by_board:
        out["board"] = pairs["board"].astype(str).map(board_title).to_numpy()
    out["n"] = pairs["n"].astype(int).to_numpy()
    out["A wins / B wins / draws"] = [
        f"{int(a)} / {int(b)} / {int(d)}"
        for a, b, d in zip(pairs["a_wins"], pairs["b_wins"], pairs["draws"], strict=True)
    ]
    out["A's win rate [95% CI]"] = [
        pct_ci(r, lo, hi)
        for r, lo, hi in zip(pairs["win_rate"], pairs["ci_low"], pairs["ci_high"], strict=True)
    ]
    out["A's share of decided [95% CI]"] = [
        pct_ci(r, lo, hi)
        for r, lo, hi in zip(pairs["decided_rate"], pairs["decided_low"], pairs["decided_high"], strict=True)
    ]
    out["differs"] = ["yes" if m else "no (coin flip not ruled out)" for m in pairs["measurable"]]
    return out


def report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> None:
    """The Matchup section: the answer, every pair per AI (per board when several), and with three
    or more teams the round robin per AI and the ranking."""
    matches = rs.summary().matches
    found = matchup_tables(matches)
    tables.update(found)
    pairs, rank = found["matchup_pairs"], found["matchup_ranking"]
    doc.p(
        "Does this team beat that one, and by how much? Each deal is played twice on one seed, sides swapped. "
        "Win rates count draws as non-wins; Wilson 95% intervals on the deal-clustered effective n; a pair "
        "differs measurably when the interval of A's share of the decided matches excludes 50%.",
        note=True,
    )
    if pairs.empty:
        doc.p("Not enough data: no error-free match between two different teams.")
        return
    round_robin = t.is_round_robin(matches)
    for line in answer_lines(found, round_robin):
        doc.p(line)
    doc.table(
        _pairs_table(pairs, False), "Team A's win rate over team B, per pair and AI, every board pooled."
    )
    if "matchup_pairs_by_board" in found:
        doc.table(_pairs_table(found["matchup_pairs_by_board"], True), "The same per board.")
    if len(rank):
        shown = pd.DataFrame(
            {
                "AI": rank["ai"],
                "rank": rank["rank"].astype(int),
                "team": [team_name(str(x)) for x in rank["team"]],
                "opponents": rank["opponents"].astype(int),
                "n": rank["n"].astype(int),
                "win rate [95% CI]": [
                    pct_ci(r, lo, hi)
                    for r, lo, hi in zip(rank["win_rate"], rank["ci_low"], rank["ci_high"], strict=True)
                ],
            }
        )
        doc.table(
            shown,
            "Ranking per AI: each team's win rate over all its matches (in a full round robin, the mean of its "
            "win rates against each opponent).",
        )
        for ai in dict.fromkeys(rank["ai"].astype(str)):
            wide = t.round_robin_matrix(matches, ai)
            if wide.empty:
                continue
            labels = [team_name(x) for x in wide.index]
            wide = wide.set_axis(labels, axis=0).set_axis(labels, axis=1)
            wide.insert(0, "team (row) against", labels)
            doc.table(
                wide.reset_index(drop=True), f"Round robin under {ai}: the row team's win rate [95% CI]."
            )


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The hook: a "Matchup" section for the matchup study's results, else nothing."""
    if is_matchup_study(rs):
        section(doc, "Matchup", lambda: report_section(doc, rs, tables))


__all__ = [
    "add_report_section",
    "answer_lines",
    "is_matchup_study",
    "matchup_tables",
    "matchup_verdict",
    "pair_line",
    "pct_ci",
    "ranking_line",
    "report_section",
    "team_name",
]
