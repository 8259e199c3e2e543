"""The board study's report: its section (first-player win rate per board, each figure's win rate
per board, the figures a board favours), its verdict picture and its headline answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.headline import next_ai_clause, verdict_top
from krosbalance.analysis.names import board_title, display_name
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.plots import _axes, _errors, _no_data
from krosbalance.analysis.sections import folder_study
from krosbalance.analysis.top_ai import ai_note
from krosbalance.analysis.verdict import Verdict, ai_row, group_label, verdict_frame
from krosbalance.studies.boards.tables import board_favours, figure_rates_by_board, first_player_by_board

STUDY = "boards"
SHOWN_FAVOURS = 12


def is_board_study(rs: Any) -> bool:
    """Whether the result set is the board study's (the study its folder records or its file names)."""
    study = folder_study(rs)
    return study is not None and study.name == STUDY


def board_tables(matches: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The study's tables, as the report exports them."""
    return {
        "board_first_player": first_player_by_board(matches),
        "board_figure_win_rates": figure_rates_by_board(matches),
        "board_favours": board_favours(matches),
    }


def _first_verdict(first: pd.DataFrame, lines: list[str] | None = None) -> Verdict:
    """The first player's win rate per board and AI as a verdict picture's rows."""
    rows = [
        ai_row(
            board_title(str(r.board)),
            str(r.ai),
            str(r.tier),
            r.win_rate,
            r.ci_low,
            r.ci_high,
            r.n,
        )
        for r in first.itertuples(index=False)
    ]
    return Verdict(
        "first-player win rate per board",
        "first player's win rate over decided matches",
        verdict_frame(rows),
        0.5,
        True,
        list(lines or []),
        "Each deal is played from both seats with the same seed (paired seeds); the first player's win rate over "
        "the decided matches of each board, Wilson 95% interval on the deal-clustered effective n, n = decided "
        "matches. Details in the Boards section.",
        rows="boards",
    )


def _lead(first: pd.DataFrame) -> tuple[str, str]:
    """The AI the answer quotes (the strongest validated AI played, :mod:`krosbalance.analysis.top_ai`)
    and how it stands; the most decided matches when no row is one AI's."""
    top = verdict_top(_first_verdict(first))
    if top is not None:
        return top.top, ai_note(top)
    ai = str(first.groupby("ai")["n"].sum().sort_values(ascending=False).index[0])
    return ai, group_label(ai, str(first[first["ai"] == ai]["tier"].iloc[0]))


def answer_lines(tables: dict[str, pd.DataFrame]) -> list[str]:
    """Two sentences: the first player's win rate on each board under the strongest validated AI
    played (n, 95% CI), then the next AI down's for the highest and lowest board and whether the two
    agree."""
    first = tables["board_first_player"]
    first = first[first["n"] > 0] if not first.empty else first
    if first.empty:
        return []
    lines = _board_lines(tables)[:1]
    verdict = _first_verdict(first)
    top = verdict_top(verdict)
    return lines + ([next_ai_clause(verdict, top)] if top is not None else _board_lines(tables)[1:])


def _board_lines(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The first player's win rate on each board under the answering AI, and the figures a board
    favours (or the largest gap, when none is beyond the noise), with n, 95% CI and the AI."""
    first = tables["board_first_player"]
    first = first[first["n"] > 0] if not first.empty else first
    if first.empty:
        return []
    ai, who = _lead(first)
    own = first[first["ai"] == ai]
    boards = ", ".join(
        f"{board_title(str(r.board))} {with_ci(r.win_rate, r.ci_low, r.ci_high, as_pct=True)} (n={int(r.n)})"
        for r in own.itertuples(index=False)
    )
    lines = [f"First-player win rate per board under {who}, decided matches, 95% CI: {boards}."]
    favours = tables["board_favours"]
    favours = favours[(favours["ai"] == ai) & favours["delta"].notna()] if not favours.empty else favours
    if favours.empty:
        return lines

    def one(r: Any) -> str:
        return (
            f"{display_name(str(r.character))} on {board_title(str(r.board))} "
            f"Δ {100 * r.delta:+.1f} pts [{100 * r.ci_low:+.1f}, {100 * r.ci_high:+.1f}] "
            f"({100 * r.win_rate:.1f}% n={int(r.n)} there, {100 * r.win_rate_other:.1f}% n={int(r.n_other)} elsewhere)"
        )

    found = favours[favours["favoured"].astype(bool)].sort_values("p_holm")
    if len(found):
        named = "; ".join(one(r) for r in found.head(3).itertuples(index=False))
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        lines.append(f"Boards that favour a figure beyond the noise (Holm-adjusted 5%): {named}{more}.")
    else:
        top = favours.loc[favours["delta"].abs().idxmax()]
        lines.append(
            "No board moves a figure's win rate beyond the noise (Holm-adjusted 5%); the largest gap: "
            + one(top)
            + "."
        )
    return lines


def board_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """The picture: the first player's win rate on each board, per AI."""
    if not is_board_study(rs):
        return None
    found = board_tables(rs.summary().matches)
    first = found["board_first_player"]
    first = first[first["n"] > 0] if not first.empty else first
    if first.empty:
        return None
    return _first_verdict(first, _board_lines(found)[1:])


def plot_first_player_by_board(first: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """The first player's win rate per board, one marker and 95% interval per AI, 0.5 marked."""
    boards = sorted(set(first["board"].astype(str))) if not first.empty else []
    fig, ax = _axes(ax, (6.4, max(2.5, 0.5 * len(boards) + 1.2)))
    title = "First-player win rate per board (decided matches, 95% CI)"
    if not boards:
        _no_data(ax, title)
        return fig
    ais = list(dict.fromkeys(first["ai"].astype(str)))
    step = 0.6 / len(ais)
    for j, ai in enumerate(ais):
        d = first[first["ai"] == ai]
        y = np.array([boards.index(str(b)) for b in d["board"]]) - 0.3 + step * (j + 0.5)
        est = d["win_rate"].to_numpy(float)
        ax.errorbar(
            est,
            y,
            xerr=_errors(est, d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)),
            fmt="o",
            capsize=3,
            label=ai,
        )
    ax.axvline(0.5, color="grey", ls="--", lw=1)
    ax.set_yticks(range(len(boards)), [board_title(b) for b in boards])
    ax.set_xlim(0, 1)
    ax.set_xlabel("first player's win rate")
    ax.set_title(title, fontsize=10)
    if len(ais) > 1:
        ax.legend(fontsize=8)
    return fig


def _rates_table(rates: pd.DataFrame, ai: str) -> pd.DataFrame:
    """One AI's figure win rates, a column per board: ``rate [95% CI] n=``."""
    own = rates[rates["ai"] == ai]
    cells = own.assign(
        cell=[
            f"{with_ci(r, lo, hi, as_pct=True)} n={int(n)}"
            for r, lo, hi, n in zip(own["win_rate"], own["ci_low"], own["ci_high"], own["n"], strict=True)
        ],
        shown=own["board"].astype(str).map(board_title),
    )
    wide = cells.pivot(index="character", columns="shown", values="cell").fillna("")
    wide.insert(0, "figure", [display_name(str(c)) for c in wide.index])
    return wide.reset_index(drop=True)


def report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> None:
    """The Boards section: the first player per board, the figures per board, the favours."""
    found = board_tables(rs.summary().matches)
    tables.update(found)
    first, rates, favours = (
        found["board_first_player"],
        found["board_figure_win_rates"],
        found["board_favours"],
    )
    doc.p(
        "Does a board favour the first player, or some figures? Every number per board and AI: decided matches, "
        "Wilson 95% intervals on the deal-clustered effective n (draws count as non-wins for a figure). A board "
        "favours a figure when its win rate there differs from its win rate on the other boards under the same "
        "AI, Holm-adjusted over every figure and board.",
        note=True,
    )
    if first.empty:
        doc.p("Not enough data: no error-free match.")
        return
    for line in answer_lines(found):
        doc.p(line)
    t = first[["board", "ai", "tier", "n_matches", "n"]].rename(columns={"n": "decided"}).copy()
    t["board"] = t["board"].astype(str).map(board_title)
    t[["n_matches", "decided"]] = t[["n_matches", "decided"]].astype(int)
    t["first-player win rate [95% CI]"] = [
        with_ci(e, lo, hi, as_pct=True)
        for e, lo, hi in zip(first["win_rate"], first["ci_low"], first["ci_high"], strict=True)
    ]
    t["binomial p"] = [fmt(p, 4) for p in first["p_value"]]
    doc.table(t, "The first player's win rate on each board.")
    doc.image("board_first_player.png", plot_first_player_by_board(first), "first-player win rate per board")
    for ai in dict.fromkeys(rates["ai"].astype(str)):
        doc.table(
            _rates_table(rates, ai),
            f"Each figure's win rate per board under {ai} [95% CI], n = matches played.",
        )
    if not favours.empty:
        shown = favours.sort_values("p_holm").head(SHOWN_FAVOURS)
        f = pd.DataFrame(
            {
                "figure": [display_name(str(c)) for c in shown["character"]],
                "board": shown["board"].astype(str).map(board_title),
                "AI": shown["ai"],
                "there": [
                    f"{100 * r:.1f}% (n={int(n)})" for r, n in zip(shown["win_rate"], shown["n"], strict=True)
                ],
                "elsewhere": [
                    f"{100 * r:.1f}% (n={int(n)})"
                    for r, n in zip(shown["win_rate_other"], shown["n_other"], strict=True)
                ],
                "Δ [95% CI]": [
                    with_ci(d, lo, hi, as_pct=True)
                    for d, lo, hi in zip(shown["delta"], shown["ci_low"], shown["ci_high"], strict=True)
                ],
                "Holm p": [fmt(p, 3) for p in shown["p_holm"]],
            }
        )
        doc.table(f, f"The {len(shown)} largest board effects on a figure (smallest adjusted p first).")


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The hook: a "Boards" section for the board study's results, else nothing."""
    if is_board_study(rs):
        section(doc, "Boards", lambda: report_section(doc, rs, tables))


__all__ = [
    "add_report_section",
    "answer_lines",
    "board_tables",
    "board_verdict",
    "is_board_study",
    "report_section",
]
