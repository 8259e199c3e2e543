"""Demonic Reward decisions of the heuristic AIs: buy, give, reveal (issue 10).

The planner decides an activation as usual; before each action it is about to take, :func:`advise`
may put a reward action first:

- **Reveal equipment** at once (it is permanent and its MP/AP are usable this very turn, R-A140);
  the Treechnid Set (-1 MP) waits until the fighter's MP are spent (FAQ R-A165).
- **Reveal an attack bonus right before the attack it improves**: an upgrade or a boost whose damage
  applies to the spell the planner is about to cast (elemental boosts, Sacrier Style if the holder
  survives it, Iop/Sram/Cra Style, Stasis Crystal, elemental upgrades, Likrone Blood for its Critical).
- **Reveal AP gains right before an attack** (Xelor Style, Ghetto Raid, Wakfu Trumpet,
  Masqueraider Style), so the planner replans with the AP and attacks more; Sacrier Style only when
  its +3 turns the attack into a likely KO; healing when it would heal it all or the holder is in
  danger; GG and kamas (Demon's Spirit, Rogue Style, Enutrof Style, Ecaflip Style) at once; a summon
  on the free adjacent cell nearest an enemy.
- **Reveal defences at the end of the activation** (Feca Style, Perfect Lock, elemental upgrades'
  Resistance, Likrone Blood's Armour): they last through the opponent's turn; the Recall Potion when
  the holder ends its turn badly hurt within the enemy's reach; single-use spells on the best target
  with the AP left (Bamboozle on the enemy with the most AP, Lightning on the weakest, Glue on the
  quickest).
- **Buy** on a Demon cell at the end of the activation, before walking off it, or instead of a GG the
  planner wanted, when
  a reward returns more per kama than a GG bought with the same kamas
  (:func:`krosbalance.ai.rewards.kama_rate`), a face-up token valued exactly, a random one at the
  mean of the tokens of its rank this player has not seen; the token goes to the ally it helps most
  (:func:`krosbalance.ai.rewards.best_holder`). With the wild GG gone and the opponent low on GG, a GG
  comes first.

Everything is read through the ``MatchView`` (own tokens, the face-up market, the unseen tokens), so
an AI never learns an opponent's face-down token.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.rewards import (
    GG_VALUE,
    TURNS_LEFT,
    best_holder,
    expected_draw_value,
    kama_rate,
    reward_value,
)
from krosbalance.content.specs import RANKS, RewardSpec, SpellSpec
from krosbalance.engine.legal import CAST, END, MOVE, Action
from krosbalance.rulesets.arena.kinds import BUY_GG, BUY_REWARD, REVEAL_REWARD
from krosbalance.rulesets.arena.rewards import purchase_of, reveal_of
from krosbalance.rulesets.arena.view import ArenaView, arena_view

if TYPE_CHECKING:
    from krosbalance.ai.rewards import HolderFacts
    from krosbalance.engine.view import FighterView, MatchView

#: what each reward keyword is for, in the advisor's timing
NOW_GAINS = frozenset({"ap_now", "mp_now", "gg", "kamas", "draw_reward", "buy_gg"})
ATTACK_BONUSES = frozenset(
    {"next_spell_damage", "next_elemental_attack_damage", "damage", "elemental_damage", "melee_damage"}
)
DEFENCES = frozenset({"resistance", "immune"})
DEFENSIVE_POWERS = frozenset({"armour", "perfect_lock", "dodge", "lock", "counter"})
#: a holder with this many HP left or fewer is "in danger"
DANGER_HP = 3
#: a defensive Upgrade lasts only until its holder's next turn (R-A54): it is revealed at the end of
#: an activation only if an enemy Krosmaster stands within this many cells (3 MP and a typical
#: range of 5), since otherwise nobody can strike the holder before it expires
THREAT_REACH = 8


class Holder(Protocol):
    """A Krosmaster as the advisor reads it (a ``FighterView``)."""

    @property
    def uid(self) -> int: ...

    @property
    def cell(self) -> int: ...

    @property
    def team(self) -> int: ...

    @property
    def mp(self) -> int: ...

    @property
    def ap(self) -> int: ...

    @property
    def hp(self) -> int: ...

    @property
    def injuries(self) -> int: ...

    @property
    def remaining_hp(self) -> int: ...

    @property
    def base_mp(self) -> int: ...

    @property
    def base_ap(self) -> int: ...

    @property
    def spells(self) -> tuple[SpellSpec, ...]: ...

    @property
    def side(self) -> int: ...

    @property
    def is_krosmaster(self) -> bool: ...

    def has(self, power: str) -> bool: ...


def _kinds(spec: RewardSpec) -> set[str]:
    return {e.kind for e in spec.effects} | {e.kind for alt in spec.choices for e in alt}


def improves(spec: RewardSpec, spell: SpellSpec, holder: Holder) -> bool:
    """Whether revealing ``spec`` now adds damage to ``spell`` (an attack about to be cast)."""
    if spell.kind != "attack" or spell.element == "neutral":
        return False
    for effect in spec.effects:
        kind = effect.kind
        if kind in ("next_spell_damage", "damage") and effect.params["element"] == spell.element:
            return True
        if kind in ("elemental_damage", "next_elemental_attack_damage"):
            return kind == "elemental_damage" or survives(spec, holder)
        if kind in ("melee_damage", "melee_lifesteal") and spell.range_type == "melee":
            return True
        if kind == "power" and effect.params["power"] == "critical" and not holder.has("critical"):
            return True
    return False


def gains_action_points(spec: RewardSpec) -> bool:
    """A boost that gives AP now (Xelor Style, Ghetto Raid, Wakfu Trumpet, Masqueraider Style's first
    choice): worth revealing when the holder is about to attack, so the extra AP buy more attacks."""
    return any(e.kind == "ap_now" for e in spec.effects) or any(
        e.kind == "ap_now" for alt in spec.choices for e in alt
    )


def costs_injuries(spec: RewardSpec) -> bool:
    return spec.has_effect("self_injuries")


def finishes(spec: RewardSpec, spell: SpellSpec, target: Holder | None, team: int) -> bool:
    """Whether a boost that costs injuries (Sacrier Style) turns this attack into a likely KO of an
    enemy Krosmaster: the bonus brings the hit (with one Critical) to the target's HP left."""
    if target is None or target.team == team or not target.is_krosmaster:
        return False
    bonus = sum(int(e.params["amount"]) for e in spec.effects if e.kind == "next_elemental_attack_damage")
    hit = spell.amount + 1
    return hit < target.remaining_hp <= hit + bonus


def survives(spec: RewardSpec, holder: Holder) -> bool:
    """Whether the holder survives the token's self-injuries with room to spare (FAQ R-A166)."""
    cost = sum(int(e.params["amount"]) for e in spec.effects if e.kind == "self_injuries")
    return holder.remaining_hp - cost > DANGER_HP


def reveal_now(spec: RewardSpec, holder: Holder, first_decision: bool) -> bool:
    """Whether a face-down token should be revealed at this point of the activation (not tied to a
    particular spell or to the end of the turn)."""
    kinds = _kinds(spec)
    if spec.kind == "equipment":
        return not ("lower_mp" in kinds and holder.mp > 0)
    if kinds & {"gg", "kamas", "draw_reward", "buy_gg"}:
        return True
    if "remove_injuries" in kinds and not kinds & {"ap_now", "mp_now"}:
        amount = max(int(e.params["amount"]) for e in spec.effects if e.kind == "remove_injuries")
        return holder.injuries >= amount or holder.remaining_hp <= DANGER_HP
    return "summon" in kinds and first_decision


def reveal_at_end(spec: RewardSpec, holder: Holder, in_danger: bool, enemy_distance: int = 0) -> bool:
    """Whether a face-down token should be revealed as the activation ends; ``enemy_distance`` is the
    distance from the holder to the nearest enemy Krosmaster.

    A defensive Upgrade leaves the card at the holder's next turn (R-A54), so it is revealed only when
    it can act before then: Perfect Lock (R-A48) when an enemy is in melee contact, held there for its
    whole turn; the other defences when an enemy is within ``THREAT_REACH``."""
    kinds = _kinds(spec)
    powers = {str(e.params["power"]) for e in spec.effects if e.kind == "power"}
    if spec.kind == "upgrade" and powers == {"perfect_lock"} and not kinds - {"power"}:
        return enemy_distance <= 1
    if spec.kind == "upgrade" and (kinds & DEFENCES or powers & DEFENSIVE_POWERS):
        return enemy_distance <= THREAT_REACH
    if "recall" in kinds:
        return in_danger
    if spec.choices:
        return in_danger  # Masqueraider Style: its injuries when the holder is in danger
    if "lower_mp" in kinds:
        return True  # the Treechnid Set, once the MP are spent
    return "remove_injuries" in kinds and in_danger


def choose_alternative(spec: RewardSpec, holder: Holder) -> int:
    """For a "choose one" token: healing when hurt and in danger, else the gain worth most."""
    best, best_value = 0, float("-inf")
    for i, alternative in enumerate(spec.choices):
        value = 0.0
        for effect in alternative:
            amount = float(effect.params.get("amount", 0))
            if effect.kind == "ap_now":
                value += amount
            elif effect.kind == "mp_now":
                value += 0.5 * amount
            elif effect.kind == "remove_injuries":
                heal = min(amount, float(holder.injuries))
                value += heal * (2.0 if holder.remaining_hp <= DANGER_HP + 1 else 0.6)
        if value > best_value:
            best, best_value = i, value
    return best


def purchase_value(
    spec_or_rank: RewardSpec | int,
    holders: Sequence[HolderFacts],
    unseen: Sequence[RewardSpec],
    turns_left: float = TURNS_LEFT,
) -> tuple[float, int]:
    """(value, index of the holder) of buying a face-up token, or a random token of a rank (its value
    the mean over ``unseen``, the tokens of that rank the player has not seen; the holder is then
    chosen when the token is known, so -1)."""
    if isinstance(spec_or_rank, RewardSpec):
        values = [reward_value(spec_or_rank, h, turns_left) for h in holders]
        best = max(values)
        return best, values.index(best)
    return expected_draw_value(unseen, holders, turns_left), -1


def worth_buying(value: float, price: int, gg_price: int, gg_first: bool) -> bool:
    """A reward is bought when it returns more per kama than a GG would, unless a GG comes first."""
    if gg_first:
        return False
    return value / max(1, price) >= kama_rate(gg_price)


def gg_comes_first(wild_gg: int, theirs: int, kamas: int, gg_price: int) -> bool:
    """With the wild GG gone and the opponent down to little GG, kamas go to GG (each one is a step to
    victory, R-A132); so do they when a GG is already affordable and the race is close."""
    if wild_gg == 0 and theirs <= 2:
        return True
    return kamas >= gg_price and wild_gg == 0 and theirs <= 4


def rank_of(index: int) -> str:
    return RANKS[index]


__all__ = [
    "GG_VALUE",
    "advise",
    "choose_alternative",
    "gg_comes_first",
    "improves",
    "purchase_value",
    "rank_of",
    "reveal_at_end",
    "reveal_now",
    "survives",
    "worth_buying",
]


# ------------------------------------------------------------------------------ the advisor


def _capacity(arena: ArenaView, fighter: FighterView) -> int:
    return int(fighter.level) - len(arena.reward_tokens(fighter))


def _nearest_enemy_distance(view: MatchView, cell: int, krosmasters_only: bool = False) -> int:
    distance = view.board.distance[cell]
    return min(
        (
            distance[e.cell]
            for e in view.enemies()
            if e.cell >= 0 and (e.is_krosmaster or not krosmasters_only)
        ),
        default=99,
    )


def _pick(actions: Sequence[Action], key: Callable[[Action], float]) -> Action:
    """The action with the highest key (the first on a tie)."""
    best = actions[0]
    best_key = key(best)
    for action in actions[1:]:
        k = key(action)
        if k > best_key:
            best, best_key = action, k
    return best


def _reveal_choice(view: MatchView, me: FighterView, spec: RewardSpec, options: list[Action]) -> Action:
    """Which of a token's legal reveals (choices, targets) to make."""
    kinds = _kinds(spec)
    if spec.choices:
        wanted = choose_alternative(spec, me)
        options = [a for a in options if reveal_of(a).choice == wanted] or options
    if "buy_gg" in kinds:
        return _pick(options, lambda a: float(reveal_of(a).choice))
    if "summon" in kinds:  # the free adjacent cell nearest an enemy
        return _pick(options, lambda a: -float(_nearest_enemy_distance(view, reveal_of(a).target)))
    if "recall" in kinds:  # the deployment cell farthest from the enemies
        return _pick(options, lambda a: float(_nearest_enemy_distance(view, reveal_of(a).target)))
    return options[0]


def _spell_target_value(view: MatchView, spec: RewardSpec, action: Action) -> float:
    """How good a single-use spell's target is (negative: not worth casting there)."""
    target = view.piece_at(reveal_of(action).target)
    spell = spec.spell
    if spell is None:
        return -1.0
    if spell.kind == "attack":
        if target is None or target.team == view.team:
            return -1.0
        return 10.0 - float(target.remaining_hp) + (5.0 if target.is_krosmaster else 0.0)
    if any(e.kind == "carry_ally" for e in spell.effects):
        return float(_nearest_enemy_distance(view, reveal_of(action).target)) - 2.0
    if target is None or target.team == view.team or not target.is_krosmaster:
        return -1.0
    if any(e.kind == "minus_ap" for e in spell.effects):
        return float(target.base_ap)
    return float(target.base_mp)


def _best_purchase(view: MatchView, me: FighterView, buys: list[Action]) -> Action | None:
    """The purchase returning most over what a GG would for its kamas, if any beats it."""
    side = view.side
    arena = arena_view(view)
    holders = [k for k in view.krosmasters(side) if k.alive and k.cell >= 0 and _capacity(arena, k) > 0]
    if not holders:
        return None
    prices = arena.reward_prices()
    face_up = arena.market_face_up()
    gg = arena.gg
    theirs = max(gg[seat] for seat in view.opponents())
    gg_first = gg_comes_first(arena.wild_gg, theirs, arena.kamas[side], arena.gg_price)
    rate = kama_rate(arena.gg_price)
    # only what is for sale (the purchase arms offer one face-up token and no random draw)
    offered = {(purchase_of(a).visible, purchase_of(a).rank) for a in buys}
    best: tuple[float, int, int] | None = None  # (surplus, visible, rank)
    for visible, spec in enumerate(face_up):
        if (visible, RANKS.index(spec.rank)) not in offered:
            continue
        price = prices[RANKS.index(spec.rank)]
        value, _ = purchase_value(spec, holders, ())
        if worth_buying(value, price, arena.gg_price, gg_first) and (
            best is None or value - rate * price > best[0]
        ):
            best = (value - rate * price, visible, RANKS.index(spec.rank))
    for rank in range(len(RANKS)):
        if not arena.face_down_left(rank) or (-1, rank) not in offered:
            continue
        value, _ = purchase_value(rank, holders, arena.unseen_rewards(rank))
        price = prices[rank]
        if worth_buying(value, price, arena.gg_price, gg_first) and (
            best is None or value - rate * price > best[0]
        ):
            best = (value - rate * price, -1, rank)
    if best is None:
        return None
    _, visible, rank = best
    if visible >= 0:
        spec = face_up[visible]
        holder_uid = holders[best_holder(spec, holders)].uid
    else:
        unseen = arena.unseen_rewards(rank)
        means = [plain_sum(reward_value(s, h) for s in unseen) / max(1, len(unseen)) for h in holders]
        holder_uid = holders[means.index(max(means))].uid
    for action in buys:
        purchase = purchase_of(action)
        if (purchase.visible, purchase.rank, purchase.holder) == (visible, rank, holder_uid):
            return action
    return None


def advise(view: MatchView, me: FighterView, proposed: Action, first_decision: bool) -> Action | None:
    """A Demonic Reward action to take before ``proposed`` (the planner's next action), or None."""
    if not me.is_krosmaster:
        return None
    arena = arena_view(view)
    if not arena.rewards_in_play:
        return None
    legal = [a for a in view.legal_actions() if a.kind == REVEAL_REWARD or a.kind == BUY_REWARD]
    if not legal:
        return None
    tokens = arena.reward_tokens(me)
    by_token: dict[int, list[Action]] = {}
    for action in legal:
        if action.kind == REVEAL_REWARD:
            by_token.setdefault(reveal_of(action).token, []).append(action)
    single_use = {i for i, t in enumerate(tokens) if t is not None and t.has_effect("one_shot_spell")}
    if proposed.kind == CAST:
        spell = me.spells[proposed.spell]
        target = view.piece_at(proposed.target)
        for index, options in by_token.items():
            spec = tokens[index]
            if spec is None or index in single_use:
                continue
            if spell.kind == "attack" and gains_action_points(spec):
                return _reveal_choice(view, me, spec, options)  # replanned with the AP: more attacks
            if improves(spec, spell, me) and (
                not costs_injuries(spec) or finishes(spec, spell, target, view.team)
            ):
                return _reveal_choice(view, me, spec, options)
    for index, options in by_token.items():
        spec = tokens[index]
        if spec is not None and index not in single_use and reveal_now(spec, me, first_decision):
            return _reveal_choice(view, me, spec, options)
    buys = [a for a in legal if a.kind == BUY_REWARD]
    if proposed.kind == BUY_GG and buys:
        return _best_purchase(view, me, buys)
    if proposed.kind == MOVE and buys and not (view.board.demon_cells >> proposed.target) & 1:
        return _best_purchase(view, me, buys)  # about to walk off the Demon cell: buy first
    if proposed.kind != END:
        return None
    in_danger = me.remaining_hp <= DANGER_HP and _nearest_enemy_distance(view, me.cell) <= 4
    enemy_distance = _nearest_enemy_distance(view, me.cell, krosmasters_only=True)
    for index, options in by_token.items():
        spec = tokens[index]
        if spec is None:
            continue
        if index in single_use:
            values = [_spell_target_value(view, spec, a) for a in options]
            top = max(values)
            if top >= 0:
                return options[values.index(top)]
        elif reveal_at_end(spec, me, in_danger, enemy_distance):
            return _reveal_choice(view, me, spec, options)
    return _best_purchase(view, me, buys) if buys else None
