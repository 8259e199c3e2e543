//! What one planning pass of the heuristic planner reads many times, and the walking helpers
//! (krosbalance/ai/context.py). A [`Ctx`] is built once per pass; its lazily filled caches hold
//! values that do not change during the pass, so filling them eagerly or lazily gives the same
//! numbers.

use std::rc::Rc;
use std::sync::Arc;

use crate::ai::scoring::{self, BLOCK_CHANCE, FastMap, GG_UNIT, Geometry, ThreatMap};
use crate::ai::weights::Weights;
use crate::board::{Cell, CellSet};
use crate::content::{
    Content, Effect, Limit, PieceKind, Power, RangeType, SpellKind, SpellRef, SpellSpec,
};
use crate::engine::state::{Fighter, MatchState};
use crate::rulesets::arena::Arena;
use crate::rulesets::arena::ruleset::{BUY_GG, PICK_KAMA};

/// Summon cell groups (cells, worth), best first (casts.py's `summon_groups`).
pub type Ranks2 = Arc<Vec<(CellSet, f64)>>;

/// A spell the cast search may pick (context.py's `Castable`).
#[derive(Clone, Debug)]
pub struct Castable<'a> {
    pub index: usize,
    pub spell: &'a SpellSpec,
    pub cost: i32,
    pub kind: SpellKind,
    pub limited: bool,
    pub needs_los: bool,
    pub moves_target: bool,
    pub swaps: bool,
    pub moves_caster: bool,
}

/// `FighterView.may(kind)`: restricted play leaves it actions of this kind.
#[inline]
pub fn may(f: &Fighter, kind: u8) -> bool {
    f.forbidden_kinds & (1u32 << kind) == 0
}

/// `Geometry::nearest` of the enemy Krosmasters' cells, kept from one pass to the next while they
/// stand where they stood (a pure function of the board's tables and the cells, so a kept table
/// is the table made again). It holds the tables it was made on, so it never answers for another
/// board.
#[derive(Debug, Default)]
pub struct NearestMemo {
    made: Option<(Arc<Geometry>, CellSet, Rc<Vec<i32>>)>,
}

impl NearestMemo {
    /// `geo.nearest(cells)`, from the memo when `cells` and the board are those it was made on.
    pub fn get(&mut self, geo: &Arc<Geometry>, cells: CellSet) -> Rc<Vec<i32>> {
        if let Some((made_on, made_for, table)) = &self.made {
            if Arc::ptr_eq(made_on, geo) && *made_for == cells {
                return table.clone();
            }
        }
        let table = Rc::new(geo.nearest(cells));
        self.made = Some((geo.clone(), cells, table.clone()));
        table
    }
}

/// `per_turn_damage` of each fighter by uid, kept from one pass to the next while what it reads is
/// unchanged: the fighter's spells, base AP and Critical, and the match's content (a pure function
/// of them, so a kept value is the value made again). A row is made again when any of them changed.
#[derive(Debug, Default)]
pub struct DamageMemo {
    content: Option<Arc<Content>>,
    rows: Vec<Option<DamageRow>>,
}

/// A fighter's base AP, Critical and spells, and its `per_turn_damage` from them.
type DamageRow = (i32, bool, Vec<SpellRef>, f64);

impl DamageMemo {
    /// `per_turn_damage(state, f)`, from the memo when `f`'s inputs are those of its row.
    pub fn get(&mut self, state: &MatchState<Arena>, f: &Fighter) -> f64 {
        if !self
            .content
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, &state.content))
        {
            self.rows.clear();
            self.content = Some(state.content.clone());
        }
        if self.rows.len() <= f.uid {
            self.rows.resize(f.uid + 1, None);
        }
        let critical = f.has(Power::Critical);
        if let Some((ap, crit, spells, value)) = &self.rows[f.uid] {
            if *ap == f.base_ap && *crit == critical && spells[..] == f.spells[..] {
                return *value;
            }
        }
        let value = per_turn_damage(state, f);
        match &mut self.rows[f.uid] {
            Some(row) => {
                row.0 = f.base_ap;
                row.1 = critical;
                row.2.clear();
                row.2.extend_from_slice(&f.spells);
                row.3 = value;
            }
            None => self.rows[f.uid] = Some((f.base_ap, critical, f.spells.clone(), value)),
        }
        value
    }
}

/// A pass's cache of one value per cell, each row stamped with the pass that wrote it: a new
/// pass (`start`) leaves the old rows unread instead of clearing them, and a lookup is an index
/// where a hash map hashed the cell. A pure per-pass cache, as the maps it replaces.
#[derive(Debug, Default)]
pub struct CellMemo {
    rows: Vec<(u32, f64)>,
    pass: u32,
}

impl CellMemo {
    /// A new pass on a board of `n` cells: every row unknown.
    fn start(&mut self, n: usize) {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.rows.iter_mut().for_each(|r| r.0 = 0);
            self.pass = 1;
        }
        if self.rows.len() < n {
            self.rows.resize(n, (0, 0.0));
        }
    }

    /// The value this pass wrote for `cell`, if any.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<f64> {
        let row = self.rows[usize::from(cell)];
        (row.0 == self.pass).then_some(row.1)
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell, value: f64) {
        self.rows[usize::from(cell)] = (self.pass, value);
    }
}

/// The pass's lists of pieces (`Ctx`'s), lent from one pass to the next: each pass fills them
/// from empty, keeping their capacity.
#[derive(Debug, Default)]
pub struct CtxLists {
    enemies: Vec<usize>,
    allies: Vec<usize>,
    bombs: Vec<usize>,
    targets: Vec<usize>,
    enemy_kros: Vec<Cell>,
    pins: Vec<(Cell, f64)>,
}

/// A pass's lookup tables and buffers, lent from one pass to the next: each pass empties them,
/// keeping their capacity (a pass fills a dozen small tables, and growing them again from
/// nothing on every pass was a tenth of a match in allocation). They are pure per-pass caches,
/// never iterated, so lending them changes no value.
#[derive(Debug, Default)]
pub struct PassTables {
    risk: CellMemo,
    blasts: CellMemo,
    bomb_danger: CellMemo,
    engaged: CellMemo,
    plain: Vec<Option<f64>>,
    bomb_values: CellMemo,
    values: FastMap<(u32, usize, i32, i32), f64>,
    heals: FastMap<(usize, usize), f64>,
    hurts: FastMap<(usize, usize), f64>,
    boosts: FastMap<(usize, usize), bool>,
    summon_worth: FastMap<(usize, Cell), f64>,
    summon_groups: FastMap<usize, Ranks2>,
    bomb_ko: FastMap<(u32, usize), f64>,
    walks: FastMap<Cell, (f64, i32)>,
    /// Kept across passes (never emptied): see [`DamageMemo`].
    pub damage: DamageMemo,
    /// Kept across passes (never emptied): see [`NearestMemo`].
    pub nearest: NearestMemo,
    /// The pass's lists of pieces, refilled by each pass.
    pub lists: CtxLists,
    /// The pass's reach, refilled by each pass.
    pub reach: Reach,
    cast_scratch: crate::ai::casts::CastScratch,
    plan_buffers: crate::ai::plan_search::PlanBuffers,
}

/// One planning pass's reads (context.py's `_Context`).
pub struct Ctx<'a> {
    pub state: &'a MatchState<Arena>,
    pub geo: &'a Geometry,
    pub w: &'a Weights,
    pub threat: Rc<ThreatMap>,
    pub me: &'a Fighter,
    pub side: usize,
    pub team: usize,
    pub may_pick: bool,
    pub may_buy: bool,
    pub no_swap_back: i32,
    pub me_cell: Cell,
    pub me_uid: usize,
    pub blockers: CellSet,
    pub obstacles: CellSet,
    pub occupied: CellSet,
    pub crates: CellSet,
    pub enemies: Vec<usize>,
    pub allies: Vec<usize>,
    pub bombs: Vec<usize>,
    pub enemy_kros: Vec<Cell>,
    pub enemy_kros_mask: CellSet,
    pub nearest_kros: Rc<Vec<i32>>,
    /// Enemy characters then bombs (uids).
    pub targets: Vec<usize>,
    pub target_mask: CellSet,
    pub near_enemies: CellSet,
    pub lockers: CellSet,
    pub my_reach: i32,
    pub hp_left: i32,
    pub strike: i32,
    pub hold: i32,
    pub is_krosmaster: bool,
    pub my_worry: f64,
    pub melee: bool,
    pub safety: f64,
    pub bomb_cells: CellSet,
    pub pins: Vec<(Cell, f64)>,
    pub strike_next: f64,
    pub team_target: i64,
    pub team_value: f64,
    pub buy_pull: f64,
    pub nearest_demon: Vec<i32>,
    pub support_bonus: i32,
    pub castable: Vec<Castable<'a>>,
    /// The caster's tokens in play by character id, in first-summoned order.
    pub my_tokens: Vec<(&'a str, i32)>,
    pub econ_mask: CellSet,
    // lazily filled
    risk: CellMemo,
    blasts: CellMemo,
    bomb_danger: CellMemo,
    engaged: CellMemo,
    screens: Option<Vec<f64>>,
    pub objective: Option<(Vec<i32>, Vec<i32>)>,
    pub denial: Option<Vec<(Cell, f64)>>,
    /// First attack values (no injuries planned yet) by castable position and target index,
    /// `castable.len()` rows of `targets.len()` (sized by the first cast search of the pass).
    pub plain: Vec<Option<f64>>,
    pub bomb_values: CellMemo,
    pub values: FastMap<(u32, usize, i32, i32), f64>,
    pub heals: FastMap<(usize, usize), f64>,
    pub hurts: FastMap<(usize, usize), f64>,
    pub boosts: FastMap<(usize, usize), bool>,
    pub summon_worth: FastMap<(usize, Cell), f64>,
    pub summon_groups: FastMap<usize, Ranks2>,
    pub bomb_ko: FastMap<(u32, usize), f64>,
    pub walks: FastMap<Cell, (f64, i32)>,
    /// The player's `per_turn_damage` memo (lent with the tables, kept across passes).
    damage: DamageMemo,
    /// The cast search's buffers, reused from one origin cell to the next.
    pub cast_scratch: crate::ai::casts::CastScratch,
    /// The plan search's buffers (lent by the player, see [`PassTables`]).
    pub plan_buffers: crate::ai::plan_search::PlanBuffers,
}

impl<'a> Ctx<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        state: &'a MatchState<Arena>,
        geo_arc: &'a Arc<Geometry>,
        w: &'a Weights,
        me_uid: usize,
        threat: Rc<ThreatMap>,
        team: (i64, f64),
        damage: &mut DamageMemo,
        nearest: &mut NearestMemo,
        lists: &mut CtxLists,
    ) -> Self {
        let geo: &'a Geometry = geo_arc;
        let me = &state.fighters[me_uid];
        let board = &state.board;
        let arena = &state.rules;
        let side = me.side;
        let my_team = me.team;
        let me_cell = me.at();
        let obstacles = state.obstacles;
        let mut enemies = std::mem::take(&mut lists.enemies);
        let mut allies = std::mem::take(&mut lists.allies);
        let mut bombs = std::mem::take(&mut lists.bombs);
        enemies.clear();
        allies.clear();
        bombs.clear();
        for f in scoring::on_board(state) {
            if f.is_character() {
                if f.team == my_team {
                    allies.push(f.uid);
                } else {
                    enemies.push(f.uid);
                }
            }
            if f.kind == PieceKind::Bomb {
                bombs.push(f.uid);
            }
        }
        let mut enemy_kros = std::mem::take(&mut lists.enemy_kros);
        enemy_kros.clear();
        enemy_kros.extend(
            enemies
                .iter()
                .map(|&e| &state.fighters[e])
                .filter(|f| f.kind == PieceKind::Krosmaster)
                .map(Fighter::at),
        );
        let mut kros_mask = CellSet::EMPTY;
        for &c in &enemy_kros {
            kros_mask.insert(c);
        }
        let nearest_kros = if kros_mask.is_empty() {
            Rc::default()
        } else {
            nearest.get(geo_arc, kros_mask)
        };
        let mut targets = std::mem::take(&mut lists.targets);
        targets.clear();
        targets.extend(enemies.iter().chain(bombs.iter()).copied());
        let mut target_mask = CellSet::EMPTY;
        for &t in &targets {
            target_mask.insert(state.fighters[t].at());
        }
        let mut near = CellSet::EMPTY;
        let mut lockers = CellSet::EMPTY;
        for &e in &enemies {
            let enemy = &state.fighters[e];
            near |= board.square_mask(enemy.at());
            if !enemy.has(Power::Tiny) {
                lockers |= board.neighbour_mask(enemy.at());
            }
        }
        let my_reach = reach(state, me);
        let is_krosmaster = me.kind == PieceKind::Krosmaster;
        let my_worry = if is_krosmaster {
            scoring::kill_value(state, side, me, None)
        } else {
            0.3
        };
        let melee = is_melee(state, me);
        let safety = if melee {
            // min(w.safety, w.melee_safety): the first of equals
            if w.melee_safety < w.safety {
                w.melee_safety
            } else {
                w.safety
            }
        } else {
            w.safety
        };
        let mut bomb_cells = CellSet::EMPTY;
        for &b in &bombs {
            bomb_cells |= board.square_mask(state.fighters[b].at());
        }
        let mut pins = std::mem::take(&mut lists.pins);
        pins.clear();
        let mut strike_next = 0.0;
        if melee {
            strike_next = damage.get(state, me);
            let lock_dice = if me.has(Power::Lock) { 2 } else { 1 };
            if !me.has(Power::Tiny) {
                for &e in &enemies {
                    let enemy = &state.fighters[e];
                    if enemy.has(Power::Tiny) {
                        continue;
                    }
                    let dodge = if enemy.has(Power::Dodge) { 2 } else { 1 };
                    let output = damage.get(state, enemy);
                    let need = if min_reach(state, enemy) >= 2 {
                        1.0
                    } else {
                        0.4
                    };
                    let mut worth = BLOCK_CHANCE[lock_dice][dodge] * output * need;
                    if enemy.kind == PieceKind::Krosmaster {
                        worth += 0.05;
                    }
                    pins.push((enemy.at(), worth));
                }
            }
        }
        let may_pick = may(me, PICK_KAMA);
        let may_buy = may(me, BUY_GG);
        let demon = board.demon_cells();
        let mut buy_pull = 0.0;
        let mut nearest_demon = Vec::new();
        if is_krosmaster && may_buy && !demon.is_empty() && arena.kamas[side] >= arena.gg_price {
            let nearest = geo.nearest(demon);
            let mut buyer: Option<((i32, i32, usize), usize)> = None;
            for &k in &state.timeline[side] {
                let f = &state.fighters[k];
                if !f.alive || f.cell < 0 {
                    continue;
                }
                let n = nearest[usize::from(f.at())];
                let m = f.base_mp.max(1);
                let key = (-((-n).div_euclid(m)), -scoring::remaining_hp(f), f.uid);
                if buyer.as_ref().is_none_or(|b| key < b.0) {
                    buyer = Some((key, k));
                }
            }
            if buyer.is_some_and(|b| b.1 == me.uid) {
                buy_pull = GG_UNIT * scoring::gg_swing(state, side, 1) + 0.5;
                nearest_demon = nearest;
            }
        }
        let mut support_bonus = 0;
        if !is_krosmaster {
            if let Some(s) = me.summoner {
                if allies.contains(&s) {
                    support_bonus =
                        bonus_for(state, &state.fighters[s], scoring::character(state, me));
                }
            }
        }
        let mut castable = Vec::new();
        for (index, &sref) in me.spells.iter().enumerate() {
            let spell = state.content.resolve(sref);
            let cost = spell.ap_cost;
            if cost > me.ap || cost == 0 || spell.mp_cost != 0 || spell.injury_cost != 0 {
                continue;
            }
            let limited = spell.limit != Limit::Unlimited;
            if limited && scoring::spell_used(me, spell) {
                continue;
            }
            match spell.kind {
                SpellKind::Summon => {
                    if spell.summons.is_none() {
                        continue;
                    }
                }
                SpellKind::Attack | SpellKind::Heal => {}
                SpellKind::Special => continue,
            }
            let has = |p: fn(&Effect) -> bool| spell.effects.iter().any(p);
            castable.push(Castable {
                index,
                spell,
                cost,
                kind: spell.kind,
                limited,
                needs_los: spell.needs_los,
                moves_target: has(|e| matches!(e, Effect::Push { .. } | Effect::Attract { .. })),
                swaps: has(|e| matches!(e, Effect::SwapPlaces)),
                moves_caster: has(|e| {
                    matches!(e, Effect::Retreat { .. } | Effect::Approach { .. })
                }),
            });
        }
        let mut my_tokens: Vec<(&'a str, i32)> = Vec::new();
        for &t in &me.summons {
            let token = &state.fighters[t];
            // `view.summons_of(me)`: its own traps are seen (R-A116)
            if !token.alive {
                continue;
            }
            let id = scoring::character(state, token);
            match my_tokens.iter_mut().find(|e| e.0 == id) {
                Some(e) => e.1 += 1,
                None => my_tokens.push((id, 1)),
            }
        }
        let mut econ_mask = CellSet::EMPTY;
        if is_krosmaster {
            if may_buy {
                econ_mask = demon;
            }
            if may_pick {
                for (c, &n) in arena.board_kamas.iter().enumerate() {
                    if n > 0 {
                        econ_mask.insert(c as Cell);
                    }
                }
            }
        }
        let mut blockers = state.sight_blockers;
        blockers.remove(me_cell);
        let mut occupied = obstacles;
        occupied.remove(me_cell);
        Ctx {
            state,
            geo,
            w,
            threat,
            me,
            side,
            team: my_team,
            may_pick,
            may_buy,
            no_swap_back: -1,
            me_cell,
            me_uid,
            blockers,
            obstacles,
            occupied,
            crates: state.crates,
            enemies,
            allies,
            bombs,
            enemy_kros,
            enemy_kros_mask: kros_mask,
            nearest_kros,
            targets,
            target_mask,
            near_enemies: near,
            lockers,
            my_reach,
            hp_left: scoring::remaining_hp(me),
            strike: me.base_mp + my_reach,
            hold: my_reach.max(2),
            is_krosmaster,
            my_worry,
            melee,
            safety,
            bomb_cells,
            pins,
            strike_next,
            team_target: team.0,
            team_value: team.1,
            buy_pull,
            nearest_demon,
            support_bonus,
            castable,
            my_tokens,
            econ_mask,
            risk: CellMemo::default(),
            blasts: CellMemo::default(),
            bomb_danger: CellMemo::default(),
            engaged: CellMemo::default(),
            screens: None,
            objective: None,
            denial: None,
            plain: Vec::new(),
            bomb_values: CellMemo::default(),
            values: FastMap::default(),
            heals: FastMap::default(),
            hurts: FastMap::default(),
            boosts: FastMap::default(),
            summon_worth: FastMap::default(),
            summon_groups: FastMap::default(),
            bomb_ko: FastMap::default(),
            walks: FastMap::default(),
            damage: DamageMemo::default(),
            cast_scratch: Default::default(),
            plan_buffers: Default::default(),
        }
    }

    /// Take `tables` (emptied by the pass that had them) as this pass's tables.
    pub fn lend(&mut self, tables: &mut PassTables) {
        let t = tables;
        std::mem::swap(&mut self.risk, &mut t.risk);
        std::mem::swap(&mut self.blasts, &mut t.blasts);
        std::mem::swap(&mut self.bomb_danger, &mut t.bomb_danger);
        std::mem::swap(&mut self.engaged, &mut t.engaged);
        std::mem::swap(&mut self.plain, &mut t.plain);
        std::mem::swap(&mut self.bomb_values, &mut t.bomb_values);
        std::mem::swap(&mut self.values, &mut t.values);
        std::mem::swap(&mut self.heals, &mut t.heals);
        std::mem::swap(&mut self.hurts, &mut t.hurts);
        std::mem::swap(&mut self.boosts, &mut t.boosts);
        std::mem::swap(&mut self.summon_worth, &mut t.summon_worth);
        std::mem::swap(&mut self.summon_groups, &mut t.summon_groups);
        std::mem::swap(&mut self.bomb_ko, &mut t.bomb_ko);
        std::mem::swap(&mut self.walks, &mut t.walks);
        std::mem::swap(&mut self.damage, &mut t.damage);
        std::mem::swap(&mut self.cast_scratch, &mut t.cast_scratch);
        std::mem::swap(&mut self.plan_buffers, &mut t.plan_buffers);
    }

    /// The castable list and the cast search's buffers, taken out for a plan search (which puts
    /// them back with `put_casts`): nothing the cast search reads from the context reads them.
    pub fn take_casts(&mut self) -> (Vec<Castable<'a>>, crate::ai::casts::CastScratch) {
        (
            std::mem::take(&mut self.castable),
            std::mem::take(&mut self.cast_scratch),
        )
    }

    /// Put back what `take_casts` took.
    pub fn put_casts(
        &mut self,
        castable: Vec<Castable<'a>>,
        scratch: crate::ai::casts::CastScratch,
    ) {
        self.castable = castable;
        self.cast_scratch = scratch;
    }

    /// Start this pass's per-cell caches (after `lend`): every cell unknown.
    pub fn start_cells(&mut self) {
        let n = self.state.board.n_cells();
        self.risk.start(n);
        self.blasts.start(n);
        self.bomb_danger.start(n);
        self.engaged.start(n);
        self.bomb_values.start(n);
    }

    /// Give this pass's tables back into `tables`, emptied (their capacity kept) for the next.
    pub fn give_back(mut self, tables: &mut PassTables) {
        tables.lists = CtxLists {
            enemies: std::mem::take(&mut self.enemies),
            allies: std::mem::take(&mut self.allies),
            bombs: std::mem::take(&mut self.bombs),
            targets: std::mem::take(&mut self.targets),
            enemy_kros: std::mem::take(&mut self.enemy_kros),
            pins: std::mem::take(&mut self.pins),
        };
        self.plain.clear();
        self.values.clear();
        self.heals.clear();
        self.hurts.clear();
        self.boosts.clear();
        self.summon_worth.clear();
        self.summon_groups.clear();
        self.bomb_ko.clear();
        self.walks.clear();
        // the cast search's and the plan search's buffers are refilled on each use
        self.lend(tables);
    }

    /// Kamas lying on `cell` now.
    #[inline]
    pub fn kamas_at(&self, cell: Cell) -> i32 {
        self.state.rules.board_kamas[usize::from(cell)]
    }

    /// Worth to us of a bomb exploding on `cell` (our fighter counted where it stands now).
    pub fn blast(&mut self, cell: Cell) -> f64 {
        if let Some(v) = self.blasts.get(cell) {
            return v;
        }
        let v = scoring::explosion_value(
            self.state,
            self.side,
            cell,
            self.side,
            i32::from(self.me_cell),
        );
        self.blasts.insert(cell, v);
        v
    }

    /// What ending on `cell` costs when a bomb on the board blasts it before we act again.
    pub fn blast_danger(&mut self, cell: Cell) -> f64 {
        if !self.bomb_cells.contains(cell) || !self.me.is_character() {
            return 0.0;
        }
        if let Some(v) = self.bomb_danger.get(cell) {
            return v;
        }
        let mut hits = 0;
        for &b in &self.bombs {
            let bomb = &self.state.fighters[b];
            if self.state.board.square_mask(bomb.at()).contains(cell) && bomb.uid != self.me_uid {
                hits += 1;
            }
        }
        let armour = if self.me.has(Power::Armour) { 2 } else { 1 };
        let (hurt, ko) = scoring::hit_odds(hits, 1, armour, 0, self.hp_left);
        let v = hurt + 0.3 * f64::from(hits) + ko * self.my_worry;
        self.bomb_danger.insert(cell, v);
        v
    }

    /// For a melee figure: the worth of ending next to enemies on `cell`.
    pub fn engagement(&mut self, cell: Cell) -> f64 {
        if self.pins.is_empty() {
            return 0.0;
        }
        if let Some(v) = self.engaged.get(cell) {
            return v;
        }
        let mut value = 0.0f64;
        let mut touching = false;
        for &(enemy_cell, worth) in &self.pins {
            if self.geo.dist(cell, enemy_cell) == 1 {
                value += worth;
                touching = true;
            }
        }
        if touching {
            value += 0.5 * self.strike_next;
        }
        self.engaged.insert(cell, value);
        value
    }

    /// For a melee figure: the worth of its body on `cell` as cover for our Krosmasters.
    pub fn screen(&mut self, cell: Cell) -> f64 {
        if self.screens.is_none() {
            let state = self.state;
            let mut screens: Vec<f64> = Vec::new();
            if self.melee && !self.me.has(Power::Tiny) {
                let blocked = state.sight_blockers;
                for &e in &self.enemies {
                    let enemy = &state.fighters[e];
                    let shots = enemy.spells.iter().any(|&s| {
                        let s = state.content.resolve(s);
                        s.kind == SpellKind::Attack
                            && s.needs_los
                            && s.range_type != RangeType::Melee
                            && s.amount > 0
                    });
                    if !shots {
                        continue;
                    }
                    let output = self.damage.get(state, enemy);
                    for &a in &self.allies {
                        let ally = &state.fighters[a];
                        if ally.uid == self.me_uid || ally.kind != PieceKind::Krosmaster {
                            continue;
                        }
                        let wounded = if f64::from(scoring::remaining_hp(ally)) <= output + 1.0 {
                            2.0
                        } else {
                            1.0
                        };
                        let worth = 0.5 * output * wounded;
                        for c in state.board.los_path(enemy.at(), ally.at()).iter() {
                            if blocked.contains(c) {
                                continue;
                            }
                            if screens.is_empty() {
                                screens = vec![0.0; state.board.n_cells()];
                            }
                            screens[usize::from(c)] += worth;
                        }
                    }
                }
            }
            self.screens = Some(screens);
        }
        let screens = self.screens.as_ref().expect("just built");
        if screens.is_empty() {
            0.0
        } else {
            screens[usize::from(cell)]
        }
    }

    /// The chance of being blocked walking off `cell` (0 away from locking enemies).
    pub fn block(&mut self, cell: Cell) -> f64 {
        if let Some(v) = self.risk.get(cell) {
            return v;
        }
        let v = if self.lockers.contains(cell) {
            scoring::block_chance(self.state, self.me, cell)
        } else {
            0.0
        };
        self.risk.insert(cell, v);
        v
    }
}

// ---------------------------------------------------------------------------------- helpers
/// A fighter's spells, in its order.
fn attack_spells<'s>(
    state: &'s MatchState<Arena>,
    f: &'s Fighter,
) -> impl Iterator<Item = &'s SpellSpec> + 's {
    f.spells.iter().map(|&s| state.content.resolve(s))
}

/// Whether the fighter's damaging attacks all need it within 2 cells.
pub fn is_melee(state: &MatchState<Arena>, f: &Fighter) -> bool {
    let mut any = false;
    let mut top = i32::MIN;
    for s in attack_spells(state, f) {
        if s.kind == SpellKind::Attack && s.ap_cost != 0 && s.amount > 0 {
            let r = if s.range_type == RangeType::Melee {
                1
            } else {
                s.range_max
            };
            any = true;
            top = top.max(r);
        }
    }
    any && top <= 2
}

/// The shortest distance from which the fighter's best-reaching damaging attack can be cast.
pub fn min_reach(state: &MatchState<Arena>, f: &Fighter) -> i32 {
    let mut best = 0;
    let mut lo = 1;
    for s in attack_spells(state, f) {
        if s.kind == SpellKind::Attack && s.ap_cost != 0 && s.amount > 0 {
            let top = if s.range_type == RangeType::Melee {
                1
            } else {
                s.range_max
            };
            if top > best {
                best = top;
                lo = if s.range_type == RangeType::Melee {
                    1
                } else {
                    s.range_min
                };
            }
        }
    }
    lo
}

/// Expected injuries the fighter deals in a turn with its best repeatable attack.
pub fn per_turn_damage(state: &MatchState<Arena>, f: &Fighter) -> f64 {
    scoring::best_attack_worth(state, f)
}

/// The longest max range among the fighter's attack spells (1 for melee, 0 with none).
pub fn reach(state: &MatchState<Arena>, f: &Fighter) -> i32 {
    let mut best = 0;
    for s in attack_spells(state, f) {
        if s.kind == SpellKind::Attack && s.ap_cost != 0 {
            best = best.max(if s.range_type == RangeType::Melee {
                1
            } else {
                s.range_max
            });
        }
    }
    best
}

/// Damage a summoner's spells gain per adjacent token of `summon`.
pub fn bonus_for(state: &MatchState<Arena>, summoner: &Fighter, summon: &str) -> i32 {
    let mut best: Option<i32> = None;
    for s in attack_spells(state, summoner) {
        for e in &s.effects {
            if let Effect::BonusPerAdjacentSummon {
                summon: which,
                damage,
            } = e
            {
                if which == summon && best.is_none_or(|b| *damage > b) {
                    best = Some(*damage);
                }
            }
        }
    }
    best.unwrap_or(0)
}

/// `view.reachable_cells(fighter, mp)`: cells within `mp` steps around the obstacles, with their
/// cost, in BFS order (the reference's dict order).
pub fn reachable_cells(state: &MatchState<Arena>, start: Cell, mp: i32) -> Vec<(Cell, i32)> {
    let mut costs = Vec::with_capacity(32);
    reachable_into(state, start, mp, &mut costs);
    costs
}

/// `reachable_cells` into `costs` (emptied first).
fn reachable_into(state: &MatchState<Arena>, start: Cell, mp: i32, costs: &mut Vec<(Cell, i32)>) {
    // a cell seen or blocked is never queued: one bitmask for both
    let mut closed = state.obstacles;
    closed.insert(start);
    costs.clear();
    costs.push((start, 0));
    let mut i = 0;
    while i < costs.len() {
        let (cell, cost) = costs[i];
        i += 1;
        if cost >= mp {
            continue;
        }
        for &nxt in state.board.neighbours(cell) {
            if !closed.contains(nxt) {
                closed.insert(nxt);
                costs.push((nxt, cost + 1));
            }
        }
    }
}

/// A reach in BFS order with a per-cell cost lookup (-1 where unreached).
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub order: Vec<(Cell, i32)>,
    pub cost: Vec<i32>,
}

impl Reach {
    pub fn new(order: Vec<(Cell, i32)>, n_cells: usize) -> Self {
        let mut cost = vec![-1; n_cells];
        for &(c, k) in &order {
            cost[usize::from(c)] = k;
        }
        Reach { order, cost }
    }

    /// Made again in place: the cells within `mp` steps of `start` (`reachable_cells`), or
    /// `start` alone when `mp` is 0 or less.
    pub fn refill(&mut self, state: &MatchState<Arena>, start: Cell, mp: i32) {
        if mp > 0 {
            reachable_into(state, start, mp, &mut self.order);
        } else {
            self.order.clear();
            self.order.push((start, 0));
        }
        self.cost.clear();
        self.cost.resize(state.board.n_cells(), -1);
        for &(c, k) in &self.order {
            self.cost[usize::from(c)] = k;
        }
    }

    #[inline]
    pub fn get(&self, cell: Cell) -> Option<i32> {
        let k = self.cost[usize::from(cell)];
        (k >= 0).then_some(k)
    }
}

/// `_path`: cells from the start to `dest` along decreasing BFS cost (start excluded).
pub fn path(state: &MatchState<Arena>, reach: &Reach, dest: Cell) -> Vec<Cell> {
    let mut out = vec![dest];
    let mut cur = dest;
    while reach.get(cur).expect("in reach") > 1 {
        let cost = reach.get(cur).expect("in reach") - 1;
        let mut found = None;
        for &n in state.board.neighbours(cur) {
            if reach.get(n) == Some(cost) {
                found = Some(n);
                break;
            }
        }
        match found {
            Some(n) => cur = n,
            None => break,
        }
        out.push(cur);
    }
    out.reverse();
    out
}

/// `walk_plan`'s answer: per cell, the chance of being blocked on the way, the kamas on the way
/// and the previous cell (buffers refilled by each pass).
#[derive(Debug, Default)]
pub struct Walks {
    pub risks: Vec<f64>,
    pub on_way: Vec<i32>,
    pub parent: Vec<i32>,
    free_at: Vec<f64>,
}

/// `walk_plan`: per cell, (chance of being blocked on the way, kamas on the way, previous cell),
/// into `out`.
pub fn walk_plan(ctx: &mut Ctx<'_>, reach: &Reach, out: &mut Walks) {
    let n = ctx.state.board.n_cells();
    let lockers = ctx.lockers;
    let kama_cells = ctx.econ_mask;
    let watched = reach
        .order
        .iter()
        .any(|&(c, _)| lockers.contains(c) || kama_cells.contains(c));
    let Walks {
        risks,
        on_way,
        parent,
        free_at,
    } = out;
    risks.clear();
    risks.resize(n, 0.0);
    on_way.clear();
    on_way.resize(n, 0);
    parent.clear();
    parent.resize(n, -1);
    if !watched {
        return;
    }
    let state = ctx.state;
    let start = ctx.me_cell;
    free_at.clear();
    free_at.resize(n, 1.0);
    for &(cell, cost) in &reach.order {
        if cost == 0 {
            continue;
        }
        let (mut best_free, mut best_kamas, mut best_parent) = (-1.0f64, -1i32, -1i32);
        for &nb in state.board.neighbours(cell) {
            if reach.get(nb) != Some(cost - 1) {
                continue;
            }
            let go = if lockers.contains(nb) {
                1.0 - ctx.block(nb)
            } else {
                1.0
            };
            let free = free_at[usize::from(nb)] * go;
            let picked = on_way[usize::from(nb)]
                + if kama_cells.contains(nb) {
                    ctx.kamas_at(nb)
                } else {
                    0
                };
            if free > best_free + 1e-12
                || ((free - best_free).abs() <= 1e-12 && picked > best_kamas)
            {
                best_free = free;
                best_kamas = picked;
                best_parent = i32::from(nb);
            }
        }
        let c = usize::from(cell);
        free_at[c] = best_free;
        risks[c] = 1.0 - best_free;
        on_way[c] = best_kamas;
        parent[c] = best_parent;
    }
    on_way[usize::from(start)] = 0;
}

/// `route`: the cells of the walk `walk_plan` chose from `start` to `dest` (start excluded).
pub fn route(parent: &[i32], start: Cell, dest: Cell) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut cur = i32::from(dest);
    while cur != i32::from(start) && parent[cur as usize] >= 0 {
        out.push(cur as Cell);
        cur = parent[cur as usize];
    }
    out.reverse();
    out
}
