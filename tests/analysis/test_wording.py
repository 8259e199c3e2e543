"""A log-odds verdict read in win %, and the AIs that played, as every answer says them."""

from __future__ import annotations

import pandas as pd

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.analysis.wording import played_by, win_pct_text, win_share


def test_log_odds_read_as_win_shares() -> None:
    assert win_share(0.0) == 0.5
    assert win_share(1.0) > 0.7 and win_share(-1.0) < 0.3
    assert win_pct_text(0.0, -0.4, 0.4) == "≈ 50% [40%, 60%] win"
    assert win_pct_text(0.0) == "≈ 50% win"


def test_played_by_names_each_ai_with_its_tier() -> None:
    a, b = list_ais()[:2]
    text = played_by(pd.DataFrame({"ai0": [a], "ai1": [b]}))
    assert a in text and b in text and ai_tier(a) in text
    assert played_by(pd.DataFrame()) == "unknown AIs"
