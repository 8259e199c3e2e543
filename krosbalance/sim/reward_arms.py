"""The reward study's arms priced as real play (issue 18): per-holder arms and purchase arms.

An experiment's reward variants of one deal are the baseline '' (no token, no market: GG only) and:

- ``held_rewards`` with ``reward_holders = "ai"`` (the default): ``"TOKEN"``, team A holds the token
  face down from the start and its AI picks the holder (option ``start_rewards``);
- ``reward_holders = "each"``: ``"TOKEN@CHARACTER"`` for every Krosmaster of team A, the study
  naming the holder (options ``start_rewards`` + ``start_reward_holders``); ``"each_and_ai"`` plays
  the AI's own pick beside them. The teams must be known before play (not a random deal or draft);
- ``purchase_rewards = "all"`` or a list of ids: ``"buy:TOKEN"``, team A may buy the token face up
  on a Demon cell at its price (R-A51, R-A136; option ``purchasable_rewards``) and its AI decides
  whether, when and where — or spends the kamas on GG as in the baseline.

Every variant of a deal is played on the deal's seed, so each is paired with the baseline.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance.sim.file_problems import unknown_name
from krosbalance.sim.sweep import held_price

HOLDER_MODES: tuple[str, ...] = ("ai", "each", "each_and_ai")
BUY_PREFIX = "buy:"
HOLDER_SEPARATOR = "@"
"""Between a token and its named holder; after it a number (``@5``, ``@1gg``) is a price instead
(the fair-price sweep's held entries, :func:`krosbalance.sim.sweep.held_price`)."""


def _names_a_holder(variant: str) -> bool:
    return HOLDER_SEPARATOR in variant and held_price(variant)[1] is None


def parse_holders(data: Mapping[str, Any], dealt: bool, held: Sequence[str], add: Any) -> str:
    """``reward_holders``: one of :data:`HOLDER_MODES` (``add(field, reason)`` records a problem)."""
    value = data.get("reward_holders", "ai")
    if value not in HOLDER_MODES:
        add("reward_holders", f"must be one of {', '.join(HOLDER_MODES)}, not {value!r}")
        return "ai"
    if value != "ai" and not held:
        add("reward_holders", "needs held_rewards (the tokens whose holders are tried)")
        return "ai"
    if value != "ai" and dealt:
        add(
            "reward_holders",
            f"{value!r} needs teams known before play (round_robin, pairs, list...), not a random deal or draft",
        )
        return "ai"
    return str(value)


def parse_purchases(data: Mapping[str, Any], known: Sequence[str] | None, add: Any) -> tuple[str, ...]:
    """``purchase_rewards``: "all" or a list of Demonic Reward ids."""
    value = data.get("purchase_rewards", [])
    if value == [] or known is None:
        return ()
    if isinstance(value, str):
        if value != "all":
            add("purchase_rewards", f'must be "all" or a list of reward ids, not {value!r}')
            return ()
        return tuple(known)
    if not isinstance(value, list):
        add("purchase_rewards", f'must be "all" or a list of reward ids, not {value!r}')
        return ()
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or item not in known:
            add(f"purchase_rewards[{i}]", unknown_name("reward", item, known, "krosbalance list rewards"))
        elif item in out:
            add(f"purchase_rewards[{i}]", f"{item!r} is listed twice")
        else:
            out.append(item)
    return tuple(out)


def reward_variants(
    held: Sequence[str], holders: str, purchases: Sequence[str], team_a: Sequence[str]
) -> tuple[str, ...]:
    """The reward variants of a deal whose team A is ``team_a`` (character ids), baseline first."""
    out: list[str] = [""]
    krosmasters = list(dict.fromkeys(team_a))  # each character once, in team order
    for token in held:
        if holders in ("ai", "each_and_ai"):
            out.append(token)
        if holders in ("each", "each_and_ai"):
            out.extend(f"{token}{HOLDER_SEPARATOR}{who}" for who in krosmasters)
    out.extend(f"{BUY_PREFIX}{token}" for token in purchases)
    return tuple(out) if len(out) > 1 else ("",)


def variant_options(options: Mapping[str, Any], variant: str, swapped: bool) -> str:
    """The options JSON of one match of a reward variant, team A being side 1 when ``swapped``."""
    merged = dict(options)

    def sided(value: str) -> list[list[str]]:
        return [[], [value]] if swapped else [[value], []]

    if variant.startswith(BUY_PREFIX):
        merged["purchasable_rewards"] = sided(variant[len(BUY_PREFIX) :])
    elif _names_a_holder(variant):
        token, holder = variant.split(HOLDER_SEPARATOR, 1)
        merged["start_rewards"] = sided(token)
        merged["start_reward_holders"] = sided(holder)
    elif variant:
        merged["start_rewards"] = sided(variant)
    return json.dumps(merged, sort_keys=True, separators=(",", ":"))


def parse_variant(variant: str) -> tuple[str, str, str]:
    """(arm kind, token, holder) of a reward variant: kind '' (baseline), 'held' (holder '' = the
    AI's pick), 'holder' or 'buy'."""
    if not variant:
        return "", "", ""
    if variant.startswith(BUY_PREFIX):
        return "buy", variant[len(BUY_PREFIX) :], ""
    if _names_a_holder(variant):
        token, holder = variant.split(HOLDER_SEPARATOR, 1)
        return "holder", token, holder
    return "held", variant, ""
