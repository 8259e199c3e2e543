//! Additional-effect keywords (krosbalance/engine/effects.py): one `match` arm per registered kind,
//! applied in printed order by phase (flag, caster, target, bonus).

use crate::board::Cell;
use crate::content::{Effect, Phase, PieceKind, Power, RangeType, SpellSpec};
use crate::engine::events::Event;
use crate::engine::movement::slide;
use crate::engine::pieces::swap;
use crate::engine::rules::{Marker, MatchRules};
use crate::engine::state::MatchState;

/// What one spell resolution knows while it runs.
#[derive(Debug)]
pub struct CastContext {
    pub caster: usize,
    pub target_cell: Cell,
    pub pierce_armour: bool,
    pub lifesteal: bool,
    /// (uid, extra damage), in the order first given.
    pub bonus: Vec<(usize, i32)>,
    /// A second cell the player picked for the cast (Pandawa Style's ally), or -1.
    pub choice: i32,
}

impl CastContext {
    pub fn new(caster: usize, target_cell: Cell) -> Self {
        CastContext {
            caster,
            target_cell,
            pierce_armour: false,
            lifesteal: false,
            bonus: Vec::new(),
            choice: -1,
        }
    }

    pub fn bonus_of(&self, uid: usize) -> i32 {
        self.bonus
            .iter()
            .find(|(u, _)| *u == uid)
            .map_or(0, |&(_, b)| b)
    }

    fn add_bonus(&mut self, uid: usize, amount: i32) {
        match self.bonus.iter_mut().find(|(u, _)| *u == uid) {
            Some(entry) => entry.1 += amount,
            None => self.bonus.push((uid, amount)),
        }
    }
}

/// Whether movement effects move this piece: Unfazed pieces and (by option) bombs are not.
fn is_fazed<R: MatchRules>(state: &MatchState<R>, piece: usize) -> bool {
    let p = &state.fighters[piece];
    if p.has(Power::Unfazed) {
        return false;
    }
    !(p.kind == PieceKind::Bomb && state.opts.bombs_unfazed)
}

/// Unit step from `origin` toward `goal` and how many cells a move toward it may take.
fn toward<R: MatchRules>(
    state: &MatchState<R>,
    origin: Cell,
    goal: Cell,
    cells: i32,
) -> Option<(i32, i32, i32)> {
    let board = &state.board;
    let (dx, dy) = board.direction(origin, goal)?;
    let ((x0, y0), (x1, y1)) = (board.xy(origin), board.xy(goal));
    let room = if dx != 0 {
        (x1 - x0).abs()
    } else {
        (y1 - y0).abs()
    };
    Some((dx, dy, cells.min(room)))
}

fn unfazed_against<R: MatchRules>(
    state: &MatchState<R>,
    ctx: &CastContext,
    spell: &SpellSpec,
    target: usize,
) -> bool {
    if !state.fighters[target].has(Power::Unfazed) {
        return false;
    }
    !(target == ctx.caster && spell.range_type == RangeType::Personal)
}

fn marker<R: MatchRules>(state: &mut MatchState<R>, target: usize, kind: Marker, amount: i32) {
    if state.fighters[target].is_character() {
        R::add_marker(state, target, kind, amount);
    }
}

/// One effect on the caster or on a flag (target `None`), or on one target.
fn apply<R: MatchRules>(
    state: &mut MatchState<R>,
    ctx: &mut CastContext,
    spell: &SpellSpec,
    effect: &Effect,
    target: Option<usize>,
) {
    let caster = ctx.caster;
    match effect {
        Effect::PierceArmour => ctx.pierce_armour = true,
        Effect::Lifesteal => ctx.lifesteal = true,
        Effect::Retreat { cells } => {
            let cell = state.fighters[caster].cell;
            if cell >= 0
                && let Some((dx, dy)) = state.board.direction(ctx.target_cell, cell as Cell)
            {
                slide(state, caster, dx, dy, *cells, "retreat");
            }
        }
        Effect::Approach { cells } => {
            let cell = state.fighters[caster].cell;
            if cell < 0 {
                return;
            }
            if let Some((dx, dy, n)) = toward(state, cell as Cell, ctx.target_cell, *cells)
                && n > 0
            {
                slide(state, caster, dx, dy, n, "approach");
            }
        }
        Effect::RangeBonusThisTurn { amount } => state.fighters[caster].range_bonus += amount,
        Effect::LoseAllMp => state.fighters[caster].mp = 0,
        Effect::MoveToTarget => {
            // R-B28 (Bond imprudent): a special movement, so no Lock and no dodge roll; entering
            // a cell of `enter_cells` calls the ruleset's `on_enter`.
            let c = &state.fighters[caster];
            let cell = ctx.target_cell;
            if c.cell < 0 || i32::from(cell) == c.cell || state.obstacles.contains(cell) {
                return;
            }
            let origin = c.cell;
            crate::engine::pieces::relocate(state, caster, cell);
            if state.full() {
                state.events.push(Event::Moved {
                    turn: state.turn,
                    uid: caster,
                    origin,
                    destination: i32::from(cell),
                    how: "spell_move",
                });
            }
            if R::enter_cells(state).contains(cell) {
                R::on_enter(state, caster, origin as Cell, cell, "spell_move");
            }
        }
        Effect::MinusMarkerIfGlyphs { glyphs, ap, amount } => {
            // R-B29 (Peine capitole): while the caster's player controls `glyphs` glyph cells,
            // the target character receives `amount` minus markers.
            let Some(t) = target else { return };
            if !state.fighters[t].is_character() {
                return;
            }
            let side = state.fighters[caster].side;
            if R::glyphs(state, side).is_some_and(|g| g >= *glyphs) {
                let kind = if *ap {
                    Marker::MinusAp
                } else {
                    Marker::MinusMp
                };
                R::add_marker(state, t, kind, *amount);
            }
        }
        Effect::DifferentTargetNext => {
            let key = spell.key;
            let piece = state.piece_at(ctx.target_cell);
            let banned = &mut state.fighters[caster].banned_targets;
            banned.retain(|&(k, _)| k != key);
            if let Some(uid) = piece {
                banned.push((key, uid));
            }
        }
        Effect::CarryAlly => {
            let c = &state.fighters[caster];
            if ctx.choice < 0 || c.cell < 0 || state.obstacles.contains(ctx.target_cell) {
                return;
            }
            let Some(ally) = state.piece_at(ctx.choice as Cell) else {
                return;
            };
            let a = &state.fighters[ally];
            if !a.alive || a.team != c.team || ally == caster || !a.is_character() {
                return;
            }
            if !state.board.neighbour_mask(c.at()).contains(a.at()) {
                return;
            }
            let origin = a.cell;
            crate::engine::pieces::relocate(state, ally, ctx.target_cell);
            if state.full() {
                state.events.push(Event::Moved {
                    turn: state.turn,
                    uid: ally,
                    origin,
                    destination: i32::from(ctx.target_cell),
                    how: "carry",
                });
            }
            // R-A171: a trap there springs once the spell has resolved, which here is at once
            if state.traps.contains(ctx.target_cell) {
                crate::engine::combat::trigger_trap(state, ctx.target_cell);
            }
        }
        Effect::Push { cells } => {
            let t = target.expect("a target effect");
            if t == caster || !is_fazed(state, t) {
                return;
            }
            let from = state.fighters[caster].cell;
            if from < 0 {
                return; // direction(-1, ..) never happens in the reference: a caster off the board
            }
            if let Some((dx, dy)) = state.board.direction(from as Cell, state.fighters[t].at()) {
                slide(state, t, dx, dy, *cells, "push");
            }
        }
        Effect::Attract { cells } => {
            let t = target.expect("a target effect");
            if t == caster || !is_fazed(state, t) {
                return;
            }
            let goal = state.fighters[caster].cell;
            if goal < 0 {
                return;
            }
            if let Some((dx, dy, n)) = toward(state, state.fighters[t].at(), goal as Cell, *cells)
                && n > 0
            {
                slide(state, t, dx, dy, n, "attract");
            }
        }
        Effect::MinusMp { amount } => {
            marker(state, target.expect("target"), Marker::MinusMp, *amount)
        }
        Effect::PlusMp { amount } => {
            marker(state, target.expect("target"), Marker::PlusMp, *amount)
        }
        Effect::MinusAp { amount } => {
            marker(state, target.expect("target"), Marker::MinusAp, *amount)
        }
        Effect::PlusAp { amount } => {
            marker(state, target.expect("target"), Marker::PlusAp, *amount)
        }
        Effect::StealMp { amount } => {
            let t = target.expect("target");
            if state.fighters[t].is_character() {
                R::add_marker(state, t, Marker::MinusMp, *amount);
                R::add_marker(state, caster, Marker::PlusMp, *amount);
            }
        }
        Effect::StealAp { amount } => {
            let t = target.expect("target");
            if state.fighters[t].is_character() {
                R::add_marker(state, t, Marker::MinusAp, *amount);
                R::add_marker(state, caster, Marker::PlusAp, *amount);
            }
        }
        Effect::SwapPlaces => {
            let t = target.expect("target");
            let c = &state.fighters[caster];
            let tf = &state.fighters[t];
            if t == caster || c.cell < 0 || tf.cell < 0 || !tf.is_character() || !is_fazed(state, t)
            {
                return;
            }
            let origin = c.cell;
            swap(state, caster, t);
            if state.full() {
                state.events.push(Event::Moved {
                    turn: state.turn,
                    uid: caster,
                    origin,
                    destination: state.fighters[caster].cell,
                    how: "swap",
                });
            }
            let enter = R::enter_cells(state);
            if !enter.is_empty() {
                let target_from = state.fighters[caster].cell;
                for (piece, came_from) in [(caster, origin), (t, target_from)] {
                    let cell = state.fighters[piece].cell;
                    if cell >= 0 && R::enter_cells(state).contains(cell as Cell) {
                        R::on_enter(state, piece, came_from as Cell, cell as Cell, "swap");
                    }
                }
            }
        }
        Effect::BonusPerAdjacentSummon { summon, damage } => {
            let t = target.expect("target");
            let adjacent = state.board.neighbour_mask(state.fighters[t].at());
            let content = &state.content;
            let count = state.fighters[caster]
                .summons
                .iter()
                .filter(|&&s| {
                    let s = &state.fighters[s];
                    s.alive
                        && content.chars[s.spec].id == *summon
                        && s.cell >= 0
                        && adjacent.contains(s.at())
                })
                .count() as i32;
            if count != 0 {
                ctx.add_bonus(t, count * damage);
            }
        }
        Effect::ElementBonus { element, amount } => {
            // R-A80 (`_element_bonus`): the reference adds to the target's entry even when the
            // amount is 0, which changes no damage
            if spell.element == *element {
                ctx.add_bonus(target.expect("target"), *amount);
            }
        }
    }
}

/// Step 2 of a spell: every additional effect in printed order, to all targets (R-A59).
pub fn apply_step_two<R: MatchRules>(
    state: &mut MatchState<R>,
    ctx: &mut CastContext,
    spell: &SpellSpec,
    targets: &[usize],
) {
    for effect in &spell.effects {
        match effect.phase() {
            Phase::Flag | Phase::Caster => apply(state, ctx, spell, effect, None),
            Phase::Bonus => {
                for &t in targets {
                    if state.fighters[t].cell >= 0 {
                        apply(state, ctx, spell, effect, Some(t));
                    }
                }
            }
            Phase::Target => {
                for &t in targets {
                    let f = &state.fighters[t];
                    if f.cell >= 0 && f.alive && !unfazed_against(state, ctx, spell, t) {
                        apply(state, ctx, spell, effect, Some(t));
                    }
                }
            }
        }
    }
}
