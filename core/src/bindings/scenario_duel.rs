//! The Duel Pack's part of the scenario kit's lockstep (issue 41; the shared part is
//! `scenario.rs`): the duel level, the Duel Token supply (piles and the tactical draft's face-up
//! row), the tokens on duel cells and on the Krosmasters' cards (face down, revealed, held back
//! until the turn's end), the draft counters, the duel players' questions answered from the
//! reference's recording, and `duel_scenario_step`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::duel_play::{options_of, token_of};
use super::match_play::{PyArenaCatalog, unsupported};
use super::scenario::{Answer, Replay, ScenarioRules, Setting, build, item, part, play};
use crate::PyBoard;
use crate::board::{Board, Cell, CellSet};
use crate::engine::state::{EngineOptions, MatchState};
use crate::rulesets::duel::LEVELS;
use crate::rulesets::duel::ruleset::{DraftChoice, RevealChoice};
use crate::rulesets::duel::{Duel, DuelController, DuelState};

/// A duel scenario's ruleset, converted once per scenario: the `DuelOptions` and the token set.
#[pyclass(name = "DuelScenarioRules", module = "krosbalance_core", frozen)]
pub(super) struct PyDuelRules {
    ruleset: Arc<Duel>,
    engine: EngineOptions,
}

#[pymethods]
impl PyDuelRules {
    /// `options`: the scenario's `DuelOptions`; `tokens`: the token set's `DuelTokenSpec`s in
    /// file order.
    #[new]
    fn new(options: &Bound<'_, PyAny>, tokens: Vec<Bound<'_, PyAny>>) -> PyResult<Self> {
        let (opts, engine) = options_of(options)?;
        let tokens = tokens.iter().map(token_of).collect::<PyResult<Vec<_>>>()?;
        Ok(PyDuelRules {
            ruleset: Arc::new(Duel { opts, tokens }),
            engine,
        })
    }
}

fn token_index(state: &MatchState<Duel>, id: &str) -> PyResult<usize> {
    state
        .ruleset
        .tokens
        .iter()
        .position(|t| t.id == id)
        .ok_or_else(|| unsupported(format!("the Duel Token {id:?} is not in the set")))
}

fn tokens_of(state: &MatchState<Duel>, ids: &[String]) -> PyResult<Vec<usize>> {
    ids.iter().map(|id| token_index(state, id)).collect()
}

impl ScenarioRules for Duel {
    const KEY: &'static str = "duel";

    fn fresh(&self, board: &Board, _seats: usize) -> DuelState {
        DuelState::new(self, CellSet::default(), board.n_cells())
    }

    fn rebuild(state: &mut MatchState<Duel>, pos: &Bound<'_, PyDict>) -> PyResult<()> {
        let d = part(pos, Self::KEY)?;
        let cells = d
            .get_item("duel_cells")?
            .ok_or_else(|| unsupported("a duel position without duel cells".to_string()))?;
        let duel_cells = crate::mask_from_py(&cells, "duel_cells")?;
        let piles: Vec<Vec<String>> = item(&d, "piles")?;
        let face_up: Vec<Option<String>> = item(&d, "face_up")?;
        if piles.len() != LEVELS || face_up.len() != LEVELS {
            return Err(unsupported(format!("{} token piles", piles.len())));
        }
        let mut ds = DuelState::new(&state.ruleset, duel_cells, state.board.n_cells());
        for (slot, pile) in ds.piles.iter_mut().zip(&piles) {
            *slot = tokens_of(state, pile)?;
        }
        for (slot, id) in ds.face_up.iter_mut().zip(&face_up) {
            *slot = id.as_deref().map(|id| token_index(state, id)).transpose()?;
        }
        for (cell, id) in item::<Vec<(usize, String)>>(&d, "on_cells")? {
            ds.on_cells[cell] = Some(token_index(state, &id)?);
            ds.n_on_cells += 1;
        }
        ds.hidden = item::<Vec<Vec<String>>>(&d, "hidden")?
            .iter()
            .map(|ids| tokens_of(state, ids))
            .collect::<PyResult<_>>()?;
        ds.shown = item::<Vec<Vec<String>>>(&d, "shown")?
            .iter()
            .map(|ids| tokens_of(state, ids))
            .collect::<PyResult<_>>()?;
        ds.pending = item::<Vec<(usize, String)>>(&d, "pending")?
            .iter()
            .map(|(uid, id)| Ok((*uid, token_index(state, id)?)))
            .collect::<PyResult<_>>()?;
        let start: Vec<Vec<String>> = item(&d, "start_tokens")?;
        if start.len() != 2 {
            return Err(unsupported(format!(
                "{} players' start tokens",
                start.len()
            )));
        }
        ds.start_tokens = [tokens_of(state, &start[0])?, tokens_of(state, &start[1])?];
        ds.duel_level = item(&d, "duel_level")?;
        ds.placement_seed = item(&d, "placement_seed")?;
        ds.drafted = item(&d, "drafted")?;
        ds.picked = item(&d, "picked")?;
        ds.revealed = item(&d, "revealed")?;
        state.rules = ds;
        Ok(())
    }

    fn export<'py>(py: Python<'py>, state: &MatchState<Duel>) -> PyResult<Bound<'py, PyDict>> {
        let id = |t: usize| state.ruleset.tokens[t].id.as_str();
        let ids = |v: &[usize]| v.iter().map(|&t| id(t)).collect::<Vec<_>>();
        let ds = &state.rules;
        let d = PyDict::new(py);
        d.set_item("duel_cells", crate::mask_to_py(py, ds.duel_cells)?)?;
        d.set_item("duel_level", ds.duel_level)?;
        let piles: Vec<Vec<&str>> = ds.piles.iter().map(|p| ids(p)).collect();
        d.set_item("piles", piles)?;
        let face_up: Vec<Option<&str>> = ds.face_up.iter().map(|t| t.map(id)).collect();
        d.set_item("face_up", face_up)?;
        let on_cells: Vec<(usize, &str)> = ds
            .on_cells
            .iter()
            .enumerate()
            .filter_map(|(c, t)| t.map(|t| (c, id(t))))
            .collect();
        d.set_item("on_cells", on_cells)?;
        let n = state.fighters.len();
        let hidden: Vec<Vec<&str>> = (0..n).map(|u| ids(ds.hidden_of(u))).collect();
        let shown: Vec<Vec<&str>> = (0..n).map(|u| ids(ds.shown_of(u))).collect();
        d.set_item("hidden", hidden)?;
        d.set_item("shown", shown)?;
        let pending: Vec<(usize, &str)> = ds.pending.iter().map(|&(u, t)| (u, id(t))).collect();
        d.set_item("pending", pending)?;
        d.set_item("placement_seed", ds.placement_seed)?;
        d.set_item("drafted", ds.drafted.to_vec())?;
        d.set_item("picked", ds.picked.to_vec())?;
        d.set_item("revealed", ds.revealed.to_vec())?;
        let start: Vec<Vec<&str>> = ds.start_tokens.iter().map(|s| ids(s)).collect();
        d.set_item("start_tokens", start)?;
        Ok(d)
    }

    fn player(replay: Replay) -> Box<dyn DuelController> {
        Box::new(replay)
    }
}

impl DuelController for Replay {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _n: usize,
        _cells: &[Cell],
    ) -> Vec<Cell> {
        self.problem("the core asked for a deployment".to_string());
        Vec::new()
    }

    fn order_creatures(
        &mut self,
        _state: &MatchState<Duel>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        match self.next("creatures", |a| matches!(a, Answer::Creatures(_))) {
            Some(Answer::Creatures(order)) => order,
            _ => creatures.to_vec(),
        }
    }

    fn choose_duel_draft(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _choices: &[DraftChoice],
        _budget: i32,
    ) -> usize {
        self.problem("the core asked for a draft pick (not a scenario step)".to_string());
        0
    }

    fn choose_token_holder(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _token: usize,
        candidates: &[usize],
    ) -> usize {
        self.problem("the core asked for a token's holder (not a scenario step)".to_string());
        candidates[0]
    }

    fn choose_duel_cell(
        &mut self,
        _state: &MatchState<Duel>,
        _side: usize,
        _level: i32,
        cells: &[Cell],
    ) -> Cell {
        self.problem("the core asked for a duel cell (not a scenario step)".to_string());
        cells[0]
    }

    fn choose_reveal(
        &mut self,
        _state: &MatchState<Duel>,
        side: usize,
        choices: &[RevealChoice],
    ) -> i64 {
        match self.next("reveal", |a| matches!(a, Answer::Reveal(_))) {
            Some(Answer::Reveal(index)) => index,
            _ => {
                self.problem(format!(
                    "the core asked player {side} to reveal one of {} tokens; the reference did not",
                    choices.len()
                ));
                -1
            }
        }
    }
}

/// Rebuild a Duel Pack scenario's position in the core, play one step on it and hand back what
/// happened: Arena's `scenario_step` (the same `position`, `step`, `answers`, `plant`, the same
/// answer) with the duel's ruleset (`rules`, a `DuelScenarioRules`) and its state under `duel`.
#[pyfunction]
#[pyo3(signature = (catalog, rules, board, position, step, answers = None, plant = false))]
#[allow(clippy::too_many_arguments)]
fn duel_scenario_step<'py>(
    py: Python<'py>,
    catalog: PyRef<'py, PyArenaCatalog>,
    rules: PyRef<'py, PyDuelRules>,
    board: PyRef<'py, PyBoard>,
    position: &Bound<'py, PyDict>,
    step: (String, i64, u8, i32, i32),
    answers: Option<Vec<Vec<Bound<'py, PyTuple>>>>,
    plant: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let setting = Setting {
        content: catalog.content.clone(),
        names: &catalog.names,
        ruleset: rules.ruleset.clone(),
        engine: rules.engine.clone(),
        board: &board,
    };
    let (state, n_faces) = build(setting, position)?;
    play(py, state, n_faces, step, answers, plant)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDuelRules>()?;
    m.add_function(wrap_pyfunction!(duel_scenario_step, m)?)
}
