//! The Blast planner (krosbalance/ai/blast/planner.py): one decision at a time for the active
//! Combatant, scoring casts (exact combat-die odds), bonus uses (favors and active Divine Challenge
//! bonuses) and walks (captures on the way times the chance through tackle zones, plus the end
//! cell's worth), as the reference does; Invocations attack, then walk to guard a glyph cell or
//! toward the nearest enemy. Every sum and comparison is the reference's, in its order, so the
//! floating-point values and their ties are the same.

use std::collections::VecDeque;

use crate::ai::blast::weights::BlastWeights;
use crate::board::{Cell, CellSet};
use crate::content::{Limit, PieceKind, SpellKind, SpellSpec};
use crate::engine::rules::{Action, CAST, MOVE};
use crate::engine::state::{Fighter, MatchState};
use crate::rulesets::blast::bonus::{USE_BONUS, USE_FAVOR, decode, favor_cost};
use crate::rulesets::blast::cards::{BonusAction, BonusEffect, FIRE, FOG};
use crate::rulesets::blast::holdings::{damage_bonus, reroll_source};
use crate::rulesets::blast::ruleset::{
    Blast, combat_odds, dodge_odds, expected_damage, favor_in, leave_risk, turns_left,
};

pub(crate) const EPS: f64 = 1e-6;

/// The best walk: its value, first step, end cell and expected captures on the way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) value: f64,
    pub(crate) first: Cell,
    pub(crate) end: Cell,
    captures: f64,
}

/// Scores the legal actions of the active Combatant.
pub(crate) struct Planner<'a> {
    state: &'a MatchState<Blast>,
    legal: &'a [Action],
    w: BlastWeights,
    side: usize,
    me: usize,
    enemies: Vec<usize>,
    pub(crate) enemy_krosmasters: Vec<usize>,
    allies: Vec<usize>,
    advanced: bool,
    urgency: f64,
    /// What a spell of the active fighter adds to its damage: the pending bonus and, for a
    /// Krosmaster, the passives' (`spell_base`'s terms; the same for the whole decision).
    spell_bonus: i32,
    /// `threat`'s and `cell_value`'s answers by cell, and `walks`'s work space
    tables: PlannerTables,
    /// `threat`'s terms, made at the first ask (`threat_terms`).
    threat_terms: Option<Vec<(Cell, i32, f64)>>,
    todo: Vec<Cell>,
    /// `best_plan`'s answers by MP.
    best_plans: Vec<(i32, Plan)>,
}

/// One attack spell on one enemy as `attack_from` weighs it: the hit's worth (the same from every
/// cell: the expected damage and the KO chance read the caster and the target, not where it
/// stands), and where it reaches from.
#[derive(Clone, Copy, Debug)]
struct Hit {
    value: f64,
    enemy_cell: Cell,
    range_min: i32,
    range_max: i32,
    needs_los: bool,
}

/// The planner's tables by cell, kept by its player between decisions so that a decision clears
/// them rather than allocating them afresh (a Blast match makes a few hundred decisions): what
/// `threat` and `cell_value` found, and `walks`'s breadth-first work space.
#[derive(Clone, Debug, Default)]
pub struct PlannerTables {
    /// what the cell values below were worked out from: while it holds, the next decision reads
    /// them as they are (a walk's next step: the mover's cell and MP change, nothing they read)
    inputs: Option<CellInputs>,
    threat: Vec<Option<f64>>,
    cells: Vec<[Option<f64>; 2]>,
    hits: Option<Vec<Hit>>,
    dist: Vec<i32>,
    expect: Vec<f64>,
    reach: Vec<f64>,
    first: Vec<Cell>,
    frontier: VecDeque<Cell>,
}

/// Everything `cell_value` and `threat` read but the cell asked about (the weights, the mover
/// but its cell and MP, its passives' bonuses, the enemies where they stand and their state, the
/// sight blockers but the mover, the glyph cells still to take), and the turn: two decisions with
/// the same inputs value every cell alike, so the second reads the first's values.
#[derive(Clone, Debug, PartialEq)]
struct CellInputs {
    w: BlastWeights,
    turn: i32,
    me: usize,
    can_attack: bool,
    range_bonus: i32,
    left: (i32, i32),
    spell_bonus: i32,
    reroll: (bool, i32),
    /// per enemy: uid, cell, HP, injuries, base MP and AP
    enemies: Vec<(usize, i32, i32, i32, i32, i32)>,
    blockers: CellSet,
    todo: CellSet,
}

/// view.py's `_of_teams`: fighters on the board, traps excluded, of the side's team or not.
fn of_teams(state: &MatchState<Blast>, team: usize, own: bool) -> Vec<usize> {
    state
        .fighters
        .iter()
        .filter(|f| f.alive && f.cell >= 0 && f.kind != PieceKind::Trap && (f.team == team) == own)
        .map(|f| f.uid)
        .collect()
}

impl<'a> Planner<'a> {
    pub(crate) fn new(state: &'a MatchState<Blast>, legal: &'a [Action], w: BlastWeights) -> Self {
        Self::with_tables(state, legal, w, PlannerTables::default())
    }

    /// A planner whose tables reuse `tables`'s room (their contents are cleared).
    pub(crate) fn with_tables(
        state: &'a MatchState<Blast>,
        legal: &'a [Action],
        w: BlastWeights,
        mut tables: PlannerTables,
    ) -> Self {
        let me = state.active.expect("an active fighter");
        let side = state.active_side;
        let team = state.team_of[side];
        let enemies = of_teams(state, team, false);
        let enemy_krosmasters = enemies
            .iter()
            .copied()
            .filter(|&e| state.fighters[e].kind == PieceKind::Krosmaster)
            .collect();
        let allies = of_teams(state, team, true);
        let todo_mask = state.rules.glyph_cells & !state.rules.owned[side];
        let n = state.board.n_cells();
        let passive = if state.fighters[me].kind == PieceKind::Krosmaster {
            damage_bonus(state, side)
        } else {
            0
        };
        let spell_bonus = state.rules.pending_spell_bonus(me) + passive;
        let f = &state.fighters[me];
        let mut blockers = state.sight_blockers;
        blockers.remove(f.at());
        let inputs = CellInputs {
            w,
            turn: state.turn,
            me,
            can_attack: f.ap > 0,
            range_bonus: f.range_bonus,
            left: (f.hp, f.injuries),
            spell_bonus,
            reroll: reroll_source(state, me),
            enemies: enemies
                .iter()
                .map(|&e| {
                    let e = &state.fighters[e];
                    (e.uid, e.cell, e.hp, e.injuries, e.base_mp, e.base_ap)
                })
                .collect(),
            blockers,
            todo: todo_mask,
        };
        if tables.inputs.as_ref() != Some(&inputs) {
            tables.threat.clear();
            tables.threat.resize(n, None);
            tables.cells.clear();
            tables.cells.resize(n, [None; 2]);
            tables.hits = None;
            tables.inputs = Some(inputs);
        }
        Planner {
            state,
            legal,
            w,
            side,
            me,
            enemies,
            enemy_krosmasters,
            allies,
            advanced: state.ruleset.opts.advanced,
            urgency: 1.0 + w.urgency / (turns_left(state, side) as f64 + 1.0),
            spell_bonus,
            tables,
            threat_terms: None,
            todo: todo_mask.iter().collect(),
            best_plans: Vec::new(),
        }
    }

    /// The tables, for the next decision's planner.
    pub(crate) fn into_tables(self) -> PlannerTables {
        self.tables
    }

    #[inline]
    fn f(&self, uid: usize) -> &'a Fighter {
        &self.state.fighters[uid]
    }

    #[inline]
    pub(crate) fn me(&self) -> &'a Fighter {
        &self.state.fighters[self.me]
    }

    #[inline]
    fn dist(&self, a: Cell, b: Cell) -> i32 {
        i32::from(self.state.board.distance(a, b))
    }

    fn spell(&self, index: i32) -> &'a SpellSpec {
        let sref = self.me().spells[index as usize];
        self.state.content.resolve(sref)
    }

    fn piece_at(&self, cell: i32) -> Option<usize> {
        if cell < 0 {
            return None;
        }
        self.state
            .piece_at(cell as Cell)
            .filter(|&p| self.state.fighters[p].alive)
    }

    fn is_legal(&self, action: Action) -> bool {
        self.legal.contains(&action)
    }

    fn owned(&self, side: usize, cell: Cell) -> bool {
        self.state.rules.owned[side].contains(cell)
    }

    // ------------------------------------------------------------------ the decision
    /// The best action; without `may_move` it never walks (a search's plan walks for it).
    pub(crate) fn decide(&mut self, may_move: bool) -> Action {
        let legal = self.legal;
        // the reference sorts the casts and the bonus uses (by value, then index, descending) and
        // reads the first of each, and each spell's best cast: the same without the sorts
        let mut first_cast: Option<(f64, usize, Action)> = None;
        let mut spell_best: Vec<(i32, f64)> = Vec::new();
        for (i, &a) in legal.iter().enumerate() {
            if a.kind == CAST {
                let value = self.cast_value(a);
                keep_first(&mut first_cast, (value, i, a));
                if value > EPS {
                    match spell_best.iter_mut().find(|(s, _)| *s == a.spell) {
                        Some((_, best)) => *best = py_max(*best, value),
                        None => spell_best.push((a.spell, value)),
                    }
                }
            }
        }
        let cast_values = self.ap_uses(spell_best);
        let mut first_bonus: Option<(f64, usize, Action)> = None;
        for (i, &a) in legal.iter().enumerate() {
            if a.kind == USE_FAVOR || a.kind == USE_BONUS {
                let value = self.bonus_value(a, &cast_values);
                keep_first(&mut first_bonus, (value, i, a));
            }
        }
        let best_cast = first_cast.filter(|c| c.0 > EPS);
        let best_bonus = first_bonus.filter(|b| b.0 > EPS);
        let me = self.me();
        let plan = if may_move && me.mp > 0 && !me.blocked {
            Some(self.best_plan(me.mp))
        } else {
            None
        };
        let stay = self.stay_value();
        let gain = match plan {
            Some(p) if i32::from(p.end) != me.cell => p.value - stay,
            _ => 0.0,
        };
        if let Some(c) = best_cast
            && leave_risk(self.state, self.me) > 0.0
        {
            return c.2; // cast before a dodge roll can take the AP away (R-B36)
        }
        let top = py_max(best_cast.map_or(0.0, |c| c.0), gain);
        if let Some(b) = best_bonus
            && (b.0 > top + EPS || self.amplifies(b.2))
        {
            return b.2;
        }
        if let Some(p) = plan
            && gain > EPS
            && (p.captures > EPS || best_cast.is_none_or(|c| gain >= c.0))
        {
            let step = Action::new(MOVE, -1, i32::from(p.first));
            if self.is_legal(step) {
                return step;
            }
        }
        if let Some(c) = best_cast {
            return c.2;
        }
        if let Some(p) = plan
            && gain > EPS
        {
            let step = Action::new(MOVE, -1, i32::from(p.first));
            if self.is_legal(step) {
                return step;
            }
        }
        if let Some(b) = best_bonus {
            return b.2;
        }
        Action::END_TURN
    }

    // ------------------------------------------------------------------ casts
    fn ko_chance(&self, base: i32, remaining: i32) -> f64 {
        let (plus, zero, minus) = combat_odds(self.advanced);
        let mut total = 0.0;
        for (d, p) in [(1, plus), (0, zero), (-1, minus)] {
            if base + d >= remaining {
                total += p;
            }
        }
        total
    }

    fn hit_value(&self, target: usize, expected: f64, base: i32) -> f64 {
        let w = &self.w;
        let t = self.f(target);
        let sign = if t.side != self.side { 1.0 } else { -1.0 };
        let remaining = t.hp - t.injuries;
        if t.kind != PieceKind::Krosmaster {
            let ko = if base >= remaining { 1.0 } else { 0.0 };
            return sign * w.damage * w.minion * (expected + ko);
        }
        let ko = if base > 0 {
            self.ko_chance(base, remaining)
        } else {
            0.0
        };
        sign * (w.damage * expected + w.ko * ko)
    }

    fn spell_base(&self, spell: &SpellSpec) -> i32 {
        if spell.kind != SpellKind::Attack || spell.amount <= 0 {
            return 0;
        }
        spell.amount + self.spell_bonus
    }

    pub(crate) fn cast_value(&mut self, action: Action) -> f64 {
        let spell = self.spell(action.spell);
        let target = self.piece_at(action.target);
        match spell.kind {
            SpellKind::Attack => match target {
                None => 0.0,
                Some(t) => {
                    let expected = expected_damage(self.state, self.me, spell, t);
                    self.hit_value(t, expected, self.spell_base(spell))
                }
            },
            SpellKind::Heal => match target {
                Some(t) if self.f(t).side == self.side => {
                    let t = self.f(t);
                    let healed = spell.amount.min(t.injuries);
                    let share = if t.kind == PieceKind::Krosmaster {
                        1.0
                    } else {
                        0.3
                    };
                    self.w.heal * f64::from(healed) * share
                }
                _ => 0.0,
            },
            SpellKind::Summon => self.w.summon,
            SpellKind::Special => {
                if spell
                    .effects
                    .iter()
                    .any(|e| matches!(e, crate::content::Effect::MoveToTarget))
                {
                    self.cell_gain(action.target as Cell) - self.stay_value()
                } else {
                    0.0
                }
            }
        }
    }

    /// The worth of the casts the AP left would buy, best first, from each spell's best cast
    /// (`(spell, value)`, the values above `EPS`).
    fn ap_uses(&self, best: Vec<(i32, f64)>) -> Vec<f64> {
        let mut uses = Vec::new();
        for (index, value) in best {
            let spell = self.spell(index);
            let repeat = if spell.limit == Limit::Unlimited && spell.kind == SpellKind::Attack {
                self.me().ap.max(1)
            } else {
                1
            };
            uses.extend(std::iter::repeat_n(value, repeat as usize));
        }
        // equal values are the same value: an unstable sort orders them alike
        uses.sort_unstable_by(|a, b| b.partial_cmp(a).expect("no NaN"));
        uses
    }

    fn amplifies(&self, action: Action) -> bool {
        let (spec, _) = self.bonus_spec(action);
        spec.effects.iter().all(|e| {
            matches!(
                e,
                BonusEffect::NextSpellDamage { .. } | BonusEffect::MarkerSelf { .. }
            )
        })
    }

    // ------------------------------------------------------------------ bonus uses
    fn bonus_spec(&self, action: Action) -> (&'a BonusAction, i32) {
        let (index, _) = decode(action.spell);
        if action.kind == USE_FAVOR {
            let favor = favor_in(self.state, index).expect("a favor in the slot");
            (&favor.action, favor_cost(self.state, self.side))
        } else {
            let spec = self.state.rules.bonuses[index]
                .action
                .as_ref()
                .expect("an active bonus");
            (spec, 1)
        }
    }

    fn bonus_value(&mut self, action: Action, cast_values: &[f64]) -> f64 {
        let (spec, cost) = self.bonus_spec(action);
        let me = self.me();
        let w = self.w;
        let mut value = 0.0;
        for effect in &spec.effects {
            match effect {
                BonusEffect::NextSpellDamage { amount } => {
                    if me.ap - cost >= 1 && !cast_values.is_empty() && self.has_attack() {
                        value += w.damage * f64::from(*amount);
                    }
                }
                BonusEffect::MarkerSelf { ap, amount } => {
                    if !*ap {
                        if !me.blocked {
                            let now = self.best_plan(me.mp);
                            let more = self.best_plan(me.mp + amount);
                            value += py_max(0.0, more.value - now.value);
                        }
                    } else {
                        let start = me.ap - cost;
                        if start >= 0 {
                            let s = (start as usize).min(cast_values.len());
                            let e = ((start + amount) as usize).min(cast_values.len());
                            let mut total = 0.0;
                            for v in &cast_values[s..e] {
                                total += v;
                            }
                            value += total;
                        }
                    }
                }
                BonusEffect::HealSelf { amount } => {
                    value += w.heal * f64::from((*amount).min(me.injuries));
                }
                BonusEffect::Summon { .. } => value += w.summon,
                BonusEffect::Leap => {
                    value += self.cell_gain(action.target as Cell) - self.stay_value();
                }
                BonusEffect::PushTarget { .. } => {
                    if self.dist(me.at(), action.target as Cell) == 1 {
                        value += 0.5 * w.safety;
                    }
                }
                BonusEffect::DamageTarget { amount } => {
                    if let Some(t) = self.piece_at(action.target) {
                        let left = f64::from(self.f(t).hp - self.f(t).injuries);
                        value += self.hit_value(t, f64::from(*amount).min(left), *amount);
                    }
                }
                BonusEffect::DamageAround {
                    amount,
                    reach,
                    allies,
                } => {
                    // view.py's `fighters()`: on the board, traps excluded, in uid order
                    let on_board: Vec<usize> = self
                        .state
                        .fighters
                        .iter()
                        .filter(|f| f.alive && f.cell >= 0 && f.kind != PieceKind::Trap)
                        .map(|f| f.uid)
                        .collect();
                    for piece in on_board {
                        let p = self.f(piece);
                        let d = self.dist(me.at(), p.at());
                        if piece != self.me
                            && 1 <= d
                            && d <= *reach
                            && (*allies || p.side != self.side)
                        {
                            let left = f64::from(p.hp - p.injuries);
                            value += self.hit_value(piece, f64::from(*amount).min(left), *amount);
                        }
                    }
                }
                BonusEffect::MinusMarkerTarget { amount, .. } => {
                    if let Some(t) = self.piece_at(action.target)
                        && self.f(t).kind == PieceKind::Krosmaster
                    {
                        value += w.damage * 1.0 * f64::from(*amount);
                    }
                }
                BonusEffect::CaptureTarget => value += self.glyph_gain(action.target as Cell),
                BonusEffect::PlaceTerrain { kind } => {
                    value += self.terrain_value(*kind, action.target as Cell);
                }
            }
        }
        let lost = me.ap - cost; // the cast the AP paid would have bought
        if cost != 0 && lost >= 0 && (lost as usize) < cast_values.len() {
            value -= cast_values[lost as usize];
        }
        value
    }

    fn has_attack(&self) -> bool {
        self.me().spells.iter().any(|&s| {
            let s = self.state.content.resolve(s);
            s.kind == SpellKind::Attack && s.amount > 0
        })
    }

    /// A small worth for a tile where it hinders an enemy Krosmaster.
    fn terrain_value(&self, terrain: usize, cell: Cell) -> f64 {
        let near = self
            .enemy_krosmasters
            .iter()
            .any(|&e| self.dist(self.f(e).at(), cell) == 1);
        if terrain == FIRE && near {
            return 0.25 * self.w.damage * f64::from(self.state.ruleset.opts.fire_damage);
        }
        if terrain == FOG {
            for &ally in &self.allies {
                for &enemy in &self.enemy_krosmasters {
                    let path = self
                        .state
                        .board
                        .los_path(self.f(enemy).at(), self.f(ally).at());
                    if path.contains(cell) {
                        return 0.5 * self.w.safety;
                    }
                }
            }
        }
        0.0
    }

    // ------------------------------------------------------------------ glyphs and cells
    fn glyph_gain(&self, cell: Cell) -> f64 {
        let bs = &self.state.rules;
        if self.me().kind != PieceKind::Krosmaster || !bs.glyph_cells.contains(cell) {
            return 0.0;
        }
        if self.owned(self.side, cell) {
            return 0.0;
        }
        let worth = if self.owned(1 - self.side, cell) {
            self.w.flip
        } else {
            self.w.capture
        };
        worth * self.urgency
    }

    fn threat(&mut self, cell: Cell) -> f64 {
        if let Some(t) = self.tables.threat[usize::from(cell)] {
            return t;
        }
        if self.threat_terms.is_none() {
            self.threat_terms = Some(self.threat_terms());
        }
        let mut total = 0.0;
        for &(at, reach, term) in self.threat_terms.as_deref().unwrap_or_default() {
            if self.dist(at, cell) <= reach {
                total += term;
            }
        }
        self.tables.threat[usize::from(cell)] = Some(total);
        total
    }

    /// `threat`'s terms: per enemy Krosmaster with an attack (in their order), its cell, its
    /// reach (MP + range) and the injuries it could deal, times 0.6.
    fn threat_terms(&self) -> Vec<(Cell, i32, f64)> {
        let mut terms = Vec::with_capacity(self.enemy_krosmasters.len());
        for &enemy in &self.enemy_krosmasters {
            let e = self.f(enemy);
            let attacks = || {
                e.spells
                    .iter()
                    .map(|&s| self.state.content.resolve(s))
                    .filter(|s| s.kind == SpellKind::Attack && s.amount > 0)
            };
            let Some(range) = attacks().map(|s| s.range_max).max() else {
                continue;
            };
            let best = attacks().map(|s| s.amount).max().expect("some");
            terms.push((e.at(), e.base_mp + range, f64::from(best * e.base_ap) * 0.6));
        }
        terms
    }

    /// The best hit from `cell`: the largest worth of an attack spell on an enemy in its range
    /// (and line of sight) from there, at least 0 (the reference's `max(0.0, ...)` over spells and
    /// enemies: a maximum, so the hits are read best first and the first that reaches is it).
    fn attack_from(&mut self, cell: Cell) -> f64 {
        if self.me().ap <= 0 {
            return 0.0;
        }
        if self.tables.hits.is_none() {
            self.tables.hits = Some(self.hits());
        }
        let mut blockers = self.state.sight_blockers;
        blockers.remove(self.me().at());
        let board = &self.state.board;
        for hit in self.tables.hits.as_deref().unwrap_or_default() {
            let d = i32::from(board.distance(cell, hit.enemy_cell));
            if !(hit.range_min <= d && d <= hit.range_max) {
                continue;
            }
            // the enemy's row of the table (the path is the same both ways): one cache line
            // for neighbouring cells
            if hit.needs_los && board.los_path(hit.enemy_cell, cell).intersects(blockers) {
                continue;
            }
            return hit.value;
        }
        0.0
    }

    /// `attack_from`'s hits worth more than 0 (no other can raise its maximum), best first (a
    /// stable sort: equal worths keep the spell, then enemy, order).
    fn hits(&self) -> Vec<Hit> {
        let me = self.me();
        let mut hits = Vec::new();
        for &sref in &me.spells {
            let spell = self.state.content.resolve(sref);
            if spell.kind != SpellKind::Attack || spell.amount <= 0 {
                continue;
            }
            let base = self.spell_base(spell);
            for &enemy in &self.enemies {
                let expected = expected_damage(self.state, self.me, spell, enemy);
                let value = self.hit_value(enemy, expected, base);
                if value > 0.0 {
                    hits.push(Hit {
                        value,
                        enemy_cell: self.f(enemy).at(),
                        range_min: spell.range_min,
                        range_max: spell.range_max + me.range_bonus,
                        needs_los: spell.needs_los,
                    });
                }
            }
        }
        hits.sort_by(|a, b| b.value.partial_cmp(&a.value).expect("no NaN"));
        hits
    }

    fn cell_value(&mut self, cell: Cell, owned_after: bool) -> f64 {
        if let Some(v) = self.tables.cells[usize::from(cell)][usize::from(owned_after)] {
            return v;
        }
        let w = self.w;
        let threat = self.threat(cell);
        let mut value = self.attack_from(cell) - w.safety * threat;
        let me = self.me();
        if me.kind == PieceKind::Krosmaster {
            if threat >= f64::from(me.hp - me.injuries) {
                value -= w.danger;
            }
            if owned_after
                && self
                    .enemy_krosmasters
                    .iter()
                    .any(|&e| self.dist(self.f(e).at(), cell) <= self.f(e).base_mp + 1)
            {
                value += w.hold;
            }
            if !self.enemy_krosmasters.is_empty() && w.approach != 0.0 {
                let nearest = self
                    .enemy_krosmasters
                    .iter()
                    .map(|&e| self.dist(cell, self.f(e).at()))
                    .min()
                    .expect("some");
                value -= w.approach * f64::from(nearest);
            }
            if w.near_glyph != 0.0 {
                let near = self
                    .todo
                    .iter()
                    .filter(|&&g| g != cell)
                    .map(|&g| self.dist(cell, g))
                    .min();
                if let Some(n) = near {
                    value -= w.near_glyph * f64::from(n);
                }
            }
        }
        self.tables.cells[usize::from(cell)][usize::from(owned_after)] = Some(value);
        value
    }

    fn cell_gain(&mut self, cell: Cell) -> f64 {
        let mine = self.owned(self.side, cell);
        let gain = self.glyph_gain(cell);
        gain + self.cell_value(cell, mine || gain > 0.0)
    }

    pub(crate) fn stay_value(&mut self) -> f64 {
        let cell = self.me().at();
        let mine = self.owned(self.side, cell);
        self.cell_value(cell, mine)
    }

    fn leave_chance(&self, cell: Cell) -> f64 {
        let opts = &self.state.ruleset.opts;
        if !opts.tackle_zone {
            return 1.0;
        }
        let enemies = self
            .enemy_krosmasters
            .iter()
            .filter(|&&e| self.dist(self.f(e).at(), cell) == 1)
            .count() as i32;
        if enemies <= 0 {
            return 1.0;
        }
        let dice = if enemies == 1 {
            1
        } else if opts.per_enemy {
            enemies
        } else {
            2
        };
        dodge_odds(dice, opts.advanced).0
    }

    /// The best end cell within `mp` steps, by expected captures on the way and end worth.
    fn best_plan(&mut self, mp: i32) -> Plan {
        if let Some(&(_, plan)) = self.best_plans.iter().find(|&&(m, _)| m == mp) {
            return plan; // the same walks: nothing they read changes within a decision
        }
        let mut best: Option<Plan> = None;
        for plan in self.walks(mp) {
            if best.is_none_or(|b| plan.value > b.value + EPS) {
                best = Some(plan);
            }
        }
        let best = best.expect("the start cell");
        self.best_plans.push((mp, best));
        best
    }

    /// `walks`: every end cell within `mp` steps (breadth-first order, the start first), with its
    /// value, the first step of its best walk and the expected captures on the way.
    pub(crate) fn walks(&mut self, mp: i32) -> Vec<Plan> {
        let start = self.me().at();
        let obstacles = self.state.obstacles;
        let fire = self.state.rules.terrain(FIRE);
        let fire_damage = f64::from(self.state.ruleset.opts.fire_damage);
        let board = self.state.board.clone();
        let n = board.n_cells();
        let mut dist = std::mem::take(&mut self.tables.dist);
        let mut expect = std::mem::take(&mut self.tables.expect);
        let mut reach = std::mem::take(&mut self.tables.reach);
        let mut first = std::mem::take(&mut self.tables.first);
        let mut frontier = std::mem::take(&mut self.tables.frontier);
        for (table, empty) in [(&mut expect, 0.0f64), (&mut reach, 0.0)] {
            table.clear();
            table.resize(n, empty);
        }
        dist.clear();
        dist.resize(n, -1);
        first.clear();
        first.resize(n, start);
        frontier.clear();
        frontier.push_back(start);
        dist[usize::from(start)] = 0;
        reach[usize::from(start)] = 1.0;
        let mut order = vec![start];
        while let Some(cell) = frontier.pop_front() {
            let c = usize::from(cell);
            if dist[c] >= mp {
                continue;
            }
            let leave = reach[c] * self.leave_chance(cell);
            for &next in board.neighbours(cell) {
                if obstacles.contains(next) {
                    continue;
                }
                let mut gain = self.glyph_gain(next);
                if fire.contains(next) {
                    gain -= self.w.damage * fire_damage;
                }
                let value = expect[c] + leave * gain;
                let x = usize::from(next);
                let via = if cell == start { next } else { first[c] };
                if dist[x] < 0 {
                    dist[x] = dist[c] + 1;
                    expect[x] = value;
                    reach[x] = leave;
                    first[x] = via;
                    order.push(next);
                    frontier.push_back(next);
                } else if dist[x] == dist[c] + 1 && value > expect[x] + EPS {
                    expect[x] = value;
                    reach[x] = leave;
                    first[x] = via;
                }
            }
        }
        let stay = self.stay_value();
        let mut plans = Vec::with_capacity(order.len());
        for cell in order {
            let c = usize::from(cell);
            let mine = self.owned(self.side, cell)
                || (expect[c] > EPS && self.state.rules.glyph_cells.contains(cell));
            let value =
                expect[c] + reach[c] * self.cell_value(cell, mine) + (1.0 - reach[c]) * stay;
            plans.push(Plan {
                value,
                first: first[c],
                end: cell,
                captures: expect[c],
            });
        }
        self.tables.dist = dist;
        self.tables.expect = expect;
        self.tables.reach = reach;
        self.tables.first = first;
        self.tables.frontier = frontier;
        plans
    }

    // ------------------------------------------------------------------ Invocations
    fn invocation_action(&mut self) -> Action {
        let legal = self.legal;
        let mut best: Option<(f64, usize, Action)> = None;
        for (i, &a) in legal.iter().enumerate() {
            if a.kind == CAST {
                let v = self.cast_value(a);
                if best.is_none_or(|b| (v, i) > (b.0, b.1)) {
                    best = Some((v, i, a));
                }
            }
        }
        if let Some(b) = best
            && b.0 > EPS
        {
            return b.2;
        }
        let goal = self.invocation_goal();
        let me = self.me();
        if let Some(goal) = goal
            && me.mp > 0
            && !me.blocked
        {
            let reach = self.reachable_cells(me.mp);
            let here = self.dist(me.at(), goal);
            let target = reach
                .iter()
                .min_by_key(|&&(c, cost)| (self.dist(c, goal), cost, c))
                .expect("the start cell")
                .0;
            if self.dist(target, goal) < here
                && let Some(step) = self.first_step(target)
            {
                let action = Action::new(MOVE, -1, i32::from(step));
                if self.is_legal(action) {
                    return action;
                }
            }
        }
        Action::END_TURN
    }

    /// view.py's `reachable_cells`: (cell, MP cost) in breadth-first order.
    fn reachable_cells(&self, budget: i32) -> Vec<(Cell, i32)> {
        let board = &self.state.board;
        let start = self.me().at();
        let mut seen = vec![false; board.n_cells()];
        seen[usize::from(start)] = true;
        let mut out = vec![(start, 0)];
        let mut k = 0;
        while k < out.len() {
            let (cell, cost) = out[k];
            k += 1;
            if cost >= budget {
                continue;
            }
            for &next in board.neighbours(cell) {
                if !seen[usize::from(next)] && !self.state.obstacles.contains(next) {
                    seen[usize::from(next)] = true;
                    out.push((next, cost + 1));
                }
            }
        }
        out
    }

    fn invocation_goal(&self) -> Option<Cell> {
        if self.w.guard >= 1.0 && !self.enemy_krosmasters.is_empty() {
            let free = self.state.rules.owned[self.side] & !self.state.obstacles;
            let nearest = |c: Cell| {
                self.enemy_krosmasters
                    .iter()
                    .map(|&e| self.dist(c, self.f(e).at()))
                    .min()
                    .expect("some")
            };
            if let Some(c) = free.iter().min_by_key(|&c| (nearest(c), c)) {
                return Some(c);
            }
        }
        let me = self.me().at();
        self.enemies
            .iter()
            .min_by_key(|&&e| (self.dist(me, self.f(e).at()), e))
            .map(|&e| self.f(e).at())
    }

    /// The first cell of a shortest walk to `goal`.
    fn first_step(&self, goal: Cell) -> Option<Cell> {
        let board = &self.state.board;
        let start = self.me().at();
        let mut parent: Vec<Option<Cell>> = vec![None; board.n_cells()];
        parent[usize::from(start)] = Some(start);
        let mut frontier = VecDeque::from([start]);
        while let Some(cell) = frontier.pop_front() {
            if cell == goal {
                let mut c = cell;
                while parent[usize::from(c)] != Some(start) {
                    c = parent[usize::from(c)].expect("a parent");
                }
                return Some(c);
            }
            for &next in board.neighbours(cell) {
                if parent[usize::from(next)].is_none() && !self.state.obstacles.contains(next) {
                    parent[usize::from(next)] = Some(cell);
                    frontier.push_back(next);
                }
            }
        }
        None
    }
}

/// Python's `max(a, b)`: `a` unless `b` is larger.
#[inline]
fn py_max(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}

/// The first of `sorted(..., reverse=True)` over `(value, index, action)` so far: the largest
/// value, of equal values the largest index.
fn keep_first(first: &mut Option<(f64, usize, Action)>, item: (f64, usize, Action)) {
    let better = match first {
        None => true,
        Some(f) => match item.0.partial_cmp(&f.0).expect("no NaN") {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => item.1 > f.1,
            std::cmp::Ordering::Less => false,
        },
    };
    if better {
        *first = Some(item);
    }
}

/// The planner's action for the active Combatant (planner.py's `decide`).
pub fn decide(state: &MatchState<Blast>, legal: &[Action], w: BlastWeights) -> Action {
    decide_with(state, legal, w, &mut PlannerTables::default())
}

/// [`decide`] with the tables a player keeps between its decisions.
pub fn decide_with(
    state: &MatchState<Blast>,
    legal: &[Action],
    w: BlastWeights,
    tables: &mut PlannerTables,
) -> Action {
    let mut planner = Planner::with_tables(state, legal, w, std::mem::take(tables));
    let action = if planner.me().kind != PieceKind::Krosmaster {
        planner.invocation_action()
    } else {
        planner.decide(true)
    };
    *tables = planner.into_tables();
    action
}

/// R-B10: the Krosmaster whose best walk is worth the most goes first; Invocations in the listed
/// order (planner.py's `next_to_act`).
pub fn next_to_act(state: &MatchState<Blast>, side: usize, candidates: &[usize]) -> usize {
    let first = &state.fighters[candidates[0]];
    if first.kind != PieceKind::Krosmaster {
        return candidates[0];
    }
    let todo = state.rules.glyph_cells & !state.rules.owned[side];
    let board = &state.board;
    *candidates
        .iter()
        .min_by_key(|&&uid| {
            let f = &state.fighters[uid];
            let nearest = todo
                .iter()
                .map(|c| i32::from(board.distance(f.at(), c)))
                .min()
                .unwrap_or(99);
            (nearest - f.base_mp, uid)
        })
        .expect("a candidate")
}
