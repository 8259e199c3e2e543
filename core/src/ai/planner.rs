//! The shared heuristic player (krosbalance/ai/planner.py): plan an activation, replay it step by
//! step, replan on surprises; with the base class's deterministic choices around the match
//! (krosbalance/ai/base.py: edge, creature and trigger order, player choice, reward holder).
//!
//! The heuristic never draws from its random stream: its decisions are a pure function of the
//! match. With Demonic Rewards in play, the reward advisor (economy.rs) may put a reward action
//! before the plan's next one.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::ai::casts::{Step, StepKind};
use crate::ai::context::{
    Ctx, DamageMemo, PassTables, Reach, path, reach as reach_of, reachable_cells,
};
use crate::ai::plan_search::{Plan, best_plans};
use crate::ai::scoring::{self, Geometry, ThreatCache, ThreatMap};
use crate::ai::tension::{deployment_cells, tension_choice};
use crate::ai::weights::Weights;
use crate::board::{Cell, CellSet};
use crate::content::{Effect, PieceKind, SpellKind, TargetRule};
use crate::engine::legal::LegalActions;
use crate::engine::rules::{Action, CAST, Controller, MOVE};
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::four_player::{CLOCKWISE_ZONES, Purpose, default_choice};
use crate::rulesets::arena::ruleset::{BUY_GG, PICK_KAMA};
use crate::rulesets::arena::tension::TensionChoice;
use crate::rulesets::arena::{Arena, ArenaController};

/// Replans allowed in one activation before the fighter ends it.
pub const MAX_REPLANS: i32 = 24;

/// A key of the threat map the planner keeps: the turn and every enemy piece's (uid, cell,
/// injuries).
type ThreatKey = (i32, Vec<(usize, i32, i32)>);

/// The heuristic player of one seat (planner.py's `HeuristicAI`), with a personality's weights.
#[derive(Clone, Debug)]
pub struct HeuristicAI {
    pub name: String,
    pub weights: Weights,
    /// The AI's own stream: drawn from by nothing here, kept for the search AIs built on it.
    pub rng: Generator,
    geo: Option<Arc<Geometry>>,
    key: (i32, i64),
    steps: Vec<Step>,
    expect: Option<(i32, i32, i32)>,
    replans: i32,
    threat_key: Option<ThreatKey>,
    threat: Option<Rc<ThreatMap>>,
    /// The per-match threat caches, shared with a search AI's forks and its model of the opponent
    /// (`fork`, `share_caches`): their layers are behaviour (a layer outlives a spell an enemy gains).
    threat_cache: Rc<RefCell<ThreatCache>>,
    /// The planning passes' tables, lent from one pass to the next (`PassTables`), shared with
    /// the forks (a search's rollouts fork the player hundreds of times an activation): passes
    /// never run inside one another, so one set serves them all.
    tables: Rc<RefCell<PassTables>>,
    route: Vec<Cell>,
    picks: i32,
    turn: i32,
    acted: Vec<usize>,
    team: (i64, f64),
    first: bool,
    swap: (i32, i32),
}

impl HeuristicAI {
    pub fn new(name: &str, weights: Weights, rng: Generator) -> Self {
        HeuristicAI {
            name: name.to_string(),
            weights,
            rng,
            geo: None,
            key: (-1, -1),
            steps: Vec::new(),
            expect: None,
            replans: 0,
            threat_key: None,
            threat: None,
            threat_cache: Rc::default(),
            tables: Rc::default(),
            route: Vec::new(),
            picks: 0,
            turn: -1,
            acted: Vec::new(),
            team: (-1, 0.0),
            first: true,
            swap: (-1, -1),
        }
    }

    /// Use the board's range tables built once for many matches (they depend on the board alone).
    pub fn set_geometry(&mut self, geo: Arc<Geometry>) {
        self.geo = Some(geo);
    }

    fn geometry(&mut self, state: &MatchState<Arena>) -> Arc<Geometry> {
        self.geo
            .get_or_insert_with(|| Arc::new(Geometry::new(&state.board)))
            .clone()
    }

    /// `_threat_for`: the threat map of this turn, made again when an enemy moved or was hurt.
    fn threat_for(&mut self, state: &MatchState<Arena>, side: usize) -> Rc<ThreatMap> {
        let team = state.team_of[side];
        let enemies = || {
            scoring::on_board(state)
                .filter(move |f| f.team != team)
                .map(|f| (f.uid, f.cell, f.injuries))
        };
        // the kept key compared in place (no key built unless the map is made again)
        let same = self.threat_key.as_ref().is_some_and(|(turn, kept)| {
            *turn == state.turn && {
                let mut kept = kept.iter();
                enemies().all(|e| kept.next() == Some(&e)) && kept.next().is_none()
            }
        });
        if !same || self.threat.is_none() {
            let key: ThreatKey = (state.turn, enemies().collect());
            let geo = self.geometry(state);
            self.threat = Some(scoring::threat_lookup(
                state,
                &geo,
                side,
                &mut self.threat_cache.borrow_mut(),
            ));
            self.threat_key = Some(key);
        }
        self.threat.clone().expect("just made")
    }

    /// `begin`: a new activation of `me`.
    pub fn begin(&mut self, state: &MatchState<Arena>, me: usize) {
        if state.turn != self.turn {
            self.turn = state.turn;
            self.acted.clear();
        }
        if !self.acted.contains(&me) {
            self.acted.push(me);
        }
        self.team = team_target(
            state,
            state.fighters[me].side,
            me,
            &self.acted,
            &mut self.tables.borrow_mut().damage,
        );
        self.key = (state.turn, me as i64);
        self.first = true;
        self.steps.clear();
        self.expect = None;
        self.replans = 0;
        self.swap = (-1, -1);
    }

    /// `_plan`: replace the plan with the best one from here; false when replanning too often.
    /// `made`: the plan a pass already made from this very position with this memory in the same
    /// decision (`decide` replans up to three times before it returns: nothing moved, and a pass
    /// is a pure function of the match, the threat map, the team target and the swap, so it would
    /// make that plan again; the threat map's key is unchanged, so asking for it touches no
    /// cache). A pass made here is kept in `made` for the next.
    fn plan_again(
        &mut self,
        state: &MatchState<Arena>,
        me: usize,
        made: &mut Option<Plan>,
    ) -> bool {
        self.replans += 1;
        self.expect = None;
        if self.replans > MAX_REPLANS {
            self.steps = vec![Step::new(StepKind::End, -1, -1)];
            return false;
        }
        let plan = match made {
            Some(plan) => plan.clone(),
            None => {
                let threat = self.threat_for(state, state.fighters[me].side);
                let plan = self.pass(state, me, threat, 1).swap_remove(0);
                *made = Some(plan.clone());
                plan
            }
        };
        self.picks = match plan.steps.first() {
            Some(s) if s.kind == StepKind::Goto && s.target > 0 => s.target,
            _ => 0,
        };
        self.steps = plan.steps;
        self.route = plan.route;
        true
    }

    /// `candidates`: the `keep` best plans for `me` from here, best first (a search AI's
    /// proposals; `begin` first).
    pub fn candidates(&mut self, state: &MatchState<Arena>, me: usize, keep: usize) -> Vec<Plan> {
        let threat = self.threat_for(state, state.fighters[me].side);
        self.pass(state, me, threat, keep)
    }

    /// One planning pass: the `keep` best plans for `me` from here, against `threat`.
    fn pass(
        &mut self,
        state: &MatchState<Arena>,
        me: usize,
        threat: Rc<ThreatMap>,
        keep: usize,
    ) -> Vec<Plan> {
        let f = &state.fighters[me];
        let geo = self.geometry(state);
        let mut tables = self.tables.borrow_mut();
        let memos = &mut *tables;
        let mut ctx = Ctx::new(
            state,
            &geo,
            &self.weights,
            me,
            threat,
            self.team,
            &mut memos.damage,
            &mut memos.nearest,
            &mut memos.lists,
        );
        if i32::from(ctx.me_cell) == self.swap.0 {
            ctx.no_swap_back = self.swap.1;
        }
        let mp = if f.blocked { 0 } else { f.mp };
        let mut reach = std::mem::take(&mut memos.reach);
        reach.refill(state, f.at(), mp);
        ctx.lend(&mut tables);
        ctx.start_cells();
        let plans = best_plans(&self.weights, &mut ctx, &reach, keep);
        ctx.give_back(&mut tables);
        tables.reach = reach;
        plans
    }

    /// `adopt`: follow `plan` from now on (replanning on surprises as usual).
    pub fn adopt(&mut self, plan: &Plan) {
        self.steps = plan.steps.clone();
        self.route = plan.route.clone();
        self.picks = match plan.steps.first() {
            Some(s) if s.kind == StepKind::Goto && s.target > 0 => s.target,
            _ => 0,
        };
        self.expect = None;
        self.replans += 1;
    }

    /// `fork`: the same player in the middle of the same activation (same plan, same turn
    /// bookkeeping, shared caches), to continue it on a copy of the match; as the reference's,
    /// the fork has not swapped places this activation.
    pub fn fork(&self) -> HeuristicAI {
        let mut other = self.clone();
        other.swap = (-1, -1);
        other
    }

    /// `share_caches`: use `other`'s per-match threat caches.
    pub fn share_caches(&mut self, other: &HeuristicAI) {
        self.threat_cache = other.threat_cache.clone();
    }

    /// The per-match threat caches (a search's leaf evaluation reads the base's).
    pub fn threat_cache(&self) -> &Rc<RefCell<ThreatCache>> {
        &self.threat_cache
    }

    /// The board's range tables (built on first use).
    pub fn geometry_for(&mut self, state: &MatchState<Arena>) -> Arc<Geometry> {
        self.geometry(state)
    }

    /// `_first_step`: the neighbour to walk to next on a shortest path to `dest`, or -1.
    fn first_step(&self, state: &MatchState<Arena>, me: usize, dest: Cell) -> i32 {
        let f = &state.fighters[me];
        if f.mp <= 0 || f.blocked {
            return -1;
        }
        if let (Some(&first), Some(&last)) = (self.route.first(), self.route.last()) {
            if last == dest && state.board.neighbours(f.at()).contains(&first) {
                return i32::from(first);
            }
        }
        let Some(geo) = &self.geo else {
            let reach = Reach::new(reachable_cells(state, f.at(), f.mp), state.board.n_cells());
            if reach.get(dest).is_none() {
                return -1;
            }
            return i32::from(path(state, &reach, dest)[0]);
        };
        // `_path`'s walk back from `dest` along decreasing BFS cost, the costs read from the
        // walk's layers (cells at 0, 1, 2... steps: the costs `reachable_cells` finds, as masks
        // grown a step at a time and stopped at `dest`, not a BFS of every cell in reach)
        let mut layers = Vec::with_capacity(8);
        if !geo.walk_layers(f.at(), f.mp, state.obstacles, dest, &mut layers) {
            return -1;
        }
        let mut cur = dest;
        for layer in layers[1..layers.len() - 1].iter().rev() {
            // the first neighbour one step nearer, in the board's order, as `_path` takes it
            match state
                .board
                .neighbours(cur)
                .iter()
                .find(|&&n| layer.contains(n))
            {
                Some(&n) => cur = n,
                None => break,
            }
        }
        i32::from(cur)
    }

    /// `_next`: the next action of the plan, or `None` when the plan is broken.
    fn next(&mut self, state: &MatchState<Arena>, me: usize) -> Option<Action> {
        let f = &state.fighters[me];
        let arena = &state.rules;
        let on_demon = state.board.demon_cells().contains(f.at());
        let may = |kind: u8| crate::ai::context::may(f, kind);
        let is_kros = f.kind == PieceKind::Krosmaster;
        while let Some(&step) = self.steps.first() {
            match step.kind {
                StepKind::Goto => {
                    let dest = step.arg as Cell;
                    if f.at() == dest {
                        self.steps.remove(0);
                        self.route.clear();
                        continue;
                    }
                    if self.picks > 0
                        && f.ap >= 1
                        && may(PICK_KAMA)
                        && is_kros
                        && arena.board_kamas[usize::from(f.at())] > 0
                    {
                        self.picks -= 1;
                        return Some(Action::new(PICK_KAMA, -1, -1));
                    }
                    let nxt = self.first_step(state, me, dest);
                    if nxt < 0 {
                        return None;
                    }
                    return Some(Action::new(MOVE, -1, nxt));
                }
                StepKind::Cast => {
                    self.steps.remove(0);
                    let spell = state.content.resolve(f.spells[step.arg as usize]);
                    if matches!(spell.kind, SpellKind::Attack | SpellKind::Heal)
                        && spell.range_type != crate::content::RangeType::Personal
                    {
                        let piece = state
                            .piece_at(step.target as Cell)
                            .filter(|&u| state.fighters[u].alive);
                        match piece {
                            None => return None,
                            Some(p)
                                if spell.kind == SpellKind::Heal
                                    && state.fighters[p].injuries == 0 =>
                            {
                                return None;
                            }
                            _ => {}
                        }
                    }
                    return Some(Action::new(CAST, step.arg, step.target));
                }
                StepKind::Buy => {
                    self.steps.remove(0);
                    if f.ap >= 1 && on_demon && arena.kamas[f.side] >= arena.gg_price && may(BUY_GG)
                    {
                        if step.arg > 1 {
                            self.steps
                                .insert(0, Step::new(StepKind::Buy, step.arg - 1, -1));
                        }
                        return Some(Action::new(BUY_GG, -1, -1));
                    }
                    continue;
                }
                StepKind::Tail => {
                    if f.ap >= 1 && is_kros {
                        let can_buy =
                            on_demon && arena.kamas[f.side] >= arena.gg_price && may(BUY_GG);
                        if can_buy && self.weights.buy_first {
                            return Some(Action::new(BUY_GG, -1, -1));
                        }
                        if arena.board_kamas[usize::from(f.at())] > 0 && may(PICK_KAMA) {
                            return Some(Action::new(PICK_KAMA, -1, -1));
                        }
                        if can_buy {
                            return Some(Action::new(BUY_GG, -1, -1));
                        }
                    }
                    self.steps.remove(0);
                    continue;
                }
                StepKind::End => {
                    self.steps.remove(0);
                }
            }
        }
        Some(Action::END_TURN)
    }

    /// `_remember`: what the fighter should look like after `action`.
    fn remember(&mut self, state: &MatchState<Arena>, me: usize, action: Action) {
        let f = &state.fighters[me];
        if action.kind == MOVE {
            self.expect = Some((action.target, f.mp - 1, f.ap));
        } else if action.kind == CAST {
            let spell = state.content.resolve(f.spells[action.spell as usize]);
            let swaps = spell
                .effects
                .iter()
                .any(|e| matches!(e, Effect::SwapPlaces));
            if spell.target == TargetRule::Ally && swaps {
                self.swap = (action.target, f.cell);
            }
            let movers = spell.effects.iter().any(|e| {
                matches!(
                    e,
                    Effect::SwapPlaces
                        | Effect::Retreat { .. }
                        | Effect::Approach { .. }
                        | Effect::Push { .. }
                        | Effect::Attract { .. }
                        | Effect::RangeBonusThisTurn { .. }
                )
            });
            if spell.kind == SpellKind::Summon || movers {
                self.steps.clear();
                self.expect = Some((-2, -2, -2));
            } else {
                self.expect = Some((f.cell, f.mp - spell.mp_cost, f.ap - spell.ap_cost));
            }
        } else if action.kind == PICK_KAMA || action.kind == BUY_GG {
            self.expect = Some((f.cell, f.mp, f.ap - 1));
        } else {
            self.expect = None;
        }
        if action.kind == MOVE
            && self
                .route
                .first()
                .is_some_and(|&c| i32::from(c) == action.target)
        {
            self.route.remove(0);
        }
    }

    /// `choose_action`, as an action (the index is found in the legal list by the caller); the
    /// legal actions are asked about one at a time (the reward advisor reads the whole list).
    pub fn decide(
        &mut self,
        state: &MatchState<Arena>,
        legal: &mut LegalActions<'_, Arena>,
    ) -> Action {
        let Some(me) = state.active else {
            return Action::END_TURN;
        };
        let f = &state.fighters[me];
        let key = (state.turn, me as i64);
        // every pass of this decision plans from the same position with the same memory (nothing
        // is played before it returns): the first pass's plan serves the retries below
        let mut made: Option<Plan> = None;
        if key != self.key {
            self.begin(state, me);
            self.plan_again(state, me, &mut made);
        } else if self.expect.is_some() && self.expect != Some((f.cell, f.mp, f.ap)) {
            self.plan_again(state, me, &mut made);
        }
        let rewards = f.kind == PieceKind::Krosmaster && state.rules.market.is_some();
        for _ in 0..3 {
            let saved = rewards.then(|| (self.steps.clone(), self.route.clone(), self.picks));
            let action = self.next(state, me);
            if let Some(action) = action {
                if legal.contains(&action) {
                    let reward = if saved.is_some() {
                        self.reward_first(state, me, legal, action)
                    } else {
                        None
                    };
                    if let (Some(reward), Some((steps, route, picks))) = (reward, saved) {
                        // the plan goes on after the reward action
                        self.steps = steps;
                        self.route = route;
                        self.picks = picks;
                        return reward;
                    }
                    self.remember(state, me, action);
                    self.first = false;
                    return action;
                }
            }
            if !self.plan_again(state, me, &mut made) {
                break;
            }
        }
        if rewards {
            if let Some(reward) = self.reward_first(state, me, legal, Action::END_TURN) {
                return reward;
            }
        }
        Action::END_TURN
    }

    /// `_reward_first`: a Demonic Reward action to take before `action` (`economy::advise`).
    fn reward_first(
        &mut self,
        state: &MatchState<Arena>,
        me: usize,
        legal: &mut LegalActions<'_, Arena>,
        action: Action,
    ) -> Option<Action> {
        let f = &state.fighters[me];
        if crate::rulesets::arena::rewards::tokens_of(state, me).is_empty()
            && !state.board.demon_cells().contains(f.at())
        {
            return None;
        }
        let reward = crate::ai::economy::advise(state, f, legal.all(), action, self.first)?;
        if !legal.contains(&reward) {
            return None;
        }
        self.first = false;
        let ap = if reward.kind == crate::rulesets::arena::rewards::BUY_REWARD {
            f.ap - 1
        } else {
            f.ap
        };
        self.expect = Some((f.cell, f.mp, ap));
        Some(reward)
    }
}

/// `team_target`: the enemy Krosmaster the team can most likely KO this turn, and what each injury
/// dealt to it is worth: (uid, worth per injury), or (-1, 0).
pub fn team_target(
    state: &MatchState<Arena>,
    side: usize,
    active: usize,
    acted: &[usize],
    damage: &mut DamageMemo,
) -> (i64, f64) {
    let team = state.team_of[side];
    let strikers: Vec<(Cell, i32, f64)> = scoring::on_board(state)
        .filter(|a| {
            a.team == team && a.is_character() && (!acted.contains(&a.uid) || a.uid == active)
        })
        .map(|a| (a.at(), a.base_mp + reach_of(state, a), damage.get(state, a)))
        .collect();
    let mut best = (-1i64, 0.0f64);
    let mut best_score = 0.0f64;
    for enemy in scoring::on_board(state).filter(|f| f.team != team) {
        if enemy.kind != PieceKind::Krosmaster {
            continue;
        }
        let mut total = 0.0f64;
        let target = enemy.at();
        for &(cell, strike, damage) in &strikers {
            if i32::from(state.board.distance(cell, target)) <= strike {
                total += damage;
            }
        }
        let left = scoring::remaining_hp(enemy);
        let chance = scoring::ko_risk(total, left);
        if chance <= 0.2 {
            continue;
        }
        let worth = scoring::kill_value(state, side, enemy, None);
        if chance * worth > best_score {
            best_score = chance * worth;
            best = (
                enemy.uid as i64,
                0.5 * chance * worth / f64::from(left.max(1)),
            );
        }
    }
    best
}

/// `edge_distance`: how far a deployment zone is from the board's kamas and Demon cells.
fn edge_distance(state: &MatchState<Arena>, edge: CellSet) -> i64 {
    let board = &state.board;
    let cells: Vec<Cell> = edge.iter().collect();
    if cells.is_empty() {
        return 1 << 30;
    }
    let mut objectives: Vec<(Cell, i64)> = board
        .spec()
        .kama_cells
        .iter()
        .map(|&(c, n)| (c, i64::from(n)))
        .collect();
    objectives.extend(board.demon_cells().iter().map(|c| (c, 1)));
    objectives
        .iter()
        .map(|&(cell, count)| {
            count
                * cells
                    .iter()
                    .map(|&c| i64::from(board.distance(cell, c)))
                    .min()
                    .expect("cells")
        })
        .sum()
}

impl Controller<Arena> for HeuristicAI {
    fn choose_action(&mut self, state: &MatchState<Arena>, legal: &[Action]) -> usize {
        let uid = state.active.unwrap_or_default();
        let action = self.decide(state, &mut LegalActions::listed(state, uid, legal));
        legal
            .iter()
            .position(|&a| a == action)
            .unwrap_or_else(|| panic!("{} chose {action:?}, not a legal action", self.name))
    }

    /// The plan's next action, its legality tested alone (no list built; `decide` returns only
    /// actions it found legal, or END).
    fn decide_action(
        &mut self,
        state: &MatchState<Arena>,
        legal: &mut LegalActions<'_, Arena>,
    ) -> Action {
        self.decide(state, legal)
    }

    /// R-A32, R-A36: triggers in the order listed.
    fn order_triggers(&mut self, _state: &MatchState<Arena>, n: usize) -> Vec<usize> {
        (0..n).collect()
    }
}

impl ArenaController for HeuristicAI {
    fn choose_deployment(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        _n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        deployment_cells(state, side, cells)
    }

    fn choose_tension(
        &mut self,
        state: &MatchState<Arena>,
        side: usize,
        _raw: (u8, u8),
        options: &[(u8, u8)],
    ) -> TensionChoice {
        let threat = self.threat_for(state, side);
        tension_choice(&self.weights, state, side, options, &threat)
    }

    /// The base class's: the edge nearest the kamas and Demon cells, the board's own on a tie.
    fn choose_edge(&mut self, state: &MatchState<Arena>, side: usize, n_edges: usize) -> usize {
        let edges: Vec<CellSet> = if n_edges == 2 {
            vec![state.board.deploy(0), state.board.deploy(1)]
        } else {
            CLOCKWISE_ZONES
                .iter()
                .map(|&z| state.board.deploy(z))
                .collect()
        };
        let costs: Vec<i64> = edges.iter().map(|&e| edge_distance(state, e)).collect();
        let best = *costs.iter().min().expect("edges");
        let own = if side < edges.len() { side } else { 0 };
        if costs[own] == best {
            own
        } else {
            costs.iter().position(|&c| c == best).expect("best")
        }
    }

    /// R-A31: creatures act in the order they were summoned.
    fn order_creatures(
        &mut self,
        _state: &MatchState<Arena>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        creatures.to_vec()
    }

    fn choose_player(
        &mut self,
        state: &MatchState<Arena>,
        seat: usize,
        purpose: Purpose,
        seats: &[usize],
    ) -> usize {
        default_choice(state, seat, purpose, seats)
    }

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
}
