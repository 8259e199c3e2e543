//! One Duel Pack match played in the core (`play_duel_match`): loaded specs in (the teams'
//! `CharacterSpec`s, the summonable pieces, the punch when the option gives it, the Duel Token
//! set's `DuelTokenSpec`s, the `DuelOptions` object, the core's `Board` and its duel cells), the
//! result, the duel's values and the event log out as plain Python data.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{
    RecordClasses, RulesetEvents, engine_options, fighter_record, fighter_row, load_content,
    match_to_py, plant_engine_divergence, positions_to_py,
};
use super::match_play::{get, record_level};
use crate::PyBoard;
use crate::engine::events::Event;
use crate::engine::state::{EngineOptions, MatchState};
use crate::rulesets::duel::play::{DuelMatch, play_duel};
use crate::rulesets::duel::{Duel, DuelEvent, DuelOptions, DuelToken};

/// The duel's options (rulesets/duel/options.py): a match's, and a scenario's (scenario_duel.rs).
pub(super) fn options_of(opts: &Bound<'_, PyAny>) -> PyResult<(DuelOptions, EngineOptions)> {
    let engine = engine_options(opts)?;
    let duel = DuelOptions {
        figures: get(opts, "figures")?,
        duel_level_bonus: get(opts, "duel_level_bonus")?,
        tactical: get::<String>(opts, "draft")? == "tactical",
        draft_max_tokens: get(opts, "draft_max_tokens")?,
        draft_overshoot: get(opts, "draft_overshoot")?,
        reveal_applies_this_turn: get(opts, "reveal_applies_this_turn")?,
        neutral_critical_power: get(opts, "neutral_critical_power")?,
        turn_limit_hp: get::<String>(opts, "turn_limit_result")? == "hp",
        bomb_armour_dice: get(opts, "bomb_armour_dice")?,
        start_token_levels: get(opts, "start_token_levels")?,
    };
    Ok((duel, engine))
}

/// One Duel Token's card as the loader built it.
pub(super) fn token_of(obj: &Bound<'_, PyAny>) -> PyResult<DuelToken> {
    Ok(DuelToken {
        id: get(obj, "id")?,
        level: get(obj, "level")?,
        mp: get(obj, "mp")?,
        hp: get(obj, "hp")?,
        ap: get(obj, "ap")?,
        range: get(obj, "range")?,
    })
}

/// Play one duel in the core.
///
/// `teams`: two lists of loaded `CharacterSpec`s; `pieces`: the summonable specs by id; `punch`:
/// Arena's punch `SpellSpec` under the `punch` option, else None; `board`: the core's `Board`;
/// `duel_cells`: the board's duel cells (a mask); `options`: the `DuelOptions`; `tokens`: the
/// token set's `DuelTokenSpec`s in file order; `ais`: two AI names; `plant`: test-only, alter the
/// `plant`-th event as a recording bug would. Returns a dict: `winner`, `end_reason`, `turns`,
/// `first_player`, `play_order`, `teams`, the duel's result values, `fighters` (rows with the
/// duel's columns, Krosmasters first) and `events` (`(kind, fields)` pairs).
#[pyfunction]
#[pyo3(signature = (teams, pieces, punch, board, duel_cells, options, tokens, ais, seed, record = "none", plant = None))]
#[allow(clippy::too_many_arguments)]
fn play_duel_match<'py>(
    py: Python<'py>,
    teams: Vec<Vec<Bound<'py, PyAny>>>,
    pieces: &Bound<'py, PyDict>,
    punch: Option<Bound<'py, PyAny>>,
    board: PyRef<'py, PyBoard>,
    duel_cells: &Bound<'py, PyAny>,
    options: &Bound<'py, PyAny>,
    tokens: Vec<Bound<'py, PyAny>>,
    ais: Vec<String>,
    seed: u128,
    record: &str,
    plant: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let prepared = DuelPrepared::new(
        teams, pieces, punch, board, duel_cells, options, tokens, ais,
    )?;
    prepared.play(py, seed, record, plant, None)
}

/// A duel's shape, converted once (`play_duel_match`'s arguments but the seed): the duels of one
/// shape pay for the specs' crossing once, not once per seed (`native_duel.prepare_duel`).
#[pyclass(name = "DuelPrepared", module = "krosbalance_core", frozen)]
pub struct DuelPrepared {
    spec: DuelMatch,
}

#[pymethods]
impl DuelPrepared {
    /// `play_duel_match`'s arguments but `seed`, `record` and `plant`.
    #[new]
    #[pyo3(signature = (teams, pieces, punch, board, duel_cells, options, tokens, ais))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        teams: Vec<Vec<Bound<'py, PyAny>>>,
        pieces: &Bound<'py, PyDict>,
        punch: Option<Bound<'py, PyAny>>,
        board: PyRef<'py, PyBoard>,
        duel_cells: &Bound<'py, PyAny>,
        options: &Bound<'py, PyAny>,
        tokens: Vec<Bound<'py, PyAny>>,
        ais: Vec<String>,
    ) -> PyResult<Self> {
        let loaded = load_content(&teams, pieces, punch.as_ref())?;
        let (duel, engine) = options_of(options)?;
        let tokens = tokens.iter().map(token_of).collect::<PyResult<Vec<_>>>()?;
        let spec = DuelMatch {
            board: board.inner.clone(),
            duel_cells: crate::mask_from_py(duel_cells, "duel_cells")?,
            content: Arc::new(loaded.content),
            ruleset: Arc::new(Duel { opts: duel, tokens }),
            opts: engine,
            teams: loaded.teams,
            ais,
            seed: 0,
            record: 0,
        };
        Ok(DuelPrepared { spec })
    }

    /// The duel of this shape with `seed`: `play_duel_match`'s dict; with `records` (the
    /// reference's `(FighterRecord, FighterStats)` classes) its fighters are built as records
    /// (their `values` the duel's fighter columns), not row dicts.
    #[pyo3(signature = (seed, record = "none", plant = None, records = None))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        seed: u128,
        record: &str,
        plant: Option<usize>,
        records: Option<RecordClasses<'py>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = DuelMatch {
            seed,
            record: record_level(record)?,
            ..self.spec.clone()
        };
        let mut state = py
            .detach(|| play_duel(&spec))
            .map_err(PyValueError::new_err)?;
        if let Some(event) = plant.and_then(|k| state.events.get_mut(k)) {
            plant_divergence(event);
        }
        result_to_py(py, &state, records.as_ref())
    }
}

/// Test-only: one field of an event changed the way a bug would change it.
fn plant_divergence(event: &mut Event<DuelEvent>) {
    if plant_engine_divergence(event) {
        return;
    }
    if let Event::Ruleset(
        DuelEvent::TokenDrafted { turn, .. }
        | DuelEvent::TokenHeldFromStart { turn, .. }
        | DuelEvent::TokenPlaced { turn, .. }
        | DuelEvent::TokenRevealed { turn, .. }
        | DuelEvent::TokenPicked { turn, .. }
        | DuelEvent::DuelTurnEnded { turn, .. },
    ) = event
    {
        *turn += 1;
    }
}

fn result_to_py<'py>(
    py: Python<'py>,
    state: &MatchState<Duel>,
    records: Option<&RecordClasses<'py>>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = match_to_py(py, state, |py, state, uid| match records {
        Some(classes) => {
            let values = PyDict::new(py);
            put_fighter_columns(&values, state, uid)?;
            fighter_record(py, state, uid, classes, values)
        }
        None => {
            let row = fighter_row(py, state, uid)?;
            put_fighter_columns(&row, state, uid)?;
            Ok(row.into_any())
        }
    })?;
    let ds = &state.rules;
    let tokens = &state.ruleset.tokens;
    out.set_item("duel_level", ds.duel_level)?;
    out.set_item("tokens_left_on_cells", ds.n_on_cells)?;
    out.set_item("drafted", ds.drafted)?;
    out.set_item("picked", ds.picked)?;
    out.set_item("revealed", ds.revealed)?;
    let both = |f: &dyn Fn(usize) -> usize| (f(0), f(1));
    out.set_item(
        "tokens_held",
        both(&|s| {
            let (d, u) = ds.on_cards(state, s);
            d + u
        }),
    )?;
    out.set_item("held_from_start", both(&|s| ds.start_tokens[s].len()))?;
    out.set_item("start_revealed", both(&|s| ds.start_revealed(state, s)))?;
    let levels: Vec<String> = ds.start_tokens[0]
        .iter()
        .map(|&t| tokens[t].level.to_string())
        .collect();
    out.set_item("start_token_levels", levels.join(","))?;
    Ok(out)
}

/// The duel's fighter columns (`FIGHTER_COLUMNS`) of one fighter, put in its row dict (beside
/// engine/results.py's `FighterRecord.as_row()`) or in its record's `values`.
fn put_fighter_columns(
    row: &Bound<'_, PyDict>,
    state: &MatchState<Duel>,
    uid: usize,
) -> PyResult<()> {
    let f = &state.fighters[uid];
    let ds = &state.rules;
    let (hidden, shown) = (ds.hidden_of(uid), ds.shown_of(uid));
    row.set_item("tokens_face_down", hidden.len())?;
    row.set_item("tokens_revealed", shown.len())?;
    let start = &ds.start_tokens[f.side];
    row.set_item(
        "held_from_start",
        hidden
            .iter()
            .chain(shown.iter())
            .filter(|t| start.contains(t))
            .count(),
    )?;
    Ok(())
}

impl RulesetEvents for Duel {
    fn ruleset_event<'py>(
        py: Python<'py>,
        state: &MatchState<Self>,
        event: &DuelEvent,
        d: &Bound<'py, PyDict>,
    ) -> PyResult<&'static str> {
        let content = &state.content;
        let tokens = &state.ruleset.tokens;
        Ok(match event {
            DuelEvent::TokenDrafted {
                turn,
                side,
                uid,
                token,
                face_up,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("uid", uid)?;
                d.set_item("token", &tokens[*token].id)?;
                d.set_item("level", tokens[*token].level)?;
                d.set_item("face_up", face_up)?;
                "token_drafted"
            }
            DuelEvent::TokenHeldFromStart {
                turn,
                side,
                uid,
                token,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("uid", uid)?;
                d.set_item("token", &tokens[*token].id)?;
                d.set_item("level", tokens[*token].level)?;
                "token_held_from_start"
            }
            DuelEvent::TokenPlaced {
                turn,
                side,
                cell,
                token,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("cell", cell)?;
                d.set_item("token", &tokens[*token].id)?;
                d.set_item("level", tokens[*token].level)?;
                "token_placed"
            }
            DuelEvent::TokenRevealed { turn, uid, token } => {
                let t = &tokens[*token];
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("token", &t.id)?;
                d.set_item("mp", t.mp)?;
                d.set_item("hp", t.hp)?;
                d.set_item("ap", t.ap)?;
                d.set_item("range", t.range)?;
                "token_revealed"
            }
            DuelEvent::TokenPicked {
                turn,
                uid,
                cell,
                token,
                ap,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("cell", cell)?;
                d.set_item("token", &tokens[*token].id)?;
                d.set_item("ap", ap)?;
                "token_picked"
            }
            DuelEvent::DuelTurnEnded {
                turn,
                side,
                positions,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("positions", positions_to_py(py, content, positions)?)?;
                "turn_ended"
            }
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_duel_match, m)?)?;
    m.add_class::<DuelPrepared>()
}
