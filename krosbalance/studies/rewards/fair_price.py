"""The two crossing studies of a sweep: a Demonic Reward's fair price and a Divine Challenge's
neutral tier threshold (issue 20). Each turns a results folder into the frame
:mod:`krosbalance.analysis.crossing` fits: one row per finished match with ``score`` (the measured
side's result: 1 win, ½ draw, 0 loss), ``deal`` (its seed: every arm of a deal shares it), ``x``
(the swept value; missing for the paired baseline) and the AI (``ai``, ``tier``).

**Fair price** (``[sweep] reward = ..., values = { price = [...] }``): each deal is played without
the token and once per price with team A holding the token from the start and *paying* the price in
kamas (Arena's ``start_reward_prices``: into the reserve, a debt when team A has fewer). The score
is team A's. The fair price is the price p* at which team A's Δ log-odds against the no-token deal
is 0: below p* the token is worth more than its kamas (under-priced), above it less. The printed
price is the token's rank's (R-A136: granite 3, jade 6, gold 12 kamas). With ``price_gg`` the
price is GG given back to the box (``start_reward_gg_prices``) and p* is in GG; kamas buy GG at
the GG price (R-A50: 10 kamas), so its kama equivalent is p* x gg_price.

**Neutral threshold** (``[sweep] challenge = ..., values = { "bonuses.<b>.tier" = [...] }`` with a
``none`` arm without any challenge): the score is the first player's (who a challenge favours in
:mod:`krosbalance.studies.challenges.tables`: the shift of the first player's win rate against no
challenge). The neutral threshold is the tier threshold t* at which the challenge's Δ log-odds for
the first player against ``none`` is 0.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.ai.registry import ai_tier
from krosbalance.analysis.stats import ok_matches
from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry
from krosbalance.rulesets.arena.options import default_options
from krosbalance.studies.challenges.tables import blast_matches

NONE_ARM = "none"


def _tier(ai: str) -> str:
    try:
        return str(ai_tier(ai))
    except Exception:  # an AI no longer registered: results stay readable
        return "unknown"


def _ai_label(a: str, b: str) -> str:
    return a if a == b else f"{a} vs {b}"


def team_a_price(options_json: Any, swapped: bool) -> float:
    """What team A paid for its held token, in the sweep's currency (kamas, or GG under
    ``start_reward_gg_prices``); NaN when it holds none, 0 when it was free."""
    try:
        options = json.loads(options_json) if isinstance(options_json, str) and options_json else {}
    except ValueError:
        return np.nan
    side = 1 if swapped else 0
    held = options.get("start_rewards") or [[], []]
    if not held[side]:
        return np.nan
    for option in ("start_reward_gg_prices", "start_reward_prices"):  # a sweep uses one currency
        prices = options.get(option) or [[], []]
        if prices[side]:
            return float(prices[side][0])
    return 0.0


def price_frame(matches: pd.DataFrame) -> pd.DataFrame:
    """The fair-price study's frame (see the module docstring)."""
    ok = ok_matches(matches)
    if ok.empty:
        return pd.DataFrame(columns=["deal", "x", "score", "ai", "tier"])
    swapped = ok["swapped"].astype(bool).to_numpy()
    winner_team = ok["winner_team"].fillna("").astype(str).to_numpy()
    score = np.where(winner_team == "A", 1.0, np.where(winner_team == "B", 0.0, 0.5))
    ai = [_ai_label(str(a), str(b)) for a, b in zip(ok["ai0"], ok["ai1"], strict=True)]
    tiers = {name: _tier(name) for name in set(ok["ai0"].astype(str)) | set(ok["ai1"].astype(str))}
    tier = [_ai_label(tiers[str(a)], tiers[str(b)]) for a, b in zip(ok["ai0"], ok["ai1"], strict=True)]
    return pd.DataFrame(
        {
            "deal": ok["seed"].to_numpy(),
            "x": [team_a_price(o, s) for o, s in zip(ok["options"], swapped, strict=True)],
            "score": score,
            "ai": ai,
            "tier": tier,
        }
    )


def threshold_frame(matches: pd.DataFrame, sweep: dict[str, Any]) -> pd.DataFrame:
    """The neutral-threshold study's frame: arms of the sweep get their swept tier as ``x``, the
    ``none`` arm (no challenge) is the baseline; other arms are left out."""
    field = next(iter(sweep.get("fields", [])), "")
    value_of = {p["arm"]: p["values"].get(field) for p in sweep.get("points", [])}
    frame = blast_matches(matches)
    frame = frame[frame["arm"].isin([NONE_ARM, *value_of])]
    if frame.empty:
        return pd.DataFrame(columns=["deal", "x", "score", "ai", "tier"])
    score = frame["first_won"].astype(float) + 0.5 * frame["draw"].astype(float)
    tiers = {name: _tier(name) for name in set(frame["ai0"].astype(str)) | set(frame["ai1"].astype(str))}
    return pd.DataFrame(
        {
            "deal": frame["seed"].to_numpy(),
            "x": [np.nan if arm == NONE_ARM else float(value_of[arm]) for arm in frame["arm"]],
            "score": score.to_numpy(float),
            "ai": frame["ai"].astype(str).to_numpy(),
            "tier": [
                _ai_label(tiers[str(a)], tiers[str(b)])
                for a, b in zip(frame["ai0"], frame["ai1"], strict=True)
            ],
        }
    )


def printed_price(reward_id: str, registry: Any = None) -> int | None:
    """The token's printed price: its rank's (R-A136, Arena's ``reward_prices``)."""
    reward = (registry or default_registry()).load_reward(reward_id)
    return default_options().reward_prices.get(reward.rank)


def gg_price() -> int:
    """Kamas for one GG (R-A50, Arena's ``gg_price``): the rate between the two currencies."""
    return int(default_options().gg_price)


def printed_tier(challenge_id: str, field: str) -> int | None:
    """The printed tier of the swept bonus (``bonuses.<bonus>.tier``)."""
    parts = field.split(".")
    if len(parts) != 3 or parts[0] != "bonuses":
        return None
    return int(blast_cards().challenge(challenge_id).bonus(parts[1]).tier)


__all__ = [
    "NONE_ARM",
    "gg_price",
    "price_frame",
    "printed_price",
    "printed_tier",
    "team_a_price",
    "threshold_frame",
]
