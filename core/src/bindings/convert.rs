//! What every ruleset's bindings share at the boundary: an event as `(kind, {field: value})`
//! (the engine's events here, each ruleset's own through [`RulesetEvents`]) and a fighter's
//! `FighterRecord.as_row()` columns; one definition for Arena, the Duel Pack and Blast.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::match_play::{Keys, character_of, get, spell_of};
use crate::content::{CharacterSpec, Content, PieceKind};
use crate::engine::events::Event;
use crate::engine::rules::MatchRules;
use crate::engine::state::{EngineOptions, Fighter, FighterStats, MatchState};

/// A ruleset's own events at the boundary.
pub(super) trait RulesetEvents: MatchRules {
    /// Fill `d` with the event's fields as the reference's dataclass names them (`turn` first);
    /// the event's kind.
    fn ruleset_event<'py>(
        py: Python<'py>,
        state: &MatchState<Self>,
        event: &Self::Event,
        d: &Bound<'py, PyDict>,
    ) -> PyResult<&'static str>;
}

/// `(kind, {field: value})` of one event, fields as the reference's dataclass names them.
pub(super) fn event_to_py<'py, R: RulesetEvents>(
    py: Python<'py>,
    state: &MatchState<R>,
    event: &Event<R::Event>,
) -> PyResult<Bound<'py, PyTuple>> {
    let d = PyDict::new(py);
    let content = &state.content;
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
        Event::Ruleset(own) => R::ruleset_event(py, state, own, &d)?,
    };
    PyTuple::new(py, [kind.into_pyobject(py)?.into_any(), d.into_any()])
}

/// A fighter row's keys of the damage dealt and taken, in [`crate::content::ELEMENTS`] order.
const DAMAGE_DEALT: [&str; 5] = [
    "damage_dealt_neutral",
    "damage_dealt_water",
    "damage_dealt_air",
    "damage_dealt_earth",
    "damage_dealt_fire",
];
const DAMAGE_TAKEN: [&str; 5] = [
    "damage_taken_neutral",
    "damage_taken_water",
    "damage_taken_air",
    "damage_taken_earth",
    "damage_taken_fire",
];

/// One fighter's `FighterRecord.as_row()` columns (a ruleset adds its own to the dict).
pub(super) fn fighter_row<'py, R: MatchRules>(
    py: Python<'py>,
    state: &MatchState<R>,
    uid: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let f = &state.fighters[uid];
    let c = &state.content.chars[f.spec];
    let s = &f.stats;
    let row = PyDict::new(py);
    row.set_item("uid", f.uid)?;
    row.set_item("side", f.side)?;
    row.set_item("character", &c.id)?;
    row.set_item("name", &c.name)?;
    row.set_item("level", f.level)?;
    row.set_item("is_summon", f.kind != PieceKind::Krosmaster)?;
    row.set_item("summoner", f.summoner.map_or(-1, |u| u as i64))?;
    for (i, (dealt, taken)) in DAMAGE_DEALT.iter().zip(DAMAGE_TAKEN).enumerate() {
        row.set_item(*dealt, s.damage_dealt[i])?;
        row.set_item(taken, s.damage_taken[i])?;
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
    Ok(row)
}

/// The reference's `FighterRecord` and `FighterStats` classes, handed over by a caller that wants
/// each fighter built as a record here (`records=`) rather than as a row dict read back in Python.
pub(super) type RecordClasses<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// A fighter's counters as the reference's `FighterStats` (`stats`, the class), in its fields'
/// order: every ruleset's record holds one.
pub(super) fn stats_record<'py>(
    py: Python<'py>,
    stats: &Bound<'py, PyAny>,
    s: &FighterStats,
) -> PyResult<Bound<'py, PyAny>> {
    stats.call1((
        PyList::new(py, s.damage_dealt)?,
        PyList::new(py, s.damage_taken)?,
        s.heals_given,
        s.heals_received,
        s.kills,
        s.knocked_out,
        s.turns_alive,
        s.spells_cast,
        s.moves,
        s.times_blocked,
    ))
}

/// One fighter as the reference's `FighterRecord` holding its `FighterStats` and `values` (the
/// ruleset's fighter columns): the positional order is the dataclasses' own, which
/// `native_duel.record_classes` checks once. Built here because reading ten row dicts back in
/// Python was a tenth of a Blast match.
pub(super) fn fighter_record<'py, R: MatchRules>(
    py: Python<'py>,
    state: &MatchState<R>,
    uid: usize,
    (record, stats): &RecordClasses<'py>,
    values: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    let f = &state.fighters[uid];
    let c = &state.content.chars[f.spec];
    let counters = stats_record(py, stats, &f.stats)?;
    record_of(f, c, record, counters, values)
}

/// The reference's `FighterRecord` (`record`, the class) of fighter `f` playing character `c`,
/// in the class's fields' order, with its counters and ruleset columns already built.
pub(super) fn record_of<'py>(
    f: &Fighter,
    c: &CharacterSpec,
    record: &Bound<'py, PyAny>,
    counters: Bound<'py, PyAny>,
    values: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    record.call1((
        f.uid,
        f.side,
        c.id.as_str(),
        c.name.as_str(),
        f.level,
        f.kind != PieceKind::Krosmaster,
        f.summoner,
        counters,
        values,
    ))
}

/// Test-only: one field of an engine event changed the way a recording bug would change it;
/// false for a ruleset's event (its bindings change it).
pub(super) fn plant_engine_divergence<X>(event: &mut Event<X>) -> bool {
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
        | Event::MatchEnded { turn, .. } => *turn += 1,
        Event::Ruleset(_) => return false,
    }
    true
}

/// The head of a finished match's dict, every ruleset's: `winner`, `end_reason`, `turns`,
/// `first_player`, `play_order`, `partnerships` and `teams` (Krosmaster ids per seat).
pub(super) fn result_head<'py, R: MatchRules>(
    py: Python<'py>,
    state: &MatchState<R>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
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
    Ok(out)
}

/// The fighters in the order of a result's rows: Krosmasters first, then the summons, each by uid.
pub(super) fn fighter_order<R: MatchRules>(state: &MatchState<R>) -> impl Iterator<Item = usize> {
    let krosmasters = state
        .fighters
        .iter()
        .filter(|f| f.kind == PieceKind::Krosmaster);
    let others = state
        .fighters
        .iter()
        .filter(|f| f.kind != PieceKind::Krosmaster);
    krosmasters.chain(others).map(|f| f.uid)
}

/// A finished match as the dict the Duel Pack's and Blast's bindings return: [`result_head`],
/// `fighters` (each a row dict or a record from `fighter`, in [`fighter_order`]) and `events`;
/// the ruleset adds its values to it.
pub(super) fn match_to_py<'py, R: RulesetEvents>(
    py: Python<'py>,
    state: &MatchState<R>,
    fighter: impl Fn(Python<'py>, &MatchState<R>, usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = result_head(py, state)?;
    let rows = fighter_order(state)
        .map(|uid| fighter(py, state, uid))
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("fighters", PyList::new(py, rows)?)?;
    out.set_item("events", events_to_py(py, state)?)?;
    Ok(out)
}

/// Every event of the match's log, as [`event_to_py`] gives each.
pub(super) fn events_to_py<'py, R: RulesetEvents>(
    py: Python<'py>,
    state: &MatchState<R>,
) -> PyResult<Bound<'py, PyList>> {
    let events = state
        .events
        .iter()
        .map(|e| event_to_py(py, state, e))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, events)
}

/// A turn end's `positions` (`engine.turn.positions`): `(uid, character id, side, cell,
/// injuries)` of every piece on the board.
pub(super) fn positions_to_py<'py>(
    py: Python<'py>,
    content: &Content,
    positions: &[(usize, usize, usize, i32, i32)],
) -> PyResult<Bound<'py, PyTuple>> {
    let rows = positions
        .iter()
        .map(|&(uid, spec, side, cell, injuries)| {
            (uid, content.chars[spec].id.as_str(), side, cell, injuries).into_pyobject(py)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, rows)
}

/// The options every ruleset's object carries (engine/rules.py's `EngineOptions`).
pub(super) fn engine_options(opts: &Bound<'_, PyAny>) -> PyResult<EngineOptions> {
    Ok(EngineOptions {
        turn_limit: get(opts, "turn_limit")?,
        strict_corner_los: get(opts, "strict_corner_los")?,
        caster_in_own_area: get(opts, "caster_in_own_area")?,
        bombs_unfazed: get(opts, "bombs_unfazed")?,
        scenery_destruction: get(opts, "scenery_destruction")?,
        scenery_hp: per_scenery(opts, "scenery_hp")?,
        scenery_hit_under_piece: get(opts, "scenery_hit_under_piece")?,
    })
}

/// An option table of one value per scenery kind (`{tree, bush, crate}`), in [`Scenery`] order.
///
/// [`Scenery`]: crate::engine::rules::Scenery
pub(super) fn per_scenery(opts: &Bound<'_, PyAny>, name: &str) -> PyResult<[i32; 3]> {
    let d = opts.getattr(name)?;
    Ok([
        d.get_item("tree")?.extract()?,
        d.get_item("bush")?.extract()?,
        d.get_item("crate")?.extract()?,
    ])
}

/// A match's content as it crosses: every spec by id (the teams', first seen first, then the
/// summonable pieces), the teams as indices into it, and the Python objects in that order.
pub(super) struct Loaded<'py> {
    pub content: Content,
    pub names: Vec<String>,
    pub objs: Vec<Bound<'py, PyAny>>,
    pub teams: Vec<Vec<usize>>,
}

/// [`Loaded`] from the teams' `CharacterSpec`s, the summonable pieces by id and the punch
/// `SpellSpec` a ruleset gives its Krosmasters (None: no punch).
pub(super) fn load_content<'py>(
    teams: &[Vec<Bound<'py, PyAny>>],
    pieces: &Bound<'py, PyDict>,
    punch: Option<&Bound<'py, PyAny>>,
) -> PyResult<Loaded<'py>> {
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
    let punch = punch.map(|p| spell_of(p, &names, &mut keys)).transpose()?;
    let teams = teams
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
    let content = Content {
        chars,
        punch,
        rewards: Vec::new(),
        keys: keys.0,
    };
    Ok(Loaded {
        content,
        names,
        objs,
        teams,
    })
}

#[cfg(test)]
mod tests {
    use super::{DAMAGE_DEALT, DAMAGE_TAKEN};
    use crate::content::ELEMENTS;

    #[test]
    fn damage_keys_follow_the_elements() {
        for (i, element) in ELEMENTS.iter().enumerate() {
            assert_eq!(DAMAGE_DEALT[i], format!("damage_dealt_{element}"));
            assert_eq!(DAMAGE_TAKEN[i], format!("damage_taken_{element}"));
        }
    }
}
