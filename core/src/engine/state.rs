//! Match state (krosbalance/engine/state.py): small, mutated in place by the engine only. Cells are
//! `i32` (-1 off the board), cell sets [`CellSet`] bitmasks, pieces indices (uids) into
//! `fighters`. The ruleset's own state is `rules` (its type is the ruleset's, [`MatchRules::State`]).

use std::sync::Arc;

use crate::board::{Board, Cell, CellSet};
use crate::content::{Content, PieceKind, Power, Powers, SpellRef};
use crate::engine::dice::Dice;
use crate::engine::events::Event;
use crate::engine::rules::MatchRules;

/// Counters of one fighter over a match (engine/results.py's `FighterStats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FighterStats {
    pub damage_dealt: [i64; 5],
    pub damage_taken: [i64; 5],
    pub heals_given: i64,
    pub heals_received: i64,
    pub kills: i64,
    pub knocked_out: bool,
    pub turns_alive: i64,
    pub spells_cast: i64,
    pub moves: i64,
    pub times_blocked: i64,
    /// Arena's counters (kamas picked up, GG won by its KOs).
    pub kamas_collected: i64,
    pub gg_won: i64,
    pub rewards_bought: i64,
    pub rewards_revealed: i64,
    /// Tokens that came onto its card as `id:how`, and the ids of those it revealed, with turns.
    pub rewards_held: Vec<String>,
    pub rewards_used: Vec<String>,
    pub rewards_held_turns: Vec<i32>,
    pub rewards_used_turns: Vec<i32>,
}

/// A piece in play: a Krosmaster or a summon token.
#[derive(Clone, Debug)]
pub struct Fighter {
    pub uid: usize,
    pub spec: usize,
    pub side: usize,
    pub team: usize,
    pub cell: i32,
    pub injuries: i32,
    pub hp: i32,
    pub base_mp: i32,
    pub base_ap: i32,
    pub mp: i32,
    pub ap: i32,
    pub kind: PieceKind,
    pub level: i32,
    pub alive: bool,
    /// Its spells, in the reference's order (a weapon's goes before the punch, R-A143).
    pub spells: Vec<SpellRef>,

    pub powers: Powers,
    pub inspired: Powers,
    pub resist: u8,
    pub immune: u8,
    pub summoner: Option<usize>,
    /// The summoner's spell (its index) that put this token in play.
    pub summon_spell: Option<u32>,
    pub summons: Vec<usize>,
    pub plus_mp: i32,
    pub minus_mp: i32,
    pub plus_ap: i32,
    pub minus_ap: i32,
    /// Spells (by index) cast this turn / this game (blue and red limits, R-A66).
    pub turn_uses: Vec<u32>,
    pub game_uses: Vec<u32>,
    /// (spell key, uid): the piece the next cast of that spell may not target (`different_target_next`).
    pub banned_targets: Vec<(u32, usize)>,
    /// +max range from permanent ruleset effects (Arena's Demonic Rewards, R-A145).
    pub max_range_bonus: i32,
    /// Restricted play (engine/restriction.py): ruleset action kinds this piece may not take (bit
    /// `kind`), and card powers that do not act for it (with `forbid_resist`, `forbid_immune`).
    pub forbidden_kinds: u32,
    pub forbidden_powers: Powers,
    pub forbid_resist: bool,
    pub forbid_immune: bool,

    pub range_bonus: i32,
    pub blocked: bool,
    pub placed_turn: i32,
    pub stats: FighterStats,
    pub acting: bool,
    pub ko_by: Option<usize>,
}

impl Fighter {
    /// Whether the piece has a power from its card or from inspiration.
    #[inline]
    pub fn has(&self, power: Power) -> bool {
        (self.powers | self.inspired) & power.bit() != 0
    }

    /// Krosmasters and creatures are characters; bombs and traps are mechanisms.
    #[inline]
    pub fn is_character(&self) -> bool {
        matches!(self.kind, PieceKind::Krosmaster | PieceKind::Creature)
    }

    #[inline]
    pub fn at(&self) -> Cell {
        debug_assert!(self.cell >= 0);
        self.cell as Cell
    }
}

/// The options the shared engine reads (engine/rules.py's `EngineOptions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub turn_limit: i32,
    pub strict_corner_los: bool,
    pub caster_in_own_area: bool,
    pub bombs_unfazed: bool,
    pub scenery_destruction: bool,
    /// HP of a tree, a bush and a crate.
    pub scenery_hp: [i32; 3],
    pub scenery_hit_under_piece: bool,
}

/// Everything that changes during a match.
#[derive(Clone, Debug)]
pub struct MatchState<R: MatchRules> {
    pub board: Arc<Board>,
    pub content: Arc<Content>,
    pub ruleset: Arc<R>,
    pub opts: EngineOptions,
    pub rules: R::State,
    pub dice: Dice,
    pub fighters: Vec<Fighter>,
    pub by_cell: Vec<Option<usize>>,
    pub obstacles: CellSet,
    pub sight_blockers: CellSet,
    pub trees: CellSet,
    pub bushes: CellSet,
    pub crates: CellSet,
    pub fixed_sight: CellSet,
    pub turn: i32,
    pub active_side: usize,
    pub first_player: usize,
    pub timeline: Vec<Vec<usize>>,
    pub active: Option<usize>,
    pub winner: Option<usize>,
    pub end_reason: &'static str,
    pub finished: bool,
    pub record: u8,
    pub events: Vec<Event<R::Event>>,
    pub n_seats: usize,
    pub team_of: Vec<usize>,
    pub play_order: Vec<usize>,
    /// Injuries of each cell's scenery this turn (R-A125), 0 where none.
    pub scenery_injuries: Vec<i32>,
    pub pending_bombs: std::collections::VecDeque<usize>,
    pub pending_kos: Vec<usize>,
    pub unsettled: bool,
    pub edges: Vec<usize>,
    /// Fighters given Perfect Lock in play (R-A48), for `held_fast`.
    pub lock_holders: Vec<usize>,
    /// Cells of pieces placed with Invisibility (R-A108): line of sight
    /// ([`crate::engine::legal::sight_blockers_from`]) and injuries look further only here.
    pub invisible: CellSet,
    /// The trap on each cell (R-A116): traps sit on free cells without being obstacles, so they
    /// are never in `by_cell`; a cell holds at most one (`MatchState.traps`).
    pub trap_at: Vec<Option<usize>>,
    /// The cells of `trap_at` that hold one, so "no traps" is one test.
    pub traps: CellSet,
}

impl<R: MatchRules> MatchState<R> {
    /// A match on `board` before set-up (no pieces); the ruleset's state is `rules`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        board: Arc<Board>,
        content: Arc<Content>,
        ruleset: Arc<R>,
        opts: EngineOptions,
        rules: R::State,
        dice: Dice,
        record: u8,
        team_of: Vec<usize>,
    ) -> Self {
        let n = board.n_cells();
        let (trees, bushes, crates) = (board.trees(), board.bushes(), board.crates());
        let seats = team_of.len();
        MatchState {
            board,
            content,
            ruleset,
            opts,
            rules,
            dice,
            fighters: Vec::new(),
            by_cell: vec![None; n],
            obstacles: trees | bushes,
            sight_blockers: trees,
            trees,
            bushes,
            crates,
            fixed_sight: trees,
            turn: 0,
            active_side: 0,
            first_player: 0,
            timeline: vec![Vec::new(); seats],
            active: None,
            winner: None,
            end_reason: "",
            finished: false,
            record,
            events: Vec::new(),
            n_seats: seats,
            play_order: (0..seats).collect(),
            team_of,
            scenery_injuries: vec![0; n],
            pending_bombs: std::collections::VecDeque::new(),
            pending_kos: Vec::new(),
            unsettled: false,
            edges: (0..seats).collect(),
            lock_holders: Vec::new(),
            invisible: CellSet::default(),
            trap_at: vec![None; n],
            traps: CellSet::default(),
        }
    }

    #[inline]
    pub fn is_free(&self, cell: Cell) -> bool {
        !self.obstacles.contains(cell)
    }

    /// The trap on a cell, if any (R-A116).
    #[inline]
    pub fn trap_on(&self, cell: Cell) -> Option<usize> {
        if self.traps.contains(cell) {
            self.trap_at[usize::from(cell)]
        } else {
            None
        }
    }

    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<usize> {
        self.by_cell[usize::from(cell)]
    }

    /// The Krosmasters of every seat in the fighter's partnership, its own seat's first
    /// (`MatchState.allied_krosmasters`).
    pub fn allied_krosmasters(&self, uid: usize) -> Vec<usize> {
        let side = self.fighters[uid].side;
        let mut out = self.timeline[side].clone();
        if self.n_seats != 2 {
            let team = self.fighters[uid].team;
            for s in 0..self.n_seats {
                if s != side && self.team_of[s] == team {
                    out.extend_from_slice(&self.timeline[s]);
                }
            }
        }
        out
    }

    /// Whether a seat still has a Krosmaster in play.
    pub fn seat_standing(&self, seat: usize) -> bool {
        self.timeline[seat].iter().any(|&f| self.fighters[f].alive)
    }

    #[inline]
    pub fn full(&self) -> bool {
        self.record >= crate::engine::events::FULL
    }

    #[inline]
    pub fn summary(&self) -> bool {
        self.record >= crate::engine::events::SUMMARY
    }
}
