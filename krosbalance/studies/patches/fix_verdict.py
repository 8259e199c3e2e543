"""The fix finder's first picture: the patch and why (issue 40's leftover).

A fix study's question is "which change brings the figures back into the band?", so its picture
shows, for each figure of the last round, where the probe measured it before the patch, where the
model predicts it under the proposed patch (95% intervals) and where the verification measured it
under the patch, per AI (the strongest validated AI's figure answers, :mod:`krosbalance.analysis.headline`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import POOLED, ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import fmt
from krosbalance.analysis.verdict import Z95, Verdict, group_label, verdict_frame
from krosbalance.studies.patches.fix_section import fix_meta, patch_lines, round_table

BEFORE = "before the patch (probe's model)"
PREDICTED = "predicted under the patch (model)"


def model_rows(proposal: dict[str, Any]) -> list[dict[str, Any]]:
    """Each figure's strength before the patch and the predicted one under it (95% intervals; no
    AI of their own: the model's, fitted on the probe's AIs)."""
    rows = []
    for p in proposal.get("predicted") or []:
        figure = display_name(str(p["term"]))
        before, se = float(p["before"]), float(p.get("before_se", float("nan")))
        rows.append(
            {
                "figure": figure,
                "group": BEFORE,
                "tier": "model",
                "est": before,
                "ci_low": before - Z95 * se,
                "ci_high": before + Z95 * se,
            }
        )
        rows.append(
            {
                "figure": figure,
                "group": PREDICTED,
                "tier": "model",
                "est": float(p["predicted"]),
                "ci_low": float(p["ci_low"]),
                "ci_high": float(p["ci_high"]),
            }
        )
    return rows


def measured_rows(rs: Any, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """Each figure's strength measured under the proposed patch on the verification's fresh seeds,
    per AI (the matches where both sides had it)."""
    table = round_table(rs, entry, by="ai_matchup")
    if table.empty:
        return []
    groups = table["group"].astype(str)
    table = table[(groups != POOLED) & ~groups.str.contains(" vs ")].dropna(subset=["proposed"])
    return [
        {
            "figure": str(r.figure),
            "group": f"measured under the patch, {group_label(str(r.group))}",
            "tier": ai_tier(str(r.group)),
            "est": r.proposed,
            "ci_low": r.proposed_ci_low,
            "ci_high": r.proposed_ci_high,
            "n": r.proposed_n,
            "ai": str(r.group),
        }
        for r in table.itertuples(index=False)
    ]


def fix_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """The fix study's picture (None for any other result set): its last round's patch and why."""
    fix = fix_meta(rs)
    rounds = (fix or {}).get("rounds") or []
    if not rounds:
        return None
    last = rounds[-1]
    proposal = last.get("proposal", {})
    rows = model_rows(proposal) + measured_rows(rs, last)
    if not rows:
        return None
    band = float(fix.get("band", proposal.get("band", 0.15))) if fix else 0.15
    lines = patch_lines(proposal)
    head = f"Proposed patch (round {int(last.get('round', len(rounds)))}): {'; '.join(lines) or 'no change'}."
    return Verdict(
        "proposed patch (fix finder)",
        "strength (log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        [head],
        f"Before: the probe's model of each figure with the shipped cards; predicted: the same model under the "
        f"proposed patch; measured: the verification's fresh seeds under the patch, per AI. The band is "
        f"±{fmt(band)} log-odds; 95% intervals, n = decided verification matches of the figure. Details in "
        "the Fix finder section.",
    )


__all__ = ["fix_verdict", "measured_rows", "model_rows"]
