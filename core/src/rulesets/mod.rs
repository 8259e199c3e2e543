//! What differs between games (krosbalance/rulesets): one module per ruleset.

pub mod arena;
pub mod blast;
pub mod duel;
