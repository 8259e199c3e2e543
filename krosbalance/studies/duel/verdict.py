"""The Duel Pack's verdict picture: each figure's duel win rate (no token held from the start), per AI
(:mod:`krosbalance.analysis.verdict`), from the same tables its section draws."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.names import display_name
from krosbalance.analysis.verdict import Verdict, group_label, one_ai, verdict_frame
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
        {
            "figure": display_name(str(r.character)),
            "group": group_label(str(r.ai), str(r.tier)),
            "tier": str(r.tier),
            "est": r.win_rate,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": one_ai(str(r.ai)),
        }
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
