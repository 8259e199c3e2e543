//! Glyph cells and the Dofus token (glyphs.py, R-B14-R-B16), the passive Divine Challenge bonuses
//! and the Blast card powers (passives.py, R-B41, R-B42), and special terrain (terrain.py,
//! R-B44-R-B48): what entering a cell does in Blast.

use crate::board::Cell;
use crate::content::{Element, PieceKind};
use crate::engine::combat::{heal, inflict};
use crate::engine::events::Event;
use crate::engine::pieces::{relocate, unblock_sight};
use crate::engine::rules::{Marker, MatchRules};
use crate::engine::state::MatchState;
use crate::rulesets::blast::cards::{BlastPower, FIRE, FOG, ICE, Moment, Passive};
use crate::rulesets::blast::ruleset::{Blast, BlastEvent, POWER_REROLL, combat_die};

/// R-B41: the glyph cells of the three tiers.
pub const TIER_GLYPHS: [i32; 3] = [1, 3, 5];

fn marker(state: &mut MatchState<Blast>, piece: usize, ap: bool, amount: i32) {
    let kind = if ap { Marker::PlusAp } else { Marker::PlusMp };
    Blast::add_marker(state, piece, kind, amount);
}

fn count(state: &mut MatchState<Blast>, side: usize, bonus: i32) {
    if bonus >= 0 {
        state.rules.bonus_uses[side][bonus as usize] += 1;
    }
}

/// (bonus index, passive) of the passives of `moment` active for a side holding `glyphs`.
pub fn active_passives(
    state: &MatchState<Blast>,
    moment: Moment,
    glyphs: i32,
) -> Vec<(usize, Passive)> {
    passives_at(state, moment, glyphs).collect()
}

/// [`active_passives`] as they come, for a reader that changes nothing on the way.
fn passives_at(
    state: &MatchState<Blast>,
    moment: Moment,
    glyphs: i32,
) -> impl Iterator<Item = (usize, Passive)> + '_ {
    let bs = &state.rules;
    bs.bonuses.iter().enumerate().filter_map(move |(i, b)| {
        b.passive
            .filter(|p| p.moment() == moment && glyphs >= bs.tiers[i])
            .map(|p| (i, p))
    })
}

fn apply_passive(state: &mut MatchState<Blast>, piece: usize, passive: Passive, bonus: i32) {
    let side = state.fighters[piece].side;
    match passive {
        Passive::CaptureMarker { ap, amount } | Passive::ActivationMarker { ap, amount } => {
            marker(state, piece, ap, amount);
            count(state, side, bonus);
        }
        Passive::CaptureHeal { amount } => {
            heal(state, piece, piece, amount, false);
            count(state, side, bonus);
        }
        Passive::NextToAlly { mp, ap } => {
            let f = &state.fighters[piece];
            let near = state.board.neighbour_mask(f.at());
            let next_to = state.timeline[side].iter().any(|&a| {
                let a = &state.fighters[a];
                a.uid != piece && a.alive && a.cell >= 0 && near.contains(a.at())
            });
            if next_to {
                if mp != 0 {
                    marker(state, piece, false, mp);
                }
                if ap != 0 {
                    marker(state, piece, true, ap);
                }
                count(state, side, bonus);
            }
        }
        Passive::OnGlyphHeal { amount } => {
            let cell = state.fighters[piece].at();
            if state.rules.owned[side].contains(cell)
                && heal(state, piece, piece, amount, false) != 0
            {
                count(state, side, bonus);
            }
        }
        Passive::SpellDamageBonus { .. }
        | Passive::SpellRangeBonus { .. }
        | Passive::GlyphTrapDamage { .. }
        | Passive::CombatReroll => {}
    }
}

/// A Krosmaster captured a glyph cell; its player held `before` glyph cells just before.
fn on_capture(state: &mut MatchState<Blast>, krosmaster: usize, before: i32) {
    let spec = state.fighters[krosmaster].spec;
    let powers = state.ruleset.powers[spec].clone();
    for power in powers {
        if let BlastPower::CaptureMarker { ap, amount } = power {
            apply_passive(state, krosmaster, Passive::CaptureMarker { ap, amount }, -1);
        }
    }
    for (index, passive) in active_passives(state, Moment::Capture, before) {
        if state.fighters[krosmaster].alive {
            apply_passive(state, krosmaster, passive, index as i32);
        }
    }
}

/// An allied Krosmaster starts acting: start-of-activation passives, and its range bonus.
pub fn start_of_activation(state: &mut MatchState<Blast>, fighter: usize) {
    if state.fighters[fighter].kind != PieceKind::Krosmaster {
        return;
    }
    let side = state.fighters[fighter].side;
    let glyphs = state.rules.glyphs(side);
    for (index, passive) in active_passives(state, Moment::ActivationStart, glyphs) {
        apply_passive(state, fighter, passive, index as i32);
    }
    refresh_range(state);
    let glyphs = state.rules.glyphs(side);
    for (index, _) in active_passives(state, Moment::SpellRange, glyphs) {
        count(state, side, index as i32); // a range bonus acts for the whole activation
    }
}

/// A Combatant's activation ends: its player's end-of-activation passives (Krosmasters only),
/// and the opponent's glyph traps.
pub fn end_of_activation(state: &mut MatchState<Blast>, fighter: usize) {
    let f = &state.fighters[fighter];
    if !f.alive || f.cell < 0 {
        return;
    }
    let side = f.side;
    if f.kind == PieceKind::Krosmaster {
        let glyphs = state.rules.glyphs(side);
        for (index, passive) in active_passives(state, Moment::ActivationEnd, glyphs) {
            if state.fighters[fighter].alive {
                apply_passive(state, fighter, passive, index as i32);
            }
        }
    }
    let enemy = 1 - side;
    let cell = state.fighters[fighter].at();
    if state.rules.owned[enemy].contains(cell) {
        let glyphs = state.rules.glyphs(enemy);
        for (index, passive) in active_passives(state, Moment::ActivationEnd, glyphs) {
            if let Passive::GlyphTrapDamage { amount } = passive
                && state.fighters[fighter].alive
                && inflict(state, None, fighter, amount, 0, true) != 0
            {
                count(state, enemy, index as i32);
            }
        }
    }
}

/// Damage an allied Krosmaster's damaging spell gains from passives (Force décuplée), counted.
pub fn spell_damage_bonus(state: &mut MatchState<Blast>, caster: usize) -> i32 {
    let f = &state.fighters[caster];
    if f.kind != PieceKind::Krosmaster {
        return 0;
    }
    let side = f.side;
    let mut total = 0;
    for (index, passive) in active_passives(state, Moment::SpellDamage, state.rules.glyphs(side)) {
        if let Passive::SpellDamageBonus { amount } = passive {
            total += amount;
        }
        count(state, side, index as i32);
    }
    total
}

/// The passives' damage bonus for a side now, uncounted (for expectations).
pub fn damage_bonus(state: &MatchState<Blast>, side: usize) -> i32 {
    passives_at(state, Moment::SpellDamage, state.rules.glyphs(side))
        .map(|(_, p)| match p {
            Passive::SpellDamageBonus { amount } => amount,
            _ => 0,
        })
        .sum()
}

/// The active Krosmaster's range bonus from passives (Vue perçante), in step with its glyphs.
pub fn refresh_range(state: &mut MatchState<Blast>) {
    let Some(active) = state.active else {
        return;
    };
    let f = &state.fighters[active];
    if f.kind != PieceKind::Krosmaster {
        return;
    }
    let bonus = passives_at(state, Moment::SpellRange, state.rules.glyphs(f.side))
        .map(|(_, p)| match p {
            Passive::SpellRangeBonus { amount } => amount,
            _ => 0,
        })
        .sum();
    state.fighters[active].range_bonus = bonus;
}

/// The once-per-turn reroll of a -1 die the caster may use now: (found, source), the source
/// [`POWER_REROLL`] for Relance or a bonus index.
pub fn reroll_source(state: &MatchState<Blast>, caster: usize) -> (bool, i32) {
    let f = &state.fighters[caster];
    if f.kind != PieceKind::Krosmaster {
        return (false, -1);
    }
    let bs = &state.rules;
    let glyphs = bs.glyphs(f.side);
    for power in &state.ruleset.powers[f.spec] {
        let ready = !bs.rerolled.contains(&(caster, POWER_REROLL));
        if let BlastPower::CombatReroll { glyphs: need } = power
            && glyphs >= *need
            && ready
        {
            return (true, POWER_REROLL);
        }
    }
    for (index, _) in passives_at(state, Moment::Reroll, glyphs) {
        if !bs.rerolled.contains(&(caster, index as i32)) {
            return (true, index as i32);
        }
    }
    (false, -1)
}

// ------------------------------------------------------------------------------------- glyphs

/// Whether entering a glyph cell this way captures it (R-B14, R-B16).
fn captures_by(state: &MatchState<Blast>, how: &str) -> bool {
    match how {
        "walk" => true,
        "slide" => state.ruleset.opts.glyph_capture_by_slide,
        _ => state.ruleset.opts.glyph_capture_by_effect,
    }
}

/// `side` captures the glyph cell (nothing if it is already his); whether it changed hands. `by`
/// triggers the capture passives with the glyph count before the capture (R-B41).
pub fn take_glyph(
    state: &mut MatchState<Blast>,
    side: usize,
    cell: Cell,
    by: Option<usize>,
) -> bool {
    let bs = &mut state.rules;
    if bs.owned[side].contains(cell) {
        return false;
    }
    let before = bs.glyphs(side);
    let flipped = bs.owned[1 - side].contains(cell);
    bs.owned[1 - side].remove(cell);
    bs.owned[side].insert(cell);
    bs.captures[side] += 1;
    let n = before + 1;
    if n > bs.peak[side] {
        bs.peak[side] = n;
        for (i, need) in TIER_GLYPHS.iter().enumerate() {
            if n >= *need && bs.tier_turn[side][i] == 0 {
                bs.tier_turn[side][i] = state.turn;
            }
        }
    }
    if state.full() {
        let bs = &state.rules;
        let event = BlastEvent::GlyphCaptured {
            turn: state.turn,
            uid: by.map_or(-1, |u| u as i64),
            side,
            cell: i32::from(cell),
            flipped,
            glyphs: (bs.glyphs(0), bs.glyphs(1)),
        };
        state.events.push(Event::Ruleset(event));
    }
    if state.rules.dofus != side && state.turn != 1 {
        state.rules.dofus = side; // R-B15: not during the first player's first turn
        if state.full() {
            state.events.push(Event::Ruleset(BlastEvent::DofusTaken {
                turn: state.turn,
                side,
            }));
        }
    }
    if let Some(by) = by
        && state.fighters[by].alive
    {
        on_capture(state, by, before);
    }
    refresh_range(state);
    true
}

// ------------------------------------------------------------------------------------ terrain

/// Cells a tile may go on now: free, not a glyph cell, no tile (R-B44).
pub fn placeable(state: &MatchState<Blast>) -> crate::board::CellSet {
    let bs = &state.rules;
    state.board.all_cells() & !state.obstacles & !bs.glyph_cells & !bs.all_tiles()
}

fn refresh_enter_cells(state: &mut MatchState<Blast>) {
    let bs = &mut state.rules;
    bs.enter_cells = bs.glyph_cells | bs.all_tiles();
}

fn terrain_event(state: &mut MatchState<Blast>, kind: usize, cell: Cell, placed: bool) {
    if state.full() {
        state
            .events
            .push(Event::Ruleset(BlastEvent::TerrainChanged {
                turn: state.turn,
                terrain: kind,
                cell: i32::from(cell),
                placed,
            }));
    }
}

/// Put a tile of `kind` on `cell`, first removing `removed` when the type is at its limit (R-B45).
pub fn place_tile(state: &mut MatchState<Blast>, kind: usize, cell: Cell, removed: i32) {
    if state.rules.tiles[kind].len() >= state.ruleset.opts.terrain_max_per_type {
        remove_tile(state, kind, removed as Cell);
    }
    state.rules.tiles[kind].push(cell);
    if kind == FOG {
        state.fixed_sight.insert(cell);
        state.sight_blockers.insert(cell);
    }
    refresh_enter_cells(state);
    terrain_event(state, kind, cell, true);
}

/// Take a tile off the board (a tile over the limit, a Fog dissipated).
pub fn remove_tile(state: &mut MatchState<Blast>, kind: usize, cell: Cell) {
    let tiles = &mut state.rules.tiles[kind];
    let at = tiles.iter().position(|&c| c == cell).expect("a tile there");
    tiles.remove(at);
    if kind == FOG {
        unblock_sight(state, cell);
    }
    refresh_enter_cells(state);
    terrain_event(state, kind, cell, false);
}

/// A piece entered `cell` from `origin` (`how` as in `Event::Moved`): glyph capture, Fog
/// dissipating, Fire injuring, Ice sliding (R-B14, R-B46-R-B48).
pub fn enter(
    state: &mut MatchState<Blast>,
    piece: usize,
    origin: Cell,
    cell: Cell,
    how: &'static str,
    may_slide: bool,
) {
    let p = &state.fighters[piece];
    if !p.alive {
        return;
    }
    if state.rules.glyph_cells.contains(cell) {
        if p.kind == PieceKind::Krosmaster && captures_by(state, how) {
            let side = p.side;
            take_glyph(state, side, cell, Some(piece));
        }
        return;
    }
    let Some(kind) = state.rules.terrain_at(cell) else {
        return;
    };
    if how != "walk" && how != "slide" && !state.ruleset.opts.terrain_on_forced_moves {
        return;
    }
    if kind == FOG {
        remove_tile(state, FOG, cell);
    } else if kind == FIRE {
        burn(state, piece);
    } else if kind == ICE && may_slide {
        slide_on_ice(state, piece, origin, cell);
    }
}

/// R-B47: Fire injures the piece entering it (a combat roll under `fire_combat_roll`).
fn burn(state: &mut MatchState<Blast>, piece: usize) {
    let mut amount = state.ruleset.opts.fire_damage;
    if state.ruleset.opts.fire_combat_roll {
        amount += combat_die(state, piece);
    }
    if amount > 0 {
        inflict(state, None, piece, amount, Element::Fire.index(), true);
    }
}

/// R-B46: one more cell the same way, if the piece came from an adjacent cell and the next cell
/// is on the board and free; entered as a slide.
fn slide_on_ice(state: &mut MatchState<Blast>, piece: usize, origin: Cell, cell: Cell) {
    let board = state.board.clone();
    if board.distance(origin, cell) != 1 {
        return;
    }
    let ((x0, y0), (x1, y1)) = (board.xy(origin), board.xy(cell));
    let Some(next) = board.step(cell, x1 - x0, y1 - y0) else {
        return;
    };
    if state.obstacles.contains(next) {
        return;
    }
    relocate(state, piece, next);
    if state.full() {
        state.events.push(Event::Moved {
            turn: state.turn,
            uid: piece,
            origin: i32::from(cell),
            destination: i32::from(next),
            how: "slide",
        });
    }
    if state.rules.enter_cells.contains(next) {
        let chain = state.ruleset.opts.ice_slide_chain;
        enter(state, piece, cell, next, "slide", chain);
    }
}
