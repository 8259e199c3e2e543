//! The Arena ruleset (krosbalance/rulesets/arena/ruleset.py): every hook the engine calls.

use crate::board::Cell;
use crate::content::{Element, PieceKind, Power, SpellSpec};
use crate::engine::dice::{ARMOUR, CRITICAL, DODGE, LOCK};
use crate::engine::events::Event;
use crate::engine::instant::end_match;
use crate::engine::rules::{Action, Controller, EXTRA, Marker, MatchRules, Players, Scenery};
use crate::engine::state::{Fighter, MatchState};
use crate::engine::turn::character_turn;
use crate::rulesets::arena::economy;
use crate::rulesets::arena::four_player::{self, Purpose};
use crate::rulesets::arena::rewards;
use crate::rulesets::arena::tension::{TensionChoice, tension_roll};

pub const PICK_KAMA: u8 = EXTRA;
pub const BUY_GG: u8 = EXTRA + 1;

/// Arena's options the core reads (rulesets/arena/options.py; two players, no Demonic Rewards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaOptions {
    pub mode: Mode,
    pub four_player_gg: i32,
    pub four_player_wild_gg: i32,
    pub starting_gg: i32,
    pub wild_gg: i32,
    pub gg_price: i32,
    pub kama_reserve: i32,
    pub first_turn_tension: bool,
    pub zero_gg_loses: bool,
    /// `turn_limit_result = "gg"` (else "draw").
    pub turn_limit_gg: bool,
    pub lock_block_ends_turn: bool,
    pub bomb_armour_dice: i32,
    /// `simultaneous_zero_gg = "draw"` (else "play_on").
    pub zero_gg_draw: bool,
    /// Kamas a destroyed tree, bush and crate leave.
    pub scenery_loot: [i32; 3],
    /// The Demonic Reward market is in play (R-A23, R-A51-R-A54).
    pub demonic_rewards: bool,
    /// Kamas for a granite, jade and gold reward (R-A136).
    pub reward_prices: [i32; 3],
    /// `reward_refill = "same_pile"` (else "none").
    pub reward_refill_same_pile: bool,
    /// `reward_reveal = "staged"` (else "setup").
    pub reward_reveal_staged: bool,
    pub element_boost_waits: bool,
    /// The reward study's tokens held from the start, their prices in kamas and GG and named
    /// holders, and the purchase arms' tokens for sale, per side (reward ids, character ids).
    pub start_rewards: [Vec<String>; 2],
    pub start_reward_prices: [Vec<i32>; 2],
    pub start_reward_gg_prices: [Vec<i32>; 2],
    pub start_reward_holders: [Vec<String>; 2],
    pub purchasable_rewards: [Vec<String>; 2],
}

impl ArenaOptions {
    /// The market is set up (`rewards.wants_market`).
    pub fn wants_market(&self) -> bool {
        self.demonic_rewards
            || self.start_rewards.iter().any(|l| !l.is_empty())
            || self.purchasable_rewards.iter().any(|l| !l.is_empty())
    }

    /// Only the `purchasable_rewards` are for sale (`rewards.shop_only`).
    pub fn shop_only(&self) -> bool {
        !self.demonic_rewards && self.purchasable_rewards.iter().any(|l| !l.is_empty())
    }

    /// Whether this side may buy at all (`rewards.may_buy`).
    pub fn may_buy(&self, side: usize) -> bool {
        self.demonic_rewards
            || self
                .purchasable_rewards
                .get(side)
                .is_some_and(|l| !l.is_empty())
    }
}

/// Two players, or four (R-A152): each for himself, or seats 0 and 2 against 1 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    TwoPlayer,
    FreeForAll,
    TwoVsTwo,
}

/// The ruleset object: its options (immutable during a match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    pub opts: ArenaOptions,
}

/// Arena's own match state: GG and kamas (rulesets/arena/state.py).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaState {
    pub gg: Vec<i32>,
    pub wild_gg: i32,
    pub gg_removed: i32,
    pub kamas: Vec<i32>,
    pub kama_reserve: i32,
    pub board_kamas: Vec<i32>,
    pub gg_price: i32,
    /// The Demonic Reward market (R-A23), when rewards are in play.
    pub market: Option<super::rewards::Market>,
    /// Each fighter's reward card (by uid; None until a token first comes onto it).
    pub cards: Vec<Option<super::rewards::RewardCard>>,
}

impl ArenaState {
    /// The holdings at set-up (`ArenaState.start`).
    pub fn start(board: &crate::board::Board, opts: &ArenaOptions, seats: usize) -> Self {
        let (gg, wild) = if seats == 2 {
            (opts.starting_gg, opts.wild_gg)
        } else {
            (opts.four_player_gg, opts.four_player_wild_gg)
        };
        let mut board_kamas = vec![0i32; board.n_cells()];
        for &(cell, count) in &board.spec().kama_cells {
            board_kamas[usize::from(cell)] += i32::from(count);
        }
        for cell in board.demon_cells().iter() {
            board_kamas[usize::from(cell)] += 1;
        }
        let on_board: i32 = board_kamas.iter().sum();
        ArenaState {
            gg: vec![gg; seats],
            wild_gg: wild,
            gg_removed: 0,
            kamas: vec![0; seats],
            kama_reserve: (opts.kama_reserve - on_board).max(0),
            board_kamas,
            gg_price: opts.gg_price,
            market: None,
            cards: Vec::new(),
        }
    }
}

/// Arena's events (rulesets/arena/events.py).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaEvent {
    TensionRolled {
        turn: i32,
        side: usize,
        raw: (u8, u8),
        faces: (u8, u8),
        double: bool,
        assigned: (i64, i64),
    },
    GGChanged {
        turn: i32,
        side: usize,
        amount: i32,
        origin: &'static str,
        gg: Vec<i32>,
    },
    KamaPicked {
        turn: i32,
        uid: usize,
        cell: i32,
        amount: i32,
    },
    RewardBought {
        turn: i32,
        buyer: usize,
        holder: usize,
        reward: usize,
        rank: usize,
        visible: bool,
    },
    RewardRevealed {
        turn: i32,
        uid: usize,
        reward: usize,
        detail: &'static str,
    },
    TurnEnded {
        turn: i32,
        side: usize,
        gg: Vec<i32>,
        positions: Vec<(usize, usize, usize, i32, i32)>,
    },
}

/// What Arena asks of a player besides the engine's decisions (rulesets/arena/tension.py's
/// `ArenaController`).
pub trait ArenaController: Controller<Arena> {
    /// Distinct cells among `cells` for the side's `n` Krosmasters, in Timeline order (R-A25).
    fn choose_deployment(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell>;
    /// The faces and inspirations of a tension roll (R-A26-R-A28).
    fn choose_tension(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        raw: (u8, u8),
        options: &[(u8, u8)],
    ) -> TensionChoice;
    /// An index into the board's deployment zones (R-A19).
    fn choose_edge(&mut self, state: &MatchState<Arena>, side: usize, n_edges: usize) -> usize;
    /// The uids of `creatures` in the order they act (R-A31).
    fn order_creatures(
        &mut self,
        state: &MatchState<Arena>,
        summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize>;
    /// Four players (R-A155, R-A157): an index into `seats`, the player a choice names.
    fn choose_player(
        &mut self,
        state: &MatchState<Arena>,
        seat: usize,
        purpose: Purpose,
        seats: &[usize],
    ) -> usize;
    /// R-A52: the uid among `candidates` that receives a Demonic Reward held from the start.
    fn give_reward(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        reward: usize,
        candidates: &[usize],
    ) -> usize;
}

/// Enemy characters adjacent to the mover that may lock it (R-A44), neighbours in N/E/S/W order.
fn adjacent_lockers(state: &MatchState<Arena>, mover: &Fighter) -> Vec<usize> {
    state
        .board
        .neighbours(mover.at())
        .iter()
        .filter_map(|&c| state.piece_at(c))
        .filter(|&p| {
            let p = &state.fighters[p];
            p.alive && p.team != mover.team && p.is_character() && !p.has(Power::Tiny)
        })
        .collect()
}

#[inline]
fn dice_for(f: &Fighter, power: Power) -> i32 {
    if f.has(power) { 2 } else { 1 }
}

impl MatchRules for Arena {
    type State = ArenaState;
    type Event = ArenaEvent;
    type Player = dyn ArenaController;

    fn start_turn(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        if state.rules.market.is_some() {
            rewards::turn_started(state);
        }
        if state.turn != 1 || state.ruleset.opts.first_turn_tension {
            tension_roll(state, side, players);
        }
    }

    /// The Timeline left to right, each Krosmaster followed by its creatures (R-A30, R-A31).
    fn play_characters(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        let line = state.timeline[side].clone();
        for krosmaster in line {
            if state.finished {
                return;
            }
            if !state.fighters[krosmaster].alive {
                continue;
            }
            character_turn(state, krosmaster, players);
            if !state.fighters[krosmaster].summons.is_empty() {
                for token in creature_order(state, krosmaster, players) {
                    if state.finished {
                        return;
                    }
                    if state.fighters[token].alive {
                        character_turn(state, token, players);
                    }
                }
            }
        }
    }

    fn end_turn(state: &mut MatchState<Self>, side: usize) {
        if state.summary() {
            let gg = state.rules.gg.clone();
            let positions = crate::engine::pieces::positions(state);
            state.events.push(Event::Ruleset(ArenaEvent::TurnEnded {
                turn: state.turn,
                side,
                gg,
                positions,
            }));
        }
    }

    fn next_player(state: &MatchState<Self>, side: usize) -> usize {
        if state.n_seats == 2 {
            return 1 - side;
        }
        let order = &state.play_order;
        let at = order
            .iter()
            .position(|&s| s == side)
            .expect("a seat in play");
        for step in 1..=order.len() {
            let seat = order[(at + step) % order.len()];
            if state.seat_standing(seat) {
                return seat;
            }
        }
        order[(at + 1) % order.len()]
    }

    fn extra_actions(state: &MatchState<Self>, uid: usize, actions: &mut Vec<Action>) {
        let f = &state.fighters[uid];
        if f.kind == PieceKind::Krosmaster && f.ap >= 1 {
            let cell = f.at();
            if state.rules.board_kamas[usize::from(cell)] > 0 {
                actions.push(Action::new(PICK_KAMA, -1, -1));
            }
            if state.board.demon_cells().contains(cell)
                && state.rules.kamas[f.side] >= state.rules.gg_price
            {
                actions.push(Action::new(BUY_GG, -1, -1));
            }
        }
        if state.rules.market.is_some() || rewards::has_card(state, uid) {
            rewards::add_actions(state, uid, actions);
        }
    }

    fn perform_extra(state: &mut MatchState<Self>, uid: usize, action: Action) {
        if action.kind == rewards::BUY_REWARD || action.kind == rewards::REVEAL_REWARD {
            rewards::perform(state, uid, action);
        } else if action.kind == PICK_KAMA {
            economy::pick_kama(state, uid);
        } else {
            economy::buy_gg(state, uid);
        }
    }

    /// Each adjacent enemy may lock a walking character (R-A41-R-A47).
    fn may_leave(state: &mut MatchState<Self>, mover: usize) -> bool {
        if state.fighters[mover].has(Power::Tiny) {
            return true;
        }
        for locker in adjacent_lockers(state, &state.fighters[mover]) {
            let n = dice_for(&state.fighters[locker], Power::Lock);
            let (lock, _) = state.dice.count_successes(n, LOCK);
            let mut dodge = 0;
            if lock != 0 {
                let n = dice_for(&state.fighters[mover], Power::Dodge);
                dodge = state.dice.count_successes(n, DODGE).0;
            }
            let blocked = lock > dodge;
            if state.full() {
                state.events.push(Event::LockRolled {
                    turn: state.turn,
                    mover,
                    locker,
                    lock,
                    dodge,
                    blocked,
                });
            }
            if blocked {
                let ends = state.ruleset.opts.lock_block_ends_turn;
                let m = &mut state.fighters[mover];
                m.mp = 0;
                if ends {
                    m.ap = 0;
                    m.acting = false;
                }
                m.blocked = true;
                m.stats.times_blocked += 1;
                return false;
            }
        }
        true
    }

    /// Markers wait for the piece's next activation; minus markers never exceed its printed MP or
    /// AP (R-A33-R-A35).
    fn add_marker(state: &mut MatchState<Self>, piece: usize, marker: Marker, amount: i32) {
        let p = &mut state.fighters[piece];
        match marker {
            Marker::PlusMp => p.plus_mp += amount,
            Marker::MinusMp => p.minus_mp = (p.minus_mp + amount).min(p.base_mp),
            Marker::PlusAp => p.plus_ap += amount,
            Marker::MinusAp => p.minus_ap = (p.minus_ap + amount).min(p.base_ap),
        }
    }

    /// One Critical roll for the whole spell; neutral spells never roll two dice (R-A60, R-A79).
    fn attack_roll(state: &mut MatchState<Self>, caster: usize, spell: &SpellSpec) -> i32 {
        let n = if spell.element == Element::Neutral {
            1
        } else {
            dice_for(&state.fighters[caster], Power::Critical)
        };
        let (successes, faces) = state.dice.count_successes(n, CRITICAL);
        if state.full() {
            state.events.push(Event::DiceRolled {
                turn: state.turn,
                uid: caster,
                roll: "critical",
                faces,
                successes,
            });
        }
        successes
    }

    /// The target's Armour roll (R-A61); Pierce Armour removes one die; bombs roll
    /// `bomb_armour_dice` (R-A115).
    fn defence_roll(state: &mut MatchState<Self>, target: usize, pierce: bool) -> i32 {
        let t = &state.fighters[target];
        let mut n = if t.kind == PieceKind::Bomb {
            state.ruleset.opts.bomb_armour_dice
        } else {
            dice_for(t, Power::Armour)
        };
        if pierce {
            n -= 1;
        }
        if n <= 0 {
            return 0;
        }
        let (successes, faces) = state.dice.count_successes(n, ARMOUR);
        if state.full() {
            state.events.push(Event::DiceRolled {
                turn: state.turn,
                uid: target,
                roll: "armour",
                faces,
                successes,
            });
        }
        successes
    }

    fn spell_bonus(
        state: &mut MatchState<Self>,
        caster: usize,
        spell: &SpellSpec,
        consume: bool,
    ) -> (i32, bool) {
        if !rewards::has_card(state, caster) {
            return (0, false);
        }
        rewards::spell_bonus(state, caster, spell, consume)
    }

    fn preliminary_phase(state: &mut MatchState<Self>, fighter: usize) {
        if rewards::has_card(state, fighter) {
            rewards::preliminary_phase(state, fighter);
        }
    }

    fn activation_ended(state: &mut MatchState<Self>, fighter: usize) {
        if rewards::has_card(state, fighter) {
            rewards::activation_ended(state, fighter);
        }
    }

    fn on_scenery_destroyed(state: &mut MatchState<Self>, cell: usize, kind: Scenery) {
        let loot = state.ruleset.opts.scenery_loot[kind as usize];
        economy::drop_loot(state, cell, loot);
    }

    fn on_kos(state: &mut MatchState<Self>, kos: &[usize], players: &mut Players<Self>) {
        if state.rules.market.is_some() {
            rewards::on_kos(state, kos);
        }
        if state.n_seats == 2 {
            economy::gg_for_kos(state, kos);
        } else {
            four_player::gg_for_kos(state, kos, players);
        }
    }

    /// R-A132 for two players (`ArenaRuleset.check_victory`).
    fn check_victory(state: &mut MatchState<Self>) -> bool {
        if state.finished {
            return true;
        }
        if state.n_seats != 2 {
            return four_player::check_victory(state);
        }
        let standing0 = state.seat_standing(0);
        let standing1 = state.seat_standing(1);
        if standing0 != standing1 {
            end_match(state, Some(if standing0 { 0 } else { 1 }), "last_standing");
            return true;
        }
        let opts = &state.ruleset.opts;
        let (zero_loses, zero_draw) = (opts.zero_gg_loses, opts.zero_gg_draw);
        if state.rules.wild_gg == 0 || zero_loses {
            let (holding0, holding1) = (state.rules.gg[0] > 0, state.rules.gg[1] > 0);
            if holding0 != holding1 {
                end_match(state, Some(if holding0 { 0 } else { 1 }), "gg");
                return true;
            }
            if !holding0 && standing0 && zero_draw {
                end_match(state, None, "gg_exhausted");
                return true;
            }
        }
        if !standing0 {
            end_match(state, None, "mutual_ko");
            return true;
        }
        false
    }

    fn turn_limit_winner(state: &MatchState<Self>) -> Option<usize> {
        if state.n_seats != 2 {
            return four_player::turn_limit_winner(state);
        }
        economy::turn_limit_winner(state)
    }
}

/// The summoner's creatures in play, in the order its player chooses (R-A31).
fn creature_order(
    state: &MatchState<Arena>,
    summoner: usize,
    players: &mut Players<Arena>,
) -> Vec<usize> {
    let creatures: Vec<usize> = state.fighters[summoner]
        .summons
        .iter()
        .copied()
        .filter(|&t| {
            let t = &state.fighters[t];
            t.alive && t.kind == PieceKind::Creature
        })
        .collect();
    if creatures.len() < 2 {
        return creatures;
    }
    let order = players[state.active_side].order_creatures(state, summoner, &creatures);
    let (mut a, mut b) = (order.clone(), creatures.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(
        a, b,
        "creature order {order:?} is not an order of {creatures:?}"
    );
    order
}
