"""Small phrases every study's answer shares: a log-odds effect as a win %, and the AIs of a tier.

A designer reads a verdict in win %; the models speak log-odds. :func:`win_pct_text` gives the win
share a log-odds effect against the average means (the logistic function: 0 is 50%), with its
interval mapped the same way (monotone, so the interval stays an interval).
"""

from __future__ import annotations

import math

import pandas as pd


def win_share(log_odds: float) -> float:
    """A log-odds effect against the average as a win share (0 -> 0.5)."""
    return 1.0 / (1.0 + math.exp(-float(log_odds)))


def win_pct_text(est: float, lo: float | None = None, hi: float | None = None) -> str:
    """``≈ 64% [58%, 69%] win``: a log-odds effect and its 95% interval as win shares."""
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return f"≈ {100 * win_share(est):.0f}% win"
    return f"≈ {100 * win_share(est):.0f}% [{100 * win_share(lo):.0f}%, {100 * win_share(hi):.0f}%] win"


def played_by(matches: pd.DataFrame, tier: str | None = None) -> str:
    """The AIs that played ``matches`` (those of ``tier`` only, when given), as ``a, b (tier)``."""
    from krosbalance.analysis.dependence import ai_tier  # heavy: scipy, statsmodels

    if matches is None or matches.empty or "ai0" not in matches.columns:
        return "unknown AIs"
    names = set(matches["ai0"].astype(str))
    if "ai1" in matches.columns:
        names |= set(matches["ai1"].astype(str))
    by_tier: dict[str, list[str]] = {}
    for name in sorted(names):
        by_tier.setdefault(ai_tier(name), []).append(name)
    shown = {t: a for t, a in by_tier.items() if tier is None or t == tier} or by_tier
    return "; ".join(f"{', '.join(a)} ({t})" for t, a in shown.items())


__all__ = ["played_by", "win_pct_text", "win_share"]
