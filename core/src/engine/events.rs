//! Typed events (krosbalance/engine/events.py): the language of the golden transcripts. A ruleset's
//! own events ride in [`Event::Ruleset`]. Recording levels: none, summary, full.

pub const NONE: u8 = 0;
pub const SUMMARY: u8 = 1;
pub const FULL: u8 = 2;

/// One event; `turn` is the game turn it happened in. Names (spells, characters) are indices into
/// the match's content, turned into strings at the boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<X> {
    TurnStarted {
        turn: i32,
        side: usize,
    },
    CharacterTurnStarted {
        turn: i32,
        uid: usize,
        spec: usize,
        mp: i32,
        ap: i32,
    },
    Moved {
        turn: i32,
        uid: usize,
        origin: i32,
        destination: i32,
        how: &'static str,
    },
    LockRolled {
        turn: i32,
        mover: usize,
        locker: usize,
        lock: i32,
        dodge: i32,
        blocked: bool,
    },
    SpellCast {
        turn: i32,
        uid: usize,
        spell: crate::content::SpellRef,
        target: i32,
    },
    DiceRolled {
        turn: i32,
        uid: usize,
        roll: &'static str,
        faces: Vec<u8>,
        successes: i32,
    },
    Damaged {
        turn: i32,
        source: i64,
        target: usize,
        amount: i32,
        element: usize,
    },
    Healed {
        turn: i32,
        source: usize,
        target: usize,
        amount: i32,
    },
    KnockedOut {
        turn: i32,
        uid: usize,
        by: i64,
    },
    Summoned {
        turn: i32,
        summoner: usize,
        uid: usize,
        spec: usize,
        cell: i32,
    },
    MatchEnded {
        turn: i32,
        winner: i64,
        reason: &'static str,
    },
    /// An event of the ruleset in play.
    Ruleset(X),
}
