//! The plan search (krosbalance/ai/plan_search.py): every way to start (walk, Distant Shot,
//! Transposition), its casts, its best end; the `keep` best plans, best first.
//!
//! A plan's signature (for "no two plans with the same casts and end") compares the reference's
//! `Step` objects by identity: steps made by one call of the cast search are never equal to those
//! of another, so only plans without casts can share a signature (by their end cell).

use std::rc::Rc;

use crate::ai::casts::{Step, StepKind, greedy_casts};
use crate::ai::context::{Ctx, Reach, Walks, route, walk_plan};
use crate::ai::positions::{economy_plan, economy_value, position_value};
use crate::ai::scoring::{self, BLOCK_CHANCE, FastMap, GG_UNIT, WIN_VALUE};
use crate::ai::weights::Weights;
use crate::board::{Cell, CellSet};
use crate::content::{Effect, PieceKind, Power, RangeType, SpellKind, SpellSpec, TargetRule};
use crate::engine::legal;

const TAIL: Step = Step {
    kind: StepKind::Tail,
    arg: -1,
    target: -1,
};
const END: Step = Step {
    kind: StepKind::End,
    arg: -1,
    target: -1,
};

/// A plan for one activation.
#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub value: f64,
    pub route: Vec<Cell>,
}

/// A plan's signature, as the reference's `_Search.offer` compares them: its cast steps (compared by
/// identity there) and its end cell. The steps `greedy_casts` returns are new objects on every call,
/// so a plan with any of them is unique (`None`); the first cast of an origin (Distant Shot,
/// Transposition) is one object shared by every try from that origin, so two tries of one origin
/// without greedy casts and with the same end are the same plan. `Some((origin + 1 or 0 without a
/// first cast, end))`.
type Signature = Option<(usize, i32)>;

/// End cells ranked best first, as (-worth, cell): shared, not copied, by every reader.
type Ranked = Rc<Vec<(f64, Cell)>>;

/// The plan search's buffers, lent from one pass to the next with the context's tables
/// (`context::PassTables`): emptied and refilled by each pass, their capacity kept.
#[derive(Debug, Default)]
pub struct PlanBuffers {
    pos_cache: Vec<Option<f64>>,
    reach: Vec<Cell>,
    ranked: FastMap<i32, Ranked>,
    seen: FastMap<(usize, i32), f64>,
    exact: FastMap<i32, CellSet>,
    origins: Vec<Origin>,
    walks: Walks,
    /// The cast searches' steps, one buffer per try from an origin.
    casts_pool: Vec<Vec<Step>>,
}

struct Search {
    keep: usize,
    /// `position_value` by cell (`None`: not asked yet): a table, the board's cells being few.
    pos_cache: Vec<Option<f64>>,
    econ: CellSet,
    reach: Vec<Cell>,
    /// No cell of the reach is an economy cell (`econ`): `pos` is the same for any AP left.
    flat: bool,
    ranked: FastMap<i32, Ranked>,
    /// (value, steps, dest, end, signature)
    leaders: Vec<(f64, Vec<Step>, Cell, i32, Signature)>,
    seen: FastMap<(usize, i32), f64>,
}

impl Search {
    fn pos(&mut self, w: &Weights, ctx: &mut Ctx<'_>, cell: Cell, ap_left: i32) -> f64 {
        let base = match self.pos_cache[usize::from(cell)] {
            Some(b) => b,
            None => {
                let b = position_value(w, ctx, cell);
                self.pos_cache[usize::from(cell)] = Some(b);
                b
            }
        };
        if self.econ.contains(cell) {
            return base + economy_value(w, ctx, cell, ap_left, 0);
        }
        base
    }

    /// Every reachable end cell as (-worth, cell), best first (ties: lower cell).
    fn ends(&mut self, w: &Weights, ctx: &mut Ctx<'_>, ap_left: i32) -> Ranked {
        // with no economy cell in reach, a cell's worth does not depend on the AP left: one
        // ranking serves every `ap_left` (the same floats, sorted once)
        let key = if self.flat { -1 } else { ap_left };
        if let Some(o) = self.ranked.get(&key) {
            return o.clone();
        }
        let reach = std::mem::take(&mut self.reach);
        let mut order: Vec<(f64, Cell)> = reach
            .iter()
            .map(|&c| (-self.pos(w, ctx, c, ap_left), c))
            .collect();
        self.reach = reach;
        order.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("no NaN").then(a.1.cmp(&b.1)));
        let order = Rc::new(order);
        self.ranked.insert(key, order.clone());
        order
    }

    fn floor(&self) -> f64 {
        if self.leaders.len() >= self.keep {
            self.leaders.last().expect("leaders").0
        } else {
            -1e18
        }
    }

    /// Keep a plan if it is among the best; the value a plan must now beat.
    fn offer(
        &mut self,
        total: f64,
        steps: Vec<Step>,
        dest: Cell,
        end: i32,
        signature: Signature,
    ) -> f64 {
        if let Some(end_key) = signature {
            if let Some(&known) = self.seen.get(&end_key) {
                if known >= total {
                    return self.floor();
                }
                self.leaders.retain(|k| k.4 != signature);
            }
            self.seen.insert(end_key, total);
        }
        let mut index = self.leaders.len();
        while index > 0 && self.leaders[index - 1].0 < total {
            index -= 1;
        }
        self.leaders
            .insert(index, (total, steps, dest, end, signature));
        self.leaders.truncate(self.keep);
        self.floor()
    }
}

/// `affordable_buys`: how many GG the team could buy this activation.
pub fn affordable_buys(ctx: &Ctx<'_>, reach: &Reach) -> i32 {
    let arena = &ctx.state.rules;
    if !ctx.is_krosmaster || ctx.econ_mask.is_empty() || !ctx.may_buy {
        return 0;
    }
    let demons = ctx.state.board.demon_cells();
    if !reach.order.iter().any(|&(c, _)| demons.contains(c)) {
        return 0;
    }
    let mut kamas = arena.kamas[ctx.side];
    for &(c, _) in &reach.order {
        if ctx.econ_mask.contains(c) {
            kamas += ctx.kamas_at(c);
        }
    }
    ctx.me.ap.min(kamas.div_euclid(arena.gg_price.max(1)))
}

/// One origin of a plan: (cell, MP cost, AP cost, range bonus, MP left, first cast, lock risk,
/// penalty).
type Origin = (Cell, i32, i32, i32, i32, Option<Step>, f64, f64);

fn spell_used_now(ctx: &Ctx<'_>, spell: &SpellSpec) -> bool {
    scoring::spell_used(ctx.me, spell)
}

/// `best_plans`: the `keep` best plans from here, best first.
pub fn best_plans(w: &Weights, ctx: &mut Ctx<'_>, reach: &Reach, keep: usize) -> Vec<Plan> {
    let state = ctx.state;
    let me = ctx.me;
    let me_cell = ctx.me_cell;
    let me_ap = me.ap;
    let mp = if me.blocked { 0 } else { me.mp };
    let PlanBuffers {
        mut pos_cache,
        reach: mut reach_cells,
        mut ranked,
        mut seen,
        mut exact,
        mut origins,
        mut walks,
        mut casts_pool,
    } = std::mem::take(&mut ctx.plan_buffers);
    // the castable list and the cast search's buffers, out of the context for the whole search
    let (castable, mut scratch) = ctx.take_casts();
    pos_cache.clear();
    pos_cache.resize(state.board.n_cells(), None);
    reach_cells.clear();
    reach_cells.extend(reach.order.iter().map(|e| e.0));
    ranked.clear();
    seen.clear();
    exact.clear();
    let flat = !reach_cells.iter().any(|&c| ctx.econ_mask.contains(c));
    let mut search = Search {
        keep,
        pos_cache,
        econ: ctx.econ_mask,
        reach: reach_cells,
        flat,
        ranked,
        leaders: Vec::new(),
        seen,
    };
    for &(cell, _) in &reach.order {
        let v = position_value(w, ctx, cell);
        search.pos_cache[usize::from(cell)] = Some(v);
    }
    walk_plan(ctx, reach, &mut walks);
    let (risks, on_way, parent) = (&walks.risks, &walks.on_way, &walks.parent);
    origins.clear();
    origins.extend(reach.order.iter().map(|&(cell, cost)| {
        (
            cell,
            cost,
            0,
            0,
            mp - cost,
            None,
            risks[usize::from(cell)],
            0.0,
        )
    }));
    for (index, &sref) in me.spells.iter().enumerate() {
        let spell = state.content.resolve(sref);
        if spell.kind != SpellKind::Special || spell.ap_cost > me_ap || spell_used_now(ctx, spell) {
            continue;
        }
        let range_bonus = spell.effects.iter().find_map(|e| match e {
            Effect::RangeBonusThisTurn { amount } => Some(*amount),
            _ => None,
        });
        let swaps = spell
            .effects
            .iter()
            .any(|e| matches!(e, Effect::SwapPlaces));
        if let (Some(bonus), 0) = (range_bonus, me.range_bonus) {
            for &(cell, cost) in &reach.order {
                origins.push((
                    cell,
                    cost,
                    spell.ap_cost,
                    bonus,
                    0,
                    Some(Step::new(StepKind::Cast, index as i32, i32::from(cell))),
                    risks[usize::from(cell)],
                    0.0,
                ));
            }
        } else if swaps && spell.target == TargetRule::Ally {
            for target in legal::spell_targets(state, me, spell) {
                let Some(ally) = state.piece_at(target).filter(|&u| state.fighters[u].alive) else {
                    continue;
                };
                if i32::from(target) == ctx.no_swap_back {
                    continue;
                }
                let shift = ctx.threat.at(me_cell) - ctx.threat.at(target);
                let penalty = if state.fighters[ally].kind == PieceKind::Krosmaster {
                    w.safety * 0.5 * if shift > 0.0 { shift } else { 0.0 }
                } else {
                    0.0
                };
                origins.push((
                    target,
                    0,
                    spell.ap_cost,
                    0,
                    mp,
                    Some(Step::new(StepKind::Cast, index as i32, i32::from(target))),
                    0.0,
                    penalty,
                ));
            }
        }
    }

    let wide = useful_wide(ctx);
    let stuck = search.pos(w, ctx, me_cell, 0);
    let start_value = search.pos(w, ctx, me_cell, me_ap);
    let mut best_value = search.offer(
        start_value,
        vec![TAIL, END],
        me_cell,
        i32::from(me_cell),
        Some((0, i32::from(me_cell))),
    );
    let range_bonus = me.range_bonus;
    let crates = ctx.crates;
    let buys = affordable_buys(ctx, reach);
    let buy_first = w.buy_first && ctx.may_buy;
    let free_escape = w.free_escape;
    let board = &state.board;
    let demons = board.demon_cells();

    // (casts' buffer, value, AP left, fixed end) of each try from an origin: one list for them
    // all, the casts' steps in buffers of `casts_pool` reused from one origin to the next
    let mut tries: Vec<(usize, f64, i32, i32)> = Vec::with_capacity(4);
    for (origin, &(cell, cost, ap_cost, bonus, mp_left, first, risk, penalty)) in
        origins.iter().enumerate()
    {
        let ap = me_ap - ap_cost;
        let reach_bonus = range_bonus + bonus;
        let way = if first.is_none() {
            on_way[usize::from(cell)]
        } else {
            0
        };
        let mask = match wide {
            Some(m) => m,
            None => {
                let key = reach_bonus + i32::from(crates.contains(cell));
                *exact
                    .entry(key)
                    .or_insert_with(|| useful_origins(ctx, key).unwrap_or(ALL))
            }
        };
        tries.clear();
        if mask.contains(cell) {
            if casts_pool.is_empty() {
                casts_pool.push(Vec::new());
            }
            let (value, ap_left, fixed_end) = greedy_casts(
                w,
                ctx,
                &castable,
                &mut scratch,
                cell,
                ap,
                reach_bonus,
                mp_left,
                &mut casts_pool[0],
            );
            tries.push((0, value, ap_left, fixed_end));
            for held in 1..=buys.min(ap) {
                let k = tries.len();
                if casts_pool.len() <= k {
                    casts_pool.push(Vec::new());
                }
                let (value, ap_left, fixed_end) = greedy_casts(
                    w,
                    ctx,
                    &castable,
                    &mut scratch,
                    cell,
                    ap - held,
                    reach_bonus,
                    mp_left,
                    &mut casts_pool[k],
                );
                let empty = casts_pool[k].is_empty();
                tries.push((k, value, ap_left + held, fixed_end));
                if empty {
                    break;
                }
            }
        } else {
            if mp_left > 0 && search.pos_cache[usize::from(cell)].is_some() && way == 0 {
                let top = -search.ends(w, ctx, ap)[0].0;
                let bound =
                    (1.0 - risk) * top + risk * stuck - penalty - 0.001 * f64::from(cost + ap_cost);
                if bound < best_value - 1e-7 {
                    continue;
                }
            }
            if casts_pool.is_empty() {
                casts_pool.push(Vec::new());
            }
            casts_pool[0].clear();
            tries.push((0, 0.0, ap, -1));
        }
        for &(k, value, ap_left, fixed_end) in &tries {
            let casts = &casts_pool[k];
            let mut picks = 0;
            let mut placed = CellSet::EMPTY;
            let mut pushed = CellSet::EMPTY;
            for st in casts.iter() {
                let cast_spell = state.content.resolve(me.spells[st.arg as usize]);
                if cast_spell.kind == SpellKind::Summon {
                    placed.insert(st.target as Cell);
                } else if free_escape
                    && board.neighbour_mask(cell).contains(st.target as Cell)
                    && pushes(cast_spell)
                {
                    pushed.insert(st.target as Cell);
                }
            }
            let mut bought = 0;
            let (mut end, mut end_value);
            if fixed_end >= 0 {
                end = fixed_end as Cell;
                end_value = search.pos(w, ctx, end, ap_left);
                if free_escape && mp_left > 0 {
                    (end, end_value) = walk_on(
                        &mut search,
                        w,
                        ctx,
                        end,
                        end_value,
                        ap_left,
                        mp_left,
                        placed,
                    );
                }
            } else {
                end = cell;
                match search.pos_cache[usize::from(cell)] {
                    None => end_value = search.pos(w, ctx, cell, ap_left),
                    Some(known) => {
                        end_value = known;
                        if way != 0 {
                            let (gain, p) = economy_plan(w, ctx, cell, ap_left, way);
                            end_value += gain;
                            picks = p;
                        } else if search.econ.contains(cell) {
                            end_value += economy_value(w, ctx, cell, ap_left, 0);
                        }
                    }
                }
                if mp_left > 0 {
                    let order = search.ends(w, ctx, ap_left);
                    let bar = -(end_value + 1e-9);
                    let from_start = cell == me_cell;
                    for &(v, other) in order.iter() {
                        if v >= bar {
                            break;
                        }
                        if ctx.geo.dist(cell, other) <= mp_left && !placed.contains(other) {
                            let v = -v;
                            let leave = if free_escape && !pushed.is_empty() {
                                block_after_push(ctx, cell, pushed)
                            } else if from_start {
                                risks[usize::from(other)]
                            } else {
                                ctx.block(cell)
                            };
                            let stay = search.pos(w, ctx, cell, 0);
                            let mixed = (1.0 - leave) * v + leave * stay;
                            if mixed > end_value + 1e-9 {
                                end = other;
                                end_value = mixed;
                                picks = 0;
                            }
                            break;
                        }
                    }
                }
                if buy_first && mp_left > 0 && ap_left > 0 && demons.contains(cell) {
                    let (count, gain) = gg_purchases(ctx, cell, ap_left);
                    if count != 0 {
                        let leave_risk = if cell == me_cell {
                            Some(&risks[..])
                        } else {
                            None
                        };
                        let (other, mixed) = best_walk_from(
                            &mut search,
                            w,
                            ctx,
                            cell,
                            ap_left - count,
                            mp_left,
                            placed,
                            leave_risk,
                        );
                        if other >= 0 && gain + mixed > end_value + 1e-9 {
                            end = other as Cell;
                            end_value = gain + mixed;
                            picks = 0;
                            bought = count;
                        }
                    }
                }
            }
            let total = (1.0 - risk) * (value + end_value) + risk * stuck
                - penalty
                - 0.001 * f64::from(cost + ap_cost);
            if total > best_value + 1e-9 {
                let mut steps = Vec::new();
                if cost != 0 {
                    steps.push(Step::new(StepKind::Goto, i32::from(cell), picks));
                }
                if let Some(f) = first {
                    steps.push(f);
                }
                let signature: Signature = if casts.is_empty() {
                    Some((if first.is_some() { origin + 1 } else { 0 }, i32::from(end)))
                } else {
                    None
                };
                steps.extend(casts.iter().copied());
                if bought != 0 {
                    steps.push(Step::new(StepKind::Buy, bought, -1));
                }
                if end != cell && fixed_end < 0 {
                    steps.push(Step::new(StepKind::Goto, i32::from(end), -1));
                }
                steps.push(TAIL);
                steps.push(END);
                let dest = if cost != 0 || first.is_some() || end == cell {
                    cell
                } else {
                    end
                };
                best_value = search.offer(total, steps, dest, i32::from(end), signature);
            }
        }
    }
    let Search {
        pos_cache,
        reach: reach_cells,
        ranked,
        leaders,
        seen,
        ..
    } = search;
    let plans = leaders
        .into_iter()
        .map(|(total, steps, dest, _, _)| {
            let route = if steps.first().is_some_and(|s| s.kind == StepKind::Goto) {
                route(parent, me_cell, dest)
            } else {
                Vec::new()
            };
            Plan {
                steps,
                value: total,
                route,
            }
        })
        .collect();
    ctx.plan_buffers = PlanBuffers {
        pos_cache,
        reach: reach_cells,
        ranked,
        seen,
        exact,
        origins,
        walks,
        casts_pool,
    };
    ctx.put_casts(castable, scratch);
    plans
}

/// Every cell (the reference's mask -1: a summon may be cast from anywhere).
const ALL: CellSet = CellSet::from_words([u64::MAX; 3]);

/// `gg_purchases`: (how many, worth) of the GG the team's kamas buy on `cell` with `ap` AP.
pub fn gg_purchases(ctx: &Ctx<'_>, cell: Cell, ap: i32) -> (i32, f64) {
    let arena = &ctx.state.rules;
    if !ctx.is_krosmaster || !ctx.state.board.demon_cells().contains(cell) {
        return (0, 0.0);
    }
    let count = ap.min(arena.kamas[ctx.side].div_euclid(arena.gg_price.max(1)));
    let mut gg = arena.gg.clone();
    let mut wild = arena.wild_gg;
    let team_of = &ctx.state.team_of;
    let mut worth = 0.0f64;
    for n in 0..count {
        let gain = scoring::score_swing(&gg, wild, ctx.side, 1, None, team_of);
        if gain >= WIN_VALUE {
            return (n + 1, GG_UNIT * WIN_VALUE);
        }
        worth += GG_UNIT * gain + 0.5;
        let (g2, w2) = scoring::score_after(&gg, wild, ctx.side, 1, None, team_of);
        gg = g2;
        wild = w2;
    }
    (count, worth)
}

/// Whether the spell pushes its target away (Puff).
pub fn pushes(spell: &SpellSpec) -> bool {
    spell
        .effects
        .iter()
        .any(|e| matches!(e, Effect::Push { .. }))
}

/// `block_after_push`: the chance of a lock block walking off `cell` once `pushed` moved away.
pub fn block_after_push(ctx: &Ctx<'_>, cell: Cell, pushed: CellSet) -> f64 {
    let me = ctx.me;
    if me.has(Power::Tiny) {
        return 0.0;
    }
    let dodge = if me.has(Power::Dodge) { 2 } else { 1 };
    let mut free = 1.0f64;
    for &c in ctx.state.board.neighbours(cell) {
        if pushed.contains(c) {
            continue;
        }
        let Some(uid) = ctx.state.piece_at(c) else {
            continue;
        };
        let piece = &ctx.state.fighters[uid];
        if !piece.alive || piece.team == me.team || !piece.is_character() || piece.has(Power::Tiny)
        {
            continue;
        }
        let lock = if piece.has(Power::Lock) { 2 } else { 1 };
        free *= 1.0 - BLOCK_CHANCE[lock][dodge];
    }
    1.0 - free
}

#[allow(clippy::too_many_arguments)]
fn best_walk_from(
    search: &mut Search,
    w: &Weights,
    ctx: &mut Ctx<'_>,
    cell: Cell,
    ap_left: i32,
    mp_left: i32,
    placed: CellSet,
    start_risks: Option<&[f64]>,
) -> (i32, f64) {
    for &(v, other) in search.ends(w, ctx, ap_left).iter() {
        if other != cell && ctx.geo.dist(cell, other) <= mp_left && !placed.contains(other) {
            let leave = match start_risks {
                Some(r) => r[usize::from(other)],
                None => ctx.block(cell),
            };
            let stay = search.pos(w, ctx, cell, 0);
            return (i32::from(other), (1.0 - leave) * -v + leave * stay);
        }
    }
    (-1, 0.0)
}

#[allow(clippy::too_many_arguments)]
fn walk_on(
    search: &mut Search,
    w: &Weights,
    ctx: &mut Ctx<'_>,
    cell: Cell,
    value: f64,
    ap_left: i32,
    mp_left: i32,
    placed: CellSet,
) -> (Cell, f64) {
    let (other, mixed) = best_walk_from(search, w, ctx, cell, ap_left, mp_left, placed, None);
    if other >= 0 && mixed > value + 1e-9 {
        return (other as Cell, mixed);
    }
    (cell, value)
}

/// `useful_origins`: cells from which some spell may have a target; `None` for "every cell" (a
/// summon, the reference's -1).
pub fn useful_origins(ctx: &Ctx<'_>, bonus: i32) -> Option<CellSet> {
    let state = ctx.state;
    let me = ctx.me;
    let mut mask = CellSet::EMPTY;
    for &sref in &me.spells {
        let spell = state.content.resolve(sref);
        if spell.ap_cost > me.ap || spell.ap_cost == 0 || scoring::spell_used(me, spell) {
            continue;
        }
        match spell.kind {
            SpellKind::Attack => {
                for &t in &ctx.targets {
                    mask |= ctx.geo.spell_mask(state.fighters[t].at(), spell, bonus);
                }
            }
            SpellKind::Heal => {
                for &a in &ctx.allies {
                    let ally = &state.fighters[a];
                    if ally.injuries > 0 {
                        mask |= ctx.geo.spell_mask(ally.at(), spell, bonus)
                            | CellSet::single(ally.at());
                    }
                }
            }
            SpellKind::Summon => return None,
            SpellKind::Special => {}
        }
    }
    Some(mask)
}

/// `useful_by_bonus`'s wide mask: `Some` (one mask for every bonus) when a summon or a heal on
/// itself may be cast, else `None` (exact masks per bonus).
fn useful_wide(ctx: &Ctx<'_>) -> Option<CellSet> {
    let state = ctx.state;
    let me = ctx.me;
    let mut wide = false;
    for &sref in &me.spells {
        let spell = state.content.resolve(sref);
        if spell.kind != SpellKind::Summon && spell.kind != SpellKind::Heal {
            continue;
        }
        if spell.ap_cost > me.ap || spell.ap_cost == 0 || scoring::spell_used(me, spell) {
            continue;
        }
        if spell.kind == SpellKind::Summon
            || ((spell.range_type == RangeType::Personal || spell.range_min == 0)
                && me.injuries > 0)
        {
            wide = true;
            break;
        }
    }
    if wide {
        Some(useful_origins(ctx, me.range_bonus + 4).unwrap_or(ALL))
    } else {
        None
    }
}
