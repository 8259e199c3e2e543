//! Which spells to cast from a cell, and what each cast is worth (krosbalance/ai/casts.py): the
//! greedy cast search by value per AP, attack, heal and summon valuations, cached on the pass's
//! [`Ctx`] as the reference caches them.

use std::sync::Arc;

use crate::ai::context::{Castable, Ctx, Ranks2, bonus_for};
use crate::ai::scoring;
use crate::ai::weights::Weights;
use crate::board::{Cell, CellSet};
use crate::content::{Effect, Limit, PieceKind, Power, RangeType, SpellKind, SpellSpec};
use crate::engine::state::Fighter;

/// What a plan step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// walk to `arg` (a cell); `target` > 0: kamas to pick up on the way
    Goto,
    /// cast spell `arg` (its index) on cell `target`
    Cast,
    /// pick up kamas / buy GG
    Tail,
    /// buy `arg` GG here, then walk on
    Buy,
    End,
}

/// One step of a plan (casts.py's `Step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    pub arg: i32,
    pub target: i32,
}

impl Step {
    pub fn new(kind: StepKind, arg: i32, target: i32) -> Self {
        Step { kind, arg, target }
    }
}

/// Python's `round(x, 9)` compared for equality: the decimal rounding to 9 places (correctly
/// rounded, ties to even in both languages' formatting).
fn same_to_9(a: f64, b: f64) -> bool {
    format!("{a:.9}") == format!("{b:.9}")
}

/// What `summon_value` reads of a non-bomb summon: (token worth, summoner's bonus per adjacent
/// token, worth of the creature's immediate hit, walk-and-strike reach or -1).
type Traits = (f64, i32, f64, i32);

fn summon_id<'a>(ctx: &Ctx<'a>, summon: usize) -> &'a str {
    &ctx.state.content.chars[summon].id
}

/// `summon_groups`: where a new `summon` may go, as (cells, worth) groups, best first.
///
/// Kept per pass by the summon's character index (one id per index: no string built per call);
/// the reference's key also holds `ap_left >= 3`, but it stores the groups under both flags, so
/// the AP left never changes the answer.
pub fn summon_groups(w: &Weights, ctx: &mut Ctx<'_>, summon: usize) -> Ranks2 {
    if let Some(g) = ctx.summon_groups.get(&summon) {
        return g.clone();
    }
    let id = summon_id(ctx, summon);
    let board = &ctx.state.board;
    let free = ctx.geo.full & !ctx.occupied;
    let mut near = CellSet::EMPTY;
    for &c in &ctx.enemy_kros {
        near |= board.neighbour_mask(c);
    }
    let traits = summon_traits(ctx, summon);
    let reach = traits.3;
    let strike = if reach >= 0 {
        ctx.geo.dilate(ctx.enemy_kros_mask, reach)
    } else {
        CellSet::EMPTY
    };
    let mut merged: Vec<(f64, CellSet)> = Vec::new();
    for a in [near, !near] {
        for b in [ctx.bomb_cells, !ctx.bomb_cells] {
            for c in [strike, !strike] {
                let part = free & a & b & c;
                let Some(x) = part.iter().next() else {
                    continue;
                };
                let value = placed_worth(w, ctx, id, x, traits);
                if value > 0.2 {
                    let mut found = false;
                    for m in merged.iter_mut() {
                        if (m.0 - value).abs() < 2e-9 && same_to_9(m.0, value) {
                            m.1 |= part;
                            found = true;
                            break;
                        }
                    }
                    if !found {
                        merged.push((value, part));
                    }
                }
            }
        }
    }
    // sorted(reverse=True) over (worth, cells): worths are distinct here; on equal worths the
    // larger mask first (tuple order), which never happens
    merged.sort_by(|x, y| {
        y.0.partial_cmp(&x.0)
            .expect("no NaN")
            .then_with(|| y.1.cmp(&x.1))
    });
    let groups: Ranks2 = Arc::new(merged.into_iter().map(|(v, c)| (c, v)).collect());
    ctx.summon_groups.insert(summon, groups.clone());
    groups
}

#[inline]
fn better(value: f64, cost: i32, best: i64, best_density: f64) -> bool {
    best < 0 || value / f64::from(cost) > best_density + 1e-9
}

/// `greedy_casts`: casts from `cell` chosen greedily by value per AP, their steps into `steps`
/// (emptied first): (value, AP left, end cell or -1). `castable` and `scratch` are the pass's
/// castable list and the cast search's buffers, taken out of the context once a pass by the plan
/// search (`Ctx::take_casts`: nothing the search reads from the context reads them), not moved
/// out and back for each origin cell.
#[allow(clippy::too_many_arguments)]
pub fn greedy_casts(
    w: &Weights,
    ctx: &mut Ctx<'_>,
    castable: &[Castable<'_>],
    scratch: &mut CastScratch,
    cell: Cell,
    ap: i32,
    bonus: i32,
    mp_left: i32,
    steps: &mut Vec<Step>,
) -> (f64, i32, i32) {
    greedy_casts_over(w, ctx, castable, scratch, cell, ap, bonus, mp_left, steps)
}

/// Buffers one cast search fills and the next reuses (kept on the [`Ctx`]): per castable spell
/// its reach from the cell and its aims (filled yet, (target, first value)), per target whether
/// the cell sees it (unknown yet: `None`), and the search's own lists (injuries left per target,
/// targets gone, allies healed, summons planned), emptied by each search.
#[derive(Debug, Default)]
pub struct CastScratch {
    tables: Vec<CellSet>,
    aims: Vec<(bool, Vec<(usize, f64)>)>,
    sight: Vec<Option<bool>>,
    remaining: Vec<(usize, f64)>,
    gone: Vec<usize>,
    healed: Vec<usize>,
    planned: Vec<(usize, Cell)>,
}

#[allow(clippy::too_many_arguments)]
fn greedy_casts_over(
    w: &Weights,
    ctx: &mut Ctx<'_>,
    castable: &[Castable<'_>],
    scratch: &mut CastScratch,
    cell: Cell,
    mut ap: i32,
    bonus: i32,
    mp_left: i32,
    steps: &mut Vec<Step>,
) -> (f64, i32, i32) {
    let state = ctx.state;
    let board = &state.board;
    let reach_bonus = bonus + i32::from(ctx.crates.contains(cell));
    let CastScratch {
        tables,
        aims,
        sight,
        remaining,
        gone,
        healed,
        planned,
    } = scratch;
    remaining.clear();
    gone.clear();
    healed.clear();
    planned.clear();
    steps.clear();
    tables.clear();
    tables.extend(castable.iter().map(|e| {
        let b = if e.kind == SpellKind::Summon {
            0
        } else {
            reach_bonus
        };
        ctx.geo.spell_mask(cell, e.spell, b)
    }));
    let tables = &tables[..];
    let blockers = ctx.blockers;
    // the path from the target's row of the table (the path is symmetric): a pass's few targets
    // keep their rows in cache from one origin cell to the next, where each origin's row is new
    let los = |t: Cell| board.los_path(t, cell);
    let mut used: u128 = 0;
    let mut planned_mask = CellSet::EMPTY;
    let mut total = 0.0f64;
    aims.resize_with(castable.len(), Default::default);
    for aim in aims.iter_mut() {
        aim.0 = false;
        aim.1.clear();
    }
    sight.clear();
    sight.resize(ctx.targets.len(), None);
    let n_targets = ctx.targets.len();
    if ctx.plain.len() != castable.len() * n_targets {
        // the pass's first cast search: its table of first values, all unknown
        ctx.plain.clear();
        ctx.plain.resize(castable.len() * n_targets, None);
    }
    let free_here = !(ctx.occupied | CellSet::single(cell));
    let rem_get =
        |remaining: &[(usize, f64)], uid: usize| remaining.iter().find(|e| e.0 == uid).map(|e| e.1);
    for _ in 0..4 {
        let mut best_density = -1.0f64;
        let mut best: i64 = -1;
        let mut best_value = 0.0f64;
        let mut best_target: i32 = -1;
        let mut best_kind = "";
        let mut best_victim: Option<usize> = None;
        let mut reserved = 0;
        for (position, entry) in castable.iter().enumerate() {
            let (index, spell, cost) = (entry.index, entry.spell, entry.cost);
            let table = tables[position];
            if cost > ap || (entry.limited && (used >> index) & 1 == 1) {
                continue;
            }
            match entry.kind {
                SpellKind::Attack => {
                    if !aims[position].0 {
                        let aimed = &mut aims[position].1;
                        if table.intersects(ctx.target_mask) {
                            for (i, seen) in sight.iter_mut().enumerate() {
                                let uid = ctx.targets[i];
                                let t = state.fighters[uid].at();
                                if !table.contains(t) {
                                    continue;
                                }
                                if entry.needs_los {
                                    let ok =
                                        *seen.get_or_insert_with(|| !los(t).intersects(blockers));
                                    if !ok {
                                        continue;
                                    }
                                }
                                let piece = &state.fighters[uid];
                                let first = if piece.kind == PieceKind::Bomb {
                                    attack_value(w, ctx, spell, piece, cell, remaining, planned)
                                } else {
                                    // the pass's table of first values (the spell by its
                                    // castable position, the target by its index)
                                    let slot = position * n_targets + i;
                                    match ctx.plain[slot] {
                                        Some(v) => v,
                                        None => {
                                            let v = attack_value(
                                                w, ctx, spell, piece, cell, remaining, planned,
                                            );
                                            ctx.plain[slot] = Some(v);
                                            v
                                        }
                                    }
                                };
                                aimed.push((uid, first));
                            }
                        }
                        aims[position].0 = true;
                    }
                    let aimed = std::mem::take(&mut aims[position].1);
                    for &(uid, first) in &aimed {
                        if gone.contains(&uid) {
                            continue;
                        }
                        let piece = &state.fighters[uid];
                        let is_bomb = piece.kind == PieceKind::Bomb;
                        let value = if is_bomb
                            || (rem_get(remaining, uid).is_none()
                                && !planned_mask.intersects(board.neighbour_mask(piece.at())))
                        {
                            first
                        } else {
                            attack_value(w, ctx, spell, piece, cell, remaining, planned)
                        };
                        if value > 0.05 && better(value, cost, best, best_density) {
                            best_density = value / f64::from(cost);
                            best = position as i64;
                            best_value = value;
                            best_target = i32::from(piece.at());
                            best_kind = "attack";
                            best_victim = Some(uid);
                        }
                    }
                    aims[position].1 = aimed;
                    if !planned_mask.is_empty() && planned_mask.intersects(table) {
                        for &(summon, x) in planned.iter() {
                            if summon_id(ctx, summon) == "water_bomb"
                                && table.contains(x)
                                && !(entry.needs_los && los(x).intersects(blockers))
                            {
                                let value = 0.25 * ctx.blast(x);
                                if value > 0.05 && better(value, cost, best, best_density) {
                                    best_density = value / f64::from(cost);
                                    best = position as i64;
                                    best_value = value;
                                    best_target = i32::from(x);
                                    best_kind = "virtual";
                                }
                            }
                        }
                    }
                }
                SpellKind::Heal => {
                    for k in 0..ctx.allies.len() {
                        let a = ctx.allies[k];
                        let ally = &state.fighters[a];
                        if ally.injuries <= 0 {
                            continue;
                        }
                        let mine = ally.uid == ctx.me_uid;
                        let t = if mine { cell } else { ally.at() };
                        if !table.contains(t) {
                            continue;
                        }
                        if entry.needs_los && t != cell && los(t).intersects(blockers) {
                            continue;
                        }
                        let mut value = heal_value(w, ctx, index, spell, ally, mine);
                        if healed.contains(&ally.uid) {
                            value *= 0.5;
                        }
                        if value > 0.05 && better(value, cost, best, best_density) {
                            best_density = value / f64::from(cost);
                            best = position as i64;
                            best_value = value;
                            best_target = i32::from(t);
                            best_kind = "heal";
                        }
                    }
                }
                _ => {
                    let summon = spell.summons.expect("castable summons");
                    let id = summon_id(ctx, summon);
                    let mut count = ctx.my_tokens.iter().find(|e| e.0 == id).map_or(0, |e| e.1);
                    count += planned.iter().filter(|p| p.0 == summon).count() as i32;
                    if count >= spell.summon_control {
                        continue;
                    }
                    let mut mask = table & free_here;
                    if !planned_mask.is_empty() {
                        mask &= !planned_mask;
                    }
                    if id == "water_bomb" {
                        mask &= ctx.near_enemies;
                        for x in mask.iter() {
                            let value = match ctx.bomb_values.get(x) {
                                Some(v) => v,
                                None => {
                                    let v = summon_value(w, ctx, summon, x);
                                    ctx.bomb_values.insert(x, v);
                                    v
                                }
                            };
                            if value > 0.2 && better(value, cost, best, best_density) {
                                best_density = value / f64::from(cost);
                                best = position as i64;
                                best_value = value;
                                best_target = i32::from(x);
                                best_kind = "summon";
                                reserved = 0;
                            }
                        }
                        continue;
                    }
                    if mask.is_empty() {
                        continue;
                    }
                    let groups = summon_groups(w, ctx, summon);
                    let mut single: Option<(f64, Cell)> = None;
                    for &(cells, value) in groups.iter() {
                        let hit = mask & cells;
                        if let Some(first) = hit.iter().next() {
                            single = Some((value, first));
                            break;
                        }
                    }
                    let combo = summon_then_hit(
                        w, ctx, entry, castable, tables, cell, ap, mask, remaining, gone, planned,
                        mp_left,
                    );
                    match (combo, single) {
                        (Some(combo), _) if single.is_none_or(|s| combo.1 >= s.0) => {
                            let alt = single.map_or(0.0, |s| s.0 / f64::from(cost));
                            let density = if alt > combo.0 { alt } else { combo.0 };
                            if best < 0 || density > best_density + 1e-9 {
                                best_density = density;
                                best = position as i64;
                                best_value = combo.1;
                                best_target = i32::from(combo.2);
                                best_kind = "summon";
                                reserved = combo.3;
                            }
                        }
                        (_, Some(s)) if better(s.0, cost, best, best_density) => {
                            best_density = s.0 / f64::from(cost);
                            best = position as i64;
                            best_value = s.0;
                            best_target = i32::from(s.1);
                            best_kind = "summon";
                            reserved = 0;
                        }
                        _ => {}
                    }
                }
            }
        }
        if best < 0 {
            break;
        }
        let entry = &castable[best as usize];
        let (index, spell, cost) = (entry.index, entry.spell, entry.cost);
        let target = best_target;
        ap -= cost + if best_kind == "summon" { reserved } else { 0 };
        total += best_value;
        if entry.limited {
            used |= 1u128 << index;
        }
        steps.push(Step::new(StepKind::Cast, index as i32, target));
        if best_kind == "summon" {
            planned.push((spell.summons.expect("summons"), target as Cell));
            planned_mask.insert(target as Cell);
            continue;
        }
        if best_kind == "heal" {
            let who = if target == i32::from(cell) {
                Some(ctx.me_uid)
            } else {
                live_piece(ctx, target as Cell)
            };
            if let Some(u) = who {
                healed.push(u);
            }
            continue;
        }
        let piece = if best_kind == "attack" {
            best_victim
        } else {
            live_piece(ctx, target as Cell)
        };
        if let (Some(uid), "attack") = (piece, best_kind) {
            let victim = &state.fighters[uid];
            let hurt = match ctx.hurts.get(&(index, uid)) {
                Some(&h) => h,
                None => {
                    let h = scoring::attack_odds(state, ctx.me, spell, victim, None, 0).0;
                    ctx.hurts.insert((index, uid), h);
                    h
                }
            };
            let before =
                rem_get(remaining, uid).unwrap_or_else(|| f64::from(scoring::remaining_hp(victim)));
            match remaining.iter_mut().find(|e| e.0 == uid) {
                Some(e) => e.1 = before - hurt,
                None => remaining.push((uid, before - hurt)),
            }
            if entry.moves_target || victim.kind == PieceKind::Bomb {
                gone.push(uid);
            }
        }
        if entry.swaps && piece.is_some() {
            return (total, ap, target);
        }
        if entry.moves_caster {
            return (
                total,
                ap,
                i32::from(landing(ctx, spell, cell, target as Cell)),
            );
        }
    }
    (total, ap, -1)
}

/// `view.piece_at(cell)` (alive pieces only), as a uid.
fn live_piece(ctx: &Ctx<'_>, cell: Cell) -> Option<usize> {
    ctx.state
        .piece_at(cell)
        .filter(|&u| ctx.state.fighters[u].alive)
}

/// `_summon_then_hit`: a summon next to an enemy and the hit it boosts this turn, as one move.
#[allow(clippy::too_many_arguments)]
fn summon_then_hit(
    w: &Weights,
    ctx: &mut Ctx<'_>,
    summon_entry: &Castable<'_>,
    castable: &[Castable<'_>],
    tables: &[CellSet],
    cell: Cell,
    ap: i32,
    free: CellSet,
    remaining: &[(usize, f64)],
    gone: &[usize],
    planned: &[(usize, Cell)],
    mp_left: i32,
) -> Option<(f64, f64, Cell, i32)> {
    let state = ctx.state;
    let summon = summon_entry.spell.summons.expect("summons");
    let sid = summon_id(ctx, summon);
    let cost = summon_entry.cost;
    let board = &state.board;
    let mut best: Option<(f64, f64, Cell, i32)> = None;
    for (position, entry) in castable.iter().enumerate() {
        let (index, spell, hit_cost) = (entry.index, entry.spell, entry.cost);
        if entry.kind != SpellKind::Attack || cost + hit_cost > ap {
            continue;
        }
        let boosted = *ctx.boosts.entry((index, summon)).or_insert_with(|| {
            spell
                .effects
                .iter()
                .any(|e| matches!(e, Effect::BonusPerAdjacentSummon { summon: s, .. } if s == sid))
        });
        if !boosted {
            continue;
        }
        let reach = tables[position];
        let top = if spell.range_type == RangeType::Melee {
            1
        } else {
            spell.range_max
        };
        for k in 0..ctx.targets.len() {
            let uid = ctx.targets[k];
            let victim = &state.fighters[uid];
            let t = victim.at();
            if victim.kind == PieceKind::Bomb
                || gone.contains(&uid)
                || victim.kind != PieceKind::Krosmaster
            {
                continue;
            }
            let here = reach.contains(t)
                && !(entry.needs_los && board.los_path(t, cell).intersects(ctx.blockers));
            if !here && i32::from(board.distance(cell, t)) > mp_left + top {
                continue;
            }
            let spots = free & board.neighbour_mask(t);
            let Some(x) = spots.iter().next() else {
                continue;
            };
            if !here && !can_step_in(ctx, cell, t, x, top, mp_left) {
                continue;
            }
            let alone = match ctx.summon_worth.get(&(summon, x)) {
                Some(&v) => v,
                None => {
                    let v = summon_value(w, ctx, summon, x);
                    ctx.summon_worth.insert((summon, x), v);
                    v
                }
            };
            let mut with: Vec<(usize, Cell)> = planned.to_vec();
            with.push((summon, x));
            let hit = attack_value(w, ctx, spell, victim, cell, remaining, &with);
            let density = (alone + if here { hit } else { 0.8 * hit }) / f64::from(cost + hit_cost);
            if best.is_none_or(|b| density > b.0 + 1e-9) {
                best = Some(if here {
                    (density, alone, x, 0)
                } else {
                    (density, alone + 0.8 * hit, x, hit_cost)
                });
            }
        }
    }
    best
}

fn can_step_in(
    ctx: &Ctx<'_>,
    cell: Cell,
    target: Cell,
    summon_cell: Cell,
    top: i32,
    mp_left: i32,
) -> bool {
    let mut near = ctx.geo.ring_mask(target, 1, top) & !ctx.occupied;
    near.remove(summon_cell);
    near.iter().any(|c| ctx.geo.dist(cell, c) <= mp_left)
}

/// `heal_value`: worth of healing `ally` once, cached per pass.
pub fn heal_value(
    w: &Weights,
    ctx: &mut Ctx<'_>,
    index: usize,
    spell: &SpellSpec,
    ally: &Fighter,
    mine: bool,
) -> f64 {
    if let Some(&v) = ctx.heals.get(&(index, ally.uid)) {
        return v;
    }
    let healed = scoring::attack_odds(ctx.state, ctx.me, spell, ally, None, 0).0;
    let danger = if mine { 0.0 } else { ctx.threat.at(ally.at()) };
    let v = w.heal * healed * (1.0 + 0.5 * scoring::ko_risk(danger, scoring::remaining_hp(ally)));
    ctx.heals.insert((index, ally.uid), v);
    v
}

/// Python's `round()` of a float to an int: ties to even.
#[inline]
pub fn py_round(x: f64) -> i32 {
    x.round_ties_even() as i32
}

/// `attack_value`: worth of one hit of `spell` on `target` from `cell`.
pub fn attack_value(
    w: &Weights,
    ctx: &mut Ctx<'_>,
    spell: &SpellSpec,
    target: &Fighter,
    cell: Cell,
    remaining: &[(usize, f64)],
    planned: &[(usize, Cell)],
) -> f64 {
    let state = ctx.state;
    let me = ctx.me;
    if target.kind == PieceKind::Bomb {
        let ko = match ctx.bomb_ko.get(&(spell.key, target.uid)) {
            Some(&k) => k,
            None => {
                let k = scoring::attack_odds(state, me, spell, target, None, 0).1;
                ctx.bomb_ko.insert((spell.key, target.uid), k);
                k
            }
        };
        let swaps = spell
            .effects
            .iter()
            .any(|e| matches!(e, Effect::SwapPlaces));
        let (at, ours) = if swaps {
            (cell, target.at())
        } else {
            (target.at(), cell)
        };
        let mut blast = ctx.blast(at);
        if target.team == ctx.team && target.placed_turn < state.turn {
            blast *= 0.2;
        }
        if state.board.square_mask(at).contains(ours) {
            let armour = if me.has(Power::Armour) { 2 } else { 1 };
            let (hurt, dies) = scoring::hit_odds(1, 1, armour, 0, scoring::remaining_hp(me));
            blast -= hurt + 0.3 + dies * ctx.my_worry;
        }
        return ko * blast;
    }
    let left = remaining.iter().find(|e| e.0 == target.uid).map(|e| e.1);
    let hp_left = match left {
        None => scoring::remaining_hp(target),
        Some(l) => py_round(l).max(1),
    };
    let mut extra = 0;
    if !planned.is_empty() {
        let near = state.board.neighbour_mask(target.at());
        extra = planned.iter().filter(|p| near.contains(p.1)).count() as i32;
    }
    let key = (spell.key, target.uid, hp_left, extra);
    if let Some(&v) = ctx.values.get(&key) {
        return v;
    }
    let (hurt, ko) = scoring::attack_odds(state, me, spell, target, Some(hp_left), extra);
    let lost = 1.0 - f64::from(hp_left) / f64::from(target.hp.max(1));
    let mut value = w.damage * hurt * (1.0 + w.focus * lost)
        + w.kill * ko * scoring::kill_value(state, ctx.side, target, None);
    for effect in &spell.effects {
        match effect {
            Effect::Lifesteal if me.injuries > 0 => {
                let inj = f64::from(me.injuries);
                value += 0.5 * if inj < hurt { inj } else { hurt };
            }
            Effect::Push { .. } if w.kite => value += 0.3,
            _ => {}
        }
    }
    if target.kind != PieceKind::Krosmaster {
        value *= 0.6;
    }
    if target.uid as i64 == ctx.team_target {
        value += w.team * ctx.team_value * hurt;
    }
    if spell.limit == Limit::Game {
        value -= w.keep_limited * w.damage * scoring::average_hit(spell, me.has(Power::Critical));
    }
    ctx.values.insert(key, value);
    value
}

/// `summon_value`: worth of a new `summon` (a content index) on `x`.
pub fn summon_value(w: &Weights, ctx: &mut Ctx<'_>, summon: usize, x: Cell) -> f64 {
    let id = summon_id(ctx, summon).to_string();
    if id == "water_bomb" {
        return if ctx.near_enemies.contains(x) {
            0.6 * ctx.blast(x)
        } else {
            0.0
        };
    }
    let traits = summon_traits(ctx, summon);
    placed_worth(w, ctx, &id, x, traits)
}

fn summon_traits(ctx: &Ctx<'_>, summon: usize) -> Traits {
    let state = ctx.state;
    let spec = &state.content.chars[summon];
    let bonus = bonus_for(state, ctx.me, &spec.id);
    let mut strike_worth = 0.0;
    let mut reach = -1;
    if spec.kind == PieceKind::Creature && !ctx.enemy_kros.is_empty() {
        let spells: Vec<&SpellSpec> = spec.spells.iter().collect();
        let options =
            scoring::attack_options(&spells, spec.ap, spec.powers & Power::Critical.bit() != 0);
        if let Some(&(worth, si, _)) = options.first() {
            strike_worth = worth;
            let spell = spells[si];
            let top = if spell.range_type == RangeType::Melee {
                1
            } else {
                spell.range_max
            };
            reach = spec.mp + top;
        }
    }
    (scoring::summon_worth(&spec.id), bonus, strike_worth, reach)
}

fn placed_worth(w: &Weights, ctx: &Ctx<'_>, _summon: &str, x: Cell, traits: Traits) -> f64 {
    let (worth, bonus, strike_worth, reach) = traits;
    let mut value = w.summon * worth;
    let near_enemy = ctx.state.board.neighbour_mask(x) & ctx.enemy_kros_mask;
    if bonus != 0 && !near_enemy.is_empty() {
        value += 0.5 * w.support * f64::from(bonus);
    }
    if reach >= 0 && ctx.nearest_kros[usize::from(x)] <= reach {
        value += 0.5 * w.damage * strike_worth;
    }
    if ctx.bomb_cells.contains(x) {
        value -= w.summon * worth + 0.5;
    }
    if ctx.enemies.is_empty() {
        value *= 0.5;
    }
    value
}

/// `landing`: where a spell that moves its caster leaves it (R-A83, R-A84, R-A87).
pub fn landing(ctx: &Ctx<'_>, spell: &SpellSpec, cell: Cell, target: Cell) -> Cell {
    let board = &ctx.state.board;
    let mut obstacles = ctx.occupied;
    obstacles.remove(cell);
    let mut end = cell;
    for effect in &spell.effects {
        let (step, cells) = match effect {
            Effect::Retreat { cells } => (board.direction(target, end), *cells),
            Effect::Approach { cells } => (board.direction(end, target), *cells),
            _ => continue,
        };
        let Some((dx, dy)) = step else {
            continue;
        };
        for _ in 0..cells {
            match board.step(end, dx, dy) {
                Some(nxt) if !obstacles.contains(nxt) => end = nxt,
                _ => break,
            }
        }
    }
    end
}
