//! Random streams identical to the reference's numpy streams.
//!
//! The reference seeds everything from `np.random.SeedSequence` (a match's streams are children of
//! `SeedSequence(seed)`: set-up, dice, one per AI, pregame; play.py's `STREAMS`) and draws through
//! `np.random.default_rng(...)`, a `Generator` over `PCG64`. Dice and AI tie-breaks never share a
//! stream. This module repeats those three pieces so the core draws the same numbers from the same
//! seed; the Python suite compares long streams against numpy itself (tests/core/test_rng.py).

mod generator;
mod pcg64;
mod seed_sequence;

pub use generator::Generator;
pub use pcg64::{Pcg64, Pcg64State};
pub use seed_sequence::{POOL_SIZE, SeedSequence, int_words};
