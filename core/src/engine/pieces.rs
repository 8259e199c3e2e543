//! Putting pieces on the board and taking them off, keeping the bitmasks in step
//! (krosbalance/engine/pieces.py).

use crate::board::{Cell, CellSet};
use crate::content::{PieceKind, Power};
use crate::engine::rules::MatchRules;
use crate::engine::state::{Fighter, FighterStats, MatchState};

/// A new fighter, not yet on the board.
pub fn spawn<R: MatchRules>(
    state: &mut MatchState<R>,
    spec: usize,
    side: usize,
    summoner: Option<usize>,
    summon_spell: Option<u32>,
) -> usize {
    let c = &state.content.chars[spec];
    let uid = state.fighters.len();
    let fighter = Fighter {
        uid,
        spec,
        side,
        team: state.team_of[side],
        cell: -1,
        injuries: 0,
        hp: c.hp,
        base_mp: c.mp,
        base_ap: c.ap,
        mp: 0,
        ap: 0,
        kind: c.kind,
        level: c.level,
        alive: true,
        spells: state.content.spells_for(spec),
        powers: c.powers,
        inspired: 0,
        resist: c.resist,
        immune: c.immune,
        summoner,
        summon_spell,
        summons: Vec::new(),
        plus_mp: 0,
        minus_mp: 0,
        plus_ap: 0,
        minus_ap: 0,
        turn_uses: Vec::new(),
        game_uses: Vec::new(),
        banned_targets: Vec::new(),
        max_range_bonus: 0,
        forbidden_kinds: 0,
        forbidden_powers: 0,
        forbid_resist: false,
        forbid_immune: false,

        range_bonus: 0,
        blocked: false,
        placed_turn: -1,
        stats: FighterStats::default(),
        acting: false,
        ko_by: None,
    };
    state.fighters.push(fighter);
    uid
}

/// Characters block line of sight unless Tiny; bombs and traps never do (R-A78, R-A103).
#[inline]
pub fn blocks_sight(f: &Fighter) -> bool {
    f.is_character() && !f.has(Power::Tiny)
}

/// Put a piece on a cell. Traps sit on free cells without becoming obstacles (R-A116).
pub fn place<R: MatchRules>(state: &mut MatchState<R>, uid: usize, cell: Cell) {
    let f = &mut state.fighters[uid];
    f.cell = i32::from(cell);
    if f.kind == PieceKind::Trap {
        state.trap_at[usize::from(cell)] = Some(uid);
        state.traps.insert(cell);
        return;
    }
    let blocks = blocks_sight(f);
    let invisible = f.powers & Power::Invisibility.bit() != 0;
    state.by_cell[usize::from(cell)] = Some(uid);
    state.obstacles.insert(cell);
    if blocks {
        state.sight_blockers.insert(cell);
    }
    if invisible {
        state.invisible.insert(cell); // R-A108: see legal::sight_blockers_from
    }
}

pub fn lift<R: MatchRules>(state: &mut MatchState<R>, uid: usize) {
    let cell = state.fighters[uid].cell;
    if cell < 0 {
        return;
    }
    let cell = cell as Cell;
    if state.fighters[uid].kind == PieceKind::Trap {
        if state.trap_at[usize::from(cell)] == Some(uid) {
            state.trap_at[usize::from(cell)] = None;
            state.traps.remove(cell);
        }
        state.fighters[uid].cell = -1;
        return;
    }
    state.by_cell[usize::from(cell)] = None;
    state.obstacles.remove(cell);
    if !state.fixed_sight.contains(cell) {
        state.sight_blockers.remove(cell);
    }
    state.invisible.remove(cell);
    state.fighters[uid].cell = -1;
}

pub fn relocate<R: MatchRules>(state: &mut MatchState<R>, uid: usize, cell: Cell) {
    lift(state, uid);
    place(state, uid, cell);
}

/// Exchange the cells of two pieces (a special movement: no Lock, R-A95).
pub fn swap<R: MatchRules>(state: &mut MatchState<R>, a: usize, b: usize) {
    let (cell_a, cell_b) = (state.fighters[a].at(), state.fighters[b].at());
    lift(state, a);
    lift(state, b);
    place(state, a, cell_b);
    place(state, b, cell_a);
}

/// A cell of `fixed_sight` stops blocking line of sight (a destroyed tree).
pub fn unblock_sight<R: MatchRules>(state: &mut MatchState<R>, cell: Cell) {
    state.fixed_sight.remove(cell);
    let blocks = state
        .piece_at(cell)
        .is_some_and(|p| blocks_sight(&state.fighters[p]));
    if !blocks {
        state.sight_blockers.remove(cell);
    }
}

/// The copy a partnership may know holds none of the other partnerships' traps (R-A116,
/// engine/clone.py's `viewer_team`): each is taken off its cell and no longer alive (its
/// summoner still lists it, as in the reference's copy).
pub fn hide_traps_from<R: MatchRules>(state: &mut MatchState<R>, viewer_team: usize) {
    if state.traps.is_empty() {
        return;
    }
    for cell in state.traps {
        let Some(trap) = state.trap_at[usize::from(cell)] else {
            continue;
        };
        if state.fighters[trap].team != viewer_team {
            state.trap_at[usize::from(cell)] = None;
            state.traps.remove(cell);
            state.fighters[trap].cell = -1;
            state.fighters[trap].alive = false;
        }
    }
}

/// Every piece on the board, in uid order, as (uid, spec, side, cell, injuries).
pub fn positions<R: MatchRules>(state: &MatchState<R>) -> Vec<(usize, usize, usize, i32, i32)> {
    state
        .fighters
        .iter()
        .filter(|f| f.alive && f.cell >= 0)
        .map(|f| (f.uid, f.spec, f.side, f.cell, f.injuries))
        .collect()
}

pub fn cellset_of(cells: &[Cell]) -> CellSet {
    cells.iter().copied().collect()
}

/// What restricted play forbids one piece (engine/restriction.py's `restrict`), already checked
/// against the figure by the reference's `element_problem`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restriction {
    /// Spell ids it never casts (left out of its spell list).
    pub spells: Vec<String>,
    /// Card powers that do not act for it; Resistance and Immune as flags.
    pub powers: crate::content::Powers,
    pub resist: bool,
    pub immune: bool,
    /// Ruleset action kinds it never takes (bit `kind`).
    pub kinds: u32,
}

/// Forbid a piece its elements before it is placed (`restrict`).
pub fn restrict<R: MatchRules>(state: &mut MatchState<R>, uid: usize, r: &Restriction) {
    let content = state.content.clone();
    let f = &mut state.fighters[uid];
    if !r.spells.is_empty() {
        f.spells
            .retain(|&s| !r.spells.contains(&content.resolve(s).id));
    }
    if r.powers != 0 || r.resist || r.immune {
        f.forbidden_powers = r.powers;
        f.powers &= !r.powers;
        f.forbid_resist = r.resist;
        f.forbid_immune = r.immune;
        if r.resist {
            f.resist = 0;
        }
        if r.immune {
            f.immune = 0;
        }
    }
    if r.kinds != 0 {
        f.forbidden_kinds = r.kinds;
    }
}
