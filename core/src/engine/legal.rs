//! What the active character may do now (krosbalance/engine/legal.py), in the reference's order:
//! END, the walks (neighbours N/E/S/W), each payable spell's targets (spell order, targets by
//! distance ring then cell), then the ruleset's actions.

use crate::board::Cell;
use crate::content::{Limit, PieceKind, Power, RangeType, SpellSpec, TargetRule};
use crate::engine::rules::{Action, CAST, MOVE, MatchRules};
use crate::engine::state::{Fighter, MatchState};

/// The spell's max range with the crate (+1, R-A121) and effect bonuses, unless fixed.
pub fn max_range<R: MatchRules>(state: &MatchState<R>, f: &Fighter, spell: &SpellSpec) -> i32 {
    if spell.fixed_range
        || !spell.needs_los
        || matches!(spell.range_type, RangeType::Melee | RangeType::Personal)
    {
        return spell.range_max;
    }
    let mut bonus = f.range_bonus + f.max_range_bonus;
    if state.crates.contains(f.at()) {
        bonus += 1;
    }
    spell.range_max + bonus
}

/// Costs, usage limit and summon control (R-A56, R-A66-R-A69).
pub fn can_pay<R: MatchRules>(state: &MatchState<R>, f: &Fighter, spell: &SpellSpec) -> bool {
    if f.ap < spell.ap_cost || f.mp < spell.mp_cost {
        return false;
    }
    if spell.injury_cost != 0 && f.injuries + spell.injury_cost > f.hp {
        return false;
    }
    match spell.limit {
        Limit::Turn if f.turn_uses.contains(&spell.key) => return false,
        Limit::Game if f.game_uses.contains(&spell.key) => return false,
        _ => {}
    }
    if spell.summon_control != 0 {
        let in_play = f
            .summons
            .iter()
            .filter(|&&t| {
                let t = &state.fighters[t];
                t.alive && t.summon_spell == Some(spell.key)
            })
            .count() as i32;
        if in_play >= spell.summon_control {
            return false;
        }
    }
    true
}

fn target_ok<R: MatchRules>(
    state: &MatchState<R>,
    f: &Fighter,
    spell: &SpellSpec,
    cell: Cell,
) -> bool {
    match spell.target {
        TargetRule::Any => true,
        TargetRule::FreeCell => !state.obstacles.contains(cell),
        rule => {
            let Some(p) = state.piece_at(cell) else {
                return false;
            };
            let piece = &state.fighters[p];
            if !piece.is_character() {
                return false;
            }
            match rule {
                TargetRule::Ally => piece.team == f.team && piece.uid != f.uid,
                TargetRule::Enemy => piece.team != f.team,
                _ => true,
            }
        }
    }
}

/// Every cell this spell may target now, appended to `out` as cast actions.
pub fn push_spell_targets<R: MatchRules>(
    state: &MatchState<R>,
    f: &Fighter,
    index: usize,
    spell: &SpellSpec,
    out: &mut Vec<Action>,
) {
    let origin = f.at();
    let board = &*state.board;
    let mut push = |cell: Cell| {
        if target_ok(state, f, spell, cell) {
            out.push(Action::new(CAST, index as i32, i32::from(cell)));
        }
    };
    match spell.range_type {
        RangeType::Personal => push(origin),
        RangeType::Melee => {
            for &cell in board.neighbours(origin) {
                push(cell);
            }
        }
        kind => {
            let top = max_range(state, f, spell).min(board.n_rings() as i32 - 1);
            let blockers = state.sight_blockers;
            for d in spell.range_min..=top {
                for &cell in board.ring(origin, d as usize) {
                    if kind == RangeType::Line && !board.aligned(origin, cell) {
                        continue;
                    }
                    // the target's rule first: a lookup, where sight walks a path (both are
                    // pure tests, so their order changes nothing but the cost)
                    if !target_ok(state, f, spell, cell) {
                        continue;
                    }
                    if spell.needs_los {
                        if board.los_path(origin, cell).intersects(blockers) {
                            continue;
                        }
                        if state.opts.strict_corner_los
                            && !board.has_los(origin, cell, blockers, true)
                        {
                            continue;
                        }
                    }
                    out.push(Action::new(CAST, index as i32, i32::from(cell)));
                }
            }
        }
    }
}

/// All legal actions of the active character, END first (`legal_actions`).
pub fn legal_actions<R: MatchRules>(state: &MatchState<R>, uid: usize, actions: &mut Vec<Action>) {
    actions.clear();
    actions.push(Action::END_TURN);
    let f = &state.fighters[uid];
    if !f.acting && state.active == Some(uid) {
        return;
    }
    if f.mp >= 1 && !f.blocked && (state.lock_holders.is_empty() || !held_fast(state, f)) {
        for &c in state.board.neighbours(f.at()) {
            if !state.obstacles.contains(c) {
                actions.push(Action::new(MOVE, -1, i32::from(c)));
            }
        }
    }
    let content = &*state.content;
    for (index, &sref) in f.spells.iter().enumerate() {
        let spell = content.resolve(sref);
        if can_pay(state, f, spell) {
            push_spell_targets(state, f, index, spell, actions);
        }
    }
    R::extra_actions(state, uid, actions);
    if f.forbidden_kinds != 0 {
        actions.retain(|a| a.kind >= 32 || f.forbidden_kinds & (1 << a.kind) == 0);
    }
}

/// R-A48: an enemy with Perfect Lock is adjacent, so the mover may not walk away.
pub fn held_fast<R: MatchRules>(state: &MatchState<R>, mover: &Fighter) -> bool {
    let adjacent = state.board.neighbour_mask(mover.at());
    state.lock_holders.iter().any(|&h| {
        let h = &state.fighters[h];
        h.alive
            && h.cell >= 0
            && h.team != mover.team
            && adjacent.contains(h.at())
            && h.has(Power::PerfectLock)
    })
}

/// Every cell this spell may target now (`spell_targets`), for a spell outside the piece's list
/// (a Boost's single-use spell).
pub fn spell_targets<R: MatchRules>(
    state: &MatchState<R>,
    f: &Fighter,
    spell: &SpellSpec,
) -> Vec<Cell> {
    let mut actions = Vec::new();
    push_spell_targets(state, f, 0, spell, &mut actions);
    actions.into_iter().map(|a| a.target as Cell).collect()
}

/// Whether a piece is a Krosmaster (Arena's extra actions are theirs only).
#[inline]
pub fn is_krosmaster(f: &Fighter) -> bool {
    f.kind == PieceKind::Krosmaster
}
