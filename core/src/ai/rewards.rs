//! How the AIs value Demonic Rewards (krosbalance/ai/rewards.py), in injury equivalents: the base
//! class's `give_reward` (R-A52, `start_rewards`) gives a token to the Krosmaster it helps most.
//! Every float is computed in the reference's order of operations, so ties break the same way.

use crate::content::{
    Content, Effect, Element, Limit, Power, RangeType, RewardEffect, RewardKind, RewardSpec,
    SpellKind, SpellSpec,
};
use crate::engine::state::Fighter;

pub const GG_VALUE: f64 = 3.3;
pub const TURNS_LEFT: f64 = 4.0;
pub const HIT_CHANCE: f64 = 0.7;
pub const ENEMY_ELEMENTAL_DAMAGE: f64 = 2.0;
pub const ATTACKS_RECEIVED: f64 = 1.2;
pub const GOLD_DRAW_VALUE: f64 = 5.0;
pub const SUMMON_VALUE: f64 = 2.5;
pub const ENEMY_DAMAGE_PER_AP: f64 = 0.35;
pub const MELEE_REACH: f64 = 0.6;
pub const HEAL_NEEDED: f64 = 0.5;

/// What the valuation reads of a Krosmaster (`HolderFacts`).
pub struct Holder<'a> {
    pub spells: Vec<&'a SpellSpec>,
    pub hp: i32,
    pub injuries: i32,
    pub base_mp: i32,
    pub base_ap: i32,
    pub f: &'a Fighter,
}

impl<'a> Holder<'a> {
    pub fn of(content: &'a Content, f: &'a Fighter) -> Self {
        Holder {
            spells: f.spells.iter().map(|&s| content.resolve(s)).collect(),
            hp: f.hp,
            injuries: f.injuries,
            base_mp: f.base_mp,
            base_ap: f.base_ap,
            f,
        }
    }

    fn attacks(&self) -> impl Iterator<Item = &&'a SpellSpec> {
        self.spells
            .iter()
            .filter(|s| s.kind == SpellKind::Attack && s.id != "punch")
    }
}

pub fn kama_rate(gg_price: i32) -> f64 {
    GG_VALUE / f64::from(gg_price.max(1))
}

fn fmax(a: f64, b: f64) -> f64 {
    // Python's max(a, b): the first unless the second is greater
    if b > a { b } else { a }
}

pub fn damage_per_ap(h: &Holder) -> f64 {
    let mut repeatable = 1.5 / 5.0;
    for s in h.attacks() {
        if s.ap_cost > 0 && s.limit == Limit::Unlimited {
            repeatable = fmax(
                repeatable,
                (f64::from(s.amount) + 0.5) / f64::from(s.ap_cost),
            );
        }
    }
    let mut best = repeatable;
    for s in h.attacks() {
        if s.ap_cost > 0 && s.limit != Limit::Unlimited {
            let surplus = (f64::from(s.amount) + 0.5) / f64::from(s.ap_cost) - repeatable;
            let share = (f64::from(s.ap_cost) / f64::from(h.base_ap.max(1))).min(1.0);
            let per_turn = if s.limit == Limit::Turn {
                1.0
            } else {
                1.0 / TURNS_LEFT
            };
            best = fmax(best, repeatable + surplus * share * per_turn);
        }
    }
    best
}

pub fn casts_per_turn(h: &Holder, matches: impl Fn(&SpellSpec) -> bool) -> f64 {
    let mut best = 0.0;
    for s in h.attacks() {
        if matches(s) && s.ap_cost > 0 {
            let mut per_turn = f64::from(h.base_ap.div_euclid(s.ap_cost));
            if s.limit == Limit::Turn {
                per_turn = fmin1(per_turn);
            } else if s.limit == Limit::Game {
                per_turn = fmin1(per_turn) / TURNS_LEFT;
            }
            best = fmax(best, per_turn);
        }
    }
    best
}

fn fmin1(x: f64) -> f64 {
    // Python's min(x, 1.0)
    if 1.0 < x { 1.0 } else { x }
}

fn elemental(s: &SpellSpec) -> bool {
    s.element != Element::Neutral
}

fn melee_elemental(s: &SpellSpec) -> bool {
    s.element != Element::Neutral && s.range_type == RangeType::Melee
}

fn extendable(s: &SpellSpec) -> bool {
    !s.fixed_range && s.needs_los && matches!(s.range_type, RangeType::Classic | RangeType::Line)
}

fn power_per_turn(h: &Holder, power: Power) -> f64 {
    if h.f.has(power) {
        return 0.0;
    }
    match power {
        Power::Critical => 0.5 * casts_per_turn(h, elemental) * HIT_CHANCE,
        Power::Armour => (2.0 / 3.0 - 1.0 / 3.0) * ATTACKS_RECEIVED,
        Power::Counter => 0.8 * ATTACKS_RECEIVED,
        Power::Healing => {
            let best = h
                .spells
                .iter()
                .filter(|s| s.kind == SpellKind::Heal && s.ap_cost > 0)
                .map(|s| h.base_ap.div_euclid(s.ap_cost))
                .max()
                .unwrap_or(0);
            f64::from(best) * HEAL_NEEDED
        }
        Power::Dodge | Power::Lock => 0.15,
        Power::PerfectLock => 0.6,
        _ => 0.0,
    }
}

/// Injury equivalents of one effect for `turns` turns of the holder (`effect_value`).
pub fn effect_value(effect: &RewardEffect, h: &Holder, turns: f64) -> f64 {
    let a = |n: i32| f64::from(n);
    match *effect {
        RewardEffect::ApNow(n) => a(n) * damage_per_ap(h) * HIT_CHANCE,
        RewardEffect::MpNow(n) => 0.25 * a(n),
        RewardEffect::RemoveInjuries(n) => {
            let half = a(n) / 2.0;
            let inj = a(h.injuries);
            let m = if half > inj { half } else { inj };
            0.8 * (if m < a(n) { m } else { a(n) })
        }
        RewardEffect::SelfInjuries(n) => {
            if h.hp - h.injuries > n {
                -0.5 * a(n)
            } else {
                -100.0
            }
        }
        RewardEffect::Kamas(n) => a(n) * kama_rate(10),
        RewardEffect::Gg(n) => a(n) * GG_VALUE,
        RewardEffect::BuyGg(k) => GG_VALUE - a(k) * kama_rate(10),
        RewardEffect::NextSpellDamage(e, n) => {
            a(n) * fmin1(casts_per_turn(h, |s| s.element == e)) * HIT_CHANCE
        }
        RewardEffect::NextElementalAttackDamage(n) => {
            a(n) * fmin1(casts_per_turn(h, elemental)) * HIT_CHANCE
        }
        RewardEffect::Summon(_) => SUMMON_VALUE,
        RewardEffect::Recall => 1.0,
        RewardEffect::DrawReward(_) => 0.5 * GOLD_DRAW_VALUE,
        RewardEffect::MaxAp(n) => a(n) * damage_per_ap(h) * HIT_CHANCE * turns,
        RewardEffect::MaxMp(n) => 0.25 * a(n) * turns,
        RewardEffect::LowerMp(n) => -0.3 * a(n) * turns,
        RewardEffect::MaxHp(n) => 0.4 * a(n),
        RewardEffect::Power(p) => power_per_turn(h, p) * turns,
        RewardEffect::Resistance(_) => 0.3 * ATTACKS_RECEIVED * turns,
        RewardEffect::Immune(_) => ENEMY_ELEMENTAL_DAMAGE / 4.0 * turns,
        RewardEffect::Range(n) => {
            let any = h.attacks().any(|s| extendable(s));
            0.25 * a(n) * f64::from(u8::from(any)) * turns
        }
        RewardEffect::Damage(e, n) => {
            a(n) * casts_per_turn(h, |s| s.element == e) * HIT_CHANCE * turns
        }
        RewardEffect::ElementalDamage(n) => {
            a(n) * casts_per_turn(h, elemental) * HIT_CHANCE * turns
        }
        RewardEffect::MeleeDamage(n) => {
            a(n) * casts_per_turn(h, melee_elemental) * HIT_CHANCE * turns
        }
        RewardEffect::MeleeLifesteal => {
            1.0 * casts_per_turn(h, melee_elemental) * HIT_CHANCE * turns
        }
        RewardEffect::OneShotSpell | RewardEffect::Weapon => 0.0,
    }
}

/// A weapon's spell (for `turns` turns) or a single-use spell (once) (`spell_value`).
pub fn spell_value(spell: &SpellSpec, h: &Holder, turns: f64) -> f64 {
    match spell.kind {
        SpellKind::Heal => {
            let per_cast = f64::from(spell.amount) * 0.8;
            let per_turn =
                f64::from(h.base_ap.div_euclid(spell.ap_cost.max(1))) * per_cast * HEAL_NEEDED;
            if turns > 1.0 {
                per_turn * turns
            } else {
                per_cast
            }
        }
        SpellKind::Attack => {
            let area = if spell.area != crate::board::AreaShape::Single {
                1.3
            } else {
                1.0
            };
            let crit = if spell.element != Element::Neutral {
                0.5
            } else {
                0.25
            };
            let per_ap = (f64::from(spell.amount) + crit) * area / f64::from(spell.ap_cost.max(1));
            if turns <= 1.0 {
                return (f64::from(spell.amount) + 0.25) * area * HIT_CHANCE;
            }
            let reach = if spell.range_type == RangeType::Melee {
                MELEE_REACH
            } else {
                1.0
            };
            let edge = per_ap * reach - damage_per_ap(h);
            let gain = (if edge > 0.0 { edge } else { 0.0 }) * f64::from(h.base_ap) + 0.3;
            gain * HIT_CHANCE * turns
        }
        _ => {
            let mut value = 0.0;
            for effect in &spell.effects {
                match *effect {
                    Effect::MinusAp { amount } => value += f64::from(amount) * ENEMY_DAMAGE_PER_AP,
                    Effect::MinusMp { amount } => value += 0.3 * f64::from(amount),
                    Effect::CarryAlly => value += 0.6,
                    _ => {}
                }
            }
            value
        }
    }
}

/// What a token is worth to this holder over its life (`reward_value`).
pub fn reward_value(spec: &RewardSpec, h: &Holder, turns_left: f64) -> f64 {
    let turns = if spec.kind == RewardKind::Equipment {
        turns_left
    } else {
        1.0
    };
    let mut value = 0.0;
    for e in &spec.effects {
        value += effect_value(e, h, turns);
    }
    if !spec.choices.is_empty() {
        let mut best: Option<f64> = None;
        for alt in &spec.choices {
            let mut sum = 0.0;
            for e in alt {
                sum += effect_value(e, h, turns);
            }
            if best.is_none_or(|b| sum > b) {
                best = Some(sum);
            }
        }
        value += best.unwrap_or(0.0);
    }
    if let Some(spell) = &spec.spell {
        value += spell_value(
            spell,
            h,
            if spec.kind == RewardKind::Equipment {
                turns
            } else {
                1.0
            },
        );
    }
    value
}

/// The index of the holder the token helps most (the first on a tie) (`best_holder`).
pub fn best_holder(spec: &RewardSpec, holders: &[Holder]) -> usize {
    let mut best = 0;
    let mut best_value: Option<f64> = None;
    for (i, h) in holders.iter().enumerate() {
        let v = reward_value(spec, h, TURNS_LEFT);
        if best_value.is_none_or(|b| v > b) {
            best_value = Some(v);
            best = i;
        }
    }
    best
}
