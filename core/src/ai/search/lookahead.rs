//! Lookahead (krosbalance/ai/lookahead.py): each of the heuristic's best few plans played on
//! `dice_sets` copies of the match, every plan meeting the same pre-drawn dice (common random
//! numbers), judged by `evaluation::evaluate` after the rest of the team's turn and the opponent's
//! reply; the best mean plus `PRIOR` times the heuristic's own value is played. With four players
//! (`PlanSearchAI::four`, `lookahead-4p`) every other seat replies, each by its own fork of the
//! model, and the copy is scored by `evaluation::evaluate_sides`; in a free-for-all the knobs of
//! `evaluation::Ffa` apply (rounds of replies, dice sets, the weight of one's own worth).

use std::sync::Arc;

use crate::ai::plan_search::Plan;
use crate::ai::scoring::Geometry;
use crate::engine::dice::Dice;
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::Arena;

use super::PlanSearchAI;
use super::evaluation::{Against, Ffa, KAMA_WORTH, evaluate, evaluate_sides};
use super::rollout::{
    Seats, finish_activation, finish_team_turn_after, play_turn, search_copy, seats,
};

/// Raw faces pre-drawn per dice set (a rollout that rolls more cycles through them).
pub const FACES_PER_SET: usize = 512;
/// Weight of the heuristic's own value of a plan, added to its mean rollout evaluation.
pub const PRIOR: f64 = 0.5;

/// `rng.integers(0, 6, size=n).tolist()` as a world's faces.
pub fn draw_faces(rng: &mut Generator, n: usize) -> Arc<[u8]> {
    rng.integers_vec(0, 6, n)
        .into_iter()
        .map(|v| v as u8)
        .collect()
}

/// `LookaheadAI.choose_plan`: the plan with the best total over the shared dice sets (ties: the
/// heuristic's order).
pub fn choose(
    ai: &mut PlanSearchAI,
    state: &MatchState<Arena>,
    me: usize,
    plans: &[Plan],
    dice_sets: usize,
    prior: f64,
    geo: &Geometry,
) -> usize {
    let dice_sets = match ai.four {
        Some(_) if ai.ffa.dice_sets > 0 && Ffa::applies(state) => ai.ffa.dice_sets,
        _ => dice_sets,
    };
    let dice: Vec<Arc<[u8]>> = (0..dice_sets)
        .map(|_| draw_faces(&mut ai.rng, FACES_PER_SET))
        .collect();
    let (mut best, mut best_value) = (0, -1e18f64);
    for (i, plan) in plans.iter().enumerate() {
        let mut sum = 0.0f64;
        for faces in &dice {
            sum += rollout(ai, state, me, plan, faces.clone(), geo);
        }
        let mean = sum / dice.len() as f64;
        let total = mean + prior * plan.value;
        if total > best_value + 1e-9 {
            best = i;
            best_value = total;
        }
    }
    best
}

/// `_rollout`: `plan` on a copy, then the rest of the turn and the opponent's reply; evaluated.
fn rollout(
    ai: &mut PlanSearchAI,
    state: &MatchState<Arena>,
    me: usize,
    plan: &Plan,
    faces: Arc<[u8]>,
    geo: &Geometry,
) -> f64 {
    ai.rollouts += 1;
    let side = state.fighters[me].side;
    let mut copy = search_copy(state, side, Dice::replay(faces));
    let mut mine = ai.base.fork();
    mine.adopt(plan);
    if let (Some(against), true) = (ai.four, copy.n_seats > 2) {
        return four_player_rollout(ai, copy, me, mine, against, geo);
    }
    let mut players = seats(side, mine);
    finish_activation(&mut copy, me, &mut players);
    finish_team_turn_after(&mut copy, me, &mut players);
    let mut players = seats(copy.active_side, ai.model.fork());
    play_turn(&mut copy, &mut players);
    let cache = ai.base.threat_cache().clone();
    evaluate(&copy, geo, side, &mut cache.borrow_mut(), KAMA_WORTH)
}

/// `_rollout` with four players (`four_players`): the rest of the team's turn, then every other
/// seat's turn until `me`'s seat is to play again (at most one round), each seat by its own fork of
/// the model; the copy scored for the partnership (`_replies`).
fn four_player_rollout(
    ai: &mut PlanSearchAI,
    mut copy: MatchState<Arena>,
    me: usize,
    mine: crate::ai::planner::HeuristicAI,
    against: Against,
    geo: &Geometry,
) -> f64 {
    let side = copy.fighters[me].side;
    let n = copy.n_seats;
    // the other seats answer only the four-player choices (`choose_player`: the default policy, as
    // the reference's copy without players attached)
    let mut mine = Some(mine);
    let mut players: Seats = (0..n)
        .map(|seat| -> Box<dyn crate::rulesets::arena::ArenaController> {
            if seat == side {
                Box::new(mine.take().expect("one player"))
            } else {
                Box::new(ai.model.fork())
            }
        })
        .collect();
    finish_activation(&mut copy, me, &mut players);
    finish_team_turn_after(&mut copy, me, &mut players);
    let ffa = ai.ffa;
    let rounds = if Ffa::applies(&copy) { ffa.rounds } else { 1 };
    let mut models: Seats = (0..n)
        .map(|seat| -> Box<dyn crate::rulesets::arena::ArenaController> {
            if seat == side {
                // one's own turns between the rounds (`rounds` > 1) by the base
                Box::new(ai.base.fork())
            } else {
                Box::new(ai.model.fork())
            }
        })
        .collect();
    let mut round = 1;
    for _ in 0..rounds * n - 1 {
        if copy.finished {
            break;
        }
        if copy.active_side == side {
            if round >= rounds {
                break;
            }
            round += 1;
        }
        play_turn(&mut copy, &mut models);
    }
    let cache = ai.base.threat_cache().clone();
    evaluate_sides(
        &copy,
        geo,
        side,
        &mut cache.borrow_mut(),
        against,
        KAMA_WORTH,
        &ffa,
    )
}
