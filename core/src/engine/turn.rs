//! A player's game turn and each character's three phases (krosbalance/engine/turn.py), through
//! the ruleset's hooks; decisions are asked of the player.

use crate::content::{PieceKind, Power};
use crate::engine::combat::{cast, inflict};
use crate::engine::events::Event;
use crate::engine::instant::{end_match, settle};
use crate::engine::legal::LegalActions;
use crate::engine::movement::walk;
use crate::engine::rules::{Action, CAST, Controller, END, MOVE, Marker, MatchRules, Players};
use crate::engine::state::MatchState;

pub const MAX_ACTIONS_PER_ACTIVATION: usize = 400;

/// An impossible state or an illegal answer: the match cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError(pub String);

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MatchError {}

/// Preliminary, activation and end phases of one character (R-A32-R-A36).
pub fn character_turn<R: MatchRules>(
    state: &mut MatchState<R>,
    uid: usize,
    players: &mut Players<R>,
) {
    if !begin_activation(state, uid, players) {
        return;
    }
    let mut legal = Vec::with_capacity(64);
    let mut ended = false;
    for _ in 0..MAX_ACTIONS_PER_ACTIVATION {
        let action = players[state.active_side]
            .decide_action(state, &mut LegalActions::lazy(state, uid, &mut legal));
        if action.kind == END {
            ended = true;
            break;
        }
        perform(state, uid, action, players);
        if state.finished || !state.fighters[uid].alive {
            ended = true;
            break;
        }
    }
    assert!(
        ended,
        "#{uid} took more than {MAX_ACTIONS_PER_ACTIVATION} actions in one turn"
    );
    end_activation(state, uid);
}

/// Triggers in the order the player gives (R-A32, R-A36).
fn ordered<R: MatchRules>(
    state: &MatchState<R>,
    items: Vec<usize>,
    players: &mut Players<R>,
) -> Vec<usize> {
    if items.len() < 2 {
        return items;
    }
    if players.is_empty() {
        return items;
    }
    let order = players[state.active_side].order_triggers(state, items.len());
    let mut check = order.clone();
    check.sort_unstable();
    assert!(
        check.iter().copied().eq(0..items.len()),
        "trigger order {order:?} is not a permutation"
    );
    order.into_iter().map(|i| items[i]).collect()
}

/// The preliminary phase and the start of the activation phase; false when the character does not
/// get to act.
pub fn begin_activation<R: MatchRules>(
    state: &mut MatchState<R>,
    uid: usize,
    players: &mut Players<R>,
) -> bool {
    state.active = Some(uid);
    let turn = state.turn;
    let bombs: Vec<usize> = state.fighters[uid]
        .summons
        .iter()
        .copied()
        .filter(|&t| {
            let t = &state.fighters[t];
            t.kind == PieceKind::Bomb && t.alive && t.placed_turn < turn
        })
        .collect();
    if !bombs.is_empty() {
        for bomb in ordered(state, bombs, players) {
            if state.fighters[bomb].alive && !state.finished {
                inflict(state, None, bomb, 1, 0, true);
                settle(state, players);
            }
        }
    }
    if settle(state, players) || R::check_victory(state) || !state.fighters[uid].alive {
        state.active = None;
        return false;
    }
    R::preliminary_phase(state, uid);
    let f = &mut state.fighters[uid];
    f.mp = (f.base_mp + f.plus_mp - f.minus_mp).max(0);
    f.ap = (f.base_ap + f.plus_ap - f.minus_ap).max(0);
    f.plus_mp = 0;
    f.minus_mp = 0;
    f.plus_ap = 0;
    f.minus_ap = 0;
    f.turn_uses.clear();
    f.range_bonus = 0;
    f.blocked = false;
    f.acting = true;
    let (spec, mp, ap) = (f.spec, f.mp, f.ap);
    if state.full() {
        state.events.push(Event::CharacterTurnStarted {
            turn: state.turn,
            uid,
            spec,
            mp,
            ap,
        });
    }
    R::activation_started(state, uid);
    true
}

/// End phase: "this turn" effects expire; end-of-turn powers trigger (R-A36); unspent MP and AP
/// are lost (R-A11). Stimulus (R-A108) is the only end-of-turn power: one trigger, so no order is
/// asked of the player (`ordered` keeps a lone trigger), and it only adds markers, so the instant
/// it is settles nothing (the reference's `settle` after it finds nothing pending).
pub fn end_activation<R: MatchRules>(state: &mut MatchState<R>, uid: usize) {
    let f = &mut state.fighters[uid];
    f.acting = false;
    f.range_bonus = 0;
    f.mp = 0;
    f.ap = 0;
    if f.alive && !state.finished && f.powers & Power::Stimulus.bit() != 0 {
        stimulus(state, uid);
    }
    let f = &mut state.fighters[uid];
    if f.alive {
        f.stats.turns_alive += 1;
    }
    R::activation_ended(state, uid);
    state.active = None;
}

/// R-A108, Stimulus: every allied Krosmaster adjacent to the holder gains +1 MP or +1 AP (the
/// card's marker), a marker acting at the start of its next activation (R-A35).
fn stimulus<R: MatchRules>(state: &mut MatchState<R>, holder: usize) {
    let content = state.content.clone();
    let kind = if content.chars[state.fighters[holder].spec].stimulus_ap {
        Marker::PlusAp
    } else {
        Marker::PlusMp
    };
    let adjacent = state.board.neighbour_mask(state.fighters[holder].at());
    for ally in state.allied_krosmasters(holder) {
        let a = &state.fighters[ally];
        if ally != holder && a.alive && a.cell >= 0 && adjacent.contains(a.at()) {
            R::add_marker(state, ally, kind, 1);
        }
    }
}

/// Carry out one legal action: one instant, settled before the next decision.
pub fn perform<R: MatchRules>(
    state: &mut MatchState<R>,
    uid: usize,
    action: Action,
    players: &mut Players<R>,
) {
    match action.kind {
        MOVE => {
            walk(state, uid, action.target as u8);
        }
        CAST => {
            let sref = state.fighters[uid].spells[action.spell as usize];
            cast(state, uid, sref, action.target as u8, -1);
        }
        _ => R::perform_extra(state, uid, action),
    }
    settle(state, players);
}

/// One player's game turn.
pub fn game_turn<R: MatchRules>(state: &mut MatchState<R>, players: &mut Players<R>) {
    let side = state.active_side;
    state.turn += 1;
    if state.full() {
        state.events.push(Event::TurnStarted {
            turn: state.turn,
            side,
        });
    }
    R::start_turn(state, side, players);
    if state.finished {
        return;
    }
    R::play_characters(state, side, players);
    if state.finished {
        return;
    }
    state.scenery_injuries.fill(0);
    R::end_turn(state, side);
    state.active_side = R::next_player(state, side);
}

/// Play game turns until a partnership wins or the turn bound stops the match.
pub fn run_to_end<R: MatchRules>(state: &mut MatchState<R>, players: &mut Players<R>) {
    let limit = state.opts.turn_limit;
    while !state.finished {
        if state.turn >= limit {
            let winner = R::turn_limit_winner(state);
            end_match(state, winner, "turn_limit");
            break;
        }
        let side = state.active_side;
        debug_assert_eq!(side, state.active_side);
        game_turn(state, players);
        R::check_victory(state);
    }
}
