//! The search AIs (krosbalance/ai/plan_choice.py, lookahead.py, mcts.py): at the start of each
//! Krosmaster's activation the heuristic (`base`) proposes its best plans, a search judges them by
//! rollouts on copies of the match, and the heuristic replays the chosen plan. Creatures,
//! deployment, tension and every other choice are the heuristic's.
//!
//! The whole search runs here: copies (`rollout::search_copy`), the rest of the team's turn by a
//! fork of the base and the opponent's reply by a fork of `model` (the kiter), the leaf evaluation
//! (`evaluation`), determinized worlds (`determinize`). The AI's stream draws the dice sets and the
//! worlds' deal seeds exactly as the reference's numpy calls do; a budget is a count, never a time.

pub mod determinize;
pub mod evaluation;
pub mod lookahead;
pub mod mcts;
pub mod rollout;

use std::sync::Arc;

use crate::ai::plan_search::Plan;
use crate::ai::planner::HeuristicAI;
use crate::ai::scoring::Geometry;
use crate::board::Cell;
use crate::content::PieceKind;
use crate::engine::legal::LegalActions;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::four_player::Purpose;
use crate::rulesets::arena::tension::TensionChoice;
use crate::rulesets::arena::{Arena, ArenaController};

/// How the plans are judged: lookahead's dice sets, or mcts's worlds by successive halving.
#[derive(Clone, Debug)]
pub enum Budget {
    /// `LookaheadAI(candidates, dice_sets)`.
    Lookahead { dice_sets: usize, prior: f64 },
    /// `MCTSAI(candidates, schedule, prior, keep_base, proof, confirm, confirm_turns, confirm_max,
    /// confirm_step, confirm_band)`.
    Mcts {
        schedule: Vec<usize>,
        prior: f64,
        keep_base: bool,
        /// With `keep_base`: another plan replaces the base's only when its paired advantage is
        /// this many standard errors above zero (0: when it is better at all).
        proof: f64,
        /// With `keep_base`: the fresh worlds on which the halving's winner and the base are
        /// compared before the winner is played (0: none; the test is then made on the halving's).
        confirm: usize,
        /// With `confirm`: the game turns each confirming rollout plays after the reply.
        confirm_turns: usize,
        /// With `confirm`: the most fresh worlds a sequential confirmation meets (0: `confirm`
        /// only); more are drawn while the test is a close call.
        confirm_max: usize,
        /// With `confirm_max`: the fresh worlds drawn at a time.
        confirm_step: usize,
        /// With `confirm_max`: a close call is a paired mean less than this many standard errors
        /// from the margin.
        confirm_band: f64,
    },
}

/// A search AI: how many plans its base heuristic offers, how they are judged, the base's name
/// and the name of the heuristic that models the opponent in the rollouts.
#[derive(Clone, Debug)]
pub struct SearchSpec {
    pub candidates: usize,
    pub budget: Budget,
    pub base: String,
    pub model: String,
    /// Further models of the opponent's reply (`MCTSAI.replies`), by heuristic name.
    pub replies: Vec<String>,
    /// Further heuristics whose `alt_plans` best plans join the base's (`MCTSAI.alternatives`).
    pub alternatives: Vec<String>,
    pub alt_plans: usize,
    /// Four players (`LookaheadAI.four_players`): how the leaf sets the other partnerships against
    /// one's own (`against`); None: two-player matches only.
    pub four: Option<evaluation::Against>,
    /// Four players, free-for-all only: the leaf's and the rollout's knobs (`evaluation::Ffa`).
    pub ffa: evaluation::Ffa,
}

/// The search AIs by registry name (`krosbalance/ai/registry.py`); also the screening form
/// `mcts{base=kiter-race;model=kiter;replies=kiter-race;candidates=6;schedule=2-4-8;prior=0.5;keep_base=1;alternatives=kiter+objective;alt_plans=2}`
/// (`krosbalance.tools.search_screen --core`: any knob left out keeps `mcts`'s value).
pub fn search_spec(name: &str) -> Option<SearchSpec> {
    let mcts = |base: &str, model: &str, keep_base: bool| SearchSpec {
        candidates: mcts::CANDIDATES,
        budget: Budget::Mcts {
            schedule: mcts::SCHEDULE.to_vec(),
            prior: mcts::PRIOR,
            keep_base,
            proof: 0.0,
            confirm: 0,
            confirm_turns: 0,
            confirm_max: 0,
            confirm_step: mcts::CONFIRM_STEP,
            confirm_band: mcts::CONFIRM_BAND,
        },
        base: base.to_string(),
        model: model.to_string(),
        replies: Vec::new(),
        alternatives: Vec::new(),
        alt_plans: 1,
        four: None,
        ffa: evaluation::Ffa::default(),
    };
    let lookahead = |candidates: usize, dice_sets: usize| SearchSpec {
        candidates,
        budget: Budget::Lookahead {
            dice_sets,
            prior: lookahead::PRIOR,
        },
        base: "kiter".to_string(),
        model: MODEL.to_string(),
        replies: Vec::new(),
        alternatives: Vec::new(),
        alt_plans: 1,
        four: None,
        ffa: evaluation::Ffa::default(),
    };
    Some(match name {
        "lookahead-fast" => lookahead(3, 1),
        "lookahead" => lookahead(4, 2),
        "mcts" => mcts("kiter", MODEL, false),
        "mcts-2" => mcts("kiter-2", MODEL, false),
        "mcts-race" => mcts("kiter-race", MODEL, false),
        // issue 39, item 4 (reports/ai-ladder-connected/NOTES-2026-12-07-stronger-ai-2.md)
        "mcts-deep" => SearchSpec {
            candidates: 16,
            budget: Budget::Mcts {
                schedule: vec![4, 8, 16, 32],
                prior: 0.0,
                keep_base: true,
                proof: 0.0,
                confirm: 0,
                confirm_turns: 0,
                confirm_max: 0,
                confirm_step: mcts::CONFIRM_STEP,
                confirm_band: mcts::CONFIRM_BAND,
            },
            alternatives: ["kiter", "focus_fire", "objective"]
                .map(str::to_string)
                .to_vec(),
            ..mcts("kiter-race", "kiter-race", true)
        },
        // issue 39, item 4 (reports/ai-ladder-connected/NOTES-2026-12-07-fair-judge.md)
        "mcts-fair" => {
            let mut spec = search_spec("mcts-deep")?;
            if let Budget::Mcts {
                confirm,
                confirm_turns,
                ..
            } = &mut spec.budget
            {
                (*confirm, *confirm_turns) = (16, 10);
            }
            spec
        }
        // issue 39, item 4 (reports/ai-ladder-connected/NOTES-2026-12-07-sequential-confirmation.md)
        "mcts-sure" => {
            let mut spec = search_spec("mcts-deep")?;
            if let Budget::Mcts {
                proof,
                confirm,
                confirm_turns,
                confirm_max,
                confirm_step,
                ..
            } = &mut spec.budget
            {
                (*proof, *confirm, *confirm_turns) = (1.645, 16, 20);
                (*confirm_max, *confirm_step) = (64, 16);
            }
            spec
        }
        // four-player Arena (reports/ai-ladder-arena-4p/NOTES-2026-12-07-four-player-search.md)
        "lookahead-4p" => SearchSpec {
            base: "kiter-2".to_string(),
            four: Some(evaluation::Against::Max),
            // free-for-all (reports/ai-ladder-arena-4p/NOTES-2026-12-07-ffa-search.md)
            ffa: evaluation::Ffa {
                rounds: 2,
                dice_sets: 2,
                own: 1.5,
            },
            ..lookahead(6, 4)
        },
        _ => return screened(name).or_else(|| screened_four(name)),
    })
}

/// The screening form of `lookahead-4p`: `lookahead-4p{base=...;model=...;candidates=6;dice_sets=4;against=max;ffa_rounds=2;ffa_dice_sets=2;ffa_own=1.5}`
/// (any knob left out keeps `lookahead-4p`'s value), or None when `name` is not one.
fn screened_four(name: &str) -> Option<SearchSpec> {
    let body = name.strip_prefix("lookahead-4p{")?.strip_suffix('}')?;
    let mut spec = search_spec("lookahead-4p")?;
    for pair in body.split(';').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=')?;
        match key {
            "base" => spec.base = value.to_string(),
            "model" => spec.model = value.to_string(),
            "candidates" => spec.candidates = value.parse().ok().filter(|&n: &usize| n >= 1)?,
            "dice_sets" => {
                if let Budget::Lookahead { dice_sets, .. } = &mut spec.budget {
                    *dice_sets = value.parse().ok().filter(|&n: &usize| n >= 1)?;
                }
            }
            "prior" => {
                if let Budget::Lookahead { prior, .. } = &mut spec.budget {
                    *prior = value.parse().ok()?;
                }
            }
            "against" => spec.four = Some(evaluation::Against::parse(value)?),
            "ffa_own" => spec.ffa.own = value.parse().ok()?,
            "ffa_rounds" => spec.ffa.rounds = value.parse().ok().filter(|&n: &usize| n >= 1)?,
            "ffa_dice_sets" => spec.ffa.dice_sets = value.parse().ok()?,
            _ => return None,
        }
    }
    Some(spec)
}

/// The screening form of [`search_spec`]: `mcts{knob=value;...}`, or None when `name` is not one.
fn screened(name: &str) -> Option<SearchSpec> {
    let body = name.strip_prefix("mcts{")?.strip_suffix('}')?;
    let mut spec = search_spec("mcts")?;
    let Budget::Mcts {
        schedule,
        prior,
        keep_base,
        proof,
        confirm,
        confirm_turns,
        confirm_max,
        confirm_step,
        confirm_band,
    } = &mut spec.budget
    else {
        return None;
    };
    for pair in body.split(';').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=')?;
        match key {
            "base" => spec.base = value.to_string(),
            "model" => spec.model = value.to_string(),
            "replies" => spec.replies = value.split('+').map(str::to_string).collect(),
            "alternatives" => {
                spec.alternatives = value.split('+').map(str::to_string).collect();
            }
            "alt_plans" => spec.alt_plans = value.parse().ok().filter(|&n: &usize| n >= 1)?,
            "candidates" => spec.candidates = value.parse().ok()?,
            "prior" => *prior = value.parse().ok()?,
            "keep_base" => *keep_base = value == "1" || value == "true",
            "proof" => *proof = value.parse().ok().filter(|&z: &f64| z >= 0.0)?,
            "confirm" => *confirm = value.parse().ok().filter(|&n: &usize| n != 1)?,
            "confirm_turns" => *confirm_turns = value.parse().ok()?,
            "confirm_max" => *confirm_max = value.parse().ok()?,
            "confirm_step" => *confirm_step = value.parse().ok().filter(|&n: &usize| n >= 1)?,
            "confirm_band" => *confirm_band = value.parse().ok().filter(|&z: &f64| z >= 0.0)?,
            "schedule" => {
                *schedule = value
                    .split('-')
                    .map(str::parse)
                    .collect::<Result<Vec<usize>, _>>()
                    .ok()?;
            }
            _ => return None,
        }
    }
    if *confirm_max != 0 && *confirm_max <= *confirm {
        return None;
    }
    Some(spec)
}

/// The heuristic whose model plays the opponent in the registered searches' rollouts (a
/// [`SearchSpec`] may name another).
pub const MODEL: &str = "kiter";

/// `PlanSearchAI`: the heuristic's plans, one chosen per Krosmaster activation by a search.
#[derive(Debug)]
pub struct PlanSearchAI {
    pub name: String,
    candidates: usize,
    budget: Budget,
    /// The AI's own stream (the reference's base and model share it and never draw).
    rng: Generator,
    base: HeuristicAI,
    model: HeuristicAI,
    /// Further models of the opponent (`MCTSAI.replies`): a rollout takes the worst for this side.
    replies: Vec<HeuristicAI>,
    /// Further heuristics whose `alt_plans` best plans join the base's for a Krosmaster.
    alternatives: Vec<HeuristicAI>,
    alt_plans: usize,
    /// Four players: the leaf's `against` (`SearchSpec::four`); None: the two-player search.
    pub four: Option<evaluation::Against>,
    /// Four players, free-for-all only: the leaf's and the rollout's knobs.
    pub ffa: evaluation::Ffa,
    geo: Option<Arc<Geometry>>,
    key: (i32, i64),
    /// Rollouts played and activations decided by rollouts (for benchmarks).
    pub rollouts: u64,
    pub searches: u64,
}

impl PlanSearchAI {
    /// A search over `base`'s plans; `model` shares `base`'s caches.
    pub fn new(
        name: &str,
        candidates: usize,
        budget: Budget,
        rng: Generator,
        base: HeuristicAI,
        mut model: HeuristicAI,
    ) -> Self {
        if let Budget::Mcts { schedule, .. } = &budget {
            assert!(
                !schedule.is_empty()
                    && schedule[0] >= 1
                    && schedule.windows(2).all(|w| w[0] < w[1]),
                "schedule must be increasing and positive, got {schedule:?}"
            );
        }
        model.share_caches(&base);
        PlanSearchAI {
            name: name.to_string(),
            candidates,
            budget,
            rng,
            base,
            model,
            replies: Vec::new(),
            alternatives: Vec::new(),
            alt_plans: 1,
            four: None,
            ffa: evaluation::Ffa::default(),
            geo: None,
            key: (-1, -1),
            rollouts: 0,
            searches: 0,
        }
    }

    /// Further models of the opponent's reply (`replies`), sharing the base's caches.
    pub fn with_replies(mut self, replies: Vec<HeuristicAI>) -> Self {
        self.replies = replies;
        for reply in &mut self.replies {
            reply.share_caches(&self.base);
            if let Some(geo) = &self.geo {
                reply.set_geometry(geo.clone());
            }
        }
        self
    }

    /// Further heuristics whose `alt_plans` best plans join the base's for a Krosmaster
    /// (`alternatives`, sharing the base's caches; see [`union_of_plans`]).
    pub fn with_alternatives(mut self, alternatives: Vec<HeuristicAI>, alt_plans: usize) -> Self {
        assert!(
            alt_plans >= 1,
            "alt_plans must be positive, got {alt_plans}"
        );
        self.alternatives = alternatives;
        self.alt_plans = alt_plans;
        for alternative in &mut self.alternatives {
            alternative.share_caches(&self.base);
            if let Some(geo) = &self.geo {
                alternative.set_geometry(geo.clone());
            }
        }
        self
    }

    /// Play four-player matches too, the leaf setting the other partnerships against one's own by
    /// `four` (`SearchSpec::four`; None: two players only).
    pub fn with_four(mut self, four: Option<evaluation::Against>) -> Self {
        self.four = four;
        self
    }

    /// The free-for-all knobs of the four-player search (`SearchSpec::ffa`).
    pub fn with_ffa(mut self, ffa: evaluation::Ffa) -> Self {
        self.ffa = ffa;
        self
    }

    /// Use the board's range tables built once for many matches.
    pub fn set_geometry(&mut self, geo: Arc<Geometry>) {
        self.base.set_geometry(geo.clone());
        self.model.set_geometry(geo.clone());
        for reply in &mut self.replies {
            reply.set_geometry(geo.clone());
        }
        for alternative in &mut self.alternatives {
            alternative.set_geometry(geo.clone());
        }
        self.geo = Some(geo);
    }

    fn geometry(&mut self, state: &MatchState<Arena>) -> Arc<Geometry> {
        let geo = self.base.geometry_for(state);
        if self.geo.is_none() {
            self.model.set_geometry(geo.clone());
            for reply in &mut self.replies {
                reply.set_geometry(geo.clone());
            }
            for alternative in &mut self.alternatives {
                alternative.set_geometry(geo.clone());
            }
            self.geo = Some(geo.clone());
        }
        geo
    }

    /// `choose_plan`: the index of the plan to play among several.
    fn choose_plan(&mut self, state: &MatchState<Arena>, me: usize, plans: &[Plan]) -> usize {
        self.searches += 1;
        let geo = self.geometry(state);
        match self.budget.clone() {
            Budget::Lookahead { dice_sets, prior } => {
                lookahead::choose(self, state, me, plans, dice_sets, prior, &geo)
            }
            Budget::Mcts {
                schedule,
                prior,
                keep_base,
                proof,
                confirm,
                confirm_turns,
                confirm_max,
                confirm_step,
                confirm_band,
            } => mcts::choose(
                self,
                state,
                me,
                plans,
                &schedule,
                prior,
                (keep_base, proof, confirm, confirm_turns),
                (confirm_max, confirm_step, confirm_band),
                &geo,
            ),
        }
    }

    /// The decision of the active character (`PlanSearchAI.choose_action`).
    fn decide(&mut self, state: &MatchState<Arena>, legal: &mut LegalActions<'_, Arena>) -> Action {
        let Some(me) = state.active else {
            return Action::END_TURN;
        };
        let key = (state.turn, me as i64);
        if key != self.key {
            self.key = key;
            self.base.begin(state, me);
            for alternative in &mut self.alternatives {
                alternative.begin(state, me);
            }
            let krosmaster = state.fighters[me].kind == PieceKind::Krosmaster;
            let keep = if krosmaster {
                self.candidates
            } else {
                1 // a creature: the heuristic's plan
            };
            let mut plans = self.base.candidates(state, me, keep);
            if krosmaster && !self.alternatives.is_empty() {
                let n = self.alt_plans;
                let offered: Vec<Vec<Plan>> = self
                    .alternatives
                    .iter_mut()
                    .map(|a| a.candidates(state, me, n))
                    .collect();
                plans = union_of_plans(plans, &offered);
            }
            let chosen = if plans.len() == 1 {
                0
            } else {
                self.choose_plan(state, me, &plans)
            };
            self.base.adopt(&plans[chosen]);
        }
        self.base.decide(state, legal)
    }
}

/// `union_of_plans`: the base's `plans` (first, in its order), then each alternative's in order, a
/// plan left out when one with the same steps and walk is already in; an alternative's plan valued
/// at the lowest of the base's values (two heuristics' values are not on one scale).
pub fn union_of_plans(plans: Vec<Plan>, offered: &[Vec<Plan>]) -> Vec<Plan> {
    let floor = plans.iter().map(|p| p.value).fold(f64::INFINITY, f64::min);
    let mut union = plans;
    for extra in offered {
        for plan in extra {
            if !union
                .iter()
                .any(|p| p.steps == plan.steps && p.route == plan.route)
            {
                union.push(Plan {
                    steps: plan.steps.clone(),
                    value: floor,
                    route: plan.route.clone(),
                });
            }
        }
    }
    union
}

impl Controller<Arena> for PlanSearchAI {
    fn choose_action(&mut self, state: &MatchState<Arena>, legal: &[Action]) -> usize {
        let uid = state.active.unwrap_or_default();
        let action = self.decide(state, &mut LegalActions::listed(state, uid, legal));
        legal
            .iter()
            .position(|&a| a == action)
            .unwrap_or_else(|| panic!("{} chose {action:?}, not a legal action", self.name))
    }

    /// The plan's next action, its legality tested alone (as the heuristic's).
    fn decide_action(
        &mut self,
        state: &MatchState<Arena>,
        legal: &mut LegalActions<'_, Arena>,
    ) -> Action {
        self.decide(state, legal)
    }

    fn order_triggers(&mut self, state: &MatchState<Arena>, n: usize) -> Vec<usize> {
        self.base.order_triggers(state, n)
    }
}

impl ArenaController for PlanSearchAI {
    fn choose_deployment(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        self.base.choose_deployment(state, side, n, cells)
    }

    fn choose_tension(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        raw: (u8, u8),
        options: &[(u8, u8)],
    ) -> TensionChoice {
        self.base.choose_tension(state, side, raw, options)
    }

    fn choose_edge(&mut self, state: &MatchState<Arena>, side: usize, n_edges: usize) -> usize {
        self.base.choose_edge(state, side, n_edges)
    }

    fn order_creatures(
        &mut self,
        state: &MatchState<Arena>,
        summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        self.base.order_creatures(state, summoner, creatures)
    }

    fn choose_player(
        &mut self,
        state: &MatchState<Arena>,
        seat: usize,
        purpose: Purpose,
        seats: &[usize],
    ) -> usize {
        self.base.choose_player(state, seat, purpose, seats)
    }

    fn give_reward(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        reward: usize,
        candidates: &[usize],
    ) -> usize {
        self.base.give_reward(state, side, reward, candidates)
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, search_spec};

    #[test]
    fn the_screening_form_sets_the_knobs_it_names_and_keeps_mcts_for_the_rest() {
        let spec = search_spec("mcts{base=kiter-race;model=kiter-race;replies=kiter+kiter-2;candidates=10;schedule=4-8-16-32;keep_base=1}")
            .expect("a screening form");
        assert_eq!(
            (spec.base.as_str(), spec.model.as_str()),
            ("kiter-race", "kiter-race")
        );
        assert_eq!(
            spec.replies,
            vec!["kiter".to_string(), "kiter-2".to_string()]
        );
        assert_eq!(spec.candidates, 10);
        let Budget::Mcts {
            schedule,
            prior,
            keep_base,
            proof,
            confirm,
            confirm_turns,
            confirm_max,
            confirm_step,
            confirm_band,
        } = spec.budget
        else {
            panic!("an mcts budget")
        };
        assert_eq!(
            (schedule, prior, keep_base, proof, confirm, confirm_turns),
            (vec![4, 8, 16, 32], 0.5, true, 0.0, 0, 0)
        );
        assert_eq!((confirm_max, confirm_step, confirm_band), (0, 8, 1.0));
        let sequential = search_spec(
            "mcts{keep_base=1;confirm=16;confirm_max=64;confirm_step=16;confirm_band=0.5}",
        )
        .expect("a form");
        assert!(matches!(
            sequential.budget,
            Budget::Mcts {
                confirm_max: 64,
                confirm_step: 16,
                confirm_band,
                ..
            } if confirm_band == 0.5
        ));
        assert!(search_spec("mcts{keep_base=1;confirm=16;confirm_max=16}").is_none());
        assert!(search_spec("mcts{confirm_step=0}").is_none());
        assert!(search_spec("mcts{confirm_band=-1}").is_none());
        let proven = search_spec("mcts{keep_base=1;proof=2}").expect("a form");
        assert!(matches!(proven.budget, Budget::Mcts { proof, .. } if proof == 2.0));
        assert!(search_spec("mcts{proof=-1}").is_none());
        let confirmed = search_spec("mcts{keep_base=1;confirm=16}").expect("a form");
        assert!(matches!(confirmed.budget, Budget::Mcts { confirm: 16, .. }));
        assert!(search_spec("mcts{confirm=1}").is_none());
        let longer = search_spec("mcts{keep_base=1;confirm=8;confirm_turns=4}").expect("a form");
        assert!(matches!(
            longer.budget,
            Budget::Mcts {
                confirm: 8,
                confirm_turns: 4,
                ..
            }
        ));
        let race = search_spec("mcts-race").expect("registered");
        assert_eq!(
            (race.base.as_str(), race.model.as_str()),
            ("kiter-race", "kiter")
        );
        let union = search_spec("mcts{alternatives=kiter+objective;alt_plans=2}").expect("a form");
        assert_eq!(
            (union.alternatives, union.alt_plans),
            (vec!["kiter".to_string(), "objective".to_string()], 2)
        );
        assert_eq!(race.alternatives, Vec::<String>::new());
        assert!(search_spec("mcts{alt_plans=0}").is_none());
        // the registered mcts-deep is the screening form that was confirmed (issue 39)
        let deep = search_spec("mcts-deep").expect("registered");
        let form = search_spec("mcts{alternatives=kiter+focus_fire+objective;base=kiter-race;candidates=16;keep_base=1;model=kiter-race;prior=0;schedule=4-8-16-32}")
            .expect("a form");
        assert_eq!(format!("{deep:?}"), format!("{form:?}"));
        // and mcts-sure the one of the sequential confirmation's note
        let sure = search_spec("mcts-sure").expect("registered");
        let form = search_spec("mcts{alternatives=kiter+focus_fire+objective;base=kiter-race;candidates=16;confirm=16;confirm_band=1.0;confirm_max=64;confirm_step=16;confirm_turns=20;keep_base=1;model=kiter-race;prior=0;proof=1.645;schedule=4-8-16-32}")
            .expect("a form");
        assert_eq!(format!("{sure:?}"), format!("{form:?}"));
        assert!(search_spec("mcts{depth=3}").is_none());
        assert!(search_spec("mcts{candidates=many}").is_none());
        assert!(search_spec("mcts-deeper").is_none());
    }

    #[test]
    fn the_four_player_search_plays_four_seats_and_its_screening_form_sets_its_knobs() {
        use super::evaluation::Against;
        let four = search_spec("lookahead-4p").expect("registered");
        assert_eq!(four.four, Some(Against::Max));
        assert_eq!((four.base.as_str(), four.candidates), ("kiter-2", 6));
        assert!(matches!(four.budget, Budget::Lookahead { dice_sets: 4, prior } if prior == 0.5));
        let form =
            search_spec("lookahead-4p{against=mean;base=kiter;candidates=3;dice_sets=2;prior=1.5}")
                .expect("a form");
        assert_eq!(form.four, Some(Against::Mean));
        assert_eq!((form.base.as_str(), form.candidates), ("kiter", 3));
        assert!(matches!(form.budget, Budget::Lookahead { dice_sets: 2, prior } if prior == 1.5));
        assert_eq!(
            (four.ffa.rounds, four.ffa.dice_sets, four.ffa.own),
            (2, 2, 1.5)
        );
        let ffa =
            search_spec("lookahead-4p{ffa_rounds=3;ffa_dice_sets=1;ffa_own=2}").expect("a form");
        assert_eq!(
            (ffa.ffa.rounds, ffa.ffa.dice_sets, ffa.ffa.own),
            (3, 1, 2.0)
        );
        assert!(search_spec("lookahead-4p{ffa_rounds=0}").is_none());
        assert!(search_spec("lookahead-4p{against=min}").is_none());
        assert!(search_spec("lookahead-4p{dice_sets=0}").is_none());
        // the two-player searches stay two-player
        for name in [
            "lookahead-fast",
            "lookahead",
            "mcts",
            "mcts-race",
            "mcts-deep",
        ] {
            assert_eq!(search_spec(name).expect("registered").four, None, "{name}");
        }
    }
}
