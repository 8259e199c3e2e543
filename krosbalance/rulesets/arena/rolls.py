"""What Arena's rolls need besides the rolls themselves, and their expectations for AIs (R-A16).

The rolls are the hooks of ``ArenaRuleset`` (``attack_roll``: Critical, R-A60, R-A79, R-A97;
``defence_roll``: Armour, R-A61, R-A82, R-A115; ``may_leave``: Lock against Dodge, R-A41-R-A47),
which run on the hot path; wild faces are turned into successes by the roller (``engine.dice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.powers import spell_injury_cap
from krosbalance.engine.view import BLOCK_CHANCE, EXPECTED_ARMOUR, EXPECTED_CRITICAL, expected_bonus
from krosbalance.rulesets.arena.tokens import mods_of, spell_bonus

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.arena.options import ArenaOptions


def adjacent_lockers(state: MatchState, mover: Fighter) -> list[Fighter]:
    """Enemy characters adjacent to the mover that may lock it: not Tiny, not mechanisms (R-A44).

    Enemy means another partnership (R-A42, R-A158): in two versus two a partner's Krosmaster is an
    ally and rolls no Lock (seed: "ogni personaggio avversario adiacente")."""
    lockers = []
    for cell in state.board.neighbours[mover.cell]:
        piece = state.by_cell[cell]
        if (
            piece is not None
            and piece.alive
            and piece.team != mover.team
            and piece.is_character
            and not piece.has("tiny")
        ):
            lockers.append(piece)
    return lockers


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
    criticals and armour, resistance, immunity, an injury cap (Krobust) and the target's remaining HP. A heal spell gives the
    expected injuries healed instead."""
    if spell.kind not in ("attack", "heal"):
        return 0.0
    base = float(spell.amount + expected_bonus(state, caster, spell, target))
    if caster.extra is not None and mods_of(caster) is not None:  # Demonic Rewards (R-A145)
        base += spell_bonus(caster, spell, consume=False)[0]
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
    damage = min(damage, float(spell_injury_cap(target, caster)))  # Krobust, as combat applies it
    return max(0.0, min(damage, float(target.hp - target.injuries)))
