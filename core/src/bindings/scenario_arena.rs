//! Arena's part of the scenario kit's lockstep (issue 37; the shared part is `scenario.rs`): GG,
//! kamas, the reward market and each fighter's reward card in the position, the Arena players'
//! questions (tension, edges, creatures, a player, a reward) answered from the reference's
//! recording, and `scenario_step`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::match_play::{PyArenaCatalog, options_of, unsupported};
use super::scenario::{Answer, Replay, ScenarioRules, Setting, build, item, part, play};
use crate::PyBoard;
use crate::board::{Board, Cell};
use crate::content::Content;
use crate::engine::state::MatchState;
use crate::rulesets::arena::four_player::{Purpose, default_choice};
use crate::rulesets::arena::rewards::{HeldToken, Market, Mods, RewardCard};
use crate::rulesets::arena::tension::TensionChoice;
use crate::rulesets::arena::{Arena, ArenaController, ArenaState};

fn reward_index(content: &Content, id: &str) -> PyResult<usize> {
    content
        .rewards
        .iter()
        .position(|r| r.id == id)
        .ok_or_else(|| unsupported(format!("the reward {id:?} is not in the catalog")))
}

fn card_of(state: &MatchState<Arena>, d: &Bound<'_, PyDict>) -> PyResult<RewardCard> {
    let mut tokens = Vec::new();
    for t in item::<Vec<(String, bool, i32, bool)>>(d, "tokens")? {
        tokens.push(HeldToken {
            reward: reward_index(&state.content, &t.0)?,
            face_up: t.1,
            bought_turn: t.2,
            seen: t.3,
        });
    }
    let mods = match d.get_item("mods")? {
        Some(m) if !m.is_none() => {
            let m = m.cast::<PyDict>()?;
            Some(Mods {
                damage: item(m, "damage")?,
                melee: item(m, "melee")?,
                melee_lifesteal: item(m, "melee_lifesteal")?,
                next_spell: item(m, "next_spell")?,
                next_elemental: item(m, "next_elemental")?,
            })
        }
        _ => None,
    };
    Ok(RewardCard { tokens, mods })
}

fn market_of(state: &MatchState<Arena>, d: &Bound<'_, PyDict>) -> PyResult<Market> {
    let ids = |v: Vec<String>| -> PyResult<Vec<usize>> {
        v.iter()
            .map(|id| reward_index(&state.content, id))
            .collect()
    };
    let piles: Vec<Vec<String>> = item(d, "piles")?;
    if piles.len() != 6 {
        return Err(unsupported(format!("{} reward piles", piles.len())));
    }
    let mut out: [Vec<usize>; 6] = Default::default();
    for (slot, pile) in out.iter_mut().zip(piles) {
        *slot = ids(pile)?;
    }
    let face_up = item::<Vec<(usize, String)>>(d, "face_up")?
        .into_iter()
        .map(|(pile, id)| Ok((pile, reward_index(&state.content, &id)?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Market {
        piles: out,
        face_up,
        boxed: ids(item(d, "box")?)?,
        hidden_box: ids(item(d, "hidden_box")?)?,
        prices: item(d, "prices")?,
    })
}

impl ScenarioRules for Arena {
    const KEY: &'static str = "arena";

    fn fresh(&self, board: &Board, seats: usize) -> ArenaState {
        ArenaState::start(board, &self.opts, seats)
    }

    fn rebuild(state: &mut MatchState<Arena>, pos: &Bound<'_, PyDict>) -> PyResult<()> {
        let rules = part(pos, Self::KEY)?;
        state.rules.gg = item(&rules, "gg")?;
        state.rules.wild_gg = item(&rules, "wild_gg")?;
        state.rules.gg_removed = item(&rules, "gg_removed")?;
        state.rules.kamas = item(&rules, "kamas")?;
        state.rules.kama_reserve = item(&rules, "kama_reserve")?;
        state.rules.board_kamas = item(&rules, "board_kamas")?;
        state.rules.gg_price = item(&rules, "gg_price")?;
        state.rules.market = match rules.get_item("market")? {
            Some(m) if !m.is_none() => Some(market_of(state, m.cast::<PyDict>()?)?),
            _ => None,
        };
        let fighters: Vec<Bound<'_, PyDict>> = item(pos, "fighters")?;
        let mut cards = vec![None; state.fighters.len()];
        for (uid, d) in fighters.iter().enumerate() {
            if let Some(card) = d.get_item("card")?
                && !card.is_none()
            {
                cards[uid] = Some(card_of(state, card.cast::<PyDict>()?)?);
            }
        }
        state.rules.cards = cards;
        Ok(())
    }

    fn export<'py>(py: Python<'py>, state: &MatchState<Arena>) -> PyResult<Bound<'py, PyDict>> {
        let reward = |r: usize| state.content.rewards[r].id.as_str();
        let r = &state.rules;
        let rules = PyDict::new(py);
        rules.set_item("gg", &r.gg)?;
        rules.set_item("wild_gg", r.wild_gg)?;
        rules.set_item("gg_removed", r.gg_removed)?;
        rules.set_item("kamas", &r.kamas)?;
        rules.set_item("kama_reserve", r.kama_reserve)?;
        rules.set_item("board_kamas", &r.board_kamas)?;
        rules.set_item("gg_price", r.gg_price)?;
        match &r.market {
            None => rules.set_item("market", py.None())?,
            Some(m) => {
                let md = PyDict::new(py);
                let ids = |v: &[usize]| v.iter().map(|&t| reward(t)).collect::<Vec<_>>();
                let piles: Vec<Vec<&str>> = m.piles.iter().map(|p| ids(p)).collect();
                md.set_item("piles", piles)?;
                let face_up: Vec<(usize, &str)> =
                    m.face_up.iter().map(|&(p, t)| (p, reward(t))).collect();
                md.set_item("face_up", face_up)?;
                md.set_item("box", ids(&m.boxed))?;
                md.set_item("hidden_box", ids(&m.hidden_box))?;
                md.set_item("prices", m.prices.to_vec())?;
                rules.set_item("market", md)?;
            }
        }
        Ok(rules)
    }

    fn card<'py>(
        py: Python<'py>,
        state: &MatchState<Arena>,
        uid: usize,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let reward = |r: usize| state.content.rewards[r].id.as_str();
        let Some(c) = state.rules.cards.get(uid).and_then(Option::as_ref) else {
            return Ok(None);
        };
        let cd = PyDict::new(py);
        let tokens: Vec<(&str, bool, i32, bool)> = c
            .tokens
            .iter()
            .map(|t| (reward(t.reward), t.face_up, t.bought_turn, t.seen))
            .collect();
        cd.set_item("tokens", tokens)?;
        match &c.mods {
            None => cd.set_item("mods", py.None())?,
            Some(m) => {
                let md = PyDict::new(py);
                md.set_item("damage", m.damage.to_vec())?;
                md.set_item("melee", m.melee)?;
                md.set_item("melee_lifesteal", m.melee_lifesteal)?;
                md.set_item("next_spell", &m.next_spell)?;
                md.set_item("next_elemental", m.next_elemental)?;
                cd.set_item("mods", md)?;
            }
        }
        Ok(Some(cd))
    }

    fn player(replay: Replay) -> Box<dyn ArenaController> {
        Box::new(replay)
    }
}

impl ArenaController for Replay {
    fn choose_deployment(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        _n: usize,
        _cells: &[Cell],
    ) -> Vec<Cell> {
        self.problem("the core asked for a deployment".to_string());
        Vec::new()
    }

    fn choose_tension(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        raw: (u8, u8),
        options: &[(u8, u8)],
    ) -> TensionChoice {
        match self.next("tension", |a| matches!(a, Answer::Tension(_))) {
            Some(Answer::Tension(choice)) => choice,
            _ => {
                self.problem(format!(
                    "the core asked player {} about a tension roll {raw:?} the reference did not \
                     roll",
                    self.seat
                ));
                TensionChoice {
                    faces: options[0],
                    assigned: (-1, -1),
                }
            }
        }
    }

    fn choose_edge(&mut self, _state: &MatchState<Arena>, _side: usize, _n: usize) -> usize {
        match self.next("edge", |a| matches!(a, Answer::Edge(_))) {
            Some(Answer::Edge(e)) => e,
            _ => 0,
        }
    }

    fn order_creatures(
        &mut self,
        _state: &MatchState<Arena>,
        _summoner: usize,
        creatures: &[usize],
    ) -> Vec<usize> {
        match self.next("creatures", |a| matches!(a, Answer::Creatures(_))) {
            Some(Answer::Creatures(order)) => order,
            _ => creatures.to_vec(),
        }
    }

    fn choose_player(
        &mut self,
        state: &MatchState<Arena>,
        seat: usize,
        purpose: Purpose,
        seats: &[usize],
    ) -> usize {
        match self.next("player", |a| matches!(a, Answer::Player(_))) {
            Some(Answer::Player(s)) => seats.iter().position(|&x| x == s).unwrap_or_else(|| {
                self.problem(format!(
                    "the reference chose seat {s}, not among the core's {seats:?}"
                ));
                0
            }),
            // the reference asks no one when no player is attached (four_player.ask_player)
            _ => default_choice(state, seat, purpose, seats),
        }
    }

    fn give_reward(
        &mut self,
        _state: &MatchState<Arena>,
        _side: usize,
        _reward: usize,
        candidates: &[usize],
    ) -> usize {
        match self.next("reward", |a| matches!(a, Answer::Reward(_))) {
            Some(Answer::Reward(uid)) => uid,
            _ => candidates[0],
        }
    }
}

/// Rebuild an Arena scenario's position in the core, play one step on it and hand back what
/// happened.
///
/// `position`: the kit's plain position (`krosbalance.testing.position_export.export_position`);
/// `step`: `(kind, uid, action kind, spell, target)` with kind `perform`, `begin`, `end`,
/// `character_turn`, `game_turn`, `legal` (the fighter's legal actions, under `legal`, and nothing
/// else) or `none` (rebuild only); `answers`: each seat's recorded decisions, or None when
/// the reference had no player to ask. Returns `{events, position, dice_used, began, problems}`;
/// a fault in the core (a panic) comes back in `problems`. `plant`: test-only, the kit's own
/// test: the first event's `turn` is altered so a divergence must be reported.
#[pyfunction]
#[pyo3(signature = (catalog, board, options, position, step, answers = None, plant = false))]
#[allow(clippy::too_many_arguments)]
fn scenario_step<'py>(
    py: Python<'py>,
    catalog: PyRef<'py, PyArenaCatalog>,
    board: PyRef<'py, PyBoard>,
    options: &Bound<'py, PyAny>,
    position: &Bound<'py, PyDict>,
    step: (String, i64, u8, i32, i32),
    answers: Option<Vec<Vec<Bound<'py, PyTuple>>>>,
    plant: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (arena, engine) = options_of(options)?;
    let setting = Setting {
        content: catalog.content.clone(),
        names: &catalog.names,
        ruleset: Arc::new(Arena { opts: arena }),
        engine,
        board: &board,
    };
    let (state, n_faces) = build(setting, position)?;
    play(py, state, n_faces, step, answers, plant)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scenario_step, m)?)
}
