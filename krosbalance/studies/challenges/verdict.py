"""The challenges study's verdict picture: each Divine Challenge's shift of the first player's win
rate, per AI (moved from ``analysis/study_verdicts.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.crossing import sweep_kind
from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.verdict import Verdict, group_label, one_ai, verdict_frame
from krosbalance.content.blast import blast_cards
from krosbalance.studies.challenges import tables as challenges


def challenge_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A Blast study: each Divine Challenge's shift of the first player's win rate, per AI."""
    if sweep_kind(rs):  # a tier sweep: its own verdict (fair_price_section) answers the question
        return None
    frame = challenges.blast_matches(challenges.study_matches(rs))
    if frame.empty:
        return None
    table = challenges.verdicts(frame)
    if table.empty:
        return None

    def name(arm: str) -> str:
        try:
            card = blast_cards().challenge(arm)
        except Exception:
            return arm
        return card.name + (" (assumed card)" if card.status == "assumed" else "")

    rows = [
        {
            "figure": name(str(r.arm)),
            "group": group_label(str(r.ai), ai_tier(str(r.ai).split(" vs ")[0])),
            "tier": ai_tier(str(r.ai).split(" vs ")[0]),
            "est": r.first_diff,
            "ci_low": r.first_lo,
            "ci_high": r.first_hi,
            "n": r.n_pairs,
            "ai": one_ai(str(r.ai)),
        }
        for r in table.itertuples(index=False)
    ]
    first = sorted({name(str(a)) for a in table.loc[table["shifts_first_player"], "arm"]})
    ko = sorted({name(str(a)) for a in table.loc[table["shifts_ko_vs_glyph"], "arm"]})
    lines = [
        "Beyond the noise (exact McNemar, Holm-adjusted, each challenge against none on the same deals): "
        + (
            f"the first player's edge moves under {', '.join(first)}"
            if first
            else "no challenge moves the first player's edge"
        )
        + "; "
        + (
            f"the share of games won by KO rather than glyphs moves under {', '.join(ko)}."
            if ko
            else "no challenge moves the share of games won by KO rather than glyphs."
        )
    ]
    return Verdict(
        "Divine Challenge effect",
        "shift of the first player's win rate against no challenge (paired deals)",
        verdict_frame(rows),
        0.0,
        True,
        lines,
        "Each deal is played under every arm (no challenge, and each challenge alone): a challenge's effect is "
        "the paired difference of the first player's win rate against 'none' on the same deals, 95% interval, "
        "n = paired deals. Details in the Divine Challenges section.",
        rows="challenges",
    )


__all__ = ["challenge_verdict"]
