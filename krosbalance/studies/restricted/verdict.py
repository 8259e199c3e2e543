"""The restricted-play study's verdict picture: Δ strength of each figure with one element
forbidden, per AI (moved from ``analysis/study_verdicts.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.top_ai import ai_note, run_ruleset, top_ais
from krosbalance.analysis.verdict import Verdict, group_label, one_ai, verdict_frame
from krosbalance.studies.restricted.section import forbids_of
from krosbalance.studies.restricted.tables import restricted_table


def restricted_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """Restricted play: Δ strength of each figure with one element forbidden, per AI; its line names
    the element the figure misses most under the strongest validated AI that played (the cheaper
    AIs' are the picture's other rows)."""
    forbids = forbids_of(rs)
    if not forbids:
        return None
    table = restricted_table(rs.matches, forbids)
    table = table[table["delta"].notna()] if not table.empty else table
    if table.empty:
        return None
    rows = [
        {
            "figure": f"{display_name(str(r.figure))} without {r.element}",
            "group": group_label(str(r.tier), ai_tier(str(r.tier))),
            "tier": ai_tier(str(r.tier)),
            "est": r.delta,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": one_ai(str(r.tier)),
        }
        for r in table.itertuples(index=False)
    ]
    top = top_ais([str(ai) for ai in table["tier"].unique()], run_ruleset(rs.matches))
    answering = table[table["tier"] == top.top] if top is not None else table
    worst = answering.loc[answering["delta"].idxmin()]
    lines = [
        f"{display_name(str(worst['figure']))} loses most without {worst['element']}: "
        f"Δ {worst['delta']:+.2f} [{worst['ci_low']:+.2f}, {worst['ci_high']:+.2f}] log-odds under "
        f"{ai_note(top) if top is not None else worst['tier']} (n={int(worst['n'])})."
    ]
    return Verdict(
        "restricted play",
        "Δ strength when the element is forbidden (log-odds; below 0: the element helps the figure)",
        verdict_frame(rows),
        0.0,
        False,
        lines,
        "Each restricted arm plays the unrestricted arm's seeds with one spell, power or option forbidden to "
        "the figure (Jaffe et al. 2012); Δ is the restriction term of the character-strength model fitted on "
        "both arms, deal-clustered 95% intervals, n = restricted matches with the figure on one side. Details "
        "in the Restricted play section.",
    )


__all__ = ["restricted_verdict"]
