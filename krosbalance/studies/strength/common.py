"""The strength study's tables of one result set: what every report's common part reads (the AIs,
raw win rates, teammate-adjusted strength, its dependence on the AI and the board, the AI ladder,
balance, first player, matchups, damage, knock-outs, match length), computed once before the verdict
is drawn, and the Findings' lines.

Matches of more than two seats (four-player Arena) keep only the tables that hold for any number of
players (the AIs, damage, knock-outs, match length, endings); the seats study
(:mod:`krosbalance.studies.seats`) gives the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from krosbalance.analysis import balance as balance_mod
from krosbalance.analysis import dependence, ladder, narrative, stats
from krosbalance.analysis.ais import ai_table, load_standings
from krosbalance.analysis.answers import verdict_ruleset
from krosbalance.analysis.design import weights
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.scan import Summary
from krosbalance.analysis.sections import copy_experiment
from krosbalance.analysis.strength import adjusted_strength
from krosbalance.studies.seats import tables as seats
from krosbalance.studies.seats.lines import summary_lines


@dataclass
class Common:
    """The common part's tables of one result set (the two-player ones are None for more seats)."""

    rs: ResultSet
    summary: Summary
    tables: dict[str, pd.DataFrame]
    m: pd.DataFrame
    ok: pd.DataFrame
    n_total: int
    n_ok: int
    standings: dict[str, Any]
    ladder_problem: str
    seat: seats.SeatAnalysis | None
    ais: pd.DataFrame
    damage: pd.DataFrame
    kos: pd.DataFrame
    length: pd.DataFrame
    bal: pd.DataFrame = field(default_factory=pd.DataFrame)
    win_rates: Any = None
    strength: Any = None
    first: Any = None
    matchups: Any = None
    dominated: Any = None
    losers: Any = None
    by_ai: pd.DataFrame | None = None
    by_board: pd.DataFrame | None = None
    tau_ai: pd.DataFrame = field(default_factory=pd.DataFrame)
    tau_board: pd.DataFrame = field(default_factory=pd.DataFrame)
    verdicts: Any = None
    is_ladder: bool = False
    ratings: pd.DataFrame = field(default_factory=pd.DataFrame)
    gate: pd.DataFrame = field(default_factory=pd.DataFrame)
    ladder_summary: str = ""

    @property
    def enough(self) -> bool:
        """Whether any match ended without an error."""
        return self.n_ok > 0


def common_tables(rs: ResultSet, tables: dict[str, pd.DataFrame]) -> Common:
    """Every table of the common part (exported ones go into ``tables``)."""
    summary = rs.summary()
    m = summary.matches
    ok = stats.ok_matches(m)
    standings, ladder_problem = load_standings(verdict_ruleset(rs))  # the played ruleset's ladder
    # more than two seats: the two-player analyses are replaced by the Seats section (a mode section)
    seat = seats.for_result_set(rs)
    c = Common(
        rs=rs,
        summary=summary,
        tables=tables,
        m=m,
        ok=ok,
        n_total=summary.n_matches,
        n_ok=int(round(weights(ok).sum())),
        standings=standings,
        ladder_problem=ladder_problem,
        seat=seat,
        ais=ai_table(m if seat is None else seat.matches, standings),
        damage=stats.damage_table(summary.fighters),
        kos=stats.ko_table(summary.fighters),
        length=stats.match_length_table(summary.turns),
    )
    if seat is None:
        _two_player_tables(c)
    else:
        c.bal = balance_mod.ending_shares(m)  # draws and the turn limit hold for any number of seats
        c.is_ladder = bool((seat.seats["table_ai"] == seats.MIXED).any())  # AIs met: the ladder is 2-player
        tables.update(ais=c.ais, damage=c.damage, ko=c.kos, match_length=c.length)
    return c


def _two_player_tables(c: Common) -> None:
    """The tables that read seat 0 against seat 1."""
    m = c.m
    c.win_rates = stats.character_win_rates(m)
    c.strength = adjusted_strength(m)
    c.first = stats.first_player_advantage(m)
    c.matchups = stats.matchup_matrix(m)
    c.dominated = balance_mod.dominated_teams(c.matchups)
    c.losers = balance_mod.losing_every_matchup(c.matchups)
    c.bal = balance_mod.balance_summary(m, strength=c.strength, win_rates=c.win_rates, matchups=c.matchups)
    grouped = dependence.with_groups(m) if len(m) else m
    several_ais = len(set(grouped["ai_matchup"])) > 1 if len(grouped) else False
    boards = dependence.groups_of(m, "board") if len(m) else []
    c.by_ai = dependence.strength_by(m, "ai_matchup") if several_ais else None
    c.by_board = dependence.strength_by(m, "board") if len(boards) > 1 else None
    c.tau_ai = dependence.rank_stability(c.by_ai) if c.by_ai is not None else pd.DataFrame()
    c.tau_board = dependence.rank_stability(c.by_board) if c.by_board is not None else pd.DataFrame()
    c.verdicts = dependence.verdicts(m, c.standings)
    c.ratings = ladder.ladder_ratings(m) if pairs_ais(c.rs, m) else pd.DataFrame()
    c.is_ladder = not c.ratings.empty  # some finished match rated the AIs the run paired
    c.gate = ladder.validity_gate(c.ratings) if c.is_ladder else pd.DataFrame()
    c.ladder_summary = (
        narrative.ladder_line(c.ratings, c.gate, ladder.gate_passed(c.gate)) if c.is_ladder else ""
    )
    c.tables.update(
        ais=c.ais,
        win_rates=c.win_rates,
        adjusted_strength=c.strength,
        verdicts=c.verdicts,
        first_player=c.first,
        matchups=c.matchups,
        dominated_teams=c.dominated,
        balance=c.bal,
        damage=c.damage,
        ko=c.kos,
        match_length=c.length,
    )
    if c.by_ai is not None:
        c.tables.update(strength_by_ai=c.by_ai, rank_stability_ai=c.tau_ai)
    if c.by_board is not None:
        c.tables.update(strength_by_board=c.by_board, rank_stability_board=c.tau_board)


def pairs_ais(rs: ResultSet, matches: pd.DataFrame) -> bool:
    """Whether the run pairs different AIs (an AI ladder), as its experiment declares (``ais``:
    a matchup of two AIs); for results written without the experiment copy, as the matches record
    each side's AI."""
    experiment = copy_experiment(rs.spec_text)
    if experiment is not None:
        return any(len(set(matchup)) > 1 for matchup in experiment.ais)
    return not ladder.cross_ai_matches(matches).empty


def findings(c: Common) -> list[str]:
    """The Findings' lines (two players: every headline; more: the seats study's summary)."""
    if c.seat is None:
        return narrative.summary_lines(
            n_total=c.n_total,
            n_ok=c.n_ok,
            win_rates=c.win_rates,
            strength=c.strength,
            first=c.first,
            matchups=c.matchups,
            dominated=c.losers,
            balance=c.bal,
            ais=c.ais,
            verdicts=c.verdicts,
            by_ai=c.by_ai,
            stability=[
                narrative.stability_line(c.tau_ai, "AIs"),
                narrative.stability_line(c.tau_board, "boards"),
            ],
            ladder=c.ladder_summary,
        )

    head = narrative.header_lines(n_total=c.n_total, n_ok=c.n_ok, ais=c.ais)
    return head + (summary_lines(c.seat) + [narrative.ending_finding(c.bal)] if c.n_ok else [])


def answer_lines(c: Common, answer: Any) -> list[str] | None:
    """The character-strength picture's lines: the stability of the ranking over AIs (None: another
    study's picture keeps its own). The verdicts pooled per tier are Findings, not the first screen:
    the answer is the strongest AI's (issue 39)."""
    if c.seat is not None or answer.study != "character strength" or not c.n_ok:
        return None
    stability = narrative.stability_line(c.tau_ai, "AIs")
    return [stability] if stability else []


__all__ = ["Common", "answer_lines", "common_tables", "findings", "pairs_ais"]
