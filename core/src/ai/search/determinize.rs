//! What a side cannot see, dealt again in its copy of the match (rulesets/arena/state.py's
//! `hide_from`, ai/determinize.py's `redeal`): per rank, the market's face-down piles and the
//! enemy's unseen tokens pooled and dealt back to the same places, each keeping its rank and count.
//! `hide_from` turns the pool sorted by id by an offset of public facts (every copy the same);
//! `redeal` shuffles it with a search's own stream (one world of many).

use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::rewards::tokens_of;

/// (uid, index on its card) of the tokens the filter keeps, in fighter then card order.
fn held(state: &MatchState<Arena>, keep: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for f in &state.fighters {
        for (i, _) in tokens_of(state, f.uid).iter().enumerate() {
            if keep(f.uid, i) {
                out.push((f.uid, i));
            }
        }
    }
    out
}

/// Deal `dealt` back (popping from its end): first to the held tokens in order, then to each of the
/// rank's two piles, each keeping its count.
fn deal_back(
    state: &mut MatchState<Arena>,
    rank: usize,
    held: &[(usize, usize)],
    mut dealt: Vec<usize>,
) {
    for &(uid, i) in held {
        let token = dealt.pop().expect("a token per place");
        state.rules.cards[uid].as_mut().expect("a card").tokens[i].reward = token;
    }
    let market = state.rules.market.as_mut().expect("a market");
    for pile in [2 * rank, 2 * rank + 1] {
        let count = market.piles[pile].len();
        market.piles[pile].clear();
        for _ in 0..count {
            market.piles[pile].push(dealt.pop().expect("a token per place"));
        }
    }
}

/// The pool of one rank: its two piles' tokens, then the held ones.
fn pool(state: &MatchState<Arena>, rank: usize, held: &[(usize, usize)]) -> Vec<usize> {
    let market = state.rules.market.as_ref().expect("a market");
    let mut pool: Vec<usize> = market.piles[2 * rank]
        .iter()
        .chain(&market.piles[2 * rank + 1])
        .copied()
        .collect();
    pool.extend(held.iter().map(|&(uid, i)| tokens_of(state, uid)[i].reward));
    pool
}

fn of_rank(
    state: &MatchState<Arena>,
    hidden: &[(usize, usize)],
    rank: usize,
) -> Vec<(usize, usize)> {
    hidden
        .iter()
        .copied()
        .filter(|&(uid, i)| state.content.rewards[tokens_of(state, uid)[i].reward].rank == rank)
        .collect()
}

/// `ArenaState.hide_from`: in a copy made for `side`, the other partnerships' secret tokens and the
/// market's face-down piles, per rank, sorted by id, turned by `(turn * 7 + rank) % len`, dealt back.
pub fn hide_from(state: &mut MatchState<Arena>, side: usize) {
    if state.rules.market.is_none() {
        return;
    }
    let team = state.team_of[side];
    let hidden = held(state, |uid, i| {
        state.fighters[uid].team != team && tokens_of(state, uid)[i].is_secret()
    });
    for rank in 0..3 {
        let held = of_rank(state, &hidden, rank);
        let mut pool = pool(state, rank, &held);
        let rewards = &state.content.rewards;
        pool.sort_by(|&a, &b| rewards[a].id.cmp(&rewards[b].id));
        if pool.len() < 2 {
            continue;
        }
        let shift = (state.turn as i64 * 7 + rank as i64).rem_euclid(pool.len() as i64) as usize;
        pool.rotate_left(shift);
        deal_back(state, rank, &held, pool);
    }
}

/// `determinize.redeal`: the enemy's face-down tokens and the market's face-down piles, per rank,
/// shuffled by `rng.permutation` (only for a pool of two or more) and dealt back.
pub fn redeal(state: &mut MatchState<Arena>, side: usize, rng: &mut Generator) {
    if state.rules.market.is_none() {
        return;
    }
    let hidden = held(state, |uid, i| {
        state.fighters[uid].side != side && !tokens_of(state, uid)[i].face_up
    });
    for rank in 0..3 {
        let held = of_rank(state, &hidden, rank);
        let pool = pool(state, rank, &held);
        if pool.len() < 2 {
            continue;
        }
        let dealt = rng
            .permutation(pool.len())
            .into_iter()
            .map(|i| pool[i])
            .collect();
        deal_back(state, rank, &held, dealt);
    }
}
