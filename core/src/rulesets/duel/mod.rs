//! The Duel Pack (krosbalance/rulesets/duel): 1v1 and 2v2 duels with Duel Tokens instead of GG,
//! kamas and tension. `ruleset.rs` holds every hook the engine calls (ruleset.py, turn.py,
//! actions.py); `pregame.rs` the set-up, the draft, deployment and the tokens on duel cells
//! (pregame.py). The token set crosses the boundary loaded (`DuelToken`), as every spec does.

pub mod play;
pub mod pregame;
pub mod ruleset;

pub use ruleset::{Duel, DuelController, DuelEvent, DuelOptions, DuelState, DuelToken, PICK_TOKEN};

/// Duel Token levels (R-D4): piles are indexed `level - 1`.
pub const LEVELS: usize = 4;
