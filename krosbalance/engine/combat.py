"""Casting spells and what follows from them: damage, heals, summons, KOs, bombs and traps.

A spell resolves in the five steps of R-A58-R-A62 (pay, additional effects, the caster's roll, the
defence roll per target, injuries), with heals (R-A63), summons (R-A64) and special spells (R-A65)
taking their own subsets. The two rolls are the ruleset's (``MatchRules.attack_roll`` and
``defence_roll``: Arena's Critical and Armour rolls; Blast's one-die combat roll). Rolls that cannot
change anything (no target, no damage left to modify) are skipped, which keeps scripted tests short
and costs nothing in fairness.
"""

from __future__ import annotations

from krosbalance.board.areas import area_cells
from krosbalance.content.specs import ELEMENTS, SpellSpec
from krosbalance.engine.effects import CastContext, apply_step_two
from krosbalance.engine.events import (
    FULL,
    SUMMARY,
    Damaged,
    Healed,
    KnockedOut,
    SpellCast,
    Summoned,
)
from krosbalance.engine.pieces import lift, place, spawn, unblock_sight
from krosbalance.engine.powers import after_injured, heal_bonus, injury_prevented, spell_injury_cap
from krosbalance.engine.state import BOMB, ELEMENT_INDEX, Fighter, MatchState

NEUTRAL = 0


def cast(state: MatchState, caster: Fighter, spell: SpellSpec, target_cell: int, choice: int = -1) -> None:
    """Cast a spell whose legality the caller has checked: pay, resolve, explode the bombs it KO'd.

    ``choice`` is a second cell the player picked, for the few spells that need one (Pandawa Style's
    ally). The KOs it causes and what follows (e.g. Arena's GG, victory) settle when the action's
    instant ends (``engine.instant``).
    """
    caster.ap -= spell.ap_cost
    caster.mp -= spell.mp_cost
    if spell.limit == "turn":
        caster.turn_uses[spell.id] = caster.turn_uses.get(spell.id, 0) + 1
    elif spell.limit == "game":
        caster.game_uses.add(spell.id)
    caster.stats.spells_cast += 1
    if state.record >= FULL:
        state.events.append(SpellCast(state.turn, caster.uid, spell.id, target_cell))
    bonus, lifesteal = state.ruleset.spell_bonus(state, caster, spell, True)  # read and used up now
    if spell.injury_cost:
        # R-A69: the caster places the injuries; reaching its HP KOs it, and the spell still resolves
        # from its cell (a KO'd piece leaves the board when the instant settles)
        caster.injuries += spell.injury_cost
        if caster.injuries >= caster.hp:
            knock_out(state, caster, caster)
    resolve_spell(state, caster, spell, target_cell, choice, bonus, lifesteal)
    explode_pending_bombs(state)


def resolve_spell(
    state: MatchState,
    caster: Fighter,
    spell: SpellSpec,
    target_cell: int,
    choice: int = -1,
    extra_bonus: int = 0,
    extra_lifesteal: bool = False,
) -> None:
    """Steps 2-5 of a spell (the costs are already paid). ``extra_bonus`` is the damage the caster's
    ruleset holdings add to each target (``MatchRules.spell_bonus``), ``extra_lifesteal`` whether
    they give this attack Lifesteal."""
    if spell.kind == "summon":
        summon(state, caster, spell, target_cell)
        return
    targets = _targets(state, caster, spell, target_cell)
    ctx = CastContext(state, caster, spell, target_cell, choice=choice, lifesteal=extra_lifesteal)
    moved_from = [caster.cell] + [t.cell for t in targets]
    if spell.effects:
        apply_step_two(ctx, targets)
    if spell.kind == "special":
        _settle_traps(state, targets, moved_from, caster)
        return
    element = ELEMENT_INDEX[spell.element]
    # R-A124: under the destruction option, scenery under a melee attack is a target too, so the
    # Critical roll is made even when no piece is hit
    scenery_hit = spell.kind == "attack" and state.opts.scenery_destruction and spell.range_type == "melee"
    rolls = targets or (scenery_hit and _covers_scenery(state, caster, spell, target_cell))
    rules = state.ruleset
    critical = rules.attack_roll(state, caster, spell) if rolls else 0
    for target in targets:
        if not target.alive:
            continue
        base = spell.amount + ctx.bonus.get(target.uid, 0) + critical + extra_bonus
        if spell.kind == "heal":
            heal(state, caster, target, base)
            continue
        armour = rules.defence_roll(state, target, ctx.pierce_armour) if base > 0 else 0
        damage = base - armour
        if element != NEUTRAL:
            if spell.element in target.immune:
                damage = 0
            elif spell.element in target.resist:
                damage -= 1
        if damage > 0:
            damage = min(damage, spell_injury_cap(target, caster))  # Krobust
            dealt = inflict(state, caster, target, damage, element)
            if ctx.lifesteal and dealt and caster.alive:
                heal(state, caster, caster, dealt, from_spell=False)
    if scenery_hit:
        _damage_scenery(state, caster, spell, target_cell, critical)
    _settle_traps(state, targets, moved_from, caster)


def _targets(state: MatchState, caster: Fighter, spell: SpellSpec, target_cell: int) -> list[Fighter]:
    """The pieces a spell affects: the main target's and the area's (R-A97, R-A98)."""
    if spell.area == "single":
        piece = state.by_cell[target_cell]
        return [piece] if piece is not None and piece.alive else []
    cells = area_cells(state.board, spell.area, caster.cell, target_cell)
    exclude_caster = spell.range_type == "personal" or not state.opts.caster_in_own_area
    targets = []
    for cell in cells:
        piece = state.by_cell[cell]
        if piece is None or not piece.alive or (exclude_caster and piece is caster):
            continue
        targets.append(piece)
    return targets


def inflict(
    state: MatchState,
    source: Fighter | None,
    target: Fighter,
    amount: int,
    element: int,
    counterable: bool = True,
) -> int:
    """Place injury markers, never beyond HP (R-A9); KO at HP (R-A10). Returns markers placed."""
    amount = min(amount, target.hp - target.injuries)
    if amount <= 0:
        return 0
    if state.invisible and (state.invisible >> target.cell) & 1 and injury_prevented(state, target, source):
        return 0
    target.injuries += amount
    target.stats.damage_taken[element] += amount
    if source is not None:
        source.stats.damage_dealt[element] += amount
    if state.record >= FULL:
        state.events.append(
            Damaged(state.turn, -1 if source is None else source.uid, target.uid, amount, ELEMENTS[element])
        )
    if counterable:
        after_injured(state, target, source, amount, inflict)
    if target.alive and target.injuries >= target.hp:
        knock_out(state, target, source)
    return amount


def heal(state: MatchState, source: Fighter, target: Fighter, amount: int, from_spell: bool = True) -> int:
    """Remove injury markers, never below 0 (R-A63); Healing adds 1 when it heals any (R-A105)."""
    healed = min(amount, target.injuries)
    if healed > 0 and from_spell:
        healed = min(healed + heal_bonus(source), target.injuries)
    if healed <= 0:
        return 0
    target.injuries -= healed
    source.stats.heals_given += healed
    target.stats.heals_received += healed
    if state.record >= FULL:
        state.events.append(Healed(state.turn, source.uid, target.uid, healed))
    return healed


def knock_out(state: MatchState, victim: Fighter, by: Fighter | None) -> None:
    """A piece is KO (R-A10): it stops acting at once; a KO'd bomb explodes before it leaves (R-A111).

    Everything else a KO does — leaving the board, the Krosmaster's tokens leaving with it (R-A113),
    what the ruleset makes of it (e.g. Arena's GG), victory — happens when the current instant
    settles (``engine.instant``), together with the other KOs of that instant.
    """
    if not victim.alive:
        return
    victim.alive = False
    victim.stats.knocked_out = True
    victim.ko_by = by
    if by is not None and by.team != victim.team:
        by.stats.kills += 1
    if state.record >= SUMMARY:
        state.events.append(KnockedOut(state.turn, victim.uid, -1 if by is None else by.uid))
    if victim.kind == BOMB:
        state.pending_bombs.append(victim)  # stays on its cell until it has exploded
        return
    state.pending_kos.append(victim)
    state.unsettled = True


def explode_pending_bombs(state: MatchState) -> None:
    """Each KO'd bomb casts its explosion, then leaves the board; chains follow (R-A111, R-A114).

    A bomb KO'd in the same instant as its summoner still explodes: the summoner's tokens leave
    (without exploding) only when the instant settles (``engine.instant``, R-A113).
    """
    while state.pending_bombs:
        bomb = state.pending_bombs.pop(0)
        if bomb.cell < 0:
            continue
        if bomb.spec.on_death:
            explosion = bomb.spec.spell(bomb.spec.on_death)
            if state.record >= FULL:
                state.events.append(SpellCast(state.turn, bomb.uid, explosion.id, bomb.cell))
            resolve_spell(state, bomb, explosion, bomb.cell)
        lift(state, bomb)


def summon(state: MatchState, caster: Fighter, spell: SpellSpec, cell: int) -> Fighter:
    """Put a summon token on a free cell (R-A64); creatures act after their summoner (R-A31)."""
    spec = state.summon_specs[spell.summons or ""]
    token = spawn(state, spec, caster.side, caster, spell.id)
    place(state, token, cell)
    token.placed_turn = state.turn
    caster.summons.append(token)  # every token counts for summon control (R-A67); creatures act (R-A31)
    if state.record >= FULL:
        state.events.append(Summoned(state.turn, caster.uid, token.uid, spec.id, cell))
    return token


def trigger_trap(state: MatchState, cell: int) -> None:
    """A character ended a movement on a trap: the trap casts its spell there and is removed (R-A116).
    What the spell KOs settles with the instant of the movement."""
    trap = state.traps.get(cell)
    if trap is None or not trap.alive:
        return
    trap.alive = False
    if trap.spec.spells:
        if state.record >= FULL:
            state.events.append(SpellCast(state.turn, trap.uid, trap.spec.spells[0].id, cell))
        resolve_spell(state, trap, trap.spec.spells[0], cell)
    lift(state, trap)
    explode_pending_bombs(state)


def _settle_traps(state: MatchState, targets: list[Fighter], moved_from: list[int], caster: Fighter) -> None:
    """Traps fire only where a character's special movement ended, after the spell resolved (R-A171);
    bombs and other mechanisms never set a trap off (R-A116: "when a character moves onto it")."""
    if not state.traps:
        return
    for piece, origin in zip([caster, *targets], moved_from, strict=True):
        if piece.alive and piece.cell != origin and piece.cell in state.traps and piece.is_character:
            trigger_trap(state, piece.cell)


def _covers_scenery(state: MatchState, caster: Fighter, spell: SpellSpec, target_cell: int) -> bool:
    """Whether a cell the spell covers holds a tree, a bush or a crate."""
    cells = (
        (target_cell,)
        if spell.area == "single"
        else area_cells(state.board, spell.area, caster.cell, target_cell)
    )
    scenery = state.trees | state.bushes | state.crates
    return any((scenery >> cell) & 1 for cell in cells)


def _damage_scenery(
    state: MatchState, caster: Fighter, spell: SpellSpec, target_cell: int, critical: int
) -> None:
    """Optional rule: melee attacks injure scenery, which never rolls Armour and is destroyed at its
    HP, leaving what the ruleset says (Arena: loot kamas, R-A123-R-A127)."""
    cells = (
        (target_cell,)
        if spell.area == "single"
        else area_cells(state.board, spell.area, caster.cell, target_cell)
    )
    for cell in cells:
        bit = 1 << cell
        kind = (
            "tree"
            if state.trees & bit
            else "bush"
            if state.bushes & bit
            else "crate"
            if state.crates & bit
            else ""
        )
        if not kind:
            continue
        if kind == "crate" and state.by_cell[cell] is not None and not state.opts.scenery_hit_under_piece:
            continue
        injuries = state.scenery_injuries.get(cell, 0) + spell.amount + critical
        if injuries < state.opts.scenery_hp[kind]:
            state.scenery_injuries[cell] = injuries
            continue
        state.scenery_injuries.pop(cell, None)
        if kind == "tree":
            state.trees &= ~bit
            unblock_sight(state, cell)
            state.obstacles &= ~bit
        elif kind == "bush":
            state.bushes &= ~bit
            state.obstacles &= ~bit
        else:
            state.crates &= ~bit
        state.ruleset.on_scenery_destroyed(state, cell, kind)
