"""The report's "Fix finder" section for a staged fix study (``krosbalance fix``, krosbalance.studies.patches.fixer).

A mode section (:mod:`krosbalance.analysis.sections`): it shows when a staged study's ``meta``
holds a ``fix`` entry (written by :func:`krosbalance.studies.patches.fixer.run_fix`: the band, the tiers the
probes played and each round's proposal). Per round: the proposed patch as a designer reads it
(printed value → proposed value), the slopes it rests on, and per AI tier the probe's strength, the
predicted strength under the patch and the verification's measured strengths (shipped and
proposed arms, same fresh seeds), each with its 95% interval and n. The prediction comes from the
probe, which the file's AIs played; for a tier the probe did not play (a search AI added by
``verify_ais``) the table still sets it against that prediction, and says so: whether a fix found
with the heuristics holds under better play is then a measured question, not an assumption.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import POOLED
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.sim.patches import Patch
from krosbalance.studies.patches import tables as patch_study
from krosbalance.studies.patches.section import verification_table


def fix_meta(rs: Any) -> dict[str, Any] | None:
    """The fix study's settings and proposals, when ``rs`` is a staged fix study."""
    meta = (rs.manifest or {}).get("meta") or {}
    fix = meta.get("fix") if isinstance(meta, dict) else None
    return fix if isinstance(fix, dict) else None


def round_table(rs: Any, entry: dict[str, Any], by: str = "tier") -> pd.DataFrame:
    """One round's predicted-against-measured table (:func:`verification_table`) on its
    verification stage's matches, per tier (``by="ai_matchup"``: per AI matchup) and pooled."""
    matches = rs.matches
    if "stage" in matches.columns:
        matches = matches[matches["stage"] == entry.get("verify")]
    if matches.empty:
        return pd.DataFrame()
    return verification_table(entry.get("proposal", {}), patch_study.arm_strengths(matches, by))


def _ci(c: Any, lo: Any, hi: Any) -> str:
    return with_ci(c, lo, hi) if pd.notna(c) else "n/a"


def _display(t: pd.DataFrame, band: float, probe_tiers: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "tier": [g if g == POOLED or g in probe_tiers else f"{g} (not probed)" for g in t["group"]],
            "figure": t["figure"],
            "probe [95% CI]": [
                _ci(c, c - 1.96 * se, c + 1.96 * se) for c, se in zip(t["probe"], t["probe_se"], strict=True)
            ],
            "predicted [95% CI]": [
                _ci(c, lo, hi)
                for c, lo, hi in zip(
                    t["predicted"], t["predicted_ci_low"], t["predicted_ci_high"], strict=True
                )
            ],
            "measured, shipped [95% CI]": [
                _ci(c, lo, hi)
                for c, lo, hi in zip(t["shipped"], t["shipped_ci_low"], t["shipped_ci_high"], strict=True)
            ],
            "measured, proposed [95% CI]": [
                _ci(c, lo, hi)
                for c, lo, hi in zip(t["proposed"], t["proposed_ci_low"], t["proposed_ci_high"], strict=True)
            ],
            "n": t["proposed_n"],
            "prediction in CI": t["prediction_in_ci"].map({True: "yes", False: "no", None: "n/a"}),
            f"within ±{fmt(band)}": t["within_band"].map({True: "yes", False: "no", None: "n/a"}),
        }
    )


def patch_lines(proposal: dict[str, Any]) -> list[str]:
    """The proposal as printed-value lines ("Bill Tell: Plaguing Arrow AP cost 3 → 4")."""

    patch = proposal.get("patch") or {}
    changes = patch.get("changes") or {}
    if not changes.get("characters"):
        return []
    return Patch(str(patch.get("name", "proposal")), changes).lines()


def report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> None:
    fix = fix_meta(rs) or {}
    band = float(fix.get("band", 0.15))
    tiers = [str(t) for t in fix.get("tiers", [])]
    rounds = fix.get("rounds") or []
    doc.p(
        f"Each round probes the figures' values (one arm per value raised by its step, paired seeds), fits "
        f"one logistic model (strengths, and log-odds per point of each value), proposes the patch of fewest "
        f"and relatively smallest changes that is predicted to put every figure within ±{fmt(band)} "
        "(scipy.optimize.milp; each change bounded by the probe's step and a share of the printed value), "
        "then verifies it on fresh seeds beside the shipped cards. A round that misses the band in a probed "
        f"tier ({', '.join(tiers) or 'none'}) is followed by a probe around the proposal, up to "
        f"{fix.get('max_rounds', len(rounds))} round(s). 'prediction in CI': the predicted strength lies in "
        "the measured 95% interval.",
        note=True,
    )
    if not rounds:
        doc.p("No round finished yet.")
        return
    frames = []
    for entry in rounds:
        proposal = entry.get("proposal", {})
        r = int(entry.get("round", 0))
        doc.p(f"**Round {r}** (probe {entry.get('probe', '')}, verification {entry.get('verify', '')}).")
        lines = patch_lines(proposal)
        reached = (
            f"predicted to bring every figure within ±{fmt(band)}"
            if proposal.get("reached")
            else f"the best found (no patch within the bounds is predicted to reach ±{fmt(band)}; this one "
            "has the fewest, smallest changes whose largest predicted |strength| is within 0.05 of the least "
            "reachable)"
        )
        slopes = "; ".join(f"{term}: {with_ci(c, lo, hi)}" for term, c, lo, hi in proposal.get("slopes", []))
        unused = ", ".join(proposal.get("unused", []))
        against = ", ".join(proposal.get("against", []))
        doc.p(
            f"Proposed patch: {'; '.join(lines) or 'no change'} — {reached}. Slopes (log-odds per point, "
            f"95% CI): {slopes or 'none'}"
            + (f"; not used (interval holds 0): {unused}" if unused else "")
            + (
                f"; not used as noise (the unexpected sign with 95% confidence: a dearer spell that "
                f"helps its figure, more HP that hurts): {against}"
                if against
                else ""
            )
            + "."
        )
        t = round_table(rs, entry)
        if t.empty:
            doc.p("Its verification has no decided match yet.")
            continue
        frames.append(t.assign(round=r))
        doc.table(
            _display(t, band, tiers),
            f"Round {r}: predicted (from the probe, {', '.join(tiers)}) against measured (verification "
            f"{entry.get('verify', '')}), per tier; n = decided verification matches of the figure in the "
            "proposed arm.",
        )
    if frames:
        tables["fix_rounds"] = pd.concat(frames, ignore_index=True)


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook: a "Fix finder" section for a staged fix study."""
    if fix_meta(rs) is not None:
        section(doc, "Fix finder", lambda: report_section(doc, rs, tables))


__all__ = ["add_report_section", "fix_meta", "patch_lines", "report_section", "round_table"]
