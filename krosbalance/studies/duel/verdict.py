"""The Duel Pack's verdict picture: each figure's duel win rate (no token held from the start), per AI
(:mod:`krosbalance.analysis.verdict`), from the same tables its section draws."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.names import display_name
from krosbalance.analysis.verdict import Verdict, ai_row, verdict_frame
from krosbalance.studies.duel import tables as duel


def duel_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A Duel Pack study: each figure's duel win rate (no token held from the start), per AI."""
    frame = duel.duel_frame(duel.study_matches(rs))
    if frame.empty:
        return None
    rates = duel.figure_win_rates(frame)
    if rates.empty:
        return None
    rows = [
        ai_row(
            display_name(str(r.character)),
            str(r.ai),
            str(r.tier),
            r.win_rate,
            r.ci_low,
            r.ci_high,
            r.n,
        )
        for r in rates.itertuples(index=False)
    ]
    value = duel.token_value(frame)
    no_pick_ups = pd.DataFrame(columns=["ai", "held"])  # the token-value lines only
    lines = [line for line in duel.headline(rates, value, no_pick_ups) if "Δ" in line]
    return Verdict(
        "duel figure strength",
        "win rate of the figure's duels, no token held from the start",
        verdict_frame(rows),
        0.5,
        True,
        lines[:1],
        "Win rate over the figure's duels of the rules' game (no token held from the start), draws as "
        "non-wins, Wilson 95% interval on the deal-clustered effective n. Details in the Duel Pack section.",
    )


__all__ = ["duel_verdict"]
