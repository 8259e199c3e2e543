//! Casting spells and what follows (krosbalance/engine/combat.py): damage, heals, summons, KOs,
//! bombs, scenery.

use crate::board::{AreaShape, Cell, area_cells};
use crate::content::{Element, Limit, PieceKind, Power, RangeType, SpellKind, SpellRef, SpellSpec};
use crate::engine::effects::{CastContext, apply_step_two};
use crate::engine::events::Event;
use crate::engine::pieces::{lift, place, spawn, unblock_sight};
use crate::engine::rules::{MatchRules, Scenery};
use crate::engine::state::MatchState;

/// Cast a spell whose legality the caller checked: pay, resolve, explode the bombs it KO'd.
/// `choice` is a second cell the player picked (Pandawa Style's ally), or -1.
pub fn cast<R: MatchRules>(
    state: &mut MatchState<R>,
    caster: usize,
    sref: SpellRef,
    target: Cell,
    choice: i32,
) {
    let content = state.content.clone();
    let spell = content.resolve(sref);
    let f = &mut state.fighters[caster];
    f.ap -= spell.ap_cost;
    f.mp -= spell.mp_cost;
    match spell.limit {
        Limit::Turn => f.turn_uses.push(spell.key),
        Limit::Game => {
            if !f.game_uses.contains(&spell.key) {
                f.game_uses.push(spell.key);
            }
        }
        Limit::Unlimited => {}
    }
    f.stats.spells_cast += 1;
    if state.full() {
        state.events.push(Event::SpellCast {
            turn: state.turn,
            uid: caster,
            spell: sref,
            target: i32::from(target),
        });
    }
    let (bonus, lifesteal) = R::spell_bonus(state, caster, spell, true);
    if spell.injury_cost != 0 {
        let f = &mut state.fighters[caster];
        f.injuries += spell.injury_cost;
        if f.injuries >= f.hp {
            knock_out(state, caster, Some(caster));
        }
    }
    resolve_spell(state, caster, spell, target, choice, bonus, lifesteal);
    explode_pending_bombs(state);
}

/// Steps 2-5 of a spell (costs already paid); `extra_bonus` and `extra_lifesteal` are what the
/// caster's ruleset holdings add (`MatchRules::spell_bonus`).
pub fn resolve_spell<R: MatchRules>(
    state: &mut MatchState<R>,
    caster: usize,
    spell: &SpellSpec,
    target_cell: Cell,
    choice: i32,
    extra_bonus: i32,
    extra_lifesteal: bool,
) {
    if spell.kind == SpellKind::Summon {
        summon(state, caster, spell, target_cell);
        return;
    }
    let targets = targets(state, caster, spell, target_cell);
    let mut ctx = CastContext::new(caster, target_cell);
    ctx.choice = choice;
    ctx.lifesteal = extra_lifesteal;
    let mut moved_from = Vec::with_capacity(targets.len() + 1);
    moved_from.push(state.fighters[caster].cell);
    moved_from.extend(targets.iter().map(|&t| state.fighters[t].cell));
    if !spell.effects.is_empty() {
        apply_step_two(state, &mut ctx, spell, &targets);
    }
    if spell.kind == SpellKind::Special {
        settle_traps(state, caster, &targets, &moved_from);
        return;
    }
    let element = spell.element;
    let scenery_hit = spell.kind == SpellKind::Attack
        && state.opts.scenery_destruction
        && spell.range_type == RangeType::Melee;
    let rolls =
        !targets.is_empty() || (scenery_hit && covers_scenery(state, caster, spell, target_cell));
    let critical = if rolls {
        R::attack_roll(state, caster, spell)
    } else {
        0
    };
    for &t in &targets {
        if !state.fighters[t].alive {
            continue;
        }
        let base = spell.amount + ctx.bonus_of(t) + critical + extra_bonus;
        if spell.kind == SpellKind::Heal {
            heal(state, caster, t, base, true);
            continue;
        }
        let armour = if base > 0 {
            R::defence_roll(state, t, ctx.pierce_armour)
        } else {
            0
        };
        let mut damage = base - armour;
        if element != Element::Neutral {
            let bit = 1u8 << element.index();
            let t = &state.fighters[t];
            if t.immune & bit != 0 {
                damage = 0;
            } else if t.resist & bit != 0 {
                damage -= 1;
            }
        }
        if damage > 0 {
            damage = damage.min(spell_injury_cap(state, t, caster));
            let dealt = inflict(state, Some(caster), t, damage, element.index(), true);
            if ctx.lifesteal && dealt != 0 && state.fighters[caster].alive {
                heal(state, caster, caster, dealt, false);
            }
        }
    }
    if scenery_hit {
        damage_scenery(state, caster, spell, target_cell, critical);
    }
    settle_traps(state, caster, &targets, &moved_from);
}

/// A character ended a movement on a trap: the trap casts its spell there and is removed (R-A116).
/// The trap is not KO'd (no event, no GG): it stops being alive, casts, leaves the board; what its
/// spell KOs settles with the instant of the movement (`trigger_trap`).
pub fn trigger_trap<R: MatchRules>(state: &mut MatchState<R>, cell: Cell) {
    let Some(trap) = state.trap_on(cell) else {
        return;
    };
    if !state.fighters[trap].alive {
        return;
    }
    state.fighters[trap].alive = false;
    let spec = state.fighters[trap].spec;
    let content = state.content.clone();
    if let Some(spell) = content.chars[spec].spells.first() {
        if state.full() {
            state.events.push(Event::SpellCast {
                turn: state.turn,
                uid: trap,
                spell: SpellRef::Card(spec as u32, 0),
                target: i32::from(cell),
            });
        }
        resolve_spell(state, trap, spell, cell, -1, 0, false);
    }
    lift(state, trap);
    explode_pending_bombs(state);
}

/// Traps fire only where a character's special movement ended, after the spell resolved (R-A171):
/// the caster's and each target's, in that order, each from the cell it held before step 2; bombs
/// and other mechanisms never set a trap off (R-A116: "when a character moves onto it").
fn settle_traps<R: MatchRules>(
    state: &mut MatchState<R>,
    caster: usize,
    targets: &[usize],
    moved_from: &[i32],
) {
    if state.traps.is_empty() {
        return;
    }
    for (&piece, &origin) in std::iter::once(&caster).chain(targets).zip(moved_from) {
        let p = &state.fighters[piece];
        if p.alive && p.cell != origin && p.cell >= 0 && p.is_character() {
            let cell = p.at();
            if state.traps.contains(cell) {
                trigger_trap(state, cell);
            }
        }
    }
}

/// Krobust's cap (engine/powers.py's `spell_injury_cap`): 3 from an enemy's spell, else no cap.
pub fn spell_injury_cap<R: MatchRules>(state: &MatchState<R>, holder: usize, caster: usize) -> i32 {
    let (h, c) = (&state.fighters[holder], &state.fighters[caster]);
    if c.team == h.team || h.powers & Power::Krobust.bit() == 0 {
        return 1 << 30;
    }
    3
}

/// The pieces a spell affects: the main target's and the area's (R-A97, R-A98).
fn targets<R: MatchRules>(
    state: &MatchState<R>,
    caster: usize,
    spell: &SpellSpec,
    target: Cell,
) -> Vec<usize> {
    if spell.area == AreaShape::Single {
        return match state.piece_at(target) {
            Some(p) if state.fighters[p].alive => vec![p],
            _ => Vec::new(),
        };
    }
    let cells = area_cells(
        &state.board,
        spell.area,
        state.fighters[caster].at(),
        target,
    );
    let exclude_caster = spell.range_type == RangeType::Personal || !state.opts.caster_in_own_area;
    cells
        .into_iter()
        .filter_map(|c| state.piece_at(c))
        .filter(|&p| state.fighters[p].alive && !(exclude_caster && p == caster))
        .collect()
}

/// Place injury markers, never beyond HP (R-A9); KO at HP (R-A10). Returns markers placed.
pub fn inflict<R: MatchRules>(
    state: &mut MatchState<R>,
    source: Option<usize>,
    target: usize,
    amount: i32,
    element: usize,
    counterable: bool,
) -> i32 {
    let t = &state.fighters[target];
    let amount = amount.min(t.hp - t.injuries);
    if amount <= 0 {
        return 0;
    }
    if !state.invisible.is_empty()
        && t.cell >= 0
        && state.invisible.contains(t.at())
        && injury_prevented(state, target, source)
    {
        return 0;
    }
    let t = &mut state.fighters[target];
    t.injuries += amount;
    t.stats.damage_taken[element] += i64::from(amount);
    if let Some(s) = source {
        state.fighters[s].stats.damage_dealt[element] += i64::from(amount);
    }
    if state.full() {
        state.events.push(Event::Damaged {
            turn: state.turn,
            source: source.map_or(-1, |s| s as i64),
            target,
            amount,
            element,
        });
    }
    if counterable {
        after_injured(state, target, source);
    }
    let t = &state.fighters[target];
    if t.alive && t.injuries >= t.hp {
        knock_out(state, target, source);
    }
    amount
}

/// Whether a power of the holder stops this source from injuring it (`injury_prevented`): R-A108
/// Invisibility (the card's power, not inspiration) stops a character on the board that is not
/// adjacent to the holder; bombs and traps are not characters, so they still injure it.
fn injury_prevented<R: MatchRules>(
    state: &MatchState<R>,
    holder: usize,
    source: Option<usize>,
) -> bool {
    let h = &state.fighters[holder];
    if h.powers & Power::Invisibility.bit() == 0 {
        return false;
    }
    let Some(s) = source else {
        return false;
    };
    let s = &state.fighters[s];
    if !s.is_character() || s.cell < 0 {
        return false;
    }
    !state.board.neighbour_mask(h.at()).contains(s.at())
}

/// R-A104 Counter: an enemy character that injures the holder suffers 1 injury.
fn after_injured<R: MatchRules>(state: &mut MatchState<R>, holder: usize, source: Option<usize>) {
    if !state.fighters[holder].has(Power::Counter) {
        return;
    }
    if let Some(s) = source {
        let (src, h) = (&state.fighters[s], &state.fighters[holder]);
        if src.alive && src.is_character() && src.team != h.team {
            inflict(state, Some(holder), s, 1, Element::Neutral.index(), false);
        }
    }
}

/// Remove injury markers, never below 0 (R-A63); Healing adds 1 when it heals any (R-A105).
pub fn heal<R: MatchRules>(
    state: &mut MatchState<R>,
    source: usize,
    target: usize,
    amount: i32,
    from_spell: bool,
) -> i32 {
    let injuries = state.fighters[target].injuries;
    let mut healed = amount.min(injuries);
    if healed > 0 && from_spell && state.fighters[source].powers & Power::Healing.bit() != 0 {
        healed = (healed + 1).min(injuries);
    }
    if healed <= 0 {
        return 0;
    }
    state.fighters[target].injuries -= healed;
    state.fighters[source].stats.heals_given += i64::from(healed);
    state.fighters[target].stats.heals_received += i64::from(healed);
    if state.full() {
        state.events.push(Event::Healed {
            turn: state.turn,
            source,
            target,
            amount: healed,
        });
    }
    healed
}

/// A piece is KO (R-A10); its consequences settle with the instant (engine/instant.py).
pub fn knock_out<R: MatchRules>(state: &mut MatchState<R>, victim: usize, by: Option<usize>) {
    let v = &mut state.fighters[victim];
    if !v.alive {
        return;
    }
    v.alive = false;
    v.stats.knocked_out = true;
    v.ko_by = by;
    let (team, kind) = (v.team, v.kind);
    if let Some(b) = by
        && state.fighters[b].team != team
    {
        state.fighters[b].stats.kills += 1;
    }
    if state.summary() {
        state.events.push(Event::KnockedOut {
            turn: state.turn,
            uid: victim,
            by: by.map_or(-1, |b| b as i64),
        });
    }
    if kind == PieceKind::Bomb {
        state.pending_bombs.push_back(victim);
        return;
    }
    state.pending_kos.push(victim);
    state.unsettled = true;
}

/// Each KO'd bomb casts its explosion, then leaves the board; chains follow (R-A111, R-A114).
pub fn explode_pending_bombs<R: MatchRules>(state: &mut MatchState<R>) {
    while let Some(bomb) = state.pending_bombs.pop_front() {
        let cell = state.fighters[bomb].cell;
        if cell < 0 {
            continue;
        }
        let spec = state.fighters[bomb].spec;
        let content = state.content.clone();
        if let Some(index) = content.chars[spec].on_death {
            let explosion = &content.chars[spec].spells[index];
            if state.full() {
                state.events.push(Event::SpellCast {
                    turn: state.turn,
                    uid: bomb,
                    spell: SpellRef::Card(spec as u32, index as u32),
                    target: cell,
                });
            }
            resolve_spell(state, bomb, explosion, cell as Cell, -1, 0, false);
        }
        lift(state, bomb);
    }
}

/// Put a summon token on a free cell (R-A64).
fn summon<R: MatchRules>(state: &mut MatchState<R>, caster: usize, spell: &SpellSpec, cell: Cell) {
    let spec = spell.summons.expect("a summon spell names its piece");
    let side = state.fighters[caster].side;
    let token = spawn(state, spec, side, Some(caster), Some(spell.key));
    place(state, token, cell);
    state.fighters[token].placed_turn = state.turn;
    state.fighters[caster].summons.push(token);
    if state.full() {
        state.events.push(Event::Summoned {
            turn: state.turn,
            summoner: caster,
            uid: token,
            spec,
            cell: i32::from(cell),
        });
    }
}

fn covered<R: MatchRules>(
    state: &MatchState<R>,
    caster: usize,
    spell: &SpellSpec,
    target: Cell,
) -> Vec<Cell> {
    if spell.area == AreaShape::Single {
        vec![target]
    } else {
        area_cells(
            &state.board,
            spell.area,
            state.fighters[caster].at(),
            target,
        )
    }
}

fn covers_scenery<R: MatchRules>(
    state: &MatchState<R>,
    caster: usize,
    spell: &SpellSpec,
    target: Cell,
) -> bool {
    let scenery = state.trees | state.bushes | state.crates;
    covered(state, caster, spell, target)
        .into_iter()
        .any(|c| scenery.contains(c))
}

/// Optional rule: melee attacks injure scenery (R-A123-R-A127).
fn damage_scenery<R: MatchRules>(
    state: &mut MatchState<R>,
    caster: usize,
    spell: &SpellSpec,
    target: Cell,
    critical: i32,
) {
    for cell in covered(state, caster, spell, target) {
        let kind = if state.trees.contains(cell) {
            Scenery::Tree
        } else if state.bushes.contains(cell) {
            Scenery::Bush
        } else if state.crates.contains(cell) {
            Scenery::Crate
        } else {
            continue;
        };
        if kind == Scenery::Crate
            && state.piece_at(cell).is_some()
            && !state.opts.scenery_hit_under_piece
        {
            continue;
        }
        let c = usize::from(cell);
        let injuries = state.scenery_injuries[c] + spell.amount + critical;
        if injuries < state.opts.scenery_hp[kind as usize] {
            state.scenery_injuries[c] = injuries;
            continue;
        }
        state.scenery_injuries[c] = 0;
        match kind {
            Scenery::Tree => {
                state.trees.remove(cell);
                unblock_sight(state, cell);
                state.obstacles.remove(cell);
            }
            Scenery::Bush => {
                state.bushes.remove(cell);
                state.obstacles.remove(cell);
            }
            Scenery::Crate => state.crates.remove(cell),
        }
        R::on_scenery_destroyed(state, c, kind);
    }
}
