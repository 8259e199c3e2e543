"""The AIs' value of a token to a holder counts spell usage limits (R-A66; issue 18: a once-a-game
spell made one Krosmaster the holder of every AP token)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from krosbalance.ai.rewards import best_holder, damage_per_ap, reward_value
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import SpellSpec

STEADY = SpellSpec(id="steady", name="Steady", kind="attack", element="fire", ap_cost=3, amount=2)
BURST = SpellSpec(id="burst", name="Burst", kind="attack", element="air", ap_cost=1, amount=3, limit="game")


@dataclass(frozen=True)
class Holder:
    spells: tuple[SpellSpec, ...]
    hp: int = 9
    injuries: int = 0
    base_mp: int = 3
    base_ap: int = 6

    def has(self, power: str) -> bool:
        return False


def test_r_a66_a_once_a_game_spell_adds_only_its_spread_surplus_to_an_extra_ap() -> None:
    steady = Holder((STEADY,))
    bursty = Holder((STEADY, BURST))
    unlimited = Holder((STEADY, replace(BURST, limit="unlimited")))
    assert damage_per_ap(steady) == (2 + 0.5) / 3
    assert damage_per_ap(steady) < damage_per_ap(bursty) < damage_per_ap(unlimited)
    assert damage_per_ap(unlimited) == 3.5  # cast as often as the AP allow
    per_turn = Holder((STEADY, replace(BURST, limit="turn")))
    assert damage_per_ap(bursty) < damage_per_ap(per_turn) < damage_per_ap(unlimited)


def test_r_a66_an_ap_token_goes_to_the_steady_attacker_not_the_once_a_game_one() -> None:
    ap_tokens = [
        s
        for s in default_registry().all_rewards()
        if any(e.kind in ("max_ap", "ap_now") for e in s.effects) and not s.choices and s.spell is None
    ]
    assert ap_tokens
    strong = Holder((replace(STEADY, amount=3),))  # 3.5 / 3 per AP, every turn
    bursty = Holder((STEADY, BURST))  # a weaker steady attack and a once-a-game 3 for 1 AP
    for spec in ap_tokens:
        assert reward_value(spec, strong) > reward_value(spec, bursty)
        assert best_holder(spec, [bursty, strong]) == 1
