"""The report's "Fair price" and "Neutral tier threshold" sections (issue 20, item 5).

A mode section (:mod:`krosbalance.analysis.sections`): it shows when the manifest's ``sweep`` is a
reward price sweep (``prices``) or a Divine Challenge sweep (``kind = "challenge"``). The frames are
:mod:`krosbalance.studies.rewards.fair_price`'s, the fits :mod:`krosbalance.analysis.crossing`'s; every
figure is given per AI (with its tier), with n (matches and deals) and a 95% deal-clustered interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis import crossing
from krosbalance.analysis.crossing import sweep_kind
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.verdict import Verdict, ai_row, group_label, verdict_frame
from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry
from krosbalance.studies.challenges.tables import study_matches
from krosbalance.studies.rewards import fair_price


def study(rs: Any) -> tuple[str, dict[str, Any], pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(kind, sweep, frame, points, fits) of the result set's crossing study (kind '' = none)."""
    kind = sweep_kind(rs)
    sweep = (rs.manifest or {}).get("sweep") or {}
    if not kind:
        empty = pd.DataFrame()
        return "", sweep, empty, empty, empty
    if kind == "price":
        frame = fair_price.price_frame(rs.matches)
    else:
        frame = fair_price.threshold_frame(study_matches(rs), sweep)
    points, fits = crossing.fits_by(frame, "ai")
    tiers = frame.groupby("ai")["tier"].first() if len(frame) else pd.Series(dtype=str)
    for table in (points, fits):
        if len(table):
            table["tier"] = table["ai"].map(tiers)
    return kind, sweep, frame, points, fits


def _words(kind: str, sweep: dict[str, Any]) -> dict[str, Any]:
    target = str(sweep.get("target", ""))
    if kind == "price":
        in_gg = sweep.get("price_unit") == "gg"
        unit = "GG" if in_gg else "kamas"
        printed = fair_price.printed_price(target)
        token = default_registry().load_reward(target).name
        return {
            "title": f"Fair price: {token}" + (" (in GG)" if in_gg else ""),
            "x": f"price paid by the holder ({unit})",
            "root": f"fair price ({unit})",
            "side": "holder (team A)",
            "baseline": "no token",
            "printed": (printed / fair_price.gg_price() if in_gg else printed)
            if printed is not None
            else None,
            "printed_name": "printed price (R-A136, by rank" + (", in GG at R-A50's rate)" if in_gg else ")"),
            "name": token,
            "unit": unit,
            "rate": fair_price.gg_price() if in_gg else 1,
        }

    field = str(sweep["fields"][0])
    challenge = blast_cards().challenge(target)
    bonus = field.split(".")[1] if field.count(".") == 2 else field
    bonus_name = challenge.bonus(bonus).name if field.count(".") == 2 else field
    return {
        "title": f"Neutral tier threshold: {challenge.name} ({bonus_name})",
        "x": f"glyph cells {bonus_name} needs",
        "root": "neutral threshold (glyph cells)",
        "side": "first player",
        "baseline": "no challenge",
        "printed": fair_price.printed_tier(target, field),
        "printed_name": "printed tier (R-B41)",
        "name": challenge.name,
    }


def _value_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else fmt(x)


def _points_say(fit: pd.Series) -> str:
    if pd.isna(fit.get("closest_x", np.nan)):
        return ""
    delta = with_ci(fit["closest_coef"], fit["closest_ci_low"], fit["closest_ci_high"])
    if fit["closest_holds_zero"]:
        return (
            f"nearest 0 among the swept values: {_value_text(fit['closest_x'])} (Δ {delta}, interval holds 0)"
        )
    return f"no swept value brings Δ to 0; nearest: {_value_text(fit['closest_x'])} (Δ {delta})"


def verdict_line(fit: pd.Series, words: dict[str, Any], kind: str) -> str:
    """What the fitted root (or, where the line cannot answer, the points) says, in one sentence."""
    note = str(fit.get("note") or "")
    points = _points_say(fit)
    if not np.isfinite(fit.get("root", np.nan)) or "not monotone" in note or "not clearly" in note:
        why = note or "not fitted"
        return f"no {words['root']} from the line ({why})" + (f"; {points}" if points else "")
    low, high = fit["root_ci_low"], fit["root_ci_high"]
    if not fit["in_grid"]:  # a root beyond the swept values is the line's guess, not a measurement
        guess = f"{fmt(fit['root'])} [{fmt(low)}, {fmt(high)}]"
        return f"no {words['root']} within the swept values (the line extrapolates to {guess})" + (
            f"; {points}" if points else ""
        )
    head = f"{words['root']} {fmt(fit['root'])} [{fmt(low)}, {fmt(high)}]"
    printed = words["printed"]
    judged = ""
    if kind == "price":
        unit, rate = words["unit"], words["rate"]
        if rate != 1:  # a GG price: its kama equivalent at the GG price (R-A50)
            head += f" = {fmt(fit['root'] * rate)} [{fmt(low * rate)}, {fmt(high * rate)}] kamas at {rate} kamas/GG"
        if printed is not None:
            shown = f"{_value_text(printed)} {unit}"
            if printed < low:
                judged = f"the printed {shown} is below the interval: under-priced"
            elif printed > high:
                judged = f"the printed {shown} is above the interval: over-priced"
            else:
                judged = f"the printed {shown} is inside the interval: not shown to be mispriced"
    elif printed is not None:
        if printed < low or printed > high:
            judged = f"the printed tier {printed} is outside the interval: not neutral as printed"
        else:
            judged = f"the printed tier {printed} is inside the interval: not shown to be off-neutral"
    return "; ".join(filter(None, [head, judged, f"({note})" if note else "", points]))


def plot_crossing(points: pd.DataFrame, fits: pd.DataFrame, words: dict[str, Any]) -> Figure:
    """Δ log-odds (95% CI) against the swept value per AI, the fitted line, the root's interval and
    the printed value."""
    fig = Figure(figsize=(6.4, 4.0))
    ax = fig.subplots()
    shown = points[points["x"].notna()]
    ais = list(dict.fromkeys(shown["ai"]))
    step = float(np.nanmin(np.diff(np.sort(shown["x"].unique())))) if shown["x"].nunique() > 1 else 1.0
    for i, ai in enumerate(ais):
        sub = shown[shown["ai"] == ai]
        offset = (i - (len(ais) - 1) / 2) * 0.06 * step
        x = sub["x"].to_numpy(float) + offset
        y = sub["coef"].to_numpy(float)
        err = np.vstack([y - sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float) - y])
        tier = sub["tier"].iloc[0] if "tier" in sub else ""
        line = ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=f"{ai} ({tier})")
        fit = fits[fits["ai"] == ai]
        if not fit.empty and np.isfinite(fit["slope"].iloc[0]):
            grid = np.linspace(float(sub["x"].min()), float(sub["x"].max()), 30)
            colour = line[0].get_color()
            note = str(fit["note"].iloc[0] or "")
            trusted = "not monotone" not in note and "not clearly" not in note
            style = "-" if trusted else ":"  # dotted: a line that does not answer (see the table)
            ax.plot(
                grid, fit["intercept"].iloc[0] + fit["slope"].iloc[0] * grid, style, color=colour, alpha=0.6
            )
            low, high = fit["root_ci_low"].iloc[0], fit["root_ci_high"].iloc[0]
            if trusted and np.isfinite(low) and np.isfinite(high) and bool(fit["in_grid"].iloc[0]):
                ax.axvspan(max(low, grid[0]), min(high, grid[-1]), color=colour, alpha=0.08)
    if words["printed"] is not None:
        ax.axvline(words["printed"], color="black", lw=0.8, ls=":", label=words["printed_name"])
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(words["x"])
    ax.set_ylabel(f"Δ log-odds of the {words['side']}\nvs {words['baseline']} (paired deals)")
    ax.set_title(
        f"{words['title']}\n(95% deal-clustered CI; line: logistic fit, dotted where it does not answer;\n"
        "band: the root's 95% CI)",
        fontsize=9,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> None:
    kind, sweep, frame, points, fits = study(rs)
    words = _words(kind, sweep)
    tables["crossing_points"] = points
    tables["crossing_fit"] = fits
    if kind == "price" and words["rate"] != 1:
        doc.p(
            f"Each deal is played without the token and once per price, team A holding {words['name']} face "
            "down from the start and giving that many GG back to the box when it gets the token (Arena's "
            "option start_reward_gg_prices). **Fair price** = the price at which team A's Δ log-odds against "
            "the paired no-token deal is 0: the token is then worth exactly those GG; kamas buy GG at the GG "
            f"price (R-A50: {words['rate']} kamas), so its kama equivalent is the GG price times "
            f"{words['rate']}. The Demonic Rewards section pools every price into one row per token: read "
            "this one for the price.",
            note=True,
        )
    elif kind == "price":
        doc.p(
            f"Each deal is played without the token and once per price, team A holding {words['name']} face "
            "down from the start and paying the price in kamas (Arena's option start_reward_prices: to the "
            "reserve, a debt its next kamas pay first when it has fewer; the 1 AP and the walk to a Demon cell "
            "of a real purchase are not charged). **Fair price** = the price at which team A's Δ log-odds "
            "against the paired no-token deal is 0: the token is then worth exactly the kamas paid for it, "
            "kamas that would otherwise buy GG (R-A50). A kama price bites only as far as the AI would have "
            "spent those kamas: when Δ stops falling with the price, no kama price makes the token fair and "
            "the GG price (sweep price_gg) is the measure. The Demonic Rewards section pools every price into "
            "one row per token: read this one for the price.",
            note=True,
        )
    else:
        doc.p(
            f"Each deal is played without any challenge ('none') and under {words['name']} with the swept "
            "threshold (a balance patch per arm, Blast's option challenge_tiers), same seeds. **Neutral "
            "threshold** = the threshold at which the challenge's Δ log-odds for the first player against "
            "the paired no-challenge deal is 0 — the Divine Challenge study's 'shifts the first player' "
            "measure, brought to zero.",
            note=True,
        )
    if points.empty:
        doc.p("No finished match on both sides of the comparison: nothing to fit.")
        return
    t = points.copy()
    t["value"] = [words["baseline"] if pd.isna(x) else _value_text(x) for x in t["x"]]
    t[f"{words['side']} win rate"] = [f"{r:.1%}" for r in t["rate"]]
    t["Δ log-odds [95% CI]"] = [
        "reference" if pd.isna(x) else with_ci(c, lo, hi)
        for x, c, lo, hi in zip(t["x"], t["coef"], t["ci_low"], t["ci_high"], strict=True)
    ]
    doc.table(
        t[["ai", "tier", "value", "n", "n_deals", f"{words['side']} win rate", "Δ log-odds [95% CI]"]],
        f"Δ log-odds of the {words['side']} at each swept value against {words['baseline']} (binomial GLM, "
        "deal-clustered 95% intervals; n = matches, n_deals = deals).",
    )
    rows = [
        {
            "ai": fit["ai"],
            "tier": fit.get("tier", ""),
            "n": int(fit["n"]),
            "n_deals": int(fit["n_deals"]),
            "Δ at value 0": fmt(fit["intercept"]),
            "slope per unit [±se]": f"{fit['slope']:.3g} ± {fit['slope_se']:.2g}"
            if np.isfinite(fit["slope"])
            else "n/a",
            words["printed_name"]: words["printed"],
            "answer": verdict_line(fit, words, kind),
        }
        for _, fit in fits.iterrows()
    ]
    doc.table(
        pd.DataFrame(rows),
        "Fitted line per AI: Δ log-odds = a + slope × value (binomial GLM over every match, deal-clustered "
        "covariance); the root −a/slope and its 95% interval by the delta method. The line assumes the effect "
        "is linear in the swept value: compare it with the points above.",
    )
    doc.image(
        f"crossing_{kind}.png", plot_crossing(points, fits, words), f"{words['title']}: Δ against the value"
    )


def crossing_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Any:
    """The answer picture: Δ log-odds at each swept value, per AI (None without such a sweep)."""
    kind, sweep, _, points, fits = study(rs)
    if not kind or points.empty:
        return None
    words = _words(kind, sweep)
    shown = points[points["x"].notna()]
    rows = [
        ai_row(
            f"{words['x']} = {_value_text(r.x)}",
            str(r.ai),
            str(r.tier),
            r.coef,
            r.ci_low,
            r.ci_high,
            r.n,
        )
        for r in shown.itertuples(index=False)
    ]
    lines = [
        f"Under {group_label(str(f['ai']), str(f.get('tier', '')))}: {verdict_line(f, words, kind)}."
        for _, f in fits.iterrows()
    ]
    return Verdict(
        words["title"],
        f"Δ log-odds of the {words['side']} vs {words['baseline']} (paired deals)",
        verdict_frame(rows),
        0.0,
        False,
        lines[:2],
        f"Binomial GLM per AI, deal-clustered 95% intervals, n = matches. Details in the {words['title']} section.",
        rows="prices",
    )


def _measured(fit: pd.Series) -> bool:
    """Whether a fit gives a price the points stand behind: a root inside the swept values, from a
    slope told from 0 (the rows :func:`verdict_line` reads as a fair price)."""
    note = str(fit.get("note") or "")
    return bool(np.isfinite(fit.get("root", np.nan)) and fit.get("in_grid") and "not clearly" not in note)


def _root_comparison(top: pd.Series, second: pd.Series, unit: str) -> str:
    """The two AIs' fair prices set side by side: their difference with a 95% interval (the two
    roots' delta-method errors taken as independent), or which of the two has no price to compare."""
    if not (_measured(top) and _measured(second)):
        missing = [str(f["ai"]) for f in (top, second) if not _measured(f)]
        return f"not comparable: {' and '.join(missing)} measures no fair price within the swept values"
    z = 1.959964
    se = [(f["root_ci_high"] - f["root_ci_low"]) / (2 * z) for f in (top, second)]
    diff = float(top["root"] - second["root"])
    half = z * float(np.hypot(*se))
    told = (
        f"{top['ai']} puts it {'higher' if diff > 0 else 'lower'}"
        if abs(diff) > half
        else "the two cannot be told apart at this n"
    )
    return f"difference {fmt(diff)} [{fmt(diff - half)}, {fmt(diff + half)}] {unit}: {told}"


def crossing_answer(rs: Any, tables: dict[str, pd.DataFrame]) -> list[str] | None:
    """The headline of a price sweep: the fair price measured by the strongest validated AI that
    played (with n and its 95% interval, and how it stands to the printed price), then the next AI
    down's and whether the two differ (None when the run swept no price)."""
    from krosbalance.analysis.top_ai import ai_note, run_ruleset, top_ais  # heavy: pandas, scipy

    kind, sweep, _, _, fits = study(rs)
    if kind != "price" or fits.empty:
        return None
    top = top_ais(list(fits["ai"]), run_ruleset(rs.matches))
    if top is None:
        return None
    words = _words(kind, sweep)
    by_ai = {str(f["ai"]): f for _, f in fits.iterrows()}
    first = by_ai[top.top]
    lines = [
        f"Under {ai_note(top)}: {verdict_line(first, words, kind)} (n={int(first['n']):,} matches, "
        f"{int(first['n_deals']):,} deals)."
    ]
    if top.second and top.second in by_ai:
        second = by_ai[top.second]
        lines.append(
            f"Next AI down, {top.second}: {verdict_line(second, words, kind)} (n={int(second['n']):,}) — "
            f"{_root_comparison(first, second, words['unit'])}."
        )
    return lines


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook: a section when the run swept a reward's price or a challenge's tier."""
    kind = sweep_kind(rs)
    if kind:
        title = "Fair price" if kind == "price" else "Neutral tier threshold"
        section(doc, title, lambda: report_section(doc, rs, tables))


__all__ = [
    "add_report_section",
    "crossing_answer",
    "crossing_verdict",
    "plot_crossing",
    "report_section",
    "study",
]
