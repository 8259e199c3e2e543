//! One Arena match played in the core: loaded specs in (the Python loader's `CharacterSpec`s and
//! `SpellSpec`s, Arena's options object, the core's `Board`), the result and the event log out as
//! plain Python data. Nothing crosses per action.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::convert::{
    RulesetEvents, engine_options, events_to_py, fighter_order, fighter_row, load_content,
    per_scenery, positions_to_py, record_of, result_head, stats_record,
};
use crate::PyBoard;
use crate::board::AreaShape;
use crate::content::{
    CharacterSpec, Content, Effect, Element, Limit, PieceKind, Power, RANKS, RangeType,
    RewardEffect, RewardKind, RewardSpec, SpellKind, SpellSpec, TargetRule,
};
use crate::engine::events::{FULL, NONE, SUMMARY};
use crate::engine::pieces::Restriction;
use crate::engine::state::{EngineOptions, MatchState};
use crate::play::{ArenaMatch, play_arena, play_arena_planted};
use crate::rulesets::arena::{Arena, ArenaEvent, ArenaOptions, Mode};

/// Card powers only Krosmaster Blast reads, from its own table (`BlastPower`), never the engine.
pub(super) const BLAST_POWERS: [&str; 2] = ["capture_marker", "combat_reroll"];

pub(super) fn unsupported(what: String) -> PyErr {
    PyValueError::new_err(format!("not in the core yet: {what}"))
}

pub(super) fn get<'py, T: for<'a> FromPyObject<'a, 'py>>(
    obj: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<T>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    obj.getattr(name)?.extract::<T>().map_err(Into::into)
}

fn param_i32(params: &Bound<'_, PyAny>, key: &str, kind: &str) -> PyResult<i32> {
    params
        .get_item(key)
        .map_err(|_| unsupported(format!("effect {kind} without {key}")))?
        .extract()
}

fn effect_of(obj: &Bound<'_, PyAny>) -> PyResult<Effect> {
    let kind: String = get(obj, "kind")?;
    let params = obj.getattr("params")?;
    let n = |key: &str| param_i32(&params, key, &kind);
    Ok(match kind.as_str() {
        "pierce_armour" => Effect::PierceArmour,
        "lifesteal" => Effect::Lifesteal,
        "retreat" => Effect::Retreat { cells: n("cells")? },
        "approach" => Effect::Approach { cells: n("cells")? },
        "push" => Effect::Push { cells: n("cells")? },
        "attract" => Effect::Attract { cells: n("cells")? },
        "minus_mp" => Effect::MinusMp {
            amount: n("amount")?,
        },
        "plus_mp" => Effect::PlusMp {
            amount: n("amount")?,
        },
        "minus_ap" => Effect::MinusAp {
            amount: n("amount")?,
        },
        "plus_ap" => Effect::PlusAp {
            amount: n("amount")?,
        },
        "steal_mp" => Effect::StealMp {
            amount: n("amount")?,
        },
        "steal_ap" => Effect::StealAp {
            amount: n("amount")?,
        },
        "swap_places" => Effect::SwapPlaces,
        "bonus_per_adjacent_summon" => Effect::BonusPerAdjacentSummon {
            summon: params.get_item("summon")?.extract()?,
            damage: n("damage")?,
        },
        "range_bonus_this_turn" => Effect::RangeBonusThisTurn {
            amount: n("amount")?,
        },
        "lose_all_mp" => Effect::LoseAllMp,
        "element_bonus" => {
            let name: String = params.get_item("element")?.extract()?;
            let element = Element::from_name(&name)
                .ok_or_else(|| unsupported(format!("effect {kind} of element {name:?}")))?;
            Effect::ElementBonus {
                element,
                amount: n("amount")?,
            }
        }
        "carry_ally" => Effect::CarryAlly,
        "move_to_target" => Effect::MoveToTarget,
        "different_target_next" => Effect::DifferentTargetNext,
        "minus_marker_if_glyphs" => Effect::MinusMarkerIfGlyphs {
            glyphs: n("glyphs")?,
            ap: params.get_item("marker")?.extract::<String>()? != "mp",
            amount: n("amount")?,
        },
        other => return Err(unsupported(format!("the effect {other:?}"))),
    })
}

pub(super) fn spell_of(
    obj: &Bound<'_, PyAny>,
    pieces: &[String],
    keys: &mut Keys,
) -> PyResult<SpellSpec> {
    let id: String = get(obj, "id")?;
    let key = keys.intern(&id);
    let word = |name: &str| -> PyResult<String> { get(obj, name) };
    let kind = match word("kind")?.as_str() {
        "attack" => SpellKind::Attack,
        "heal" => SpellKind::Heal,
        "summon" => SpellKind::Summon,
        "special" => SpellKind::Special,
        other => return Err(unsupported(format!("spell kind {other:?}"))),
    };
    let element = Element::from_name(&word("element")?)
        .ok_or_else(|| unsupported(format!("the element of {id}")))?;
    let range_type = match word("range_type")?.as_str() {
        "classic" => RangeType::Classic,
        "line" => RangeType::Line,
        "melee" => RangeType::Melee,
        "personal" => RangeType::Personal,
        other => return Err(unsupported(format!("range type {other:?}"))),
    };
    let limit = match word("limit")?.as_str() {
        "unlimited" => Limit::Unlimited,
        "turn" => Limit::Turn,
        "game" => Limit::Game,
        other => return Err(unsupported(format!("limit {other:?}"))),
    };
    let target = match word("target")?.as_str() {
        "any" => TargetRule::Any,
        "free_cell" => TargetRule::FreeCell,
        "ally" => TargetRule::Ally,
        "enemy" => TargetRule::Enemy,
        "character" => TargetRule::Character,
        other => return Err(unsupported(format!("target rule {other:?}"))),
    };
    let area = AreaShape::from_name(&word("area")?)
        .ok_or_else(|| unsupported(format!("the area of {id}")))?;
    let effects = obj
        .getattr("effects")?
        .try_iter()?
        .map(|e| effect_of(&e?))
        .collect::<PyResult<Vec<_>>>()?;
    let summons: Option<String> = get(obj, "summons")?;
    let summons = match summons {
        None => None,
        Some(name) => Some(pieces.iter().position(|p| *p == name).ok_or_else(|| {
            PyValueError::new_err(format!("spell {id} summons {name:?}, not given"))
        })?),
    };
    Ok(SpellSpec {
        id,
        key,
        kind,
        element,
        ap_cost: get(obj, "ap_cost")?,
        mp_cost: get(obj, "mp_cost")?,
        injury_cost: get(obj, "injury_cost")?,
        range_min: get(obj, "range_min")?,
        range_max: get(obj, "range_max")?,
        range_type,
        needs_los: get(obj, "needs_los")?,
        fixed_range: get(obj, "fixed_range")?,
        limit,
        amount: get(obj, "amount")?,
        area,
        target,
        effects,
        summons,
        summon_control: get(obj, "summon_control")?,
    })
}

pub(super) fn character_of(
    obj: &Bound<'_, PyAny>,
    pieces: &[String],
    keys: &mut Keys,
) -> PyResult<CharacterSpec> {
    let id: String = get(obj, "id")?;
    let kind = match get::<String>(obj, "kind")?.as_str() {
        "krosmaster" => PieceKind::Krosmaster,
        "creature" => PieceKind::Creature,
        "bomb" => PieceKind::Bomb,
        "trap" => PieceKind::Trap,
        other => return Err(unsupported(format!("{id}: piece kind {other:?}"))),
    };
    let mut powers = 0u16;
    let mut stimulus_ap = false;
    let (mut resist, mut immune) = (0u8, 0u8);
    for p in obj.getattr("powers")?.try_iter()? {
        let p = p?;
        let name: String = get(&p, "kind")?;
        if name == "resistance" || name == "immune" {
            let element: String = p.getattr("params")?.get_item("element")?.extract()?;
            let element = Element::from_name(&element)
                .ok_or_else(|| unsupported(format!("{id}: element {element:?}")))?;
            if name == "resistance" {
                resist |= 1 << element.index();
            } else {
                immune |= 1 << element.index();
            }
            continue;
        }
        if BLAST_POWERS.contains(&name.as_str()) {
            continue; // the Blast ruleset's own (rulesets/blast/passives.py's POWERS)
        }
        let power = Power::from_name(&name)
            .ok_or_else(|| unsupported(format!("{id}: the power {name:?}")))?;
        if power == Power::Stimulus {
            let marker: String = p.getattr("params")?.get_item("marker")?.extract()?;
            stimulus_ap = marker != "mp"; // engine/powers.py's `_stimulus`: "mp", else AP
        }
        powers |= power.bit();
    }
    let spells = obj
        .getattr("spells")?
        .try_iter()?
        .map(|s| spell_of(&s?, pieces, keys))
        .collect::<PyResult<Vec<_>>>()?;
    let on_death: Option<String> = get(obj, "on_death")?;
    let on_death = match on_death {
        None => None,
        Some(name) => Some(
            spells
                .iter()
                .position(|s| s.id == name)
                .ok_or_else(|| PyValueError::new_err(format!("{id} has no spell {name:?}")))?,
        ),
    };
    if spells.len() >= 63 {
        return Err(unsupported(format!("{id}: more than 62 spells")));
    }
    Ok(CharacterSpec {
        id,
        name: get(obj, "name")?,
        kind,
        level: get(obj, "level")?,
        initiative: get(obj, "initiative")?,
        mp: get(obj, "mp")?,
        hp: get(obj, "hp")?,
        ap: get(obj, "ap")?,
        powers,
        resist,
        immune,
        spells,
        on_death,
        stimulus_ap,
    })
}

/// Interned spell and token ids (`SpellSpec::key`).
#[derive(Default)]
pub(super) struct Keys(pub(super) Vec<String>);

impl Keys {
    fn intern(&mut self, id: &str) -> u32 {
        match self.0.iter().position(|k| k == id) {
            Some(i) => i as u32,
            None => {
                self.0.push(id.to_string());
                (self.0.len() - 1) as u32
            }
        }
    }
}

fn reward_effect(obj: &Bound<'_, PyAny>, pieces: &[String]) -> PyResult<RewardEffect> {
    let kind: String = get(obj, "kind")?;
    let params = obj.getattr("params")?;
    let n = |key: &str| param_i32(&params, key, &kind);
    let element = |key: &str| -> PyResult<Element> {
        let name: String = params.get_item(key)?.extract()?;
        Element::from_name(&name).ok_or_else(|| unsupported(format!("element {name:?}")))
    };
    Ok(match kind.as_str() {
        "mp_now" => RewardEffect::MpNow(n("amount")?),
        "ap_now" => RewardEffect::ApNow(n("amount")?),
        "remove_injuries" => RewardEffect::RemoveInjuries(n("amount")?),
        "self_injuries" => RewardEffect::SelfInjuries(n("amount")?),
        "next_spell_damage" => RewardEffect::NextSpellDamage(element("element")?, n("amount")?),
        "next_elemental_attack_damage" => RewardEffect::NextElementalAttackDamage(n("amount")?),
        "summon" => {
            let name: String = params.get_item("summon")?.extract()?;
            let index = pieces.iter().position(|p| *p == name).ok_or_else(|| {
                PyValueError::new_err(format!("a reward summons {name:?}, not given"))
            })?;
            RewardEffect::Summon(index)
        }
        "recall" => RewardEffect::Recall,
        "one_shot_spell" => RewardEffect::OneShotSpell,
        "max_mp" => RewardEffect::MaxMp(n("amount")?),
        "max_ap" => RewardEffect::MaxAp(n("amount")?),
        "max_hp" => RewardEffect::MaxHp(n("amount")?),
        "lower_mp" => RewardEffect::LowerMp(n("amount")?),
        "power" => {
            let name: String = params.get_item("power")?.extract()?;
            // Stimulus reads its marker from the card (engine/powers.py): not a token's power
            RewardEffect::Power(
                Power::from_name(&name)
                    .filter(|&p| p != Power::Stimulus)
                    .ok_or_else(|| unsupported(format!("the power {name:?}")))?,
            )
        }
        "resistance" => RewardEffect::Resistance(element("element")?),
        "immune" => RewardEffect::Immune(element("element")?),
        "range" => RewardEffect::Range(n("amount")?),
        "damage" => RewardEffect::Damage(element("element")?, n("amount")?),
        "elemental_damage" => RewardEffect::ElementalDamage(n("amount")?),
        "melee_damage" => RewardEffect::MeleeDamage(n("amount")?),
        "melee_lifesteal" => RewardEffect::MeleeLifesteal,
        "weapon" => RewardEffect::Weapon,
        "kamas" => RewardEffect::Kamas(n("amount")?),
        "gg" => RewardEffect::Gg(n("amount")?),
        "buy_gg" => RewardEffect::BuyGg(n("kamas")?),
        "draw_reward" => {
            let rank: String = params.get_item("rank")?.extract()?;
            RewardEffect::DrawReward(
                RANKS
                    .iter()
                    .position(|r| *r == rank)
                    .ok_or_else(|| unsupported(format!("rank {rank:?}")))?,
            )
        }
        other => return Err(unsupported(format!("the reward effect {other:?}"))),
    })
}

fn reward_of(obj: &Bound<'_, PyAny>, pieces: &[String], keys: &mut Keys) -> PyResult<RewardSpec> {
    let id: String = get(obj, "id")?;
    let key = keys.intern(&id);
    let kind = match get::<String>(obj, "kind")?.as_str() {
        "boost" => RewardKind::Boost,
        "upgrade" => RewardKind::Upgrade,
        "equipment" => RewardKind::Equipment,
        other => return Err(unsupported(format!("{id}: reward kind {other:?}"))),
    };
    let slot = match get::<String>(obj, "slot")?.as_str() {
        "" => 0,
        "weapon" => 1,
        "set" => 2,
        "pet" => 3,
        "dofus" => 4,
        other => return Err(unsupported(format!("{id}: slot {other:?}"))),
    };
    let rank: String = get(obj, "rank")?;
    let rank = RANKS
        .iter()
        .position(|r| *r == rank)
        .ok_or_else(|| unsupported(format!("{id}: rank {rank:?}")))?;
    let effects = obj
        .getattr("effects")?
        .try_iter()?
        .map(|e| reward_effect(&e?, pieces))
        .collect::<PyResult<Vec<_>>>()?;
    let mut choices = Vec::new();
    for alternative in obj.getattr("choices")?.try_iter()? {
        choices.push(
            alternative?
                .try_iter()?
                .map(|e| reward_effect(&e?, pieces))
                .collect::<PyResult<Vec<_>>>()?,
        );
    }
    let spell = obj.getattr("spell")?;
    let spell = if spell.is_none() {
        None
    } else {
        Some(spell_of(&spell, pieces, keys)?)
    };
    Ok(RewardSpec {
        id,
        key,
        kind,
        slot,
        rank,
        effects,
        choices,
        spell,
    })
}

pub(super) fn options_of(opts: &Bound<'_, PyAny>) -> PyResult<(ArenaOptions, EngineOptions)> {
    let mode: String = get(opts, "mode")?;
    let mode = mode_of(&mode)?;

    fn two<T: Clone + Default>(lists: Vec<Vec<T>>, name: &str) -> PyResult<[Vec<T>; 2]> {
        match lists.len() {
            2 => Ok([lists[0].clone(), lists[1].clone()]),
            0 => Ok(Default::default()),
            n => Err(PyValueError::new_err(format!(
                "{name}: two lists, one per side, not {n}"
            ))),
        }
    }
    let engine = engine_options(opts)?;
    let prices = opts.getattr("reward_prices")?;
    let reward_prices = [
        prices.get_item("granite")?.extract()?,
        prices.get_item("jade")?.extract()?,
        prices.get_item("gold")?.extract()?,
    ];
    let arena = ArenaOptions {
        demonic_rewards: get(opts, "demonic_rewards")?,
        reward_prices,
        reward_refill_same_pile: get::<String>(opts, "reward_refill")? == "same_pile",
        reward_reveal_staged: get::<String>(opts, "reward_reveal")? == "staged",
        element_boost_waits: get(opts, "element_boost_waits")?,
        start_rewards: two(get(opts, "start_rewards")?, "start_rewards")?,
        start_reward_prices: two(get(opts, "start_reward_prices")?, "start_reward_prices")?,
        start_reward_gg_prices: two(
            get(opts, "start_reward_gg_prices")?,
            "start_reward_gg_prices",
        )?,
        start_reward_holders: two(get(opts, "start_reward_holders")?, "start_reward_holders")?,
        purchasable_rewards: two(get(opts, "purchasable_rewards")?, "purchasable_rewards")?,
        mode,
        four_player_gg: get(opts, "four_player_gg")?,
        four_player_wild_gg: get(opts, "four_player_wild_gg")?,
        starting_gg: get(opts, "starting_gg")?,
        wild_gg: get(opts, "wild_gg")?,
        gg_price: get(opts, "gg_price")?,
        kama_reserve: get(opts, "kama_reserve")?,
        first_turn_tension: get(opts, "first_turn_tension")?,
        zero_gg_loses: get(opts, "zero_gg_loses")?,
        turn_limit_gg: get::<String>(opts, "turn_limit_result")? == "gg",
        lock_block_ends_turn: get(opts, "lock_block_ends_turn")?,
        bomb_armour_dice: get(opts, "bomb_armour_dice")?,
        zero_gg_draw: get::<String>(opts, "simultaneous_zero_gg")? == "draw",
        scenery_loot: per_scenery(opts, "scenery_loot")?,
    };
    Ok((arena, engine))
}

fn mode_of(mode: &str) -> PyResult<Mode> {
    Ok(match mode {
        "two_player" => Mode::TwoPlayer,
        "free_for_all" => Mode::FreeForAll,
        "two_vs_two" => Mode::TwoVsTwo,
        other => return Err(unsupported(format!("Arena mode {other:?}"))),
    })
}

pub(super) fn record_level(record: &str) -> PyResult<u8> {
    Ok(match record {
        "none" => NONE,
        "summary" => SUMMARY,
        "full" => FULL,
        other => {
            return Err(PyValueError::new_err(format!(
                "record must be none, summary or full, got {other:?}"
            )));
        }
    })
}

impl RulesetEvents for Arena {
    fn ruleset_event<'py>(
        py: Python<'py>,
        state: &MatchState<Self>,
        event: &ArenaEvent,
        d: &Bound<'py, PyDict>,
    ) -> PyResult<&'static str> {
        let content = &state.content;
        Ok(match event {
            ArenaEvent::TensionRolled {
                turn,
                side,
                raw,
                faces,
                double,
                assigned,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("raw", (u32::from(raw.0), u32::from(raw.1)))?;
                d.set_item("faces", (u32::from(faces.0), u32::from(faces.1)))?;
                d.set_item("double", double)?;
                d.set_item("assigned", *assigned)?;
                "tension_rolled"
            }
            ArenaEvent::GGChanged {
                turn,
                side,
                amount,
                origin,
                gg,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("amount", amount)?;
                d.set_item("origin", origin)?;
                d.set_item("gg", PyTuple::new(py, gg)?)?;
                "gg_changed"
            }
            ArenaEvent::KamaPicked {
                turn,
                uid,
                cell,
                amount,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("cell", cell)?;
                d.set_item("amount", amount)?;
                "kama_picked"
            }
            ArenaEvent::RewardBought {
                turn,
                buyer,
                holder,
                reward,
                rank,
                visible,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("buyer", buyer)?;
                d.set_item("holder", holder)?;
                d.set_item("reward", &content.rewards[*reward].id)?;
                d.set_item("rank", RANKS[*rank])?;
                d.set_item("visible", visible)?;
                "reward_bought"
            }
            ArenaEvent::RewardRevealed {
                turn,
                uid,
                reward,
                detail,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("reward", &content.rewards[*reward].id)?;
                d.set_item("detail", detail)?;
                "reward_revealed"
            }
            ArenaEvent::TurnEnded {
                turn,
                side,
                gg,
                positions,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("gg", PyTuple::new(py, gg)?)?;
                d.set_item("positions", positions_to_py(py, content, positions)?)?;
                "turn_ended"
            }
        })
    }
}

/// One fighter's row: engine/results.py's `FighterRecord.as_row()` plus Arena's kamas and GG.
fn fighter_to_py<'py>(
    py: Python<'py>,
    state: &MatchState<Arena>,
    uid: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let row = fighter_row(py, state, uid)?;
    let s = &state.fighters[uid].stats;
    row.set_item("kamas_collected", s.kamas_collected)?;
    row.set_item("gg_won", s.gg_won)?;
    row.set_item("rewards_bought", s.rewards_bought)?;
    row.set_item("rewards_revealed", s.rewards_revealed)?;
    row.set_item("rewards_held", s.rewards_held.join(" "))?;
    row.set_item("rewards_used", s.rewards_used.join(" "))?;
    let turns = |t: &[i32]| t.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    row.set_item("rewards_held_turns", turns(&s.rewards_held_turns))?;
    row.set_item("rewards_used_turns", turns(&s.rewards_used_turns))?;
    Ok(row)
}

/// The columns of a compact fighter row (`ArenaCatalog.play(..., compact=True)`), in its order:
/// the reference's `FighterRecord` fields, then its `FighterStats` fields (damage as two lists by
/// element), then Arena's fighter columns (`ArenaStats.values()`). A tuple per fighter instead of
/// a dict of forty keys: the boundary was a fifth of a heuristic match.
pub(super) const COMPACT_FIGHTER_COLUMNS: [&str; 25] = [
    "uid",
    "side",
    "character",
    "name",
    "level",
    "is_summon",
    "summoner",
    "damage_dealt",
    "damage_taken",
    "heals_given",
    "heals_received",
    "kills",
    "knocked_out",
    "turns_alive",
    "spells_cast",
    "moves",
    "times_blocked",
    "kamas_collected",
    "gg_won",
    "rewards_bought",
    "rewards_revealed",
    "rewards_held",
    "rewards_used",
    "rewards_held_turns",
    "rewards_used_turns",
];

/// One fighter's compact row: the values of [`COMPACT_FIGHTER_COLUMNS`], in its order.
fn fighter_to_tuple<'py>(
    py: Python<'py>,
    state: &MatchState<Arena>,
    uid: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let f = &state.fighters[uid];
    let c = &state.content.chars[f.spec];
    let s = &f.stats;
    let turns = |t: &[i32]| t.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    let row: [Bound<'py, PyAny>; 25] = [
        f.uid.into_pyobject(py)?.into_any(),
        f.side.into_pyobject(py)?.into_any(),
        c.id.as_str().into_pyobject(py)?.into_any(),
        c.name.as_str().into_pyobject(py)?.into_any(),
        f.level.into_pyobject(py)?.into_any(),
        (f.kind != PieceKind::Krosmaster)
            .into_pyobject(py)?
            .to_owned()
            .into_any(),
        f.summoner
            .map_or(-1, |u| u as i64)
            .into_pyobject(py)?
            .into_any(),
        PyList::new(py, s.damage_dealt)?.into_any(),
        PyList::new(py, s.damage_taken)?.into_any(),
        s.heals_given.into_pyobject(py)?.into_any(),
        s.heals_received.into_pyobject(py)?.into_any(),
        s.kills.into_pyobject(py)?.into_any(),
        s.knocked_out.into_pyobject(py)?.to_owned().into_any(),
        s.turns_alive.into_pyobject(py)?.into_any(),
        s.spells_cast.into_pyobject(py)?.into_any(),
        s.moves.into_pyobject(py)?.into_any(),
        s.times_blocked.into_pyobject(py)?.into_any(),
        s.kamas_collected.into_pyobject(py)?.into_any(),
        s.gg_won.into_pyobject(py)?.into_any(),
        s.rewards_bought.into_pyobject(py)?.into_any(),
        s.rewards_revealed.into_pyobject(py)?.into_any(),
        s.rewards_held.join(" ").into_pyobject(py)?.into_any(),
        s.rewards_used.join(" ").into_pyobject(py)?.into_any(),
        turns(&s.rewards_held_turns).into_pyobject(py)?.into_any(),
        turns(&s.rewards_used_turns).into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, row)
}

/// One fighter as the reference's `FighterRecord` (`record`, its class) holding its `FighterStats`
/// (`stats`, its class) and its dict of Arena's columns (`keys`, the names of
/// [`COMPACT_FIGHTER_COLUMNS`] after the stats): built here, not read back from a compact row in
/// Python (a match of twenty-odd fighters spent forty microseconds there). The positional order is
/// the compact row's, which `engine_choice` checks against the reference's fields once.
fn fighter_to_record<'py>(
    py: Python<'py>,
    state: &MatchState<Arena>,
    uid: usize,
    (record, stats, keys): (
        &Bound<'py, PyAny>,
        &Bound<'py, PyAny>,
        &[Bound<'py, PyString>],
    ),
) -> PyResult<Bound<'py, PyAny>> {
    let f = &state.fighters[uid];
    let c = &state.content.chars[f.spec];
    let s = &f.stats;
    let turns = |t: &[i32]| t.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    let counters = stats_record(py, stats, s)?;
    let values = PyDict::new(py);
    let columns: [Bound<'py, PyAny>; 8] = [
        s.kamas_collected.into_pyobject(py)?.into_any(),
        s.gg_won.into_pyobject(py)?.into_any(),
        s.rewards_bought.into_pyobject(py)?.into_any(),
        s.rewards_revealed.into_pyobject(py)?.into_any(),
        s.rewards_held.join(" ").into_pyobject(py)?.into_any(),
        s.rewards_used.join(" ").into_pyobject(py)?.into_any(),
        turns(&s.rewards_held_turns).into_pyobject(py)?.into_any(),
        turns(&s.rewards_used_turns).into_pyobject(py)?.into_any(),
    ];
    for (key, value) in keys.iter().zip(columns) {
        values.set_item(key, value)?;
    }
    record_of(f, c, record, counters, values)
}

/// Play one two-player Arena match in the core.
///
/// `teams`: two lists of loaded `CharacterSpec`s (seat order); `pieces`: the summonable specs
/// (`rulesets.base.summonable`), by id; `punch`: Arena's punch `SpellSpec`; `board`: the core's
/// `Board` (`native.core_board`); `options`: the `ArenaOptions`; `ais`: one registered AI name per
/// seat; `record`: none / summary / full. Returns a dict: `winner`, `end_reason`, `turns`,
/// `first_player`, `gg`, `kamas`, `wild_gg_left`, `teams`, `fighters` (rows, Krosmasters first)
/// and `events` (`(kind, fields)` pairs).
#[pyfunction]
#[pyo3(signature = (teams, pieces, punch, board, options, ais, seed, record = "none"))]
#[allow(clippy::too_many_arguments)]
fn play_arena_match<'py>(
    py: Python<'py>,
    teams: Vec<Vec<Bound<'py, PyAny>>>,
    pieces: &Bound<'py, PyDict>,
    punch: &Bound<'py, PyAny>,
    board: PyRef<'py, PyBoard>,
    options: &Bound<'py, PyAny>,
    ais: Vec<String>,
    seed: u128,
    record: &str,
) -> PyResult<Bound<'py, PyDict>> {
    if teams.len() != 2 && teams.len() != 4 {
        return Err(unsupported(format!("{} seats", teams.len())));
    }
    let loaded = load_content(&teams, pieces, Some(punch))?;
    let (arena, engine) = options_of(options)?;
    let spec = ArenaMatch {
        board: board.inner.clone(),
        content: Arc::new(loaded.content),
        ruleset: Arc::new(Arena { opts: arena }),
        opts: engine,
        teams: loaded.teams,
        ais,
        seed,
        record: record_level(record)?,
        forbid: Vec::new(),
        heuristics: Arc::new(Vec::new()),
        geo: Some(board.geo.clone()),
    };
    drop(board);
    let state = py
        .detach(|| play_arena(&spec))
        .map_err(PyValueError::new_err)?;
    result_to_py(py, &state)
}

fn result_to_py<'py>(py: Python<'py>, state: &MatchState<Arena>) -> PyResult<Bound<'py, PyDict>> {
    result_to_py_as(py, state, false, None)
}

/// The result dict; `compact`: each fighter a tuple of [`COMPACT_FIGHTER_COLUMNS`] (not a dict);
/// `records`: the reference's `(FighterRecord, FighterStats)` classes, each fighter built as one
/// (before `compact`).
fn result_to_py_as<'py>(
    py: Python<'py>,
    state: &MatchState<Arena>,
    compact: bool,
    records: Option<&(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let keys: Vec<Bound<'py, PyString>> = match records {
        Some(_) => COMPACT_FIGHTER_COLUMNS[17..]
            .iter()
            .map(|k| PyString::intern(py, k))
            .collect(),
        None => Vec::new(),
    };
    let out = result_head(py, state)?;
    out.set_item("gg", PyTuple::new(py, &state.rules.gg)?)?;
    out.set_item("kamas", PyTuple::new(py, &state.rules.kamas)?)?;
    out.set_item("wild_gg_left", state.rules.wild_gg > 0)?;
    let order = fighter_order(state)
        .map(|uid| {
            Ok(if let Some((record, stats)) = records {
                fighter_to_record(py, state, uid, (record, stats, &keys))?
            } else if compact {
                fighter_to_tuple(py, state, uid)?.into_any()
            } else {
                fighter_to_py(py, state, uid)?.into_any()
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("fighters", PyList::new(py, order)?)?;
    out.set_item("events", events_to_py(py, state)?)?;
    Ok(out)
}

/// play.py's `deal_teams` (R-A17) for two players: `mode` `random_deal` or `draft`, `pool` the
/// character ids dealt, `ais` the AI names of players A and B; the two hands, each in pool order.
/// `cards`: the pool's loaded `CharacterSpec`s (what the base class's draft reads of them) and
/// `base_ais` the AI names whose pregame is the base class's (the heuristic AIs).
#[pyfunction]
#[pyo3(signature = (mode, pool, ais, seed, cards = Vec::new(), base_ais = Vec::new()))]
fn arena_deal_teams(
    mode: &str,
    pool: Vec<String>,
    ais: (String, String),
    seed: u128,
    cards: Vec<Bound<'_, PyAny>>,
    base_ais: Vec<String>,
) -> PyResult<(Vec<String>, Vec<String>)> {
    let facts = crate::play::PregameFacts {
        base_ais,
        cards: cards.iter().map(card_facts).collect::<PyResult<Vec<_>>>()?,
        ..Default::default()
    };
    let [a, b] = crate::play::deal_teams(mode, &pool, [&ais.0, &ais.1], seed, &facts)
        .map_err(PyValueError::new_err)?;
    Ok((a, b))
}

/// What the base class's pregame reads of a loaded `CharacterSpec` (`card_value`, `team_reach`).
fn card_facts(spec: &Bound<'_, PyAny>) -> PyResult<crate::ai::base::CardFacts> {
    let powers: Vec<Bound<'_, PyAny>> = get(spec, "powers")?;
    let spells: Vec<Bound<'_, PyAny>> = get(spec, "spells")?;
    let mut facts = crate::ai::base::CardFacts {
        hp: get(spec, "hp")?,
        ap: get(spec, "ap")?,
        mp: get(spec, "mp")?,
        n_powers: powers.len() as i32,
        ..Default::default()
    };
    for spell in &spells {
        let kind: String = get(spell, "kind")?;
        if kind == "attack" {
            facts
                .attacks
                .push((get(spell, "amount")?, get(spell, "range_max")?));
        } else {
            facts.others += 1;
        }
    }
    Ok(facts)
}

/// play.py's `pick_board` (R-A19) for two players: the index of the board the first player picks
/// among `n_boards`; `teams` the two teams' loaded `CharacterSpec`s (their Initiative decides the
/// first player, a perfect tie the set-up stream's coin).
#[pyfunction]
#[pyo3(signature = (n_boards, teams, ais, seed, mode = "two_player", trees = Vec::new(), base_ais = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn arena_pick_board(
    n_boards: usize,
    teams: Vec<Vec<Bound<'_, PyAny>>>,
    ais: Vec<String>,
    seed: u128,
    mode: &str,
    trees: Vec<u32>,
    base_ais: Vec<String>,
) -> PyResult<usize> {
    let mode = mode_of(mode)?;
    if teams.len() != crate::rulesets::arena::four_player::seats_in(mode)
        || ais.len() != teams.len()
    {
        return Err(PyValueError::new_err(format!(
            "{} teams and {} AIs for {mode:?}",
            teams.len(),
            ais.len()
        )));
    }
    let mut chars = Vec::new();
    let mut idx = vec![Vec::new(); teams.len()];
    for (side, team) in teams.iter().enumerate() {
        for spec in team {
            idx[side].push(chars.len());
            chars.push(CharacterSpec {
                id: get(spec, "id")?,
                name: get(spec, "name")?,
                kind: PieceKind::Krosmaster,
                level: get(spec, "level")?,
                initiative: get(spec, "initiative")?,
                mp: 0,
                hp: 0,
                ap: 0,
                powers: 0,
                resist: 0,
                immune: 0,
                spells: Vec::new(),
                on_death: None,
                stimulus_ap: false,
            });
        }
    }
    let content = Content {
        chars,
        punch: None,
        rewards: Vec::new(),
        keys: Vec::new(),
    };
    let facts = crate::play::PregameFacts {
        base_ais,
        trees,
        teams: teams
            .iter()
            .map(|team| team.iter().map(card_facts).collect::<PyResult<Vec<_>>>())
            .collect::<PyResult<Vec<_>>>()?,
        ..Default::default()
    };
    if !facts.base_ais.is_empty() && facts.trees.len() != n_boards {
        return Err(PyValueError::new_err(format!(
            "{} tree counts for {n_boards} boards",
            facts.trees.len()
        )));
    }
    let ais: Vec<&str> = ais.iter().map(String::as_str).collect();
    crate::play::pick_board(n_boards, mode, &content, &idx, &ais, seed, &facts)
        .map_err(PyValueError::new_err)
}

/// Loaded content converted once for many matches: every `CharacterSpec` a match may put in play
/// (Krosmasters and the pieces they summon) and Arena's punch. `play` then takes teams by id, so a
/// batch of matches pays the conversion once.
#[pyclass(name = "ArenaCatalog", module = "krosbalance_core", frozen)]
pub(super) struct PyArenaCatalog {
    pub(super) content: Arc<Content>,
    pub(super) names: Vec<String>,
    heuristics: Arc<Vec<(String, crate::ai::weights::Weights)>>,
}

#[pymethods]
impl PyArenaCatalog {
    #[new]
    /// `heuristics`: the heuristic AIs the core plays, as (registry name, the reference's `Weights`)
    /// pairs, read field by field (the Python loader stays the one parser of the AI data files).
    #[pyo3(signature = (specs, punch, rewards = Vec::new(), heuristics = Vec::new()))]
    fn new(
        specs: Vec<Bound<'_, PyAny>>,
        punch: Option<Bound<'_, PyAny>>,
        rewards: Vec<Bound<'_, PyAny>>,
        heuristics: Vec<(String, Bound<'_, PyAny>)>,
    ) -> PyResult<Self> {
        let mut known: Vec<(String, crate::ai::weights::Weights)> = Vec::new();
        for (name, weights) in &heuristics {
            let mut w = crate::ai::weights::Weights::default();
            for field in crate::ai::weights::FLOAT_FIELDS {
                let v: f64 = get(weights, field)?;
                w.set_float(field, v);
            }
            for field in ["kite", "buy_first", "free_escape"] {
                let v: bool = get(weights, field)?;
                w.set_switch(field, v);
            }
            known.retain(|(n, _)| n != name);
            known.push((name.clone(), w));
        }
        let mut keys = Keys::default();
        let mut names: Vec<String> = Vec::with_capacity(specs.len());
        for spec in &specs {
            let id: String = get(spec, "id")?;
            if names.contains(&id) {
                return Err(PyValueError::new_err(format!("{id:?} is given twice")));
            }
            names.push(id);
        }
        let chars = specs
            .iter()
            .map(|o| character_of(o, &names, &mut keys))
            .collect::<PyResult<Vec<_>>>()?;
        let punch = punch.map(|p| spell_of(&p, &names, &mut keys)).transpose()?;
        let rewards = rewards
            .iter()
            .map(|r| reward_of(r, &names, &mut keys))
            .collect::<PyResult<Vec<_>>>()?;
        let content = Content {
            chars,
            punch,
            rewards,
            keys: keys.0,
        };
        Ok(PyArenaCatalog {
            content: Arc::new(content),
            names,
            heuristics: Arc::new(known),
        })
    }

    /// The heuristic AIs registered (`add_heuristic`), in registration order.
    #[getter]
    fn heuristics(&self) -> Vec<String> {
        self.heuristics.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The character ids the catalog holds, in its order.
    #[getter]
    fn ids(&self) -> Vec<String> {
        self.names.clone()
    }

    /// One match (as `play_arena_match`), teams given as character ids of the catalog.
    /// `plant_divergence_at`: test-only, the differential harness's own test
    /// (`krosbalance.testing.differential`): the k-th event of the core's log is altered inside
    /// the core (`play::play_arena_planted`; never an option of a match). `compact`: the fighters
    /// as tuples of `COMPACT_FIGHTER_COLUMNS`, not row dicts; `records`: the reference's
    /// `(FighterRecord, FighterStats)` classes, the fighters built as records of them in the
    /// compact row's order (what `engine_choice` asks for).
    #[pyo3(signature = (teams, board, options, ais, seed, record = "none", forbid = None, plant_divergence_at = None, compact = false, records = None))]
    #[allow(clippy::too_many_arguments)]
    fn play<'py>(
        &self,
        py: Python<'py>,
        teams: Vec<Vec<String>>,
        board: PyRef<'py, PyBoard>,
        options: &Bound<'py, PyAny>,
        ais: Vec<String>,
        seed: u128,
        record: &str,
        forbid: Option<std::collections::BTreeMap<String, Vec<String>>>,
        plant_divergence_at: Option<usize>,
        compact: bool,
        records: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = self.spec_of(teams, &board, options, ais, seed, record, forbid)?;
        drop(board);
        let state = py
            .detach(|| play_arena_planted(&spec, plant_divergence_at))
            .map_err(PyValueError::new_err)?;
        result_to_py_as(py, &state, compact, records.as_ref())
    }

    /// A batch of matches, each `(teams, board, options, ais, seed)` or with a sixth item, its
    /// `forbid`; played without the GIL on `threads` threads (each match on one), the results in
    /// the batch's order. A match the core cannot play or that faults (a panic) comes back as
    /// `{"error": message}` in its place, and the batch goes on.
    #[pyo3(signature = (matches, record = "none", threads = 1))]
    fn play_many<'py>(
        &self,
        py: Python<'py>,
        matches: Vec<Bound<'py, PyTuple>>,
        record: &str,
        threads: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut specs: Vec<Result<ArenaMatch, String>> = Vec::with_capacity(matches.len());
        for m in &matches {
            let board = m.get_item(1)?;
            let board = board.cast::<PyBoard>()?.borrow();
            let forbid = if m.len() > 5 {
                m.get_item(5)?.extract()?
            } else {
                None
            };
            let spec = self.spec_of(
                m.get_item(0)?.extract()?,
                &board,
                &m.get_item(2)?,
                m.get_item(3)?.extract()?,
                m.get_item(4)?.extract()?,
                record,
                forbid,
            );
            specs.push(spec.map_err(|e| e.to_string()));
        }
        let outcomes = py.detach(|| play_all(&specs, threads.max(1)));
        let rows = outcomes
            .iter()
            .map(|outcome| match outcome {
                Ok(state) => Ok(result_to_py(py, state)?.into_any()),
                Err(message) => {
                    let d = PyDict::new(py);
                    d.set_item("error", message)?;
                    Ok(d.into_any())
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }
}

impl PyArenaCatalog {
    #[allow(clippy::too_many_arguments)]
    fn spec_of(
        &self,
        teams: Vec<Vec<String>>,
        board: &PyBoard,
        options: &Bound<'_, PyAny>,
        ais: Vec<String>,
        seed: u128,
        record: &str,
        forbid: Option<std::collections::BTreeMap<String, Vec<String>>>,
    ) -> PyResult<ArenaMatch> {
        let mut restrictions = Vec::new();
        for (id, elements) in forbid.unwrap_or_default() {
            if let Some(spec) = self.names.iter().position(|n| *n == id) {
                restrictions.push((spec, restriction_of(&elements)?));
            }
        }
        let team_idx = teams
            .iter()
            .map(|team| {
                team.iter()
                    .map(|id| {
                        self.names.iter().position(|n| n == id).ok_or_else(|| {
                            PyValueError::new_err(format!("{id:?} is not in the catalog"))
                        })
                    })
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()?;
        let (arena, engine) = options_of(options)?;
        Ok(ArenaMatch {
            board: board.inner.clone(),
            content: self.content.clone(),
            ruleset: Arc::new(Arena { opts: arena }),
            opts: engine,
            teams: team_idx,
            ais,
            seed,
            record: record_level(record)?,
            forbid: restrictions,
            heuristics: self.heuristics.clone(),
            geo: Some(board.geo.clone()),
        })
    }
}

/// Play every match of a batch on `threads` threads; a panic is that match's error.
fn play_all(
    specs: &[Result<ArenaMatch, String>],
    threads: usize,
) -> Vec<Result<MatchState<Arena>, String>> {
    let one = |spec: &Result<ArenaMatch, String>| -> Result<MatchState<Arena>, String> {
        let spec = spec.as_ref().map_err(Clone::clone)?;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_arena(spec))) {
            Ok(result) => result,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
                    .unwrap_or_else(|| "a panic".to_string());
                Err(format!("a fault in the core (seed {}): {what}", spec.seed))
            }
        }
    };
    if threads == 1 || specs.len() < 2 {
        return specs.iter().map(one).collect();
    }
    let chunk = specs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = specs
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a batch thread"))
            .collect()
    })
}

/// Restricted play's elements (`spell:<id>`, `power:<kind>`, `action:<name>`), already checked by
/// the reference's `element_problem`.
fn restriction_of(elements: &[String]) -> PyResult<Restriction> {
    let mut r = Restriction::default();
    for element in elements {
        let (kind, name) = element
            .split_once(':')
            .ok_or_else(|| PyValueError::new_err(format!("{element:?} is not kind:name")))?;
        match kind {
            "spell" => r.spells.push(name.to_string()),
            "power" => match name {
                "resistance" => r.resist = true,
                "immune" => r.immune = true,
                other => {
                    r.powers |= Power::from_name(other)
                        .ok_or_else(|| unsupported(format!("the power {other:?}")))?
                        .bit()
                }
            },
            "action" => {
                let k = match name {
                    "pick_kama" => crate::rulesets::arena::ruleset::PICK_KAMA,
                    "buy_gg" => crate::rulesets::arena::ruleset::BUY_GG,
                    "buy_reward" => crate::rulesets::arena::rewards::BUY_REWARD,
                    "reveal_reward" => crate::rulesets::arena::rewards::REVEAL_REWARD,
                    other => return Err(unsupported(format!("the action {other:?}"))),
                };
                r.kinds |= 1 << k;
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown element kind {other:?}"
                )));
            }
        }
    }
    Ok(r)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "COMPACT_FIGHTER_COLUMNS",
        PyTuple::new(m.py(), COMPACT_FIGHTER_COLUMNS)?,
    )?;
    m.add_class::<PyArenaCatalog>()?;
    m.add_function(wrap_pyfunction!(play_arena_match, m)?)?;
    m.add_function(wrap_pyfunction!(arena_deal_teams, m)?)?;
    m.add_function(wrap_pyfunction!(arena_pick_board, m)?)
}
