//! `duel_brawler` (krosbalance/ai/duel/players.py and planner.py): drafts the highest level that
//! fits, reveals its best token every turn, picks up tokens when worth their AP and closes in to
//! hit, one decision at a time from what its side may see. Every float is worked out in the
//! reference's order, so ties and comparisons fall the same way.

use std::collections::VecDeque;

use crate::board::Cell;
use crate::content::{Effect, PieceKind, Power, RangeType, SpellKind, SpellSpec};
use crate::engine::combat::spell_injury_cap;
use crate::engine::legal::max_range;
use crate::engine::rules::{Action, CAST, Controller, MOVE};
use crate::engine::state::{Fighter, MatchState};
use crate::rng::Generator;
use crate::rulesets::duel::ruleset::{
    DraftChoice, Duel, DuelController, DuelToken, PICK_TOKEN, RevealChoice, adjacent_lockers,
    critical_dice, pick_cost,
};

pub(crate) const EPS: f64 = 1e-6;
/// `engine/view.py`'s expectations: Critical and Armour successes by dice, block chance.
const EXPECTED_CRITICAL: [f64; 3] = [0.0, 0.5, 1.0];
const EXPECTED_ARMOUR: [f64; 3] = [0.0, 1.0 / 3.0, 2.0 / 3.0];
const BLOCK_CHANCE: [[f64; 3]; 3] = [
    [0.0, 0.0, 0.0],
    [0.0, 1.0 / 6.0, 1.0 / 12.0],
    [0.0, 1.0 / 3.0, 7.0 / 36.0],
];

/// How a duel personality weighs what it sees (planner.py's `DuelWeights`).
#[derive(Clone, Debug)]
pub struct DuelWeights {
    pub damage: f64,
    pub ko: f64,
    pub heal: f64,
    pub self_injury: f64,
    pub marker: f64,
    pub safety: f64,
    pub approach: f64,
    pub token: f64,
}

/// `BRAWLER`.
pub const BRAWLER: DuelWeights = DuelWeights {
    damage: 1.0,
    ko: 6.0,
    heal: 0.8,
    self_injury: 0.7,
    marker: 0.6,
    safety: 0.15,
    approach: 0.3,
    token: 1.6,
};

/// The heuristic Duel Pack player (`DuelAI` with the brawler's weights). It draws nothing from
/// its stream (the reference's never does).
pub struct DuelBrawler {
    pub rng: Generator,
    pub w: DuelWeights,
    /// the planner's walk tables, kept between decisions (their room, not their contents)
    tables: WalkTables,
}

impl DuelBrawler {
    pub fn new(rng: Generator) -> Self {
        DuelBrawler {
            rng,
            w: BRAWLER,
            tables: WalkTables::default(),
        }
    }
}

/// `end_cells`'s breadth-first work space by cell, kept by the player between decisions so that
/// a decision clears it rather than allocating it afresh (a duel makes hundreds of decisions).
#[derive(Clone, Debug, Default)]
pub(crate) struct WalkTables {
    reach: Vec<f64>,
    first: Vec<Option<Cell>>,
    dist: Vec<i32>,
    order: Vec<Cell>,
    frontier: VecDeque<Cell>,
}

fn is_attack_or_heal(spell: &SpellSpec) -> bool {
    matches!(spell.kind, SpellKind::Attack | SpellKind::Heal)
}

/// `token_worth`: bonus points of a token for one Krosmaster (max range counts only for one with
/// an extendable ranged spell, R-D10).
pub(crate) fn token_worth(state: &MatchState<Duel>, token: &DuelToken, f: &Fighter) -> f64 {
    let ranged = f.spells.iter().any(|&s| {
        let s = state.content.resolve(s);
        matches!(s.range_type, RangeType::Classic | RangeType::Line) && !s.fixed_range
    });
    let range = if ranged {
        f64::from(token.range)
    } else {
        0.2 * f64::from(token.range)
    };
    f64::from(token.mp + token.ap) + f64::from(token.hp) / 2.0 + range
}

/// `DuelView.unseen`: the tokens of a level `side` has not seen, by id.
fn unseen(state: &MatchState<Duel>, side: usize, level: i32) -> Vec<usize> {
    let ds = &state.rules;
    let mut seen: Vec<usize> = Vec::new();
    for f in &state.fighters {
        if f.side == side {
            seen.extend_from_slice(ds.hidden_of(f.uid));
        }
    }
    for tokens in &ds.shown {
        seen.extend_from_slice(tokens);
    }
    seen.extend(ds.face_up.iter().flatten().copied());
    let tokens = &state.ruleset.tokens;
    let mut out: Vec<usize> = state
        .ruleset
        .of_level(level)
        .into_iter()
        .filter(|t| !seen.contains(t))
        .collect();
    out.sort_by(|&a, &b| tokens[a].id.cmp(&tokens[b].id));
    out
}

/// `expected_token_worth`: the mean worth of a face-down token of `level`.
fn expected_token_worth(state: &MatchState<Duel>, side: usize, level: i32, f: &Fighter) -> f64 {
    let unseen = unseen(state, side, level);
    if unseen.is_empty() {
        return f64::from(level);
    }
    let mut total = 0.0;
    for &t in &unseen {
        total += token_worth(state, &state.ruleset.tokens[t], f);
    }
    total / unseen.len() as f64
}

/// The duel's expected damage (checks.py's `expected_damage`, R-D29, R-D32, R-D33).
fn expected_damage(
    state: &MatchState<Duel>,
    caster: usize,
    spell: &SpellSpec,
    target: usize,
) -> f64 {
    if !is_attack_or_heal(spell) {
        return 0.0;
    }
    let (c, t) = (&state.fighters[caster], &state.fighters[target]);
    let mut bonus = 0;
    for effect in &spell.effects {
        match effect {
            Effect::BonusPerAdjacentSummon { summon, damage } => {
                let mask = state.board.neighbour_mask(t.at());
                let n = c
                    .summons
                    .iter()
                    .filter(|&&s| {
                        let s = &state.fighters[s];
                        s.alive
                            && state.content.chars[s.spec].id == *summon
                            && s.cell >= 0
                            && mask.contains(s.at())
                    })
                    .count() as i32;
                bonus += damage * n;
            }
            Effect::ElementBonus { element, amount } if *element == spell.element => {
                bonus += amount;
            }
            _ => {}
        }
    }
    let mut base = f64::from(spell.amount + bonus);
    base += EXPECTED_CRITICAL[critical_dice(&state.ruleset.opts, c, spell) as usize];
    if spell.kind == SpellKind::Heal {
        return base.min(f64::from(t.injuries));
    }
    let element = spell.element;
    let neutral = element == crate::content::Element::Neutral;
    if !neutral && t.immune & (1 << element.index()) != 0 {
        return 0.0;
    }
    let mut armour = if t.kind == PieceKind::Bomb {
        state.ruleset.opts.bomb_armour_dice
    } else if t.has(Power::Armour) {
        2
    } else {
        1
    };
    if spell.effects.contains(&Effect::PierceArmour) {
        armour -= 1;
    }
    let mut damage = base - EXPECTED_ARMOUR[armour.clamp(0, 2) as usize];
    if !neutral && t.resist & (1 << element.index()) != 0 {
        damage -= 1.0;
    }
    damage = damage.min(f64::from(spell_injury_cap(state, target, caster)));
    damage.min(f64::from(t.hp - t.injuries)).max(0.0)
}

/// arena/rolls.py's `lock_risk`: the chance that walking off the mover's cell gets it blocked.
fn lock_risk(state: &MatchState<Duel>, mover: usize) -> f64 {
    let m = &state.fighters[mover];
    if m.has(Power::Tiny) {
        return 0.0;
    }
    let dodge = if m.has(Power::Dodge) { 2 } else { 1 };
    let mut free = 1.0;
    for locker in adjacent_lockers(state, m) {
        let lock = if state.fighters[locker].has(Power::Lock) {
            2
        } else {
            1
        };
        free *= 1.0 - BLOCK_CHANCE[lock][dodge];
    }
    1.0 - free
}

fn spell_used(f: &Fighter, spell: &SpellSpec) -> bool {
    crate::ai::scoring::spell_used(f, spell)
}

/// planner.py's `Planner`: the values of the active character's actions.
pub(crate) struct Planner<'a> {
    state: &'a MatchState<Duel>,
    w: &'a DuelWeights,
    side: usize,
    me: usize,
    enemies: Vec<usize>,
    pub(crate) enemy_krosmasters: Vec<usize>,
    /// Per enemy Krosmaster with an attack: its cell, its reach (MP + range) and the injuries it
    /// could deal, times 0.6 (`threat`'s terms, in the enemies' order); made at the first ask.
    threats: Option<Vec<(Cell, i32, f64)>>,
    /// `attacks_from`'s castable spells and their hits; made at the first ask (none of it
    /// changes within a decision).
    castable: Option<Vec<Castable<'a>>>,
    tables: WalkTables,
}

/// A spell `attacks_from` may count, as it weighs it from any cell: a cast's worth reads the
/// caster and the target, not where the caster stands, so only the range test is per cell.
struct Castable<'a> {
    index: usize,
    spell: &'a SpellSpec,
    /// the top of its range
    top: i32,
    repeatable: bool,
    /// a personal spell's worth (0 but for a heal): the same from every cell
    personal: f64,
    /// the worth of each enemy it may hit and the enemy's cell, those above `EPS`, best first (a
    /// stable sort: equal worths keep the enemies' order)
    hits: Vec<(f64, Cell)>,
}

impl<'a> Planner<'a> {
    pub(crate) fn new(state: &'a MatchState<Duel>, w: &'a DuelWeights, me: usize) -> Self {
        let side = state.fighters[me].side;
        let team = state.team_of[side];
        let enemies: Vec<usize> = state
            .fighters
            .iter()
            .filter(|f| f.alive && f.cell >= 0 && f.kind != PieceKind::Trap && f.team != team)
            .map(|f| f.uid)
            .collect();
        let enemy_krosmasters = enemies
            .iter()
            .copied()
            .filter(|&e| state.fighters[e].kind == PieceKind::Krosmaster)
            .collect();
        Planner {
            state,
            w,
            side,
            me,
            enemies,
            enemy_krosmasters,
            threats: None,
            castable: None,
            tables: WalkTables::default(),
        }
    }

    /// A planner whose walks reuse `tables`'s room (their contents are cleared at each walk).
    pub(crate) fn with_tables(
        state: &'a MatchState<Duel>,
        w: &'a DuelWeights,
        me: usize,
        tables: WalkTables,
    ) -> Self {
        Planner {
            tables,
            ..Self::new(state, w, me)
        }
    }

    /// The walk tables, for the next decision's planner.
    pub(crate) fn into_tables(self) -> WalkTables {
        self.tables
    }

    fn f(&self) -> &'a Fighter {
        &self.state.fighters[self.me]
    }

    fn spell(&self, index: usize) -> &'a SpellSpec {
        self.state.content.resolve(self.f().spells[index])
    }

    fn token_level(&self, cell: Cell) -> Option<i32> {
        self.state
            .rules
            .token_on(cell)
            .map(|t| self.state.ruleset.tokens[t].level)
    }

    /// The action to take (an index into `legal`); without `may_move`, a token pick-up, a cast or
    /// the end (a search's plan has walked where it meant to: `plans.rs`).
    pub(crate) fn decide(&mut self, legal: &[Action], may_move: bool) -> usize {
        let me = self.f();
        let mut best_cast: Option<(f64, usize)> = None;
        for (i, a) in legal.iter().enumerate() {
            if a.kind == CAST {
                let v = self.cast_value(*a);
                if best_cast.is_none_or(|(b, _)| v > b) {
                    best_cast = Some((v, i));
                }
            }
        }
        let best_cast = best_cast.filter(|&(v, _)| v > EPS).map(|(_, i)| i);
        let ap = me.ap;
        if let Some(pick) = legal.iter().position(|a| a.kind == PICK_TOKEN) {
            let level = self.token_level(me.at()).expect("a token under the picker");
            let cost = pick_cost(me, level);
            let gain = self.w.token * expected_token_worth(self.state, self.side, level, me);
            if gain + self.attacks_from(me.at(), ap - cost) >= self.attacks_from(me.at(), ap) - EPS
            {
                return pick;
            }
        }
        if let Some(cast) = best_cast
            && lock_risk(self.state, self.me) > 0.0
        {
            return cast;
        }
        if may_move && me.mp > 0 && !me.blocked {
            let (end, first) = self.best_end_cell();
            if end != me.at()
                && let Some(first) = first
                && let Some(i) = legal
                    .iter()
                    .position(|a| a.kind == MOVE && a.target == i32::from(first))
            {
                return i;
            }
        }
        if let Some(cast) = best_cast {
            return cast;
        }
        legal
            .iter()
            .position(|a| *a == Action::END_TURN)
            .expect("END is always legal")
    }

    fn spell_value(&self, spell: &SpellSpec, target: usize, expected: f64) -> f64 {
        let w = self.w;
        let t = &self.state.fighters[target];
        let mut value = -w.self_injury * f64::from(spell.injury_cost);
        if spell.kind == SpellKind::Heal {
            if t.side != self.side {
                return value - w.damage * expected;
            }
            let k = if t.kind == PieceKind::Krosmaster {
                1.0
            } else {
                0.3
            };
            return value + w.heal * expected * k;
        }
        if spell.kind != SpellKind::Attack {
            return value;
        }
        let sign = if t.side != self.side { 1.0 } else { -1.0 };
        value += sign * w.damage * expected;
        if t.side != self.side && t.kind == PieceKind::Krosmaster {
            let remaining = f64::from(t.hp - t.injuries);
            if expected + 0.5 >= remaining {
                value += w.ko * 1.0f64.min(0.5 + (expected + 0.5 - remaining));
            }
            for effect in &spell.effects {
                if let Effect::MinusMp { amount }
                | Effect::MinusAp { amount }
                | Effect::StealMp { amount }
                | Effect::StealAp { amount } = effect
                {
                    value += w.marker * f64::from(*amount);
                }
            }
        }
        value
    }

    pub(crate) fn cast_value(&self, action: Action) -> f64 {
        // a target of -1 reads the board's last cell, as the reference's `by_cell[-1]` does
        let n = self.state.board.n_cells() as i32;
        let cell = if action.target < 0 {
            n + action.target
        } else {
            action.target
        };
        let Some(target) = self.state.piece_at(cell as Cell) else {
            return 0.0; // most casts listed are of an empty cell: no spell read for them
        };
        let spell = self.spell(action.spell as usize);
        if !self.state.fighters[target].alive || !is_attack_or_heal(spell) {
            return 0.0;
        }
        let expected = expected_damage(self.state, self.me, spell, target);
        self.spell_value(spell, target, expected)
    }

    /// The spells `attacks_from` may count, in spell order: no MP cost, not used up, an attack or
    /// a heal; with the top of the range, whether it repeats and its worths.
    fn castable(&self) -> Vec<Castable<'a>> {
        let state = self.state;
        let me = self.f();
        let mut out = Vec::with_capacity(me.spells.len());
        for index in 0..me.spells.len() {
            let spell = self.spell(index);
            if spell.mp_cost != 0 || spell_used(me, spell) || !is_attack_or_heal(spell) {
                continue;
            }
            let mut personal = 0.0;
            let mut hits = Vec::new();
            if spell.range_type == RangeType::Personal {
                if spell.kind == SpellKind::Heal {
                    let healed = f64::from(spell.amount).min(f64::from(me.injuries));
                    personal = 0.0f64.max(self.spell_value(spell, self.me, healed));
                }
            } else {
                for &target in &self.enemies {
                    let expected = expected_damage(state, self.me, spell, target);
                    let value = self.spell_value(spell, target, expected);
                    if value > EPS {
                        hits.push((value, state.fighters[target].at()));
                    }
                }
                hits.sort_by(|a, b| b.0.partial_cmp(&a.0).expect("no NaN"));
            }
            out.push(Castable {
                index,
                spell,
                top: max_range(state, me, spell),
                repeatable: spell.limit == crate::content::Limit::Unlimited,
                personal,
                hits,
            });
        }
        out
    }

    /// The worth of the casts `ap` buys from `cell` this turn (greedy). A spell's worth from a
    /// cell is the largest of its hits that reach from there (the reference's maximum over the
    /// enemies: the hits are read best first, and the first that reaches is it).
    fn attacks_from(&mut self, cell: Cell, ap: i32) -> f64 {
        if ap <= 0 {
            return 0.0;
        }
        let castable = match self.castable.take() {
            Some(c) => c,
            None => self.castable(),
        };
        let state = self.state;
        let me = self.f();
        let board = &state.board;
        let mut blockers = state.sight_blockers;
        blockers.remove(me.at());
        // (value, AP cost, spell index, repeatable); a fighter has a handful of spells
        let mut options: [(f64, i32, usize, bool); 16] = [(0.0, 0, 0, false); 16];
        let mut n_options = 0;
        let mut extra: Vec<(f64, i32, usize, bool)> = Vec::new();
        for c in &castable {
            let spell = c.spell;
            if spell.ap_cost > ap {
                continue;
            }
            let best = if spell.range_type == RangeType::Personal {
                c.personal
            } else {
                let reaches = |&&(_, tc): &&(f64, Cell)| {
                    let d = i32::from(board.distance(cell, tc));
                    spell.range_min <= d
                        && d <= c.top
                        && (spell.range_type != RangeType::Line || board.aligned(cell, tc))
                        // the enemy's row of the table (the path is the same both ways)
                        && !(spell.needs_los && board.los_path(tc, cell).intersects(blockers))
                };
                c.hits.iter().find(reaches).map_or(0.0, |h| h.0)
            };
            if best > EPS {
                let option = (best, spell.ap_cost, c.index, c.repeatable);
                if n_options < options.len() {
                    options[n_options] = option;
                    n_options += 1;
                } else {
                    extra.push(option);
                }
            }
        }
        self.castable = Some(castable);
        let all = || options[..n_options].iter().chain(extra.iter());
        let mut total = 0.0;
        let mut left = ap;
        // the spells used so far, by index (at most one pick per AP spent)
        let mut used: u64 = 0;
        let mut used_more: Vec<usize> = Vec::new();
        loop {
            let mut pick: Option<(f64, i32, usize, bool)> = None;
            for &o in all() {
                let was_used = if o.2 < 64 {
                    used & (1 << o.2) != 0
                } else {
                    used_more.contains(&o.2)
                };
                if o.1 > left || (was_used && !o.3) {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some(p) => {
                        let (ko, kp) = (o.0 / f64::from(o.1.max(1)), p.0 / f64::from(p.1.max(1)));
                        ko > kp || (ko == kp && (o.0 > p.0 || (o.0 == p.0 && o.2 < p.2)))
                    }
                };
                if better {
                    pick = Some(o);
                }
            }
            let Some((value, cost, index, _)) = pick else {
                return total;
            };
            total += value;
            left -= cost.max(1);
            if index < 64 {
                used |= 1 << index;
            } else {
                used_more.push(index);
            }
        }
    }

    /// Injuries the enemy Krosmasters could deal on `cell` next turn (reach = MP + range).
    fn threat(&mut self, cell: Cell) -> f64 {
        if self.threats.is_none() {
            self.threats = Some(self.threat_terms());
        }
        let board = &self.state.board;
        let mut total = 0.0;
        for &(at, reach, term) in self.threats.as_deref().unwrap_or_default() {
            if i32::from(board.distance(at, cell)) <= reach {
                total += term;
            }
        }
        total
    }

    /// `threat`'s terms: per enemy Krosmaster with an attack, its cell, reach and injuries * 0.6.
    fn threat_terms(&self) -> Vec<(Cell, i32, f64)> {
        let state = self.state;
        let mut terms = Vec::with_capacity(self.enemy_krosmasters.len());
        for &e in &self.enemy_krosmasters {
            let enemy = &state.fighters[e];
            let attacks = || {
                enemy
                    .spells
                    .iter()
                    .map(|&s| state.content.resolve(s))
                    .filter(|s| s.kind == SpellKind::Attack && s.amount > 0)
            };
            let Some(range) = attacks().map(|s| s.range_max).max() else {
                continue;
            };
            let most = attacks()
                .map(|s| s.amount * 1.max(enemy.base_ap.div_euclid(s.ap_cost.max(1))))
                .max()
                .unwrap_or(0);
            terms.push((enemy.at(), enemy.base_mp + range, f64::from(most) * 0.6));
        }
        terms
    }

    pub(crate) fn cell_value(&mut self, cell: Cell) -> f64 {
        let me = self.f();
        let ap = me.ap;
        let mut value = self.attacks_from(cell, ap);
        if let Some(level) = self.token_level(cell)
            && me.kind == PieceKind::Krosmaster
        {
            let cost = pick_cost(me, level);
            if cost <= ap {
                let with_token =
                    self.w.token * expected_token_worth(self.state, self.side, level, me);
                value = value.max(with_token + self.attacks_from(cell, ap - cost));
            }
        }
        value -= self.w.safety * self.threat(cell);
        if !self.enemy_krosmasters.is_empty() && self.w.approach != 0.0 {
            let board = &self.state.board;
            let nearest = self
                .enemy_krosmasters
                .iter()
                .map(|&e| board.distance(cell, self.state.fighters[e].at()))
                .min()
                .expect("an enemy Krosmaster");
            value -= self.w.approach * f64::from(nearest);
        }
        value
    }

    /// Rough chance of walking off `cell` (R-D24): 5/6 per adjacent enemy character; `powers`
    /// holds (5/6)^k by count, worked out as the reference's power is.
    fn leave_chance(&self, cell: Cell, powers: &[f64; 5]) -> f64 {
        let board = &self.state.board;
        let near = self
            .enemies
            .iter()
            .filter(|&&e| {
                let e = &self.state.fighters[e];
                e.is_character() && board.distance(e.at(), cell) == 1
            })
            .count();
        match powers.get(near) {
            Some(&p) => p,
            None => (5.0f64 / 6.0).powf(near as f64),
        }
    }

    /// (end cell, first step) of the best walk within the MP; (own cell, None) to stay.
    fn best_end_cell(&mut self) -> (Cell, Option<Cell>) {
        let walks = self.end_cells();
        let (mut best_cell, mut best_value, mut best_first) = walks[0];
        for &(cell, value, first) in &walks[1..] {
            if value > best_value + EPS {
                (best_cell, best_value, best_first) = (cell, value, first);
            }
        }
        (best_cell, best_first)
    }

    /// `end_cells`: (cell, value, first step) of every end cell within the MP, the own cell
    /// first, then in breadth-first order, each weighed by the chance of walking there unblocked.
    pub(crate) fn end_cells(&mut self) -> Vec<(Cell, f64, Option<Cell>)> {
        let state = self.state;
        let me = self.f();
        let start = me.at();
        let n = state.board.n_cells();
        let WalkTables {
            mut reach,
            mut first,
            mut dist,
            mut order,
            mut frontier,
        } = std::mem::take(&mut self.tables);
        reach.clear();
        reach.resize(n, 0.0);
        first.clear();
        first.resize(n, None);
        dist.clear();
        dist.resize(n, -1);
        order.clear();
        frontier.clear();
        reach[usize::from(start)] = 1.0;
        dist[usize::from(start)] = 0;
        order.push(start);
        frontier.push_back(start);
        // a cell has at most four neighbours: the powers once a walk, not once a cell
        let powers: [f64; 5] = std::array::from_fn(|k| (5.0f64 / 6.0).powf(k as f64));
        while let Some(cell) = frontier.pop_front() {
            let c = usize::from(cell);
            if dist[c] >= me.mp {
                continue;
            }
            let leave = reach[c] * self.leave_chance(cell, &powers);
            for &next in state.board.neighbours(cell) {
                let x = usize::from(next);
                if state.obstacles.contains(next) || dist[x] >= 0 {
                    continue;
                }
                dist[x] = dist[c] + 1;
                reach[x] = leave;
                first[x] = if cell == start { Some(next) } else { first[c] };
                order.push(next);
                frontier.push_back(next);
            }
        }
        let stay = self.cell_value(start);
        let mut walks = vec![(start, stay, None)];
        for &cell in &order[1..] {
            let r = reach[usize::from(cell)];
            let value = r * self.cell_value(cell) + (1.0 - r) * (stay - self.w.damage);
            walks.push((cell, value, first[usize::from(cell)]));
        }
        self.tables = WalkTables {
            reach,
            first,
            dist,
            order,
            frontier,
        };
        walks
    }
}

impl Controller<Duel> for DuelBrawler {
    fn choose_action(&mut self, state: &MatchState<Duel>, legal: &[Action]) -> usize {
        let me = state.active.expect("an active character");
        let tables = std::mem::take(&mut self.tables);
        let mut planner = Planner::with_tables(state, &self.w, me, tables);
        let choice = planner.decide(legal, true);
        self.tables = planner.into_tables();
        choice
    }

    /// The base class's: triggers in the order listed.
    fn order_triggers(&mut self, _state: &MatchState<Duel>, n: usize) -> Vec<usize> {
        (0..n).collect()
    }
}

impl DuelController for DuelBrawler {
    /// The starting cells nearest the board's centre, melee Krosmasters first.
    fn choose_deployment(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell> {
        let board = &state.board;
        let centre = board.cell(board.width() as i32 / 2, board.height() as i32 / 2);
        let mut ranked = cells.to_vec();
        ranked.sort_by_key(|&c| (board.distance(c, centre), c));
        let fighters = &state.timeline[side];
        let reach = |i: usize| -> i32 {
            state.fighters[fighters[i]]
                .spells
                .iter()
                .map(|&s| state.content.resolve(s))
                .filter(|s| s.kind == SpellKind::Attack)
                .map(|s| s.range_max)
                .max()
                .unwrap_or(0)
        };
        let mut melee_first: Vec<usize> = (0..n).collect();
        melee_first.sort_by_key(|&i| (reach(i), i));
        let mut chosen = vec![0 as Cell; n];
        for (rank, i) in melee_first.into_iter().enumerate() {
            chosen[i] = ranked[rank];
        }
        chosen
    }

    /// The base class's: creatures act in the order they were summoned.
    fn order_creatures(
        &mut self,
        _state: &MatchState<Duel>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        creatures.to_vec()
    }

    /// The highest level that fits the budget; among those, the token worth most.
    fn choose_duel_draft(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        choices: &[DraftChoice],
        budget: i32,
    ) -> usize {
        let team: Vec<&Fighter> = state.timeline[side]
            .iter()
            .map(|&f| &state.fighters[f])
            .filter(|f| f.alive)
            .collect();
        let worth = |c: &DraftChoice| -> f64 {
            team.iter()
                .map(|k| match c.token {
                    Some(t) => token_worth(state, &state.ruleset.tokens[t], k),
                    None => expected_token_worth(state, side, c.level, k),
                })
                .fold(f64::NEG_INFINITY, |a, b| if b > a { b } else { a })
        };
        let mut fitting: Vec<usize> = (0..choices.len())
            .filter(|&i| choices[i].level <= budget)
            .collect();
        if fitting.is_empty() {
            fitting = (0..choices.len()).collect();
        }
        let top = fitting
            .iter()
            .map(|&i| choices[i].level)
            .max()
            .expect("a choice");
        let mut best: Option<(f64, usize)> = None;
        for &i in fitting.iter().filter(|&&i| choices[i].level == top) {
            let v = worth(&choices[i]);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
        }
        best.expect("a choice").1
    }

    /// The Krosmaster the token is worth most to (the first on a tie).
    fn choose_token_holder(
        &mut self,
        state: &MatchState<Duel>,
        _side: usize,
        token: usize,
        candidates: &[usize],
    ) -> usize {
        let t = &state.ruleset.tokens[token];
        let mut best: Option<(f64, usize)> = None;
        for &c in candidates {
            let v = token_worth(state, t, &state.fighters[c]);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c));
            }
        }
        best.expect("a candidate").1
    }

    /// The free duel cell nearest its own Krosmasters relative to the enemy's.
    fn choose_duel_cell(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        _level: i32,
        cells: &[Cell],
    ) -> Cell {
        let board = &state.board;
        let team = state.team_of[side];
        let on_board = |own: bool| -> Vec<Cell> {
            state
                .fighters
                .iter()
                .filter(|f| {
                    f.alive
                        && f.cell >= 0
                        && f.kind == PieceKind::Krosmaster
                        && (f.team == team) == own
                })
                .map(|f| f.at())
                .collect()
        };
        let (own, theirs) = (on_board(true), on_board(false));
        let nearest = |cell: Cell, of: &[Cell]| -> i32 {
            of.iter()
                .map(|&c| i32::from(board.distance(cell, c)))
                .min()
                .unwrap_or(0)
        };
        *cells
            .iter()
            .min_by_key(|&&c| (nearest(c, &own) - nearest(c, &theirs), c))
            .expect("a duel cell")
    }

    /// Always its best face-down token.
    fn choose_reveal(
        &mut self,
        state: &MatchState<Duel>,
        _side: usize,
        choices: &[RevealChoice],
    ) -> i64 {
        let mut best: Option<(f64, usize)> = None;
        for (i, c) in choices.iter().enumerate() {
            let v = token_worth(
                state,
                &state.ruleset.tokens[c.token],
                &state.fighters[c.uid],
            );
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
        }
        best.expect("a choice").1 as i64
    }
}
