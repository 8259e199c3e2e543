//! A duel Krosmaster's activation as a plan (krosbalance/ai/duel/plans.py): the planner's own
//! decisions (`Base`), a walk to one of its best end cells then acting in place (`Walk`), or
//! striking from where it stands first, then that walk (`HitAndWalk`).

use std::collections::VecDeque;

use crate::board::Cell;
use crate::engine::rules::{Action, CAST, END, MOVE};
use crate::engine::state::MatchState;
use crate::rulesets::duel::ruleset::Duel;

use super::brawler::{DuelWeights, EPS, Planner};

/// What a plan does (plans.py's `BASE`, `WALK`, `HIT_AND_WALK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanKind {
    Base,
    Walk,
    HitAndWalk,
}

/// `DuelPlan`: the kind, the end cell (none for the base plan), the cell it starts from and the
/// planner's value of its end cell.
#[derive(Clone, Copy, Debug)]
pub struct DuelPlan {
    pub kind: PlanKind,
    pub goal: Option<Cell>,
    pub start: Cell,
    pub value: f64,
}

/// `candidate_plans`: the base plan, a walk to each of the planner's `walks` best end cells
/// (ties: breadth-first order) and to the best end cell at each of the `bands` nearest distances
/// from the enemy Krosmasters, then a hit-and-walk to each end cell elsewhere when a cast is
/// worth making from here.
pub fn candidate_plans(
    state: &MatchState<Duel>,
    w: &DuelWeights,
    me: usize,
    legal: &[Action],
    walks: usize,
    bands: usize,
) -> Vec<DuelPlan> {
    let mut planner = Planner::new(state, w, me);
    let f = &state.fighters[me];
    let at = f.at();
    let cells = if f.mp > 0 && !f.blocked {
        planner.end_cells()
    } else {
        vec![(at, planner.cell_value(at), None)]
    };
    let mut ranked: Vec<usize> = (0..cells.len()).collect();
    ranked.sort_by(|&a, &b| {
        cells[b]
            .1
            .partial_cmp(&cells[a].1)
            .expect("plan values are numbers")
            .then(a.cmp(&b))
    });
    ranked.truncate(walks);
    let best = cells[ranked[0]].1;
    if bands > 0 && !planner.enemy_krosmasters.is_empty() {
        // distance to the nearest enemy Krosmaster -> the best cell's index, by distance
        let mut best_at: std::collections::BTreeMap<u8, usize> = std::collections::BTreeMap::new();
        for (i, &(cell, value, _)) in cells.iter().enumerate() {
            let d = planner
                .enemy_krosmasters
                .iter()
                .map(|&e| state.board.distance(cell, state.fighters[e].at()))
                .min()
                .expect("an enemy Krosmaster");
            match best_at.get(&d) {
                Some(&j) if value <= cells[j].1 + EPS => {}
                _ => {
                    best_at.insert(d, i);
                }
            }
        }
        let extra: Vec<usize> = best_at
            .values()
            .take(bands)
            .copied()
            .filter(|i| !ranked.contains(i))
            .collect();
        ranked.extend(extra);
    }
    let plan = |kind, i: usize| DuelPlan {
        kind,
        goal: Some(cells[i].0),
        start: at,
        value: cells[i].1,
    };
    let mut plans = vec![DuelPlan {
        kind: PlanKind::Base,
        goal: None,
        start: at,
        value: best,
    }];
    plans.extend(ranked.iter().map(|&i| plan(PlanKind::Walk, i)));
    if legal
        .iter()
        .any(|&a| a.kind == CAST && planner.cast_value(a) > EPS)
    {
        plans.extend(
            ranked
                .iter()
                .filter(|&&i| cells[i].0 != at)
                .map(|&i| plan(PlanKind::HitAndWalk, i)),
        );
    }
    plans
}

/// `plan_action`: the next action of `plan` for the active Krosmaster `me` (an index into `legal`).
pub fn plan_action(
    state: &MatchState<Duel>,
    w: &DuelWeights,
    me: usize,
    plan: &DuelPlan,
    legal: &[Action],
) -> usize {
    let mut planner = Planner::new(state, w, me);
    let Some(goal) = plan.goal else {
        return planner.decide(legal, true);
    };
    let f = &state.fighters[me];
    if plan.kind == PlanKind::HitAndWalk && f.at() == plan.start {
        let i = planner.decide(legal, false);
        if legal[i].kind != END {
            return i;
        }
    }
    if f.at() != goal
        && f.mp > 0
        && !f.blocked
        && let Some(step) = first_step(state, f.at(), goal, f.mp)
        && let Some(i) = legal
            .iter()
            .position(|a| a.kind == MOVE && a.target == i32::from(step))
    {
        return i;
    }
    planner.decide(legal, false)
}

/// `first_step`: the first cell of a shortest walk of at most `mp` cells from `start` to `goal`
/// around the obstacles (breadth-first in the board's neighbour order).
pub fn first_step(state: &MatchState<Duel>, start: Cell, goal: Cell, mp: i32) -> Option<Cell> {
    let board = &state.board;
    let n = board.n_cells();
    let mut dist: Vec<i32> = vec![-1; n];
    let mut first: Vec<Option<Cell>> = vec![None; n];
    dist[usize::from(start)] = 0;
    let mut frontier = VecDeque::from([start]);
    while let Some(cell) = frontier.pop_front() {
        let c = usize::from(cell);
        if dist[c] >= mp {
            continue;
        }
        for &next in board.neighbours(cell) {
            let x = usize::from(next);
            if state.obstacles.contains(next) || dist[x] >= 0 {
                continue;
            }
            dist[x] = dist[c] + 1;
            first[x] = if cell == start { Some(next) } else { first[c] };
            if next == goal {
                return first[x];
            }
            frontier.push_back(next);
        }
    }
    None
}
