//! What the active character may do now (krosbalance/engine/legal.py), in the reference's order:
//! END, the walks (neighbours N/E/S/W), each payable spell's targets (spell order, targets by
//! distance ring then cell), then the ruleset's actions.

use crate::board::{Cell, CellSet};
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

/// What blocks line of sight for a caster on `origin` (R-A78): trees and non-Tiny characters,
/// except pieces with Invisibility not adjacent to the caster (R-A108).
#[inline]
pub fn sight_blockers_from<R: MatchRules>(state: &MatchState<R>, origin: Cell) -> CellSet {
    let blockers = state.sight_blockers;
    if state.invisible.is_empty() {
        return blockers;
    }
    blockers & !(state.invisible & !state.board.neighbour_mask(origin))
}

/// Whether a summon spell puts a trap in play (at most one trap per cell, R-A116).
pub fn lays_trap<R: MatchRules>(state: &MatchState<R>, spell: &SpellSpec) -> bool {
    spell
        .summons
        .is_some_and(|s| state.content.chars[s].kind == PieceKind::Trap)
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
    if !f.banned_targets.is_empty() {
        // "your next <spell> must have a different target" (`different_target_next`)
        if let Some(&(_, banned)) = f.banned_targets.iter().find(|(key, _)| *key == spell.key) {
            if state.piece_at(cell) == Some(banned) {
                return false;
            }
        }
    }
    match spell.target {
        TargetRule::Any => true,
        // R-A64, R-A116: a trap's cell stays free; only a second trap may not be put there
        TargetRule::FreeCell => {
            !state.obstacles.contains(cell)
                && (!state.traps.contains(cell) || !lays_trap(state, spell))
        }
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

/// Whether a ranged spell (not melee, not personal) may target `cell` at distance `d` from the
/// caster's `origin`, `d` within its rings: line, the target's rule, then sight (the one rule
/// [`push_spell_targets`] lists and [`is_legal`] tests).
#[inline]
fn ranged_cell_ok<R: MatchRules>(
    state: &MatchState<R>,
    f: &Fighter,
    spell: &SpellSpec,
    origin: Cell,
    cell: Cell,
) -> bool {
    let board = &*state.board;
    if spell.range_type == RangeType::Line && !board.aligned(origin, cell) {
        return false;
    }
    // the target's rule first: a lookup, where sight walks a path (both are pure tests, so
    // their order changes nothing but the cost)
    if !target_ok(state, f, spell, cell) {
        return false;
    }
    if spell.needs_los {
        let blockers = sight_blockers_from(state, origin);
        if board.los_path(origin, cell).intersects(blockers) {
            return false;
        }
        if state.opts.strict_corner_los && !board.has_los(origin, cell, blockers, true) {
            return false;
        }
    }
    true
}

/// The farthest ring a ranged spell reaches now (its rings run from `range_min` to this).
#[inline]
fn top_ring<R: MatchRules>(state: &MatchState<R>, f: &Fighter, spell: &SpellSpec) -> i32 {
    max_range(state, f, spell).min(state.board.n_rings() as i32 - 1)
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
        _ => {
            for d in spell.range_min..=top_ring(state, f, spell) {
                for &cell in board.ring(origin, d as usize) {
                    if ranged_cell_ok(state, f, spell, origin, cell) {
                        out.push(Action::new(CAST, index as i32, i32::from(cell)));
                    }
                }
            }
        }
    }
}

/// Whether `action` is in [`legal_actions`]`(state, uid)`, tested without building the list (an AI
/// that only asks "may I do this?" is answered by a few lookups, where the list walks every spell's
/// rings and sight lines).
pub fn is_legal<R: MatchRules>(state: &MatchState<R>, uid: usize, action: Action) -> bool {
    let f = &state.fighters[uid];
    if !f.acting && state.active == Some(uid) {
        return action == Action::END_TURN;
    }
    if f.forbidden_kinds != 0 && action.kind < 32 && f.forbidden_kinds & (1 << action.kind) != 0 {
        return false;
    }
    if action == Action::END_TURN {
        return true;
    }
    let board = &*state.board;
    let on_board = |target: i32| -> Option<Cell> {
        usize::try_from(target)
            .ok()
            .filter(|&t| t < board.n_cells())
            .map(|t| t as Cell)
    };
    match action.kind {
        MOVE => {
            let Some(cell) = on_board(action.target) else {
                return false;
            };
            action.spell == -1
                && f.mp >= 1
                && !f.blocked
                && (state.lock_holders.is_empty() || !held_fast(state, f))
                && board.neighbours(f.at()).contains(&cell)
                && !state.obstacles.contains(cell)
        }
        CAST => {
            let (Some(cell), Ok(index)) = (on_board(action.target), usize::try_from(action.spell))
            else {
                return false;
            };
            let Some(&sref) = f.spells.get(index) else {
                return false;
            };
            let spell = state.content.resolve(sref);
            if !can_pay(state, f, spell) {
                return false;
            }
            let origin = f.at();
            match spell.range_type {
                RangeType::Personal => cell == origin && target_ok(state, f, spell, cell),
                RangeType::Melee => {
                    board.neighbours(origin).contains(&cell) && target_ok(state, f, spell, cell)
                }
                _ => {
                    let d = i32::from(board.distance(origin, cell));
                    spell.range_min <= d
                        && d <= top_ring(state, f, spell)
                        && ranged_cell_ok(state, f, spell, origin, cell)
                }
            }
        }
        _ => {
            let mut extra = Vec::new();
            R::extra_actions(state, uid, &mut extra);
            extra.contains(&action)
        }
    }
}

/// The legal actions of one decision, as a controller may read them: the whole list in the
/// reference's order (built on first request), or one action's membership (answered by
/// [`is_legal`] while the list is not built). Either reading gives the same answers.
pub struct LegalActions<'a, R: MatchRules> {
    state: &'a MatchState<R>,
    uid: usize,
    store: Store<'a>,
}

enum Store<'a> {
    /// a buffer to build the list in, and whether it is built
    Lazy(&'a mut Vec<Action>, bool),
    /// the list, given built
    Listed(&'a [Action]),
}

impl<'a, R: MatchRules> LegalActions<'a, R> {
    /// The actions of `uid` now, listed in `buffer` only when the whole list is asked for.
    pub fn lazy(state: &'a MatchState<R>, uid: usize, buffer: &'a mut Vec<Action>) -> Self {
        LegalActions {
            state,
            uid,
            store: Store::Lazy(buffer, false),
        }
    }

    /// The actions of `uid` now, `list` being their list (`legal_actions`).
    pub fn listed(state: &'a MatchState<R>, uid: usize, list: &'a [Action]) -> Self {
        LegalActions {
            state,
            uid,
            store: Store::Listed(list),
        }
    }

    /// The whole list, in the reference's order.
    pub fn all(&mut self) -> &[Action] {
        match &mut self.store {
            Store::Lazy(buffer, built) => {
                if !*built {
                    legal_actions(self.state, self.uid, buffer);
                    *built = true;
                }
                buffer
            }
            Store::Listed(list) => list,
        }
    }

    /// Whether `action` is legal.
    pub fn contains(&self, action: &Action) -> bool {
        match &self.store {
            Store::Lazy(buffer, true) => buffer.contains(action),
            Store::Lazy(_, false) => is_legal(self.state, self.uid, *action),
            Store::Listed(list) => list.contains(action),
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
