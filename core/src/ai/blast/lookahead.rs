//! `blast-lookahead` (krosbalance/ai/blast/lookahead.py): at the start of each Krosmaster's
//! activation, the Blast planner's plans (`plans.rs`) are each played on `dice_sets` copies of the
//! match (`ai::duel::copy::plain_copy`: Blast's state hides nothing more), every plan meeting the
//! same pre-drawn dice: the rest of the player turn by the plan and the planner in Blast's order
//! (R-B10, R-B11), the opponent's player turn (and `turns` more) by `blast_brawler`, judged by
//! `evaluation.rs`; the best mean plus `prior` times the planner's value is played. Every set-up
//! choice is `blast_brawler`'s. A budget is a count, never a time.

use crate::ai::duel::copy::{finish_activation, plain_copy, play_turn};
use crate::ai::search::lookahead::draw_faces;
use crate::board::Cell;
use crate::content::PieceKind;
use crate::engine::dice::Dice;
use crate::engine::rules::{Action, Controller, MatchRules, Players};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::blast::ruleset::in_chosen_order;
use crate::rulesets::blast::{Blast, BlastController};

use super::evaluation::evaluate;
use super::planner::decide;
use super::plans::{BlastPlan, candidate_plans, plan_action};
use super::players::BlastAI;

/// Raw faces pre-drawn per dice set.
pub const FACES_PER_SET: usize = 512;
/// Weight of the planner's value of a plan, added to its mean evaluation.
pub const PRIOR: f64 = 0.0;

/// `BlastLookaheadAI`'s knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastSearchSpec {
    pub walks: usize,
    pub dice_sets: usize,
    pub prior: f64,
    pub turns: usize,
    pub bands: usize,
}

/// `blast-lookahead`'s budget.
pub const BLAST_LOOKAHEAD: BlastSearchSpec = BlastSearchSpec {
    walks: 2,
    dice_sets: 8,
    prior: PRIOR,
    turns: 2,
    bands: 10,
};

impl BlastSearchSpec {
    /// The spec of a registry name: `blast-lookahead`, or the screening form
    /// `blast-lookahead{walks=4;dice_sets=2;prior=0.25;turns=0}` (a knob left out keeps its value).
    pub fn by_name(name: &str) -> Option<Self> {
        if name == "blast-lookahead" || name == "blast_lookahead" {
            return Some(BLAST_LOOKAHEAD);
        }
        let body = name.strip_prefix("blast-lookahead{")?.strip_suffix('}')?;
        let mut spec = BLAST_LOOKAHEAD;
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

/// The Blast search player.
pub struct BlastLookahead {
    pub rng: Generator,
    pub spec: BlastSearchSpec,
    pub rollouts: u64,
    pub searches: u64,
    base: BlastAI,
    plan: Option<BlastPlan>,
    key: (i64, usize),
    /// Krosmasters of this player turn whose activation began.
    acted: Vec<usize>,
}

impl BlastLookahead {
    pub fn new(rng: Generator, spec: BlastSearchSpec) -> Self {
        BlastLookahead {
            rng,
            spec,
            rollouts: 0,
            searches: 0,
            base: BlastAI::brawler(),
            plan: None,
            key: (-1, usize::MAX),
            acted: Vec::new(),
        }
    }

    /// `choose_plan`: the best mean evaluation over the shared dice sets plus the prior.
    fn choose_plan(
        &mut self,
        state: &MatchState<Blast>,
        uid: usize,
        plans: &[BlastPlan],
    ) -> BlastPlan {
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

    /// `_rollout`: `plan` on a copy, the rest of the player turn, the opponent's (and `turns`
    /// more player turns by `blast_brawler` on both sides); evaluated.
    fn rollout(
        &mut self,
        state: &MatchState<Blast>,
        uid: usize,
        plan: &BlastPlan,
        dice: Dice,
    ) -> f64 {
        self.rollouts += 1;
        let side = state.fighters[uid].side;
        let mut copy = plain_copy(state, side, dice);
        let mut players = self.seats(Some((side, uid, *plan)));
        finish_player_turn(&mut copy, uid, &mut players, &self.acted);
        let mut players = self.seats(None);
        for _ in 0..=self.spec.turns {
            play_turn(&mut copy, &mut players);
        }
        evaluate(&copy, side)
    }

    /// Both seats played by `blast_brawler`; with `planned`, the plan for Krosmaster `uid` at `side`.
    fn seats(&self, planned: Option<(usize, usize, BlastPlan)>) -> Vec<Box<dyn BlastController>> {
        (0..2)
            .map(|seat| {
                let base = self.base.clone();
                match planned {
                    Some((side, uid, plan)) if side == seat => {
                        Box::new(PlanPlayer { base, uid, plan }) as Box<dyn BlastController>
                    }
                    _ => Box::new(base) as Box<dyn BlastController>,
                }
            })
            .collect()
    }
}

/// `finish_player_turn`: the rest of a Blast player turn from the middle of Krosmaster `uid`'s
/// activation: it finishes, then the side's Krosmasters not in `acted` in the player's order
/// (R-B10), then its Invocations (R-B11); then the turn ends as `game_turn` ends it and the victory
/// check runs.
pub fn finish_player_turn(
    state: &mut MatchState<Blast>,
    uid: usize,
    players: &mut Players<Blast>,
    acted: &[usize],
) {
    finish_activation(state, uid, players);
    let side = state.fighters[uid].side;
    if !state.finished {
        let krosmasters: Vec<usize> = state.timeline[side]
            .iter()
            .copied()
            .filter(|&f| state.fighters[f].alive && !acted.contains(&f))
            .collect();
        in_chosen_order(state, side, krosmasters, players);
    }
    if state.finished {
        return;
    }
    let invocations: Vec<usize> = state
        .fighters
        .iter()
        .filter(|f| f.side == side && f.kind != PieceKind::Krosmaster && f.alive && f.cell >= 0)
        .map(|f| f.uid)
        .collect();
    in_chosen_order(state, side, invocations, players);
    if state.finished {
        return;
    }
    state.scenery_injuries.fill(0); // R-A125, as at the end of game_turn
    Blast::end_turn(state, side);
    state.active_side = Blast::next_player(state, side);
    Blast::check_victory(state);
}

/// The index of `action` among `legal`.
fn index_of(legal: &[Action], action: Action) -> usize {
    legal
        .iter()
        .position(|&a| a == action)
        .unwrap_or_else(|| panic!("the Blast search chose {action:?}, not legal"))
}

impl Controller<Blast> for BlastLookahead {
    fn choose_action(&mut self, state: &MatchState<Blast>, legal: &[Action]) -> usize {
        let me = state.active.expect("an active character");
        let w = self.base.weights;
        if state.fighters[me].kind != PieceKind::Krosmaster {
            return index_of(legal, decide(state, legal, w));
        }
        let key = (i64::from(state.turn), me);
        if key != self.key {
            if key.0 != self.key.0 {
                self.acted.clear();
            }
            self.key = key;
            self.acted.push(me);
            let plans = candidate_plans(state, w, legal, self.spec.walks, self.spec.bands);
            let plan = if plans.len() == 1 {
                plans[0]
            } else {
                self.choose_plan(state, me, &plans)
            };
            self.plan = Some(plan);
        }
        let plan = self.plan.expect("a plan");
        index_of(legal, plan_action(state, w, &plan, legal))
    }

    fn order_triggers(&mut self, state: &MatchState<Blast>, n: usize) -> Vec<usize> {
        self.base.order_triggers(state, n)
    }
}

/// A rollout's player on the searching side: the plan for Krosmaster `uid`, the planner otherwise.
struct PlanPlayer {
    base: BlastAI,
    uid: usize,
    plan: BlastPlan,
}

impl Controller<Blast> for PlanPlayer {
    fn choose_action(&mut self, state: &MatchState<Blast>, legal: &[Action]) -> usize {
        let me = state.active.expect("an active character");
        if me == self.uid {
            return index_of(
                legal,
                plan_action(state, self.base.weights, &self.plan, legal),
            );
        }
        self.base.choose_action(state, legal)
    }

    fn order_triggers(&mut self, state: &MatchState<Blast>, n: usize) -> Vec<usize> {
        self.base.order_triggers(state, n)
    }
}

/// The set-up choices of a Blast search player made by its inner `blast_brawler`.
macro_rules! blast_setup_by {
    ($ty:ty) => {
        impl BlastController for $ty {
            fn choose_deployment(
                &mut self,
                state: &MatchState<Blast>,
                side: usize,
                n: usize,
                cells: &[Cell],
            ) -> Vec<Cell> {
                self.base.choose_deployment(state, side, n, cells)
            }

            fn choose_favor_slot(
                &mut self,
                state: &MatchState<Blast>,
                side: usize,
                favor: usize,
            ) -> usize {
                self.base.choose_favor_slot(state, side, favor)
            }

            fn choose_next(
                &mut self,
                state: &MatchState<Blast>,
                side: usize,
                candidates: &[usize],
            ) -> usize {
                self.base.choose_next(state, side, candidates)
            }
        }
    };
}

blast_setup_by!(BlastLookahead);
blast_setup_by!(PlanPlayer);
