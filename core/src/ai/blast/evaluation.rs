//! A static evaluation of a Krosmaster Blast position (krosbalance/ai/blast/evaluation.py): a
//! decided game, HP left and presence, rough KO threats (the duel search's `ko_risk`) and the glyph
//! lead against the favor clock, for one side against the other, in injury units. Every float is
//! worked out in the reference's order.

use crate::ai::duel::evaluation::ko_risk;
use crate::content::PieceKind;
use crate::engine::state::MatchState;
use crate::rulesets::blast::Blast;

pub const WIN_SCORE: f64 = 10_000.0;
pub const HP_WORTH: f64 = 1.0;
pub const PRESENCE: f64 = 4.0;
pub const INVOCATION: f64 = 0.5;
pub const KO_WORTH: f64 = 20.0;
pub const THREAT_TO_MOVER: f64 = 0.25;
pub const THREAT_TO_OTHER: f64 = 0.5;
pub const GLYPH_WORTH: f64 = 3.0;
pub const GLYPH_CLOCK: f64 = 12.0;

/// `evaluate`: how good `state` is for `side` (positive: ahead).
pub fn evaluate(state: &MatchState<Blast>, side: usize) -> f64 {
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
                value += sign * (HP_WORTH * f64::from(left) + PRESENCE);
                let weight = if f.side == state.active_side {
                    THREAT_TO_MOVER
                } else {
                    THREAT_TO_OTHER
                };
                value -= sign * weight * KO_WORTH * ko_risk(state, f, left);
            }
            PieceKind::Creature => {
                value += sign * (0.5 * HP_WORTH * f64::from(left) + INVOCATION);
            }
            _ => {}
        }
    }
    let bs = &state.rules;
    let lead = bs.glyphs(side) - bs.glyphs(1 - side);
    value += f64::from(lead) * (GLYPH_WORTH + GLYPH_CLOCK / (bs.deck.len() as f64 + 1.0));
    value
}
