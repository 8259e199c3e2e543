"""The fix finder's headline answer: the patch of its last round and why (each changed figure's
strength before and predicted under it, 95% CI), then what its verification measured under the
strongest validated AI that played it (n, 95% interval), with the next AI down beside it.

"No change" never stands alone: the answer says why (every figure already inside the band, or no
probed value's slope told from 0, or no change within the bounds that helps)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.answers import verdict_ruleset
from krosbalance.analysis.equivalence import MARGIN
from krosbalance.analysis.headline import MIN_N, agreement, figure_text, status_text, verdict_top
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.top_ai import ai_note
from krosbalance.analysis.verdict import Z95, Verdict, verdict_frame
from krosbalance.analysis.wording import win_pct_text
from krosbalance.studies.patches.fix_section import fix_meta, patch_lines
from krosbalance.studies.patches.fix_verdict import measured_rows


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


def _why(proposal: dict[str, Any]) -> str:
    """The predicted effect that makes the case for the patch: each changed figure's strength before
    and predicted under it (95% CI, win %), or the farthest figure's when nothing is changed."""
    predicted = [p for p in proposal.get("predicted") or [] if pd.notna(p.get("predicted"))]
    if not predicted:
        return ""
    changed = {line.split(":")[0] for line in patch_lines(proposal)}
    shown = [p for p in predicted if display_name(str(p["term"])) in changed] or [
        max(predicted, key=lambda p: abs(float(p.get("before", 0.0))))
    ]
    parts = []
    for p in shown[:3]:
        before, se = float(p["before"]), float(p.get("before_se", float("nan")))
        parts.append(
            f"{display_name(str(p['term']))} {with_ci(before, before - Z95 * se, before + Z95 * se)} before → "
            f"predicted {with_ci(p['predicted'], p['ci_low'], p['ci_high'])} log-odds "
            f"({win_pct_text(p['predicted'], p['ci_low'], p['ci_high'])} against the average)"
        )
    return "; ".join(parts) + " (95% CI)"


def _verified(rs: Any, entry: dict[str, Any], band: float) -> str:
    """What the verification measured under the proposal, under the strongest validated AI that
    played it, and one clause on the next AI down."""
    rows = measured_rows(rs, entry)
    if not rows:
        return "Its verification has no decided match under one AI yet."
    verdict = Verdict("", "strength (log-odds)", verdict_frame(rows), ruleset=verdict_ruleset(rs))
    top = verdict_top(verdict)
    if top is None:
        return "Its verification has no decided match under one AI yet."
    data = verdict.data
    mine = data[data["ai"] == top.top]
    inside = int((mine["est"].abs() <= band).sum())
    worst = next(mine.loc[[mine["est"].abs().idxmax()]].itertuples(index=False))
    head = (
        f"Verified on fresh seeds under {ai_note(top)}: {inside} of {len(mine)} figures within ±{fmt(band)} "
        f"log-odds under the patch; farthest {figure_text(verdict, worst)}"
    )
    n_max = mine["n"].max()
    if pd.isna(n_max) or n_max < MIN_N:
        head += f" — only n={0 if pd.isna(n_max) else int(n_max)} matches per figure, too few to tell whether it works"
    if top.one_ai:
        return head + f". Only {top.top} verified it: no weaker AI to compare."
    theirs = data[(data["ai"] == top.second) & (data["figure"] == worst.figure)]
    if theirs.empty:
        return head + f"; {top.second} did not measure {worst.figure}."
    other = next(theirs.itertuples(index=False))
    status = status_text(agreement(verdict, worst, other), top, f"±{MARGIN:.2f} log-odds")
    return head + f"; next AI down, {top.second}: {other.figure} {other.est:+.2f} — {status}."


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
        why = _why(proposal)
        head = f"Proposed patch (round {r}): {'; '.join(lines)} ({reach})" + (f": {why}." if why else ".")
    else:
        head = f"No change proposed (round {r}): {why_no_change(proposal, band)}."
    return [head, _verified(rs, last, band)]


__all__ = ["fix_answer", "why_no_change"]
