//! The heuristic AIs' choices outside an activation (krosbalance/ai/tension.py): where to deploy,
//! and how to turn and give the tension dice. Deterministic: ties follow cell order and the
//! Timeline order of the Krosmasters.

use crate::ai::context::reach;
use crate::ai::scoring::{self, BLOCK_CHANCE, ThreatMap};
use crate::ai::weights::Weights;
use crate::board::Cell;
use crate::content::{Element, Power, SpellKind};
use crate::engine::dice::{ARMOUR, CRITICAL, DODGE, LOCK};
use crate::engine::state::MatchState;
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::tension::TensionChoice;

/// `deployment_cells`: melee Krosmasters nearest the enemy's zone, ranged ones behind; the
/// fighters are the side's Timeline.
pub fn deployment_cells(state: &MatchState<Arena>, side: usize, cells: &[Cell]) -> Vec<Cell> {
    let board = &state.board;
    let mut enemy_zone: Vec<Cell> = if state.n_seats == 2 {
        board.deploy(1 - side).iter().collect()
    } else {
        let own: crate::board::CellSet = cells.iter().copied().collect();
        let mut zone = Vec::new();
        for z in 0..board.n_zones() {
            let mask = board.deploy(z);
            if !mask.intersects(own) {
                zone.extend(mask.iter());
            }
        }
        zone
    };
    if enemy_zone.is_empty() {
        enemy_zone.push((board.n_cells() / 2) as Cell);
    }
    let depth = |c: Cell| -> i64 {
        enemy_zone
            .iter()
            .map(|&e| i64::from(board.distance(c, e)))
            .sum()
    };
    let centre = board.cell((board.width() / 2) as i32, (board.height() / 2) as i32);
    let mut front: Vec<Cell> = cells.to_vec();
    front.sort_by_key(|&c| (depth(c), board.distance(c, centre), c));
    let fighters = &state.timeline[side];
    let mut order: Vec<usize> = (0..fighters.len()).collect();
    order.sort_by_key(|&i| (reach(state, &state.fighters[fighters[i]]), i));
    let mut chosen = vec![0 as Cell; fighters.len()];
    for (slot, &i) in order.iter().enumerate() {
        chosen[i] = front[slot];
    }
    chosen
}

/// `tension_choice`: a double only when ahead with the wild GG gone; each die to whom it helps
/// most, or refunded.
pub fn tension_choice(
    w: &Weights,
    state: &MatchState<Arena>,
    side: usize,
    options: &[(u8, u8)],
    threat: &ThreatMap,
) -> TensionChoice {
    let arena = &state.rules;
    let gg = &arena.gg;
    let mine = gg[side];
    let theirs = (0..state.n_seats)
        .filter(|&s| state.team_of[s] != state.team_of[side])
        .map(|s| gg[s])
        .max()
        .expect("an opponent");
    let want_double = arena.wild_gg == 0 && mine > theirs;
    let mut choices: Vec<(u8, u8)> = options
        .iter()
        .copied()
        .filter(|o| (o.0 == o.1) == want_double)
        .collect();
    if choices.is_empty() {
        choices = options.to_vec();
    }
    let kros: Vec<usize> = state.timeline[side]
        .iter()
        .copied()
        .filter(|&k| state.fighters[k].alive && state.fighters[k].cell >= 0)
        .collect();
    let worth = inspiration_worth(w, state, side, &kros, threat);
    let refund = w.refund;
    let refunds = [refund * 3.0, refund * 1.0, refund * 0.0];
    let n = kros.len() as i64;
    let mut best_value = 0.0f64;
    let mut best: Option<((u8, u8), i64, i64)> = None;
    for &faces in &choices {
        let (first, second) = faces;
        let same = first == second;
        for a in -1..n {
            let mut start = 0.0f64;
            if a >= 0 {
                start += worth[a as usize][usize::from(first)];
            }
            for b in -1..n {
                let mut value = start;
                let mut used = usize::from(a >= 0);
                if b >= 0 {
                    if !(a == b && same) {
                        value += worth[b as usize][usize::from(second)];
                    }
                    used += 1;
                }
                value += refunds[used];
                if best.is_none() || value > best_value + 1e-9 {
                    best_value = value;
                    best = Some((faces, a, b));
                }
            }
        }
    }
    match best {
        None => TensionChoice {
            faces: choices[0],
            assigned: (-1, -1),
        },
        Some((faces, a, b)) => TensionChoice {
            faces,
            assigned: (
                if a >= 0 { kros[a as usize] as i64 } else { -1 },
                if b >= 0 { kros[b as usize] as i64 } else { -1 },
            ),
        },
    }
}

/// `inspiration_worth`: per Krosmaster, each face's estimated worth until the next tension roll.
pub fn inspiration_worth(
    w: &Weights,
    state: &MatchState<Arena>,
    side: usize,
    kros: &[usize],
    threat: &ThreatMap,
) -> Vec<[f64; 4]> {
    let my_team = state.team_of[side];
    let enemies: Vec<Cell> = scoring::on_board(state)
        .filter(|f| f.team != my_team && f.is_character())
        .map(|f| f.at())
        .collect();
    let wi = w.inspire;
    let mut table = Vec::with_capacity(kros.len());
    for &uid in kros {
        let k = &state.fighters[uid];
        let mut row = [0.0f64; 4];
        let near = enemies
            .iter()
            .map(|&e| i32::from(state.board.distance(k.at(), e)))
            .min()
            .unwrap_or(99);
        if !k.has(Power::Critical) {
            let mut hits = 0i32;
            for &s in &k.spells {
                let spell = state.content.resolve(s);
                if spell.kind == SpellKind::Attack
                    && spell.element != Element::Neutral
                    && spell.ap_cost != 0
                {
                    hits = hits.max(k.base_ap.div_euclid(spell.ap_cost));
                }
            }
            let engaged = if near <= k.base_mp + reach(state, k) + 1 {
                1.0
            } else {
                0.3
            };
            row[usize::from(CRITICAL)] = wi * 0.45 * f64::from(hits) * engaged;
        }
        let danger = if k.cell >= 0 { threat.at(k.at()) } else { 0.0 };
        if !k.has(Power::Armour) {
            row[usize::from(ARMOUR)] =
                wi * 0.28 * danger * (1.0 + scoring::ko_risk(danger, scoring::remaining_hp(k)));
        }
        let mut adjacent = 0;
        let mut lockers = 0.0f64;
        for &c in state.board.neighbours(k.at()) {
            let Some(p) = state.piece_at(c) else {
                continue;
            };
            let piece = &state.fighters[p];
            if piece.alive
                && piece.team != k.team
                && piece.is_character()
                && !piece.has(Power::Tiny)
            {
                adjacent += 1;
                let lock = if piece.has(Power::Lock) { 2 } else { 1 };
                lockers += BLOCK_CHANCE[lock][1] - BLOCK_CHANCE[lock][2];
            }
        }
        if !k.has(Power::Dodge) {
            row[usize::from(DODGE)] = wi * (2.5 * lockers + if near <= 3 { 0.05 } else { 0.0 });
        }
        if !k.has(Power::Lock) {
            row[usize::from(LOCK)] = wi * 0.25 * f64::from(adjacent);
        }
        table.push(row);
    }
    table
}
