"""How much a verdict depends on the AI and the board.

A balance verdict is only as good as the AIs that played it. This module splits every headline
number by AI matchup and by board (each with n and its interval, next to the pooled number),
measures how stable the character ranking is between AIs and between boards (Kendall's tau), and
gives each character a verdict that holds only when the AIs agree:

* **over-powered** / **under-powered**: the teammate-adjusted strength's 95% interval excludes zero
  with the same sign in every validated tier played (pooled over that tier's AIs), and every
  validated AI's own estimate points the same way (an AI whose estimate has the other sign, even
  without confidence, *dissents*: the direction itself then depends on who plays);
* **depends on AI**: some tier or AI shows a sign with confidence but the others do not agree;
* **not shown**: no tier shows a sign with confidence.

Tiers come from :func:`krosbalance.ai.registry.ai_tier`, validation from the ladder file
(:func:`krosbalance.ai.ladder.load_ladder`). The baseline tier (random play) is used only when
nothing stronger was played. When no AI of the experiment is validated, the verdicts rest on the AIs
played and say so (``basis``). Only matchups in which both teams had the same AI measure the
characters (in a lopsided matchup the better AI follows one team); the others are shown in the
headline table but kept out of strengths, tau and verdicts.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from krosbalance.ai.ladder import load_ladder
from krosbalance.ai.registry import ai_tier as registry_tier
from krosbalance.analysis import stats
from krosbalance.analysis.design import weights
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.strength import adjusted_strength, character_strengths
from krosbalance.errors import ContentError
from krosbalance.sim.tables import UNKNOWN_TIER

POOLED = "pooled"
MIN_TAU_CHARACTERS = 3
TIER_ORDER = ("baseline", "heuristic", "search")


def ai_tier(ai: str, recorded: Mapping[str, str] | None = None) -> str:
    """The tier of an AI as the results recorded it (``recorded``: :func:`recorded_tiers` of their
    matches rows, written at run time from the AI registry), else — for folders written before the
    rows recorded it — the live registry's; ``unknown`` for a name the registry does not hold."""
    if recorded and recorded.get(str(ai)):
        return str(recorded[str(ai)])
    try:
        return registry_tier(str(ai))
    except ContentError:  # an AI this installation does not register
        return UNKNOWN_TIER


def _tier_of(ai: str, recorded: Mapping[str, str]) -> str:
    """The recorded tier of an AI, else :func:`ai_tier`'s (old folders)."""
    return str(recorded.get(str(ai)) or ai_tier(ai))


def recorded_tiers(matches: pd.DataFrame) -> dict[str, str]:
    """{AI: tier} as the matches rows recorded them (``ai0_tier`` beside ``ai0``, and so on for every
    seat); {} for rows written before the tier columns."""
    out: dict[str, str] = {}
    seat = 0
    while f"ai{seat}" in matches.columns:
        if f"ai{seat}_tier" in matches.columns:
            pairs = matches[[f"ai{seat}", f"ai{seat}_tier"]].dropna().astype(str).drop_duplicates()
            out.update(zip(pairs.iloc[:, 0], pairs.iloc[:, 1], strict=True))
        seat += 1
    return out


def matchup_label(ai_a: str, ai_b: str) -> str:
    """``kiter`` when both teams had the same AI, else ``focus_fire vs random`` (sorted)."""
    return str(ai_a) if ai_a == ai_b else " vs ".join(sorted((str(ai_a), str(ai_b))))


def with_groups(matches: pd.DataFrame) -> pd.DataFrame:
    """``matches`` plus ``ai_matchup``, ``symmetric`` (same AI for both teams) and ``tier`` columns."""
    m = matches
    ai0 = m["ai0"].astype(str) if "ai0" in m.columns else pd.Series("?", index=m.index)
    ai1 = m["ai1"].astype(str) if "ai1" in m.columns else ai0
    label = [matchup_label(a, b) for a, b in zip(ai0, ai1, strict=True)]
    recorded = recorded_tiers(m)  # the rows' own; the live registry's for older folders
    tiers = {a: _tier_of(a, recorded) for a in set(ai0) | set(ai1)}
    tier = [tiers[a] if tiers[a] == tiers[b] else "mixed" for a, b in zip(ai0, ai1, strict=True)]
    return m.assign(ai_matchup=label, symmetric=(ai0 == ai1).to_numpy(), tier=tier)


def _decided_n(m: pd.DataFrame) -> int:
    ok = stats.ok_matches(m)
    return int(round(weights(ok)[stats.winner_series(ok).notna().to_numpy()].sum()))


def groups_of(matches: pd.DataFrame, by: str) -> list[str]:
    """The groups of a column in a stable order (boards sorted; AI matchups by tier, then name)."""
    m = with_groups(matches) if by in ("ai_matchup", "tier") else matches
    if by not in m.columns or m.empty:
        return []
    values = sorted(set(m[by].astype(str)))
    if by == "tier":
        return sorted(values, key=_tier_rank)
    if by == "ai_matchup":
        recorded = recorded_tiers(matches)
        return sorted(values, key=lambda v: (" vs " in v, _tier_rank(_tier_of(v, recorded)), v))
    return values


def _tier_rank(tier: str) -> int:
    return TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER)


# --------------------------------------------------------------------------------------- strengths


def strength_by(matches: pd.DataFrame, by: str, symmetric_only: bool = True) -> pd.DataFrame:
    """Teammate-adjusted character strength per group of ``by`` (``ai_matchup``, ``board`` or
    ``tier``), plus the pooled fit.

    Returns:
        group, term, coef, se, ci_low, ci_high, n (decided matches the character played in),
        n_matches (decided matches of the group), method, interval; characters only.
    """
    m = with_groups(matches)
    if symmetric_only and "symmetric" in m.columns:
        m = m[m["symmetric"]]
    cols = ["group", "term", "coef", "se", "ci_low", "ci_high", "n", "n_matches", "method", "interval"]
    frames = []
    for group in [POOLED, *groups_of(m, by)]:
        sub = m if group == POOLED else m[m[by].astype(str) == group]
        s = character_strengths(adjusted_strength(sub))
        if s.empty:
            continue
        frames.append(s.assign(group=group, n_matches=_decided_n(sub))[cols])
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def strength_pivot(long: pd.DataFrame) -> pd.DataFrame:
    """Characters x groups of :func:`strength_by` as ``coef [lo, hi]`` strings (pooled first)."""
    if long.empty:
        return pd.DataFrame()
    cell = [
        with_ci(c, lo, hi) for c, lo, hi in zip(long["coef"], long["ci_low"], long["ci_high"], strict=True)
    ]
    wide = long.assign(cell=cell).pivot(index="term", columns="group", values="cell")
    order = [POOLED] + [g for g in dict.fromkeys(long["group"]) if g != POOLED]
    pooled = long[long["group"] == POOLED].set_index("term")["coef"]
    rows = pooled.sort_values(ascending=False).index.tolist() + [
        t for t in wide.index if t not in pooled.index
    ]
    return wide.reindex(index=rows, columns=[g for g in order if g in wide.columns]).fillna("n/a")


def rank_stability(long: pd.DataFrame) -> pd.DataFrame:
    """Kendall's tau between the character rankings of every two groups (pooled excluded).

    Returns:
        group_a, group_b, characters (estimated in both), tau, p_value (NaN with fewer than
        ``MIN_TAU_CHARACTERS`` characters in common).
    """
    cols = ["group_a", "group_b", "characters", "tau", "p_value"]
    if long.empty:
        return pd.DataFrame(columns=cols)
    coefs = long[long["group"] != POOLED].pivot(index="term", columns="group", values="coef")
    groups = [g for g in dict.fromkeys(long["group"]) if g != POOLED]
    rows = []
    for a, b in itertools.combinations(groups, 2):
        both = coefs[[a, b]].dropna()
        if len(both) < MIN_TAU_CHARACTERS:
            rows.append((a, b, len(both), np.nan, np.nan))
            continue
        res = sps.kendalltau(both[a], both[b])
        rows.append((a, b, len(both), float(res.statistic), float(res.pvalue)))
    return pd.DataFrame(rows, columns=cols)


# --------------------------------------------------------------------------------------- headlines


def headline_by(matches: pd.DataFrame, by: str, strengths: pd.DataFrame | None = None) -> pd.DataFrame:
    """The experiment's headline numbers per group of ``by`` and pooled, each with n and interval.

    ``strengths`` (the output of :func:`strength_by` for the same ``by``) avoids refitting.

    Returns:
        group, tier (AI matchups), matches (error-free), decided, strongest, strongest_coef,
        strongest_ci_low/high, weakest (same), first_rate, first_ci_low/high, draw_share,
        draw_ci_low/high. Strengths come only from same-AI matchups.
    """
    m = with_groups(matches)
    rows = []
    for group in [POOLED, *groups_of(m, by)]:
        sub = m if group == POOLED else m[m[by].astype(str) == group]
        ok = stats.ok_matches(sub)
        k = weights(ok)
        n_ok = int(round(k.sum()))
        row: dict[str, Any] = {"group": group, "matches": n_ok}
        if by == "ai_matchup":
            row["tier"] = "" if group == POOLED else str(sub["tier"].iloc[0]) if len(sub) else ""
        first = stats.first_player_advantage(sub).iloc[0]
        row["decided"] = int(first["n"])
        row.update(first_rate=first["win_rate"], first_ci_low=first["ci_low"], first_ci_high=first["ci_high"])
        draws = int(round(k[stats.winner_series(ok).isna().to_numpy()].sum())) if n_ok else 0
        lo, hi = stats.wilson_interval(draws, n_ok)
        row.update(draw_share=draws / n_ok if n_ok else np.nan, draw_ci_low=lo, draw_ci_high=hi)
        if strengths is not None:
            chars = strengths[strengths["group"] == group].sort_values(
                ["coef", "term"], ascending=[False, True]
            )
        else:
            sym = sub[sub["symmetric"]] if "symmetric" in sub.columns else sub
            chars = character_strengths(adjusted_strength(sym)) if len(sym) else pd.DataFrame()
        for label, pick in (("strongest", 0), ("weakest", -1)):
            if len(chars) >= 2:
                r = chars.iloc[pick]
                row.update(
                    {
                        label: r["term"],
                        f"{label}_coef": r["coef"],
                        f"{label}_ci_low": r["ci_low"],
                        f"{label}_ci_high": r["ci_high"],
                    }
                )
            else:
                row.update(
                    {
                        label: "",
                        f"{label}_coef": np.nan,
                        f"{label}_ci_low": np.nan,
                        f"{label}_ci_high": np.nan,
                    }
                )
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------- verdicts


@dataclass(frozen=True)
class Basis:
    """Which tiers and AIs a verdict rests on, and whether they are validated."""

    tiers: tuple[str, ...]
    ais: tuple[str, ...]
    validated: bool
    note: str


def verdict_basis(matches: pd.DataFrame, standings: dict[str, Any] | None = None) -> Basis:
    """The tiers and AIs the verdicts use (see the module docstring)."""
    if standings is None:
        standings = load_ladder()
    m = with_groups(matches)
    sym = m[m["symmetric"]] if len(m) else m
    played = sorted(set(sym["ai0"].astype(str))) if len(sym) else []
    validated = [a for a in played if getattr(standings.get(a), "validated", False)]
    pool = validated or played
    recorded = recorded_tiers(matches)
    tiers = sorted({_tier_of(a, recorded) for a in pool}, key=_tier_rank)
    above = [t for t in tiers if t != "baseline"]
    if above:
        tiers = above
        pool = [a for a in pool if _tier_of(a, recorded) in tiers]
    if not played:
        note = "no matchup with the same AI on both sides: no character verdict"
    elif validated:
        note = f"validated tier(s): {', '.join(tiers)} ({', '.join(pool)})"
        if tiers == ["baseline"]:
            note += "; random play only, not competent play"
    else:
        note = f"AIs not validated by the ladder: {', '.join(pool)}; verdicts are provisional"
    return Basis(tuple(tiers), tuple(pool), bool(validated), note)


def _sign(lo: float, hi: float) -> int:
    if np.isnan(lo) or np.isnan(hi):
        return 0
    return 1 if lo > 0 else -1 if hi < 0 else 0


def verdicts(matches: pd.DataFrame, standings: dict[str, Any] | None = None) -> pd.DataFrame:
    """One verdict per character, with the per-tier evidence behind it.

    Returns:
        character, verdict (``over-powered`` / ``under-powered`` / ``depends on AI`` / ``not
        shown``), basis (the note of :func:`verdict_basis`), and per tier ``<tier>`` (coef) with
        ``<tier>_ci_low`` / ``<tier>_ci_high``; ``dissent`` names the AIs of the basis whose own
        estimate points the other way (which made the verdict "depends on AI").
    """
    basis = verdict_basis(matches, standings)
    cols = ["character", "verdict", "basis", "dissent"]
    m = with_groups(matches)
    m = m[m["symmetric"] & m["ai0"].astype(str).isin(basis.ais)] if len(m) else m
    if m.empty or not basis.ais:
        return pd.DataFrame(columns=cols)
    per_tier = {}
    for tier in basis.tiers:
        s = character_strengths(adjusted_strength(m[m["tier"] == tier]))
        per_tier[tier] = (
            s.set_index("term") if not s.empty else pd.DataFrame(columns=["coef", "ci_low", "ci_high"])
        )
    per_ai = {}
    for ai in basis.ais:
        s = character_strengths(adjusted_strength(m[m["ai0"].astype(str) == ai]))
        per_ai[ai] = (
            s.set_index("term") if not s.empty else pd.DataFrame(columns=["coef", "ci_low", "ci_high"])
        )
    characters = sorted(set().union(*(set(t.index) for t in per_tier.values())))
    rows = []
    for c in characters:
        row: dict[str, Any] = {"character": c}
        signs = []
        for tier, t in per_tier.items():
            if c in t.index:
                r = t.loc[c]
                row.update({tier: r["coef"], f"{tier}_ci_low": r["ci_low"], f"{tier}_ci_high": r["ci_high"]})
                signs.append(_sign(r["ci_low"], r["ci_high"]))
            else:
                row.update({tier: np.nan, f"{tier}_ci_low": np.nan, f"{tier}_ci_high": np.nan})
                signs.append(0)
        ai_signs = {
            ai: _sign(t.loc[c, "ci_low"], t.loc[c, "ci_high"]) for ai, t in per_ai.items() if c in t.index
        }
        if signs and all(s == 1 for s in signs):
            verdict = "over-powered"
        elif signs and all(s == -1 for s in signs):
            verdict = "under-powered"
        elif any(signs) or any(ai_signs.values()):
            verdict = "depends on AI"
        else:
            verdict = "not shown"
        held = {"over-powered": 1, "under-powered": -1}.get(verdict)
        points = {ai: float(np.sign(t.loc[c, "coef"])) for ai, t in per_ai.items() if c in t.index}
        dissent = [ai for ai, s in points.items() if held is not None and s == -held]
        if dissent:
            verdict = "depends on AI"
        row.update(verdict=verdict, basis=basis.note, dissent=", ".join(dissent))
        rows.append(row)
    if not rows:
        return pd.DataFrame(columns=cols)
    out = pd.DataFrame(rows)
    order = {"over-powered": 0, "under-powered": 1, "depends on AI": 2, "not shown": 3}
    first_tier = basis.tiers[0] if basis.tiers else None
    key = out[first_tier].fillna(0) if first_tier in out.columns else 0
    out = out.assign(_o=out["verdict"].map(order), _k=-key).sort_values(["_o", "_k", "character"])
    lead = cols + [c for c in out.columns if c not in cols and not c.startswith("_")]
    return out[lead].reset_index(drop=True)
