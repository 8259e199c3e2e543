//! A static evaluation of a Duel Pack position (krosbalance/ai/duel/evaluation.py): a decided
//! duel, HP left and presence, held Duel Tokens, and rough KO threats, for one side against the
//! other, in injury units. Every float is worked out in the reference's order.

use crate::content::{PieceKind, SpellKind};
use crate::engine::rules::MatchRules;
use crate::engine::state::{Fighter, MatchState};
use crate::rulesets::duel::ruleset::Duel;

use super::brawler::token_worth;

pub const WIN_SCORE: f64 = 10_000.0;
pub const HP_WORTH: f64 = 1.0;
pub const PRESENCE: f64 = 4.0;
pub const CREATURE: f64 = 0.5;
pub const TOKEN_WORTH: f64 = 1.0;
pub const KO_WORTH: f64 = 10.0;
pub const THREAT_TO_MOVER: f64 = 0.25;
pub const THREAT_TO_OTHER: f64 = 0.5;

/// `evaluate`: how good `state` is for `side` (positive: ahead).
pub fn evaluate(state: &MatchState<Duel>, side: usize) -> f64 {
    if state.finished {
        return match state.winner {
            None => 0.0,
            Some(w) if w == side => WIN_SCORE,
            Some(_) => -WIN_SCORE,
        };
    }
    let mut value = 0.0;
    for f in &state.fighters {
        if !f.alive || f.cell < 0 {
            continue;
        }
        let sign = if f.side == side { 1.0 } else { -1.0 };
        let left = f.hp - f.injuries;
        match f.kind {
            PieceKind::Krosmaster => {
                value += sign
                    * (HP_WORTH * f64::from(left) + PRESENCE + TOKEN_WORTH * held_tokens(state, f));
                let weight = if f.side == state.active_side {
                    THREAT_TO_MOVER
                } else {
                    THREAT_TO_OTHER
                };
                value -= sign * weight * KO_WORTH * ko_risk(state, f, left);
            }
            PieceKind::Creature => {
                value += sign * (0.5 * HP_WORTH * f64::from(left) + CREATURE);
            }
            _ => {}
        }
    }
    value
}

/// `held_tokens`: bonus points of the tokens `f` holds (face up without their HP).
fn held_tokens(state: &MatchState<Duel>, f: &Fighter) -> f64 {
    let tokens = &state.ruleset.tokens;
    let mut points = 0.0;
    for &t in state.rules.hidden_of(f.uid) {
        points += token_worth(state, &tokens[t], f);
    }
    for &t in state.rules.shown_of(f.uid) {
        points += token_worth(state, &tokens[t], f) - f64::from(tokens[t].hp) / 2.0;
    }
    points
}

/// `ko_risk`: the other side's rough threat on the victim's cell against its HP left, capped at 1
/// (any ruleset: Blast's search weighs it too).
pub fn ko_risk<R: MatchRules>(state: &MatchState<R>, victim: &Fighter, left: i32) -> f64 {
    if left <= 0 {
        return 1.0;
    }
    let mut total = 0.0;
    for enemy in &state.fighters {
        if enemy.side == victim.side
            || !enemy.alive
            || enemy.cell < 0
            || enemy.kind != PieceKind::Krosmaster
        {
            continue;
        }
        let attacks: Vec<_> = enemy
            .spells
            .iter()
            .map(|&s| state.content.resolve(s))
            .filter(|s| s.kind == SpellKind::Attack && s.amount > 0)
            .collect();
        if attacks.is_empty() {
            continue;
        }
        let reach = enemy.base_mp + attacks.iter().map(|s| s.range_max).max().unwrap_or(0);
        if i32::from(state.board.distance(enemy.at(), victim.at())) <= reach {
            let most = attacks
                .iter()
                .map(|s| s.amount * 1.max(enemy.base_ap.div_euclid(s.ap_cost.max(1))))
                .max()
                .unwrap_or(0);
            total += f64::from(most) * 0.6;
        }
    }
    (total / f64::from(left)).min(1.0)
}
