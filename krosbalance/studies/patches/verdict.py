"""The patches study's verdict picture: the patched figures' strength in every arm, per AI."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.crossing import sweep_kind
from krosbalance.analysis.dependence import POOLED, ai_tier
from krosbalance.analysis.names import display_name
from krosbalance.analysis.verdict import Verdict, group_label, verdict_frame
from krosbalance.studies.patches import tables as patch_study


def patch_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A run with patched arms: the patched figures' strength in every arm, per AI (the matches
    where both sides had it)."""

    patches = (rs.manifest or {}).get("patches") or {}
    if not patches or sweep_kind(rs):  # a price or tier sweep has its own verdict
        return None
    strengths = patch_study.arm_strengths(rs.matches, by="ai_matchup")
    if strengths.empty:
        return None
    groups = strengths["group"].astype(str)
    strengths = strengths[(groups != POOLED) & ~groups.str.contains(" vs ")]  # one AI on both sides
    # the manifest's change lines read "Anna Tommy: HP 12 → 13": the patched figures' display names
    touched = {str(line).split(":")[0] for entry in patches.values() for line in entry.get("changes", [])}
    names = strengths["term"].astype(str).map(display_name)
    if names.isin(touched).any():
        strengths = strengths[names.isin(touched).to_numpy()]
    rows = [
        {
            "figure": f"{display_name(str(r.term))} · {r.arm}",
            "group": group_label(str(r.group)),
            "tier": ai_tier(str(r.group)),
            "est": r.coef,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
            "ai": str(r.group),
        }
        for r in strengths.itertuples(index=False)
    ]
    if not rows:
        return None
    return Verdict(
        "strength per arm (balance patches)",
        "teammate-adjusted strength in each arm (log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        [f"{len(patches)} patched arm(s) beside the shipped cards, paired on the same seeds."],
        "Each arm plays the same deals with its patch; strength is fitted per arm and AI (both sides played by it), 95% "
        "deal-clustered intervals, n = decided matches the figure played in. Details in the Balance "
        "patches section.",
    )
