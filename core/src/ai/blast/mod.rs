//! Krosmaster Blast's AIs (krosbalance/ai/blast, and the random AI's Blast choices from
//! krosbalance/ai/random_ai.py): `random` here, `blast_glyph` and `blast_brawler` in
//! `players.rs` over the planner (`planner.rs`) and their weights (`weights.rs`); the search
//! `blast-lookahead` in `lookahead.rs` (its plans in `plans.rs`, its leaf evaluation in
//! `evaluation.rs`; its copies and rollouts share `ai::duel::copy`).

pub mod evaluation;
pub mod lookahead;
pub mod planner;
pub mod plans;
pub mod players;
pub mod weights;

use crate::ai::RandomAI;
use crate::board::Cell;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rulesets::blast::{Blast, BlastController};

impl Controller<Blast> for RandomAI {
    fn choose_action(&mut self, _state: &MatchState<Blast>, legal: &[Action]) -> usize {
        self.below(legal.len())
    }

    fn order_triggers(&mut self, _state: &MatchState<Blast>, n: usize) -> Vec<usize> {
        self.rng.permutation(n)
    }
}

impl BlastController for RandomAI {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Blast>,
        _side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        self.deployment(n, cells)
    }

    fn choose_favor_slot(
        &mut self,
        _state: &MatchState<Blast>,
        _side: usize,
        _favor: usize,
    ) -> usize {
        self.below(2)
    }

    fn choose_next(
        &mut self,
        _state: &MatchState<Blast>,
        _side: usize,
        candidates: &[usize],
    ) -> usize {
        candidates[self.below(candidates.len())]
    }
}
