//! The ruleset seam (krosbalance/engine/rules.py): the hooks the engine calls, as a trait with the
//! state in play. A ruleset is a type (its options) with its own state type and event type; every
//! hook is a static call on `MatchState<Self>`, so the engine never looks a ruleset up at run time.

use crate::board::{Cell, CellSet};
use crate::content::SpellSpec;
use crate::engine::legal::LegalActions;
use crate::engine::state::MatchState;

/// Action kinds of the engine; a ruleset adds kinds from [`EXTRA`] on.
pub const END: u8 = 0;
pub const MOVE: u8 = 1;
pub const CAST: u8 = 2;
pub const EXTRA: u8 = 3;

/// One decision of the active character (engine/legal.py's `Action`): -1 where unused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub kind: u8,
    pub spell: i32,
    pub target: i32,
}

impl Action {
    pub const END_TURN: Action = Action {
        kind: END,
        spell: -1,
        target: -1,
    };

    pub fn new(kind: u8, spell: i32, target: i32) -> Self {
        Action {
            kind,
            spell,
            target,
        }
    }
}

/// The four kinds of +/- MP/AP markers (R-A33).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    PlusMp,
    MinusMp,
    PlusAp,
    MinusAp,
}

/// Scenery kinds under `scenery_destruction` (R-A123-R-A127), the index of their HP and loot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenery {
    Tree = 0,
    Bush = 1,
    Crate = 2,
}

/// What the engine asks of a player (engine/turn.py's `Controller`). `legal` is the reference's
/// `legal_actions` list, in its order; the answer is an index into it.
pub trait Controller<R: MatchRules> {
    fn choose_action(&mut self, state: &MatchState<R>, legal: &[Action]) -> usize;
    /// The action to take among `legal`: by default the one [`Controller::choose_action`] picks in
    /// the whole list; a controller that only asks whether its own choice is legal overrides this
    /// and leaves the list unbuilt (the same action either way).
    fn decide_action(&mut self, state: &MatchState<R>, legal: &mut LegalActions<'_, R>) -> Action {
        let list = legal.all();
        list[self.choose_action(state, list)]
    }
    /// The order of `n` triggers that fire together (indices 0..n).
    fn order_triggers(&mut self, state: &MatchState<R>, n: usize) -> Vec<usize>;
}

/// Every seat's player, indexed by seat (empty: nobody is attached, e.g. a search's copy of a
/// match, and a choice is the ruleset's default policy).
pub type Players<R> = [Box<<R as MatchRules>::Player>];

/// The in-match half of a ruleset: the hooks of engine/rules.py's `MatchRules`.
pub trait MatchRules: Sized + std::fmt::Debug {
    type State: Clone + std::fmt::Debug;
    type Event: Clone + std::fmt::Debug + PartialEq + Eq;
    /// The players this ruleset asks (its controller protocol).
    type Player: Controller<Self> + ?Sized;

    fn start_turn(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>);
    fn play_characters(state: &mut MatchState<Self>, side: usize, players: &mut Players<Self>);
    fn end_turn(state: &mut MatchState<Self>, side: usize);
    fn next_player(state: &MatchState<Self>, side: usize) -> usize;

    fn extra_actions(
        state: &MatchState<Self>,
        fighter: usize,
        actions: &mut Vec<crate::engine::rules::Action>,
    );
    fn perform_extra(state: &mut MatchState<Self>, fighter: usize, action: Action);

    fn may_leave(state: &mut MatchState<Self>, mover: usize) -> bool;
    fn add_marker(state: &mut MatchState<Self>, piece: usize, marker: Marker, amount: i32);
    fn attack_roll(state: &mut MatchState<Self>, caster: usize, spell: &SpellSpec) -> i32;
    fn defence_roll(state: &mut MatchState<Self>, target: usize, pierce: bool) -> i32;
    fn on_scenery_destroyed(state: &mut MatchState<Self>, cell: usize, kind: Scenery);

    /// What the caster's ruleset holdings add to one cast: damage to each target and Lifesteal
    /// (Arena's Demonic Rewards, R-A145); `consume` uses one-shot bonuses up.
    fn spell_bonus(
        _state: &mut MatchState<Self>,
        _caster: usize,
        _spell: &SpellSpec,
        _consume: bool,
    ) -> (i32, bool) {
        (0, false)
    }

    /// The rest of a character's preliminary phase, before its MP and AP are set (R-A32).
    fn preliminary_phase(_state: &mut MatchState<Self>, _fighter: usize) {}

    /// A character starts acting, its MP and AP set from its markers (after
    /// `CharacterTurnStarted`; Blast's start-of-activation passives).
    fn activation_started(_state: &mut MatchState<Self>, _fighter: usize) {}

    /// A character's end phase is over (before `state.active` is cleared).
    fn activation_ended(_state: &mut MatchState<Self>, _fighter: usize) {}

    /// Cells whose entering calls [`MatchRules::on_enter`] (the reference's `state.enter_cells`:
    /// Blast's glyphs and tiles, kept in its own state; none in Arena and the Duel Pack).
    #[inline]
    fn enter_cells(_state: &MatchState<Self>) -> CellSet {
        CellSet::default()
    }

    /// A piece entered `cell` (a cell of `enter_cells`) from `origin` by walking or by a
    /// special movement (`how` as in `Event::Moved`), after any trap there has sprung (Blast's
    /// glyphs and terrain tiles; no Arena or Duel cell is one).
    fn on_enter(
        _state: &mut MatchState<Self>,
        _piece: usize,
        _origin: Cell,
        _cell: Cell,
        _how: &'static str,
    ) {
    }

    /// The glyph cells a side controls, for Blast's `minus_marker_if_glyphs` (None: the ruleset
    /// has no glyphs, and the effect does nothing).
    fn glyphs(_state: &MatchState<Self>, _side: usize) -> Option<i32> {
        None
    }

    fn on_kos(state: &mut MatchState<Self>, kos: &[usize], players: &mut Players<Self>);
    fn check_victory(state: &mut MatchState<Self>) -> bool;
    fn turn_limit_winner(state: &MatchState<Self>) -> Option<usize>;
}
