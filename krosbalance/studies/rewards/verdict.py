"""The rewards study's verdict picture: each token's Δ win rate per AI, paired deals (moved from
``analysis/study_verdicts.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.crossing import sweep_kind
from krosbalance.analysis.verdict import Verdict, ai_row, group_label, verdict_frame
from krosbalance.content.registry import default_registry
from krosbalance.studies.rewards import purchase
from krosbalance.studies.rewards import value as rewards
from krosbalance.studies.rewards.arms import recorded_arms


def reward_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A reward-value experiment (``held_rewards``): each token's Δ win rate per AI, paired deals."""
    if sweep_kind(rs):  # a price sweep: its own verdict (fair_price_section) answers the question
        return None
    matches, _ = rewards.reward_data(rs)
    arms = recorded_arms(rs)
    if not (rewards.is_value_experiment(matches) if arms is None else arms.value):
        return None
    value = rewards.controlled_value(matches)
    if value.empty:
        return None
    rows = [
        ai_row(
            r.name,
            str(r.ai),
            str(r.tier),
            r.delta,
            r.delta_low,
            r.delta_high,
            r.n,
        )
        for r in value.itertuples(index=False)
    ]
    ranked = rewards.value_for_money(value)
    lines = []
    for ai, group in ranked.groupby("ai", sort=True):
        moved = group[group["differs"]]
        clear = moved[moved["clear"]]["name"].tolist()
        lines.append(
            f"Under {group_label(str(ai), str(group['tier'].iloc[0]))}: {len(moved)} of {len(group)} tokens "
            f"measure like another rank than their assumed one"
            + (
                f", clearly: {', '.join(clear[:5])}" + (" and more" if len(clear) > 5 else "")
                if clear
                else ""
            )
            + "."
        )
    return Verdict(
        "Demonic Reward value",
        "Δ win rate of the team holding the token from the start (paired deals)",
        verdict_frame(rows),
        0.0,
        True,
        lines[:2],
        "Each deal is played without rewards and once per token held face down from the start by team A, "
        "with the same seed: Δ win rate is the paired score difference (win 1, draw ½), 95% Student-t "
        "interval over the deals, n = paired deals. Details in the Demonic Rewards section.",
        rows="tokens",
    )


def purchase_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A priced reward experiment (``buy:`` arms): each token's value as a purchase at its price, per
    AI: Δ win rate of team A offered the token on a Demon cell against the same deal without the
    offer (intention to treat, paired deals)."""
    arms = recorded_arms(rs)
    matches = rs.matches
    if not (purchase.is_priced_experiment(matches) if arms is None else arms.priced):
        return None
    bought = purchase.purchase_value(matches, rs.fighters)
    if bought.empty:
        return None
    names = {r.id: r for r in default_registry().all_rewards()}
    rows = [
        ai_row(
            names[str(r.token)].name if str(r.token) in names else str(r.token),
            str(r.ai),
            str(r.tier),
            r.delta,
            r.delta_low,
            r.delta_high,
            r.n_deals,
        )
        for r in bought.itertuples(index=False)
    ]
    worth = bought[bought["verdict"] == "worth its kamas"]
    lines = [
        f"Worth its kamas (Δ's interval above 0) under {group_label(str(ai), str(g['tier'].iloc[0]))}: "
        + (", ".join(sorted(str(t) for t in g["token"])) if len(g) else "none")
        + "."
        for ai, g in worth.groupby("ai", sort=True)
    ]
    return Verdict(
        "Demonic Reward value as a purchase",
        "Δ win rate of the team offered the token at its price (paired deals)",
        verdict_frame(rows),
        0.0,
        True,
        lines[:1],
        "Each deal is played without the offer and once per token offered for sale to team A on a Demon cell at "
        "its price, its AI choosing whether to buy: Δ is the paired score difference (win 1, draw ½, intention to "
        "treat), 95% Student-t interval over the deals, n = paired deals. Details in the Rewards priced as real "
        "play section.",
        rows="tokens",
    )


__all__ = ["purchase_verdict", "reward_verdict"]
