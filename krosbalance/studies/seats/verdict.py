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
    if chars.empty:
        return None
    several_arms = chars["arm"].astype(str).nunique() > 1
    rows = [
        ai_row(
            display_name(str(r.term)) + (f" · {r.arm}" if several_arms else ""),
            str(r.table_ai),
            ai_tier(str(r.table_ai)),
            r.coef,
            r.ci_low,
            r.ci_high,
            r.n,
        )
        for r in chars.itertuples(index=False)
    ]
    return Verdict(
        "character strength at the table",
        "strength at the table (conditional logit, log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        lines.summary_lines(analysis)[:2],
        "Conditional logit grouped by match, per AI (the tables all of whose seats it played): a "
        "partnership's chance of winning from the characters it fields, play positions held fixed; "
        "log-odds against the average character, 95% intervals, n = decided matches the character "
        "played in. Details in the Seats section.",
    )


__all__ = ["seat_verdict"]
