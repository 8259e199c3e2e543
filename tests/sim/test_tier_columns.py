"""Each matches row records each seat's AI tier at run time; analysis reads the recorded tier and asks
the live AI registry only for folders written before the columns (issue 38)."""

from __future__ import annotations

import pandas as pd

from krosbalance.analysis import dependence


def _rows() -> pd.DataFrame:
    return pd.DataFrame({"ai0": ["kiter", "kiter"], "ai1": ["kiter", "kiter"], "match_id": [0, 1]})


def test_the_recorded_tier_is_read_before_the_registry() -> None:
    assert dependence.ai_tier("kiter") == "heuristic"  # an old folder: the live registry's
    assert dependence.ai_tier("kiter", {"kiter": "search"}) == "search"  # the rows' own
    assert dependence.ai_tier("gone-ai", {"gone-ai": "heuristic"}) == "heuristic"  # no longer registered
    assert dependence.ai_tier("gone-ai", {}) == "unknown"


def test_verdict_basis_and_groups_use_the_recorded_tiers() -> None:
    old = _rows()
    assert dependence.verdict_basis(old, standings={}).tiers == ("heuristic",)
    recorded = old.assign(ai0_tier="search", ai1_tier="search")
    assert dependence.verdict_basis(recorded, standings={}).tiers == ("search",)
    assert set(dependence.with_groups(recorded)["tier"]) == {"search"}
    assert dependence.groups_of(recorded, "ai_matchup") == ["kiter"]
