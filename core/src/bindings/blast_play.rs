//! One Krosmaster Blast match played in the core (`play_blast_match`): loaded specs in (the teams'
//! `CharacterSpec`s, the pieces they and the bonus actions may summon, the favor pool's and the
//! box's challenges' specs, the `BlastOptions` object, the core's `Board` and its glyph cells),
//! the result, Blast's values and the event log out as plain Python data.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::convert::{
    RecordClasses, RulesetEvents, engine_options, fighter_record, fighter_row, load_content,
    match_to_py, plant_engine_divergence,
};
use super::match_play::{BLAST_POWERS, get, record_level, unsupported};
use crate::PyBoard;
use crate::engine::events::Event;
use crate::engine::state::{EngineOptions, MatchState};
use crate::rulesets::blast::cards::TERRAIN_NAMES;
use crate::rulesets::blast::holdings::TIER_GLYPHS;
use crate::rulesets::blast::play::{BlastMatch, play_blast};
use crate::rulesets::blast::{
    Blast, BlastEvent, BlastOptions, BlastPower, BlastState, BonusAction, BonusEffect, BonusTarget,
    Challenge, ChallengeBonus, Favor, Passive,
};

pub(super) fn options_of(opts: &Bound<'_, PyAny>) -> PyResult<(BlastOptions, EngineOptions)> {
    let engine = engine_options(opts)?;
    let word = |name: &str| -> PyResult<String> { get(opts, name) };
    let tiers: Vec<(String, i32)> = opts
        .getattr("challenge_tiers")?
        .cast::<PyDict>()?
        .iter()
        .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
        .collect::<PyResult<_>>()?;
    let blast = BlastOptions {
        advanced: word("dice_faces")? == "advanced",
        tackle_zone: get(opts, "tackle_zone")?,
        per_enemy: word("tackle_dice_several")? == "per_enemy",
        superior_favors: get(opts, "superior_favors")?,
        favor_deck_size: get(opts, "favor_deck_size")?,
        challenges: get(opts, "challenges")?,
        alternative_tiers: word("challenge_tier_reading")? == "alternative",
        challenge_tiers: tiers,
        team_size: get(opts, "team_size")?,
        glyph_capture_by_effect: get(opts, "glyph_capture_by_effect")?,
        glyph_capture_by_slide: get(opts, "glyph_capture_by_slide")?,
        ice_slide_chain: get(opts, "ice_slide_chain")?,
        terrain_on_forced_moves: get(opts, "terrain_on_forced_moves")?,
        fire_damage: get(opts, "fire_damage")?,
        fire_combat_roll: get(opts, "fire_combat_roll")?,
        bonus_damage_combat_roll: get(opts, "bonus_damage_combat_roll")?,
        terrain_max_per_type: get(opts, "terrain_max_per_type")?,
        terrain_range: get(opts, "terrain_range")?,
        mutual_ko_active_loses: word("mutual_ko")? == "active_loses",
    };
    Ok((blast, engine))
}

fn param<'py, T: for<'a> FromPyObject<'a, 'py>>(
    params: &Bound<'py, PyAny>,
    key: &str,
    kind: &str,
) -> PyResult<T>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    params
        .get_item(key)
        .map_err(|_| unsupported(format!("Blast keyword {kind} without {key}")))?
        .extract::<T>()
        .map_err(Into::into)
}

fn is_ap(params: &Bound<'_, PyAny>, kind: &str) -> PyResult<bool> {
    Ok(param::<String>(params, "marker", kind)? != "mp")
}

fn bonus_effect(obj: &Bound<'_, PyAny>, names: &[String]) -> PyResult<BonusEffect> {
    let kind: String = get(obj, "kind")?;
    let p = obj.getattr("params")?;
    let n = |key: &str| param::<i32>(&p, key, &kind);
    Ok(match kind.as_str() {
        "next_spell_damage" => BonusEffect::NextSpellDamage {
            amount: n("amount")?,
        },
        "place_terrain" => {
            let name: String = param(&p, "terrain", &kind)?;
            let kind = TERRAIN_NAMES
                .iter()
                .position(|t| *t == name)
                .ok_or_else(|| unsupported(format!("the terrain {name:?}")))?;
            BonusEffect::PlaceTerrain { kind }
        }
        "marker_self" => BonusEffect::MarkerSelf {
            ap: is_ap(&p, &kind)?,
            amount: n("amount")?,
        },
        "heal_self" => BonusEffect::HealSelf {
            amount: n("amount")?,
        },
        "summon" => {
            let id: String = param(&p, "summon", &kind)?;
            let spec = names.iter().position(|x| *x == id).ok_or_else(|| {
                PyValueError::new_err(format!("a bonus summons {id:?}, not given"))
            })?;
            BonusEffect::Summon {
                spec,
                id,
                max: param(&p, "max", &kind)?,
            }
        }
        "leap" => BonusEffect::Leap,
        "push_target" => BonusEffect::PushTarget { cells: n("cells")? },
        "damage_target" => BonusEffect::DamageTarget {
            amount: n("amount")?,
        },
        "damage_around" => BonusEffect::DamageAround {
            amount: n("amount")?,
            reach: n("reach")?,
            allies: param(&p, "allies", &kind)?,
        },
        "minus_marker_target" => BonusEffect::MinusMarkerTarget {
            ap: is_ap(&p, &kind)?,
            amount: n("amount")?,
        },
        "capture_target" => BonusEffect::CaptureTarget,
        other => return Err(unsupported(format!("the bonus effect {other:?}"))),
    })
}

pub(super) fn bonus_action(obj: &Bound<'_, PyAny>, names: &[String]) -> PyResult<BonusAction> {
    let target = match get::<String>(obj, "target")?.as_str() {
        "none" => BonusTarget::None,
        "free_cell" => BonusTarget::FreeCell,
        "enemy" => BonusTarget::Enemy,
        "glyph" => BonusTarget::Glyph,
        "terrain_cell" => BonusTarget::TerrainCell,
        other => return Err(unsupported(format!("the bonus target {other:?}"))),
    };
    let effects = obj
        .getattr("effects")?
        .try_iter()?
        .map(|e| bonus_effect(&e?, names))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(BonusAction {
        target,
        range_min: get(obj, "range_min")?,
        range_max: get(obj, "range_max")?,
        needs_los: get(obj, "needs_los")?,
        effects,
    })
}

fn passive_of(obj: &Bound<'_, PyAny>) -> PyResult<Passive> {
    let kind: String = get(obj, "kind")?;
    let p = obj.getattr("params")?;
    let n = |key: &str| param::<i32>(&p, key, &kind);
    Ok(match kind.as_str() {
        "capture_marker" => Passive::CaptureMarker {
            ap: is_ap(&p, &kind)?,
            amount: n("amount")?,
        },
        "capture_heal" => Passive::CaptureHeal {
            amount: n("amount")?,
        },
        "spell_damage_bonus" => Passive::SpellDamageBonus {
            amount: n("amount")?,
        },
        "end_activation_next_to_ally" => Passive::NextToAlly {
            mp: n("mp")?,
            ap: n("ap")?,
        },
        "spell_range_bonus" => Passive::SpellRangeBonus {
            amount: n("amount")?,
        },
        "glyph_trap_damage" => Passive::GlyphTrapDamage {
            amount: n("amount")?,
        },
        "end_activation_on_glyph_heal" => Passive::OnGlyphHeal {
            amount: n("amount")?,
        },
        "activation_marker" => Passive::ActivationMarker {
            ap: is_ap(&p, &kind)?,
            amount: n("amount")?,
        },
        "combat_reroll" => Passive::CombatReroll,
        other => return Err(unsupported(format!("the passive {other:?}"))),
    })
}

pub(super) fn challenge_of(obj: &Bound<'_, PyAny>, names: &[String]) -> PyResult<Challenge> {
    let bonuses = obj
        .getattr("bonuses")?
        .try_iter()?
        .map(|b| {
            let b = b?;
            let passive: Option<Bound<'_, PyAny>> = get(&b, "passive")?;
            let action: Option<Bound<'_, PyAny>> = get(&b, "action")?;
            Ok(ChallengeBonus {
                id: get(&b, "id")?,
                tier: get(&b, "tier")?,
                alt_tier: get(&b, "alt_tier")?,
                passive: passive.map(|p| passive_of(&p)).transpose()?,
                action: action.map(|a| bonus_action(&a, names)).transpose()?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Challenge {
        id: get(obj, "id")?,
        bonuses,
    })
}

/// The Blast card powers of one character spec (`BLAST_POWER_KEYWORDS`).
pub(super) fn blast_powers(obj: &Bound<'_, PyAny>) -> PyResult<Vec<BlastPower>> {
    let mut out = Vec::new();
    for p in obj.getattr("powers")?.try_iter()? {
        let p = p?;
        let kind: String = get(&p, "kind")?;
        if !BLAST_POWERS.contains(&kind.as_str()) {
            continue;
        }
        let params = p.getattr("params")?;
        out.push(if kind == "capture_marker" {
            BlastPower::CaptureMarker {
                ap: is_ap(&params, &kind)?,
                amount: param(&params, "amount", &kind)?,
            }
        } else {
            BlastPower::CombatReroll {
                glyphs: param(&params, "glyphs", &kind)?,
            }
        });
    }
    Ok(out)
}

/// Play one Blast match in the core.
///
/// `teams`: two lists of loaded `CharacterSpec`s; `pieces`: the specs they and the bonus actions
/// may summon, by id; `board`: the core's `Board`; `glyph_cells`: its glyph cells (a mask);
/// `options`: the `BlastOptions`; `favors`: the favor pool the deck is dealt from (basic, then
/// superior when on); `challenges`: every `ChallengeSpec` of the box, in the cards' order; `ais`:
/// two AI names; `plant`: test-only, alter the `plant`-th event as a recording bug would. Returns
/// a dict: `winner`, `end_reason`, `turns`, `first_player`, `play_order`, `teams`, `values`
/// (Blast's result values), `fighters` and `events` (`(kind, fields)` pairs).
#[pyfunction]
#[pyo3(signature = (teams, pieces, board, glyph_cells, options, favors, challenges, ais, seed, record = "none", plant = None))]
#[allow(clippy::too_many_arguments)]
fn play_blast_match<'py>(
    py: Python<'py>,
    teams: Vec<Vec<Bound<'py, PyAny>>>,
    pieces: &Bound<'py, PyDict>,
    board: PyRef<'py, PyBoard>,
    glyph_cells: &Bound<'py, PyAny>,
    options: &Bound<'py, PyAny>,
    favors: Vec<Bound<'py, PyAny>>,
    challenges: Vec<Bound<'py, PyAny>>,
    ais: Vec<String>,
    seed: u128,
    record: &str,
    plant: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let prepared = BlastPrepared::new(
        teams,
        pieces,
        board,
        glyph_cells,
        options,
        favors,
        challenges,
        ais,
    )?;
    prepared.play(py, seed, record, plant, None)
}

/// A Blast match shape, converted once (`play_blast_match`'s arguments but the seed): the matches
/// of one shape pay for the specs' crossing once, not once per seed (`native_blast.prepare_blast`).
#[pyclass(name = "BlastPrepared", module = "krosbalance_core", frozen)]
pub struct BlastPrepared {
    spec: BlastMatch,
}

#[pymethods]
impl BlastPrepared {
    /// `play_blast_match`'s arguments but `seed`, `record` and `plant`.
    #[new]
    #[pyo3(signature = (teams, pieces, board, glyph_cells, options, favors, challenges, ais))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        teams: Vec<Vec<Bound<'py, PyAny>>>,
        pieces: &Bound<'py, PyDict>,
        board: PyRef<'py, PyBoard>,
        glyph_cells: &Bound<'py, PyAny>,
        options: &Bound<'py, PyAny>,
        favors: Vec<Bound<'py, PyAny>>,
        challenges: Vec<Bound<'py, PyAny>>,
        ais: Vec<String>,
    ) -> PyResult<Self> {
        let loaded = load_content(&teams, pieces, None)?;
        let powers = loaded
            .objs
            .iter()
            .map(blast_powers)
            .collect::<PyResult<Vec<_>>>()?;
        let names = &loaded.names;
        let (opts, engine) = options_of(options)?;
        let favors = favors
            .iter()
            .map(|f| {
                Ok(Favor {
                    id: get(f, "id")?,
                    action: bonus_action(&f.getattr("action")?, names)?,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let challenges = challenges
            .iter()
            .map(|c| challenge_of(c, names))
            .collect::<PyResult<Vec<_>>>()?;
        let spec = BlastMatch {
            board: board.inner.clone(),
            content: Arc::new(loaded.content),
            ruleset: Arc::new(Blast {
                opts,
                favors,
                challenges,
                powers,
                glyph_cells: crate::mask_from_py(glyph_cells, "glyph_cells")?,
            }),
            opts: engine,
            teams: loaded.teams,
            ais,
            seed: 0,
            record: 0,
        };
        Ok(BlastPrepared { spec })
    }

    /// The match of this shape with `seed`: `play_blast_match`'s dict; with `records` (the
    /// reference's `(FighterRecord, FighterStats)` classes) its fighters are built as records
    /// (Blast has no fighter columns: `values` empty), not row dicts.
    #[pyo3(signature = (seed, record = "none", plant = None, records = None))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        seed: u128,
        record: &str,
        plant: Option<usize>,
        records: Option<RecordClasses<'py>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = BlastMatch {
            seed,
            record: record_level(record)?,
            ..self.spec.clone()
        };
        let mut state = py
            .detach(|| play_blast(&spec))
            .map_err(PyValueError::new_err)?;
        if let Some(event) = plant.and_then(|k| state.events.get_mut(k)) {
            plant_divergence(event);
        }
        let out = match_to_py(py, &state, |py, state, uid| match &records {
            Some(classes) => fighter_record(py, state, uid, classes, PyDict::new(py)),
            None => Ok(fighter_row(py, state, uid)?.into_any()),
        })?;
        out.set_item("values", values(py, &state)?)?;
        Ok(out)
    }
}

/// Test-only: one field of an event changed the way a bug would change it.
fn plant_divergence(event: &mut Event<BlastEvent>) {
    if plant_engine_divergence(event) {
        return;
    }
    if let Event::Ruleset(e) = event {
        match e {
            BlastEvent::CombatRolled { delta, .. } => *delta += 1,
            BlastEvent::FavorRevealed { turn, .. }
            | BlastEvent::BonusUsed { turn, .. }
            | BlastEvent::GlyphCaptured { turn, .. }
            | BlastEvent::DofusTaken { turn, .. }
            | BlastEvent::TerrainChanged { turn, .. }
            | BlastEvent::DodgeRolled { turn, .. }
            | BlastEvent::GlyphCount { turn, .. } => *turn += 1,
        }
    }
}

/// results.py's `blast_values`: the holdings the Divine Challenge study reads.
fn values<'py>(py: Python<'py>, state: &MatchState<Blast>) -> PyResult<Bound<'py, PyDict>> {
    let bs: &BlastState = &state.rules;
    let all = &state.ruleset.challenges;
    let d = PyDict::new(py);
    d.set_item("glyphs", (bs.glyphs(0), bs.glyphs(1)))?;
    d.set_item("peak", (bs.peak[0], bs.peak[1]))?;
    d.set_item("captures", (bs.captures[0], bs.captures[1]))?;
    d.set_item("favors_used", (bs.favor_uses[0], bs.favor_uses[1]))?;
    d.set_item("dofus", bs.dofus)?;
    d.set_item("favors_left", bs.deck.len())?;
    let ids: Vec<&str> = bs.challenges.iter().map(|&c| all[c].id.as_str()).collect();
    d.set_item("challenges", ids.join(","))?;
    for (i, need) in TIER_GLYPHS.iter().enumerate() {
        d.set_item(
            format!("tier{need}_turn"),
            (bs.tier_turn[0][i], bs.tier_turn[1][i]),
        )?;
    }
    let mut index = 0;
    for &c in &bs.challenges {
        for bonus in &all[c].bonuses {
            d.set_item(
                format!("uses:{}/{}:", all[c].id, bonus.id),
                (bs.bonus_uses[0][index], bs.bonus_uses[1][index]),
            )?;
            index += 1;
        }
    }
    Ok(d)
}

impl RulesetEvents for Blast {
    fn ruleset_event<'py>(
        py: Python<'py>,
        state: &MatchState<Self>,
        event: &BlastEvent,
        d: &Bound<'py, PyDict>,
    ) -> PyResult<&'static str> {
        Ok(match event {
            BlastEvent::FavorRevealed {
                turn,
                side,
                favor,
                slot,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("favor", &state.ruleset.favors[*favor].id)?;
                d.set_item("slot", slot)?;
                "favor_revealed"
            }
            BlastEvent::BonusUsed {
                turn,
                uid,
                bonus,
                target,
                ap,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("bonus", bonus)?;
                d.set_item("target", target)?;
                d.set_item("ap", ap)?;
                "bonus_used"
            }
            BlastEvent::GlyphCaptured {
                turn,
                uid,
                side,
                cell,
                flipped,
                glyphs,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                d.set_item("side", side)?;
                d.set_item("cell", cell)?;
                d.set_item("flipped", flipped)?;
                d.set_item("glyphs", *glyphs)?;
                "glyph_captured"
            }
            BlastEvent::DofusTaken { turn, side } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                "dofus_taken"
            }
            BlastEvent::TerrainChanged {
                turn,
                terrain,
                cell,
                placed,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("terrain", TERRAIN_NAMES[*terrain])?;
                d.set_item("cell", cell)?;
                d.set_item("placed", placed)?;
                "terrain_changed"
            }
            BlastEvent::CombatRolled {
                turn,
                uid,
                faces,
                delta,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                let faces: Vec<u32> = faces.iter().map(|&f| u32::from(f)).collect();
                d.set_item("faces", PyTuple::new(py, faces)?)?;
                d.set_item("delta", delta)?;
                "combat_rolled"
            }
            BlastEvent::DodgeRolled {
                turn,
                uid,
                faces,
                outcome,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("uid", uid)?;
                let faces: Vec<u32> = faces.iter().map(|&f| u32::from(f)).collect();
                d.set_item("faces", PyTuple::new(py, faces)?)?;
                d.set_item("outcome", outcome)?;
                "dodge_rolled"
            }
            BlastEvent::GlyphCount {
                turn,
                side,
                glyphs,
                favors_left,
            } => {
                d.set_item("turn", turn)?;
                d.set_item("side", side)?;
                d.set_item("glyphs", *glyphs)?;
                d.set_item("favors_left", favors_left)?;
                "glyph_count"
            }
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_blast_match, m)?)?;
    m.add_class::<BlastPrepared>()
}
