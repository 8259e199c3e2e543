//! Demonic Rewards in Arena (krosbalance/rulesets/arena/market.py, tokens.py, reward_effects.py,
//! rewards.py; R-A23, R-A51-R-A54, R-A136-R-A145, FAQ R-A160-R-A166): the market, the tokens on a
//! Krosmaster's card, buying, revealing, the continuous effects of face-up tokens, their timing.

use crate::board::Cell;
use crate::content::{Element, PieceKind, Power, RewardEffect, RewardKind, SpellRef, SpellSpec};
use crate::engine::combat::{cast, knock_out};
use crate::engine::events::Event;
use crate::engine::legal::{can_pay, spell_targets};
use crate::engine::pieces::{place, relocate, spawn};
use crate::engine::rules::{Action, EXTRA};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::economy::{gain_gg, take_from_reserve};
use crate::rulesets::arena::{Arena, ArenaEvent};

pub const BUY_REWARD: u8 = EXTRA + 2;
pub const REVEAL_REWARD: u8 = EXTRA + 3;
pub const CHOICES_PER_TOKEN: i32 = 8;

/// The tokens not on a card: two face-down piles per rank (their tops the ends), the face-up
/// tokens beside them, and the box (`RewardMarket`). Tokens are indices into `Content::rewards`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Market {
    pub piles: [Vec<usize>; 6],
    pub face_up: Vec<(usize, usize)>,
    pub boxed: Vec<usize>,
    pub hidden_box: Vec<usize>,
    pub prices: [i32; 3],
}

impl Market {
    fn pile_for(&self, rank: usize) -> Option<usize> {
        let (a, b) = (2 * rank, 2 * rank + 1);
        if self.piles[a].is_empty() && self.piles[b].is_empty() {
            return None;
        }
        Some(if self.piles[a].len() >= self.piles[b].len() {
            a
        } else {
            b
        })
    }

    pub fn draw(&mut self, rank: usize) -> Option<usize> {
        let pile = self.pile_for(rank)?;
        self.piles[pile].pop()
    }

    fn turn_up(&mut self, pile: usize) {
        if let Some(token) = self.piles[pile].pop() {
            self.face_up.push((pile, token));
        }
    }

    fn face_down_count(&self, rank: usize) -> usize {
        self.piles[2 * rank].len() + self.piles[2 * rank + 1].len()
    }
}

/// A token on a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldToken {
    pub reward: usize,
    pub face_up: bool,
    pub bought_turn: i32,
    pub seen: bool,
}

impl HeldToken {
    fn secret(&self) -> bool {
        !self.face_up && !self.seen
    }

    /// Whether the token is hidden from the other partnerships (R-A51: a random purchase).
    pub fn is_secret(&self) -> bool {
        self.secret()
    }
}

/// The tokens on a fighter's card, in order (`tokens_of`; none without a card).
pub fn tokens_of(state: &MatchState<Arena>, uid: usize) -> &[HeldToken] {
    card(state, uid).map_or(&[], |c| c.tokens.as_slice())
}

/// What the face-up tokens and pending boosts add to a Krosmaster's attacks (`RewardMods`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    pub damage: [i32; 5],
    pub melee: i32,
    pub melee_lifesteal: bool,
    pub next_spell: Vec<(usize, i32, bool)>,
    pub next_elemental: i32,
}

impl Mods {
    fn empty(&self) -> bool {
        self.damage.iter().all(|&d| d == 0)
            && self.melee == 0
            && !self.melee_lifesteal
            && self.next_spell.is_empty()
            && self.next_elemental == 0
    }
}

/// A Krosmaster's card, as far as Demonic Rewards go (`RewardCard`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RewardCard {
    pub tokens: Vec<HeldToken>,
    pub mods: Option<Mods>,
}

/// R-A23: two face-down piles per rank, each rank (sorted by id) shuffled; under `reveal = "setup"`
/// the top of each pile turned face up.
pub fn setup_market(state: &MatchState<Arena>, rng: &mut Generator) -> Result<Market, String> {
    let content = &state.content;
    let opts = &state.ruleset.opts;
    let mut piles: [Vec<usize>; 6] = Default::default();
    for rank in 0..3 {
        let mut tokens: Vec<usize> = (0..content.rewards.len())
            .filter(|&r| content.rewards[r].rank == rank)
            .collect();
        tokens.sort_by(|&a, &b| content.rewards[a].id.cmp(&content.rewards[b].id));
        for (i, j) in rng.permutation(tokens.len()).into_iter().enumerate() {
            piles[2 * rank + i % 2].push(tokens[j]);
        }
    }
    let mut market = Market {
        piles,
        face_up: Vec::new(),
        boxed: Vec::new(),
        hidden_box: Vec::new(),
        prices: opts.reward_prices,
    };
    if !(opts.reward_reveal_staged || opts.shop_only()) {
        for pile in 0..6 {
            market.turn_up(pile);
        }
    }
    for side in 0..2 {
        for name in &opts.purchasable_rewards[side] {
            let token = remove_from_market(state, &mut market, name)?;
            let rank = content.rewards[token].rank;
            market.face_up.push((2 * rank, token));
        }
    }
    Ok(market)
}

/// Take one named token out of the market, face up first, then the piles in order.
fn remove_from_market(
    state: &MatchState<Arena>,
    market: &mut Market,
    name: &str,
) -> Result<usize, String> {
    let rewards = &state.content.rewards;
    if let Some(i) = market
        .face_up
        .iter()
        .position(|&(_, r)| rewards[r].id == name)
    {
        return Ok(market.face_up.remove(i).1);
    }
    for pile in market.piles.iter_mut() {
        if let Some(i) = pile.iter().position(|&r| rewards[r].id == name) {
            return Ok(pile.remove(i));
        }
    }
    Err(format!("{name:?} is not in the market (listed twice?)"))
}

/// `start_rewards`: each token leaves the market and goes face down to the Krosmaster its player
/// chooses (or the one `start_reward_holders` names), its price charged (`give_start_rewards`).
pub fn give_start_rewards(
    state: &mut MatchState<Arena>,
    players: &mut crate::engine::rules::Players<Arena>,
) -> Result<(), String> {
    let ruleset = state.ruleset.clone();
    let opts = &ruleset.opts;
    #[allow(clippy::needless_range_loop)] // side indexes the options' lists and the players alike
    for side in 0..2 {
        for (i, name) in opts.start_rewards[side].iter().enumerate() {
            let mut market = state.rules.market.take().expect("a market");
            let token = remove_from_market(state, &mut market, name);
            state.rules.market = Some(market);
            let token = token?;
            let candidates: Vec<usize> = state.timeline[side]
                .iter()
                .copied()
                .filter(|&f| state.fighters[f].alive && capacity(state, f) > 0)
                .collect();
            let wanted = opts.start_reward_holders[side]
                .get(i)
                .map_or("", String::as_str);
            let holder = if !wanted.is_empty() {
                let found = state.timeline[side].iter().copied().find(|&f| {
                    let x = &state.fighters[f];
                    x.kind == PieceKind::Krosmaster
                        && state.content.chars[x.spec].id == wanted
                        && x.alive
                        && capacity(state, f) > 0
                });
                found.ok_or_else(|| {
                    format!("no Krosmaster {wanted:?} with room on side {side}'s team")
                })?
            } else if candidates.is_empty() {
                state
                    .rules
                    .market
                    .as_mut()
                    .expect("a market")
                    .boxed
                    .push(token);
                continue;
            } else {
                let uid = players[side].give_reward(state, side, token, &candidates);
                if !candidates.contains(&uid) {
                    return Err(format!(
                        "player {side} gave a token to #{uid}, not one of {candidates:?}"
                    ));
                }
                uid
            };
            give(state, holder, token, "s");
            if let Some(&price) = opts.start_reward_prices[side].get(i)
                && price > 0
            {
                state.rules.kamas[side] -= price;
                state.rules.kama_reserve += price;
            }
            for _ in 0..opts.start_reward_gg_prices[side]
                .get(i)
                .copied()
                .unwrap_or(0)
            {
                crate::rulesets::arena::economy::lose_gg(state, side, "reward price");
            }
        }
    }
    Ok(())
}

fn card(state: &MatchState<Arena>, uid: usize) -> Option<&RewardCard> {
    state.rules.cards.get(uid).and_then(Option::as_ref)
}

fn card_mut(state: &mut MatchState<Arena>, uid: usize) -> &mut RewardCard {
    let cards = &mut state.rules.cards;
    if cards.len() <= uid {
        cards.resize(uid + 1, None);
    }
    cards[uid].get_or_insert_with(RewardCard::default)
}

/// Whether the fighter has a card (the reference's `fighter.extra is not None`).
pub fn has_card(state: &MatchState<Arena>, uid: usize) -> bool {
    card(state, uid).is_some()
}

fn n_tokens(state: &MatchState<Arena>, uid: usize) -> usize {
    card(state, uid).map_or(0, |c| c.tokens.len())
}

/// How many more tokens this Krosmaster may hold (R-A53).
fn capacity(state: &MatchState<Arena>, uid: usize) -> i32 {
    let f = &state.fighters[uid];
    if f.kind == PieceKind::Krosmaster {
        f.level - n_tokens(state, uid) as i32
    } else {
        0
    }
}

fn slot_taken(state: &MatchState<Arena>, uid: usize, slot: u8) -> bool {
    card(state, uid).is_some_and(|c| {
        c.tokens
            .iter()
            .any(|t| t.face_up && state.content.rewards[t.reward].slot == slot)
    })
}

/// Put a token face down on a card (R-A52); `how`: v face-up purchase, r random, d drawn.
fn give(state: &mut MatchState<Arena>, uid: usize, reward: usize, how: &str) {
    let turn = state.turn;
    card_mut(state, uid).tokens.push(HeldToken {
        reward,
        face_up: false,
        bought_turn: turn,
        seen: how == "v",
    });
    let id = state.content.rewards[reward].id.clone();
    let stats = &mut state.fighters[uid].stats;
    stats.rewards_held.push(format!("{id}:{how}"));
    stats.rewards_held_turns.push(turn);
}

// ------------------------------------------------------------------------------------ actions

/// The reward actions of the active Krosmaster, reveals then purchases (`add_actions`).
pub fn add_actions(state: &MatchState<Arena>, uid: usize, actions: &mut Vec<Action>) {
    let f = &state.fighters[uid];
    if f.kind != PieceKind::Krosmaster {
        return;
    }
    if n_tokens(state, uid) > 0 {
        reveals(state, uid, actions);
    }
    let Some(market) = &state.rules.market else {
        return;
    };
    let opts = &state.ruleset.opts;
    if f.ap < 1 || !opts.may_buy(f.side) || !state.board.demon_cells().contains(f.at()) {
        return;
    }
    let allowed = if opts.shop_only() {
        Some(&opts.purchasable_rewards[f.side])
    } else {
        None
    };
    let holders: Vec<usize> = state.timeline[f.side]
        .iter()
        .copied()
        .filter(|&h| {
            state.fighters[h].alive && state.fighters[h].cell >= 0 && capacity(state, h) > 0
        })
        .collect();
    if holders.is_empty() {
        return;
    }
    let stock = state.rules.kamas[f.side];
    for (i, &(_, reward)) in market.face_up.iter().enumerate() {
        let rank = state.content.rewards[reward].rank;
        if stock >= market.prices[rank]
            && allowed.is_none_or(|names| names.contains(&state.content.rewards[reward].id))
        {
            for &h in &holders {
                actions.push(Action::new(
                    BUY_REWARD,
                    4 * (i as i32 + 1) + rank as i32,
                    h as i32,
                ));
            }
        }
    }
    for rank in 0..3 {
        if allowed.is_none() && stock >= market.prices[rank] && market.face_down_count(rank) > 0 {
            for &h in &holders {
                actions.push(Action::new(BUY_REWARD, rank as i32, h as i32));
            }
        }
    }
}

fn free_cells(state: &MatchState<Arena>, mask: crate::board::CellSet) -> Vec<i32> {
    mask.iter()
        .filter(|&c| !state.obstacles.contains(c))
        .map(i32::from)
        .collect()
}

/// Every legal reveal of the holder's face-down tokens (`reveals`).
fn reveals(state: &MatchState<Arena>, uid: usize, actions: &mut Vec<Action>) {
    let f = &state.fighters[uid];
    if !(state.active == Some(uid) && f.acting && f.alive && f.kind == PieceKind::Krosmaster) {
        return;
    }
    let Some(held) = card(state, uid) else {
        return;
    };
    for (index, token) in held.tokens.iter().enumerate() {
        if token.face_up {
            continue;
        }
        let spec = &state.content.rewards[token.reward];
        let encode = |choice: i32, target: i32| {
            Action::new(
                REVEAL_REWARD,
                CHOICES_PER_TOKEN * index as i32 + choice,
                target,
            )
        };
        match spec.kind {
            RewardKind::Equipment => {
                if !slot_taken(state, uid, spec.slot) {
                    actions.push(encode(0, -1));
                }
            }
            RewardKind::Upgrade => actions.push(encode(0, -1)),
            RewardKind::Boost => {
                let mut choices: Vec<i32> = (0..spec.choices.len().max(1) as i32).collect();
                let mut targets: Vec<i32> = vec![-1];
                if let Some(price) = spec.effects.iter().find_map(|e| match e {
                    RewardEffect::BuyGg(k) => Some(*k),
                    _ => None,
                }) {
                    choices = if state.rules.kamas[f.side] >= price {
                        vec![0, 1]
                    } else {
                        vec![0]
                    };
                }
                let has = |want: fn(&RewardEffect) -> bool| spec.effects.iter().any(want);
                if has(|e| matches!(e, RewardEffect::Summon(_))) {
                    targets = free_cells(state, state.board.neighbour_mask(f.at()));
                    if targets.is_empty() {
                        targets = vec![-1];
                    }
                } else if has(|e| matches!(e, RewardEffect::Recall)) {
                    targets = free_cells(state, state.board.deploy(state.edges[f.side]));
                    if targets.is_empty() {
                        targets = vec![-1];
                    }
                } else if has(|e| matches!(e, RewardEffect::OneShotSpell)) {
                    let spell = spec.spell.as_ref().expect("a single-use spell");
                    if !can_pay(state, f, spell) {
                        continue;
                    }
                    targets = spell_targets(state, f, spell)
                        .into_iter()
                        .map(i32::from)
                        .collect();
                    if spell.effects.contains(&crate::content::Effect::CarryAlly) {
                        choices = state
                            .board
                            .neighbours(f.at())
                            .iter()
                            .enumerate()
                            .filter(|&(_, &cell)| {
                                state.piece_at(cell).is_some_and(|p| {
                                    let p = &state.fighters[p];
                                    p.alive && p.team == f.team && p.is_character()
                                })
                            })
                            .map(|(i, _)| i as i32)
                            .collect();
                    }
                }
                for &c in &choices {
                    for &t in &targets {
                        actions.push(encode(c, t));
                    }
                }
            }
        }
    }
}

/// Carry out a legal reward action (`rewards.perform`).
pub fn perform(state: &mut MatchState<Arena>, uid: usize, action: Action) {
    if action.kind == REVEAL_REWARD {
        let index = (action.spell / CHOICES_PER_TOKEN) as usize;
        let choice = action.spell % CHOICES_PER_TOKEN;
        if let Some(used) = reveal(state, uid, index, choice, action.target) {
            state
                .rules
                .market
                .as_mut()
                .expect("a market")
                .boxed
                .push(used);
        }
        return;
    }
    let visible = action.spell / 4 - 1;
    let rank = (action.spell % 4) as usize;
    let holder = action.target as usize;
    let opts = &state.ruleset.opts;
    let refill = opts.reward_refill_same_pile && !opts.reward_reveal_staged && !opts.shop_only();
    let market = state.rules.market.as_mut().expect("a market");
    let price = market.prices[rank];
    let token = if visible >= 0 {
        let (pile, token) = market.face_up.remove(visible as usize);
        if refill {
            market.turn_up(pile);
        }
        token
    } else {
        market.draw(rank).expect("a face-down token")
    };
    let f = &mut state.fighters[uid];
    f.ap -= 1;
    f.stats.rewards_bought += 1;
    let side = f.side;
    state.rules.kamas[side] -= price;
    state.rules.kama_reserve += price;
    give(state, holder, token, if visible >= 0 { "v" } else { "r" });
    if state.summary() {
        let spec = &state.content.rewards[token];
        state.events.push(Event::Ruleset(ArenaEvent::RewardBought {
            turn: state.turn,
            buyer: uid,
            holder,
            reward: token,
            rank: spec.rank,
            visible: visible >= 0,
        }));
    }
}

// ------------------------------------------------------------------------------------ reveal

/// Turn the holder's token `index` face up and apply it (R-A54); a Boost is returned, for the box.
fn reveal(
    state: &mut MatchState<Arena>,
    uid: usize,
    index: usize,
    choice: i32,
    target: i32,
) -> Option<usize> {
    let content = state.content.clone();
    let reward = card(state, uid).expect("a card").tokens[index].reward;
    let spec = &content.rewards[reward];
    let turn = state.turn;
    let stats = &mut state.fighters[uid].stats;
    stats.rewards_revealed += 1;
    stats.rewards_used.push(spec.id.clone());
    stats.rewards_used_turns.push(turn);
    if state.summary() {
        state
            .events
            .push(Event::Ruleset(ArenaEvent::RewardRevealed {
                turn,
                uid,
                reward,
                detail: spec.kind.name(),
            }));
    }
    if spec.kind == RewardKind::Boost {
        card_mut(state, uid).tokens.remove(index);
        let chosen = if spec.choices.is_empty() {
            &[][..]
        } else {
            &spec.choices[choice as usize][..]
        };
        for effect in spec.effects.iter().chain(chosen) {
            instant(state, uid, reward, effect, choice, target);
        }
        return Some(reward);
    }
    card_mut(state, uid).tokens[index].face_up = true;
    for effect in &spec.effects {
        let f = &mut state.fighters[uid];
        match *effect {
            RewardEffect::MaxMp(n) => {
                f.base_mp += n;
                if f.acting {
                    f.mp += n;
                }
            }
            RewardEffect::MaxAp(n) => {
                f.base_ap += n;
                if f.acting {
                    f.ap += n;
                }
            }
            RewardEffect::MaxHp(n) => f.hp += n,
            RewardEffect::LowerMp(n) => {
                f.base_mp = (f.base_mp - n).max(0);
                if f.acting {
                    f.mp = (f.mp - n).max(0);
                }
            }
            RewardEffect::Weapon if spec.spell.is_some() => {
                let at = if f.spells.last() == Some(&SpellRef::Punch) {
                    f.spells.len() - 1
                } else {
                    f.spells.len()
                };
                f.spells.insert(at, SpellRef::Reward(reward as u32));
            }
            _ => {}
        }
    }
    refresh(state, uid);
    None
}

/// A Boost's instant effect (`RewardRule.instant`).
fn instant(
    state: &mut MatchState<Arena>,
    uid: usize,
    reward: usize,
    effect: &RewardEffect,
    choice: i32,
    target: i32,
) {
    let side = state.fighters[uid].side;
    match *effect {
        RewardEffect::MpNow(n) => state.fighters[uid].mp += n,
        RewardEffect::ApNow(n) => state.fighters[uid].ap += n,
        RewardEffect::RemoveInjuries(n) => {
            let f = &mut state.fighters[uid];
            let removed = n.min(f.injuries);
            if removed <= 0 {
                return;
            }
            f.injuries -= removed;
            f.stats.heals_received += i64::from(removed);
            if state.full() {
                state.events.push(Event::Healed {
                    turn: state.turn,
                    source: uid,
                    target: uid,
                    amount: removed,
                });
            }
        }
        RewardEffect::SelfInjuries(n) => {
            let f = &mut state.fighters[uid];
            f.injuries = f.hp.min(f.injuries + n);
            if f.injuries >= f.hp {
                knock_out(state, uid, Some(uid));
            }
        }
        RewardEffect::NextSpellDamage(element, n) => {
            let waits = state.ruleset.opts.element_boost_waits;
            mods_mut(state, uid)
                .next_spell
                .push((element.index(), n, waits));
        }
        RewardEffect::NextElementalAttackDamage(n) => mods_mut(state, uid).next_elemental += n,
        RewardEffect::Summon(spec) => {
            if target < 0 {
                return;
            }
            let key = state.content.rewards[reward].key;
            let token = spawn(state, spec, side, Some(uid), Some(key));
            place(state, token, target as Cell);
            state.fighters[token].placed_turn = state.turn;
            state.fighters[uid].summons.push(token);
            if state.full() {
                state.events.push(Event::Summoned {
                    turn: state.turn,
                    summoner: uid,
                    uid: token,
                    spec,
                    cell: target,
                });
            }
        }
        RewardEffect::Recall => {
            if target < 0 {
                return;
            }
            let origin = state.fighters[uid].cell;
            relocate(state, uid, target as Cell);
            if state.full() {
                state.events.push(Event::Moved {
                    turn: state.turn,
                    uid,
                    origin,
                    destination: target,
                    how: "recall",
                });
            }
            // R-A171: a trap on the cell springs, as at the end of any special movement
            if state.traps.contains(target as Cell) {
                crate::engine::combat::trigger_trap(state, target as Cell);
            }
        }
        RewardEffect::OneShotSpell => {
            let neighbours = state.board.neighbours(state.fighters[uid].at());
            let second = if choice >= 0 && (choice as usize) < neighbours.len() {
                i32::from(neighbours[choice as usize])
            } else {
                -1
            };
            cast(
                state,
                uid,
                SpellRef::Reward(reward as u32),
                target as Cell,
                second,
            );
        }
        RewardEffect::Kamas(n) => {
            take_from_reserve(state, side, n);
        }
        RewardEffect::Gg(n) => {
            gain_gg(state, side, n, Some(uid), None);
            state.unsettled = true;
        }
        RewardEffect::BuyGg(k) => {
            if choice != 1 || state.rules.kamas[side] < k {
                return;
            }
            state.rules.kamas[side] -= k;
            state.rules.kama_reserve += k;
            gain_gg(state, side, 1, Some(uid), None);
            state.unsettled = true;
        }
        RewardEffect::DrawReward(rank) => {
            let heads = state.dice.roll() < 3;
            if state.full() {
                state
                    .events
                    .push(Event::Ruleset(ArenaEvent::RewardRevealed {
                        turn: state.turn,
                        uid,
                        reward,
                        detail: if heads { "heads" } else { "tails" },
                    }));
            }
            if !heads {
                return;
            }
            if let Some(drawn) = state.rules.market.as_mut().and_then(|m| m.draw(rank)) {
                give(state, uid, drawn, "d");
            }
        }
        _ => {}
    }
}

fn mods_mut(state: &mut MatchState<Arena>, uid: usize) -> &mut Mods {
    card_mut(state, uid).mods.get_or_insert_with(Mods::default)
}

/// Recompute what the face-up tokens give (`reward_effects.refresh`).
fn refresh(state: &mut MatchState<Arena>, uid: usize) {
    let content = state.content.clone();
    let c = &content.chars[state.fighters[uid].spec];
    let f = &state.fighters[uid];
    let mut powers = c.powers & !f.forbidden_powers;
    let mut resist = if f.forbid_resist { 0 } else { c.resist };
    let mut immune = if f.forbid_immune { 0 } else { c.immune };
    let held = card_mut(state, uid);
    let mut mods = Mods::default();
    if let Some(old) = held.mods.take() {
        mods.next_spell = old.next_spell;
        mods.next_elemental = old.next_elemental;
    }
    let mut range = 0;
    for token in held.tokens.iter().filter(|t| t.face_up) {
        for effect in &content.rewards[token.reward].effects {
            match *effect {
                RewardEffect::Range(n) => range += n,
                RewardEffect::Damage(e, n) => mods.damage[e.index()] += n,
                RewardEffect::ElementalDamage(n) => {
                    for d in &mut mods.damage[1..] {
                        *d += n;
                    }
                }
                RewardEffect::MeleeDamage(n) => mods.melee += n,
                RewardEffect::MeleeLifesteal => mods.melee_lifesteal = true,
                RewardEffect::Power(p) => powers |= p.bit(),
                RewardEffect::Resistance(e) => resist |= 1 << e.index(),
                RewardEffect::Immune(e) => immune |= 1 << e.index(),
                _ => {}
            }
        }
    }
    held.mods = if mods.empty() { None } else { Some(mods) };
    let f = &mut state.fighters[uid];
    f.max_range_bonus = range;
    f.powers = powers;
    f.resist = resist;
    f.immune = immune;
    let listed = state.lock_holders.contains(&uid);
    if powers & Power::PerfectLock.bit() != 0 {
        if !listed {
            state.lock_holders.push(uid);
        }
    } else if listed {
        state.lock_holders.retain(|&h| h != uid);
    }
}

/// What the holder's rewards add to this spell (`tokens.spell_bonus`).
pub fn spell_bonus(
    state: &mut MatchState<Arena>,
    uid: usize,
    spell: &SpellSpec,
    consume: bool,
) -> (i32, bool) {
    let Some(held) = state.rules.cards.get_mut(uid).and_then(Option::as_mut) else {
        return (0, false);
    };
    let Some(mods) = held.mods.as_mut() else {
        return (0, false);
    };
    let element = spell.element.index();
    let attack = spell.kind == crate::content::SpellKind::Attack;
    let (mut bonus, mut lifesteal) = (0, false);
    if attack && spell.element != Element::Neutral {
        bonus += mods.damage[element];
        if spell.range_type == crate::content::RangeType::Melee {
            bonus += mods.melee;
            lifesteal = mods.melee_lifesteal;
        }
        bonus += mods.next_elemental;
        if consume {
            mods.next_elemental = 0;
        }
    }
    if !mods.next_spell.is_empty() {
        let mut kept = Vec::new();
        for &(e, amount, waits) in &mods.next_spell {
            if attack && e == element {
                bonus += amount;
            } else if waits {
                kept.push((e, amount, waits));
            }
        }
        if consume {
            mods.next_spell = kept;
        }
    }
    if consume && mods.empty() {
        held.mods = None;
    }
    (bonus, lifesteal)
}

// ------------------------------------------------------------------------------------ timing

/// `reward_reveal = "staged"`: one token of each rank turned up at every game turn after the first.
pub fn turn_started(state: &mut MatchState<Arena>) {
    let turn = state.turn;
    if !state.ruleset.opts.reward_reveal_staged || turn <= 1 {
        return;
    }
    if let Some(market) = state.rules.market.as_mut() {
        for rank in 0..3 {
            if let Some(pile) = market.pile_for(rank) {
                market.turn_up(pile);
            }
        }
    }
}

/// Preliminary phase (R-A32 b): face-up Upgrades leave the card, for the box.
pub fn preliminary_phase(state: &mut MatchState<Arena>, uid: usize) {
    if n_tokens(state, uid) == 0 {
        return;
    }
    let content = state.content.clone();
    let held = card_mut(state, uid);
    let expired: Vec<usize> = held
        .tokens
        .iter()
        .filter(|t| t.face_up && content.rewards[t.reward].kind == RewardKind::Upgrade)
        .map(|t| t.reward)
        .collect();
    if expired.is_empty() {
        return;
    }
    held.tokens
        .retain(|t| !(t.face_up && content.rewards[t.reward].kind == RewardKind::Upgrade));
    refresh(state, uid);
    if let Some(market) = state.rules.market.as_mut() {
        market.boxed.extend(expired);
    }
}

/// End phase: boosts for "this turn" that no spell used are lost.
pub fn activation_ended(state: &mut MatchState<Arena>, uid: usize) {
    let Some(held) = state.rules.cards.get_mut(uid).and_then(Option::as_mut) else {
        return;
    };
    if let Some(mods) = held.mods.as_mut()
        && (!mods.next_spell.is_empty() || mods.next_elemental != 0)
    {
        mods.next_spell.clear();
        mods.next_elemental = 0;
        if mods.empty() {
            held.mods = None;
        }
    }
}

/// A KO'd Krosmaster's tokens leave the game with it, for the box.
pub fn on_kos(state: &mut MatchState<Arena>, kos: &[usize]) {
    for &victim in kos {
        if n_tokens(state, victim) == 0 {
            continue;
        }
        let left = std::mem::take(&mut card_mut(state, victim).tokens);
        refresh(state, victim);
        if let Some(market) = state.rules.market.as_mut() {
            market
                .boxed
                .extend(left.iter().filter(|t| !t.secret()).map(|t| t.reward));
            market
                .hidden_box
                .extend(left.iter().filter(|t| t.secret()).map(|t| t.reward));
        }
    }
}
