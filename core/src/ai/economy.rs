//! Demonic Reward decisions of the heuristic AIs (krosbalance/ai/economy.py): before each action the
//! planner is about to take, [`advise`] may put a reward action first (reveal a bonus before the
//! attack it improves, gains at once, defences at the end, buy on a Demon cell when a reward beats a
//! GG for the kamas). Everything is read as the AI's view sees it: its own tokens, the face-up
//! market, the tokens it has not seen.

use crate::ai::rewards::{Holder, TURNS_LEFT, best_holder, kama_rate, reward_value};
use crate::content::{
    Effect, PieceKind, Power, RangeType, RewardEffect, RewardKind, RewardSpec, SpellKind, SpellSpec,
};
use crate::engine::rules::{Action, CAST, END, MOVE};
use crate::engine::state::{Fighter, MatchState};
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::rewards::{BUY_REWARD, CHOICES_PER_TOKEN, REVEAL_REWARD, tokens_of};
use crate::rulesets::arena::ruleset::BUY_GG;

/// A holder with this many HP left or fewer is "in danger".
pub const DANGER_HP: i32 = 3;
/// How near an enemy Krosmaster must be for a defensive Upgrade to be revealed at the end.
pub const THREAT_REACH: i32 = 8;

/// A reward effect's keyword (the reference's `EffectSpec.kind`).
pub fn kind(e: &RewardEffect) -> &'static str {
    match e {
        RewardEffect::MpNow(_) => "mp_now",
        RewardEffect::ApNow(_) => "ap_now",
        RewardEffect::RemoveInjuries(_) => "remove_injuries",
        RewardEffect::SelfInjuries(_) => "self_injuries",
        RewardEffect::NextSpellDamage(..) => "next_spell_damage",
        RewardEffect::NextElementalAttackDamage(_) => "next_elemental_attack_damage",
        RewardEffect::Summon(_) => "summon",
        RewardEffect::Recall => "recall",
        RewardEffect::OneShotSpell => "one_shot_spell",
        RewardEffect::MaxMp(_) => "max_mp",
        RewardEffect::MaxAp(_) => "max_ap",
        RewardEffect::MaxHp(_) => "max_hp",
        RewardEffect::LowerMp(_) => "lower_mp",
        RewardEffect::Power(_) => "power",
        RewardEffect::Resistance(_) => "resistance",
        RewardEffect::Immune(_) => "immune",
        RewardEffect::Range(_) => "range",
        RewardEffect::Damage(..) => "damage",
        RewardEffect::ElementalDamage(_) => "elemental_damage",
        RewardEffect::MeleeDamage(_) => "melee_damage",
        RewardEffect::MeleeLifesteal => "melee_lifesteal",
        RewardEffect::Weapon => "weapon",
        RewardEffect::Kamas(_) => "kamas",
        RewardEffect::Gg(_) => "gg",
        RewardEffect::BuyGg(_) => "buy_gg",
        RewardEffect::DrawReward(_) => "draw_reward",
    }
}

/// An effect's `amount` parameter (`effect.params.get("amount", 0)`).
fn amount(e: &RewardEffect) -> i32 {
    match e {
        RewardEffect::MpNow(a)
        | RewardEffect::ApNow(a)
        | RewardEffect::RemoveInjuries(a)
        | RewardEffect::SelfInjuries(a)
        | RewardEffect::NextSpellDamage(_, a)
        | RewardEffect::NextElementalAttackDamage(a)
        | RewardEffect::MaxMp(a)
        | RewardEffect::MaxAp(a)
        | RewardEffect::MaxHp(a)
        | RewardEffect::LowerMp(a)
        | RewardEffect::Range(a)
        | RewardEffect::Damage(_, a)
        | RewardEffect::ElementalDamage(a)
        | RewardEffect::MeleeDamage(a)
        | RewardEffect::Kamas(a)
        | RewardEffect::Gg(a) => *a,
        _ => 0,
    }
}

fn kinds(spec: &RewardSpec) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in spec.effects.iter().chain(spec.choices.iter().flatten()) {
        let k = kind(e);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn has_kind(spec: &RewardSpec, k: &str) -> bool {
    spec.effects.iter().any(|e| kind(e) == k)
}

/// `survives`: the holder survives the token's self-injuries with room to spare.
pub fn survives(spec: &RewardSpec, holder: &Fighter) -> bool {
    let cost: i32 = spec
        .effects
        .iter()
        .filter_map(|e| match e {
            RewardEffect::SelfInjuries(a) => Some(*a),
            _ => None,
        })
        .sum();
    holder.hp - holder.injuries - cost > DANGER_HP
}

/// `improves`: revealing `spec` now adds damage to `spell` (an attack about to be cast).
pub fn improves(spec: &RewardSpec, spell: &SpellSpec, holder: &Fighter) -> bool {
    if spell.kind != SpellKind::Attack || spell.element == crate::content::Element::Neutral {
        return false;
    }
    for e in &spec.effects {
        match e {
            RewardEffect::NextSpellDamage(el, _) | RewardEffect::Damage(el, _)
                if *el == spell.element =>
            {
                return true;
            }
            RewardEffect::ElementalDamage(_) => return true,
            RewardEffect::NextElementalAttackDamage(_) => return survives(spec, holder),
            RewardEffect::MeleeDamage(_) | RewardEffect::MeleeLifesteal
                if spell.range_type == RangeType::Melee =>
            {
                return true;
            }
            RewardEffect::Power(Power::Critical) if !holder.has(Power::Critical) => return true,
            _ => {}
        }
    }
    false
}

fn gains_action_points(spec: &RewardSpec) -> bool {
    spec.effects
        .iter()
        .chain(spec.choices.iter().flatten())
        .any(|e| matches!(e, RewardEffect::ApNow(_)))
}

fn finishes(spec: &RewardSpec, spell: &SpellSpec, target: Option<&Fighter>, team: usize) -> bool {
    let Some(t) = target else {
        return false;
    };
    if t.team == team || t.kind != PieceKind::Krosmaster {
        return false;
    }
    let bonus: i32 = spec
        .effects
        .iter()
        .filter_map(|e| match e {
            RewardEffect::NextElementalAttackDamage(a) => Some(*a),
            _ => None,
        })
        .sum();
    let hit = spell.amount + 1;
    let left = t.hp - t.injuries;
    hit < left && left <= hit + bonus
}

fn reveal_now(spec: &RewardSpec, holder: &Fighter, first_decision: bool) -> bool {
    let ks = kinds(spec);
    let has = |k: &str| ks.contains(&k);
    if spec.kind == RewardKind::Equipment {
        return !(has("lower_mp") && holder.mp > 0);
    }
    if has("gg") || has("kamas") || has("draw_reward") || has("buy_gg") {
        return true;
    }
    if has("remove_injuries") && !(has("ap_now") || has("mp_now")) {
        let amount = spec
            .effects
            .iter()
            .filter_map(|e| match e {
                RewardEffect::RemoveInjuries(a) => Some(*a),
                _ => None,
            })
            .max()
            .expect("remove_injuries");
        return holder.injuries >= amount || holder.hp - holder.injuries <= DANGER_HP;
    }
    has("summon") && first_decision
}

fn reveal_at_end(spec: &RewardSpec, in_danger: bool, enemy_distance: i32) -> bool {
    let ks = kinds(spec);
    let has = |k: &str| ks.contains(&k);
    let mut powers: Vec<Power> = Vec::new();
    for e in &spec.effects {
        if let RewardEffect::Power(p) = e {
            if !powers.contains(p) {
                powers.push(*p);
            }
        }
    }
    if spec.kind == RewardKind::Upgrade
        && powers == [Power::PerfectLock]
        && ks.iter().all(|&k| k == "power")
    {
        return enemy_distance <= 1;
    }
    let defensive = powers.iter().any(|p| {
        matches!(
            p,
            Power::Armour | Power::PerfectLock | Power::Dodge | Power::Lock | Power::Counter
        )
    });
    if spec.kind == RewardKind::Upgrade && (has("resistance") || has("immune") || defensive) {
        return enemy_distance <= THREAT_REACH;
    }
    if has("recall") {
        return in_danger;
    }
    if !spec.choices.is_empty() {
        return in_danger;
    }
    if has("lower_mp") {
        return true;
    }
    has("remove_injuries") && in_danger
}

fn choose_alternative(spec: &RewardSpec, holder: &Fighter) -> i32 {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, alternative) in spec.choices.iter().enumerate() {
        let mut value = 0.0f64;
        for e in alternative {
            let a = f64::from(amount(e));
            match e {
                RewardEffect::ApNow(_) => value += a,
                RewardEffect::MpNow(_) => value += 0.5 * a,
                RewardEffect::RemoveInjuries(_) => {
                    let inj = f64::from(holder.injuries);
                    let heal = if inj < a { inj } else { a };
                    value += heal
                        * if holder.hp - holder.injuries <= DANGER_HP + 1 {
                            2.0
                        } else {
                            0.6
                        };
                }
                _ => {}
            }
        }
        if value > best_value {
            best = i as i32;
            best_value = value;
        }
    }
    best
}

/// (token, choice, target) of a reveal action.
fn reveal_of(a: &Action) -> (i32, i32, i32) {
    (
        a.spell.div_euclid(CHOICES_PER_TOKEN),
        a.spell.rem_euclid(CHOICES_PER_TOKEN),
        a.target,
    )
}

/// (visible, rank, holder) of a purchase action.
fn purchase_of(a: &Action) -> (i32, i32, i32) {
    (a.spell.div_euclid(4) - 1, a.spell.rem_euclid(4), a.target)
}

/// Python's `seq[cell]` with a cell of -1 (the last cell).
fn at(n: usize, cell: i32) -> usize {
    if cell < 0 {
        (n as i32 + cell) as usize
    } else {
        cell as usize
    }
}

fn nearest_enemy_distance(
    state: &MatchState<Arena>,
    team: usize,
    cell: i32,
    krosmasters_only: bool,
) -> i32 {
    let n = state.board.n_cells();
    let from = at(n, cell) as u8;
    crate::ai::scoring::on_board(state)
        .filter(|e| e.team != team && (e.kind == PieceKind::Krosmaster || !krosmasters_only))
        .map(|e| i32::from(state.board.distance(from, e.at())))
        .min()
        .unwrap_or(99)
}

/// `_pick`: the action with the highest key (the first on a tie).
fn pick(options: &[Action], key: impl Fn(&Action) -> f64) -> Action {
    let mut best = options[0];
    let mut best_key = key(&best);
    for a in &options[1..] {
        let k = key(a);
        if k > best_key {
            best = *a;
            best_key = k;
        }
    }
    best
}

fn reveal_choice(
    state: &MatchState<Arena>,
    me: &Fighter,
    spec: &RewardSpec,
    options: &[Action],
) -> Action {
    let ks = kinds(spec);
    let mut options: Vec<Action> = options.to_vec();
    if !spec.choices.is_empty() {
        let wanted = choose_alternative(spec, me);
        let kept: Vec<Action> = options
            .iter()
            .copied()
            .filter(|a| reveal_of(a).1 == wanted)
            .collect();
        if !kept.is_empty() {
            options = kept;
        }
    }
    let team = me.team;
    if ks.contains(&"buy_gg") {
        return pick(&options, |a| f64::from(reveal_of(a).1));
    }
    if ks.contains(&"summon") {
        return pick(&options, |a| {
            -f64::from(nearest_enemy_distance(state, team, reveal_of(a).2, false))
        });
    }
    if ks.contains(&"recall") {
        return pick(&options, |a| {
            f64::from(nearest_enemy_distance(state, team, reveal_of(a).2, false))
        });
    }
    options[0]
}

fn spell_target_value(
    state: &MatchState<Arena>,
    team: usize,
    spec: &RewardSpec,
    action: &Action,
) -> f64 {
    let cell = reveal_of(action).2;
    let target = state
        .piece_at(at(state.board.n_cells(), cell) as u8)
        .map(|u| &state.fighters[u])
        .filter(|f| f.alive);
    let Some(spell) = &spec.spell else {
        return -1.0;
    };
    if spell.kind == SpellKind::Attack {
        return match target {
            Some(t) if t.team != team => {
                10.0 - f64::from(t.hp - t.injuries)
                    + if t.kind == PieceKind::Krosmaster {
                        5.0
                    } else {
                        0.0
                    }
            }
            _ => -1.0,
        };
    }
    if spell.effects.iter().any(|e| matches!(e, Effect::CarryAlly)) {
        return f64::from(nearest_enemy_distance(state, team, cell, false)) - 2.0;
    }
    match target {
        Some(t) if t.team != team && t.kind == PieceKind::Krosmaster => {
            if spell
                .effects
                .iter()
                .any(|e| matches!(e, Effect::MinusAp { .. }))
            {
                f64::from(t.base_ap)
            } else {
                f64::from(t.base_mp)
            }
        }
        _ => -1.0,
    }
}

/// `expected_draw_value`: the mean over `candidates` of the best holder's value.
pub fn expected_draw_value(candidates: &[&RewardSpec], holders: &[Holder]) -> f64 {
    if candidates.is_empty() || holders.is_empty() {
        return 0.0;
    }
    let mut total = 0.0f64;
    for spec in candidates {
        let mut best: Option<f64> = None;
        for h in holders {
            let v = reward_value(spec, h, TURNS_LEFT);
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        }
        total += best.expect("holders");
    }
    total / candidates.len() as f64
}

/// `unseen_rewards(rank)`: the tokens of a rank `team` has never seen, sorted by id.
fn unseen_rewards(state: &MatchState<Arena>, team: usize, rank: usize) -> Vec<&RewardSpec> {
    let Some(market) = &state.rules.market else {
        return Vec::new();
    };
    let rewards = &state.content.rewards;
    let mut unseen: Vec<&RewardSpec> = market.piles[2 * rank]
        .iter()
        .chain(market.piles[2 * rank + 1].iter())
        .map(|&r| &rewards[r])
        .collect();
    unseen.extend(
        market
            .hidden_box
            .iter()
            .map(|&r| &rewards[r])
            .filter(|s| s.rank == rank),
    );
    for f in &state.fighters {
        if f.team != team {
            for t in tokens_of(state, f.uid) {
                if t.is_secret() && rewards[t.reward].rank == rank {
                    unseen.push(&rewards[t.reward]);
                }
            }
        }
    }
    unseen.sort_by(|a, b| a.id.cmp(&b.id));
    unseen
}

fn capacity(state: &MatchState<Arena>, f: &Fighter) -> i32 {
    f.level - tokens_of(state, f.uid).len() as i32
}

fn best_purchase(state: &MatchState<Arena>, side: usize, buys: &[Action]) -> Option<Action> {
    let arena = &state.rules;
    let market = arena.market.as_ref()?;
    let team = state.team_of[side];
    let holders_f: Vec<&Fighter> = state.timeline[side]
        .iter()
        .map(|&k| &state.fighters[k])
        .filter(|k| k.alive && k.cell >= 0 && capacity(state, k) > 0)
        .collect();
    if holders_f.is_empty() {
        return None;
    }
    let holders: Vec<Holder> = holders_f
        .iter()
        .map(|f| Holder::of(&state.content, f))
        .collect();
    let prices = market.prices;
    let face_up: Vec<&RewardSpec> = market
        .face_up
        .iter()
        .map(|&(_, r)| &state.content.rewards[r])
        .collect();
    let theirs = (0..state.n_seats)
        .filter(|&s| state.team_of[s] != team)
        .map(|s| arena.gg[s])
        .max()
        .expect("an opponent");
    let kamas = arena.kamas[side];
    let gg_first = (arena.wild_gg == 0 && theirs <= 2)
        || (kamas >= arena.gg_price && arena.wild_gg == 0 && theirs <= 4);
    let rate = kama_rate(arena.gg_price);
    let offered: Vec<(i32, i32)> = buys
        .iter()
        .map(|a| (purchase_of(a).0, purchase_of(a).1))
        .collect();
    let worth_buying =
        |value: f64, price: i32| !gg_first && value / f64::from(price.max(1)) >= rate;
    let mut best: Option<(f64, i32, usize)> = None;
    for (visible, spec) in face_up.iter().enumerate() {
        if !offered.contains(&(visible as i32, spec.rank as i32)) {
            continue;
        }
        let price = prices[spec.rank];
        let mut value: Option<f64> = None;
        for h in &holders {
            let v = reward_value(spec, h, TURNS_LEFT);
            if value.is_none_or(|b| v > b) {
                value = Some(v);
            }
        }
        let value = value.expect("holders");
        if worth_buying(value, price) && best.is_none_or(|b| value - rate * f64::from(price) > b.0)
        {
            best = Some((value - rate * f64::from(price), visible as i32, spec.rank));
        }
    }
    for (rank, &price) in prices.iter().enumerate() {
        let left = market.piles[2 * rank].len() + market.piles[2 * rank + 1].len();
        if left == 0 || !offered.contains(&(-1, rank as i32)) {
            continue;
        }
        let unseen = unseen_rewards(state, team, rank);
        let value = expected_draw_value(&unseen, &holders);
        if worth_buying(value, price) && best.is_none_or(|b| value - rate * f64::from(price) > b.0)
        {
            best = Some((value - rate * f64::from(price), -1, rank));
        }
    }
    let (_, visible, rank) = best?;
    let holder_uid = if visible >= 0 {
        holders_f[best_holder(face_up[visible as usize], &holders)].uid
    } else {
        let unseen = unseen_rewards(state, team, rank);
        let mut means = Vec::with_capacity(holders.len());
        for h in &holders {
            let mut s = 0.0f64;
            for spec in &unseen {
                s += reward_value(spec, h, TURNS_LEFT);
            }
            means.push(s / unseen.len().max(1) as f64);
        }
        let mut bi = 0;
        for (i, &m) in means.iter().enumerate() {
            if m > means[bi] {
                bi = i;
            }
        }
        holders_f[bi].uid
    };
    buys.iter()
        .copied()
        .find(|a| purchase_of(a) == (visible, rank as i32, holder_uid as i32))
}

/// `advise`: a Demonic Reward action to take before `proposed`, or `None`.
pub fn advise(
    state: &MatchState<Arena>,
    me: &Fighter,
    legal: &[Action],
    proposed: Action,
    first_decision: bool,
) -> Option<Action> {
    if me.kind != PieceKind::Krosmaster || state.rules.market.is_none() {
        return None;
    }
    let legal: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| a.kind == REVEAL_REWARD || a.kind == BUY_REWARD)
        .collect();
    if legal.is_empty() {
        return None;
    }
    let tokens: Vec<&RewardSpec> = tokens_of(state, me.uid)
        .iter()
        .map(|t| &state.content.rewards[t.reward])
        .collect();
    let mut by_token: Vec<(usize, Vec<Action>)> = Vec::new();
    for a in &legal {
        if a.kind == REVEAL_REWARD {
            let token = reveal_of(a).0 as usize;
            match by_token.iter_mut().find(|e| e.0 == token) {
                Some(e) => e.1.push(*a),
                None => by_token.push((token, vec![*a])),
            }
        }
    }
    let single_use: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| has_kind(t, "one_shot_spell"))
        .map(|(i, _)| i)
        .collect();
    let team = state.team_of[me.side];
    if proposed.kind == CAST {
        let spell = state.content.resolve(me.spells[proposed.spell as usize]);
        let target = state
            .piece_at(proposed.target as u8)
            .map(|u| &state.fighters[u])
            .filter(|f| f.alive);
        for (index, options) in &by_token {
            let spec = tokens[*index];
            if single_use.contains(index) {
                continue;
            }
            if spell.kind == SpellKind::Attack && gains_action_points(spec) {
                return Some(reveal_choice(state, me, spec, options));
            }
            if improves(spec, spell, me)
                && (!has_kind(spec, "self_injuries") || finishes(spec, spell, target, team))
            {
                return Some(reveal_choice(state, me, spec, options));
            }
        }
    }
    for (index, options) in &by_token {
        let spec = tokens[*index];
        if !single_use.contains(index) && reveal_now(spec, me, first_decision) {
            return Some(reveal_choice(state, me, spec, options));
        }
    }
    let buys: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| a.kind == BUY_REWARD)
        .collect();
    if proposed.kind == BUY_GG && !buys.is_empty() {
        return best_purchase(state, me.side, &buys);
    }
    if proposed.kind == MOVE
        && !buys.is_empty()
        && !state.board.demon_cells().contains(proposed.target as u8)
    {
        return best_purchase(state, me.side, &buys);
    }
    if proposed.kind != END {
        return None;
    }
    let in_danger = me.hp - me.injuries <= DANGER_HP
        && nearest_enemy_distance(state, team, me.cell, false) <= 4;
    let enemy_distance = nearest_enemy_distance(state, team, me.cell, true);
    for (index, options) in &by_token {
        let spec = tokens[*index];
        if single_use.contains(index) {
            let values: Vec<f64> = options
                .iter()
                .map(|a| spell_target_value(state, team, spec, a))
                .collect();
            let mut bi = 0;
            for (i, &v) in values.iter().enumerate() {
                if v > values[bi] {
                    bi = i;
                }
            }
            if values[bi] >= 0.0 {
                return Some(options[bi]);
            }
        } else if reveal_at_end(spec, in_danger, enemy_distance) {
            return Some(reveal_choice(state, me, spec, options));
        }
    }
    if buys.is_empty() {
        None
    } else {
        best_purchase(state, me.side, &buys)
    }
}
