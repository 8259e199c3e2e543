//! The Blast personalities (krosbalance/ai/blast/players.py): `blast_glyph` races for glyph cells
//! against the favor clock, `blast_brawler` hunts the KO; both are the planner with their weights.

use crate::ai::blast::planner::{PlannerTables, decide_with, next_to_act};
use crate::ai::blast::weights::{BRAWLER, BlastWeights, GLYPH};
use crate::board::Cell;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rulesets::blast::cards::BonusEffect;
use crate::rulesets::blast::ruleset::favor_in;
use crate::rulesets::blast::{Blast, BlastController};

/// A heuristic Blast player (`BlastAI`); it draws nothing from its stream.
#[derive(Clone, Debug)]
pub struct BlastAI {
    pub weights: BlastWeights,
    /// the planner's tables, kept between decisions (their room, not their contents)
    tables: PlannerTables,
}

impl BlastAI {
    pub fn glyph() -> Self {
        BlastAI {
            weights: GLYPH,
            tables: PlannerTables::default(),
        }
    }

    pub fn brawler() -> Self {
        BlastAI {
            weights: BRAWLER,
            tables: PlannerTables::default(),
        }
    }
}

/// players.py's `EFFECT_WORTH`: a plain worth of each bonus effect, for choosing which favor a
/// new one covers (R-B9).
fn effect_worth(effect: &BonusEffect) -> f64 {
    match effect {
        BonusEffect::CaptureTarget => 4.0,
        BonusEffect::Summon { .. } | BonusEffect::DamageTarget { .. } => 3.0,
        BonusEffect::DamageAround { .. }
        | BonusEffect::NextSpellDamage { .. }
        | BonusEffect::MarkerSelf { .. }
        | BonusEffect::Leap => 2.0,
        BonusEffect::HealSelf { .. } | BonusEffect::MinusMarkerTarget { .. } => 1.5,
        BonusEffect::PushTarget { .. } | BonusEffect::PlaceTerrain { .. } => 1.0,
    }
}

impl Controller<Blast> for BlastAI {
    fn choose_action(&mut self, state: &MatchState<Blast>, legal: &[Action]) -> usize {
        let action = decide_with(state, legal, self.weights, &mut self.tables);
        legal
            .iter()
            .position(|&a| a == action)
            .unwrap_or_else(|| panic!("the Blast planner chose {action:?}, not legal"))
    }

    /// R-A32, R-A36: triggers resolve in the order listed.
    fn order_triggers(&mut self, _state: &MatchState<Blast>, n: usize) -> Vec<usize> {
        (0..n).collect()
    }
}

impl BlastController for BlastAI {
    /// The deployment cells nearest the glyph cells (ties: the board's cell order).
    fn choose_deployment(
        &mut self,
        state: &MatchState<Blast>,
        _side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        let glyphs = state.rules.glyph_cells;
        let board = &state.board;
        let mut ranked = cells.to_vec();
        ranked.sort_by_key(|&c| {
            let nearest = glyphs
                .iter()
                .map(|g| board.distance(c, g))
                .min()
                .unwrap_or(0);
            (nearest, c)
        });
        ranked.truncate(n);
        ranked
    }

    /// R-B9: cover the favor worth less (an empty slot first).
    fn choose_favor_slot(
        &mut self,
        state: &MatchState<Blast>,
        _side: usize,
        _favor: usize,
    ) -> usize {
        let worth = |slot: usize| -> f64 {
            match favor_in(state, slot) {
                None => -1.0,
                Some(f) => {
                    let mut total = 0.0;
                    for e in &f.action.effects {
                        total += effect_worth(e);
                    }
                    total
                }
            }
        };
        let (a, b) = (worth(0), worth(1));
        if b < a { 1 } else { 0 }
    }

    fn choose_next(
        &mut self,
        state: &MatchState<Blast>,
        side: usize,
        candidates: &[usize],
    ) -> usize {
        next_to_act(state, side, candidates)
    }
}
