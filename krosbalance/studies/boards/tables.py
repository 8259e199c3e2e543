"""The board study's tables: per board and AI, the first player's win rate and each figure's win
rate, and where a board moves a figure's win rate beyond the noise.

Every number is the shared statistics' (:mod:`krosbalance.analysis.stats`): decided matches, draws
as non-wins for a figure, Wilson 95% intervals on the deal-clustered effective n. A board *favours*
a figure when the figure's win rate on it differs from its win rate on the other boards (same AI):
Δ with a normal 95% interval from the two intervals, Holm-adjusted over every figure and board of
an AI (so a study of many figures does not find favours by chance).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.analysis import stats
from krosbalance.analysis.dependence import with_groups
from krosbalance.analysis.stats import holm

ALPHA = 0.05
FIRST_COLUMNS = [
    "board",
    "ai",
    "tier",
    "n_matches",
    "draws",
    "n",
    "first_wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "p_value",
]
RATE_COLUMNS = [
    "board",
    "ai",
    "tier",
    "character",
    "n",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
]
FAVOUR_COLUMNS = [
    "board",
    "ai",
    "tier",
    "character",
    "n",
    "win_rate",
    "n_other",
    "win_rate_other",
    "delta",
    "ci_low",
    "ci_high",
    "p_holm",
    "favoured",
]


def _groups(matches: pd.DataFrame) -> Iterator[tuple[str, str, pd.DataFrame]]:
    """(AI matchup, tier, its error-free matches), AI matchups in a stable order."""
    m = stats.ok_matches(matches)
    if m.empty or "board" not in m.columns:
        return
    m = with_groups(m)
    for ai in sorted(set(m["ai_matchup"].astype(str))):
        own = m[m["ai_matchup"] == ai]
        yield ai, str(own["tier"].iloc[0]), own


def boards_of(matches: pd.DataFrame) -> list[str]:
    """The boards played, sorted."""
    return sorted(set(matches["board"].astype(str))) if "board" in matches.columns else []


def first_player_by_board(matches: pd.DataFrame) -> pd.DataFrame:
    """Per board and AI matchup: the first player's win rate over decided matches (95% CI, n)."""
    rows = []
    for ai, tier, m in _groups(matches):
        for board in boards_of(m):
            row = stats.first_player_advantage(m[m["board"].astype(str) == board]).iloc[0]
            rows.append({"board": board, "ai": ai, "tier": tier, **{c: row[c] for c in FIRST_COLUMNS[3:]}})
    return pd.DataFrame(rows, columns=FIRST_COLUMNS)


def figure_rates_by_board(matches: pd.DataFrame) -> pd.DataFrame:
    """Per board and AI matchup: each figure's raw win rate (95% CI, n = matches it played)."""
    parts = []
    for ai, tier, m in _groups(matches):
        for board in boards_of(m):
            rates = stats.character_win_rates(m[m["board"].astype(str) == board])
            if not rates.empty:
                parts.append(rates.assign(board=board, ai=ai, tier=tier))
    if not parts:
        return pd.DataFrame(columns=RATE_COLUMNS)
    return pd.concat(parts, ignore_index=True)[RATE_COLUMNS]


def _se(lo: pd.Series, hi: pd.Series) -> np.ndarray:
    """A normal standard error from a 95% interval's width."""
    return ((hi - lo) / (2 * sps.norm.ppf(1 - ALPHA / 2))).to_numpy(float)


def board_favours(matches: pd.DataFrame) -> pd.DataFrame:
    """Per AI matchup, figure and board: the figure's win rate on the board against its win rate on
    the other boards; ``favoured`` when the Holm-adjusted p-value of that difference is below 5%."""
    parts = []
    for ai, tier, m in _groups(matches):
        boards = boards_of(m)
        if len(boards) < 2:
            continue
        rows = []
        for board in boards:
            on = m["board"].astype(str) == board
            here = stats.character_win_rates(m[on])
            there = stats.character_win_rates(m[~on])
            both = here.merge(there, on="character", suffixes=("", "_other"))
            if both.empty:
                continue
            se = np.hypot(
                _se(both["ci_low"], both["ci_high"]), _se(both["ci_low_other"], both["ci_high_other"])
            )
            delta = (both["win_rate"] - both["win_rate_other"]).to_numpy(float)
            z = sps.norm.ppf(1 - ALPHA / 2)
            with np.errstate(divide="ignore", invalid="ignore"):
                p = np.where(se > 0, 2 * sps.norm.sf(np.abs(delta) / se), np.nan)
            rows.append(
                pd.DataFrame(
                    {
                        "board": board,
                        "ai": ai,
                        "tier": tier,
                        "character": both["character"],
                        "n": both["n"],
                        "win_rate": both["win_rate"],
                        "n_other": both["n_other"],
                        "win_rate_other": both["win_rate_other"],
                        "delta": delta,
                        "ci_low": delta - z * se,
                        "ci_high": delta + z * se,
                        "p": p,
                    }
                )
            )
        if rows:
            own = pd.concat(rows, ignore_index=True)
            own["p_holm"] = holm(own["p"].to_numpy(float))
            own["favoured"] = own["p_holm"] < ALPHA
            parts.append(own)
    if not parts:
        return pd.DataFrame(columns=FAVOUR_COLUMNS)
    return pd.concat(parts, ignore_index=True)[FAVOUR_COLUMNS]


__all__ = ["board_favours", "boards_of", "figure_rates_by_board", "first_player_by_board"]
