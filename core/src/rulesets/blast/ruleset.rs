//! The Blast ruleset object (krosbalance/rulesets/blast/ruleset.py, turn.py, rolls.py, combat.py):
//! its state and events, what a Blast player decides, and every hook the engine calls.

use crate::board::{Cell, CellSet};
use crate::content::{PieceKind, SpellKind, SpellSpec};
use crate::engine::dice::{ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK};
use crate::engine::events::Event;
use crate::engine::instant::{end_match, settle};
use crate::engine::rules::{Action, Controller, Marker, MatchRules, Players, Scenery};
use crate::engine::state::MatchState;
use crate::engine::turn::character_turn;
use crate::rulesets::blast::cards::{
    BlastOptions, BlastPower, BonusAction, Challenge, ChallengeBonus, Favor,
};
use crate::rulesets::blast::{bonus, holdings};

/// The favor slots left (0) and right (1) of the deck (R-B9).
pub const SLOTS: usize = 2;
/// Dodge roll outcomes (rolls.py).
pub const FREE: u8 = 0;
pub const GRABBED: u8 = 1;
pub const TACKLED: u8 = 2;
/// A reroll source in `BlastState::rerolled`: a card's Relance (a bonus is its index).
pub const POWER_REROLL: i32 = -1;

/// The ruleset object: options, the favor pool, the box's challenges, the Blast card powers by
/// content index and the board's glyph cells (immutable during a match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blast {
    pub opts: BlastOptions,
    /// The favors the deck is dealt from (basic, then superior under `superior_favors`).
    pub favors: Vec<Favor>,
    /// Every Divine Challenge of the box, in the cards' order.
    pub challenges: Vec<Challenge>,
    /// Per `content.chars` index, its Blast card powers.
    pub powers: Vec<Vec<BlastPower>>,
    pub glyph_cells: CellSet,
}

/// Blast's holdings of one match (state.py's `BlastState`); favors and challenges are indices
/// into the ruleset's lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlastState {
    pub glyph_cells: CellSet,
    pub owned: [CellSet; 2],
    /// Per terrain type, its tiles' cells, oldest first.
    pub tiles: [Vec<Cell>; 3],
    pub dofus: usize,
    /// Favor indices, top card last.
    pub deck: Vec<usize>,
    pub slots: [Option<usize>; SLOTS],
    pub slot_used: [bool; SLOTS],
    pub challenges: Vec<usize>,
    /// Every bonus of the challenges in play, flattened, and the glyph cells each needs.
    pub bonuses: Vec<ChallengeBonus>,
    pub tiers: Vec<i32>,
    /// (uid, bonus index) used this turn.
    pub bonus_used: Vec<(usize, usize)>,
    /// uid -> damage its next damaging spell gains this turn (Brasier).
    pub spell_bonus: Vec<(usize, i32)>,
    /// (uid, source) that used a once-per-turn reroll this turn ([`POWER_REROLL`] or a bonus).
    pub rerolled: Vec<(usize, i32)>,
    pub peak: [i32; 2],
    pub tier_turn: [[i32; 3]; 2],
    pub bonus_uses: [Vec<i64>; 2],
    pub favor_uses: [i64; 2],
    pub captures: [i64; 2],
    /// Glyph cells and tiles: the cells whose entering calls `on_enter`.
    pub enter_cells: CellSet,
}

impl BlastState {
    pub fn new(glyph_cells: CellSet) -> Self {
        BlastState {
            glyph_cells,
            owned: [CellSet::default(); 2],
            tiles: [Vec::new(), Vec::new(), Vec::new()],
            dofus: 1,
            deck: Vec::new(),
            slots: [None; SLOTS],
            slot_used: [false; SLOTS],
            challenges: Vec::new(),
            bonuses: Vec::new(),
            tiers: Vec::new(),
            bonus_used: Vec::new(),
            spell_bonus: Vec::new(),
            rerolled: Vec::new(),
            peak: [0; 2],
            tier_turn: [[0; 3]; 2],
            bonus_uses: [Vec::new(), Vec::new()],
            favor_uses: [0; 2],
            captures: [0; 2],
            enter_cells: glyph_cells,
        }
    }

    /// Glyph cells `side` controls now.
    #[inline]
    pub fn glyphs(&self, side: usize) -> i32 {
        self.owned[side].len() as i32
    }

    pub fn terrain(&self, kind: usize) -> CellSet {
        self.tiles[kind].iter().copied().collect()
    }

    /// The terrain type on `cell`, if any (ice, then fire, then fog).
    pub fn terrain_at(&self, cell: Cell) -> Option<usize> {
        (0..3).find(|&k| self.tiles[k].contains(&cell))
    }

    pub fn all_tiles(&self) -> CellSet {
        self.terrain(0) | self.terrain(1) | self.terrain(2)
    }

    /// R-B41, R-B42: whether `side` controls the glyph cells bonus `index` needs.
    #[inline]
    pub fn has_tier(&self, side: usize, index: usize) -> bool {
        self.glyphs(side) >= self.tiers[index]
    }

    pub fn pending_spell_bonus(&self, uid: usize) -> i32 {
        self.spell_bonus
            .iter()
            .find(|(u, _)| *u == uid)
            .map_or(0, |&(_, b)| b)
    }
}

/// Blast's events (rulesets/blast/events.py); favors and terrain by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlastEvent {
    FavorRevealed {
        turn: i32,
        side: usize,
        favor: usize,
        slot: usize,
    },
    BonusUsed {
        turn: i32,
        uid: usize,
        bonus: String,
        target: i32,
        ap: i32,
    },
    GlyphCaptured {
        turn: i32,
        uid: i64,
        side: usize,
        cell: i32,
        flipped: bool,
        glyphs: (i32, i32),
    },
    DofusTaken {
        turn: i32,
        side: usize,
    },
    TerrainChanged {
        turn: i32,
        terrain: usize,
        cell: i32,
        placed: bool,
    },
    CombatRolled {
        turn: i32,
        uid: usize,
        faces: Vec<u8>,
        delta: i32,
    },
    DodgeRolled {
        turn: i32,
        uid: usize,
        faces: Vec<u8>,
        outcome: u8,
    },
    GlyphCount {
        turn: i32,
        side: usize,
        glyphs: (i32, i32),
        favors_left: usize,
    },
}

/// What a Blast player decides (turn.py's `BlastController`).
pub trait BlastController: Controller<Blast> {
    /// Distinct cells among `cells` for the side's `n` Krosmasters, in Timeline order (R-B8).
    fn choose_deployment(
        &mut self,
        state: &MatchState<Blast>,
        side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell>;
    /// The slot (0 left, 1 right) for the revealed favor (R-B9).
    fn choose_favor_slot(&mut self, state: &MatchState<Blast>, side: usize, favor: usize) -> usize;
    /// The uid among `candidates` that acts next (R-B10, R-B11).
    fn choose_next(
        &mut self,
        state: &MatchState<Blast>,
        side: usize,
        candidates: &[usize],
    ) -> usize;
}

/// R-B30: +1, -1 or 0 damage from one combat die.
pub fn combat_delta(face: u8, advanced: bool) -> i32 {
    if face == CRITICAL || face == CRIT_DODGE || (advanced && face == DOFUS) {
        1
    } else if face == ARMOUR {
        -1
    } else {
        0
    }
}

/// Whether a dodge die shows Dodge once turned (R-B36, R-B38).
pub fn is_dodge(face: u8, advanced: bool) -> bool {
    face == DODGE || (advanced && (face == CRIT_DODGE || face == DOFUS))
}

/// R-B36, R-B37: free when every die shows Dodge, else tackled on a Lock, else grabbed.
pub fn dodge_outcome(faces: &[u8], advanced: bool) -> u8 {
    if faces.iter().all(|&f| is_dodge(f, advanced)) {
        FREE
    } else if faces.contains(&LOCK) {
        TACKLED
    } else {
        GRABBED
    }
}

/// P(+1), P(0), P(-1) of one combat die.
pub fn combat_odds(advanced: bool) -> (f64, f64, f64) {
    let plus = if advanced { 3.0 / 6.0 } else { 2.0 / 6.0 };
    (plus, 1.0 - plus - 1.0 / 6.0, 1.0 / 6.0)
}

/// Expected damage a combat die adds; `reroll`: a -1 is rolled again once.
pub fn expected_combat_delta(advanced: bool, reroll: bool) -> f64 {
    let (plus, _, minus) = combat_odds(advanced);
    let once = plus - minus;
    if reroll {
        once + minus * (once + 1.0)
    } else {
        once
    }
}

/// P(free), P(grabbed), P(tackled) of a dodge roll with `n` dice.
pub fn dodge_odds(n: i32, advanced: bool) -> (f64, f64, f64) {
    if n <= 0 {
        return (1.0, 0.0, 0.0);
    }
    let p = if advanced { 3.0 / 6.0 } else { 1.0 / 6.0 };
    // powf, not powi: Python's `float ** int` is C's pow, and the AIs compare these odds
    let free = f64::powf(p, f64::from(n));
    let no_lock = f64::powf(5.0 / 6.0, f64::from(n));
    (free, no_lock - free, 1.0 - no_lock)
}

/// One combat die for a damage that is not a spell's (Fire, bonus damage), no reroll.
pub fn combat_die(state: &mut MatchState<Blast>, roller: usize) -> i32 {
    let face = state.dice.roll();
    let delta = combat_delta(face, state.ruleset.opts.advanced);
    if state.full() {
        state.events.push(Event::Ruleset(BlastEvent::CombatRolled {
            turn: state.turn,
            uid: roller,
            faces: vec![face],
            delta,
        }));
    }
    delta
}

/// Dodge dice to walk off the mover's cell (R-B34-R-B37).
pub fn zone_dice(state: &MatchState<Blast>, mover: usize) -> i32 {
    let opts = &state.ruleset.opts;
    if !opts.tackle_zone {
        return 0;
    }
    let m = &state.fighters[mover];
    let enemies = state
        .board
        .neighbours(m.at())
        .iter()
        .filter_map(|&c| state.piece_at(c))
        .filter(|&p| {
            let p = &state.fighters[p];
            p.alive && p.side != m.side && p.kind == PieceKind::Krosmaster
        })
        .count() as i32;
    if enemies <= 1 || opts.per_enemy {
        enemies
    } else {
        2
    }
}

/// Players turns ending: the game ends at the end of the turn after which the deck is empty.
fn glyph_victory(state: &mut MatchState<Blast>) {
    let (a, b) = (state.rules.glyphs(0), state.rules.glyphs(1));
    if a == b {
        end_match(state, None, "glyph_draw");
    } else {
        end_match(state, Some(if a > b { 0 } else { 1 }), "glyphs");
    }
}

/// R-B10, R-B11: the fighters act once each, in the order the player chooses.
pub fn in_chosen_order(
    state: &mut MatchState<Blast>,
    side: usize,
    fighters: Vec<usize>,
    players: &mut Players<Blast>,
) {
    let mut remaining = fighters;
    while !remaining.is_empty() && !state.finished {
        let candidates: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&f| state.fighters[f].alive && state.fighters[f].cell >= 0)
            .collect();
        if candidates.is_empty() {
            return;
        }
        let mut uid = candidates[0];
        if candidates.len() > 1 {
            uid = players[side].choose_next(state, side, &candidates);
            assert!(
                candidates.contains(&uid),
                "{uid} is not one of the fighters still to act: {candidates:?}"
            );
        }
        remaining.retain(|&f| f != uid);
        character_turn(state, uid, players);
    }
}

impl MatchRules for Blast {
    type State = BlastState;
    type Event = BlastEvent;
    type Player = dyn BlastController;

    /// R-B9: the per-turn limits start afresh, then the top favor is revealed and placed.
    fn start_turn(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        let bs = &mut state.rules;
        bs.slot_used = [false; SLOTS];
        bs.bonus_used.clear();
        bs.rerolled.clear();
        bs.spell_bonus.clear();
        let Some(favor) = bs.deck.pop() else {
            return;
        };
        let slot = players[side].choose_favor_slot(state, side, favor);
        assert!(slot < SLOTS, "player {side} put a favor in slot {slot}");
        state.rules.slots[slot] = Some(favor);
        if state.full() {
            state.events.push(Event::Ruleset(BlastEvent::FavorRevealed {
                turn: state.turn,
                side,
                favor,
                slot,
            }));
        }
    }

    /// R-B10, R-B11: every Krosmaster once, then every Invocation in play once, in his order.
    fn play_characters(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        let krosmasters: Vec<usize> = state.timeline[side]
            .iter()
            .copied()
            .filter(|&f| state.fighters[f].alive)
            .collect();
        in_chosen_order(state, side, krosmasters, players);
        if state.finished {
            return;
        }
        let invocations: Vec<usize> = state
            .fighters
            .iter()
            .filter(|f| f.side == side && f.kind != PieceKind::Krosmaster && f.alive && f.cell >= 0)
            .map(|f| f.uid)
            .collect();
        in_chosen_order(state, side, invocations, players);
    }

    /// Brasier's unused bonus expires; after the last favor the glyph majority decides (R-B3).
    fn end_turn(state: &mut MatchState<Self>, side: usize) {
        state.rules.spell_bonus.clear();
        if state.summary() {
            let bs = &state.rules;
            let event = BlastEvent::GlyphCount {
                turn: state.turn,
                side,
                glyphs: (bs.glyphs(0), bs.glyphs(1)),
                favors_left: bs.deck.len(),
            };
            state.events.push(Event::Ruleset(event));
        }
        if state.rules.deck.is_empty() {
            glyph_victory(state);
        }
    }

    fn next_player(_state: &MatchState<Self>, side: usize) -> usize {
        1 - side
    }

    fn activation_started(state: &mut MatchState<Self>, fighter: usize) {
        holdings::start_of_activation(state, fighter);
    }

    fn activation_ended(state: &mut MatchState<Self>, fighter: usize) {
        holdings::end_of_activation(state, fighter);
        settle(state, &mut []); // a glyph trap's injury is an instant of its own
    }

    fn extra_actions(state: &MatchState<Self>, fighter: usize, actions: &mut Vec<Action>) {
        bonus::add_actions(state, fighter, actions);
    }

    fn perform_extra(state: &mut MatchState<Self>, fighter: usize, action: Action) {
        bonus::perform(state, fighter, action);
    }

    /// The dodge roll (R-B35-R-B39).
    fn may_leave(state: &mut MatchState<Self>, mover: usize) -> bool {
        let dice = zone_dice(state, mover);
        if dice == 0 {
            return true;
        }
        let faces: Vec<u8> = (0..dice).map(|_| state.dice.roll()).collect();
        let outcome = dodge_outcome(&faces, state.ruleset.opts.advanced);
        if state.full() {
            state.events.push(Event::Ruleset(BlastEvent::DodgeRolled {
                turn: state.turn,
                uid: mover,
                faces,
                outcome,
            }));
        }
        if outcome == FREE {
            return true;
        }
        let m = &mut state.fighters[mover];
        m.mp = 0;
        m.blocked = true;
        m.stats.times_blocked += 1;
        if outcome == TACKLED {
            m.ap = 0;
        }
        false
    }

    #[inline]
    fn enter_cells(state: &MatchState<Self>) -> CellSet {
        state.rules.enter_cells
    }

    fn on_enter(
        state: &mut MatchState<Self>,
        piece: usize,
        origin: Cell,
        cell: Cell,
        how: &'static str,
    ) {
        holdings::enter(state, piece, origin, cell, how, true);
    }

    fn glyphs(state: &MatchState<Self>, side: usize) -> Option<i32> {
        Some(state.rules.glyphs(side))
    }

    /// R-B26, R-B53: a marker received during the piece's own activation acts at once; otherwise
    /// at its next activation.
    fn add_marker(state: &mut MatchState<Self>, piece: usize, marker: Marker, amount: i32) {
        let p = &mut state.fighters[piece];
        if p.acting {
            match marker {
                Marker::PlusMp => p.mp += amount,
                Marker::MinusMp => p.mp = (p.mp - amount).max(0),
                Marker::PlusAp => p.ap += amount,
                Marker::MinusAp => p.ap = (p.ap - amount).max(0),
            }
        } else {
            match marker {
                Marker::PlusMp => p.plus_mp += amount,
                Marker::MinusMp => p.minus_mp = (p.minus_mp + amount).min(p.base_mp),
                Marker::PlusAp => p.plus_ap += amount,
                Marker::MinusAp => p.minus_ap = (p.minus_ap + amount).min(p.base_ap),
            }
        }
    }

    /// R-B30: the combat roll of a damaging spell plus the bonuses its damage gains.
    fn attack_roll(state: &mut MatchState<Self>, caster: usize, spell: &SpellSpec) -> i32 {
        if spell.kind != SpellKind::Attack || spell.amount <= 0 {
            return 0;
        }
        let advanced = state.ruleset.opts.advanced;
        let mut faces = vec![state.dice.roll()];
        let mut delta = combat_delta(faces[0], advanced);
        if delta < 0 {
            let (found, index) = holdings::reroll_source(state, caster);
            if found {
                let side = state.fighters[caster].side;
                state.rules.rerolled.push((caster, index));
                if index >= 0 {
                    state.rules.bonus_uses[side][index as usize] += 1;
                }
                faces.push(state.dice.roll());
                delta = combat_delta(faces[1], advanced);
            }
        }
        if state.full() {
            state.events.push(Event::Ruleset(BlastEvent::CombatRolled {
                turn: state.turn,
                uid: caster,
                faces,
                delta,
            }));
        }
        let pending = match state
            .rules
            .spell_bonus
            .iter()
            .position(|(u, _)| *u == caster)
        {
            Some(i) => state.rules.spell_bonus.remove(i).1,
            None => 0,
        };
        delta + pending + holdings::spell_damage_bonus(state, caster)
    }

    fn defence_roll(_state: &mut MatchState<Self>, _target: usize, _pierce: bool) -> i32 {
        0
    }

    fn on_scenery_destroyed(_state: &mut MatchState<Self>, _cell: usize, _kind: Scenery) {}

    fn on_kos(_state: &mut MatchState<Self>, _kos: &[usize], _players: &mut Players<Self>) {}

    /// R-B2: a player with at least half his Krosmasters KO loses at once; both at one instant
    /// is the `mutual_ko` option.
    fn check_victory(state: &mut MatchState<Self>) -> bool {
        if state.finished {
            return true;
        }
        let beaten = |side: usize| {
            let team = &state.timeline[side];
            let down = team.iter().filter(|&&f| !state.fighters[f].alive).count();
            !team.is_empty() && 2 * down >= team.len()
        };
        let (a, b) = (beaten(0), beaten(1));
        if a && b {
            let winner = if state.ruleset.opts.mutual_ko_active_loses {
                Some(1 - state.active_side)
            } else {
                None
            };
            end_match(state, winner, "mutual_ko");
        } else if a || b {
            end_match(state, Some(if a { 1 } else { 0 }), "ko");
        }
        state.finished
    }

    fn turn_limit_winner(state: &MatchState<Self>) -> Option<usize> {
        let (a, b) = (state.rules.glyphs(0), state.rules.glyphs(1));
        match a.cmp(&b) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
        }
    }
}

// ---------------------------------------------------------------------- expectations, for AIs

/// combat.py's `expected_spell_damage`: printed damage, the expected combat die (with a reroll if
/// the caster has one now), pending and passive bonuses, capped by the target's HP; a heal gives
/// the injuries it would remove.
pub fn expected_damage(
    state: &MatchState<Blast>,
    caster: usize,
    spell: &SpellSpec,
    target: usize,
) -> f64 {
    let t = &state.fighters[target];
    if spell.kind == SpellKind::Heal {
        return f64::from(spell.amount.min(t.injuries));
    }
    if spell.kind != SpellKind::Attack || spell.amount <= 0 {
        return 0.0;
    }
    let c = &state.fighters[caster];
    let reroll = holdings::reroll_source(state, caster).0;
    let mut bonus = state.rules.pending_spell_bonus(caster) + holdings::damage_bonus(state, c.side);
    if c.kind != PieceKind::Krosmaster {
        bonus = 0;
    }
    let base = spell.amount + bonus;
    let expected = f64::from(base) + expected_combat_delta(state.ruleset.opts.advanced, reroll);
    expected.min(f64::from(t.hp - t.injuries)).max(0.0)
}

/// The chance that walking off the mover's cell fails (ruleset.py's `leave_risk`).
pub fn leave_risk(state: &MatchState<Blast>, mover: usize) -> f64 {
    let dice = zone_dice(state, mover);
    if dice == 0 {
        0.0
    } else {
        1.0 - dodge_odds(dice, state.ruleset.opts.advanced).0
    }
}

/// The favor in `slot` (None when empty), for the AIs.
pub fn favor_in(state: &MatchState<Blast>, slot: usize) -> Option<&Favor> {
    state.rules.slots[slot].map(|f| &state.ruleset.favors[f])
}

/// view.py's `turns_left`: player turns `side` still has after the current one.
pub fn turns_left(state: &MatchState<Blast>, side: usize) -> usize {
    let left = state.rules.deck.len();
    if side == state.active_side {
        left / 2
    } else {
        left.div_ceil(2)
    }
}

/// The bonus action of a favor, for the AIs.
pub fn favor_action(state: &MatchState<Blast>, favor: usize) -> &BonusAction {
    &state.ruleset.favors[favor].action
}
