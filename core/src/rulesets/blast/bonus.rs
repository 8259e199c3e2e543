//! Blast's extra actions (actions.py, bonus.py): use a Krosmic Favor (R-B17, R-B18) or an active
//! Divine Challenge bonus (R-B43). An action names the slot or bonus in `spell` (plus
//! `REMOVAL * (removed tile + 1)` when a tile over the limit is removed first, R-B45) and its
//! target cell in `target` (-1 without one).

use crate::board::Cell;
use crate::content::PieceKind;
use crate::engine::combat::{heal, inflict};
use crate::engine::events::Event;
use crate::engine::movement::slide;
use crate::engine::pieces::{place, relocate, spawn};
use crate::engine::rules::{Action, EXTRA, Marker, MatchRules};
use crate::engine::state::MatchState;
use crate::rulesets::blast::cards::{BonusAction, BonusEffect, BonusTarget};
use crate::rulesets::blast::holdings::{enter, place_tile, placeable, take_glyph};
use crate::rulesets::blast::ruleset::{Blast, BlastEvent, SLOTS, combat_die};

pub const USE_FAVOR: u8 = EXTRA;
pub const USE_BONUS: u8 = EXTRA + 1;
pub const REMOVAL: i32 = 1024;
pub const NO_TARGET: i32 = -1;

pub fn encode(index: usize, removed: i32) -> i32 {
    index as i32 + REMOVAL * (removed + 1)
}

pub fn decode(spell: i32) -> (usize, i32) {
    ((spell % REMOVAL) as usize, spell / REMOVAL - 1)
}

/// 1 AP, or 0 for the player holding the Dofus token (R-B17).
pub fn favor_cost(state: &MatchState<Blast>, side: usize) -> i32 {
    if state.rules.dofus == side { 0 } else { 1 }
}

fn acting_krosmaster(state: &MatchState<Blast>, uid: usize) -> bool {
    let f = &state.fighters[uid];
    f.kind == PieceKind::Krosmaster && f.side == state.active_side && f.alive
}

/// The favor in `slot` the fighter may use now.
pub fn favor_action(state: &MatchState<Blast>, uid: usize, slot: usize) -> Option<&BonusAction> {
    let bs = &state.rules;
    if slot >= SLOTS || bs.slot_used[slot] {
        return None;
    }
    let favor = bs.slots[slot]?;
    let f = &state.fighters[uid];
    if f.ap < favor_cost(state, f.side) {
        return None;
    }
    Some(&state.ruleset.favors[favor].action)
}

/// The active bonus `index` the fighter may use now.
pub fn bonus_action(state: &MatchState<Blast>, uid: usize, index: usize) -> Option<&BonusAction> {
    let bs = &state.rules;
    let f = &state.fighters[uid];
    if index >= bs.bonuses.len() || f.ap < 1 || bs.bonus_used.contains(&(uid, index)) {
        return None;
    }
    if !bs.has_tier(f.side, index) {
        return None;
    }
    bs.bonuses[index].action.as_ref()
}

/// Whether every Invocation the action brings in is under its per-player maximum (R-B27).
fn summon_room(state: &MatchState<Blast>, user: usize, action: &BonusAction) -> bool {
    let side = state.fighters[user].side;
    action.effects.iter().all(|e| match e {
        BonusEffect::Summon { id, max, .. } => {
            let in_play = state
                .fighters
                .iter()
                .filter(|f| {
                    f.alive
                        && f.cell >= 0
                        && f.side == side
                        && state.content.chars[f.spec].id == *id
                })
                .count();
            in_play < *max
        }
        _ => true,
    })
}

/// Every target cell the action may take now (`NO_TARGET` for one without a target), each handed
/// to `out` in its order (no list made: the legal actions are listed every decision, a bonus use
/// per target cell).
fn for_each_target(
    state: &MatchState<Blast>,
    user: usize,
    action: &BonusAction,
    mut out: impl FnMut(i32),
) {
    if !summon_room(state, user, action) {
        return;
    }
    let board = &state.board;
    let f = &state.fighters[user];
    let origin = f.at();
    match action.target {
        BonusTarget::None => return out(NO_TARGET),
        BonusTarget::TerrainCell => {
            let range = state.ruleset.opts.terrain_range;
            placeable(state)
                .iter()
                .filter(|&c| range == 0 || i32::from(board.distance(origin, c)) <= range)
                .for_each(|c| out(i32::from(c)));
            return;
        }
        _ => {}
    }
    let free_glyphs = state.rules.glyph_cells & !state.rules.owned[f.side];
    for d in action.range_min..=action.range_max {
        for &c in board.ring(origin, d as usize) {
            let wanted = match action.target {
                BonusTarget::FreeCell => !state.obstacles.contains(c),
                BonusTarget::Enemy => state.piece_at(c).is_some_and(|p| {
                    let p = &state.fighters[p];
                    p.alive && p.side != f.side
                }),
                _ => free_glyphs.contains(c),
            };
            if wanted
                && (!action.needs_los
                    || board.has_los(
                        origin,
                        c,
                        state.sight_blockers,
                        state.opts.strict_corner_los,
                    ))
            {
                out(i32::from(c));
            }
        }
    }
}

/// Every legal (target, removed tile) of the action now (R-B45), appended to `actions` as uses
/// of `kind` (a favor's slot or a bonus's `index`).
fn push_choices(
    state: &MatchState<Blast>,
    user: usize,
    action: &BonusAction,
    (kind, index): (u8, usize),
    actions: &mut Vec<Action>,
) {
    let limit = state.ruleset.opts.terrain_max_per_type;
    match action.terrain_kind() {
        Some(terrain) if state.rules.tiles[terrain].len() >= limit => {
            let tiles = &state.rules.tiles[terrain];
            for_each_target(state, user, action, |c| {
                for &r in tiles {
                    actions.push(Action::new(kind, encode(index, i32::from(r)), c));
                }
            });
        }
        _ => {
            let spell = encode(index, -1);
            for_each_target(state, user, action, |c| {
                actions.push(Action::new(kind, spell, c));
            });
        }
    }
}

/// Append every legal favor and bonus use of the active character.
pub fn add_actions(state: &MatchState<Blast>, uid: usize, actions: &mut Vec<Action>) {
    if !acting_krosmaster(state, uid) {
        return;
    }
    for slot in 0..SLOTS {
        if let Some(action) = favor_action(state, uid, slot) {
            push_choices(state, uid, action, (USE_FAVOR, slot), actions);
        }
    }
    for index in 0..state.rules.bonuses.len() {
        if let Some(action) = bonus_action(state, uid, index) {
            push_choices(state, uid, action, (USE_BONUS, index), actions);
        }
    }
}

/// One use of a bonus action while it resolves.
struct Use {
    user: usize,
    target: i32,
    removed: i32,
    damage_roll: Option<i32>,
}

/// Pay, mark the use and resolve (legality checked by the engine).
pub fn perform(state: &mut MatchState<Blast>, uid: usize, action: Action) {
    let (index, removed) = decode(action.spell);
    let side = state.fighters[uid].side;
    let (cost, spec, name) = if action.kind == USE_FAVOR {
        let favor = state.rules.slots[index].expect("a favor in the slot");
        let cost = favor_cost(state, side);
        state.rules.slot_used[index] = true;
        state.rules.favor_uses[side] += 1;
        let f = &state.ruleset.favors[favor];
        (cost, f.action.clone(), format!("favor:{}", f.id))
    } else {
        assert_eq!(action.kind, USE_BONUS, "Blast has no action {action:?}");
        state.rules.bonus_used.push((uid, index));
        state.rules.bonus_uses[side][index] += 1;
        let b = &state.rules.bonuses[index];
        let spec = b.action.clone().expect("an active bonus");
        (1, spec, format!("challenge:{}", b.id))
    };
    state.fighters[uid].ap -= cost;
    if state.full() {
        state.events.push(Event::Ruleset(BlastEvent::BonusUsed {
            turn: state.turn,
            uid,
            bonus: name,
            target: action.target,
            ap: cost,
        }));
    }
    let mut ctx = Use {
        user: uid,
        target: action.target,
        removed,
        damage_roll: None,
    };
    for effect in &spec.effects {
        if !state.fighters[uid].alive || state.finished {
            return;
        }
        apply(state, &mut ctx, effect);
    }
}

fn damage(state: &mut MatchState<Blast>, ctx: &mut Use, piece: usize, mut amount: i32) {
    if state.ruleset.opts.bonus_damage_combat_roll {
        let roll = match ctx.damage_roll {
            Some(r) => r,
            None => {
                let r = combat_die(state, ctx.user);
                ctx.damage_roll = Some(r);
                r
            }
        };
        amount += roll;
    }
    if amount > 0 && state.fighters[piece].alive {
        inflict(state, Some(ctx.user), piece, amount, 0, true);
    }
}

fn apply(state: &mut MatchState<Blast>, ctx: &mut Use, effect: &BonusEffect) {
    let user = ctx.user;
    let target = ctx.target;
    match effect {
        BonusEffect::NextSpellDamage { amount } => {
            let bonus = &mut state.rules.spell_bonus;
            match bonus.iter_mut().find(|(u, _)| *u == user) {
                Some(entry) => entry.1 += amount,
                None => bonus.push((user, *amount)),
            }
        }
        BonusEffect::PlaceTerrain { kind } => {
            place_tile(state, *kind, target as Cell, ctx.removed);
        }
        BonusEffect::MarkerSelf { ap, amount } => {
            let kind = if *ap { Marker::PlusAp } else { Marker::PlusMp };
            Blast::add_marker(state, user, kind, *amount);
        }
        BonusEffect::HealSelf { amount } => {
            heal(state, user, user, *amount, false);
        }
        BonusEffect::Summon { spec, .. } => {
            let side = state.fighters[user].side;
            let token = spawn(state, *spec, side, Some(user), None);
            let cell = target as Cell;
            place(state, token, cell);
            state.fighters[token].placed_turn = state.turn;
            state.fighters[user].summons.push(token);
            if state.full() {
                state.events.push(Event::Summoned {
                    turn: state.turn,
                    summoner: user,
                    uid: token,
                    spec: *spec,
                    cell: target,
                });
            }
            if state.rules.enter_cells.contains(cell) {
                enter(state, token, cell, cell, "summon", true);
            }
        }
        BonusEffect::Leap => {
            let origin = state.fighters[user].at();
            let cell = target as Cell;
            relocate(state, user, cell);
            state.fighters[user].stats.moves += 1;
            if state.full() {
                state.events.push(Event::Moved {
                    turn: state.turn,
                    uid: user,
                    origin: i32::from(origin),
                    destination: target,
                    how: "leap",
                });
            }
            if state.rules.enter_cells.contains(cell) {
                enter(state, user, origin, cell, "leap", true);
            }
        }
        BonusEffect::PushTarget { cells } => {
            let piece = state.piece_at(target as Cell);
            let step = state
                .board
                .direction(state.fighters[user].at(), target as Cell);
            if let (Some(p), Some((dx, dy))) = (piece, step)
                && state.fighters[p].alive
            {
                slide(state, p, dx, dy, *cells, "push");
            }
        }
        BonusEffect::DamageTarget { amount } => {
            if let Some(p) = state.piece_at(target as Cell) {
                damage(state, ctx, p, *amount);
            }
        }
        BonusEffect::DamageAround {
            amount,
            reach,
            allies,
        } => {
            let u = &state.fighters[user];
            let (at, side) = (u.at(), u.side);
            let hit: Vec<usize> = state
                .fighters
                .iter()
                .filter(|f| {
                    f.alive
                        && f.cell >= 0
                        && f.uid != user
                        && (1..=*reach).contains(&i32::from(state.board.distance(at, f.at())))
                        && (*allies || f.side != side)
                })
                .map(|f| f.uid)
                .collect();
            for piece in hit {
                damage(state, ctx, piece, *amount);
            }
        }
        BonusEffect::MinusMarkerTarget { ap, amount } => {
            if let Some(p) = state.piece_at(target as Cell)
                && state.fighters[p].alive
            {
                let kind = if *ap {
                    Marker::MinusAp
                } else {
                    Marker::MinusMp
                };
                Blast::add_marker(state, p, kind, *amount);
            }
        }
        BonusEffect::CaptureTarget => {
            let side = state.fighters[user].side;
            take_glyph(state, side, target as Cell, Some(user));
        }
    }
}
