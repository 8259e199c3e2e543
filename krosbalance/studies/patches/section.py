"""The report's "Balance patches" section and the header lines that name a run's patches.

A mode section (:mod:`krosbalance.analysis.sections`): it shows for every result set whose manifest
lists patched arms (``patches``, written by the runner from ``krosbalance.sim.patches``), and adds
the sweep's curve and root when the manifest holds a ``sweep``. Figures are the analysis of
:mod:`krosbalance.studies.patches.tables`; every strength is given with its n, 95% interval and tier.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis.dependence import POOLED
from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.studies.patches import tables as patch_study


def header_lines(manifest: dict[str, Any] | None) -> list[str]:
    """ "arm: change; change" for every patched arm of the run (the report's header lists them)."""
    patches = (manifest or {}).get("patches") or {}
    lines = []
    for arm, entry in patches.items():
        changes = "; ".join(entry.get("changes", [])) or "no change"
        label = f"arm **{arm}**" if arm else "every match"
        lines.append(f"{label} (patch {entry.get('patch', '?')}): {changes}")
    return lines


def add_header(doc: Any, manifest: dict[str, Any] | None) -> None:
    """A "Balance patches" paragraph under the question when the run played patched cards."""
    lines = header_lines(manifest)
    if lines:
        doc.h("Balance patches played")
        doc.p(
            "These arms played patched cards (a patched figure keeps its name; its strength in those arms is "
            "that of the patched card). The pooled sections below mix the arms; the Balance patches section "
            "gives each arm alone.",
            note=True,
        )
        doc.ul(lines)


def _wide(strengths: pd.DataFrame) -> pd.DataFrame:
    """Figures x arms of one group, cells ``coef [lo, hi] (n)``."""
    cells = [
        f"{with_ci(c, lo, hi)} (n={int(n)})"
        for c, lo, hi, n in zip(
            strengths["coef"], strengths["ci_low"], strengths["ci_high"], strengths["n"], strict=True
        )
    ]
    wide = strengths.assign(cell=cells).pivot(index="term", columns="arm", values="cell")
    wide = wide.reindex(columns=list(dict.fromkeys(strengths["arm"])))
    wide.index = [display_name(t) for t in wide.index]
    return wide.fillna("n/a").reset_index(names="figure")


def plot_sweep(points: pd.DataFrame, fits: pd.DataFrame, field: str, figure: str) -> Figure:
    """The swept figure's strength (95% CI) against one swept field, per tier, with the fitted line."""
    fig = Figure(figsize=(6.4, 4.0))
    ax = fig.subplots()
    for i, (group, sub) in enumerate(points.groupby("group", sort=False)):
        x = pd.to_numeric(sub[field], errors="coerce").to_numpy(float) + (i - 0.5) * 0.08
        y = sub["coef"].to_numpy(float)
        err = np.vstack([y - sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float) - y])
        line = ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=str(group))
        fit = fits[(fits["group"] == group) & (fits["field"] == field)]
        if not fit.empty and np.isfinite(fit["slope"].iloc[0]):
            grid = np.linspace(np.nanmin(x), np.nanmax(x), 20)
            root = fit["root"].iloc[0]
            ax.plot(grid, fit["slope"].iloc[0] * (grid - root), color=line[0].get_color(), alpha=0.6)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(field)
    ax.set_ylabel("strength (log-odds vs the average figure)")
    others = (
        ""
        if len(fits["field"].unique()) < 2
        else "; every value of the other swept fields shown, line at their printed value"
    )
    ax.set_title(
        f"{display_name(figure)}: strength against {field}\n(95% CI; line: WLS fit per tier{others})",
        fontsize=9,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> None:
    manifest = rs.manifest or {}
    patches = manifest.get("patches") or {}
    matches = rs.matches  # the full table: the compressed summary has no arm column
    strengths = patch_study.arm_strengths(matches)
    tables["arm_strengths"] = strengths
    arms = pd.DataFrame(
        [
            {
                "arm": arm or patch_study.BASELINE,
                "patch": entry.get("patch", ""),
                "changes": "; ".join(entry.get("changes", [])),
            }
            for arm, entry in patches.items()
        ]
    )
    doc.table(arms, "The patched arms and what each changes (printed value → played value).")
    if strengths.empty:
        doc.p("No decided match to estimate strengths from.")
        return
    doc.p(
        "Teammate-adjusted strength (log-odds against the average figure, 95% interval, n = decided matches "
        "the figure played in) fitted on each arm's matches alone, per AI tier and pooled over the AIs "
        "(symmetric matchups); every arm plays the same deals on the same seeds.",
        note=True,
    )
    for group in [POOLED, *[g for g in dict.fromkeys(strengths["group"]) if g != POOLED]]:
        sub = strengths[strengths["group"] == group]
        if not sub.empty:
            n = int(sub.groupby("arm")["n_matches"].first().sum())
            doc.table(_wide(sub), f"Strength per arm — {group} ({n} decided matches over the arms).")
    sweep = manifest.get("sweep")
    if sweep and sweep.get("kind", "figure") == "figure":
        _sweep_part(doc, sweep, strengths, tables)
    elif sweep:  # a reward's or a challenge's sweep: no figure's strength to fit (fair_price_section)
        doc.p(
            f"The sweep of {sweep.get('target')} is read in its own section (fair price / neutral threshold)."
        )
    proposal = _proposal(rs)
    if proposal is not None:
        _verification_part(doc, proposal, strengths, tables)


def _proposal(rs: Any) -> dict[str, Any] | None:
    """The fix finder's proposal saved beside these results (``proposal.json``), if any."""
    root = getattr(rs, "root", None)
    path = root / "proposal.json" if root is not None else None
    if path is None or not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else None


def verification_table(proposal: dict[str, Any], strengths: pd.DataFrame) -> pd.DataFrame:
    """Per figure and group (tier): the probe's strength, the predicted one under the proposal and the
    verification's measured ones (shipped and proposed arms), with 95% intervals."""
    predicted = pd.DataFrame(proposal.get("predicted", []))
    if predicted.empty or strengths.empty:
        return pd.DataFrame()
    band = float(proposal.get("band", 0.15))
    rows = []
    for group in dict.fromkeys(strengths["group"]):
        sub = strengths[strengths["group"] == group]
        shipped = sub[sub["arm"] == "shipped"].set_index("term")
        proposed = sub[sub["arm"] == "proposed"].set_index("term")
        for _, p in predicted.iterrows():
            term = p["term"]
            row: dict[str, Any] = {
                "group": group,
                "figure": display_name(term),
                "term": term,
                "probe": p["before"],
                "probe_se": p["before_se"],
                "predicted": p["predicted"],
                "predicted_ci_low": p["ci_low"],
                "predicted_ci_high": p["ci_high"],
            }
            for label, table in (("shipped", shipped), ("proposed", proposed)):
                if term in table.index:
                    row[label] = table.loc[term, "coef"]
                    row[f"{label}_ci_low"] = table.loc[term, "ci_low"]
                    row[f"{label}_ci_high"] = table.loc[term, "ci_high"]
                    row[f"{label}_n"] = table.loc[term, "n"]
            measured = row.get("proposed", np.nan)
            row["within_band"] = bool(abs(measured) <= band) if pd.notna(measured) else None
            row["prediction_in_ci"] = (
                bool(row["proposed_ci_low"] <= p["predicted"] <= row["proposed_ci_high"])
                if pd.notna(measured)
                else None
            )
            rows.append(row)
    columns = [
        "group",
        "figure",
        "term",
        "probe",
        "probe_se",
        "predicted",
        "predicted_ci_low",
        "predicted_ci_high",
    ]
    for label in ("shipped", "proposed"):
        columns += [label, f"{label}_ci_low", f"{label}_ci_high", f"{label}_n"]
    return pd.DataFrame(rows).reindex(columns=[*columns, "within_band", "prediction_in_ci"])


def _verification_part(
    doc: Any, proposal: dict[str, Any], strengths: pd.DataFrame, tables: dict[str, pd.DataFrame]
) -> None:
    t = verification_table(proposal, strengths)
    tables["fix_verification"] = t
    doc.h("Fix finder: predicted against measured")
    changes = (
        "; ".join(f"{display_name(f)}: {name} {d:+d}" for f, name, d in proposal.get("changes", []))
        or "no change"
    )
    band = float(proposal.get("band", 0.15))
    reached = (
        f"is predicted to bring every figure within ±{fmt(band)} log-odds"
        if proposal.get("reached")
        else f"is the best found: no patch within the bounds is predicted to bring every figure within ±{fmt(band)} "
        "log-odds, and this one has the fewest, smallest changes whose largest predicted |strength| is within "
        "0.05 of the least reachable"
    )
    slopes = "; ".join(
        f"{term}: {with_ci(c, lo, hi)} log-odds per point" for term, c, lo, hi in proposal.get("slopes", [])
    )
    unused = ", ".join(proposal.get("unused", []))
    against = ", ".join(proposal.get("against", []))
    doc.p(
        f"Proposed patch ({proposal.get('solver', '')}): {changes}. From the probe stage, it {reached}. "
        f"Slopes fitted on the probe: {slopes or 'none'}"
        + (f"; left out (95% interval contains 0): {unused}" if unused else "")
        + (
            f"; left out as noise (the unexpected sign with 95% confidence: a dearer spell that helps, "
            f"more HP that hurts): {against}"
            if against
            else ""
        )
        + ". Below, the verification run's measured strengths (fresh seeds, the shipped cards and the patch side "
        "by side)."
    )
    if t.empty:
        doc.p("No estimate to compare.")
        return
    out = pd.DataFrame(
        {
            "tier": t["group"],
            "figure": t["figure"],
            "probe (shipped) [95% CI]": [
                with_ci(c, c - 1.96 * se, c + 1.96 * se)
                for c, se in zip(t["probe"], t["probe_se"], strict=True)
            ],
            "predicted [95% CI]": [
                with_ci(c, lo, hi)
                for c, lo, hi in zip(
                    t["predicted"], t["predicted_ci_low"], t["predicted_ci_high"], strict=True
                )
            ],
            "measured, shipped [95% CI]": [
                with_ci(c, lo, hi) if pd.notna(c) else "n/a"
                for c, lo, hi in zip(t["shipped"], t["shipped_ci_low"], t["shipped_ci_high"], strict=True)
            ],
            "measured, proposed [95% CI]": [
                with_ci(c, lo, hi) if pd.notna(c) else "n/a"
                for c, lo, hi in zip(t["proposed"], t["proposed_ci_low"], t["proposed_ci_high"], strict=True)
            ],
            "n": t["proposed_n"],
            f"within ±{fmt(band)}": t["within_band"].map({True: "yes", False: "no", None: "n/a"}),
        }
    )
    doc.table(
        out,
        "Predicted: the probe's strength moved by the patch (slope × change, minus its share of the sum-to-zero "
        "shift), interval from the probe fit (baseline and slopes treated as independent); measured: the "
        "verification's fit per arm and tier.",
    )


def _sweep_part(
    doc: Any, sweep: dict[str, Any], strengths: pd.DataFrame, tables: dict[str, pd.DataFrame]
) -> None:
    target, fields = sweep["target"], list(sweep.get("fields", []))
    points = patch_study.sweep_points_table(strengths, sweep)
    if points.empty:
        doc.p(f"The sweep of {target} has no estimate in any arm.")
        return
    groups = list(dict.fromkeys(points["group"]))
    if len(groups) == 2 and POOLED in groups:  # one tier played: the pooled fit is that tier's
        points = points[points["group"] != POOLED]
    printed = patch_study.printed_values(sweep)
    fits = patch_study.fit_sweep(points, fields, printed)
    tables["sweep_points"] = points
    tables["sweep_fit"] = fits
    name = display_name(target)
    doc.h(f"Card-value sweep: {name}")
    t = points[["group", *fields, "coef", "ci_low", "ci_high", "n"]].copy()
    t["strength [95% CI]"] = [
        with_ci(c, lo, hi) for c, lo, hi in zip(t["coef"], t["ci_low"], t["ci_high"], strict=True)
    ]
    doc.table(
        t[["group", *fields, "strength [95% CI]", "n"]], f"{name}'s strength at each swept value, per tier."
    )
    rows = []
    for _, fit in fits.iterrows():
        root = (
            f"{fmt(fit['root'])} [{fmt(fit['root_ci_low'])}, {fmt(fit['root_ci_high'])}]"
            if pd.notna(fit["root"])
            else "n/a"
        )
        rows.append(
            {
                "tier": fit["group"],
                "field": fit["field"],
                "printed": printed.get(fit["field"], "n/a"),
                "slope per unit [±se]": f"{fmt(fit['slope'])} ± {fmt(fit['slope_se'])}"
                if pd.notna(fit["slope"])
                else "n/a",
                "average at [95% CI]": root,
                "points": fit["points"],
                "note": fit["note"] or "",
            }
        )
    doc.table(
        pd.DataFrame(rows),
        "Fitted line per tier: strength = slope × (value − root), statsmodels WLS with weights 1/se² (residual "
        "scale floored at 1); 'average at' is the value where the fitted strength is 0 (other swept fields at "
        "their printed value), its interval the delta method's.",
    )
    for field in fields:
        if pd.to_numeric(points[field], errors="coerce").notna().all():
            doc.image(
                f"sweep_{field.replace('.', '_')}.png",
                plot_sweep(points, fits, field, target),
                f"{name} against {field}",
            )


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook: a "Balance patches" section when the run played patched arms."""
    if (rs.manifest or {}).get("patches"):
        section(doc, "Balance patches", lambda: report_section(doc, rs, tables))


__all__ = ["add_header", "add_report_section", "header_lines", "plot_sweep", "report_section"]
