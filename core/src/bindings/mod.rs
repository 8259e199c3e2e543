//! Python bindings beyond lib.rs's: each file one boundary (a match or a batch, never an action).

mod match_play;

use pyo3::prelude::*;

/// Add this folder's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    match_play::register(m)
}
