//! Playing on a copy of the match (krosbalance/ai/rollout.py, engine/clone.py): the copy a side may
//! know (`MatchView.clone_state`), the rest of a team's turn from the middle of an activation, and
//! whole game turns, through the engine's own turn functions and Arena's hooks in the order Arena's
//! Timeline plays them (R-A30, R-A31).
//!
//! A rollout's players sit in `Seats` indexed by seat, as the engine asks them; the reference hands
//! its turn functions one controller, which is the one at the active seat here (a two-player search
//! never asks the other seat anything: the four-player choices are the only ones asked elsewhere).

use std::sync::Arc;

use crate::content::PieceKind;
use crate::engine::dice::Dice;
use crate::engine::legal::LegalActions;
use crate::engine::rules::{END, MatchRules};
use crate::engine::state::{FighterStats, MatchState};
use crate::engine::turn::{
    MAX_ACTIONS_PER_ACTIVATION, character_turn, end_activation, game_turn, perform,
};
use crate::rulesets::arena::{Arena, ArenaController};

use super::determinize::hide_from;

/// The players of a copy, by seat.
pub type Seats = Vec<Box<dyn ArenaController>>;

/// `MatchView(state, side).clone_state(dice)`: a copy that rolls `dice`, records nothing, keeps
/// no counters, holds none of the other partnerships' traps (R-A116, `hide_traps_from`) and deals
/// again the Demonic Rewards `side` has not seen (`hide_from`). Every field is listed: a new one
/// cannot be forgotten.
pub fn search_copy(state: &MatchState<Arena>, side: usize, dice: Dice) -> MatchState<Arena> {
    let fighters = state
        .fighters
        .iter()
        .map(|f| {
            let mut c = f.clone();
            c.stats = FighterStats::default();
            c
        })
        .collect();
    let mut copy = MatchState {
        board: Arc::clone(&state.board),
        content: Arc::clone(&state.content),
        ruleset: Arc::clone(&state.ruleset),
        opts: state.opts.clone(),
        rules: state.rules.clone(),
        dice,
        fighters,
        by_cell: state.by_cell.clone(),
        obstacles: state.obstacles,
        sight_blockers: state.sight_blockers,
        trees: state.trees,
        bushes: state.bushes,
        crates: state.crates,
        fixed_sight: state.fixed_sight,
        turn: state.turn,
        active_side: state.active_side,
        first_player: state.first_player,
        timeline: state.timeline.clone(),
        active: state.active,
        winner: state.winner,
        end_reason: state.end_reason,
        finished: state.finished,
        record: 0,
        events: Vec::new(),
        n_seats: state.n_seats,
        team_of: state.team_of.clone(),
        play_order: state.play_order.clone(),
        scenery_injuries: state.scenery_injuries.clone(),
        pending_bombs: state.pending_bombs.clone(),
        pending_kos: state.pending_kos.clone(),
        unsettled: state.unsettled,
        edges: state.edges.clone(),
        lock_holders: state.lock_holders.clone(),
        invisible: state.invisible,
        trap_at: state.trap_at.clone(),
        traps: state.traps,
    };
    crate::engine::pieces::hide_traps_from(&mut copy, state.team_of[side]); // R-A116
    hide_from(&mut copy, side);
    copy
}

/// `finish_activation`: the active `uid` acts until it ends its activation (the end phase
/// included), as `character_turn` would.
pub fn finish_activation(state: &mut MatchState<Arena>, uid: usize, players: &mut Seats) {
    let mut legal = Vec::with_capacity(64);
    for _ in 0..MAX_ACTIONS_PER_ACTIVATION {
        if state.finished || !state.fighters[uid].alive {
            break;
        }
        let action = players[state.active_side]
            .decide_action(state, &mut LegalActions::lazy(state, uid, &mut legal));
        if action.kind == END {
            break;
        }
        perform(state, uid, action, players);
    }
    end_activation(state, uid);
}

/// `finish_team_turn_after`: once `uid`'s activation has ended, everyone after it in the Timeline
/// order acts, then the turn ends as `game_turn` ends it and the victory check runs.
pub fn finish_team_turn_after(state: &mut MatchState<Arena>, uid: usize, players: &mut Seats) {
    let side = state.fighters[uid].side;
    let owner = state.fighters[uid].summoner.unwrap_or(uid);
    let mut started = false;
    let line = state.timeline[side].clone();
    for krosmaster in line {
        if state.finished {
            return;
        }
        if krosmaster == owner {
            started = true;
            if !state.fighters[krosmaster].summons.is_empty() {
                let mut tokens = creature_order(state, krosmaster, players);
                if uid != owner {
                    tokens = match tokens.iter().position(|&t| t == uid) {
                        Some(i) => tokens.split_off(i + 1),
                        None => Vec::new(),
                    };
                }
                creatures(state, &tokens, players);
            }
            continue;
        }
        if !started || !state.fighters[krosmaster].alive {
            continue;
        }
        character_turn(state, krosmaster, players);
        if !state.fighters[krosmaster].summons.is_empty() {
            let tokens = creature_order(state, krosmaster, players);
            creatures(state, &tokens, players);
        }
    }
    if state.finished {
        return;
    }
    state.scenery_injuries.fill(0); // R-A125, as at the end of game_turn
    Arena::end_turn(state, side);
    state.active_side = Arena::next_player(state, side);
    Arena::check_victory(state);
}

/// `play_turn`: one whole game turn of the side to play, then the victory check.
pub fn play_turn(state: &mut MatchState<Arena>, players: &mut Seats) {
    if state.finished {
        return;
    }
    game_turn(state, players);
    Arena::check_victory(state);
}

fn creatures(state: &mut MatchState<Arena>, tokens: &[usize], players: &mut Seats) {
    for &token in tokens {
        if state.finished {
            return;
        }
        if state.fighters[token].alive {
            character_turn(state, token, players);
        }
    }
}

/// timeline.py's `creature_order`: the summoner's creatures in play, in the order its player gives.
fn creature_order(state: &MatchState<Arena>, summoner: usize, players: &mut Seats) -> Vec<usize> {
    let creatures: Vec<usize> = state.fighters[summoner]
        .summons
        .iter()
        .copied()
        .filter(|&t| state.fighters[t].alive && state.fighters[t].kind == PieceKind::Creature)
        .collect();
    if creatures.len() < 2 {
        return creatures;
    }
    let order = players[state.active_side].order_creatures(state, summoner, &creatures);
    let (mut a, mut b) = (order.clone(), creatures);
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "creature order {order:?} is not an order of {b:?}");
    order
}

/// The seats of a rollout: `player` at `side`, and at the other seat a player the engine never
/// asks in a two-player match (the reference's turn functions are handed one controller).
pub fn seats(side: usize, player: crate::ai::planner::HeuristicAI) -> Seats {
    let mut player: Option<Box<dyn ArenaController>> = Some(Box::new(player));
    (0..2)
        .map(|seat| {
            if seat == side {
                player.take().expect("one player")
            } else {
                Box::new(Absent) as Box<dyn ArenaController>
            }
        })
        .collect()
}

/// The seat of a rollout that is never asked: asking it is a bug of the port (panics).
#[derive(Debug)]
pub struct Absent;

impl crate::engine::rules::Controller<Arena> for Absent {
    fn choose_action(
        &mut self,
        _state: &MatchState<Arena>,
        _legal: &[crate::engine::rules::Action],
    ) -> usize {
        unreachable!("a rollout asked the seat not to play for an action")
    }

    fn order_triggers(&mut self, _state: &MatchState<Arena>, _n: usize) -> Vec<usize> {
        unreachable!("a rollout asked the seat not to play to order triggers")
    }
}

impl ArenaController for Absent {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        _n: usize,
        _cells: &[crate::board::Cell],
    ) -> Vec<crate::board::Cell> {
        unreachable!("a rollout asked the seat not to play to deploy")
    }

    fn choose_tension(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        _raw: (u8, u8),
        _options: &[(u8, u8)],
    ) -> crate::rulesets::arena::tension::TensionChoice {
        unreachable!("a rollout asked the seat not to play for a tension roll")
    }

    fn choose_edge(&mut self, _state: &MatchState<Arena>, _side: usize, _n: usize) -> usize {
        unreachable!("a rollout asked the seat not to play for an edge")
    }

    fn order_creatures(
        &mut self,
        _state: &MatchState<Arena>,
        _summoner: usize,
        _creatures: &[usize],
    ) -> Vec<usize> {
        unreachable!("a rollout asked the seat not to play to order creatures")
    }

    fn choose_player(
        &mut self,
        _state: &MatchState<Arena>,
        _seat: usize,
        _purpose: crate::rulesets::arena::four_player::Purpose,
        _seats: &[usize],
    ) -> usize {
        unreachable!("a rollout asked the seat not to play to choose a player")
    }

    fn give_reward(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        _reward: usize,
        _candidates: &[usize],
    ) -> usize {
        unreachable!("a rollout asked the seat not to play to give a reward")
    }
}
