"""Per-AI parametrisations shared by the suite-wide batteries (conformance, determinism).

Every registered AI is a case. The search tier's AIs are one planner with different rollout budgets,
each match of which plays hundreds of turns on copies: the default suite runs its cheapest budget
(:data:`DEFAULT_SEARCH`) and ``make battery`` (``-m slow``) the others.
"""

from __future__ import annotations

from typing import Any

import pytest

from krosbalance.ai.registry import ai_tier, list_ais

#: the search AI every per-AI test of the default suite covers
DEFAULT_SEARCH = "lookahead-fast"


def every_ai() -> list[Any]:
    """``list_ais()`` as pytest parameters, search AIs other than :data:`DEFAULT_SEARCH` slow."""
    return [
        pytest.param(name, marks=pytest.mark.slow)
        if ai_tier(name) == "search" and name != DEFAULT_SEARCH
        else name
        for name in list_ais()
    ]
