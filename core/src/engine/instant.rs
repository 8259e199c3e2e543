//! The same instant (krosbalance/engine/instant.py): KOs, their consequences and victory settle
//! together when an instant ends.

use crate::content::PieceKind;
use crate::engine::combat::explode_pending_bombs;
use crate::engine::pieces::lift;
use crate::engine::rules::{MatchRules, Players};
use crate::engine::state::MatchState;

/// End the current instant; whether the match is over.
pub fn settle<R: MatchRules>(state: &mut MatchState<R>, players: &mut Players<R>) -> bool {
    if !state.pending_bombs.is_empty() {
        explode_pending_bombs(state);
    }
    if !state.unsettled {
        return state.finished;
    }
    state.unsettled = false;
    let kos = std::mem::take(&mut state.pending_kos);
    if !kos.is_empty() {
        for &victim in &kos {
            lift(state, victim);
            if state.fighters[victim].kind == PieceKind::Krosmaster {
                let tokens = state.fighters[victim].summons.clone();
                for token in tokens {
                    if state.fighters[token].alive {
                        state.fighters[token].alive = false;
                        lift(state, token);
                    }
                }
            }
        }
        R::on_kos(state, &kos, players);
    }
    R::check_victory(state);
    state.finished
}

/// Finish the match once (engine/outcome.py's `end_match`).
pub fn end_match<R: MatchRules>(
    state: &mut MatchState<R>,
    winner: Option<usize>,
    reason: &'static str,
) {
    if state.finished {
        return;
    }
    state.finished = true;
    state.winner = winner;
    state.end_reason = reason;
    if state.summary() {
        state.events.push(crate::engine::events::Event::MatchEnded {
            turn: state.turn,
            winner: winner.map_or(-1, |w| w as i64),
            reason,
        });
    }
}
