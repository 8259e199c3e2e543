"""The combat roll (R-B25, R-B30-R-B33): one die after a damaging spell's effects, +1 / -1 / 0.

The engine calls the ruleset's ``attack_roll`` once per spell that hits a piece and adds what it
returns to every target's base damage; damage never drops below 0 (the engine places only positive
injuries). Blast has no defence roll. What the combat roll hook returns also carries the damage the
spell gains from Blast's bonuses — Brasier's next-spell +1 and passives such as Force décuplée —
since both apply to "the spell's damage" exactly as the roll does. Heals and spells without
printed damage make no roll (``[choices.no_roll_without_damage]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.events import FULL
from krosbalance.rulesets.blast.events import CombatRolled
from krosbalance.rulesets.blast.passives import (
    SPELL_DAMAGE,
    active_passives,
    reroll_source,
    spell_damage_bonus,
)
from krosbalance.rulesets.blast.rolls import combat_delta, expected_combat_delta

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.state import BlastState


def combat_die(state: MatchState, roller: Fighter, opts: BlastOptions) -> int:
    """One combat die for a damage that is not a spell's (Fire, bonus damage), no reroll."""
    face = state.dice.roll()
    delta = combat_delta(face, opts.dice_faces == "advanced")
    if state.record >= FULL:
        state.events.append(CombatRolled(state.turn, roller.uid, (face,), delta))
    return delta


def spell_roll(
    state: MatchState, bs: BlastState, caster: Fighter, spell: SpellSpec, opts: BlastOptions
) -> int:
    """The combat roll of a damaging spell plus the bonuses its damage gains (R-B30).

    A -1 die may be rolled again once per turn by a Krosmaster with a reroll (Relance with its
    glyphs, or a challenge passive); the second die stands.
    """
    if spell.kind != "attack" or spell.amount <= 0:
        return 0
    advanced = opts.dice_faces == "advanced"
    faces = [state.dice.roll()]
    delta = combat_delta(faces[0], advanced)
    if delta < 0:
        source, index = reroll_source(bs, caster)
        if source:
            bs.rerolled.add((caster.uid, source))
            if index >= 0:
                bs.bonus_uses[caster.side][index] += 1
            faces.append(state.dice.roll())
            delta = combat_delta(faces[-1], advanced)
    if state.record >= FULL:
        state.events.append(CombatRolled(state.turn, caster.uid, tuple(faces), delta))
    bonus = bs.spell_bonus.pop(caster.uid, 0) + spell_damage_bonus(bs, caster)
    return delta + bonus


def expected_spell_damage(
    state: MatchState, bs: BlastState, caster: Fighter, spell: SpellSpec, target: Fighter, opts: BlastOptions
) -> float:
    """Expected injuries of a spell on one target: printed damage, the expected combat die (with a
    reroll if the caster has one now), pending and passive bonuses, capped by the target's HP; a
    heal gives the injuries it would remove."""
    if spell.kind == "heal":
        return float(min(spell.amount, target.injuries))
    if spell.kind != "attack" or spell.amount <= 0:
        return 0.0
    reroll = bool(reroll_source(bs, caster)[0])
    bonus = bs.spell_bonus.get(caster.uid, 0)

    bonus += sum(
        int(p["amount"]) for _, _, p in active_passives(bs, caster.side, SPELL_DAMAGE, bs.glyphs(caster.side))
    )
    if caster.kind != "krosmaster":
        bonus = 0
    base = spell.amount + bonus
    advanced = opts.dice_faces == "advanced"
    # E[max(0, base + die)]: with base >= 1 only base 1 with a -1 die can floor at 0, which the
    # delta's expectation already counts as 0.
    expected = base + expected_combat_delta(advanced, reroll)
    return max(0.0, min(expected, float(target.hp - target.injuries)))
