"""What revealing a Demonic Reward does: the reward effect registry, reveals, and the continuous
effects of face-up tokens (R-A54, R-A136-R-A145, FAQ R-A160-R-A166).

A token is data (``RewardSpec``); each of its effects is a keyword looked up in ``REWARD_EFFECTS``,
one small registered function per keyword, exactly as spell effects and powers are. The keyword
vocabulary is ``content.keywords.REWARD_KEYWORDS`` and a test checks that both name the same words.

- A **Boost** acts once, when it is revealed (its *instant* keywords), and goes back to the box.
- An **Upgrade** stays face up until the start of its holder's next turn (R-A54, R-A32 b).
- An **Equipment** is permanent (R-A140); a Krosmaster has at most one face-up equipment of each
  kind (R-A141). Characteristics change at once: +AP/+MP are usable in the very turn, +HP raises
  max HP, and -MP removes MP still available this turn if any (R-A142, FAQ R-A165).

Continuous effects (of face-up Upgrades and Equipment) are recomputed from the face-up tokens by
:func:`refresh` whenever a token turns up or leaves, so nothing is counted twice: powers a card or
another token already gives add nothing (R-A100, R-A160). The combat code reads the result through
the ruleset's ``spell_bonus`` hook (``tokens.spell_bonus``) and ``Fighter.max_range_bonus`` (max
range). Healing from a token removes injury markers directly: it is not a healing spell, so there is
no Critical roll and no Healing bonus.

Who may buy, give and reveal, and when, is :mod:`krosbalance.rulesets.arena.rewards`, which also
registers here the effects that touch Arena's holdings (``kamas``, ``gg``, ``buy_gg``,
``draw_reward``); this module carries a reveal out once its legality is known.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import ELEMENTS, EffectSpec, Frozen, RewardSpec
from krosbalance.engine.combat import cast, knock_out, trigger_trap
from krosbalance.engine.events import FULL, SUMMARY, Healed, Moved, Summoned
from krosbalance.engine.pieces import place, relocate, spawn
from krosbalance.engine.state import ELEMENT_INDEX, Fighter, MatchState
from krosbalance.rulesets.arena.events import RewardRevealed
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.tokens import HeldToken, RewardMods, card

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec


# ------------------------------------------------------------------------------ the registry


@dataclass(frozen=True, slots=True)
class RewardUse(Frozen):
    """One reveal being resolved: the holder, the token, the player's choice and target cell."""

    state: MatchState
    holder: Fighter
    token: RewardSpec
    choice: int
    target: int
    boost_waits: bool = False  # an elemental boost waits for a spell of its element (an option)


#: An instant effect: (use, **params). A continuous one: (holder, mods, **params) while face up.
InstantFn = Callable[..., None]
ContinuousFn = Callable[..., None]


@dataclass(frozen=True, slots=True)
class RewardRule(Frozen):
    kind: str
    rule: str
    instant: InstantFn | None = None  # Boosts: applied once when revealed
    continuous: ContinuousFn | None = None  # Upgrades, Equipment: folded into the holder's mods
    on_reveal: ContinuousFn | None = None  # Equipment/Upgrade: a one-time change when it turns up
    powers: Callable[[dict[str, Any]], tuple[str, ...]] | None = None  # powers it gives


REWARD_EFFECTS: dict[str, RewardRule] = {}


def register(rule: RewardRule) -> RewardRule:
    REWARD_EFFECTS[rule.kind] = rule
    return rule


# --- instant effects (Boosts) ---------------------------------------------------------------


def _mp_now(use: RewardUse, amount: int) -> None:
    use.holder.mp += amount


def _ap_now(use: RewardUse, amount: int) -> None:
    use.holder.ap += amount


def remove_injuries(state: MatchState, holder: Fighter, amount: int) -> int:
    """Take up to ``amount`` injury markers off: not a heal spell (no Critical, no Healing)."""
    removed = min(amount, holder.injuries)
    if removed <= 0:
        return 0
    holder.injuries -= removed
    holder.stats.heals_received += removed
    if state.record >= FULL:
        state.events.append(Healed(state.turn, holder.uid, holder.uid, removed))
    return removed


def _remove_injuries(use: RewardUse, amount: int) -> None:
    remove_injuries(use.state, use.holder, amount)


def _self_injuries(use: RewardUse, amount: int) -> None:
    """R-A166: the markers go on even if they KO the holder (it then never casts the boosted spell)."""

    holder = use.holder
    holder.injuries = min(holder.hp, holder.injuries + amount)
    if holder.injuries >= holder.hp:
        knock_out(use.state, holder, holder)


def _mods(holder: Fighter) -> RewardMods:
    held = card(holder)
    if held.mods is None:
        held.mods = RewardMods()
    return held.mods


def _next_spell_damage(use: RewardUse, element: str, amount: int) -> None:
    _mods(use.holder).next_spell.append((ELEMENT_INDEX[element], amount, use.boost_waits))


def _next_elemental_attack_damage(use: RewardUse, amount: int) -> None:
    _mods(use.holder).next_elemental += amount


def _summon(use: RewardUse, summon: str) -> None:
    """R-A144: a creature on a free adjacent cell (the reveal's target), acting right after the
    Krosmaster, in this game turn too (R-A31). It is not a summon spell: no summon control."""
    state = use.state
    if use.target < 0:
        return
    spec = state.summon_specs[summon]
    token = spawn(state, spec, use.holder.side, use.holder, use.token.id)
    place(state, token, use.target)
    token.placed_turn = state.turn
    use.holder.summons.append(token)
    if state.record >= FULL:
        state.events.append(Summoned(state.turn, use.holder.uid, token.uid, spec.id, use.target))


def _recall(use: RewardUse) -> None:
    """Recall Potion: onto a free deployment cell of the team (the target); no Lock (R-A41). A trap
    there springs, as at the end of any special movement (R-A171)."""
    state = use.state
    holder = use.holder
    if use.target < 0:
        return
    origin = holder.cell
    relocate(state, holder, use.target)
    if state.record >= FULL:
        state.events.append(Moved(state.turn, holder.uid, origin, holder.cell, "recall"))
    if holder.cell in state.traps:
        trigger_trap(state, holder.cell)


def _one_shot_spell(use: RewardUse) -> None:
    """The token's single-use spell is cast now on the target, paying its costs (R-A143). For a spell
    that needs a second cell (Pandawa Style's ally), ``choice`` is the index of the caster's
    neighbour cell holding it."""

    spell = use.token.spell
    assert spell is not None  # the loader guarantees it
    neighbours = use.state.board.neighbours[use.holder.cell]
    second = neighbours[use.choice] if 0 <= use.choice < len(neighbours) else -1
    cast(use.state, use.holder, spell, use.target, second)


register(RewardRule("mp_now", "R-A140", instant=_mp_now))
register(RewardRule("ap_now", "R-A140", instant=_ap_now))
register(RewardRule("remove_injuries", "R-A54", instant=_remove_injuries))
register(RewardRule("self_injuries", "R-A166", instant=_self_injuries))
register(RewardRule("next_spell_damage", "R-A54", instant=_next_spell_damage))
register(RewardRule("next_elemental_attack_damage", "R-A54", instant=_next_elemental_attack_damage))
register(RewardRule("summon", "R-A144", instant=_summon))
register(RewardRule("recall", "R-A41", instant=_recall))
register(RewardRule("one_shot_spell", "R-A143", instant=_one_shot_spell))


# --- continuous effects (Upgrades, Equipment) --------------------------------------------------


def _max_mp(holder: Fighter, amount: int) -> None:
    holder.base_mp += amount
    if holder.acting:  # R-A140: usable in the very turn
        holder.mp += amount


def _max_ap(holder: Fighter, amount: int) -> None:
    holder.base_ap += amount
    if holder.acting:
        holder.ap += amount


def _max_hp(holder: Fighter, amount: int) -> None:
    holder.hp += amount  # R-A140: max HP rises; the injuries already placed stay


def _lower_mp(holder: Fighter, amount: int) -> None:
    """R-A142, FAQ R-A165: the characteristic drops; MP still available this turn are lost first,
    and with none left nothing more is lost now."""
    holder.base_mp = max(0, holder.base_mp - amount)
    if holder.acting:
        holder.mp = max(0, holder.mp - amount)


def _damage(holder: Fighter, mods: RewardMods, element: str, amount: int) -> None:
    mods.damage[ELEMENT_INDEX[element]] += amount


def _elemental_damage(holder: Fighter, mods: RewardMods, amount: int) -> None:
    for index in range(1, len(ELEMENTS)):
        mods.damage[index] += amount


def _melee_damage(holder: Fighter, mods: RewardMods, amount: int) -> None:
    mods.melee += amount


def _melee_lifesteal(holder: Fighter, mods: RewardMods) -> None:
    mods.melee_lifesteal = True


def _range(holder: Fighter, mods: RewardMods, amount: int) -> None:
    holder.max_range_bonus += amount


def _nothing(holder: Fighter, mods: RewardMods, **params: Any) -> None:
    """Effects whose whole work is elsewhere (powers, the weapon's spell)."""


register(RewardRule("max_mp", "R-A140", on_reveal=_max_mp))
register(RewardRule("max_ap", "R-A140", on_reveal=_max_ap))
register(RewardRule("max_hp", "R-A140", on_reveal=_max_hp))
register(RewardRule("lower_mp", "R-A142", on_reveal=_lower_mp))
register(RewardRule("power", "R-A160", continuous=_nothing, powers=lambda p: (str(p["power"]),)))
register(
    RewardRule("resistance", "R-A102", continuous=_nothing, powers=lambda p: (f"resistance:{p['element']}",))
)
register(RewardRule("immune", "R-A107", continuous=_nothing, powers=lambda p: (f"immune:{p['element']}",)))
register(RewardRule("range", "R-A145", continuous=_range))
register(RewardRule("damage", "R-A145", continuous=_damage))
register(RewardRule("elemental_damage", "R-A145", continuous=_elemental_damage))
register(RewardRule("melee_damage", "R-A145", continuous=_melee_damage))
register(RewardRule("melee_lifesteal", "R-A145", continuous=_melee_lifesteal))
register(RewardRule("weapon", "R-A143", continuous=_nothing))


# ------------------------------------------------------------------------ holding and reveal


# ------------------------------------------------------------------------ reveal


def effects_of(spec: RewardSpec, choice: int) -> tuple[EffectSpec, ...]:
    """The effects a reveal applies: the token's own, plus the chosen alternative if it offers one."""
    if spec.choices:
        return spec.effects + spec.choices[choice]
    return spec.effects


def reveal(
    state: MatchState,
    holder: Fighter,
    index: int,
    choice: int = 0,
    target: int = -1,
    boost_waits: bool = False,
) -> RewardSpec | None:
    """Turn the holder's token ``index`` face up and apply it at once (R-A54). The caller checked the
    reveal's legality (the ruleset's). A Boost leaves the card first, so a token it draws finds the
    slot free, and is returned for the box; Upgrades and Equipment join the face-up tokens (None)."""
    held = card(holder)
    token = held.tokens[index]
    spec = token.spec
    counts = arena_stats(holder)
    counts.rewards_revealed += 1
    counts.rewards_used.append(spec.id)
    counts.rewards_used_turns.append(state.turn)
    if state.record >= SUMMARY:
        state.events.append(RewardRevealed(state.turn, holder.uid, spec.id, spec.kind))
    if spec.kind == "boost":
        del held.tokens[index]
        for effect in effects_of(spec, choice):
            fn = REWARD_EFFECTS[effect.kind].instant
            if fn is not None:
                fn(RewardUse(state, holder, spec, choice, target, boost_waits), **effect.params)
        return spec
    token.face_up = True
    for effect in spec.effects:
        fn = REWARD_EFFECTS[effect.kind].on_reveal
        if fn is not None:
            fn(holder, **effect.params)
        if effect.kind == "weapon" and spec.spell is not None:
            add_spell(holder, spec.spell)
    refresh(state, holder)
    return None


def add_spell(holder: Fighter, spell: SpellSpec) -> None:
    """A weapon's spell becomes the holder's (R-A143), listed before the Punch."""
    spells = list(holder.spells)
    position = len(spells) - 1 if spells and spells[-1].id == "punch" else len(spells)
    spells.insert(position, spell)
    holder.spells = tuple(spells)


def refresh(state: MatchState, holder: Fighter) -> None:
    """Recompute what the face-up tokens give: powers (never twice, R-A100), Resistance and Immune
    elements, damage and range bonuses. Boosts waiting for the next spell are kept."""
    barred = holder.forbidden_powers  # restricted play: card powers that do not act for it
    card_powers = (
        tuple(p for p in holder.spec.powers if p.kind not in barred) if barred else holder.spec.powers
    )
    powers = {p.kind for p in card_powers if p.kind not in ("resistance", "immune")}
    resist = {str(p.params["element"]) for p in card_powers if p.kind == "resistance"}
    immune = {str(p.params["element"]) for p in card_powers if p.kind == "immune"}
    held = card(holder)
    old = held.mods
    mods = RewardMods()
    if old is not None:
        mods.next_spell = old.next_spell
        mods.next_elemental = old.next_elemental
    holder.max_range_bonus = 0
    for token in held.tokens:
        if not token.face_up:
            continue
        for effect in token.spec.effects:
            rule = REWARD_EFFECTS[effect.kind]
            if rule.continuous is not None:
                rule.continuous(holder, mods, **effect.params)
            if rule.powers is not None:
                for power in rule.powers(effect.params):
                    kind, _, element = power.partition(":")
                    if kind == "resistance":
                        resist.add(element)
                    elif kind == "immune":
                        immune.add(element)
                    else:
                        powers.add(kind)
    holder.powers = powers
    holder.resist = frozenset(resist)
    holder.immune = frozenset(immune)
    held.mods = None if mods.empty else mods
    if "perfect_lock" in powers:
        if holder not in state.lock_holders:
            state.lock_holders.append(holder)
    elif holder in state.lock_holders:
        state.lock_holders.remove(holder)


def expire_upgrades(state: MatchState, holder: Fighter) -> list[RewardSpec]:
    """Preliminary phase (R-A32 b, R-A54): the face-up Upgrades leave the card (returned, for the box)."""
    held = card(holder)
    expired = [t for t in held.tokens if t.face_up and t.spec.kind == "upgrade"]
    if not expired:
        return []
    held.tokens = [t for t in held.tokens if t not in expired]
    refresh(state, holder)
    return [t.spec for t in expired]


def discard_tokens(state: MatchState, holder: Fighter) -> list[HeldToken]:
    """A KO'd Krosmaster's tokens, face up or down, leave its card (returned, for the box)."""
    held = card(holder)
    tokens = held.tokens
    held.tokens = []
    refresh(state, holder)
    return tokens
