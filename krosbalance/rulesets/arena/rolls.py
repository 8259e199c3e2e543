"""Arena's rolls: Critical and Armour in combat (R-A60, R-A61, R-A79, R-A97), Lock against Dodge
when walking away (R-A41-R-A47), and their expectations for AIs (R-A16).

Wild faces are turned into successes by the roller (``engine.dice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK, count_successes
from krosbalance.engine.events import FULL, DiceRolled, LockRolled
from krosbalance.engine.powers import dice_for
from krosbalance.engine.state import BOMB
from krosbalance.engine.view import BLOCK_CHANCE, EXPECTED_ARMOUR, EXPECTED_CRITICAL, expected_bonus

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.arena.options import ArenaOptions


def critical_roll(state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
    """One Critical roll for the whole spell (R-A97); neutral spells never roll two dice (R-A79)."""
    n_dice = 1 if spell.element == "neutral" else dice_for(caster, CRITICAL)
    successes, faces = count_successes(state.dice, n_dice, CRITICAL)
    if state.record >= FULL:
        state.events.append(DiceRolled(state.turn, caster.uid, "critical", faces, successes))
    return successes


def armour_roll(state: MatchState, target: Fighter, pierce: bool, opts: ArenaOptions) -> int:
    """The target's Armour roll (R-A61); Pierce Armour removes one die (R-A82, R-A161); a bomb rolls
    ``bomb_armour_dice`` dice (R-A115)."""
    n_dice = opts.bomb_armour_dice if target.kind == BOMB else dice_for(target, ARMOUR)
    if pierce:
        n_dice -= 1
    if n_dice <= 0:
        return 0
    successes, faces = count_successes(state.dice, n_dice, ARMOUR)
    if state.record >= FULL:
        state.events.append(DiceRolled(state.turn, target.uid, "armour", faces, successes))
    return successes


def adjacent_lockers(state: MatchState, mover: Fighter) -> list[Fighter]:
    """Enemy characters adjacent to the mover that may lock it: not Tiny, not mechanisms (R-A44)."""
    lockers = []
    for cell in state.board.neighbours[mover.cell]:
        piece = state.by_cell[cell]
        if (
            piece is not None
            and piece.alive
            and piece.side != mover.side
            and piece.is_character
            and not piece.has("tiny")
        ):
            lockers.append(piece)
    return lockers


def lock_check(state: MatchState, mover: Fighter, opts: ArenaOptions) -> bool:
    """Each adjacent enemy may lock a walking character (R-A41-R-A47); whether it gets away.

    A Dodge roll is made only against a lock roll with at least one success: with none, the mover
    escapes whatever it rolls. A blocked mover loses its remaining MP (and AP, under the default
    ``lock_block_ends_turn``) and may not walk again this turn.
    """
    if mover.has("tiny"):
        return True
    for locker in adjacent_lockers(state, mover):
        lock, _ = count_successes(state.dice, dice_for(locker, LOCK), LOCK)
        dodge = 0
        if lock:
            dodge, _ = count_successes(state.dice, dice_for(mover, DODGE), DODGE)
        blocked = lock > dodge
        if state.record >= FULL:
            state.events.append(LockRolled(state.turn, mover.uid, locker.uid, lock, dodge, blocked))
        if blocked:
            mover.mp = 0
            if opts.lock_block_ends_turn:
                mover.ap = 0
            mover.blocked = True
            mover.stats.times_blocked += 1
            return False
    return True


def lock_risk(state: MatchState, mover: Fighter) -> float:
    """Chance that leaving the mover's current cell by walking gets it blocked (R-A16, R-A47)."""
    if mover.has("tiny"):
        return 0.0
    dodge = 2 if mover.has("dodge") else 1
    free = 1.0
    for locker in adjacent_lockers(state, mover):
        free *= 1.0 - BLOCK_CHANCE[2 if locker.has("lock") else 1][dodge]
    return 1.0 - free


def expected_damage(
    state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter, opts: ArenaOptions
) -> float:
    """Expected injuries a spell deals to ``target``: printed damage, adjacency bonuses, expected
    criticals and armour, resistance, immunity and the target's remaining HP. A heal spell gives the
    expected injuries healed instead."""
    if spell.kind not in ("attack", "heal"):
        return 0.0
    base = float(spell.amount + expected_bonus(state, caster, spell, target))
    crit_dice = 1 if spell.element == "neutral" else (2 if caster.has("critical") else 1)
    base += EXPECTED_CRITICAL[crit_dice]
    if spell.kind == "heal":
        return min(base, float(target.injuries))
    if spell.element != "neutral" and spell.element in target.immune:
        return 0.0
    armour_dice = 2 if target.has("armour") else 1
    if target.kind == "bomb":
        armour_dice = opts.bomb_armour_dice
    if any(e.kind == "pierce_armour" for e in spell.effects):
        armour_dice -= 1
    damage = base - EXPECTED_ARMOUR[max(0, armour_dice)]
    if spell.element != "neutral" and spell.element in target.resist:
        damage -= 1.0
    return max(0.0, min(damage, float(target.hp - target.injuries)))
