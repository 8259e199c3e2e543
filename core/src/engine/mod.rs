//! The rules every Krosmaster game shares (krosbalance/engine): state, actions and their legality,
//! resolution, effects, dice, the same instant, the turn skeleton, events. What a ruleset decides
//! it asks through [`rules::MatchRules`].

pub mod combat;
pub mod dice;
pub mod effects;
pub mod events;
pub mod instant;
pub mod legal;
pub mod movement;
pub mod pieces;
pub mod rules;
pub mod state;
pub mod turn;
