"""The seats study's verdict picture: each character's strength at a table of more than two
players, per arm and AI tier (moved from ``analysis/study_verdicts.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.names import display_name
from krosbalance.analysis.verdict import Verdict, sole_ai, verdict_frame
from krosbalance.studies.seats import lines
from krosbalance.studies.seats import tables as seats


def seat_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """Matches of more than two seats: each character's strength at the table, per arm and AI tier."""
    analysis = seats.for_result_set(rs)
    if analysis is None:
        return None
    s = analysis.strength
    chars = s[(s["kind"] == "character") & s["coef"].notna()] if not s.empty else s
    if chars.empty:
        return None
    arms = sorted(set(chars["arm"].astype(str))) if "arm" in chars.columns else []
    ais = {
        t: sole_ai(rs.summary().matches, t) for t in set(chars["tier"].astype(str))
    }  # a tier of one AI: its rows
    rows = [
        {
            "figure": display_name(str(r.term)),
            "group": (f"{r.arm}, " if len(arms) > 1 else "") + f"{r.tier} tier",
            "tier": str(r.tier),
            "est": r.coef,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": "" if len(arms) > 1 else ais.get(str(r.tier), ""),
        }
        for r in chars.itertuples(index=False)
    ]
    return Verdict(
        "character strength at the table",
        "strength at the table (conditional logit, log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        lines.summary_lines(analysis)[:2],
        "Conditional logit grouped by match: a partnership's chance of winning from the characters it fields, "
        "play positions held fixed; log-odds against the average character, 95% intervals, n = decided matches "
        "the character played in. Details in the Seats section.",
    )


__all__ = ["seat_verdict"]
