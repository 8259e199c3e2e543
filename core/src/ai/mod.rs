//! Decisions (krosbalance/ai): the registered AIs the core plays.

pub mod base;
pub mod blast;
pub mod casts;
pub mod context;
pub mod duel;
pub mod economy;
pub mod plan_search;
pub mod planner;
pub mod positions;
pub mod random;
pub mod rewards;
pub mod scoring;
pub mod search;
pub mod tension;
pub mod weights;

pub use random::RandomAI;
