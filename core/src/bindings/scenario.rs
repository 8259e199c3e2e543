//! The scenario kit's lockstep (issues 37 and 41): a hand-built position of a rule test
//! (`krosbalance.testing.scenario`, `.duel`, `.blast`) rebuilt in the core from the plain
//! description the kit exports, one engine step played on it (an action, the start or the end of
//! an activation, a whole game turn), and the core's events and its position after the step
//! handed back in the same plain form, so the kit compares both engines after every step of every
//! rule test.
//!
//! What every ruleset shares lives here, generic over the [`MatchRules`] seam: the engine's part
//! of the position (board sets, Timeline, fighters), the replayed players, the step and the
//! legality question. What is a ruleset's own ([`ScenarioRules`]: its state under the position's
//! `arena` / `duel` / `blast` key, its players' questions, its pyfunction) is in
//! `scenario_arena.rs`, `scenario_duel.rs` and `scenario_blast.rs`.
//!
//! The position crosses whole before every step, so what a test writes straight into the
//! reference's state between steps (injuries, AP, GG, tokens, glyphs...) reaches the core too. The
//! decisions a step asks of the players (the test's `ScriptedController`) are the reference's own
//! answers, recorded by the kit and replayed here in the order the core asks for them; a question
//! the reference was not asked gets the answer the reference gives without a player.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::convert::{RulesetEvents, event_to_py};
use super::match_play::unsupported;
use crate::PyBoard;
use crate::board::Board;
use crate::content::{Content, ELEMENTS, Element, Power, Powers, SpellRef};
use crate::engine::dice::Dice;
use crate::engine::events::Event;
use crate::engine::pieces::spawn;
use crate::engine::rules::{Action, Controller, MatchRules};
use crate::engine::state::{EngineOptions, FighterStats, MatchState};
use crate::engine::turn::{begin_activation, character_turn, end_activation, game_turn, perform};

/// Every power the core knows, by the reference's name.
const POWERS: [(&str, Power); 12] = [
    ("critical", Power::Critical),
    ("armour", Power::Armour),
    ("lock", Power::Lock),
    ("dodge", Power::Dodge),
    ("tiny", Power::Tiny),
    ("counter", Power::Counter),
    ("healing", Power::Healing),
    ("unfazed", Power::Unfazed),
    ("krobust", Power::Krobust),
    ("perfect_lock", Power::PerfectLock),
    ("invisibility", Power::Invisibility),
    ("stimulus", Power::Stimulus),
];

/// The reasons a match ends (every ruleset's `end_match`), so a test's own `end_reason` crosses
/// as the core's.
const END_REASONS: [&str; 9] = [
    "",
    "gg",
    "gg_exhausted",
    "last_standing",
    "mutual_ko",
    "turn_limit",
    "ko",
    "glyphs",
    "glyph_draw",
];

/// What a ruleset adds to the lockstep: its own state in the plain position, and its players.
pub(super) trait ScenarioRules: RulesetEvents {
    /// The position's key of the ruleset's state (`arena`, `duel`, `blast`).
    const KEY: &'static str;

    /// The ruleset's state of a match before anything is placed (its `new_state`).
    fn fresh(&self, board: &Board, seats: usize) -> Self::State;

    /// Write the ruleset's state from the position (its `KEY`, and the fighters' own entries).
    fn rebuild(state: &mut MatchState<Self>, pos: &Bound<'_, PyDict>) -> PyResult<()>;

    /// The ruleset's state in the form [`ScenarioRules::rebuild`] reads (`KEY`'s value).
    fn export<'py>(py: Python<'py>, state: &MatchState<Self>) -> PyResult<Bound<'py, PyDict>>;

    /// A fighter's card of the ruleset's own (Arena's reward tokens); None when it holds none.
    fn card<'py>(
        _py: Python<'py>,
        _state: &MatchState<Self>,
        _uid: usize,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        Ok(None)
    }

    /// The ruleset's player that gives back the reference's recorded answers.
    fn player(replay: Replay) -> Box<Self::Player>;
}

pub(super) fn item<'py, T: for<'a> FromPyObject<'a, 'py>>(
    d: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<T>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    d.get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("the position has no {key:?}")))?
        .extract::<T>()
        .map_err(Into::into)
}

/// The ruleset's own part of the position (`KEY`'s dict).
pub(super) fn part<'py>(pos: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyDict>> {
    item(pos, key)
}

fn powers_of(names: &[String]) -> PyResult<Powers> {
    let mut bits = 0;
    for name in names {
        let power =
            Power::from_name(name).ok_or_else(|| unsupported(format!("the power {name:?}")))?;
        bits |= power.bit();
    }
    Ok(bits)
}

fn power_names(bits: Powers) -> Vec<&'static str> {
    let mut names: Vec<&str> = POWERS
        .iter()
        .filter(|(_, p)| bits & p.bit() != 0)
        .map(|(n, _)| *n)
        .collect();
    names.sort_unstable();
    names
}

fn elements_of(names: &[String]) -> PyResult<u8> {
    let mut bits = 0;
    for name in names {
        let e = Element::from_name(name).ok_or_else(|| unsupported(format!("element {name:?}")))?;
        bits |= 1 << e.index();
    }
    Ok(bits)
}

fn element_names(bits: u8) -> Vec<&'static str> {
    let mut names: Vec<&str> = (0..ELEMENTS.len())
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| ELEMENTS[i])
        .collect();
    names.sort_unstable();
    names
}

/// The interned key of a spell id (`SpellSpec::key`).
fn key_of(content: &Content, id: &str) -> PyResult<u32> {
    content
        .keys
        .iter()
        .position(|k| k == id)
        .map(|k| k as u32)
        .ok_or_else(|| unsupported(format!("the spell {id:?} is not in the scenario's catalog")))
}

/// A spell a fighter holds, by id: its card's, the punch, a reward's, another card's.
fn spell_ref(content: &Content, spec: usize, id: &str) -> PyResult<SpellRef> {
    if let Some(i) = content.chars[spec].spells.iter().position(|s| s.id == id) {
        return Ok(SpellRef::Card(spec as u32, i as u32));
    }
    if content.punch.as_ref().is_some_and(|p| p.id == id) {
        return Ok(SpellRef::Punch);
    }
    if let Some(r) = content
        .rewards
        .iter()
        .position(|r| r.spell.as_ref().is_some_and(|s| s.id == id))
    {
        return Ok(SpellRef::Reward(r as u32));
    }
    for (c, ch) in content.chars.iter().enumerate() {
        if let Some(i) = ch.spells.iter().position(|s| s.id == id) {
            return Ok(SpellRef::Card(c as u32, i as u32));
        }
    }
    Err(unsupported(format!("the spell {id:?}")))
}

fn stats_of(d: &Bound<'_, PyDict>) -> PyResult<FighterStats> {
    Ok(FighterStats {
        damage_dealt: item(d, "damage_dealt")?,
        damage_taken: item(d, "damage_taken")?,
        heals_given: item(d, "heals_given")?,
        heals_received: item(d, "heals_received")?,
        kills: item(d, "kills")?,
        knocked_out: item(d, "knocked_out")?,
        turns_alive: item(d, "turns_alive")?,
        spells_cast: item(d, "spells_cast")?,
        moves: item(d, "moves")?,
        times_blocked: item(d, "times_blocked")?,
        kamas_collected: item(d, "kamas_collected")?,
        gg_won: item(d, "gg_won")?,
        rewards_bought: item(d, "rewards_bought")?,
        rewards_revealed: item(d, "rewards_revealed")?,
        rewards_held: item(d, "rewards_held")?,
        rewards_used: item(d, "rewards_used")?,
        rewards_held_turns: item(d, "rewards_held_turns")?,
        rewards_used_turns: item(d, "rewards_used_turns")?,
    })
}

/// What a scenario step's match is made of besides the position: the catalog's content and
/// names, the ruleset object, the engine's options, the board.
pub(super) struct Setting<'a, R> {
    pub content: Arc<Content>,
    pub names: &'a [String],
    pub ruleset: Arc<R>,
    pub engine: EngineOptions,
    pub board: &'a PyBoard,
}

/// The core's match state for a position the kit exported (`position_export.export_position`),
/// and how many scripted dice faces it holds.
pub(super) fn build<R: ScenarioRules>(
    setting: Setting<'_, R>,
    pos: &Bound<'_, PyDict>,
) -> PyResult<(MatchState<R>, usize)> {
    let board = &setting.board.inner;
    let team_of: Vec<usize> = item(pos, "team_of")?;
    let rules = setting.ruleset.fresh(board, team_of.len());
    let faces: Vec<u8> = item(pos, "dice")?;
    let n_faces = faces.len();
    // replay dice cycle; the kit's script does not: the faces used are counted and compared
    let dice = Dice::replay(if faces.is_empty() { vec![0] } else { faces }.into());
    let mut state = MatchState::new(
        board.clone(),
        setting.content,
        setting.ruleset,
        setting.engine,
        rules,
        dice,
        item(pos, "record")?,
        team_of,
    );
    for (key, set) in [
        ("obstacles", &mut state.obstacles),
        ("sight_blockers", &mut state.sight_blockers),
        ("trees", &mut state.trees),
        ("bushes", &mut state.bushes),
        ("crates", &mut state.crates),
        ("fixed_sight", &mut state.fixed_sight),
        ("invisible", &mut state.invisible),
    ] {
        let value = pos
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("the position has no {key:?}")))?;
        *set = crate::mask_from_py(&value, key)?;
    }
    for (k, v) in item::<Vec<(usize, i32)>>(pos, "scenery_injuries")? {
        state.scenery_injuries[k] = v;
    }
    state.turn = item(pos, "turn")?;
    state.active_side = item(pos, "active_side")?;
    state.first_player = item(pos, "first_player")?;
    state.play_order = item(pos, "play_order")?;
    state.edges = item(pos, "edges")?;
    state.timeline = item(pos, "timeline")?;
    state.lock_holders = item(pos, "lock_holders")?;
    state.active = item(pos, "active")?;
    state.winner = item(pos, "winner")?;
    state.finished = item(pos, "finished")?;
    let reason: String = item(pos, "end_reason")?;
    state.end_reason = END_REASONS
        .iter()
        .find(|r| **r == reason)
        .ok_or_else(|| unsupported(format!("the end reason {reason:?}")))?;
    let fighters: Vec<Bound<'_, PyDict>> = item(pos, "fighters")?;
    for (i, d) in fighters.iter().enumerate() {
        let id: String = item(d, "spec")?;
        let spec = setting
            .names
            .iter()
            .position(|n| *n == id)
            .ok_or_else(|| unsupported(format!("{id:?} is not in the scenario's catalog")))?;
        let uid = spawn(&mut state, spec, item(d, "side")?, None, None);
        if uid != i || item::<usize>(d, "uid")? != uid {
            return Err(unsupported("fighters whose uids are not 0..n".to_string()));
        }
    }
    for (uid, d) in fighters.iter().enumerate() {
        let content = state.content.clone();
        let spec = state.fighters[uid].spec;
        let spells = item::<Vec<String>>(d, "spells")?
            .iter()
            .map(|id| spell_ref(&content, spec, id))
            .collect::<PyResult<Vec<_>>>()?;
        let summon_spell = match item::<Option<String>>(d, "summon_spell")? {
            Some(id) => Some(key_of(&content, &id)?),
            None => None,
        };
        let mut turn_uses = Vec::new();
        for (id, n) in item::<Vec<(String, usize)>>(d, "turn_uses")? {
            let key = key_of(&content, &id)?;
            turn_uses.extend(std::iter::repeat_n(key, n));
        }
        let game_uses = item::<Vec<String>>(d, "game_uses")?
            .iter()
            .map(|id| key_of(&content, id))
            .collect::<PyResult<Vec<_>>>()?;
        let banned = item::<Vec<(String, usize)>>(d, "banned_targets")?
            .iter()
            .map(|(id, uid)| Ok((key_of(&content, id)?, *uid)))
            .collect::<PyResult<Vec<_>>>()?;
        let forbidden: Vec<String> = item(d, "forbidden_powers")?;
        let (forbid_resist, forbid_immune) = (
            forbidden.iter().any(|p| p == "resistance"),
            forbidden.iter().any(|p| p == "immune"),
        );
        let forbidden: Vec<String> = forbidden
            .into_iter()
            .filter(|p| p != "resistance" && p != "immune")
            .collect();
        let stats = d
            .get_item("stats")?
            .ok_or_else(|| PyValueError::new_err("a fighter without stats"))?;
        let f = &mut state.fighters[uid];
        f.team = item(d, "team")?;
        f.cell = item(d, "cell")?;
        f.injuries = item(d, "injuries")?;
        f.hp = item(d, "hp")?;
        f.base_mp = item(d, "base_mp")?;
        f.base_ap = item(d, "base_ap")?;
        f.mp = item(d, "mp")?;
        f.ap = item(d, "ap")?;
        f.level = item(d, "level")?;
        f.alive = item(d, "alive")?;
        f.spells = spells;
        f.powers = powers_of(&item::<Vec<String>>(d, "powers")?)?;
        f.inspired = powers_of(&item::<Vec<String>>(d, "inspired")?)?;
        f.resist = elements_of(&item::<Vec<String>>(d, "resist")?)?;
        f.immune = elements_of(&item::<Vec<String>>(d, "immune")?)?;
        f.summoner = item(d, "summoner")?;
        f.summon_spell = summon_spell;
        f.summons = item(d, "summons")?;
        f.plus_mp = item(d, "plus_mp")?;
        f.minus_mp = item(d, "minus_mp")?;
        f.plus_ap = item(d, "plus_ap")?;
        f.minus_ap = item(d, "minus_ap")?;
        f.turn_uses = turn_uses;
        f.game_uses = game_uses;
        f.max_range_bonus = item(d, "max_range_bonus")?;
        f.forbidden_kinds = item::<Vec<u32>>(d, "forbidden_kinds")?
            .iter()
            .fold(0, |bits, k| bits | (1 << k));
        f.banned_targets = banned;
        f.forbidden_powers = powers_of(&forbidden)?;
        f.forbid_resist = forbid_resist;
        f.forbid_immune = forbid_immune;
        f.range_bonus = item(d, "range_bonus")?;
        f.blocked = item(d, "blocked")?;
        f.placed_turn = item(d, "placed_turn")?;
        f.acting = item(d, "acting")?;
        f.ko_by = item(d, "ko_by")?;
        f.stats = stats_of(stats.cast::<PyDict>()?)?;
    }
    for (cell, uid) in item::<Vec<(usize, usize)>>(pos, "occupied")? {
        state.by_cell[cell] = Some(uid);
    }
    for (cell, uid) in item::<Vec<(u8, usize)>>(pos, "traps")? {
        state.trap_at[usize::from(cell)] = Some(uid);
        state.traps.insert(cell);
    }
    R::rebuild(&mut state, pos)?;
    Ok((state, n_faces))
}

/// The core's position in the kit's plain form (`position_export.export_position`'s keys).
fn snapshot<'py, R: ScenarioRules>(
    py: Python<'py>,
    state: &MatchState<R>,
) -> PyResult<Bound<'py, PyDict>> {
    let content = &state.content;
    let key = |k: u32| content.keys[k as usize].as_str();
    let out = PyDict::new(py);
    for (name, set) in [
        ("obstacles", state.obstacles),
        ("sight_blockers", state.sight_blockers),
        ("trees", state.trees),
        ("bushes", state.bushes),
        ("crates", state.crates),
        ("fixed_sight", state.fixed_sight),
        ("invisible", state.invisible),
    ] {
        out.set_item(name, crate::mask_to_py(py, set)?)?;
    }
    let scenery: Vec<(usize, i32)> = state
        .scenery_injuries
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(k, v)| (k, *v))
        .collect();
    out.set_item("scenery_injuries", scenery)?;
    out.set_item("turn", state.turn)?;
    out.set_item("active_side", state.active_side)?;
    out.set_item("first_player", state.first_player)?;
    out.set_item("play_order", &state.play_order)?;
    out.set_item("team_of", &state.team_of)?;
    out.set_item("edges", &state.edges)?;
    out.set_item("timeline", &state.timeline)?;
    out.set_item("lock_holders", &state.lock_holders)?;
    out.set_item("active", state.active)?;
    out.set_item("winner", state.winner)?;
    out.set_item("finished", state.finished)?;
    out.set_item("end_reason", state.end_reason)?;
    out.set_item("record", state.record)?;
    let occupied: Vec<(usize, usize)> = state
        .by_cell
        .iter()
        .enumerate()
        .filter_map(|(c, u)| u.map(|u| (c, u)))
        .collect();
    out.set_item("occupied", occupied)?;
    let traps: Vec<(u8, usize)> = state
        .traps
        .iter()
        .filter_map(|c| state.trap_at[usize::from(c)].map(|u| (c, u)))
        .collect();
    out.set_item("traps", traps)?;
    let mut fighters = Vec::with_capacity(state.fighters.len());
    for f in &state.fighters {
        let d = PyDict::new(py);
        d.set_item("uid", f.uid)?;
        d.set_item("spec", &content.chars[f.spec].id)?;
        d.set_item("side", f.side)?;
        d.set_item("team", f.team)?;
        d.set_item("cell", f.cell)?;
        d.set_item("injuries", f.injuries)?;
        d.set_item("hp", f.hp)?;
        d.set_item("base_mp", f.base_mp)?;
        d.set_item("base_ap", f.base_ap)?;
        d.set_item("mp", f.mp)?;
        d.set_item("ap", f.ap)?;
        d.set_item("level", f.level)?;
        d.set_item("alive", f.alive)?;
        let spells: Vec<&str> = f
            .spells
            .iter()
            .map(|&s| content.resolve(s).id.as_str())
            .collect();
        d.set_item("spells", spells)?;
        d.set_item("powers", power_names(f.powers))?;
        d.set_item("inspired", power_names(f.inspired))?;
        d.set_item("resist", element_names(f.resist))?;
        d.set_item("immune", element_names(f.immune))?;
        d.set_item("summoner", f.summoner)?;
        d.set_item("summon_spell", f.summon_spell.map(key))?;
        d.set_item("summons", &f.summons)?;
        d.set_item("plus_mp", f.plus_mp)?;
        d.set_item("minus_mp", f.minus_mp)?;
        d.set_item("plus_ap", f.plus_ap)?;
        d.set_item("minus_ap", f.minus_ap)?;
        let mut uses: Vec<(&str, usize)> = Vec::new();
        for &k in &f.turn_uses {
            match uses.iter_mut().find(|(id, _)| *id == key(k)) {
                Some(entry) => entry.1 += 1,
                None => uses.push((key(k), 1)),
            }
        }
        uses.sort_unstable();
        d.set_item("turn_uses", uses)?;
        let mut game: Vec<&str> = f.game_uses.iter().map(|&k| key(k)).collect();
        game.sort_unstable();
        d.set_item("game_uses", game)?;
        d.set_item("max_range_bonus", f.max_range_bonus)?;
        let kinds: Vec<u32> = (0..32)
            .filter(|k| f.forbidden_kinds & (1 << k) != 0)
            .collect();
        d.set_item("forbidden_kinds", kinds)?;
        let mut banned: Vec<(&str, usize)> = f
            .banned_targets
            .iter()
            .map(|&(k, uid)| (key(k), uid))
            .collect();
        banned.sort_unstable();
        d.set_item("banned_targets", banned)?;
        let mut forbidden = power_names(f.forbidden_powers);
        if f.forbid_resist {
            forbidden.push("resistance");
        }
        if f.forbid_immune {
            forbidden.push("immune");
        }
        forbidden.sort_unstable();
        d.set_item("forbidden_powers", forbidden)?;
        d.set_item("range_bonus", f.range_bonus)?;
        d.set_item("blocked", f.blocked)?;
        d.set_item("placed_turn", f.placed_turn)?;
        d.set_item("acting", f.acting)?;
        d.set_item("ko_by", f.ko_by)?;
        let s = &f.stats;
        let stats = PyDict::new(py);
        stats.set_item("damage_dealt", s.damage_dealt.to_vec())?;
        stats.set_item("damage_taken", s.damage_taken.to_vec())?;
        stats.set_item("heals_given", s.heals_given)?;
        stats.set_item("heals_received", s.heals_received)?;
        stats.set_item("kills", s.kills)?;
        stats.set_item("knocked_out", s.knocked_out)?;
        stats.set_item("turns_alive", s.turns_alive)?;
        stats.set_item("spells_cast", s.spells_cast)?;
        stats.set_item("moves", s.moves)?;
        stats.set_item("times_blocked", s.times_blocked)?;
        stats.set_item("kamas_collected", s.kamas_collected)?;
        stats.set_item("gg_won", s.gg_won)?;
        stats.set_item("rewards_bought", s.rewards_bought)?;
        stats.set_item("rewards_revealed", s.rewards_revealed)?;
        stats.set_item("rewards_held", &s.rewards_held)?;
        stats.set_item("rewards_used", &s.rewards_used)?;
        stats.set_item("rewards_held_turns", &s.rewards_held_turns)?;
        stats.set_item("rewards_used_turns", &s.rewards_used_turns)?;
        d.set_item("stats", stats)?;
        d.set_item("card", R::card(py, state, f.uid)?)?;
        fighters.push(d);
    }
    out.set_item("fighters", PyList::new(py, fighters)?)?;
    out.set_item(R::KEY, R::export(py, state)?)?;
    Ok(out)
}

/// One answer the reference's player gave, in the order given.
#[derive(Clone, Debug)]
pub(super) enum Answer {
    Action(Action),
    Triggers(Vec<usize>),
    Tension(crate::rulesets::arena::tension::TensionChoice),
    Creatures(Vec<usize>),
    Player(usize),
    Reward(usize),
    Edge(usize),
    /// Duel: the index of the token revealed at the turn start, or -1 (R-D21).
    Reveal(i64),
    /// Blast: the slot of the favor revealed (R-B9).
    FavorSlot(usize),
    /// Blast: the uid that acts next (R-B10, R-B11).
    Next(usize),
}

fn answer_of(t: &Bound<'_, PyTuple>) -> PyResult<Answer> {
    let kind: String = t.get_item(0)?.extract()?;
    Ok(match kind.as_str() {
        "action" => {
            let (kind, spell, target): (u8, i32, i32) = t.get_item(1)?.extract()?;
            Answer::Action(Action::new(kind, spell, target))
        }
        "triggers" => Answer::Triggers(t.get_item(1)?.extract()?),
        "tension" => {
            let (faces, assigned): ((u8, u8), (i64, i64)) = t.get_item(1)?.extract()?;
            Answer::Tension(crate::rulesets::arena::tension::TensionChoice { faces, assigned })
        }
        "creatures" => Answer::Creatures(t.get_item(1)?.extract()?),
        "player" => Answer::Player(t.get_item(1)?.extract()?),
        "reward" => Answer::Reward(t.get_item(1)?.extract()?),
        "edge" => Answer::Edge(t.get_item(1)?.extract()?),
        "reveal" => Answer::Reveal(t.get_item(1)?.extract()?),
        "favor_slot" => Answer::FavorSlot(t.get_item(1)?.extract()?),
        "next" => Answer::Next(t.get_item(1)?.extract()?),
        other => return Err(unsupported(format!("a recorded answer {other:?}"))),
    })
}

/// A seat's player that gives back the reference's recorded answers; what does not fit (a
/// question the reference was asked differently, an action the core finds illegal) is written to
/// `problems`, and the step is then reported as a divergence. Each ruleset's controller trait is
/// implemented beside its [`ScenarioRules`].
pub(super) struct Replay {
    pub seat: usize,
    answers: VecDeque<Answer>,
    problems: Rc<RefCell<Vec<String>>>,
}

impl Replay {
    /// The next answer when it is of the kind asked (`fits`); an action asked that finds no
    /// fitting answer is a problem (another question's caller decides).
    pub fn next(&mut self, asked: &str, fits: impl Fn(&Answer) -> bool) -> Option<Answer> {
        match self.answers.front() {
            Some(a) if fits(a) => self.answers.pop_front(),
            Some(a) if asked == "action" => {
                self.problems.borrow_mut().push(format!(
                    "the core asked player {} for an action; the reference's next answer was {a:?}",
                    self.seat
                ));
                None
            }
            None if asked == "action" => {
                self.problems.borrow_mut().push(format!(
                    "the core asked player {} for an action the reference never asked for",
                    self.seat
                ));
                None
            }
            _ => None,
        }
    }

    /// Write a problem down (the step is then a divergence).
    pub fn problem(&self, what: String) {
        self.problems.borrow_mut().push(what);
    }
}

impl<R: MatchRules> Controller<R> for Replay {
    fn choose_action(&mut self, _state: &MatchState<R>, legal: &[Action]) -> usize {
        let end = legal
            .iter()
            .position(|a| *a == Action::END_TURN)
            .unwrap_or(0);
        match self.next("action", |a| matches!(a, Answer::Action(_))) {
            Some(Answer::Action(action)) => {
                legal.iter().position(|a| *a == action).unwrap_or_else(|| {
                    self.problem(format!(
                        "the reference's action {action:?} is not legal in the core (legal: {legal:?})"
                    ));
                    end
                })
            }
            _ => end,
        }
    }

    fn order_triggers(&mut self, _state: &MatchState<R>, n: usize) -> Vec<usize> {
        match self.next("triggers", |a| matches!(a, Answer::Triggers(_))) {
            Some(Answer::Triggers(order)) if order.len() == n => order,
            // the reference without a controller keeps the listed order (engine.turn.ordered)
            _ => (0..n).collect(),
        }
    }
}

/// The step a scenario takes, as the kit names it (`legal` changes nothing: the legal actions are
/// read by [`play`]).
fn run_step<R: MatchRules>(
    state: &mut MatchState<R>,
    step: &(String, i64, u8, i32, i32),
    players: &mut [Box<R::Player>],
) -> PyResult<Option<bool>> {
    let uid = usize::try_from(step.1).ok();
    let need = || uid.ok_or_else(|| PyValueError::new_err(format!("{} needs a uid", step.0)));
    Ok(match step.0.as_str() {
        "perform" => {
            perform(state, need()?, Action::new(step.2, step.3, step.4), players);
            None
        }
        "begin" => Some(begin_activation(state, need()?, players)),
        "end" => {
            end_activation(state, need()?);
            None
        }
        "game_turn" => {
            game_turn(state, players);
            None
        }
        "character_turn" => {
            character_turn(state, need()?, players);
            None
        }
        "none" | "legal" => None,
        other => return Err(PyValueError::new_err(format!("unknown step {other:?}"))),
    })
}

/// The legal list as the engine's legality test (`is_legal`, what the AIs ask) sees it: the list
/// kept where the test agrees, then every other walk or cast (each spell slot, one past the last,
/// every cell and two off the board) the test accepts. Equal to the list exactly when the two
/// agree, so the kit's comparison with the reference's list checks both.
fn checked_by_is_legal<R: MatchRules>(
    state: &MatchState<R>,
    uid: usize,
    list: &[Action],
) -> Vec<Action> {
    use crate::engine::legal::is_legal;
    use crate::engine::rules::{CAST, MOVE};
    let mut out: Vec<Action> = list
        .iter()
        .copied()
        .filter(|&a| is_legal(state, uid, a))
        .collect();
    let cells = state.board.n_cells() as i32;
    let slots = state.fighters[uid].spells.len() as i32;
    let mut candidates = vec![Action::END_TURN];
    for target in -1..=cells {
        candidates.push(Action::new(MOVE, -1, target));
        for spell in -1..=slots {
            candidates.push(Action::new(CAST, spell, target));
        }
    }
    for a in candidates {
        if !list.contains(&a) && is_legal(state, uid, a) {
            out.push(a);
        }
    }
    out
}

/// Play one step on a rebuilt position and hand back what happened (see `scenario_step`):
/// `{events, position, dice_used, began, problems}`, or `{legal}` for the step `legal`.
pub(super) fn play<'py, R: ScenarioRules>(
    py: Python<'py>,
    mut state: MatchState<R>,
    n_faces: usize,
    step: (String, i64, u8, i32, i32),
    answers: Option<Vec<Vec<Bound<'py, PyTuple>>>>,
    plant: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    if step.0 == "legal" {
        // the active character's legal actions in the reference's order (`legal_actions`)
        let uid = usize::try_from(step.1)
            .ok()
            .filter(|&u| u < state.fighters.len())
            .ok_or_else(|| PyValueError::new_err("legal needs a fighter's uid"))?;
        let mut legal = Vec::new();
        crate::engine::legal::legal_actions(&state, uid, &mut legal);
        let legal: Vec<(u8, i32, i32)> = checked_by_is_legal(&state, uid, &legal)
            .iter()
            .map(|a| (a.kind, a.spell, a.target))
            .collect();
        out.set_item("legal", legal)?;
        return Ok(out);
    }
    let problems = Rc::new(RefCell::new(Vec::new()));
    let mut players: Vec<Box<R::Player>> = Vec::new();
    if let Some(seats) = answers {
        for (seat, list) in seats.iter().enumerate() {
            let answers = list
                .iter()
                .map(answer_of)
                .collect::<PyResult<VecDeque<_>>>()?;
            players.push(R::player(Replay {
                seat,
                answers,
                problems: problems.clone(),
            }));
        }
    }
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_step(&mut state, &step, &mut players)
    }));
    let began = match outcome {
        Ok(result) => result?,
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_else(|| "a panic".to_string());
            problems
                .borrow_mut()
                .push(format!("a fault in the core: {what}"));
            None
        }
    };
    drop(players);
    if plant && let Some(first) = state.events.first_mut() {
        plant_in(first);
    }
    let events = state
        .events
        .iter()
        .map(|e| event_to_py(py, &state, e))
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("events", PyList::new(py, events)?)?;
    let faulted = problems.borrow().iter().any(|p| p.starts_with("a fault"));
    if faulted {
        out.set_item("position", py.None())?;
    } else {
        out.set_item("position", snapshot(py, &state)?)?;
    }
    let used = state.dice.position();
    out.set_item("dice_used", used)?;
    if used > n_faces {
        problems.borrow_mut().push(format!(
            "the core rolled {used} dice; the script had {n_faces} left"
        ));
    }
    out.set_item("began", began)?;
    out.set_item("problems", problems.borrow().clone())?;
    Ok(out)
}

/// Test-only: alter one event so the kit's comparison must fail (its own test).
fn plant_in<X>(event: &mut Event<X>) {
    match event {
        Event::TurnStarted { turn, .. }
        | Event::CharacterTurnStarted { turn, .. }
        | Event::Moved { turn, .. }
        | Event::LockRolled { turn, .. }
        | Event::SpellCast { turn, .. }
        | Event::DiceRolled { turn, .. }
        | Event::Damaged { turn, .. }
        | Event::Healed { turn, .. }
        | Event::KnockedOut { turn, .. }
        | Event::Summoned { turn, .. }
        | Event::MatchEnded { turn, .. } => *turn += 100,
        Event::Ruleset(_) => *event = Event::TurnStarted { turn: -1, side: 0 },
    }
}
