//! Reusable evaluation pieces of the heuristic AIs (krosbalance/ai/scoring.py), read from the match
//! as one seat sees it: hit odds, what GG are worth at the current score, threat maps, block chance.
//!
//! Floats are added in the reference's order (Python floats are IEEE f64): a threat is the sum of
//! each enemy's share in the view's order, a hit's odds the sum over Critical then Armour faces.
//! The reference's caches (threat layers by [`EnemyKey`], whole lookups by the keys of every enemy)
//! are kept too, with their sizes and clearing: a cached layer outlives a change its key does not see
//! (a spell an enemy gains), so the cache is part of the behaviour.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher (FxHash's) for the AIs' lookup tables: they are only looked up,
/// never iterated, so the hasher cannot change a decision; SipHash was a tenth of a match.
#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A lookup table with [`FxHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

use crate::board::{Board, Cell, CellSet};
use crate::content::{Effect, Element, Limit, PieceKind, Power, RangeType, SpellKind, SpellSpec};
use crate::engine::state::{Fighter, MatchState};
use crate::rulesets::arena::Arena;

/// Injuries' worth of one GG of swing.
pub const GG_UNIT: f64 = 2.0;
/// What winning the match on the spot is worth.
pub const WIN_VALUE: f64 = 1000.0;
/// Extra worth of a side's i-th GG, `GG_PREMIUM / i`.
pub const GG_PREMIUM: f64 = 1.0;

/// engine/view.py's `BLOCK_CHANCE[lock][dodge]` (R-A16, R-A45).
pub const BLOCK_CHANCE: [[f64; 3]; 3] = [
    [0.0, 0.0, 0.0],
    [0.0, 1.0 / 6.0, 1.0 / 12.0],
    [0.0, 1.0 / 3.0, 7.0 / 36.0],
];

const CRIT: [&[f64]; 3] = [&[1.0], &[0.5, 0.5], &[0.25, 0.5, 0.25]];
const ARMOUR: [&[f64]; 3] = [
    &[1.0],
    &[2.0 / 3.0, 1.0 / 3.0],
    &[4.0 / 9.0, 4.0 / 9.0, 1.0 / 9.0],
];

// ------------------------------------------------------------------------------ the view's reads
/// Fighters on the board (traps excluded), in uid order (`MatchView.fighters()`).
pub fn on_board(state: &MatchState<Arena>) -> impl Iterator<Item = &Fighter> {
    state
        .fighters
        .iter()
        .filter(|f| f.alive && f.cell >= 0 && f.kind != PieceKind::Trap)
}

/// `FighterView.remaining_hp`.
#[inline]
pub fn remaining_hp(f: &Fighter) -> i32 {
    f.hp - f.injuries
}

/// `FighterView.spell_used`: a blue or red spell's limit used up for now (R-A66).
pub fn spell_used(f: &Fighter, spell: &SpellSpec) -> bool {
    match spell.limit {
        Limit::Turn => f.turn_uses.contains(&spell.key),
        Limit::Game => f.game_uses.contains(&spell.key),
        Limit::Unlimited => false,
    }
}

/// `FighterView.resists` / `immune_to`.
#[inline]
pub fn resists(f: &Fighter, element: Element) -> bool {
    f.resist & (1 << element.index()) != 0
}

#[inline]
pub fn immune_to(f: &Fighter, element: Element) -> bool {
    f.immune & (1 << element.index()) != 0
}

/// The character id of a piece (`FighterView.character`).
#[inline]
pub fn character<'a>(state: &'a MatchState<Arena>, f: &Fighter) -> &'a str {
    &state.content.chars[f.spec].id
}

// ------------------------------------------------------------------------------ geometry
/// Range masks of one board (scoring.py's `Geometry`), built eagerly where the reference builds
/// lazily: the masks are the same sets.
#[derive(Clone, Debug)]
pub struct Geometry {
    width: usize,
    n: usize,
    pub full: CellSet,
    not_left: CellSet,
    not_right: CellSet,
    lines: Vec<CellSet>,
    visible: Vec<CellSet>,
    neighbours: Vec<CellSet>,
    distance: Vec<u8>,
    /// Per cell, the cells within distance d, for d = 0..=max distance (`within[cell * rings + d]`).
    within: Vec<CellSet>,
    rings: usize,
}

impl Geometry {
    pub fn new(board: &Board) -> Self {
        let (width, height, n) = (board.width(), board.height(), board.n_cells());
        let full = CellSet::below(n);
        let mut left = CellSet::EMPTY;
        let mut right = CellSet::EMPTY;
        for y in 0..height {
            left.insert((y * width) as Cell);
            right.insert((y * width + width - 1) as Cell);
        }
        let mut lines = Vec::with_capacity(n);
        for cell in 0..n {
            let (x, y) = (cell % width, cell / width);
            let mut mask = CellSet::EMPTY;
            for xx in 0..width {
                mask.insert((y * width + xx) as Cell);
            }
            for yy in 0..height {
                mask.insert((yy * width + x) as Cell);
            }
            lines.push(mask);
        }
        let trees = board.trees();
        let visible = (0..n)
            .map(|origin| {
                let mut mask = CellSet::EMPTY;
                for target in 0..n {
                    if !board
                        .los_path(origin as Cell, target as Cell)
                        .intersects(trees)
                    {
                        mask.insert(target as Cell);
                    }
                }
                mask
            })
            .collect();
        let mut distance = vec![0u8; n * n];
        for a in 0..n {
            for b in 0..n {
                distance[a * n + b] = board.distance(a as Cell, b as Cell);
            }
        }
        let rings = width + height + 1;
        let mut within = vec![CellSet::EMPTY; n * rings];
        for a in 0..n {
            let row = &mut within[a * rings..(a + 1) * rings];
            for b in 0..n {
                row[usize::from(distance[a * n + b])].insert(b as Cell);
            }
            for d in 1..rings {
                let below = row[d - 1];
                row[d] |= below;
            }
        }
        Geometry {
            within,
            rings,
            width,
            n,
            full,
            not_left: full & !left,
            not_right: full & !right,
            lines,
            visible,
            neighbours: (0..n).map(|c| board.neighbour_mask(c as Cell)).collect(),
            distance,
        }
    }

    #[inline]
    pub fn dist(&self, a: Cell, b: Cell) -> i32 {
        i32::from(self.distance[usize::from(a) * self.n + usize::from(b)])
    }

    /// Cells at distance lo..hi from `cell` (R-A6).
    pub fn ring_mask(&self, cell: Cell, lo: i32, hi: i32) -> CellSet {
        let lo = lo.max(0);
        if hi < lo {
            return CellSet::EMPTY;
        }
        let base = usize::from(cell) * self.rings;
        let top = (hi as usize).min(self.rings - 1);
        let outer = self.within[base + top];
        if lo == 0 {
            outer
        } else {
            outer & !self.within[base + (lo as usize - 1).min(self.rings - 1)]
        }
    }

    /// Cells in the same row or column (R-A74).
    #[inline]
    pub fn line_mask(&self, cell: Cell) -> CellSet {
        self.lines[usize::from(cell)]
    }

    /// Cells seen from `cell` past the board's trees.
    #[inline]
    pub fn visible(&self, cell: Cell) -> CellSet {
        self.visible[usize::from(cell)]
    }

    fn shifted(&self, mask: CellSet) -> CellSet {
        shl(mask & self.not_right, 1)
            | shr(mask & self.not_left, 1)
            | shl(mask, self.width)
            | shr(mask, self.width)
    }

    /// Cells a fighter on `start` can walk to with `mp` MP around `obstacles`.
    pub fn walk_mask(&self, start: Cell, mp: i32, obstacles: CellSet) -> CellSet {
        let mut reached = CellSet::single(start);
        let mut frontier = reached;
        let free = self.full & !obstacles;
        for _ in 0..mp.max(0) {
            frontier = self.shifted(frontier) & free & !reached;
            if frontier.is_empty() {
                break;
            }
            reached |= frontier;
        }
        reached
    }

    /// The cells a fighter on `start` reaches in exactly 0, 1, 2... steps around `obstacles`
    /// (`reachable_cells`' BFS costs, as masks), into `layers`, up to `mp` steps or to the layer
    /// that holds `stop`; whether `stop` was reached.
    pub fn walk_layers(
        &self,
        start: Cell,
        mp: i32,
        obstacles: CellSet,
        stop: Cell,
        layers: &mut Vec<CellSet>,
    ) -> bool {
        let mut reached = CellSet::single(start);
        let mut frontier = reached;
        let free = self.full & !obstacles;
        layers.clear();
        layers.push(frontier);
        for _ in 0..mp.max(0) {
            frontier = self.shifted(frontier) & free & !reached;
            if frontier.is_empty() {
                return false;
            }
            layers.push(frontier);
            if frontier.contains(stop) {
                return true;
            }
            reached |= frontier;
        }
        false
    }

    /// Cells within `steps` of some cell of `mask`.
    pub fn dilate(&self, mut mask: CellSet, steps: i32) -> CellSet {
        for _ in 0..steps.max(0) {
            mask |= self.shifted(mask) & self.full;
        }
        mask
    }

    /// Per origin, the cells `spell` reaches by range and line alone (`spell_mask`).
    pub fn spell_mask(&self, cell: Cell, spell: &SpellSpec, bonus: i32) -> CellSet {
        match spell.range_type {
            RangeType::Personal => CellSet::single(cell),
            RangeType::Melee => self.neighbours[usize::from(cell)],
            kind => {
                let extendable = !spell.fixed_range && spell.needs_los;
                let hi = spell.range_max + if extendable { bonus } else { 0 };
                let ring = self.ring_mask(cell, spell.range_min, hi);
                if kind == RangeType::Line {
                    ring & self.lines[usize::from(cell)]
                } else {
                    ring
                }
            }
        }
    }

    /// `sight_table(spell, bonus)[cell]`: the spell mask restricted to what the cell sees past the
    /// trees, for spells that need line of sight.
    pub fn sight_mask(&self, cell: Cell, spell: &SpellSpec, bonus: i32) -> CellSet {
        let base = self.spell_mask(cell, spell, bonus);
        if spell.needs_los {
            base & self.visible[usize::from(cell)]
        } else {
            base
        }
    }

    /// Cells `spell` reaches from some cell of `cells` (a connected set) by range and line alone.
    pub fn reach_union(&self, cells: CellSet, spell: &SpellSpec) -> CellSet {
        let (lo, hi) = match spell.range_type {
            RangeType::Line => {
                let mut mask = CellSet::EMPTY;
                for c in cells.iter() {
                    mask |= self.spell_mask(c, spell, 0);
                }
                return mask;
            }
            RangeType::Personal => (0, 0),
            RangeType::Melee => (1, 1),
            RangeType::Classic => (spell.range_min, spell.range_max),
        };
        let mut mask = self.dilate(cells, hi);
        if lo > 0 {
            let mut inner = self.full;
            for c in cells.iter() {
                if inner.is_empty() {
                    break;
                }
                inner &= self.ring_mask(c, 0, lo - 1);
            }
            mask &= !inner;
        }
        mask
    }

    /// Per cell, the distance to the nearest cell of the non-empty `cells`.
    pub fn nearest(&self, cells: CellSet) -> Vec<i32> {
        if cells.is_empty() {
            return vec![i32::MAX; self.n];
        }
        // the minimum of the cells' distance rows, kept as bytes (the rows' own type) so the
        // loop runs on whole vectors, widened once at the end
        let mut table = vec![u8::MAX; self.n];
        for c in cells.iter() {
            let row = &self.distance[usize::from(c) * self.n..(usize::from(c) + 1) * self.n];
            for (t, &d) in table.iter_mut().zip(row) {
                *t = (*t).min(d);
            }
        }
        table.into_iter().map(i32::from).collect()
    }
}

fn shl(mask: CellSet, k: usize) -> CellSet {
    let w = mask.words();
    let mut out = [0u64; 3];
    let (q, r) = (k / 64, k % 64);
    for i in (0..3).rev() {
        if i < q {
            continue;
        }
        let mut v = w[i - q] << r;
        if r > 0 && i > q {
            v |= w[i - q - 1] >> (64 - r);
        }
        out[i] = v;
    }
    CellSet::from_words(out)
}

fn shr(mask: CellSet, k: usize) -> CellSet {
    let w = mask.words();
    let mut out = [0u64; 3];
    let (q, r) = (k / 64, k % 64);
    for (i, slot) in out.iter_mut().enumerate() {
        if i + q >= 3 {
            continue;
        }
        let mut v = w[i + q] >> r;
        if r > 0 && i + q + 1 < 3 {
            v |= w[i + q + 1] << (64 - r);
        }
        *slot = v;
    }
    CellSet::from_words(out)
}

// ------------------------------------------------------------------------------ dice
/// Expected injuries (capped at `remaining`) and the chance they reach `remaining` for one hit of
/// `base` damage (R-A60-R-A62, R-A102).
pub fn hit_odds(
    base: i32,
    crit_dice: i32,
    armour_dice: i32,
    resist: i32,
    remaining: i32,
) -> (f64, f64) {
    let mut expected = 0.0f64;
    let mut kill = 0.0f64;
    let crits = CRIT[crit_dice.clamp(0, 2) as usize];
    let armours: &[f64] = if base > 0 || crit_dice > 0 {
        ARMOUR[armour_dice.clamp(0, 2) as usize]
    } else {
        &[1.0]
    };
    for (c, &pc) in crits.iter().enumerate() {
        let raw = base + c as i32;
        let faces: &[f64] = if raw > 0 { armours } else { &[1.0] };
        for (a, &pa) in faces.iter().enumerate() {
            let damage = (raw - a as i32 - resist).max(0).min(remaining);
            let p = pc * pa;
            expected += p * f64::from(damage);
            if damage >= remaining && remaining > 0 {
                kill += p;
            }
        }
    }
    (expected, kill)
}

/// Damage the caster's summons next to the target and elemental bonuses add (R-A80, R-A96);
/// `extra` counts summons the caller plans to place next to the target.
pub fn spell_bonus(
    state: &MatchState<Arena>,
    caster: &Fighter,
    spell: &SpellSpec,
    target_cell: Cell,
    extra: i32,
) -> i32 {
    let mut bonus = 0;
    for effect in &spell.effects {
        if let Effect::BonusPerAdjacentSummon { summon, damage } = effect {
            let near = state.board.neighbour_mask(target_cell);
            let mut count = extra;
            for &t in &caster.summons {
                let token = &state.fighters[t];
                if token.alive
                    && token.kind != PieceKind::Trap
                    && character(state, token) == summon
                    && token.cell >= 0
                    && near.contains(token.at())
                {
                    count += 1;
                }
            }
            bonus += damage * count;
        }
    }
    bonus + spell.element_bonus() // R-A80
}

/// Whether a spell pierces Armour.
#[inline]
pub fn pierces(spell: &SpellSpec) -> bool {
    spell
        .effects
        .iter()
        .any(|e| matches!(e, Effect::PierceArmour))
}

/// Expected injuries and KO chance of `spell` on `target` (a heal: the expected heal and 0);
/// `remaining` overrides the target's HP left.
pub fn attack_odds(
    state: &MatchState<Arena>,
    caster: &Fighter,
    spell: &SpellSpec,
    target: &Fighter,
    remaining: Option<i32>,
    extra_summons: i32,
) -> (f64, f64) {
    let left = remaining.unwrap_or_else(|| remaining_hp(target));
    if left <= 0 {
        return (0.0, 0.0);
    }
    let neutral = spell.element == Element::Neutral;
    let crit = if neutral {
        1
    } else if caster.has(Power::Critical) {
        2
    } else {
        1
    };
    let base = spell.amount + spell_bonus(state, caster, spell, target.at(), extra_summons);
    if spell.kind == SpellKind::Heal {
        return (hit_odds(base, crit, 0, 0, target.injuries).0, 0.0);
    }
    if !neutral && immune_to(target, spell.element) {
        return (0.0, 0.0);
    }
    let mut armour = if target.has(Power::Armour) { 2 } else { 1 };
    if target.kind == PieceKind::Bomb {
        armour = 1;
    }
    if pierces(spell) {
        armour -= 1;
    }
    let resist = i32::from(!neutral && resists(target, spell.element));
    hit_odds(base, crit, armour.max(0), resist, left)
}

// ------------------------------------------------------------------------------ value
/// `HARMONIC[g]`: 1/1 + 1/2 + ... + 1/g added in that order (the same floats as the loop in
/// [`gg_worth`], made once at compile time).
const HARMONIC: [f64; 64] = {
    let mut table = [0.0f64; 64];
    let mut i = 1;
    while i < 64 {
        table[i] = table[i - 1] + 1.0 / (i as f64);
        i += 1;
    }
    table
};

/// What holding `gg` GG is worth, in GG.
pub fn gg_worth(gg: i32) -> f64 {
    let s = match usize::try_from(gg) {
        Ok(g) if g < HARMONIC.len() => HARMONIC[g],
        _ => harmonic(gg),
    };
    f64::from(gg) + GG_PREMIUM * s
}

/// 1/1 + 1/2 + ... + 1/gg, added in that order (0 for gg <= 0).
fn harmonic(gg: i32) -> f64 {
    let mut s = 0.0f64;
    for i in 1..=gg {
        s += 1.0 / f64::from(i);
    }
    s
}

/// The opposing seat `side` fears most (the most GG, ties to the lower seat).
pub fn rival(gg: &[i32], team_of: &[usize], side: usize) -> usize {
    if gg.len() == 2 {
        return 1 - side;
    }
    let team = team_of[side];
    let mut best: Option<usize> = None;
    for s in 0..gg.len() {
        if team_of[s] == team {
            continue;
        }
        // max keeps the first of equal keys; key (gg, -s) never ties
        match best {
            None => best = Some(s),
            Some(b) if (gg[s], -(s as i64)) > (gg[b], -(b as i64)) => best = Some(s),
            _ => {}
        }
    }
    best.expect("an opponent")
}

/// The score after `gainer` gains `amount` GG (the wild GG first, then from `source`).
pub fn score_after(
    gg: &[i32],
    wild: i32,
    gainer: usize,
    amount: i32,
    source: Option<usize>,
    team_of: &[usize],
) -> (Vec<i32>, i32) {
    if amount <= 0 {
        return (gg.to_vec(), wild);
    }
    let from_wild = i32::from(wild > 0).min(amount);
    let loser = source.unwrap_or_else(|| {
        if gg.len() == 2 {
            1 - gainer
        } else {
            rival(gg, team_of, gainer)
        }
    });
    let taken = (amount - from_wild).min(gg[loser]);
    let mut new = gg.to_vec();
    new[gainer] += from_wild + taken;
    new[loser] -= taken;
    (new, wild - from_wild)
}

/// The score seen by `side`, in GG.
pub fn score_value(gg: &[i32], wild: i32, side: usize, team_of: &[usize]) -> f64 {
    let (mine, theirs) = if gg.len() == 2 {
        (gg[side], gg[1 - side])
    } else {
        // dict of partnership totals in first-seen order, the side's own popped, max of the rest
        let mut totals: Vec<(usize, i32)> = Vec::new();
        for (seat, &held) in gg.iter().enumerate() {
            let t = team_of[seat];
            match totals.iter_mut().find(|(k, _)| *k == t) {
                Some(e) => e.1 += held,
                None => totals.push((t, held)),
            }
        }
        let own = team_of[side];
        let mine = totals.iter().find(|(k, _)| *k == own).map_or(0, |e| e.1);
        let theirs = totals
            .iter()
            .filter(|(k, _)| *k != own)
            .map(|e| e.1)
            .max()
            .expect("another partnership");
        (mine, theirs)
    };
    if wild == 0 {
        if theirs <= 0 && 0 < mine {
            return WIN_VALUE;
        }
        if mine <= 0 && 0 < theirs {
            return -WIN_VALUE;
        }
    }
    gg_worth(mine) - gg_worth(theirs)
}

/// What `gainer` gaining `amount` GG is worth to it at this score.
pub fn score_swing(
    gg: &[i32],
    wild: i32,
    gainer: usize,
    amount: i32,
    source: Option<usize>,
    team_of: &[usize],
) -> f64 {
    if amount <= 0 {
        return 0.0;
    }
    let (after, wild_after) = score_after(gg, wild, gainer, amount, source, team_of);
    let value = score_value(&after, wild_after, gainer, team_of);
    if value >= WIN_VALUE {
        return WIN_VALUE;
    }
    value - score_value(gg, wild, gainer, team_of)
}

/// `gg_swing(view, gainer, amount)`: the swing at the match's score.
pub fn gg_swing(state: &MatchState<Arena>, gainer: usize, amount: i32) -> f64 {
    let a = &state.rules;
    score_swing(&a.gg, a.wild_gg, gainer, amount, None, &state.team_of)
}

/// Who gains the GG of `target`'s KO, as `side` sees it.
pub fn ko_gainer(state: &MatchState<Arena>, side: usize, target: &Fighter, gg: &[i32]) -> usize {
    if gg.len() == 2 {
        return 1 - target.side;
    }
    if target.team != state.team_of[side] {
        return side;
    }
    rival(gg, &state.team_of, target.side)
}

/// Worth of KO-ing `target` for its opponent, in injury units (at the match's score or `gg`).
pub fn kill_value(
    state: &MatchState<Arena>,
    side: usize,
    target: &Fighter,
    gg: Option<&[i32]>,
) -> f64 {
    if target.kind == PieceKind::Krosmaster {
        let a = &state.rules;
        let score: &[i32] = gg.unwrap_or(&a.gg);
        if score.len() == 2 {
            return GG_UNIT
                * score_swing(
                    score,
                    a.wild_gg,
                    1 - target.side,
                    target.level,
                    None,
                    &[0, 1],
                );
        }
        let gainer = ko_gainer(state, side, target, score);
        return GG_UNIT
            * score_swing(
                score,
                a.wild_gg,
                gainer,
                target.level,
                Some(target.side),
                &state.team_of,
            );
    }
    summon_worth(character(state, target))
}

/// `SUMMON_WORTH.get(character, 0.5)`.
pub fn summon_worth(character: &str) -> f64 {
    match character {
        "tofu" => 0.8,
        "gobball" => 2.0,
        "water_bomb" => 0.0,
        _ => 0.5,
    }
}

/// What a Water Bomb going off on `cell` is worth to `side` (R-A114); `minus` a cell left out.
pub fn explosion_value(
    state: &MatchState<Arena>,
    view_side: usize,
    cell: Cell,
    side: usize,
    minus: i32,
) -> f64 {
    let mut value = 0.0f64;
    for c in state.board.square_mask(cell).iter() {
        if i32::from(c) == minus {
            continue;
        }
        let Some(uid) = state.piece_at(c) else {
            continue;
        };
        let piece = &state.fighters[uid];
        if !piece.alive || !piece.is_character() {
            continue;
        }
        let armour = if piece.has(Power::Armour) { 2 } else { 1 };
        let (hurt, ko) = hit_odds(1, 1, armour, 0, remaining_hp(piece));
        let worth = hurt + 0.3 + ko * kill_value(state, view_side, piece, None);
        if piece.team != state.team_of[side] {
            value += worth;
        } else {
            value += -worth;
        }
    }
    value
}

// ------------------------------------------------------------------------------ threat
/// Expected injuries of one hit on a plain 1-Armour-die target.
pub fn average_hit(spell: &SpellSpec, critical: bool) -> f64 {
    let crit = if spell.element == Element::Neutral {
        1
    } else if critical {
        2
    } else {
        1
    };
    hit_odds(
        spell.amount,
        crit,
        if pierces(spell) { 0 } else { 1 },
        0,
        99,
    )
    .0
}

/// The characters on the board of every partnership but `side`'s, in uid order.
pub fn enemies_of(state: &MatchState<Arena>, side: usize) -> Vec<usize> {
    let team = state.team_of[side];
    on_board(state)
        .filter(|f| {
            f.is_character()
                && if state.n_seats == 2 {
                    f.side == 1 - side
                } else {
                    f.team != team
                }
        })
        .map(|f| f.uid)
        .collect()
}

/// One enemy's threat option: (injuries per turn, spell index in its list, range bonus).
type AttackOption = (f64, usize, i32);

fn spells_of<'a>(state: &'a MatchState<Arena>, f: &Fighter) -> Vec<&'a SpellSpec> {
    f.spells.iter().map(|&s| state.content.resolve(s)).collect()
}

/// `_attack_options`: the attacks an enemy may make next turn, best first.
pub(crate) fn attack_options(
    spells: &[&SpellSpec],
    base_ap: i32,
    critical: bool,
) -> Vec<AttackOption> {
    let mut bonuses: Vec<(i32, i32)> = vec![(0, 0)];
    for spell in spells {
        for effect in &spell.effects {
            if let Effect::RangeBonusThisTurn { amount } = effect {
                if spell.ap_cost < base_ap {
                    bonuses.push((*amount, spell.ap_cost));
                }
            }
        }
    }
    let mut options = Vec::new();
    for (i, spell) in spells.iter().enumerate() {
        if spell.kind != SpellKind::Attack || spell.ap_cost > base_ap || spell.limit == Limit::Game
        {
            continue;
        }
        if spell.ap_cost == 0 {
            continue;
        }
        let hit = average_hit(spell, critical);
        for &(bonus, cost) in &bonuses {
            if bonus != 0
                && (spell.fixed_range
                    || !spell.needs_los
                    || matches!(spell.range_type, RangeType::Melee | RangeType::Personal))
            {
                continue;
            }
            let mut casts = (base_ap - cost).div_euclid(spell.ap_cost);
            if spell.limit == Limit::Turn {
                casts = casts.min(1);
            }
            let worth = hit * f64::from(casts);
            if worth > 0.05 {
                options.push((worth, i, bonus));
            }
        }
    }
    stable_sort_desc(&mut options);
    options
}

fn stable_sort_desc(options: &mut [AttackOption]) {
    // sorted(key=-worth) is stable; the keys are never NaN
    options.sort_by(|a, b| b.0.partial_cmp(&a.0).expect("no NaN"));
}

/// `per_turn_damage`: the worth of a fighter's best threat option (0 with none).
pub fn best_attack_worth(state: &MatchState<Arena>, f: &Fighter) -> f64 {
    // the first of `attack_options` (sorted by worth, best first) is its largest worth: found
    // in one pass over the same options, without building and sorting them
    let spells = || f.spells.iter().map(|&s| state.content.resolve(s));
    let (base_ap, critical) = (f.base_ap, f.has(Power::Critical));
    // `attack_options`' bonuses after (0, 0): each range bonus cheaper than the AP, in spell
    // order, gathered once (most fighters have none: nothing is allocated)
    let mut extra: Vec<(i32, i32)> = Vec::new();
    for b in spells() {
        for e in &b.effects {
            if let Effect::RangeBonusThisTurn { amount } = e {
                if b.ap_cost < base_ap {
                    extra.push((*amount, b.ap_cost));
                }
            }
        }
    }
    let mut best: Option<f64> = None;
    for spell in spells() {
        if spell.kind != SpellKind::Attack
            || spell.ap_cost > base_ap
            || spell.limit == Limit::Game
            || spell.ap_cost == 0
        {
            continue;
        }
        let hit = average_hit(spell, critical);
        let extendable = !(spell.fixed_range
            || !spell.needs_los
            || matches!(spell.range_type, RangeType::Melee | RangeType::Personal));
        for (bonus, cost) in std::iter::once((0, 0)).chain(extra.iter().copied()) {
            if bonus != 0 && !extendable {
                continue;
            }
            let mut casts = (base_ap - cost).div_euclid(spell.ap_cost);
            if spell.limit == Limit::Turn {
                casts = casts.min(1);
            }
            let worth = hit * f64::from(casts);
            if worth > 0.05 && best.is_none_or(|b| worth > b) {
                best = Some(worth);
            }
        }
    }
    best.unwrap_or(0.0)
}

/// The once-per-game attacks an enemy has not used yet, by spell index.
fn once_ready(spells: &[&SpellSpec], f: &Fighter) -> Vec<u32> {
    spells
        .iter()
        .filter(|s| {
            s.kind == SpellKind::Attack
                && s.limit == Limit::Game
                && s.ap_cost != 0
                && !spell_used(f, s)
        })
        .map(|s| s.key)
        .collect()
}

/// `_once_options`.
fn once_options(spells: &[&SpellSpec], f: &Fighter, ready: &[u32]) -> Vec<AttackOption> {
    let critical = f.has(Power::Critical);
    let plain = attack_options(spells, f.base_ap, critical);
    let mut out = Vec::new();
    for (i, spell) in spells.iter().enumerate() {
        if !ready.contains(&spell.key) || spell.ap_cost > f.base_ap {
            continue;
        }
        let mut worth = average_hit(spell, critical);
        let rest = f.base_ap - spell.ap_cost;
        if let Some(&(_, bi, _)) = plain.iter().find(|o| o.2 == 0) {
            let best = spells[bi];
            let n = rest.div_euclid(best.ap_cost);
            let times = if best.limit == Limit::Turn {
                n.min(1)
            } else {
                n
            };
            worth += average_hit(best, critical) * f64::from(times);
        }
        out.push((worth, i, 0));
    }
    out
}

/// What one enemy's share of a threat map depends on (scoring.py's `EnemyKey`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnemyKey {
    uid: usize,
    cell: i32,
    base_mp: i32,
    base_ap: i32,
    critical: bool,
    obstacles: CellSet,
    ready: Vec<u32>,
    crates: CellSet,
}

/// One enemy's share: disjoint (cells, injuries) layers, best first.
pub type Layers = Vec<(CellSet, f64)>;

/// What `Geometry::sight_mask` reads of a spell and its bonus: (range type, range min, range max,
/// fixed range, needs line of sight, bonus).
type SightShape = (u8, i32, i32, bool, bool, i32);

/// Per spell shape, `sight_mask` of the board's cells, each made on its first use: an enemy's
/// share ORs the masks of every cell it may walk to, and a match asks a few shapes over and over
/// (each enemy's spells, after each of its moves) from cells it asked before. A pure cache (a
/// row is the mask `sight_mask` makes), so it changes no value; it serves one board, the one it
/// was made on (a threat cache serves one match). Made whole on a shape's first use instead, a
/// table cost more than it saved (a shape is asked about fifteen times a match).
#[derive(Clone, Debug, Default)]
struct SightTables {
    /// The address of the board's tables the rows were made on (checked, never read through).
    board: usize,
    /// Per shape, the cells whose masks are made, and the masks by cell.
    rows: FastMap<SightShape, (CellSet, Vec<CellSet>)>,
}

impl SightTables {
    /// The OR of `geo.sight_mask(o, spell, bonus)` over the cells `o` of `origins`.
    fn union(
        &mut self,
        geo: &Geometry,
        origins: CellSet,
        spell: &SpellSpec,
        bonus: i32,
    ) -> CellSet {
        let board = std::ptr::from_ref(geo) as usize;
        if self.board != board {
            self.rows.clear();
            self.board = board;
        }
        let range_type = match spell.range_type {
            RangeType::Classic => 0,
            RangeType::Line => 1,
            RangeType::Melee => 2,
            RangeType::Personal => 3,
        };
        let shape = (
            range_type,
            spell.range_min,
            spell.range_max,
            spell.fixed_range,
            spell.needs_los,
            bonus,
        );
        let (made, rows) = self
            .rows
            .entry(shape)
            .or_insert_with(|| (CellSet::EMPTY, vec![CellSet::EMPTY; geo.n]));
        for o in (origins & !*made).iter() {
            rows[usize::from(o)] = geo.sight_mask(o, spell, bonus);
        }
        *made |= origins;
        let mut mask = CellSet::EMPTY;
        for o in origins.iter() {
            mask |= rows[usize::from(o)];
        }
        mask
    }
}

/// The caller's threat caches for one match (scoring.py's `ThreatCache`).
#[derive(Clone, Debug, Default)]
pub struct ThreatCache {
    layers: FastMap<EnemyKey, std::sync::Arc<Layers>>,
    lookups: FastMap<Vec<EnemyKey>, std::rc::Rc<ThreatMap>>,
    /// Whole maps (`threat_map`'s, the search's leaf evaluation): kept and cleared apart from the
    /// lookups, as the reference keeps them; each as the shares it was summed from (the same
    /// floats, read only where asked).
    maps: FastMap<Vec<EnemyKey>, std::sync::Arc<ThreatShares>>,
    /// The sight masks the shares are made from (a pure cache: see [`SightTables`]).
    sights: SightTables,
}

/// A whole threat map as its enemies' shares, each cell summed when read (in the view's order of
/// the enemies, as `ThreatMap`): a leaf evaluation reads a few Krosmasters' cells of a fresh map.
#[derive(Clone, Debug)]
pub struct ThreatShares {
    shares: Vec<std::sync::Arc<Layers>>,
}

impl ThreatShares {
    /// Injuries the enemies could deal next turn to a piece on `cell`.
    pub fn at(&self, cell: Cell) -> f64 {
        let mut value = 0.0f64;
        for layers in &self.shares {
            for &(layer, worth) in layers.iter() {
                if layer.contains(cell) {
                    value += worth;
                    break;
                }
            }
        }
        value
    }
}

/// A threat map: per cell, injuries the enemies could deal next turn (each enemy's share added in
/// the view's order of the enemies).
///
/// Each cell is summed on its first reading and kept: a map is made again at each turn's start
/// (the enemies moved) and its readers ask a few dozen of the board's cells, so summing every
/// cell up front cost more than the readings. The sum is `ThreatShares::at`'s: for each enemy in
/// order, the worth of the one layer holding the cell, the same floats added in the same order
/// as the whole map summed enemy by enemy.
#[derive(Clone, Debug)]
pub struct ThreatMap {
    shares: ThreatShares,
    /// Per cell, the sum once read (NaN: not yet; a sum of finite worths is never NaN).
    values: Vec<std::cell::Cell<f64>>,
}

impl ThreatMap {
    fn of_shares(n_cells: usize, shares: Vec<std::sync::Arc<Layers>>) -> Self {
        ThreatMap {
            shares: ThreatShares { shares },
            values: vec![std::cell::Cell::new(f64::NAN); n_cells],
        }
    }

    /// Injuries the enemies could deal next turn to a piece on `cell`.
    #[inline]
    pub fn at(&self, cell: Cell) -> f64 {
        let slot = &self.values[usize::from(cell)];
        let known = slot.get();
        if !known.is_nan() {
            return known;
        }
        let value = self.shares.at(cell);
        slot.set(value);
        value
    }
}

fn enemy_keys(state: &MatchState<Arena>, geo: &Geometry, enemies: &[usize]) -> Vec<EnemyKey> {
    let (obstacles, crates) = (state.obstacles, state.crates);
    enemies
        .iter()
        .map(|&e| {
            let f = &state.fighters[e];
            let ring = geo.ring_mask(f.at(), 0, f.base_mp);
            let spells = spells_of(state, f);
            EnemyKey {
                uid: f.uid,
                cell: f.cell,
                base_mp: f.base_mp,
                base_ap: f.base_ap,
                critical: f.has(Power::Critical),
                obstacles: obstacles & ring,
                ready: once_ready(&spells, f),
                crates: crates & ring,
            }
        })
        .collect()
}

/// `_enemy_threat`: one enemy's share as disjoint (cells, injuries) layers, best first.
fn enemy_threat(
    state: &MatchState<Arena>,
    geo: &Geometry,
    f: &Fighter,
    ready: &[u32],
    sights: &mut SightTables,
) -> Layers {
    let spells = spells_of(state, f);
    let critical = f.has(Power::Critical);
    let mut options = attack_options(&spells, f.base_ap, critical);
    if !ready.is_empty() {
        options.extend(once_options(&spells, f, ready));
        stable_sort_desc(&mut options);
    }
    if options.is_empty() {
        return Vec::new();
    }
    let walk = geo.walk_mask(f.at(), f.base_mp, state.obstacles);
    let perched = walk & state.crates;
    let ground = walk & !perched;
    let mut layers = Vec::new();
    let mut covered = CellSet::EMPTY;
    for (worth, si, bonus) in options {
        let spell = spells[si];
        let mut mask = sights.union(geo, ground, spell, bonus);
        if !perched.is_empty() {
            mask |= sights.union(geo, perched, spell, bonus + 1);
        }
        let fresh = mask & !covered;
        covered |= mask;
        if !fresh.is_empty() {
            layers.push((fresh, worth));
        }
    }
    layers
}

/// `threat_lookup(view, side, cache)`: the threat map against `side`, kept in `cache`.
pub fn threat_lookup(
    state: &MatchState<Arena>,
    geo: &Geometry,
    side: usize,
    cache: &mut ThreatCache,
) -> std::rc::Rc<ThreatMap> {
    let enemies = enemies_of(state, side);
    let keys = enemy_keys(state, geo, &enemies);
    if let Some(found) = cache.lookups.get(&keys) {
        return found.clone();
    }
    if cache.lookups.len() > 1024 {
        cache.lookups.clear();
    }
    let shares = shares_of(state, geo, &enemies, &keys, cache);
    let map = std::rc::Rc::new(ThreatMap::of_shares(state.board.n_cells(), shares));
    cache.lookups.insert(keys, map.clone());
    map
}

/// `threat_map(view, side, cache)`: the whole threat map against `side`, kept in the cache's
/// `maps` (the search's leaf evaluation asks this one; the same floats as `threat_lookup`).
pub fn threat_map(
    state: &MatchState<Arena>,
    geo: &Geometry,
    side: usize,
    cache: &mut ThreatCache,
) -> std::sync::Arc<ThreatShares> {
    let enemies = enemies_of(state, side);
    let keys = enemy_keys(state, geo, &enemies);
    if let Some(found) = cache.maps.get(&keys) {
        return found.clone();
    }
    let shares = shares_of(state, geo, &enemies, &keys, cache);
    if cache.maps.len() > 1024 {
        cache.maps.clear();
    }
    let map = std::sync::Arc::new(ThreatShares { shares });
    cache.maps.insert(keys, map.clone());
    map
}

/// `_shares`: each enemy's share as (cells, injuries) layers, kept in the cache by its key.
fn shares_of(
    state: &MatchState<Arena>,
    geo: &Geometry,
    enemies: &[usize],
    keys: &[EnemyKey],
    cache: &mut ThreatCache,
) -> Vec<std::sync::Arc<Layers>> {
    let mut shares = Vec::with_capacity(enemies.len());
    for (i, &e) in enemies.iter().enumerate() {
        let key = &keys[i];
        let share = match cache.layers.get(key) {
            Some(s) => s.clone(),
            None => {
                if cache.layers.len() > 4096 {
                    cache.layers.clear();
                }
                let s = std::sync::Arc::new(enemy_threat(
                    state,
                    geo,
                    &state.fighters[e],
                    &key.ready,
                    &mut cache.sights,
                ));
                cache.layers.insert(key.clone(), s.clone());
                s
            }
        };
        shares.push(share);
    }
    shares
}

/// Chance that `mover` gets blocked when it walks off `cell` (R-A16, R-A45, R-A47).
pub fn block_chance(state: &MatchState<Arena>, mover: &Fighter, cell: Cell) -> f64 {
    if mover.has(Power::Tiny) {
        return 0.0;
    }
    let dodge = if mover.has(Power::Dodge) { 2 } else { 1 };
    let mut free = 1.0f64;
    for &c in state.board.neighbours(cell) {
        let Some(uid) = state.piece_at(c) else {
            continue;
        };
        let piece = &state.fighters[uid];
        if !piece.alive
            || piece.team == mover.team
            || !piece.is_character()
            || piece.has(Power::Tiny)
        {
            continue;
        }
        let lock = if piece.has(Power::Lock) { 2 } else { 1 };
        free *= 1.0 - BLOCK_CHANCE[lock][dodge];
    }
    1.0 - free
}

/// A rough chance of being KO'd next turn when `threat` injuries may come at `remaining` HP.
pub fn ko_risk(threat: f64, remaining: i32) -> f64 {
    if remaining <= 0 {
        return 1.0;
    }
    // max(0.0, min(1.0, x)) with Python's first-of-equals
    let x = (threat - f64::from(remaining) + 1.5) / 3.0;
    let m = if x < 1.0 { x } else { 1.0 };
    if m > 0.0 { m } else { 0.0 }
}

/// Trees plus non-Tiny characters: what blocks line of sight now (R-A78).
pub fn sight_blockers(state: &MatchState<Arena>) -> CellSet {
    let mut mask = state.board.trees();
    for f in on_board(state) {
        if f.is_character() && !f.has(Power::Tiny) {
            mask.insert(f.at());
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_odds_known_answers() {
        // values from the reference: scoring.hit_odds
        assert_eq!(hit_odds(3, 1, 1, 0, 99), (3.1666666666666665, 0.0));
        assert_eq!(
            hit_odds(2, 2, 1, 0, 2),
            (1.9166666666666665, 0.9166666666666666)
        );
        assert_eq!(
            hit_odds(4, 2, 2, 1, 3),
            (2.777777777777778, 0.8055555555555557)
        );
        assert_eq!(hit_odds(0, 1, 1, 0, 5), (0.3333333333333333, 0.0));
    }

    #[test]
    fn gg_worth_and_scores() {
        assert_eq!(gg_worth(3), 4.833333333333333);
        for g in -2..100 {
            assert_eq!(
                gg_worth(g).to_bits(),
                (f64::from(g) + GG_PREMIUM * harmonic(g)).to_bits()
            );
        }
        assert_eq!(score_swing(&[3, 2], 1, 0, 2, None, &[0, 1]), 3.95);
        assert_eq!(ko_risk(4.2, 4), 0.5666666666666668);
    }
}
