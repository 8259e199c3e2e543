//! Krosmaster Blast (krosbalance/rulesets/blast): two Krosmasters a side, glyph cells, Krosmic
//! Favors, Divine Challenges, special terrain, a one-die combat roll and an optional tackle zone.
//! `cards.rs` the cards and options as they cross the boundary (content/blast.py, options.py);
//! `ruleset.rs` the state, the events and every hook the engine calls (ruleset.py, turn.py,
//! rolls.py, combat.py); `holdings.rs` glyphs, passives and terrain (glyphs.py, passives.py,
//! terrain.py); `bonus.rs` the favors' and active bonuses' actions (actions.py, bonus.py);
//! `pregame.rs` the set-up and deployment; `play.rs` a match from specs to its end.

pub mod bonus;
pub mod cards;
pub mod holdings;
pub mod play;
pub mod pregame;
pub mod ruleset;

pub use cards::{
    BlastOptions, BlastPower, BonusAction, BonusEffect, BonusTarget, Challenge, ChallengeBonus,
    Favor, Passive,
};
pub use ruleset::{Blast, BlastController, BlastEvent, BlastState};
