//! A duel as one player may know it, to play on (`MatchView.clone_state` under the duel ruleset:
//! engine/clone.py, then rulesets/duel/state.py's `DuelState.hide_from`), and the rest of a turn
//! and whole game turns played on it (krosbalance/ai/rollout.py, in the Duel Pack's order: Arena's
//! Timeline, R-D40). Arena's copies (`ai::search::rollout`) are typed on Arena's state and seats;
//! these are the same steps on the duel's. What does not depend on the ruleset (`plain_copy`,
//! `finish_activation`, `play_turn`) is generic: Blast's search (`ai::blast::lookahead`) uses it
//! too.

use std::sync::Arc;

use crate::engine::dice::Dice;
use crate::engine::legal::LegalActions;
use crate::engine::rules::{Controller, END, MatchRules, Players};
use crate::engine::state::{FighterStats, MatchState};
use crate::engine::turn::{
    MAX_ACTIONS_PER_ACTIVATION, character_turn, end_activation, game_turn, perform,
};
use crate::rulesets::duel::LEVELS;
use crate::rulesets::duel::ruleset::{Duel, creature_order};

/// `MatchView(state, side).clone_state(dice)`: a copy that rolls `dice`, records nothing, keeps
/// no counters, holds none of the other partnership's traps (R-A116) and has every token `side`
/// has not seen replaced by a guess of its level (`hide_from`). Every field is listed.
pub fn duel_copy(state: &MatchState<Duel>, side: usize, dice: Dice) -> MatchState<Duel> {
    let mut copy = plain_copy(state, side, dice);
    hide_from(&mut copy, side);
    copy
}

/// engine/clone.py's `clone_state` for `side` under any two-player ruleset: a copy that rolls
/// `dice`, records nothing, keeps no counters and holds none of the other partnership's traps
/// (R-A116); the ruleset's own hiding is the caller's. Every field is listed.
pub fn plain_copy<R: MatchRules>(state: &MatchState<R>, side: usize, dice: Dice) -> MatchState<R> {
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
    copy
}

/// `DuelState.hide_from`: every token `side` has not seen (the supply's face-down tokens, those on
/// duel cells, the opponent's face-down ones) replaced by one of the same level it has not seen,
/// dealt in id order.
pub fn hide_from(state: &mut MatchState<Duel>, side: usize) {
    let ruleset = Arc::clone(&state.ruleset);
    let tokens = &ruleset.tokens;
    let ds = &mut state.rules;
    let mut seen: Vec<usize> = Vec::new();
    for f in &state.fighters {
        if f.side == side {
            seen.extend_from_slice(ds.hidden_of(f.uid));
        }
    }
    for shown in &ds.shown {
        seen.extend_from_slice(shown);
    }
    seen.extend(ds.face_up.iter().flatten().copied());
    let seen_ids: Vec<&str> = seen.iter().map(|&t| tokens[t].id.as_str()).collect();
    let mut unseen: Vec<std::collections::VecDeque<usize>> = (0..LEVELS)
        .map(|l| {
            let mut of: Vec<usize> = ruleset
                .of_level(l as i32 + 1)
                .into_iter()
                .filter(|&t| !seen_ids.contains(&tokens[t].id.as_str()))
                .collect();
            of.sort_by(|&a, &b| tokens[a].id.cmp(&tokens[b].id));
            of.into()
        })
        .collect();
    let mut guess = |t: usize| -> usize {
        unseen[(tokens[t].level - 1) as usize]
            .pop_front()
            .expect("an unseen token of the level")
    };
    let mut guessed: Vec<(usize, usize)> = Vec::new();
    for uid in 0..ds.hidden.len() {
        if state.fighters.get(uid).is_some_and(|f| f.side != side) {
            for slot in ds.hidden[uid].iter_mut() {
                let g = guess(*slot);
                guessed.push((*slot, g));
                *slot = g;
            }
        }
    }
    for held in ds.start_tokens.iter_mut() {
        for t in held.iter_mut() {
            if let Some(&(_, g)) = guessed
                .iter()
                .find(|(real, _)| tokens[*real].id == tokens[*t].id)
            {
                *t = g;
            }
        }
    }
    for slot in ds.on_cells.iter_mut().flatten() {
        *slot = guess(*slot);
    }
    for pile in ds.piles.iter_mut() {
        for t in pile.iter_mut() {
            *t = guess(*t);
        }
    }
}

/// `finish_activation`: the active `uid` acts until it ends its activation (the end phase
/// included).
pub fn finish_activation<R: MatchRules>(
    state: &mut MatchState<R>,
    uid: usize,
    players: &mut Players<R>,
) {
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
pub fn finish_team_turn_after(
    state: &mut MatchState<Duel>,
    uid: usize,
    players: &mut Players<Duel>,
) {
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
    Duel::end_turn(state, side);
    state.active_side = Duel::next_player(state, side);
    Duel::check_victory(state);
}

/// `play_turn`: one whole game turn of the side to play, then the victory check.
pub fn play_turn<R: MatchRules>(state: &mut MatchState<R>, players: &mut Players<R>) {
    if state.finished {
        return;
    }
    game_turn(state, players);
    R::check_victory(state);
}

fn creatures(state: &mut MatchState<Duel>, tokens: &[usize], players: &mut Players<Duel>) {
    for &token in tokens {
        if state.finished {
            return;
        }
        if state.fighters[token].alive {
            character_turn(state, token, players);
        }
    }
}
