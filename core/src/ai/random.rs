//! The random baseline (krosbalance/ai/random_ai.py, with the base class's deployment from
//! krosbalance/ai/base.py): every decision uniformly at random among the legal ones, drawn from the
//! AI's own stream exactly as the reference draws.

use crate::board::Cell;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::tension::TensionChoice;
use crate::rulesets::arena::{Arena, ArenaController};

#[derive(Clone, Debug)]
pub struct RandomAI {
    pub rng: Generator,
}

impl RandomAI {
    pub fn new(rng: Generator) -> Self {
        RandomAI { rng }
    }

    /// `int(rng.integers(n))`.
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.rng.integers(0, n as i64) as usize
    }

    /// The base class's deployment, every ruleset's: `permutation(len(cells))[: len(fighters)]`.
    pub(crate) fn deployment(&mut self, n: usize, cells: &[Cell]) -> Vec<Cell> {
        let order = self.rng.permutation(cells.len());
        order[..n].iter().map(|&i| cells[i]).collect()
    }
}

impl Controller<Arena> for RandomAI {
    fn choose_action(&mut self, _state: &MatchState<Arena>, legal: &[Action]) -> usize {
        self.below(legal.len())
    }

    fn order_triggers(&mut self, _state: &MatchState<Arena>, n: usize) -> Vec<usize> {
        self.rng.permutation(n)
    }
}

impl ArenaController for RandomAI {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        self.deployment(n, cells)
    }

    fn choose_tension(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        _raw: (u8, u8),
        options: &[(u8, u8)],
    ) -> TensionChoice {
        let faces = options[self.below(options.len())];
        let mut candidates: Vec<i64> = vec![-1];
        candidates.extend(
            state.timeline[side]
                .iter()
                .filter(|&&f| state.fighters[f].alive)
                .map(|&f| f as i64),
        );
        let a = candidates[self.below(candidates.len())];
        let b = candidates[self.below(candidates.len())];
        TensionChoice {
            faces,
            assigned: (a, b),
        }
    }

    fn choose_player(
        &mut self,
        _state: &MatchState<Arena>,
        _seat: usize,
        _purpose: crate::rulesets::arena::four_player::Purpose,
        seats: &[usize],
    ) -> usize {
        self.below(seats.len())
    }

    /// The base class's: the Krosmaster the token helps most (`ai.rewards.best_holder`).
    fn give_reward(
        &mut self,
        state: &MatchState<Arena>,
        _side: usize,
        reward: usize,
        candidates: &[usize],
    ) -> usize {
        let holders: Vec<crate::ai::rewards::Holder> = candidates
            .iter()
            .map(|&c| crate::ai::rewards::Holder::of(&state.content, &state.fighters[c]))
            .collect();
        candidates[crate::ai::rewards::best_holder(&state.content.rewards[reward], &holders)]
    }

    fn choose_edge(&mut self, _state: &MatchState<Arena>, _side: usize, n_edges: usize) -> usize {
        self.below(n_edges)
    }

    fn order_creatures(
        &mut self,
        _state: &MatchState<Arena>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        self.rng
            .permutation(creatures.len())
            .into_iter()
            .map(|i| creatures[i])
            .collect()
    }
}

impl crate::rulesets::arena::pregame::PregamePlayer for RandomAI {
    fn choose_draft(&mut self, visible: &[usize], _own: &[usize], _opponent: &[usize]) -> usize {
        self.below(visible.len())
    }

    fn choose_board(&mut self, n_boards: usize) -> usize {
        self.below(n_boards)
    }
}
