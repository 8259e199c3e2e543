//! Krosmaster Blast's part of the scenario kit's lockstep (issue 41; the shared part is
//! `scenario.rs`): the glyph cells and who holds them, the terrain tiles, the Dofus token, the
//! favor deck and slots, the Divine Challenges in play with their tiers, the per-turn limits and
//! the study's counters; the Blast players' questions (the favor's slot, who acts next) answered
//! from the reference's recording; and `blast_scenario_step`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::blast_play::{blast_powers, bonus_action, challenge_of, options_of};
use super::match_play::{PyArenaCatalog, get, unsupported};
use super::scenario::{Answer, Replay, ScenarioRules, Setting, build, item, part, play};
use crate::PyBoard;
use crate::board::{Board, Cell};
use crate::engine::state::{EngineOptions, MatchState};
use crate::rulesets::blast::ruleset::{POWER_REROLL, SLOTS};
use crate::rulesets::blast::{Blast, BlastController, BlastState, Favor};

/// A Blast scenario's ruleset, converted once per scenario: the `BlastOptions`, every favor and
/// every Divine Challenge of the box (the scenario's are found among them by id), the Blast card
/// powers of the catalog's characters and the board's glyph cells.
#[pyclass(name = "BlastScenarioRules", module = "krosbalance_core", frozen)]
pub(super) struct PyBlastRules {
    ruleset: Arc<Blast>,
    engine: EngineOptions,
}

#[pymethods]
impl PyBlastRules {
    /// `specs`: the scenario catalog's `CharacterSpec`s, in the catalog's order (the bonus
    /// actions' summons among them); `options`: the `BlastOptions`; `favors`, `challenges`: the
    /// `FavorSpec`s and `ChallengeSpec`s; `glyph_cells`: the board's glyph cells (a mask).
    #[new]
    fn new(
        specs: Vec<Bound<'_, PyAny>>,
        options: &Bound<'_, PyAny>,
        favors: Vec<Bound<'_, PyAny>>,
        challenges: Vec<Bound<'_, PyAny>>,
        glyph_cells: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let names = specs
            .iter()
            .map(|s| get::<String>(s, "id"))
            .collect::<PyResult<Vec<_>>>()?;
        let powers = specs
            .iter()
            .map(blast_powers)
            .collect::<PyResult<Vec<_>>>()?;
        let (opts, engine) = options_of(options)?;
        let favors = favors
            .iter()
            .map(|f| {
                Ok(Favor {
                    id: get(f, "id")?,
                    action: bonus_action(&f.getattr("action")?, &names)?,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let challenges = challenges
            .iter()
            .map(|c| challenge_of(c, &names))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyBlastRules {
            ruleset: Arc::new(Blast {
                opts,
                favors,
                challenges,
                powers,
                glyph_cells: crate::mask_from_py(glyph_cells, "glyph_cells")?,
            }),
            engine,
        })
    }
}

fn favor_index(state: &MatchState<Blast>, id: &str) -> PyResult<usize> {
    state
        .ruleset
        .favors
        .iter()
        .position(|f| f.id == id)
        .ok_or_else(|| unsupported(format!("the favor {id:?} is not in the box")))
}

fn challenge_index(state: &MatchState<Blast>, id: &str) -> PyResult<usize> {
    state
        .ruleset
        .challenges
        .iter()
        .position(|c| c.id == id)
        .ok_or_else(|| unsupported(format!("the Divine Challenge {id:?} is not in the box")))
}

/// A reroll's source as the reference names it (`"power"`, `"bonus:<i>"`).
fn source_of(name: &str) -> PyResult<i32> {
    if name == "power" {
        return Ok(POWER_REROLL);
    }
    name.strip_prefix("bonus:")
        .and_then(|i| i.parse().ok())
        .ok_or_else(|| unsupported(format!("the reroll source {name:?}")))
}

fn source_name(source: i32) -> String {
    if source == POWER_REROLL {
        "power".to_string()
    } else {
        format!("bonus:{source}")
    }
}

impl ScenarioRules for Blast {
    const KEY: &'static str = "blast";

    fn fresh(&self, _board: &Board, _seats: usize) -> BlastState {
        BlastState::new(self.glyph_cells)
    }

    fn rebuild(state: &mut MatchState<Blast>, pos: &Bound<'_, PyDict>) -> PyResult<()> {
        let d = part(pos, Self::KEY)?;
        let mask = |key: &str| -> PyResult<_> {
            let value = d
                .get_item(key)?
                .ok_or_else(|| unsupported(format!("a Blast position without {key:?}")))?;
            crate::mask_from_py(&value, key)
        };
        let mut bs = BlastState::new(mask("glyph_cells")?);
        let owned: Vec<Bound<'_, PyAny>> = item(&d, "owned")?;
        if owned.len() != 2 {
            return Err(unsupported(format!("{} players' glyphs", owned.len())));
        }
        bs.owned = [
            crate::mask_from_py(&owned[0], "owned")?,
            crate::mask_from_py(&owned[1], "owned")?,
        ];
        let tiles: Vec<Vec<Cell>> = item(&d, "tiles")?;
        if tiles.len() != 3 {
            return Err(unsupported(format!("{} terrain types", tiles.len())));
        }
        for (slot, cells) in bs.tiles.iter_mut().zip(tiles) {
            *slot = cells;
        }
        bs.dofus = item(&d, "dofus")?;
        bs.deck = item::<Vec<String>>(&d, "deck")?
            .iter()
            .map(|id| favor_index(state, id))
            .collect::<PyResult<_>>()?;
        let slots: Vec<Option<String>> = item(&d, "slots")?;
        if slots.len() != SLOTS {
            return Err(unsupported(format!("{} favor slots", slots.len())));
        }
        for (slot, id) in bs.slots.iter_mut().zip(&slots) {
            *slot = id.as_deref().map(|id| favor_index(state, id)).transpose()?;
        }
        bs.slot_used = item(&d, "slot_used")?;
        bs.challenges = item::<Vec<String>>(&d, "challenges")?
            .iter()
            .map(|id| challenge_index(state, id))
            .collect::<PyResult<_>>()?;
        let ruleset = state.ruleset.clone();
        bs.bonuses = bs
            .challenges
            .iter()
            .flat_map(|&c| ruleset.challenges[c].bonuses.iter().cloned())
            .collect();
        bs.tiers = item(&d, "tiers")?;
        if bs.tiers.len() != bs.bonuses.len() {
            return Err(unsupported(format!(
                "{} tiers for {} bonuses",
                bs.tiers.len(),
                bs.bonuses.len()
            )));
        }
        bs.bonus_used = item(&d, "bonus_used")?;
        bs.spell_bonus = item(&d, "spell_bonus")?;
        bs.rerolled = item::<Vec<(usize, String)>>(&d, "rerolled")?
            .iter()
            .map(|(uid, source)| Ok((*uid, source_of(source)?)))
            .collect::<PyResult<_>>()?;
        bs.peak = item(&d, "peak")?;
        bs.tier_turn = item(&d, "tier_turn")?;
        let uses: Vec<Vec<i64>> = item(&d, "bonus_uses")?;
        if uses.len() != 2 {
            return Err(unsupported(format!("{} players' bonus uses", uses.len())));
        }
        bs.bonus_uses = [uses[0].clone(), uses[1].clone()];
        bs.favor_uses = item(&d, "favor_uses")?;
        bs.captures = item(&d, "captures")?;
        bs.enter_cells = bs.glyph_cells | bs.all_tiles();
        state.rules = bs;
        Ok(())
    }

    fn export<'py>(py: Python<'py>, state: &MatchState<Blast>) -> PyResult<Bound<'py, PyDict>> {
        let ruleset = &state.ruleset;
        let favor = |f: usize| ruleset.favors[f].id.as_str();
        let bs = &state.rules;
        let d = PyDict::new(py);
        d.set_item("glyph_cells", crate::mask_to_py(py, bs.glyph_cells)?)?;
        d.set_item(
            "owned",
            vec![
                crate::mask_to_py(py, bs.owned[0])?,
                crate::mask_to_py(py, bs.owned[1])?,
            ],
        )?;
        let tiles: Vec<Vec<usize>> = bs.tiles.iter().map(|t| crate::cells_to_py(t)).collect();
        d.set_item("tiles", tiles)?;
        d.set_item("dofus", bs.dofus)?;
        let deck: Vec<&str> = bs.deck.iter().map(|&f| favor(f)).collect();
        d.set_item("deck", deck)?;
        let slots: Vec<Option<&str>> = bs.slots.iter().map(|s| s.map(favor)).collect();
        d.set_item("slots", slots)?;
        d.set_item("slot_used", bs.slot_used.to_vec())?;
        let challenges: Vec<&str> = bs
            .challenges
            .iter()
            .map(|&c| ruleset.challenges[c].id.as_str())
            .collect();
        d.set_item("challenges", challenges)?;
        d.set_item("tiers", &bs.tiers)?;
        let mut used = bs.bonus_used.clone();
        used.sort_unstable();
        d.set_item("bonus_used", used)?;
        let mut bonus = bs.spell_bonus.clone();
        bonus.sort_unstable();
        d.set_item("spell_bonus", bonus)?;
        let mut rerolled: Vec<(usize, String)> = bs
            .rerolled
            .iter()
            .map(|&(u, s)| (u, source_name(s)))
            .collect();
        rerolled.sort_unstable();
        d.set_item("rerolled", rerolled)?;
        d.set_item("peak", bs.peak.to_vec())?;
        let tier_turn: Vec<Vec<i32>> = bs.tier_turn.iter().map(|t| t.to_vec()).collect();
        d.set_item("tier_turn", tier_turn)?;
        d.set_item("bonus_uses", bs.bonus_uses.to_vec())?;
        d.set_item("favor_uses", bs.favor_uses.to_vec())?;
        d.set_item("captures", bs.captures.to_vec())?;
        d.set_item("enter_cells", crate::mask_to_py(py, bs.enter_cells)?)?;
        Ok(d)
    }

    fn player(replay: Replay) -> Box<dyn BlastController> {
        Box::new(replay)
    }
}

impl BlastController for Replay {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Blast>,
        _side: usize,
        _n: usize,
        _cells: &[Cell],
    ) -> Vec<Cell> {
        self.problem("the core asked for a deployment".to_string());
        Vec::new()
    }

    fn choose_favor_slot(
        &mut self,
        _state: &MatchState<Blast>,
        side: usize,
        favor: usize,
    ) -> usize {
        match self.next("favor_slot", |a| matches!(a, Answer::FavorSlot(_))) {
            Some(Answer::FavorSlot(slot)) => slot,
            _ => {
                self.problem(format!(
                    "the core asked player {side} where favor {favor} goes; the reference did not"
                ));
                0
            }
        }
    }

    fn choose_next(
        &mut self,
        _state: &MatchState<Blast>,
        side: usize,
        candidates: &[usize],
    ) -> usize {
        match self.next("next", |a| matches!(a, Answer::Next(_))) {
            Some(Answer::Next(uid)) => uid,
            _ => {
                self.problem(format!(
                    "the core asked player {side} who acts next among {candidates:?}; the \
                     reference did not"
                ));
                candidates[0]
            }
        }
    }
}

/// Rebuild a Blast scenario's position in the core, play one step on it and hand back what
/// happened: Arena's `scenario_step` (the same `position`, `step`, `answers`, `plant`, the same
/// answer) with Blast's ruleset (`rules`, a `BlastScenarioRules`) and its state under `blast`.
#[pyfunction]
#[pyo3(signature = (catalog, rules, board, position, step, answers = None, plant = false))]
#[allow(clippy::too_many_arguments)]
fn blast_scenario_step<'py>(
    py: Python<'py>,
    catalog: PyRef<'py, PyArenaCatalog>,
    rules: PyRef<'py, PyBlastRules>,
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
    m.add_class::<PyBlastRules>()?;
    m.add_function(wrap_pyfunction!(blast_scenario_step, m)?)
}
