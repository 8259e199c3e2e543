//! Decisions (krosbalance/ai): the registered AIs the core plays.

pub mod random;

pub use random::RandomAI;
