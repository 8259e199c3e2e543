"""Plain-language findings generated from the derived tables.

Every sentence is driven by a number and its interval, and significance is only claimed when the
95% interval shows it (excludes zero for strengths, excludes 50% for rates). The wording is for a
reader who plays Krosmaster, not a statistician.
"""

from __future__ import annotations

import math

import pandas as pd

from krosbalance.analysis.names import confidence_text, display_name, team_label
from krosbalance.analysis.strength import character_strengths

MAX_CONFOUND_LINES = 4


def fmt(x: float, digits: int = 2) -> str:
    """A number, or "n/a" for NaN."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def pct(x: float) -> str:
    """A proportion as a percentage (one decimal)."""
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def with_ci(est: float, lo: float, hi: float, as_pct: bool = False, digits: int = 2) -> str:
    """``est [lo, hi]``; the interval is left out when it is undefined. A percentage interval that
    is not zero-width is never printed as one: more decimals are shown until its ends differ
    (``0.0% [0.0%, 0.05%]``, not ``0.0% [0.0%, 0.0%]``)."""
    f = pct if as_pct else (lambda v: fmt(v, digits))
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return f(est)
    if as_pct and hi > lo:
        places = 1
        while places < 4 and f"{100 * lo:.{places}f}" == f"{100 * hi:.{places}f}":
            places += 1
        f = (lambda v: f"{100 * v:.{places}f}%") if places > 1 else f
    return f"{f(est)} [{f(lo)}, {f(hi)}]"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def strength_findings(strength: pd.DataFrame, win_rates: pd.DataFrame) -> list[str]:
    """Strongest / weakest character, how many intervals exclude zero, and confounded raw rates."""
    chars = character_strengths(strength)
    if len(chars) < 2:
        return ["Teammate-adjusted strength: not enough data (fewer than two characters could be estimated)."]
    out = []
    method = str(chars["method"].iloc[0])
    if method == "ridge":
        out.append(
            "The strength model needed its fallback (an L2-penalised fit, because the plain fit separated or "
            "was singular): estimates are shrunk towards zero and intervals are approximate."
        )
    for label, row in (("highest", chars.iloc[0]), ("lowest", chars.iloc[-1])):
        name, c, lo, hi = display_name(row["term"]), row["coef"], row["ci_low"], row["ci_high"]
        head = f"**{name}** has the {label} teammate-adjusted strength, {_signed(c)} log-odds versus the average character (95% CI [{fmt(lo)}, {fmt(hi)}], n={int(row['n'])})"
        if lo > 0:
            tail = "; the interval excludes zero, so it is stronger than the average character."
        elif hi < 0:
            tail = "; the interval excludes zero, so it is weaker than the average character."
        else:
            tail = (
                "; the interval includes zero, so the data do not show it differs from the average character."
            )
        out.append(head + tail)
    strong = [display_name(t) for t in chars[chars["ci_low"] > 0]["term"]]
    weak = [display_name(t) for t in chars[chars["ci_high"] < 0]["term"]]
    k = len(chars)
    line = f"Of {k} characters, {len(strong)} are above average with confidence ({', '.join(strong) or 'none'}) and {len(weak)} below ({', '.join(weak) or 'none'})."
    line += f" With {k} intervals, about {0.05 * k:.1f} would exclude zero by chance alone."
    out.append(line)
    confounded: list[str] = []
    if not win_rates.empty:
        merged = win_rates.merge(chars, left_on="character", right_on="term", suffixes=("", "_s"))
        for _, r in merged.iterrows():
            raw_high, raw_low = r["ci_low"] > 0.5, r["ci_high"] < 0.5
            adj_zero = r["ci_low_s"] <= 0 <= r["ci_high_s"]
            flipped = (raw_high and r["ci_high_s"] < 0) or (raw_low and r["ci_low_s"] > 0)
            if (raw_high or raw_low) and (adj_zero or flipped):
                looks = "high" if raw_high else "low"
                verdict = "is indistinguishable from average" if adj_zero else "points the other way"
                confounded.append(
                    f"{display_name(r['character'])}'s raw win rate looks {looks} ({with_ci(r['win_rate'], r['ci_low'], r['ci_high'], True)}), "
                    f"but its teammate-adjusted strength ({with_ci(r['coef'], r['ci_low_s'], r['ci_high_s'])}) {verdict}: "
                    "its raw rate reflects who it was teamed with."
                )
    out += confounded[:MAX_CONFOUND_LINES]
    if len(confounded) > MAX_CONFOUND_LINES:
        out.append(
            f"... and {len(confounded) - MAX_CONFOUND_LINES} more characters whose raw rate misleads the same way."
        )
    return out


def first_player_finding(first: pd.DataFrame, strength: pd.DataFrame | None = None) -> str:
    """Whether the first player wins significantly more (or less) than half of the decided matches.

    In Arena the first player is the team with the higher Initiative sum (R-A18), so the raw rate
    mixes playing first with who the characters are; when the strength model has a first-player
    term (adjusted for the characters), the sentence reports it as well."""
    if first.empty or not first["n"].iloc[0]:
        return "First-player advantage: not enough data (no decided match)."
    text = _raw_first_player(first)
    if strength is None or strength.empty or "term" not in strength:
        return text
    term = strength[strength["term"] == "(first player)"]
    if term.empty or pd.isna(term["coef"].iloc[0]):
        return text
    t = term.iloc[0]
    adjusted = with_ci(t["coef"], t["ci_low"], t["ci_high"])
    verdict = (
        "the interval includes 0, so playing first is not shown to matter once the characters are accounted for"
        if t["ci_low"] <= 0 <= t["ci_high"]
        else "the interval excludes 0"
    )
    return (
        f"{text} The first player is the team with the higher Initiative sum, so this raw rate is confounded "
        f"with team composition; adjusted for the characters, playing first adds {adjusted} log-odds: {verdict}."
    )


def _raw_first_player(first: pd.DataFrame) -> str:
    r = first.iloc[0]
    rate = with_ci(r["win_rate"], r["ci_low"], r["ci_high"], as_pct=True)
    base = f"The first player won {rate} of {int(r['n'])} decided matches (exact binomial p = {r['p_value']:.3g})"
    if r["ci_low"] > 0.5 and r["p_value"] < 0.05:
        return base + ": significantly more than half, a real first-player advantage."
    if r["ci_high"] < 0.5 and r["p_value"] < 0.05:
        return base + ": significantly less than half, a second-player advantage."
    return base + ": not significantly different from half (the interval includes 50%)."


def matchup_finding(matchups: pd.DataFrame) -> str:
    """The most convincingly lopsided matchup (highest Wilson lower bound of the winning team)."""
    cells = (
        matchups[(matchups["team"] != matchups["opponent"]) & matchups["win_rate"].notna()]
        if not matchups.empty
        else matchups
    )
    if cells.empty:
        return "Matchups: not enough data (no two different teams met)."
    winners = cells[cells["win_rate"] >= 0.5]
    if winners.empty:
        winners = cells
    r = winners.sort_values(["ci_low", "n"], ascending=[False, False]).iloc[0]
    text = (
        f"Most lopsided matchup: [{team_label(r['team'])}] beat [{team_label(r['opponent'])}] in "
        f"{with_ci(r['win_rate'], r['ci_low'], r['ci_high'], as_pct=True)} of {int(r['n'])} matches"
    )
    if r["ci_low"] > 0.5:
        return text + "; the interval excludes 50%."
    return text + "; the interval includes 50%, so even this matchup is not shown to be unbalanced."


def dominated_finding(dominated: pd.DataFrame, shown: int = 5) -> str:
    """Dominated teams, or a sentence saying there are none.

    Teams that met a single opponent (as in a design of splits, where each team meets only its
    complement) are counted apart: losing to one opponent is not dominance over a field."""
    if dominated.empty:
        return "No team is dominated (none has a 95% upper bound below 50% against every opponent it met)."
    several = dominated[dominated["opponents"] > 1]
    single = len(dominated) - len(several)
    parts = []
    if len(several):
        names = "; ".join(
            f"[{team_label(t)}] ({k} opponents)"
            for t, k in zip(several["team"].head(shown), several["opponents"].head(shown), strict=True)
        )
        more = f" and {len(several) - shown} more" if len(several) > shown else ""
        parts.append(
            f"{len(several)} team(s) are dominated, worse than every one of several opponents with 95% "
            f"confidence: {names}{more}."
        )
    if single:
        parts.append(
            f"{single} team(s) lost to the only opponent they met with 95% confidence; with one opponent each "
            "this says which side of a pairing is stronger, not that a team is dominated across the field "
            "(a round robin of teams would tell)."
        )
    return " ".join(parts)


def ending_finding(balance: pd.DataFrame) -> str:
    """Draw and turn-limit shares."""
    b = balance.set_index("metric")
    parts = []
    for metric, label in (("draw share", "were draws"), ("turn-limit share", "hit the turn limit")):
        if metric in b.index and not math.isnan(b.loc[metric, "value"]):
            r = b.loc[metric]
            parts.append(f"{with_ci(r['value'], r['ci_low'], r['ci_high'], as_pct=True)} of matches {label}")
    if not parts:
        return "Draws and turn limits: not enough data."
    text = "; ".join(parts).capitalize() + "."
    if "turn-limit share" in b.index and b.loc["turn-limit share", "ci_low"] > 0.10:
        text += " That is a large share: the turn limit, not the game, decides many matches."
    return text


def ai_lines(ais: pd.DataFrame) -> list[str]:
    """Which AIs played, their tier and ladder standing, and a warning when any is not validated.

    ``ais`` has columns ai, tier, rating, ci_low, ci_high, validated (NaN rating: not on the ladder).
    """
    if ais.empty:
        return []
    parts = []
    for r in ais.itertuples(index=False):
        if pd.isna(r.rating):
            standing = "not on the ladder"
        else:
            standing = f"ladder rating {with_ci(r.rating, r.ci_low, r.ci_high)}, " + (
                "validated" if r.validated else "not validated"
            )
        parts.append(f"{r.ai} ({r.tier}; {standing})")
    lines = [f"AIs used: {'; '.join(parts)}."]
    unvalidated = [str(a) for a, v in zip(ais["ai"], ais["validated"], strict=True) if not v]
    if unvalidated:
        lines.append(
            f"**Warning: not validated AIs ({', '.join(unvalidated)}).** The AI ladder has not shown them "
            "to play in their tier's order (baseline < heuristic < search), so every verdict below measures "
            "these bots' play as much as the figures: read it as provisional."
        )
    if set(ais["tier"]) <= {"baseline"}:
        lines.append(
            "Only random play: the numbers say how the figures fare when nobody plays well, not in competent play."
        )
    return lines


def verdict_lines(verdicts: pd.DataFrame, by_ai: pd.DataFrame | None = None, shown: int = 6) -> list[str]:
    """Characters called over- or under-powered across the AI tiers, those whose verdict depends on
    the AI (with the per-AI estimates), and the card values of low confidence behind a verdict."""
    if verdicts.empty:
        return []
    lines = []
    per_ai: dict[str, str] = {}
    if by_ai is not None and not by_ai.empty:
        groups = [g for g in dict.fromkeys(by_ai["group"]) if g != "pooled"]
        if len(groups) > 1:
            for term, grp in by_ai[by_ai["group"] != "pooled"].groupby("term"):
                per_ai[term] = ", ".join(
                    f"{_signed(c)} under {g}" for g, c in zip(grp["group"], grp["coef"], strict=True)
                )
    basis = str(verdicts["basis"].iloc[0])
    parts = []
    for verdict in ("over-powered", "under-powered"):
        names = [display_name(c) for c in verdicts.loc[verdicts["verdict"] == verdict, "character"]]
        if names:
            more = f" and {len(names) - shown} more" if len(names) > shown else ""
            parts.append(f"**{verdict}**: {', '.join(names[:shown])}{more}")
    depends = verdicts[verdicts["verdict"] == "depends on AI"]["character"].tolist()
    if depends:
        items = [f"{display_name(c)}" + (f" ({per_ai[c]})" if c in per_ai else "") for c in depends[:shown]]
        more = f" and {len(depends) - shown} more" if len(depends) > shown else ""
        parts.append(f"**depends on AI**: {'; '.join(items)}{more}")
    if parts:
        lines.append(f"Verdicts that hold in every AI tier played ({basis}): " + ". ".join(parts) + ".")
    else:
        lines.append(f"No character is shown over- or under-powered in every AI tier played ({basis}).")
    flagged = verdicts[verdicts["verdict"] != "not shown"]["character"]
    notes = [(display_name(c), confidence_text(c)) for c in flagged]
    notes = [(n, t) for n, t in notes if t]
    if notes:
        lines.append(
            "Card values of low confidence behind these verdicts (see the content files' sources): "
            + " | ".join(f"{n}: {t}" for n, t in notes[:shown])
            + (f" | and {len(notes) - shown} more" if len(notes) > shown else "")
            + "."
        )
    return lines


def ladder_line(ratings: pd.DataFrame, gate: pd.DataFrame, passed: bool) -> str:
    """The AI ladder in one sentence: the order with ratings, and whether the tier gate holds."""
    r = ratings[ratings["rating"].notna()] if not ratings.empty else ratings
    if r.empty:
        return "AI ladder: not enough data (no decided match between two different AIs)."
    order = "; ".join(
        f"{a} ({t}) {with_ci(x, lo, hi)}"
        for a, t, x, lo, hi in zip(r["ai"], r["tier"], r["rating"], r["ci_low"], r["ci_high"], strict=True)
    )
    if gate.empty:
        verdict = "no two tiers met, so the tier order cannot be judged"
    elif passed:
        verdict = "the validity gate passes: every tier is above the tiers below it with 95% confidence"
    else:
        failed = gate[~gate["holds"]]
        pairs = ", ".join(f"{h} over {lo}" for h, lo in zip(failed["higher"], failed["lower"], strict=True))
        verdict = f"**the validity gate fails** ({pairs} not shown)"
    return f"AI ladder (Bradley-Terry log-odds): {order}; {verdict}."


def stability_line(tau: pd.DataFrame, between: str) -> str:
    """How far the character ranking agrees between AIs (or boards): Kendall's tau."""
    t = tau.dropna(subset=["tau"]) if not tau.empty else tau
    if t.empty:
        return ""
    lo, hi = float(t["tau"].min()), float(t["tau"].max())
    rng = f"{lo:.2f}" if len(t) == 1 else f"from {lo:.2f} to {hi:.2f}"
    if lo >= 0.6:
        verdict = "the ranking of the characters is stable"
    elif hi < 0.3:
        verdict = "the ranking of the characters changes with the " + between.rstrip("s")
    else:
        verdict = "the ranking of the characters only partly agrees"
    return f"Kendall's tau between {between}: {rng} ({len(t)} pair(s)): {verdict}."


def header_lines(*, n_total: int, n_ok: int, ais: pd.DataFrame | None = None, ladder: str = "") -> list[str]:
    """The summary's first lines, whatever the number of players: matches, AIs, ladder, errors."""
    errors = n_total - n_ok
    lines = [f"Based on {n_ok} error-free matches out of {n_total}."]
    if ais is not None:
        lines += ai_lines(ais)
    if ladder:
        lines.append(ladder)
    if errors:
        lines.append(
            f"{errors} match(es) ended in an error and are excluded from every statistic (listed below)."
        )
    if n_ok == 0:
        lines.append("No error-free match: nothing can be concluded.")
    return lines


def summary_lines(
    *,
    n_total: int,
    n_ok: int,
    win_rates: pd.DataFrame,
    strength: pd.DataFrame,
    first: pd.DataFrame,
    matchups: pd.DataFrame,
    dominated: pd.DataFrame,
    balance: pd.DataFrame,
    ais: pd.DataFrame | None = None,
    verdicts: pd.DataFrame | None = None,
    by_ai: pd.DataFrame | None = None,
    stability: list[str] | None = None,
    ladder: str = "",
) -> list[str]:
    """The report's summary, one finding per line (Markdown emphasis allowed)."""
    lines = header_lines(n_total=n_total, n_ok=n_ok, ais=ais, ladder=ladder)
    if n_ok == 0:
        return lines
    if verdicts is not None:
        lines += verdict_lines(verdicts, by_ai)
    lines += [line for line in stability or [] if line]
    lines += strength_findings(strength, win_rates)
    lines.append(first_player_finding(first, strength))
    lines.append(matchup_finding(matchups))
    lines.append(dominated_finding(dominated))
    lines.append(ending_finding(balance))
    return lines


def p_text(p: float) -> str:
    """A p-value in two significant digits (scientific below 0.001; n/a when missing)."""
    return "n/a" if p is None or math.isnan(p) else f"{p:.2g}" if p >= 0.001 else f"{p:.1e}"
