//! A static evaluation of a position for the search AIs, in injury units (krosbalance/ai/
//! evaluation.py): the score, material, next-turn KO threats, and the stock (a flat worth per kama,
//! or for mcts what the kamas and held tokens buy). Every float is summed in the reference's order:
//! the plans' values are compared to 1e-9, so the last bit can decide a choice.

use crate::ai::rewards::{Holder, TURNS_LEFT, kama_rate, reward_value};
use crate::ai::scoring::{
    self, GG_UNIT, Geometry, ThreatCache, character, ko_risk, score_after, score_value,
    summon_worth,
};
use crate::content::{PieceKind, RewardKind};
use crate::engine::state::MatchState;
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::rewards::tokens_of;

/// A decided match.
pub const WIN_SCORE: f64 = 10_000.0;
/// One HP left on a Krosmaster.
pub const HP_WORTH: f64 = 0.7;
/// A Krosmaster in play, besides its HP.
pub const PRESENCE: f64 = 2.0;
/// A kama in the stock (`evaluate`'s flat worth).
pub const KAMA_WORTH: f64 = 0.1;
/// Weight of the KO threats against the side to move next, and against the other.
pub const THREAT_TO_MOVER: f64 = 0.25;
pub const THREAT_TO_OTHER: f64 = 0.5;
/// Share of a kama's going rate through GG, of a held face-down token's worth, of a face-up
/// equipment's.
pub const KAMA_SHARE: f64 = 0.6;
pub const HELD_SHARE: f64 = 0.6;
pub const FACE_UP_SHARE: f64 = 0.3;

/// `evaluate(state, side, cache, threats=True, kama_worth)`: how good `state` is for `side`.
pub fn evaluate(
    state: &MatchState<Arena>,
    geo: &Geometry,
    side: usize,
    cache: &mut ThreatCache,
    kama_worth: f64,
) -> f64 {
    if state.finished {
        return match state.winner {
            None => 0.0,
            Some(w) if w == side => WIN_SCORE,
            Some(_) => -WIN_SCORE,
        };
    }
    let arena = &state.rules;
    let (gg, wild, kamas) = (&arena.gg, arena.wild_gg, &arena.kamas);
    let team_of = &state.team_of;
    let score = score_value(gg, wild, side, team_of);
    if score.abs() >= scoring::WIN_VALUE {
        return if score > 0.0 { WIN_SCORE } else { -WIN_SCORE };
    }
    let mut value = GG_UNIT * score;
    for f in &state.fighters {
        if !f.alive || f.cell < 0 {
            continue;
        }
        let sign = if f.side == side { 1.0 } else { -1.0 };
        let left = f64::from(f.hp - f.injuries);
        if f.kind == PieceKind::Krosmaster {
            value += sign * (HP_WORTH * left + PRESENCE);
        } else if f.kind == PieceKind::Creature {
            value += sign * (0.5 * HP_WORTH * left + summon_worth(character(state, f)));
        }
    }
    value += kama_worth * f64::from(kamas[side] - kamas[1 - side]);
    let mover = state.active_side;
    for victims in 0..2 {
        let danger = scoring::threat_map(state, geo, victims, cache);
        let weight = if victims == mover {
            THREAT_TO_MOVER
        } else {
            THREAT_TO_OTHER
        };
        let sign = if victims == side { -1.0 } else { 1.0 };
        for &k in &state.timeline[victims] {
            let k = &state.fighters[k];
            if !k.alive || k.cell < 0 {
                continue;
            }
            let risk = ko_risk(danger.at(k.at()), k.hp - k.injuries);
            if risk > 0.0 {
                let (after, wild_after) =
                    score_after(gg, wild, 1 - victims, k.level, None, team_of);
                let swing = score_value(&after, wild_after, side, team_of)
                    - score_value(gg, wild, side, team_of);
                let swing = swing.clamp(-scoring::WIN_VALUE, scoring::WIN_VALUE);
                value += weight * risk * (GG_UNIT * swing).abs() * sign;
            }
        }
    }
    value
}

/// How the other partnerships' worth is set against one's own (`evaluation.AGAINST`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    Sum,
    Mean,
    Max,
}

/// The free-for-all knobs of the four-player search (`LookaheadAI.ffa_*`): how many rounds of the
/// other seats' turns a rollout plays, on how many dice sets, and how much one's own worth weighs
/// in the leaf. The defaults are the search as it was; none applies in two versus two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ffa {
    /// Rounds of the other seats' turns a rollout plays (one's own turns between them by the base).
    pub rounds: usize,
    /// Dice sets per plan (0: the budget's).
    pub dice_sets: usize,
    /// Weight of one's own worth (material, kamas, less threats) against the others'.
    pub own: f64,
}

impl Ffa {
    /// `evaluation.free_for_all`: more than two seats, each its own partnership (R-A152).
    pub fn applies(state: &MatchState<Arena>) -> bool {
        state.n_seats > 2 && (0..state.n_seats).all(|s| state.team_of[s] == s)
    }
}

impl Default for Ffa {
    fn default() -> Self {
        Ffa {
            rounds: 1,
            dice_sets: 0,
            own: 1.0,
        }
    }
}

impl Against {
    /// `sum`, `mean` or `max`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "sum" => Some(Against::Sum),
            "mean" => Some(Against::Mean),
            "max" => Some(Against::Max),
            _ => None,
        }
    }
}

/// `evaluate_sides(state, side, cache, against, kama_worth, own=ffa.own)`: `evaluate` for any number of
/// partnerships (four-player Arena): the score, then the partnership's worth (material, kamas, less
/// the KO threats against its Krosmasters) against `against` of the others'.
pub fn evaluate_sides(
    state: &MatchState<Arena>,
    geo: &Geometry,
    side: usize,
    cache: &mut ThreatCache,
    against: Against,
    kama_worth: f64,
    ffa: &Ffa,
) -> f64 {
    let team_of = &state.team_of;
    let mine = team_of[side];
    if state.finished {
        return match state.winner {
            None => 0.0,
            Some(w) if w == mine => WIN_SCORE,
            Some(_) => -WIN_SCORE,
        };
    }
    let arena = &state.rules;
    let (gg, wild, kamas) = (&arena.gg, arena.wild_gg, &arena.kamas);
    let score = score_value(gg, wild, side, team_of);
    if score.abs() >= scoring::WIN_VALUE {
        return if score > 0.0 { WIN_SCORE } else { -WIN_SCORE };
    }
    let parties = team_of.iter().copied().max().unwrap_or(0) + 1;
    let mut worth = vec![0.0f64; parties];
    for f in &state.fighters {
        if !f.alive || f.cell < 0 {
            continue;
        }
        let team = team_of[f.side];
        let left = f64::from(f.hp - f.injuries);
        if f.kind == PieceKind::Krosmaster {
            worth[team] += HP_WORTH * left + PRESENCE;
        } else if f.kind == PieceKind::Creature {
            worth[team] += 0.5 * HP_WORTH * left + summon_worth(character(state, f));
        }
    }
    for seat in 0..state.n_seats {
        worth[team_of[seat]] += kama_worth * f64::from(kamas[seat]);
    }
    let mover = state.active_side;
    for victims in 0..state.n_seats {
        let alive: Vec<usize> = state.timeline[victims]
            .iter()
            .copied()
            .filter(|&k| state.fighters[k].alive && state.fighters[k].cell >= 0)
            .collect();
        if alive.is_empty() {
            continue;
        }
        let danger = scoring::threat_map(state, geo, victims, cache);
        let weight = if victims == mover {
            THREAT_TO_MOVER
        } else {
            THREAT_TO_OTHER
        };
        let gainer = scoring::rival(gg, team_of, victims);
        let before = score_value(gg, wild, victims, team_of);
        for k in alive {
            let k = &state.fighters[k];
            let risk = ko_risk(danger.at(k.at()), k.hp - k.injuries);
            if risk > 0.0 {
                let (after, wild_after) =
                    score_after(gg, wild, gainer, k.level, Some(victims), team_of);
                let swing = score_value(&after, wild_after, victims, team_of) - before;
                let swing = swing.clamp(-scoring::WIN_VALUE, scoring::WIN_VALUE);
                worth[team_of[victims]] -= weight * risk * (GG_UNIT * swing).abs();
            }
        }
    }
    let others: Vec<f64> = (0..parties)
        .filter(|&p| p != mine)
        .map(|p| worth[p])
        .collect();
    let rest = match against {
        Against::Max => others.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        // Python's `sum` starts from the integer 0
        Against::Mean => others.iter().fold(0.0, |a, b| a + b) / others.len() as f64,
        Against::Sum => others.iter().fold(0.0, |a, b| a + b),
    };
    // a free-for-all: one's own worth weighs `ffa.own` times (a blow dealt to one rival helps the
    // other two as well; what one loses is lost to all three)
    let own = if Ffa::applies(state) { ffa.own } else { 1.0 };
    GG_UNIT * score + own * worth[mine] - rest
}

/// `evaluate_holdings`: `evaluate` with the stock and the cards priced at what they buy.
pub fn evaluate_holdings(
    state: &MatchState<Arena>,
    geo: &Geometry,
    side: usize,
    cache: &mut ThreatCache,
) -> f64 {
    let value = evaluate(state, geo, side, cache, 0.0);
    if state.finished || value.abs() >= WIN_SCORE {
        return value;
    }
    value + holdings_value(state, side)
}

/// `holdings_value`: `side`'s kamas and held Demonic Rewards less the other side's.
pub fn holdings_value(state: &MatchState<Arena>, side: usize) -> f64 {
    let arena = &state.rules;
    let rate = KAMA_SHARE * kama_rate(arena.gg_price);
    let mut value = rate * f64::from(arena.kamas[side] - arena.kamas[1 - side]);
    for f in &state.fighters {
        if !f.alive || f.cell < 0 || f.kind != PieceKind::Krosmaster {
            continue;
        }
        let tokens = tokens_of(state, f.uid);
        if tokens.is_empty() {
            continue;
        }
        let holder = Holder::of(&state.content, f);
        let mut worth = 0.0f64;
        for token in tokens {
            let spec = &state.content.rewards[token.reward];
            if !token.face_up {
                worth += HELD_SHARE * reward_value(spec, &holder, TURNS_LEFT);
            } else if spec.kind == RewardKind::Equipment {
                worth += FACE_UP_SHARE * reward_value(spec, &holder, TURNS_LEFT);
            }
        }
        value += if f.side == side { worth } else { -worth };
    }
    value
}
