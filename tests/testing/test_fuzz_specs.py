"""The differential fuzz's Arena specs: a search AI plays short matches, a deep one shorter still."""

from __future__ import annotations

from krosbalance.ai.registry import ai_cost, ai_tier
from krosbalance.testing import fuzz_specs


def test_search_matches_are_short_and_deep_searches_shorter() -> None:
    specs = fuzz_specs.match_specs(1500, 372026)
    deep = [s for s in specs if any(fuzz_specs.is_deep_search(a) for a in s["ai"])]
    search = [s for s in specs if s not in deep and any(ai_tier(a) == "search" for a in s["ai"][:2])]
    assert deep and search
    lo, hi = fuzz_specs.DEEP_SEARCH_TURNS
    assert all(lo <= s["options"]["turn_limit"] <= hi for s in deep)
    two_player = [s for s in search if len(s["teams"]) == 2]
    lo, hi = fuzz_specs.SEARCH_TURNS
    assert two_player and all(lo <= s["options"]["turn_limit"] <= hi for s in two_player)
    for spec in deep:  # deep = measured dearer than the bar in the registry's costs
        assert any(ai_cost(a)[0] > fuzz_specs.DEEP_SEARCH_COST for a in spec["ai"] if ai_tier(a) == "search")
