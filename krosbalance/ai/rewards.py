"""How the AIs value Demonic Rewards: what a token is worth to one Krosmaster, in injury equivalents.

One unit is one injury dealt to an enemy (or kept off an ally). A Krosmaster of level 3 falls to
about ten injuries and gives 3 GG, so one GG is worth :data:`GG_VALUE` units, and a GG bought for 10
kamas sets the going rate of a kama (:func:`kama_rate`). A reward is worth buying when it returns
more per kama than that rate (:mod:`krosbalance.ai.economy` makes the decisions from these values).

The value of a token to a holder reads the holder's card as the AIs see it (``HolderFacts``: its
spells, HP, injuries, characteristics and powers), so the same token is worth more to the Krosmaster
it helps most: +1 Fire damage to a Krosmaster with no Fire attack is worth nothing, Healing only to a
healer, +AP most to the one whose AP buy the most damage. Permanent effects count for the holder's
expected remaining turns (:data:`TURNS_LEFT`), upgrades for one turn, boosts once. Every number here
is a tuning weight of the AI, not a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.content.specs import EffectSpec, RewardSpec, SpellSpec

#: one GG in injury equivalents: a level-3 Krosmaster (3 GG) takes about 10 injuries
GG_VALUE = 3.3
#: expected own turns left to the holder of a permanent token
TURNS_LEFT = 4.0
#: chance that an attack the holder plans this turn actually finds a target in reach
HIT_CHANCE = 0.7
#: expected injuries a Krosmaster in the fight takes from elemental attacks in one enemy turn
ENEMY_ELEMENTAL_DAMAGE = 2.0
#: expected enemy attacks on the holder per enemy turn (Armour, Counter, Resistance act on each)
ATTACKS_RECEIVED = 1.2
#: expected value of a random gold token to an average holder (Ecaflip Style draws one)
GOLD_DRAW_VALUE = 5.0
#: the value of a creature token on the board (it blocks, and hits about once a turn for two turns)
SUMMON_VALUE = 2.5
#: expected damage per AP of the enemy's spells (what -AP markers take away)
ENEMY_DAMAGE_PER_AP = 0.35
#: share of the holder's turns in which a melee spell finds an enemy adjacent
MELEE_REACH = 0.6
#: share of the holder's heal casts that find an injured ally
HEAL_NEEDED = 0.5


class HolderFacts(Protocol):
    """What the valuation reads of a Krosmaster (a ``FighterView`` has all of it)."""

    @property
    def spells(self) -> tuple[SpellSpec, ...]: ...

    @property
    def hp(self) -> int: ...

    @property
    def injuries(self) -> int: ...

    @property
    def base_mp(self) -> int: ...

    @property
    def base_ap(self) -> int: ...

    def has(self, power: str) -> bool: ...


def kama_rate(gg_price: int) -> float:
    """Injury equivalents a kama buys through GG: the bar a reward's price must clear."""
    return GG_VALUE / max(1, gg_price)


def _attacks(holder: HolderFacts) -> list[SpellSpec]:
    return [s for s in holder.spells if s.kind == "attack" and s.id != "punch"]


SpellSpecFilter = Callable[[SpellSpec], bool]


def damage_per_ap(holder: HolderFacts) -> float:
    """What one more AP is worth to the holder in expected damage (printed damage, +½ for the
    Critical chance): the best rate of an attack it may cast as often as it has the AP (R-A66: black,
    unlimited). A spell limited to once a turn or once a game (blue, red) is already paid for by the
    holder's own AP, so an extra AP does not cast it again; it counts only for its surplus over that
    rate, for the share of a turn's AP it takes, and once a game spread over :data:`TURNS_LEFT`
    turns. Without this, Kassius Kaos's once-a-game Puff (3 damage for 1 AP) made him the holder of
    every AP token (issue 18)."""
    repeatable = 1.5 / 5  # the punch
    for spell in _attacks(holder):
        if spell.ap_cost > 0 and spell.limit == "unlimited":
            repeatable = max(repeatable, (spell.amount + 0.5) / spell.ap_cost)
    best = repeatable
    for spell in _attacks(holder):
        if spell.ap_cost > 0 and spell.limit != "unlimited":
            surplus = (spell.amount + 0.5) / spell.ap_cost - repeatable
            share = min(1.0, spell.ap_cost / max(1, holder.base_ap))
            per_turn = 1.0 if spell.limit == "turn" else 1.0 / TURNS_LEFT
            best = max(best, repeatable + surplus * share * per_turn)
    return best


def casts_per_turn(holder: HolderFacts, match: SpellSpecFilter) -> float:
    """How many times a turn the holder casts its most castable attack that ``match`` accepts."""
    best = 0.0
    for spell in _attacks(holder):
        if match(spell) and spell.ap_cost > 0:
            per_turn = float(holder.base_ap // spell.ap_cost)
            if spell.limit == "turn":
                per_turn = min(per_turn, 1.0)
            elif spell.limit == "game":
                per_turn = min(per_turn, 1.0) / TURNS_LEFT
            best = max(best, per_turn)
    return best


def _element_is(element: str) -> SpellSpecFilter:
    return lambda spell: spell.element == element


def _elemental(spell: SpellSpec) -> bool:
    return spell.element != "neutral"


def _melee_elemental(spell: SpellSpec) -> bool:
    return spell.element != "neutral" and spell.range_type == "melee"


def _extendable(spell: SpellSpec) -> bool:
    return not spell.fixed_range and spell.needs_los and spell.range_type in ("classic", "line")


def _power_per_turn(holder: HolderFacts, power: str) -> float:
    """What owning a power is worth per turn (nothing if the holder has it already, R-A100)."""
    if holder.has(power):
        return 0.0
    if power == "critical":
        return 0.5 * casts_per_turn(holder, _elemental) * HIT_CHANCE
    if power == "armour":
        return (2 / 3 - 1 / 3) * ATTACKS_RECEIVED
    if power == "counter":
        return 0.8 * ATTACKS_RECEIVED
    if power == "healing":
        heals = [s for s in holder.spells if s.kind == "heal" and s.ap_cost > 0]
        return max((holder.base_ap // s.ap_cost for s in heals), default=0) * HEAL_NEEDED
    if power in ("dodge", "lock"):
        return 0.15
    if power == "perfect_lock":
        return 0.6
    return 0.0


def effect_value(effect: EffectSpec, holder: HolderFacts, turns: float) -> float:
    """Injury equivalents of one effect for ``turns`` turns of the holder (1 for an upgrade)."""
    kind = effect.kind
    p = effect.params
    amount = float(p["amount"]) if "amount" in p else 0.0
    if kind == "ap_now":
        return amount * damage_per_ap(holder) * HIT_CHANCE
    if kind == "mp_now":
        return 0.25 * amount
    if kind == "remove_injuries":
        return 0.8 * min(amount, max(holder.injuries, amount / 2))
    if kind == "self_injuries":
        return -0.5 * amount if holder.hp - holder.injuries > amount else -100.0
    if kind == "kamas":
        return amount * kama_rate(10)
    if kind == "gg":
        return amount * GG_VALUE
    if kind == "buy_gg":
        return GG_VALUE - float(p["kamas"]) * kama_rate(10)
    if kind == "next_spell_damage":
        return amount * min(1.0, casts_per_turn(holder, _element_is(str(p["element"])))) * HIT_CHANCE
    if kind == "next_elemental_attack_damage":
        return amount * min(1.0, casts_per_turn(holder, _elemental)) * HIT_CHANCE
    if kind == "summon":
        return SUMMON_VALUE
    if kind == "recall":
        return 1.0
    if kind == "draw_reward":
        return 0.5 * GOLD_DRAW_VALUE
    if kind in ("max_ap",):
        return amount * damage_per_ap(holder) * HIT_CHANCE * turns
    if kind == "max_mp":
        return 0.25 * amount * turns
    if kind == "lower_mp":
        return -0.3 * amount * turns
    if kind == "max_hp":
        return 0.4 * amount
    if kind == "power":
        return _power_per_turn(holder, str(p["power"])) * turns
    if kind == "resistance":
        return 0.3 * ATTACKS_RECEIVED * turns
    if kind == "immune":
        return ENEMY_ELEMENTAL_DAMAGE / 4 * turns
    if kind == "range":
        return 0.25 * amount * any(_extendable(s) for s in _attacks(holder)) * turns
    if kind == "damage":
        return amount * casts_per_turn(holder, _element_is(str(p["element"]))) * HIT_CHANCE * turns
    if kind == "elemental_damage":
        return amount * casts_per_turn(holder, _elemental) * HIT_CHANCE * turns
    if kind == "melee_damage":
        return amount * casts_per_turn(holder, _melee_elemental) * HIT_CHANCE * turns
    if kind == "melee_lifesteal":
        return 1.0 * casts_per_turn(holder, _melee_elemental) * HIT_CHANCE * turns
    return 0.0


def spell_value(spell: SpellSpec, holder: HolderFacts, turns: float) -> float:
    """A weapon's spell (for ``turns`` turns) or a single-use spell (once): what it adds over the
    holder's own spells."""
    if spell.kind == "heal":
        per_cast = spell.amount * 0.8
        per_turn = (holder.base_ap // max(1, spell.ap_cost)) * per_cast * HEAL_NEEDED
        return per_turn * turns if turns > 1 else per_cast
    if spell.kind == "attack":
        area = 1.3 if spell.area != "single" else 1.0
        per_ap = (spell.amount + (0.5 if spell.element != "neutral" else 0.25)) * area / max(1, spell.ap_cost)
        if turns <= 1:  # a single cast
            return (spell.amount + 0.25) * area * HIT_CHANCE
        reach = MELEE_REACH if spell.range_type == "melee" else 1.0
        gain = max(0.0, per_ap * reach - damage_per_ap(holder)) * holder.base_ap + 0.3  # + an option
        return gain * HIT_CHANCE * turns
    # special single-use spells: Glue (-2 MP), Bamboozle (-3 AP), Pandawa Style (move an ally)
    value = 0.0
    for effect in spell.effects:
        if effect.kind == "minus_ap":
            value += float(effect.params["amount"]) * ENEMY_DAMAGE_PER_AP
        elif effect.kind == "minus_mp":
            value += 0.3 * float(effect.params["amount"])
        elif effect.kind == "carry_ally":
            value += 0.6
    return value


def reward_value(spec: RewardSpec, holder: HolderFacts, turns_left: float = TURNS_LEFT) -> float:
    """What a token is worth to this holder over its life, in injury equivalents. A "choose one"
    token is worth its best alternative."""
    turns = turns_left if spec.kind == "equipment" else 1.0
    value = plain_sum(effect_value(e, holder, turns) for e in spec.effects)
    if spec.choices:
        value += max(plain_sum(effect_value(e, holder, turns) for e in alt) for alt in spec.choices)
    if spec.spell is not None:
        value += spell_value(spec.spell, holder, turns if spec.kind == "equipment" else 1.0)
    return value


def best_holder(spec: RewardSpec, holders: Sequence[HolderFacts], turns_left: float = TURNS_LEFT) -> int:
    """The index of the holder the token helps most (the first on a tie)."""
    values = [reward_value(spec, h, turns_left) for h in holders]
    return values.index(max(values))


def expected_draw_value(
    candidates: Sequence[RewardSpec], holders: Sequence[HolderFacts], turns_left: float = TURNS_LEFT
) -> float:
    """The expected value of a random face-down token drawn from ``candidates`` (the tokens of that
    rank the player has not seen: neither face up, nor revealed, nor his own), given to whichever of
    ``holders`` it helps most."""
    if not candidates or not holders:
        return 0.0
    total = plain_sum(max(reward_value(spec, h, turns_left) for h in holders) for spec in candidates)
    return total / len(candidates)
