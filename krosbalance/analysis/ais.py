"""The AIs of an experiment: every seat's AI with its tier, its ladder standing and the matches it
played (every study's report names them), and the ladder's standing file read once."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from krosbalance.ai.ladder import load_ladder
from krosbalance.analysis import dependence, stats
from krosbalance.analysis.design import weights
from krosbalance.analysis.seating import MAX_SEATS
from krosbalance.errors import KrosbalanceError


def ai_table(matches: pd.DataFrame, standings: dict[str, Any]) -> pd.DataFrame:
    """The AIs of the experiment (every seat's: ``ai0``, ``ai1``, ...) with their tier, ladder standing
    and matches played."""
    cols = ["ai", "tier", "rating", "ci_low", "ci_high", "ladder_n", "validated", "matches"]
    m = stats.ok_matches(matches)
    if m.empty or "ai0" not in m.columns:
        return pd.DataFrame(columns=cols)
    k = weights(m)
    seats_ai = [c for c in (f"ai{s}" for s in range(MAX_SEATS)) if c in m.columns]
    played: dict[str, float] = {}
    for row, w in zip(m[seats_ai].astype(str).itertuples(index=False), k, strict=True):
        for a in dict.fromkeys(row):  # each AI of a match once
            played[a] = played.get(a, 0.0) + w
    rows = []
    for ai in sorted(played, key=lambda a: (dependence._tier_rank(dependence.ai_tier(a)), a)):
        s = standings.get(ai)
        rows.append(
            (
                ai,
                dependence.ai_tier(ai),
                s.rating if s else np.nan,
                s.ci_low if s else np.nan,
                s.ci_high if s else np.nan,
                s.n if s else 0,
                bool(s.validated) if s else False,
                int(round(played[ai])),
            )
        )
    return pd.DataFrame(rows, columns=cols)


def load_standings(ruleset: str = "arena") -> tuple[dict[str, Any], str]:
    """``ruleset``'s AI ladder standings by AI (options after its name ignored), and the problem
    reading its file ('' when none)."""
    try:
        return load_ladder(ruleset=str(ruleset).split("[", 1)[0].strip()), ""
    except KrosbalanceError as err:
        return {}, f"The ladder file could not be read ({err}); no AI counts as validated."


__all__ = ["ai_table", "load_standings"]
