//! The Duel Pack ruleset (krosbalance/rulesets/duel/ruleset.py, turn.py, actions.py): every hook
//! the engine calls. Lock and Dodge block with the loss of MP and AP (R-D24, R-D41), markers act at
//! the next activation (R-D22), the Critical and Armour rolls (R-D29, R-D32), picking up a token
//! (R-D25), revealing one at a turn start (R-D21), victory by KO (R-D42).

use crate::board::{Cell, CellSet};
use crate::content::{Element, PieceKind, Power, SpellSpec};
use crate::engine::dice::{ARMOUR, CRITICAL, DODGE, LOCK};
use crate::engine::events::Event;
use crate::engine::instant::end_match;
use crate::engine::rules::{Action, Controller, EXTRA, Marker, MatchRules, Players, Scenery};
use crate::engine::state::{Fighter, MatchState};
use crate::engine::turn::character_turn;
use crate::rulesets::duel::LEVELS;

/// R-D25: pick up the Duel Token on the active Krosmaster's cell (`EXTRA + 4`, as actions.py).
pub const PICK_TOKEN: u8 = EXTRA + 4;

/// One Duel Token (content/duel.py's `DuelTokenSpec`): its level and permanent bonuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelToken {
    pub id: String,
    pub level: i32,
    pub mp: i32,
    pub hp: i32,
    pub ap: i32,
    pub range: i32,
}

/// The Duel Pack's options the core reads (rulesets/duel/options.py).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelOptions {
    pub figures: usize,
    pub duel_level_bonus: i32,
    /// `draft = "tactical"` (else "plain").
    pub tactical: bool,
    pub draft_max_tokens: i32,
    pub draft_overshoot: bool,
    pub reveal_applies_this_turn: bool,
    pub neutral_critical_power: bool,
    /// `turn_limit_result = "hp"` (else "draw").
    pub turn_limit_hp: bool,
    pub bomb_armour_dice: i32,
    pub start_token_levels: Vec<i32>,
}

/// The ruleset object: its options and the token set in play (immutable during a match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duel {
    pub opts: DuelOptions,
    /// Every token of the set, in file order (tokens are indices into it).
    pub tokens: Vec<DuelToken>,
}

impl Duel {
    /// The tokens of one level, in file order (`DuelTokenSet.of_level`).
    pub fn of_level(&self, level: i32) -> Vec<usize> {
        (0..self.tokens.len())
            .filter(|&t| self.tokens[t].level == level)
            .collect()
    }
}

/// The Duel Pack's own match state (state.py's `DuelState`); tokens are indices into
/// [`Duel::tokens`], pieces uids, cells cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelState {
    pub duel_cells: CellSet,
    pub duel_level: i32,
    /// Per level, the face-down supply, top token last.
    pub piles: [Vec<usize>; LEVELS],
    pub face_up: [Option<usize>; LEVELS],
    /// The token on each cell (R-D19), and how many lie on the board.
    pub on_cells: Vec<Option<usize>>,
    pub n_on_cells: usize,
    /// Per uid, its face-down and its revealed tokens, in the order received.
    pub hidden: Vec<Vec<usize>>,
    pub shown: Vec<Vec<usize>>,
    pub pending: Vec<(usize, usize)>,
    pub placement_seed: u64,
    pub drafted: [i32; 2],
    pub picked: [i32; 2],
    pub revealed: [i32; 2],
    pub start_tokens: [Vec<usize>; 2],
}

impl DuelState {
    pub fn new(ruleset: &Duel, duel_cells: CellSet, n_cells: usize) -> Self {
        let pile = |l: usize| ruleset.of_level(l as i32 + 1);
        DuelState {
            duel_cells,
            duel_level: 0,
            piles: [pile(0), pile(1), pile(2), pile(3)],
            face_up: [None; LEVELS],
            on_cells: vec![None; n_cells],
            n_on_cells: 0,
            hidden: Vec::new(),
            shown: Vec::new(),
            pending: Vec::new(),
            placement_seed: 0,
            drafted: [0; 2],
            picked: [0; 2],
            revealed: [0; 2],
            start_tokens: [Vec::new(), Vec::new()],
        }
    }

    pub fn hidden_of(&self, uid: usize) -> &[usize] {
        self.hidden.get(uid).map_or(&[], Vec::as_slice)
    }

    pub fn shown_of(&self, uid: usize) -> &[usize] {
        self.shown.get(uid).map_or(&[], Vec::as_slice)
    }

    fn slot(list: &mut Vec<Vec<usize>>, uid: usize) -> &mut Vec<usize> {
        if list.len() <= uid {
            list.resize(uid + 1, Vec::new());
        }
        &mut list[uid]
    }

    pub fn hidden_mut(&mut self, uid: usize) -> &mut Vec<usize> {
        Self::slot(&mut self.hidden, uid)
    }

    pub fn shown_mut(&mut self, uid: usize) -> &mut Vec<usize> {
        Self::slot(&mut self.shown, uid)
    }

    pub fn token_on(&self, cell: Cell) -> Option<usize> {
        self.on_cells[usize::from(cell)]
    }

    /// R-D16: the player's Krosmaster levels plus their tokens' levels, less those held from the
    /// start (`DuelState.team_levels`).
    pub fn team_levels(&self, state: &MatchState<Duel>, side: usize) -> i32 {
        let tokens = &state.ruleset.tokens;
        let mut total = 0;
        for &f in &state.timeline[side] {
            total += state.fighters[f].level;
            total += self
                .hidden_of(f)
                .iter()
                .map(|&t| tokens[t].level)
                .sum::<i32>();
            total += self
                .shown_of(f)
                .iter()
                .map(|&t| tokens[t].level)
                .sum::<i32>();
        }
        total
            - self.start_tokens[side]
                .iter()
                .map(|&t| tokens[t].level)
                .sum::<i32>()
    }

    /// How many tokens the player's Krosmasters hold (face down, revealed).
    pub fn on_cards(&self, state: &MatchState<Duel>, side: usize) -> (usize, usize) {
        state.timeline[side].iter().fold((0, 0), |(d, u), &f| {
            (d + self.hidden_of(f).len(), u + self.shown_of(f).len())
        })
    }

    /// How many of the player's tokens held from the start are revealed.
    pub fn start_revealed(&self, state: &MatchState<Duel>, side: usize) -> usize {
        let shown: Vec<usize> = state.timeline[side]
            .iter()
            .flat_map(|&f| self.shown_of(f).iter().copied())
            .collect();
        self.start_tokens[side]
            .iter()
            .filter(|t| shown.contains(t))
            .count()
    }
}

/// The duel's events (rulesets/duel/events.py); tokens by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DuelEvent {
    TokenDrafted {
        turn: i32,
        side: usize,
        uid: usize,
        token: usize,
        face_up: bool,
    },
    TokenHeldFromStart {
        turn: i32,
        side: usize,
        uid: usize,
        token: usize,
    },
    TokenPlaced {
        turn: i32,
        side: usize,
        cell: i32,
        token: usize,
    },
    TokenRevealed {
        turn: i32,
        uid: usize,
        token: usize,
    },
    TokenPicked {
        turn: i32,
        uid: usize,
        cell: i32,
        token: usize,
        ap: i32,
    },
    DuelTurnEnded {
        turn: i32,
        side: usize,
        positions: Vec<(usize, usize, usize, i32, i32)>,
    },
}

/// One token a player may take in the draft (turn.py's `DraftChoice`): the top face-down token of
/// `level` (`token` None) or the face-up one beside that pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraftChoice {
    pub level: i32,
    pub token: Option<usize>,
}

/// A face-down token a player may reveal (turn.py's `RevealChoice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevealChoice {
    pub uid: usize,
    pub index: usize,
    pub token: usize,
}

/// What a Duel Pack player decides (turn.py's `DuelController`).
pub trait DuelController: Controller<Duel> {
    /// Distinct cells among `cells` for the side's `n` Krosmasters, in Timeline order (R-D18).
    fn choose_deployment(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        n: usize,
        cells: &[Cell],
    ) -> Vec<Cell>;
    /// The uids of `creatures` in the order they act (Arena's R-A31).
    fn order_creatures(
        &mut self,
        state: &MatchState<Duel>,
        summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize>;
    /// An index into `choices` (R-D16, R-D17).
    fn choose_duel_draft(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        choices: &[DraftChoice],
        budget: i32,
    ) -> usize;
    /// The uid among `candidates` that gets `token` (R-D36).
    fn choose_token_holder(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        token: usize,
        candidates: &[usize],
    ) -> usize;
    /// The duel cell among `cells` for a token of `level` drawn without looking (R-D19).
    fn choose_duel_cell(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        level: i32,
        cells: &[Cell],
    ) -> Cell;
    /// An index into `choices`, or -1 for none (R-D21).
    fn choose_reveal(
        &mut self,
        state: &MatchState<Duel>,
        side: usize,
        choices: &[RevealChoice],
    ) -> i64;
}

/// Enemy characters adjacent to the mover that may lock it (arena/rolls.py's `adjacent_lockers`).
pub fn adjacent_lockers<R: MatchRules>(state: &MatchState<R>, mover: &Fighter) -> Vec<usize> {
    state
        .board
        .neighbours(mover.at())
        .iter()
        .filter_map(|&c| state.piece_at(c))
        .filter(|&p| {
            let p = &state.fighters[p];
            p.alive && p.team != mover.team && p.is_character() && !p.has(Power::Tiny)
        })
        .collect()
}

#[inline]
fn dice_for(f: &Fighter, power: Power) -> i32 {
    if f.has(power) { 2 } else { 1 }
}

/// Dice of a spell's Critical roll (checks.py's `critical_dice`, R-D32).
pub fn critical_dice(opts: &DuelOptions, caster: &Fighter, spell: &SpellSpec) -> i32 {
    if spell.element == Element::Neutral && !opts.neutral_critical_power {
        1
    } else {
        dice_for(caster, Power::Critical)
    }
}

/// R-D25: the Krosmaster's level + the token's level, in AP.
pub fn pick_cost(fighter: &Fighter, level: i32) -> i32 {
    fighter.level + level
}

fn can_pick(state: &MatchState<Duel>, f: &Fighter) -> bool {
    if f.kind != PieceKind::Krosmaster || !f.alive || f.cell < 0 {
        return false;
    }
    state
        .rules
        .token_on(f.at())
        .is_some_and(|t| f.ap >= pick_cost(f, state.ruleset.tokens[t].level))
}

/// The face-down tokens of the player's Krosmasters in play, Timeline order.
pub fn reveal_choices(state: &MatchState<Duel>, side: usize) -> Vec<RevealChoice> {
    let mut out = Vec::new();
    for &uid in &state.timeline[side] {
        let f = &state.fighters[uid];
        if f.alive && f.cell >= 0 {
            for (index, &token) in state.rules.hidden_of(uid).iter().enumerate() {
                out.push(RevealChoice { uid, index, token });
            }
        }
    }
    out
}

/// Turn a Krosmaster's face-down token face up with its permanent bonuses (R-D21).
pub fn reveal(state: &mut MatchState<Duel>, uid: usize, index: usize) {
    let token = state.rules.hidden_mut(uid).remove(index);
    state.rules.shown_mut(uid).push(token);
    let side = state.fighters[uid].side;
    state.rules.revealed[side] += 1;
    let t = state.ruleset.tokens[token].clone();
    let applies = state.ruleset.opts.reveal_applies_this_turn;
    let f = &mut state.fighters[uid];
    f.hp += t.hp;
    f.max_range_bonus += t.range;
    if applies {
        f.base_mp += t.mp;
        f.base_ap += t.ap;
    } else if t.mp != 0 || t.ap != 0 {
        state.rules.pending.push((uid, token));
    }
    if state.full() {
        state.events.push(Event::Ruleset(DuelEvent::TokenRevealed {
            turn: state.turn,
            uid,
            token,
        }));
    }
}

/// The summoner's creatures in play, in the order its player chooses (Arena's R-A31).
pub(crate) fn creature_order(
    state: &MatchState<Duel>,
    summoner: usize,
    players: &mut Players<Duel>,
) -> Vec<usize> {
    let creatures: Vec<usize> = state.fighters[summoner]
        .summons
        .iter()
        .copied()
        .filter(|&t| {
            let t = &state.fighters[t];
            t.alive && t.kind == PieceKind::Creature
        })
        .collect();
    if creatures.len() < 2 {
        return creatures;
    }
    let order = players[state.active_side].order_creatures(state, summoner, &creatures);
    let (mut a, mut b) = (order.clone(), creatures.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(
        a, b,
        "creature order {order:?} is not an order of {creatures:?}"
    );
    order
}

impl MatchRules for Duel {
    type State = DuelState;
    type Event = DuelEvent;
    type Player = dyn DuelController;

    /// R-D21: the player may reveal one face-down token (no tension roll, no GG).
    fn start_turn(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        let choices = reveal_choices(state, side);
        if choices.is_empty() {
            return;
        }
        let index = players[side].choose_reveal(state, side, &choices);
        if index == -1 {
            return;
        }
        assert!(
            (0..choices.len() as i64).contains(&index),
            "player {side} revealed token {index} of {}",
            choices.len()
        );
        let choice = choices[index as usize];
        reveal(state, choice.uid, choice.index);
    }

    /// R-D40: Arena's Timeline, each Krosmaster followed by its creatures.
    fn play_characters(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>) {
        let line = state.timeline[side].clone();
        for krosmaster in line {
            if state.finished {
                return;
            }
            if !state.fighters[krosmaster].alive {
                continue;
            }
            character_turn(state, krosmaster, players);
            if !state.fighters[krosmaster].summons.is_empty() {
                for token in creature_order(state, krosmaster, players) {
                    if state.finished {
                        return;
                    }
                    if state.fighters[token].alive {
                        character_turn(state, token, players);
                    }
                }
            }
        }
    }

    /// A held-back MP/AP bonus counts from now on; the turn end is recorded.
    fn end_turn(state: &mut MatchState<Self>, side: usize) {
        let pending = std::mem::take(&mut state.rules.pending);
        for (uid, token) in pending {
            let (mp, ap) = {
                let t = &state.ruleset.tokens[token];
                (t.mp, t.ap)
            };
            let f = &mut state.fighters[uid];
            f.base_mp += mp;
            f.base_ap += ap;
        }
        if state.summary() {
            let positions = crate::engine::pieces::positions(state);
            state.events.push(Event::Ruleset(DuelEvent::DuelTurnEnded {
                turn: state.turn,
                side,
                positions,
            }));
        }
    }

    fn next_player(_state: &MatchState<Self>, side: usize) -> usize {
        1 - side
    }

    fn extra_actions(state: &MatchState<Self>, uid: usize, actions: &mut Vec<Action>) {
        let f = &state.fighters[uid];
        if state.rules.n_on_cells > 0 && can_pick(state, f) {
            actions.push(Action::new(PICK_TOKEN, -1, f.cell));
        }
    }

    /// R-D25: pay and take the token face down onto the card.
    fn perform_extra(state: &mut MatchState<Self>, uid: usize, action: Action) {
        assert_eq!(action.kind, PICK_TOKEN, "a duel has no action {action:?}");
        let cell = state.fighters[uid].at();
        let token = state.rules.on_cells[usize::from(cell)]
            .take()
            .expect("a token on the cell");
        state.rules.n_on_cells -= 1;
        let cost = pick_cost(&state.fighters[uid], state.ruleset.tokens[token].level);
        state.fighters[uid].ap -= cost;
        state.rules.hidden_mut(uid).push(token);
        let side = state.fighters[uid].side;
        state.rules.picked[side] += 1;
        if state.full() {
            state.events.push(Event::Ruleset(DuelEvent::TokenPicked {
                turn: state.turn,
                uid,
                cell: i32::from(cell),
                token,
                ap: cost,
            }));
        }
    }

    /// R-D24, R-D41: each adjacent enemy character rolls Lock, the mover Dodge against it; a block
    /// takes all the mover's MP and AP.
    fn may_leave(state: &mut MatchState<Self>, mover: usize) -> bool {
        if state.fighters[mover].has(Power::Tiny) {
            return true;
        }
        for locker in adjacent_lockers(state, &state.fighters[mover]) {
            let n = dice_for(&state.fighters[locker], Power::Lock);
            let (lock, _) = state.dice.count_successes(n, LOCK);
            let mut dodge = 0;
            if lock != 0 {
                let n = dice_for(&state.fighters[mover], Power::Dodge);
                dodge = state.dice.count_successes(n, DODGE).0;
            }
            let blocked = lock > dodge;
            if state.full() {
                state.events.push(Event::LockRolled {
                    turn: state.turn,
                    mover,
                    locker,
                    lock,
                    dodge,
                    blocked,
                });
            }
            if blocked {
                let m = &mut state.fighters[mover];
                m.mp = 0;
                m.ap = 0;
                m.blocked = true;
                m.stats.times_blocked += 1;
                return false;
            }
        }
        true
    }

    /// R-D22: markers act at the piece's next activation; minus markers never exceed its MP/AP.
    fn add_marker(state: &mut MatchState<Self>, piece: usize, marker: Marker, amount: i32) {
        let p = &mut state.fighters[piece];
        match marker {
            Marker::PlusMp => p.plus_mp += amount,
            Marker::MinusMp => p.minus_mp = (p.minus_mp + amount).min(p.base_mp),
            Marker::PlusAp => p.plus_ap += amount,
            Marker::MinusAp => p.minus_ap = (p.minus_ap + amount).min(p.base_ap),
        }
    }

    /// R-D29 step 4: one Critical roll for the whole spell (R-D32: `critical_dice`).
    fn attack_roll(state: &mut MatchState<Self>, caster: usize, spell: &SpellSpec) -> i32 {
        let n = critical_dice(&state.ruleset.opts, &state.fighters[caster], spell);
        let (successes, faces) = state.dice.count_successes(n, CRITICAL);
        if state.full() {
            state.events.push(Event::DiceRolled {
                turn: state.turn,
                uid: caster,
                roll: "critical",
                faces,
                successes,
            });
        }
        successes
    }

    /// R-D29 step 5: the target's Armour roll; Pierces Armour removes a die; a bomb rolls
    /// `bomb_armour_dice`.
    fn defence_roll(state: &mut MatchState<Self>, target: usize, pierce: bool) -> i32 {
        let t = &state.fighters[target];
        let mut n = if t.kind == PieceKind::Bomb {
            state.ruleset.opts.bomb_armour_dice
        } else {
            dice_for(t, Power::Armour)
        };
        if pierce {
            n -= 1;
        }
        if n <= 0 {
            return 0;
        }
        let (successes, faces) = state.dice.count_successes(n, ARMOUR);
        if state.full() {
            state.events.push(Event::DiceRolled {
                turn: state.turn,
                uid: target,
                roll: "armour",
                faces,
                successes,
            });
        }
        successes
    }

    fn on_scenery_destroyed(_state: &mut MatchState<Self>, _cell: usize, _kind: Scenery) {}

    fn on_kos(_state: &mut MatchState<Self>, _kos: &[usize], _players: &mut Players<Self>) {}

    /// R-D42: the player who alone still has a Krosmaster in play wins; both KO'd is a draw.
    fn check_victory(state: &mut MatchState<Self>) -> bool {
        if state.finished {
            return true;
        }
        let standing = |side: usize| {
            state.timeline[side].iter().any(|&f| {
                let f = &state.fighters[f];
                f.alive && f.kind == PieceKind::Krosmaster
            })
        };
        let (a, b) = (standing(0), standing(1));
        if a != b {
            end_match(state, Some(if a { 0 } else { 1 }), "last_standing");
        } else if !a {
            end_match(state, None, "mutual_ko");
        }
        state.finished
    }

    /// `draw`, or under `hp` the player whose Krosmasters keep more HP in total.
    fn turn_limit_winner(state: &MatchState<Self>) -> Option<usize> {
        if !state.ruleset.opts.turn_limit_hp {
            return None;
        }
        let left = |side: usize| -> i32 {
            state.timeline[side]
                .iter()
                .map(|&f| &state.fighters[f])
                .filter(|f| f.alive)
                .map(|f| (f.hp - f.injuries).max(0))
                .sum()
        };
        let (a, b) = (left(0), left(1));
        if a == b {
            None
        } else if a > b {
            Some(0)
        } else {
            Some(1)
        }
    }
}
