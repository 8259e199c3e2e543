//! One Duel Pack match played in the core (`play_duel_match`): loaded specs in (the teams'
//! `CharacterSpec`s, the summonable pieces, the punch when the option gives it, the Duel Token
//! set's `DuelTokenSpec`s, the `DuelOptions` object, the core's `Board` and its duel cells), the
//! result, the duel's values and the event log out as plain Python data.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::match_play::{Keys, character_of, get, record_level, spell_of};
use crate::PyBoard;
use crate::content::{Content, PieceKind};
use crate::engine::events::Event;
use crate::engine::state::{EngineOptions, MatchState};
use crate::rulesets::duel::play::{DuelMatch, play_duel};
use crate::rulesets::duel::{Duel, DuelEvent, DuelOptions, DuelToken};

fn options_of(opts: &Bound<'_, PyAny>) -> PyResult<(DuelOptions, EngineOptions)> {
    let three = |name: &str| -> PyResult<[i32; 3]> {
        let d = opts.getattr(name)?;
        Ok([
            d.get_item("tree")?.extract()?,
            d.get_item("bush")?.extract()?,
            d.get_item("crate")?.extract()?,
        ])
    };
    let engine = EngineOptions {
        turn_limit: get(opts, "turn_limit")?,
        strict_corner_los: get(opts, "strict_corner_los")?,
        caster_in_own_area: get(opts, "caster_in_own_area")?,
        bombs_unfazed: get(opts, "bombs_unfazed")?,
        scenery_destruction: get(opts, "scenery_destruction")?,
        scenery_hp: three("scenery_hp")?,
        scenery_hit_under_piece: get(opts, "scenery_hit_under_piece")?,
    };
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

fn token_of(obj: &Bound<'_, PyAny>) -> PyResult<DuelToken> {
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
    let mut objs: Vec<Bound<'py, PyAny>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut keys = Keys::default();
    for spec in teams.iter().flatten() {
        let id: String = get(spec, "id")?;
        if !names.contains(&id) {
            names.push(id);
            objs.push(spec.clone());
        }
    }
    for (id, spec) in pieces.iter() {
        let id: String = id.extract()?;
        if !names.contains(&id) {
            names.push(id);
            objs.push(spec);
        }
    }
    let chars = objs
        .iter()
        .map(|o| character_of(o, &names, &mut keys))
        .collect::<PyResult<Vec<_>>>()?;
    let punch = punch.map(|p| spell_of(&p, &names, &mut keys)).transpose()?;
    let content = Content {
        chars,
        punch,
        rewards: Vec::new(),
        keys: keys.0,
    };
    let team_idx = teams
        .iter()
        .map(|team| {
            team.iter()
                .map(|s| {
                    let id: String = get(s, "id")?;
                    Ok(names.iter().position(|n| *n == id).expect("listed"))
                })
                .collect::<PyResult<Vec<_>>>()
        })
        .collect::<PyResult<Vec<_>>>()?;
    let (duel, engine) = options_of(options)?;
    let tokens = tokens.iter().map(token_of).collect::<PyResult<Vec<_>>>()?;
    let spec = DuelMatch {
        board: board.inner.clone(),
        duel_cells: crate::mask_from_py(duel_cells, "duel_cells")?,
        content: Arc::new(content),
        ruleset: Arc::new(Duel { opts: duel, tokens }),
        opts: engine,
        teams: team_idx,
        ais,
        seed,
        record: record_level(record)?,
    };
    drop(board);
    let mut state = py
        .detach(|| play_duel(&spec))
        .map_err(PyValueError::new_err)?;
    if let Some(event) = plant.and_then(|k| state.events.get_mut(k)) {
        plant_divergence(event);
    }
    result_to_py(py, &state)
}

/// Test-only: one field of an event changed the way a bug would change it.
fn plant_divergence(event: &mut Event<DuelEvent>) {
    match event {
        Event::Damaged { amount, .. } | Event::Healed { amount, .. } => *amount += 1,
        Event::Moved {
            origin,
            destination,
            ..
        } => *destination = *origin,
        Event::CharacterTurnStarted { mp, ap, .. } => {
            *mp += 1;
            *ap += 1;
        }
        Event::TurnStarted { turn, .. }
        | Event::LockRolled { turn, .. }
        | Event::SpellCast { turn, .. }
        | Event::DiceRolled { turn, .. }
        | Event::KnockedOut { turn, .. }
        | Event::Summoned { turn, .. }
        | Event::MatchEnded { turn, .. }
        | Event::Ruleset(
            DuelEvent::TokenDrafted { turn, .. }
            | DuelEvent::TokenHeldFromStart { turn, .. }
            | DuelEvent::TokenPlaced { turn, .. }
            | DuelEvent::TokenRevealed { turn, .. }
            | DuelEvent::TokenPicked { turn, .. }
            | DuelEvent::DuelTurnEnded { turn, .. },
        ) => *turn += 1,
    }
}

fn result_to_py<'py>(py: Python<'py>, state: &MatchState<Duel>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let ds = &state.rules;
    let tokens = &state.ruleset.tokens;
    out.set_item("winner", state.winner)?;
    out.set_item("end_reason", state.end_reason)?;
    out.set_item("turns", state.turn)?;
    out.set_item("first_player", state.first_player)?;
    out.set_item("play_order", PyTuple::new(py, &state.play_order)?)?;
    out.set_item("partnerships", PyTuple::new(py, &state.team_of)?)?;
    let teams = (0..state.n_seats)
        .map(|s| {
            let ids: Vec<&str> = state
                .fighters
                .iter()
                .filter(|f| f.kind == PieceKind::Krosmaster && f.side == s)
                .map(|f| state.content.chars[f.spec].id.as_str())
                .collect();
            PyTuple::new(py, ids)
        })
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("teams", PyTuple::new(py, teams)?)?;
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
    let order = state
        .fighters
        .iter()
        .filter(|f| f.kind == PieceKind::Krosmaster)
        .chain(
            state
                .fighters
                .iter()
                .filter(|f| f.kind != PieceKind::Krosmaster),
        )
        .map(|f| fighter_to_py(py, state, f.uid))
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("fighters", PyList::new(py, order)?)?;
    let events = state
        .events
        .iter()
        .map(|e| event_to_py(py, state, e))
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("events", PyList::new(py, events)?)?;
    Ok(out)
}

/// One fighter's row: engine/results.py's `FighterRecord.as_row()` plus the duel's columns.
fn fighter_to_py<'py>(
    py: Python<'py>,
    state: &MatchState<Duel>,
    uid: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let f = &state.fighters[uid];
    let c = &state.content.chars[f.spec];
    let s = &f.stats;
    let ds = &state.rules;
    let row = PyDict::new(py);
    row.set_item("uid", f.uid)?;
    row.set_item("side", f.side)?;
    row.set_item("character", &c.id)?;
    row.set_item("name", &c.name)?;
    row.set_item("level", f.level)?;
    row.set_item("is_summon", f.kind != PieceKind::Krosmaster)?;
    row.set_item("summoner", f.summoner.map_or(-1, |u| u as i64))?;
    for (i, element) in crate::content::ELEMENTS.iter().enumerate() {
        row.set_item(format!("damage_dealt_{element}"), s.damage_dealt[i])?;
        row.set_item(format!("damage_taken_{element}"), s.damage_taken[i])?;
    }
    row.set_item("damage_dealt", s.damage_dealt.iter().sum::<i64>())?;
    row.set_item("damage_taken", s.damage_taken.iter().sum::<i64>())?;
    row.set_item("heals_given", s.heals_given)?;
    row.set_item("heals_received", s.heals_received)?;
    row.set_item("kills", s.kills)?;
    row.set_item("knocked_out", s.knocked_out)?;
    row.set_item("turns_alive", s.turns_alive)?;
    row.set_item("spells_cast", s.spells_cast)?;
    row.set_item("moves", s.moves)?;
    row.set_item("times_blocked", s.times_blocked)?;
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
    Ok(row)
}

/// `(kind, {field: value})` of one event, fields as the reference's dataclass names them.
fn event_to_py<'py>(
    py: Python<'py>,
    state: &MatchState<Duel>,
    event: &Event<DuelEvent>,
) -> PyResult<Bound<'py, PyTuple>> {
    let d = PyDict::new(py);
    let content = &state.content;
    let tokens = &state.ruleset.tokens;
    let kind = match event {
        Event::TurnStarted { turn, side } => {
            d.set_item("turn", turn)?;
            d.set_item("side", side)?;
            "turn_started"
        }
        Event::CharacterTurnStarted {
            turn,
            uid,
            spec,
            mp,
            ap,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("name", &content.chars[*spec].name)?;
            d.set_item("mp", mp)?;
            d.set_item("ap", ap)?;
            "character_turn_started"
        }
        Event::Moved {
            turn,
            uid,
            origin,
            destination,
            how,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("origin", origin)?;
            d.set_item("destination", destination)?;
            d.set_item("how", how)?;
            "moved"
        }
        Event::LockRolled {
            turn,
            mover,
            locker,
            lock,
            dodge,
            blocked,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("mover", mover)?;
            d.set_item("locker", locker)?;
            d.set_item("lock", lock)?;
            d.set_item("dodge", dodge)?;
            d.set_item("blocked", blocked)?;
            "lock_rolled"
        }
        Event::SpellCast {
            turn,
            uid,
            spell,
            target,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("spell", &content.resolve(*spell).id)?;
            d.set_item("target", target)?;
            "spell_cast"
        }
        Event::DiceRolled {
            turn,
            uid,
            roll,
            faces,
            successes,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("roll", roll)?;
            let faces: Vec<u32> = faces.iter().map(|&f| u32::from(f)).collect();
            d.set_item("faces", PyTuple::new(py, faces)?)?;
            d.set_item("successes", successes)?;
            "dice_rolled"
        }
        Event::Damaged {
            turn,
            source,
            target,
            amount,
            element,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("source", source)?;
            d.set_item("target", target)?;
            d.set_item("amount", amount)?;
            d.set_item("element", crate::content::ELEMENTS[*element])?;
            "damaged"
        }
        Event::Healed {
            turn,
            source,
            target,
            amount,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("source", source)?;
            d.set_item("target", target)?;
            d.set_item("amount", amount)?;
            "healed"
        }
        Event::KnockedOut { turn, uid, by } => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("by", by)?;
            "knocked_out"
        }
        Event::Summoned {
            turn,
            summoner,
            uid,
            spec,
            cell,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("summoner", summoner)?;
            d.set_item("uid", uid)?;
            d.set_item("character", &content.chars[*spec].id)?;
            d.set_item("cell", cell)?;
            "summoned"
        }
        Event::MatchEnded {
            turn,
            winner,
            reason,
        } => {
            d.set_item("turn", turn)?;
            d.set_item("winner", winner)?;
            d.set_item("reason", reason)?;
            "match_ended"
        }
        Event::Ruleset(DuelEvent::TokenDrafted {
            turn,
            side,
            uid,
            token,
            face_up,
        }) => {
            d.set_item("turn", turn)?;
            d.set_item("side", side)?;
            d.set_item("uid", uid)?;
            d.set_item("token", &tokens[*token].id)?;
            d.set_item("level", tokens[*token].level)?;
            d.set_item("face_up", face_up)?;
            "token_drafted"
        }
        Event::Ruleset(DuelEvent::TokenHeldFromStart {
            turn,
            side,
            uid,
            token,
        }) => {
            d.set_item("turn", turn)?;
            d.set_item("side", side)?;
            d.set_item("uid", uid)?;
            d.set_item("token", &tokens[*token].id)?;
            d.set_item("level", tokens[*token].level)?;
            "token_held_from_start"
        }
        Event::Ruleset(DuelEvent::TokenPlaced {
            turn,
            side,
            cell,
            token,
        }) => {
            d.set_item("turn", turn)?;
            d.set_item("side", side)?;
            d.set_item("cell", cell)?;
            d.set_item("token", &tokens[*token].id)?;
            d.set_item("level", tokens[*token].level)?;
            "token_placed"
        }
        Event::Ruleset(DuelEvent::TokenRevealed { turn, uid, token }) => {
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
        Event::Ruleset(DuelEvent::TokenPicked {
            turn,
            uid,
            cell,
            token,
            ap,
        }) => {
            d.set_item("turn", turn)?;
            d.set_item("uid", uid)?;
            d.set_item("cell", cell)?;
            d.set_item("token", &tokens[*token].id)?;
            d.set_item("ap", ap)?;
            "token_picked"
        }
        Event::Ruleset(DuelEvent::DuelTurnEnded {
            turn,
            side,
            positions,
        }) => {
            d.set_item("turn", turn)?;
            d.set_item("side", side)?;
            let rows = positions
                .iter()
                .map(|&(uid, spec, side, cell, injuries)| {
                    (uid, content.chars[spec].id.as_str(), side, cell, injuries).into_pyobject(py)
                })
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("positions", PyTuple::new(py, rows)?)?;
            "turn_ended"
        }
    };
    PyTuple::new(py, [kind.into_pyobject(py)?.into_any(), d.into_any()])
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_duel_match, m)?)
}
