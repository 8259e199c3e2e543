//! Python bindings beyond lib.rs's: each file one boundary (a match or a batch; scenario.rs
//! one step of a rule test's hand-built position, for the kit's lockstep, with each ruleset's
//! part in scenario_arena.rs, scenario_duel.rs, scenario_blast.rs).

mod blast_play;
mod convert;
mod duel_play;
mod match_play;
mod scenario;
mod scenario_arena;
mod scenario_blast;
mod scenario_duel;

use pyo3::prelude::*;

/// Add this folder's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    match_play::register(m)?;
    duel_play::register(m)?;
    blast_play::register(m)?;
    scenario_arena::register(m)?;
    scenario_duel::register(m)?;
    scenario_blast::register(m)
}
