//! The Duel Pack's AIs (krosbalance/ai/duel, and the random AI's duel choices from
//! krosbalance/ai/random_ai.py): `random` here, `duel_brawler` in `brawler.rs`, and the search
//! `duel-lookahead` in `lookahead.rs` (its plans in `plans.rs`, its copies and rollouts in
//! `copy.rs`, its leaf evaluation in `evaluation.rs`).

pub mod brawler;
pub mod copy;
pub mod evaluation;
pub mod lookahead;
pub mod plans;

use crate::ai::RandomAI;
use crate::board::Cell;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rulesets::duel::ruleset::{DraftChoice, Duel, DuelController, RevealChoice};

impl Controller<Duel> for RandomAI {
    fn choose_action(&mut self, _state: &MatchState<Duel>, legal: &[Action]) -> usize {
        self.below(legal.len())
    }

    fn order_triggers(&mut self, _state: &MatchState<Duel>, n: usize) -> Vec<usize> {
        self.rng.permutation(n)
    }
}

impl DuelController for RandomAI {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        self.deployment(n, cells)
    }

    fn order_creatures(
        &mut self,
        _state: &MatchState<Duel>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        self.rng
            .permutation(creatures.len())
            .into_iter()
            .map(|i| creatures[i])
            .collect()
    }

    fn choose_duel_draft(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        choices: &[DraftChoice],
        _budget: i32,
    ) -> usize {
        self.below(choices.len())
    }

    fn choose_token_holder(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _token: usize,
        candidates: &[usize],
    ) -> usize {
        candidates[self.below(candidates.len())]
    }

    fn choose_duel_cell(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _level: i32,
        cells: &[Cell],
    ) -> Cell {
        cells[self.below(cells.len())]
    }

    /// A token at random, or none (-1), each as likely.
    fn choose_reveal(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        choices: &[RevealChoice],
    ) -> i64 {
        self.rng.integers(0, choices.len() as i64 + 1) - 1
    }
}
