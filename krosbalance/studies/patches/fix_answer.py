"""The fix finder's headline answer: the patch of its last round and why, then what its verification
measured (n, 95% interval, the AIs that played it).

"No change" never stands alone: the answer says why (every figure already inside the band, or no
probed value's slope told from 0, or no change within the bounds that helps)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import POOLED
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.wording import played_by, win_pct_text
from krosbalance.studies.patches.fix_section import fix_meta, patch_lines, round_table


def why_no_change(proposal: dict[str, Any], band: float) -> str:
    """Why a round proposes no change, in the designer's words."""
    predicted = proposal.get("predicted") or []
    before = [abs(float(p.get("before", 0.0))) for p in predicted if pd.notna(p.get("before"))]
    if before and max(before) <= band:
        return f"every figure is already within ±{fmt(band)} log-odds of the average"
    unused = list(proposal.get("unused") or [])
    against = list(proposal.get("against") or [])
    usable = len(proposal.get("slopes") or []) - len(unused) - len(against)
    if usable <= 0:
        shown = ", ".join(unused[:4]) + (f" and {len(unused) - 4} more" if len(unused) > 4 else "")
        held = f"the 95% interval of every probed value's slope holds 0 ({shown})" if unused else ""
        noise = (
            f"the slopes of {', '.join(against)} have the unexpected sign (taken as noise)" if against else ""
        )
        return "; ".join(part for part in (held, noise) if part) or "no probed value could be fitted"
    return f"no change within the bounds moves the figures outside ±{fmt(band)} towards it"


def _verified(rs: Any, entry: dict[str, Any], band: float) -> str:
    """What the verification measured under the proposal, pooled over its AIs."""
    table = round_table(rs, entry)
    if table.empty:
        return "Its verification has no decided match yet."
    pooled = table[table["group"] == POOLED]
    pooled = pooled if len(pooled) else table
    measured = pooled.dropna(subset=["proposed"])
    if measured.empty:
        return "Its verification measured no figure under the proposal."
    inside = int((measured["proposed"].abs() <= band).sum())
    shipped = int((measured["shipped"].abs() <= band).sum()) if "shipped" in measured else 0
    worst = measured.loc[measured["proposed"].abs().idxmax()]
    matches = rs.matches
    if "stage" in matches.columns:
        matches = matches[matches["stage"] == entry.get("verify")]
    n = "" if pd.isna(worst.get("proposed_n")) else f", n={int(worst['proposed_n'])}"
    return (
        f"Verified on fresh seeds by {played_by(matches)}: {inside} of {len(measured)} figures within "
        f"±{fmt(band)} under the patch ({shipped} with the shipped cards); farthest {worst['figure']} "
        f"{with_ci(worst['proposed'], worst['proposed_ci_low'], worst['proposed_ci_high'])} log-odds "
        f"({win_pct_text(worst['proposed'], worst['proposed_ci_low'], worst['proposed_ci_high'])} against "
        f"the average){n}, 95% CI."
    )


def fix_answer(rs: Any) -> list[str] | None:
    """The fix study's answer (None when ``rs`` is no staged fix study)."""
    fix = fix_meta(rs)
    if fix is None:
        return None
    rounds = fix.get("rounds") or []
    if not rounds:
        return ["The fix finder has no finished round yet."]
    last = rounds[-1]
    proposal = last.get("proposal", {})
    band = float(fix.get("band", proposal.get("band", 0.15)))
    lines = patch_lines(proposal)
    r = int(last.get("round", len(rounds)))
    if lines:
        reach = (
            f"predicted to bring every figure within ±{fmt(band)} log-odds"
            if proposal.get("reached")
            else f"the best found: no patch within the bounds is predicted to reach ±{fmt(band)}"
        )
        head = f"Proposed patch (round {r}): {'; '.join(lines)} ({reach})."
    else:
        head = f"No change proposed (round {r}): {why_no_change(proposal, band)}."
    return [head, _verified(rs, last, band)]


__all__ = ["fix_answer", "why_no_change"]
