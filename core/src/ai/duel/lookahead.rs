//! `duel-lookahead` (krosbalance/ai/duel/lookahead.py): at the start of each Krosmaster's
//! activation, the duel planner's plans (`plans.rs`) are each played on `dice_sets` copies of the
//! duel (`copy.rs`), every plan meeting the same pre-drawn dice, the rest of the turn by the plan and
//! the planner, the opponent's reply (and `turns` more game turns) by `duel_brawler`, and judged by
//! `evaluation.rs`; the best mean plus `prior` times the planner's value is played. Every set-up
//! choice is `duel_brawler`'s. A budget is a count, never a time.

use crate::ai::search::lookahead::draw_faces;
use crate::board::Cell;
use crate::content::PieceKind;
use crate::engine::dice::Dice;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::duel::ruleset::{DraftChoice, Duel, DuelController, RevealChoice};

use super::brawler::{BRAWLER, DuelBrawler, Planner};
use super::copy::{duel_copy, finish_activation, finish_team_turn_after, play_turn};
use super::evaluation::evaluate;
use super::plans::{DuelPlan, candidate_plans, plan_action};

/// Raw faces pre-drawn per dice set.
pub const FACES_PER_SET: usize = 512;
/// Weight of the planner's value of a plan, added to its mean evaluation.
pub const PRIOR: f64 = 0.0;

/// `DuelLookaheadAI`'s knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelSearchSpec {
    pub walks: usize,
    pub dice_sets: usize,
    pub prior: f64,
    pub turns: usize,
    pub bands: usize,
}

/// `duel-lookahead`'s budget.
pub const DUEL_LOOKAHEAD: DuelSearchSpec = DuelSearchSpec {
    walks: 2,
    dice_sets: 8,
    prior: PRIOR,
    turns: 2,
    bands: 10,
};

impl DuelSearchSpec {
    /// The spec of a registry name: `duel-lookahead`, or the screening form
    /// `duel-lookahead{walks=4;dice_sets=2;prior=0.25;turns=0}` (a knob left out keeps its value).
    pub fn by_name(name: &str) -> Option<Self> {
        if name == "duel-lookahead" || name == "duel_lookahead" {
            return Some(DUEL_LOOKAHEAD);
        }
        let body = name.strip_prefix("duel-lookahead{")?.strip_suffix('}')?;
        let mut spec = DUEL_LOOKAHEAD;
        for knob in body.split(';').filter(|k| !k.is_empty()) {
            let (key, value) = knob.split_once('=')?;
            match key.trim() {
                "walks" => spec.walks = value.trim().parse().ok()?,
                "dice_sets" => spec.dice_sets = value.trim().parse().ok()?,
                "prior" => spec.prior = value.trim().parse().ok()?,
                "turns" => spec.turns = value.trim().parse().ok()?,
                "bands" => spec.bands = value.trim().parse().ok()?,
                _ => return None,
            }
        }
        (spec.walks >= 1 && spec.dice_sets >= 1).then_some(spec)
    }
}

/// The duel search player.
pub struct DuelLookahead {
    pub rng: Generator,
    pub spec: DuelSearchSpec,
    pub rollouts: u64,
    pub searches: u64,
    setup: DuelBrawler,
    plan: Option<DuelPlan>,
    key: (i64, usize),
}

impl DuelLookahead {
    pub fn new(rng: Generator, spec: DuelSearchSpec) -> Self {
        let setup = DuelBrawler::new(rng.clone()); // it never draws
        DuelLookahead {
            rng,
            spec,
            rollouts: 0,
            searches: 0,
            setup,
            plan: None,
            key: (-1, usize::MAX),
        }
    }

    /// `choose_plan`: the best mean evaluation over the shared dice sets plus the prior.
    fn choose_plan(
        &mut self,
        state: &MatchState<Duel>,
        uid: usize,
        plans: &[DuelPlan],
    ) -> DuelPlan {
        self.searches += 1;
        let dice: Vec<_> = (0..self.spec.dice_sets)
            .map(|_| draw_faces(&mut self.rng, FACES_PER_SET))
            .collect();
        let (mut best, mut best_value) = (plans[0], -1e18f64);
        for plan in plans {
            let mut sum = 0.0f64;
            for faces in &dice {
                sum += self.rollout(state, uid, plan, Dice::replay(faces.clone()));
            }
            let total = sum / dice.len() as f64 + self.spec.prior * plan.value;
            if total > best_value + 1e-9 {
                best = *plan;
                best_value = total;
            }
        }
        best
    }

    /// `_rollout`: `plan` on a copy, the rest of the turn, the opponent's reply (and `turns` more
    /// game turns by the planner on both sides); evaluated.
    fn rollout(
        &mut self,
        state: &MatchState<Duel>,
        uid: usize,
        plan: &DuelPlan,
        dice: Dice,
    ) -> f64 {
        self.rollouts += 1;
        let side = state.fighters[uid].side;
        let mut copy = duel_copy(state, side, dice);
        let mut players = self.seats(Some((side, uid, *plan)));
        finish_activation(&mut copy, uid, &mut players);
        finish_team_turn_after(&mut copy, uid, &mut players);
        let mut players = self.seats(None);
        for _ in 0..=self.spec.turns {
            play_turn(&mut copy, &mut players);
        }
        evaluate(&copy, side)
    }

    /// Both seats played by the planner; with `planned`, the plan for Krosmaster `uid` at `side`.
    fn seats(&self, planned: Option<(usize, usize, DuelPlan)>) -> Vec<Box<dyn DuelController>> {
        (0..2)
            .map(|seat| {
                let brawler = DuelBrawler::new(self.rng.clone()); // it never draws
                match planned {
                    Some((side, uid, plan)) if side == seat => {
                        Box::new(PlanPlayer { brawler, uid, plan }) as Box<dyn DuelController>
                    }
                    _ => Box::new(brawler) as Box<dyn DuelController>,
                }
            })
            .collect()
    }
}

impl Controller<Duel> for DuelLookahead {
    fn choose_action(&mut self, state: &MatchState<Duel>, legal: &[Action]) -> usize {
        let me = state.active.expect("an active character");
        if state.fighters[me].kind != PieceKind::Krosmaster {
            return Planner::new(state, &BRAWLER, me).decide(legal, true);
        }
        let key = (i64::from(state.turn), me);
        if key != self.key {
            self.key = key;
            let plans =
                candidate_plans(state, &BRAWLER, me, legal, self.spec.walks, self.spec.bands);
            let plan = if plans.len() == 1 {
                plans[0]
            } else {
                self.choose_plan(state, me, &plans)
            };
            self.plan = Some(plan);
        }
        let plan = self.plan.expect("a plan");
        plan_action(state, &BRAWLER, me, &plan, legal)
    }

    fn order_triggers(&mut self, state: &MatchState<Duel>, n: usize) -> Vec<usize> {
        self.setup.order_triggers(state, n)
    }
}

/// A rollout's player on the searching side: the plan for Krosmaster `uid`, the planner otherwise.
struct PlanPlayer {
    brawler: DuelBrawler,
    uid: usize,
    plan: DuelPlan,
}

impl Controller<Duel> for PlanPlayer {
    fn choose_action(&mut self, state: &MatchState<Duel>, legal: &[Action]) -> usize {
        let me = state.active.expect("an active character");
        if me == self.uid {
            return plan_action(state, &self.brawler.w, me, &self.plan, legal);
        }
        self.brawler.choose_action(state, legal)
    }

    fn order_triggers(&mut self, state: &MatchState<Duel>, n: usize) -> Vec<usize> {
        self.brawler.order_triggers(state, n)
    }
}

/// The set-up choices of a duel AI made by its inner `duel_brawler`.
macro_rules! duel_setup_by {
    ($ty:ty, $field:ident) => {
        impl DuelController for $ty {
            fn choose_deployment(
                &mut self,
                state: &MatchState<Duel>,
                side: usize,
                n: usize,
                cells: &[Cell],
            ) -> Vec<Cell> {
                self.$field.choose_deployment(state, side, n, cells)
            }

            fn order_creatures(
                &mut self,
                state: &MatchState<Duel>,
                summoner: usize,
                creatures: &[usize],
            ) -> Vec<usize> {
                self.$field.order_creatures(state, summoner, creatures)
            }

            fn choose_duel_draft(
                &mut self,
                state: &MatchState<Duel>,
                side: usize,
                choices: &[DraftChoice],
                budget: i32,
            ) -> usize {
                self.$field.choose_duel_draft(state, side, choices, budget)
            }

            fn choose_token_holder(
                &mut self,
                state: &MatchState<Duel>,
                side: usize,
                token: usize,
                candidates: &[usize],
            ) -> usize {
                self.$field
                    .choose_token_holder(state, side, token, candidates)
            }

            fn choose_duel_cell(
                &mut self,
                state: &MatchState<Duel>,
                side: usize,
                level: i32,
                cells: &[Cell],
            ) -> Cell {
                self.$field.choose_duel_cell(state, side, level, cells)
            }

            fn choose_reveal(
                &mut self,
                state: &MatchState<Duel>,
                side: usize,
                choices: &[RevealChoice],
            ) -> i64 {
                self.$field.choose_reveal(state, side, choices)
            }
        }
    };
}

duel_setup_by!(DuelLookahead, setup);
duel_setup_by!(PlanPlayer, brawler);
