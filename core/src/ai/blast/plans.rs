//! A Blast Krosmaster's activation as a plan (krosbalance/ai/blast/plans.py): the planner's own
//! decisions (`Base`), its best walk to one of its end cells then acting in place (`Walk`), or
//! acting where it stands first, then that walk (`HitAndWalk`).

use std::collections::BTreeMap;

use crate::board::Cell;
use crate::engine::rules::{Action, CAST, END, MOVE};
use crate::engine::state::MatchState;
use crate::rulesets::blast::Blast;

use super::planner::{EPS, Planner};
use super::weights::BlastWeights;

/// What a plan does (plans.py's `BASE`, `WALK`, `HIT_AND_WALK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanKind {
    Base,
    Walk,
    HitAndWalk,
}

/// `BlastPlan`: the kind, the end cell (none for the base plan), the cell it starts from and the
/// planner's value of its end cell.
#[derive(Clone, Copy, Debug)]
pub struct BlastPlan {
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
    state: &MatchState<Blast>,
    w: BlastWeights,
    legal: &[Action],
    walks: usize,
    bands: usize,
) -> Vec<BlastPlan> {
    let mut planner = Planner::new(state, legal, w);
    let f = planner.me();
    let at = f.at();
    let cells: Vec<(Cell, f64)> = if f.mp > 0 && !f.blocked {
        planner
            .walks(f.mp)
            .iter()
            .map(|p| (p.end, p.value))
            .collect()
    } else {
        vec![(at, planner.stay_value())]
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
        let mut best_at: BTreeMap<u8, usize> = BTreeMap::new();
        for (i, &(cell, value)) in cells.iter().enumerate() {
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
    let plan = |kind, i: usize| BlastPlan {
        kind,
        goal: Some(cells[i].0),
        start: at,
        value: cells[i].1,
    };
    let mut plans = vec![BlastPlan {
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

/// `plan_action`: the next action of `plan` for the active Krosmaster.
pub fn plan_action(
    state: &MatchState<Blast>,
    w: BlastWeights,
    plan: &BlastPlan,
    legal: &[Action],
) -> Action {
    let mut planner = Planner::new(state, legal, w);
    let Some(goal) = plan.goal else {
        return planner.decide(true);
    };
    let f = planner.me();
    if plan.kind == PlanKind::HitAndWalk && f.at() == plan.start {
        let action = planner.decide(false);
        if action.kind != END {
            return action;
        }
    }
    if f.at() != goal && f.mp > 0 && !f.blocked {
        if let Some(walk) = planner.walks(f.mp).into_iter().find(|p| p.end == goal) {
            let step = Action::new(MOVE, -1, i32::from(walk.first));
            if legal.contains(&step) {
                return step;
            }
        }
    }
    planner.decide(false)
}
