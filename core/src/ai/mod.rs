//! Decisions (krosbalance/ai): the registered AIs the core plays.

pub mod random;
pub mod rewards;
pub mod scoring;

pub use random::RandomAI;
