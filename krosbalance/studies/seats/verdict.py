"""The seats study's verdict picture: each character's strength at a table of more than two
players, per arm and AI (moved from ``analysis/study_verdicts.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.verdict import Verdict, ai_row, verdict_frame
from krosbalance.studies.seats import lines
from krosbalance.studies.seats import tables as seats


def seat_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """Matches of more than two seats: each character's strength at the table, one row per figure,
    arm and AI. A row measures the tables of one AI (a table of mixed AIs measures none), so the
    answer is the strongest validated AI's and the comparison is with the next AI down on the
    four-player ladder, not with a tier pooled over AIs of different strength. With several arms a
    figure is ``name · arm``: two versus two and free-for-all are different questions."""
    analysis = seats.for_result_set(rs)
    if analysis is None:
        return None
    s = analysis.strength_by_ai
    chars = (
        s[(s["kind"] == "character") & s["coef"].notna() & (s["table_ai"].astype(str) != seats.MIXED)]
        if not s.empty
        else s
    )
    caption = (
        "Conditional logit grouped by match, per AI (the tables all of whose seats it played): a "
        "partnership's chance of winning from the characters it fields, play positions held fixed; "
        "log-odds against the average character, 95% intervals, n = decided matches the character "
        "played in. Details in the Seats section."
    )
    pooled = chars.empty
    if pooled:  # no table of one AI (an AI ladder's): every table pooled, as a comparison only
        s = seats.character_strength(analysis.seats, ("arm",))
        chars = s[(s["kind"] == "character") & s["coef"].notna()] if not s.empty else s
        caption = (
            "Conditional logit grouped by match, pooled over every AI (no table had one AI in every "
            "seat): log-odds against the average character, 95% intervals, n = decided matches the "
            "character played in. Details in the Seats section."
        )
    if chars.empty:
        return None
    several_arms = chars["arm"].astype(str).nunique() > 1

    def row(r: Any) -> dict[str, Any]:
        figure = display_name(str(r.term)) + (f" · {r.arm}" if several_arms else "")
        if pooled:
            return {
                "figure": figure,
                "group": "pooled (every AI)",
                "tier": "pooled",
                "est": r.coef,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "n": r.n,
                "ai": "",
            }
        ai = str(r.table_ai)
        return ai_row(figure, ai, ai_tier(ai), r.coef, r.ci_low, r.ci_high, r.n)

    rows = [row(r) for r in chars.itertuples(index=False)]
    return Verdict(
        "character strength at the table",
        "strength at the table (conditional logit, log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        lines.summary_lines(analysis)[:2],
        caption,
    )


__all__ = ["seat_verdict"]
