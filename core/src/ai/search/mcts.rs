//! MCTS (krosbalance/ai/mcts.py): the heuristic's plans judged over determinized worlds (a world's
//! dice faces and a fresh deal of the unseen Demonic Rewards, `determinize::redeal`) by successive
//! halving: every plan meets the first `schedule[0]` worlds, the better half goes on to
//! `schedule[1]`, and so on. A rollout's result is kept per world by the position after the plan's
//! activation (`position_key`): two plans that end in the same place share it.

use std::sync::Arc;

use crate::ai::plan_search::Plan;
use crate::ai::scoring::{FastMap, Geometry};
use crate::engine::dice::Dice;
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::rewards::tokens_of;

use super::PlanSearchAI;
use super::determinize::redeal;
use super::evaluation::evaluate_holdings;
use super::lookahead::draw_faces;
use super::rollout::{finish_activation, finish_team_turn_after, play_turn, search_copy, seats};

/// Raw faces pre-drawn per world.
pub const FACES_PER_WORLD: usize = 512;
/// Weight of the heuristic's own value of a plan (as lookahead).
pub const PRIOR: f64 = 0.5;
/// The default budget: plans asked of the heuristic, and the worlds met by the survivors of each
/// round (cumulative).
pub const CANDIDATES: usize = 6;
pub const SCHEDULE: [usize; 3] = [2, 4, 8];
/// The sequential confirmation's defaults (off while `confirm_max` is 0): fresh worlds drawn at a
/// time, and the standard errors from the margin within which the test is a close call.
pub const CONFIRM_STEP: usize = 8;
pub const CONFIRM_BAND: f64 = 1.0;

/// `position_key`: what the rest of a rollout depends on after the searched activation, as flat
/// numbers, every list after its length; spells used once a game and tokens by their interned ids
/// (the reference's keys hold the id strings).
pub type PositionKey = Vec<i64>;

pub fn position_key(state: &MatchState<Arena>) -> PositionKey {
    let mut k: Vec<i64> = Vec::with_capacity(32 * state.fighters.len() + 64);
    for f in &state.fighters {
        k.extend_from_slice(&[
            f.uid as i64,
            i64::from(f.alive),
            i64::from(f.cell),
            i64::from(f.injuries),
            i64::from(f.ap),
            i64::from(f.mp),
            i64::from(f.plus_mp),
            i64::from(f.minus_mp),
            i64::from(f.plus_ap),
            i64::from(f.minus_ap),
            i64::from(f.inspired),
            f.summons.len() as i64,
        ]);
        let mut used = f.game_uses.clone();
        used.sort_unstable();
        used.dedup();
        k.push(used.len() as i64);
        k.extend(used.iter().map(|&u| i64::from(u)));
    }
    let a = &state.rules;
    for list in [&a.gg, &a.kamas, &a.board_kamas] {
        k.push(list.len() as i64);
        k.extend(list.iter().map(|&v| i64::from(v)));
    }
    k.push(i64::from(a.wild_gg));
    match &a.market {
        None => k.push(-1),
        Some(m) => k.extend(m.piles.iter().map(|p| p.len() as i64)),
    }
    for f in &state.fighters {
        let tokens = tokens_of(state, f.uid);
        k.push(tokens.len() as i64);
        for t in tokens {
            k.push(i64::from(state.content.rewards[t.reward].key));
            k.push(i64::from(t.face_up));
        }
    }
    for set in [state.obstacles, state.crates] {
        k.extend(set.words().iter().map(|&w| w as i64));
    }
    k.extend_from_slice(&[
        state.pending_bombs.len() as i64,
        state.fighters.len() as i64,
        state.active_side as i64,
        i64::from(state.finished),
        state.winner.map_or(-1, |w| w as i64),
        state.dice.position() as i64,
    ]);
    k
}

/// `MCTSAI.choose_plan`: successive halving over the worlds (ties: the heuristic's order). With
/// `keep_base`, the heuristic's own plan (the first) is never cut: it meets every world, as the
/// finalists do, and the search plays another plan only when that one is better on the same worlds;
/// with `proof` as well, only when better beyond the noise ([`proven_better`]); with `confirm`, that
/// test is made on that many fresh worlds (drawn after the halving's), which the winner was not
/// chosen on, and with `confirm_max`, on `confirm_step` more at a time (drawn from the AI's stream
/// after the halving's) while the test is a close call ([`undecided`]), up to `confirm_max`.
#[allow(clippy::too_many_arguments)]
pub fn choose(
    ai: &mut PlanSearchAI,
    state: &MatchState<Arena>,
    me: usize,
    plans: &[Plan],
    schedule: &[usize],
    prior: f64,
    (keep_base, proof, confirm, confirm_turns): (bool, f64, usize, usize),
    (confirm_max, confirm_step, confirm_band): (usize, usize, f64),
    geo: &Geometry,
) -> usize {
    let halving = *schedule.last().expect("a schedule");
    let worlds = halving + confirm;
    let faces: Vec<Arc<[u8]>> = (0..worlds)
        .map(|_| draw_faces(&mut ai.rng, FACES_PER_WORLD))
        .collect();
    let deals = ai.rng.integers_vec(0, 1 << 62, worlds);
    let mut totals = vec![0.0f64; plans.len()];
    let mut met = vec![0usize; plans.len()];
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); plans.len()]; // each plan's value per world met
    let mut tables: Vec<FastMap<PositionKey, f64>> =
        (0..worlds).map(|_| FastMap::default()).collect();
    let mut alive: Vec<usize> = (0..plans.len()).collect();
    for (round, &upto) in schedule.iter().enumerate() {
        for &i in &alive {
            for w in met[i]..upto {
                let world = (faces[w].clone(), deals[w]);
                let value = rollout(ai, state, me, &plans[i], world, (&mut tables[w], 0), geo);
                totals[i] += value;
                values[i].push(value);
            }
            met[i] = upto;
        }
        let value = |i: usize| totals[i] / met[i] as f64 + prior * plans[i].value;
        let last = round + 1 == schedule.len();
        alive = rank(&alive, value, last);
        if keep_base && !last && !alive.contains(&0) {
            alive.insert(0, 0);
        }
    }
    let best = alive[0];
    if confirm > 0 && best != 0 {
        let mut fresh = [Vec::with_capacity(confirm), Vec::with_capacity(confirm)];
        for w in halving..worlds {
            for (row, i) in fresh.iter_mut().zip([best, 0]) {
                let world = (faces[w].clone(), deals[w]);
                let confirmed = (&mut tables[w], confirm_turns);
                row.push(rollout(ai, state, me, &plans[i], world, confirmed, geo));
            }
        }
        while fresh[0].len() < confirm_max && undecided(&fresh[0], &fresh[1], proof, confirm_band) {
            let more = confirm_step.min(confirm_max - fresh[0].len());
            let extra_faces: Vec<Arc<[u8]>> = (0..more)
                .map(|_| draw_faces(&mut ai.rng, FACES_PER_WORLD))
                .collect();
            let extra_deals = ai.rng.integers_vec(0, 1 << 62, more);
            for (world_faces, deal) in extra_faces.into_iter().zip(extra_deals) {
                let mut table = FastMap::default();
                for (row, i) in fresh.iter_mut().zip([best, 0]) {
                    let world = (world_faces.clone(), deal);
                    let confirmed = (&mut table, confirm_turns);
                    row.push(rollout(ai, state, me, &plans[i], world, confirmed, geo));
                }
            }
        }
        return if proven_better(&fresh[0], &fresh[1], proof) {
            best
        } else {
            0
        };
    }
    if proof > 0.0 && best != 0 && !proven_better(&values[best], &values[0], proof) {
        return 0;
    }
    best
}

/// `paired`: the mean of the paired differences `challenger - base` over the worlds both met and
/// its standard error, or None under two worlds (summed in world order, as the reference sums).
fn paired(challenger: &[f64], base: &[f64]) -> Option<(f64, f64)> {
    let n = challenger.len().min(base.len());
    if n < 2 {
        return None;
    }
    let diffs: Vec<f64> = (0..n).map(|w| challenger[w] - base[w]).collect();
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1) as f64;
    Some((mean, (var / n as f64).sqrt()))
}

/// `proven_better`: whether `challenger` beats `base` on the worlds both met beyond the noise, the
/// mean of the paired differences above `z` standard errors.
fn proven_better(challenger: &[f64], base: &[f64], z: f64) -> bool {
    paired(challenger, base).is_some_and(|(mean, se)| mean > z * se)
}

/// `undecided`: whether [`proven_better`]'s test is a close call, the paired mean less than `band`
/// standard errors from the margin (`z` standard errors); not under two worlds, nor when every
/// world gives the same difference.
fn undecided(challenger: &[f64], base: &[f64], z: f64, band: f64) -> bool {
    paired(challenger, base).is_some_and(|(mean, se)| (mean - z * se).abs() < band * se)
}

/// One round of successive halving: `alive` sorted by `(-value, index)` (best first, ties to the
/// heuristic's order); unless it is the `last` round, the better half (rounded up, at least one)
/// goes on, in index order.
fn rank(alive: &[usize], value: impl Fn(usize) -> f64, last: bool) -> Vec<usize> {
    let mut scored = alive.to_vec();
    scored.sort_by(|&a, &b| {
        (-value(a))
            .partial_cmp(&-value(b))
            .expect("no NaN")
            .then(a.cmp(&b))
    });
    if !last {
        scored.truncate(1.max(scored.len().div_ceil(2)));
        scored.sort_unstable();
    }
    scored
}

/// `_rollout`: `plan` in one world, then the rest of the turn and the opponent's reply (and
/// `extra_turns` more game turns); evaluated. A position already met in this world is not played
/// again. With `replies`, the world is played again with each as the opponent's model, and the
/// worst value for this side is the plan's.
fn rollout(
    ai: &mut PlanSearchAI,
    state: &MatchState<Arena>,
    me: usize,
    plan: &Plan,
    (faces, deal): (Arc<[u8]>, i64),
    (table, extra_turns): (&mut FastMap<PositionKey, f64>, usize),
    geo: &Geometry,
) -> f64 {
    let side = state.fighters[me].side;
    let (mut copy, mut players) = after_activation(ai, state, me, plan, (faces.clone(), deal));
    let key = position_key(&copy);
    if let Some(&known) = table.get(&key) {
        return known;
    }
    ai.rollouts += 1;
    let mut value = reply(
        ai,
        &mut copy,
        me,
        &mut players,
        None,
        side,
        extra_turns,
        geo,
    );
    for k in 0..ai.replies.len() {
        let (mut copy, mut players) = after_activation(ai, state, me, plan, (faces.clone(), deal));
        let played = reply(
            ai,
            &mut copy,
            me,
            &mut players,
            Some(k),
            side,
            extra_turns,
            geo,
        );
        value = value.min(played);
    }
    table.insert(key, value);
    value
}

/// `_after_activation`: a copy of the match in one world with `plan`'s activation played, and the
/// seats that play the rest of the team's turn.
fn after_activation(
    ai: &PlanSearchAI,
    state: &MatchState<Arena>,
    me: usize,
    plan: &Plan,
    (faces, deal): (Arc<[u8]>, i64),
) -> (MatchState<Arena>, super::rollout::Seats) {
    let side = state.fighters[me].side;
    let mut copy = search_copy(state, side, Dice::replay(faces));
    redeal(&mut copy, side, &mut Generator::from_int(deal as u128));
    let mut mine = ai.base.fork();
    mine.adopt(plan);
    let mut players = seats(side, mine);
    finish_activation(&mut copy, me, &mut players);
    (copy, players)
}

/// `_reply`: the rest of the team's turn, the opponent's reply by the model (`ai.model`, or
/// `ai.replies[k]` for `Some(k)`), `extra_turns` more game turns (this side's by the base, the
/// other's by that model), and the leaf.
#[allow(clippy::too_many_arguments)]
fn reply(
    ai: &PlanSearchAI,
    copy: &mut MatchState<Arena>,
    me: usize,
    players: &mut super::rollout::Seats,
    which: Option<usize>,
    side: usize,
    extra_turns: usize,
    geo: &Geometry,
) -> f64 {
    let model = || which.map_or(&ai.model, |k| &ai.replies[k]).fork();
    finish_team_turn_after(copy, me, players);
    let mut players = seats(copy.active_side, model());
    play_turn(copy, &mut players);
    for _ in 0..extra_turns {
        if copy.finished {
            break;
        }
        let player = if copy.active_side == side {
            ai.base.fork()
        } else {
            model()
        };
        let mut players = seats(copy.active_side, player);
        play_turn(copy, &mut players);
    }
    let cache = ai.base.threat_cache().clone();
    evaluate_holdings(copy, geo, side, &mut cache.borrow_mut())
}

#[cfg(test)]
mod tests {
    use super::rank;

    #[test]
    fn halving_keeps_the_better_half_rounded_up_ties_to_the_lower_index() {
        let values = [1.0, 3.0, 3.0, 0.5, 2.0];
        let value = |i: usize| values[i];
        assert_eq!(rank(&[0, 1, 2, 3, 4], value, true), vec![1, 2, 4, 0, 3]);
        assert_eq!(rank(&[0, 1, 2, 3, 4], value, false), vec![1, 2, 4]);
        assert_eq!(rank(&[4, 2, 1], value, false), vec![1, 2]);
        assert_eq!(rank(&[3], value, false), vec![3]);
        // -0.0 and 0.0 tie, as in the reference's sort key
        let zeros = [0.0, -0.0];
        assert_eq!(rank(&[1, 0], |i| zeros[i], true), vec![0, 1]);
    }
}
