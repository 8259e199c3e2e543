"""What must always hold of the Duel Pack's holdings (for ``testing.invariants``), their snapshot
(for ``testing.conformance``), and the expected damage AIs read (the Arena rolls, R-D29).

Invariants: every token of the set is in exactly one place (supply, face up, a duel cell, a card);
tokens lie only on duel cells; a token held from the start (study option) is on its player's cards; each Krosmaster's HP, MP, AP and max-range bonus are its card's plus
its revealed tokens' (R-D21), less an MP/AP bonus still held back this turn.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from krosbalance.engine.dice import CRITICAL
from krosbalance.engine.powers import dice_for, spell_injury_cap
from krosbalance.engine.view import EXPECTED_ARMOUR, EXPECTED_CRITICAL, expected_bonus

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.duel.options import DuelOptions
    from krosbalance.rulesets.duel.state import DuelState


def duel_problems(state: MatchState, ds: DuelState, opts: DuelOptions) -> list[str]:
    problems: list[str] = []
    counts = Counter(t.id for t in ds.all_tokens())
    expected = Counter(t.id for t in ds.token_set.tokens)
    if counts != expected:
        problems.append(
            f"duel tokens not conserved: {sorted((counts - expected).elements())} extra, "
            f"{sorted((expected - counts).elements())} missing"
        )
    for cell in ds.on_cells:
        if not (ds.duel_cells >> cell) & 1:
            problems.append(f"a duel token lies on cell {cell}, not a duel cell")
    for side, tokens in enumerate(ds.start_tokens):
        held = {
            t.id for f in state.timeline[side] for t in (*ds.hidden.get(f.uid, ()), *ds.shown.get(f.uid, ()))
        }
        for token in tokens:
            if token.id not in held:
                problems.append(f"player {side}'s token {token.id} held from the start is not on his cards")
    held_back: dict[int, tuple[int, int]] = {}
    for uid, token in ds.pending:
        mp, ap = held_back.get(uid, (0, 0))
        held_back[uid] = (mp + token.mp, ap + token.ap)
    for fighter in state.fighters:
        shown = ds.shown.get(fighter.uid, [])
        mp, ap = held_back.get(fighter.uid, (0, 0))
        want = (
            fighter.spec.hp + sum(t.hp for t in shown),
            fighter.spec.mp + sum(t.mp for t in shown) - mp,
            fighter.spec.ap + sum(t.ap for t in shown) - ap,
            sum(t.range for t in shown),
        )
        have = (fighter.hp, fighter.base_mp, fighter.base_ap, fighter.max_range_bonus)
        if have != want:
            problems.append(
                f"#{fighter.uid} has HP/MP/AP/range {have}, its card and revealed tokens give {want}"
            )
    return problems


def duel_snapshot(ds: DuelState) -> tuple[Any, ...]:
    return (
        ds.duel_level,
        tuple(tuple(t.id for t in pile) for pile in ds.piles),
        tuple(None if t is None else t.id for t in ds.face_up),
        tuple(sorted((c, t.id) for c, t in ds.on_cells.items())),
        tuple(sorted((uid, tuple(t.id for t in ts)) for uid, ts in ds.hidden.items())),
        tuple(sorted((uid, tuple(t.id for t in ts)) for uid, ts in ds.shown.items())),
        tuple((uid, t.id) for uid, t in ds.pending),
        tuple(ds.drafted),
        tuple(ds.picked),
        tuple(ds.revealed),
        tuple(tuple(t.id for t in tokens) for tokens in ds.start_tokens),
    )


def critical_dice(caster: Fighter, spell: SpellSpec, opts: DuelOptions) -> int:
    """Dice of a spell's Critical roll (R-D29 step 4): 1, or 2 with the Critical power (R-D32, seed
    'Powers': "roll an extra die when rolling for critical hit", "0 to 2 successes"). A neutral
    spell gets the extra die only under ``neutral_critical_power`` (the Duel Pack as written, the
    default); False is Arena's "never more than one die with a neutral spell" (R-A79)."""
    if spell.element == "neutral" and not opts.neutral_critical_power:
        return 1
    return dice_for(caster, CRITICAL)


def expected_damage(
    state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter, opts: DuelOptions
) -> float:
    """Expected injuries a spell deals to ``target`` (or heals): printed amount, bonus effects,
    expected Critical and Armour successes (R-D29, R-D32), Pierces Armour (R-D13), Resistance
    (R-D33), immunity and the target's remaining HP."""
    if spell.kind not in ("attack", "heal"):
        return 0.0
    base = float(spell.amount + expected_bonus(state, caster, spell, target))
    base += EXPECTED_CRITICAL[critical_dice(caster, spell, opts)]
    if spell.kind == "heal":
        return min(base, float(target.injuries))
    if spell.element != "neutral" and spell.element in target.immune:
        return 0.0
    armour_dice = opts.bomb_armour_dice if target.kind == "bomb" else (2 if target.has("armour") else 1)
    if any(e.kind == "pierce_armour" for e in spell.effects):
        armour_dice -= 1
    damage = base - EXPECTED_ARMOUR[max(0, min(2, armour_dice))]
    if spell.element != "neutral" and spell.element in target.resist:
        damage -= 1.0
    damage = min(damage, float(spell_injury_cap(target, caster)))  # Krobust
    return max(0.0, min(damage, float(target.hp - target.injuries)))
