//! The scenario kit's lockstep (issue 37): a hand-built Arena position (`krosbalance.testing.scenario`)
//! rebuilt in the core from the plain description the kit exports, one engine step played on it
//! (an action, the start or the end of an activation, a whole game turn), and the core's events and
//! its position after the step handed back in the same plain form, so the kit compares both engines
//! after every step of every rule test.
//!
//! The position crosses whole before every step, so what a test writes straight into the
//! reference's state between steps (injuries, AP, GG...) reaches the core too. The decisions a
//! step asks of the players (the test's `ScriptedController`) are the reference's own answers,
//! recorded by the kit and replayed here in the order the core asks for them; a question the
//! reference was not asked gets the answer the reference gives without a player.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::convert::event_to_py;
use super::match_play::{PyArenaCatalog, options_of, unsupported};
use crate::PyBoard;
use crate::board::Cell;
use crate::content::{ELEMENTS, Element, Power, Powers, SpellRef};
use crate::engine::dice::Dice;
use crate::engine::pieces::spawn;
use crate::engine::rules::{Action, Controller};
use crate::engine::state::{FighterStats, MatchState};
use crate::engine::turn::{begin_activation, character_turn, end_activation, game_turn, perform};
use crate::rulesets::arena::four_player::{Purpose, default_choice};
use crate::rulesets::arena::rewards::{HeldToken, Market, Mods, RewardCard};
use crate::rulesets::arena::tension::TensionChoice;
use crate::rulesets::arena::{Arena, ArenaController, ArenaState};

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

/// The reasons a match ends (`end_match`'s), so a test's own `end_reason` crosses as the core's.
const END_REASONS: [&str; 6] = [
    "",
    "gg",
    "gg_exhausted",
    "last_standing",
    "mutual_ko",
    "turn_limit",
];

fn item<'py, T: for<'a> FromPyObject<'a, 'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    d.get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("the position has no {key:?}")))?
        .extract::<T>()
        .map_err(Into::into)
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
fn key_of(state: &MatchState<Arena>, id: &str) -> PyResult<u32> {
    state
        .content
        .keys
        .iter()
        .position(|k| k == id)
        .map(|k| k as u32)
        .ok_or_else(|| unsupported(format!("the spell {id:?} is not in the scenario's catalog")))
}

fn reward_index(state: &MatchState<Arena>, id: &str) -> PyResult<usize> {
    state
        .content
        .rewards
        .iter()
        .position(|r| r.id == id)
        .ok_or_else(|| unsupported(format!("the reward {id:?} is not in the catalog")))
}

/// A spell a fighter holds, by id: its card's, the punch, a reward's, another card's.
fn spell_ref(state: &MatchState<Arena>, spec: usize, id: &str) -> PyResult<SpellRef> {
    let content = &state.content;
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

fn card_of(state: &MatchState<Arena>, d: &Bound<'_, PyDict>) -> PyResult<RewardCard> {
    let mut tokens = Vec::new();
    for t in item::<Vec<(String, bool, i32, bool)>>(d, "tokens")? {
        tokens.push(HeldToken {
            reward: reward_index(state, &t.0)?,
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
        v.iter().map(|id| reward_index(state, id)).collect()
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
        .map(|(pile, id)| Ok((pile, reward_index(state, &id)?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Market {
        piles: out,
        face_up,
        boxed: ids(item(d, "box")?)?,
        hidden_box: ids(item(d, "hidden_box")?)?,
        prices: item(d, "prices")?,
    })
}

/// The core's match state for a position the kit exported (`scenario_core.export_position`).
fn build(
    catalog: &PyArenaCatalog,
    board: &PyBoard,
    options: &Bound<'_, PyAny>,
    pos: &Bound<'_, PyDict>,
) -> PyResult<(MatchState<Arena>, usize)> {
    let (arena, engine) = options_of(options)?;
    let team_of: Vec<usize> = item(pos, "team_of")?;
    let rules = ArenaState::start(&board.inner, &arena, team_of.len());
    let faces: Vec<u8> = item(pos, "dice")?;
    let n_faces = faces.len();
    // replay dice cycle; the kit's script does not: the faces used are counted and compared
    let dice = Dice::replay(if faces.is_empty() { vec![0] } else { faces }.into());
    let mut state = MatchState::new(
        board.inner.clone(),
        catalog.content.clone(),
        Arc::new(Arena { opts: arena }),
        engine,
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
        let spec = catalog
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
        let spec = state.fighters[uid].spec;
        let spells = item::<Vec<String>>(d, "spells")?
            .iter()
            .map(|id| spell_ref(&state, spec, id))
            .collect::<PyResult<Vec<_>>>()?;
        let summon_spell = match item::<Option<String>>(d, "summon_spell")? {
            Some(id) => Some(key_of(&state, &id)?),
            None => None,
        };
        let mut turn_uses = Vec::new();
        for (id, n) in item::<Vec<(String, usize)>>(d, "turn_uses")? {
            let key = key_of(&state, &id)?;
            turn_uses.extend(std::iter::repeat_n(key, n));
        }
        let game_uses = item::<Vec<String>>(d, "game_uses")?
            .iter()
            .map(|id| key_of(&state, id))
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
    let rules: Bound<'_, PyDict> = item(pos, "arena")?;
    state.rules.gg = item(&rules, "gg")?;
    state.rules.wild_gg = item(&rules, "wild_gg")?;
    state.rules.gg_removed = item(&rules, "gg_removed")?;
    state.rules.kamas = item(&rules, "kamas")?;
    state.rules.kama_reserve = item(&rules, "kama_reserve")?;
    state.rules.board_kamas = item(&rules, "board_kamas")?;
    state.rules.gg_price = item(&rules, "gg_price")?;
    state.rules.market = match rules.get_item("market")? {
        Some(m) if !m.is_none() => Some(market_of(&state, m.cast::<PyDict>()?)?),
        _ => None,
    };
    let mut cards = vec![None; state.fighters.len()];
    for (uid, d) in fighters.iter().enumerate() {
        if let Some(card) = d.get_item("card")?
            && !card.is_none()
        {
            cards[uid] = Some(card_of(&state, card.cast::<PyDict>()?)?);
        }
    }
    state.rules.cards = cards;
    Ok((state, n_faces))
}

/// The core's position in the kit's plain form (`scenario_core.export_position`'s keys).
fn snapshot<'py>(py: Python<'py>, state: &MatchState<Arena>) -> PyResult<Bound<'py, PyDict>> {
    let content = &state.content;
    let key = |k: u32| content.keys[k as usize].as_str();
    let reward = |r: usize| content.rewards[r].id.as_str();
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
        let card = match state.rules.cards.get(f.uid).and_then(Option::as_ref) {
            None => None,
            Some(c) => {
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
                Some(cd)
            }
        };
        d.set_item("card", card)?;
        fighters.push(d);
    }
    out.set_item("fighters", PyList::new(py, fighters)?)?;
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
    out.set_item("arena", rules)?;
    Ok(out)
}

/// One answer the reference's player gave, in the order given.
#[derive(Clone, Debug)]
enum Answer {
    Action(Action),
    Triggers(Vec<usize>),
    Tension(TensionChoice),
    Creatures(Vec<usize>),
    Player(usize),
    Reward(usize),
    Edge(usize),
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
            Answer::Tension(TensionChoice { faces, assigned })
        }
        "creatures" => Answer::Creatures(t.get_item(1)?.extract()?),
        "player" => Answer::Player(t.get_item(1)?.extract()?),
        "reward" => Answer::Reward(t.get_item(1)?.extract()?),
        "edge" => Answer::Edge(t.get_item(1)?.extract()?),
        other => return Err(unsupported(format!("a recorded answer {other:?}"))),
    })
}

/// A seat's player that gives back the reference's recorded answers; what does not fit (a
/// question the reference was asked differently, an action the core finds illegal) is written to
/// `problems`, and the step is then reported as a divergence.
struct Replay {
    seat: usize,
    answers: VecDeque<Answer>,
    problems: Rc<RefCell<Vec<String>>>,
}

impl Replay {
    fn next(&mut self, asked: &str, fits: impl Fn(&Answer) -> bool) -> Option<Answer> {
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
}

impl Controller<Arena> for Replay {
    fn choose_action(&mut self, _state: &MatchState<Arena>, legal: &[Action]) -> usize {
        let end = legal
            .iter()
            .position(|a| *a == Action::END_TURN)
            .unwrap_or(0);
        match self.next("action", |a| matches!(a, Answer::Action(_))) {
            Some(Answer::Action(action)) => {
                legal.iter().position(|a| *a == action).unwrap_or_else(|| {
                    self.problems.borrow_mut().push(format!(
                    "the reference's action {action:?} is not legal in the core (legal: {legal:?})"
                ));
                    end
                })
            }
            _ => end,
        }
    }

    fn order_triggers(&mut self, _state: &MatchState<Arena>, n: usize) -> Vec<usize> {
        match self.next("triggers", |a| matches!(a, Answer::Triggers(_))) {
            Some(Answer::Triggers(order)) if order.len() == n => order,
            // the reference without a controller keeps the listed order (engine.turn.ordered)
            _ => (0..n).collect(),
        }
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
        self.problems
            .borrow_mut()
            .push("the core asked for a deployment".to_string());
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
                self.problems.borrow_mut().push(format!(
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
                self.problems.borrow_mut().push(format!(
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

/// The step a scenario takes, as the kit names it (`legal` changes nothing: the legal actions are
/// read by `scenario_step`).
fn run_step(
    state: &mut MatchState<Arena>,
    step: &(String, i64, u8, i32, i32),
    players: &mut [Box<dyn ArenaController>],
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
fn checked_by_is_legal(state: &MatchState<Arena>, uid: usize, list: &[Action]) -> Vec<Action> {
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

/// Rebuild a scenario's position in the core, play one step on it and hand back what happened.
///
/// `position`: the kit's plain position (`krosbalance.testing.scenario_core.export_position`);
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
    let (mut state, n_faces) = build(&catalog, &board, options, position)?;
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
    let mut players: Vec<Box<dyn ArenaController>> = Vec::new();
    if let Some(seats) = answers {
        for (seat, list) in seats.iter().enumerate() {
            let answers = list
                .iter()
                .map(answer_of)
                .collect::<PyResult<VecDeque<_>>>()?;
            players.push(Box::new(Replay {
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
fn plant_in(event: &mut crate::engine::events::Event<crate::rulesets::arena::ArenaEvent>) {
    use crate::engine::events::Event;
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scenario_step, m)?)
}
