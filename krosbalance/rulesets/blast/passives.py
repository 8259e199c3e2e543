"""Passive Divine Challenge bonuses (R-B42) and the powers of Blast Krosmaster cards, as registered
rules keyed by their keyword (``krosbalance.content.blast_keywords``).

A passive bonus acts for the players who control its tier's glyph cells, for their Krosmasters
("allied Krosmasters"); a card power acts for its holder. Each keyword is one entry of
``PASSIVES`` or ``POWERS`` naming the moment it acts — a glyph capture, the start or end of an
activation, a damaging spell, a combat roll — so the ruleset's hooks only look up the keywords of
that moment. A new passive is one function, one registration and one scenario test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import Frozen
from krosbalance.engine.combat import heal, inflict
from krosbalance.engine.rules import PLUS_AP, PLUS_MP
from krosbalance.engine.state import KROSMASTER

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.state import BlastState

CAPTURE, ACTIVATION_START, ACTIVATION_END, SPELL_DAMAGE, SPELL_RANGE, REROLL = (
    "capture",
    "activation_start",
    "activation_end",
    "spell_damage",
    "spell_range",
    "reroll",
)
#: what a passive does at its moment: (state, blast state, the piece concerned, its params, the
#: index of the bonus or -1 for a card power) -> None
PassiveFn = Callable[["MatchState", "BlastState", "Fighter", dict[str, Any], int], None]


@dataclass(frozen=True, slots=True)
class PassiveRule(Frozen):
    kind: str
    moment: str
    rule: str
    apply: PassiveFn | None = None


PASSIVES: dict[str, PassiveRule] = {}
POWERS: dict[str, PassiveRule] = {}


def _marker(state: MatchState, piece: Fighter, marker: str, amount: int) -> None:
    state.ruleset.add_marker(state, piece, PLUS_MP if marker == "mp" else PLUS_AP, amount)


def _count(bs: BlastState, side: int, bonus: int) -> None:
    if bonus >= 0:
        bs.bonus_uses[side][bonus] += 1


# ------------------------------------------------------------------------------------ captures


def _capture_marker(
    state: MatchState, bs: BlastState, piece: Fighter, params: dict[str, Any], bonus: int
) -> None:
    """Territorial (Gege Ronimo), Baaaston!, Jackpot: +amount markers to the capturing Krosmaster."""
    _marker(state, piece, str(params["marker"]), int(params["amount"]))
    _count(bs, piece.side, bonus)


def _capture_heal(
    state: MatchState, bs: BlastState, piece: Fighter, params: dict[str, Any], bonus: int
) -> None:
    """Glyphe de soin: the capturing Krosmaster heals."""

    heal(state, piece, piece, int(params["amount"]), from_spell=False)
    _count(bs, piece.side, bonus)


# --------------------------------------------------------------------------------- activations


def _activation_marker(
    state: MatchState, bs: BlastState, piece: Fighter, params: dict[str, Any], bonus: int
) -> None:
    """Maitrise du temps: an allied Krosmaster starts its activation with +amount markers."""
    _marker(state, piece, str(params["marker"]), int(params["amount"]))
    _count(bs, piece.side, bonus)


def _next_to_ally(
    state: MatchState, bs: BlastState, piece: Fighter, params: dict[str, Any], bonus: int
) -> None:
    """Amitie: ending its activation next to another allied Krosmaster gives markers, which act
    during its next activation (R-B26: it is no longer acting)."""
    near = state.board.neighbour_mask[piece.cell]
    if any(
        ally is not piece and ally.alive and ally.cell >= 0 and (near >> ally.cell) & 1
        for ally in state.timeline[piece.side]
    ):
        if params["mp"]:
            _marker(state, piece, "mp", int(params["mp"]))
        if params["ap"]:
            _marker(state, piece, "ap", int(params["ap"]))
        _count(bs, piece.side, bonus)


def _on_glyph_heal(
    state: MatchState, bs: BlastState, piece: Fighter, params: dict[str, Any], bonus: int
) -> None:
    """Seve: an allied Krosmaster ending its activation on its player's glyph cell heals."""

    if (bs.owned[piece.side] >> piece.cell) & 1 and heal(state, piece, piece, int(params["amount"]), False):
        _count(bs, piece.side, bonus)


def register(table: dict[str, PassiveRule], rule: PassiveRule) -> None:
    table[rule.kind] = rule


register(PASSIVES, PassiveRule("capture_marker", CAPTURE, "R-B41 Baaaston!", _capture_marker))
register(PASSIVES, PassiveRule("capture_heal", CAPTURE, "R-B41 Glyphe de soin", _capture_heal))
register(PASSIVES, PassiveRule("spell_damage_bonus", SPELL_DAMAGE, "R-B41 Force decuplee"))
register(PASSIVES, PassiveRule("end_activation_next_to_ally", ACTIVATION_END, "R-B41 Amitie", _next_to_ally))
register(PASSIVES, PassiveRule("spell_range_bonus", SPELL_RANGE, "assumed card"))
# glyph_trap_damage acts on the *opponent's* pieces: see end_of_activation
register(PASSIVES, PassiveRule("glyph_trap_damage", ACTIVATION_END, "assumed card"))
register(
    PASSIVES, PassiveRule("end_activation_on_glyph_heal", ACTIVATION_END, "assumed card", _on_glyph_heal)
)
register(PASSIVES, PassiveRule("activation_marker", ACTIVATION_START, "assumed card", _activation_marker))
register(PASSIVES, PassiveRule("combat_reroll", REROLL, "assumed card"))
register(POWERS, PassiveRule("capture_marker", CAPTURE, "Territorial (p.6)", _capture_marker))
register(POWERS, PassiveRule("combat_reroll", REROLL, "Relance (p.10, effect assumed)"))


# ------------------------------------------------------------------------------- the moments


def active_passives(
    bs: BlastState, side: int, moment: str, glyphs: int
) -> list[tuple[int, str, dict[str, Any]]]:
    """(bonus index, keyword, params) of the passives of ``moment`` active for ``side`` when it
    controls ``glyphs`` glyph cells."""
    found = []
    for i, bonus in enumerate(bs.bonuses):
        passive = bonus.passive
        if passive is not None and PASSIVES[passive.kind].moment == moment and glyphs >= bs.tiers[i]:
            found.append((i, passive.kind, passive.params))
    return found


def on_capture(state: MatchState, bs: BlastState, krosmaster: Fighter, before: int) -> None:
    """A Krosmaster captured a glyph cell; its player held ``before`` glyph cells just before."""
    for power in krosmaster.spec.powers:
        rule = POWERS.get(power.kind)
        if rule is not None and rule.moment == CAPTURE and rule.apply is not None:
            rule.apply(state, bs, krosmaster, power.params, -1)
    for index, kind, params in active_passives(bs, krosmaster.side, CAPTURE, before):
        apply = PASSIVES[kind].apply
        if apply is not None and krosmaster.alive:
            apply(state, bs, krosmaster, params, index)


def start_of_activation(state: MatchState, bs: BlastState, fighter: Fighter) -> None:
    """An allied Krosmaster starts acting: start-of-activation passives, and its range bonus."""
    if fighter.kind != KROSMASTER:
        return
    for index, kind, params in active_passives(bs, fighter.side, ACTIVATION_START, bs.glyphs(fighter.side)):
        apply = PASSIVES[kind].apply
        if apply is not None:
            apply(state, bs, fighter, params, index)
    refresh_range(state, bs)
    for index, _, _ in active_passives(bs, fighter.side, SPELL_RANGE, bs.glyphs(fighter.side)):
        _count(bs, fighter.side, index)  # a range bonus acts for the whole activation


def end_of_activation(state: MatchState, bs: BlastState, fighter: Fighter) -> None:
    """A Combatant's activation ends: its player's end-of-activation passives (Krosmasters only),
    and the opponent's glyph traps (any Combatant standing on one of the opponent's glyphs)."""
    if not fighter.alive or fighter.cell < 0:
        return
    if fighter.kind == KROSMASTER:
        for index, kind, params in active_passives(bs, fighter.side, ACTIVATION_END, bs.glyphs(fighter.side)):
            apply = PASSIVES[kind].apply
            if apply is not None and fighter.alive:
                apply(state, bs, fighter, params, index)
    enemy = 1 - fighter.side
    if (bs.owned[enemy] >> fighter.cell) & 1:
        for index, kind, params in active_passives(bs, enemy, ACTIVATION_END, bs.glyphs(enemy)):
            if (
                kind == "glyph_trap_damage"
                and fighter.alive
                and inflict(state, None, fighter, int(params["amount"]), 0)
            ):
                _count(bs, enemy, index)


def spell_damage_bonus(bs: BlastState, caster: Fighter) -> int:
    """Damage an allied Krosmaster's damaging spell gains from passives (Force decuplee)."""
    if caster.kind != KROSMASTER:
        return 0
    total = 0
    for index, _, params in active_passives(bs, caster.side, SPELL_DAMAGE, bs.glyphs(caster.side)):
        total += int(params["amount"])
        _count(bs, caster.side, index)
    return total


def refresh_range(state: MatchState, bs: BlastState) -> None:
    """The active Krosmaster's range bonus from passives (Vue percante), kept in step with its
    player's glyph count (the engine adds ``range_bonus`` to extendable ranges)."""
    fighter = state.active
    if fighter is None or fighter.kind != KROSMASTER:
        return
    fighter.range_bonus = sum(
        int(params["amount"])
        for _, _, params in active_passives(bs, fighter.side, SPELL_RANGE, bs.glyphs(fighter.side))
    )


def reroll_source(bs: BlastState, caster: Fighter) -> tuple[str, int]:
    """The once-per-turn reroll of a -1 combat die the caster may use now: ("power", -1) for
    Relance (with its glyphs), ("bonus:<i>", i) for a challenge passive, or ("", -1)."""
    if caster.kind != KROSMASTER:
        return "", -1
    glyphs = bs.glyphs(caster.side)
    for power in caster.spec.powers:
        ready = (caster.uid, "power") not in bs.rerolled
        if power.kind == "combat_reroll" and glyphs >= int(power.params["glyphs"]) and ready:
            return "power", -1
    for index, _, _ in active_passives(bs, caster.side, REROLL, glyphs):
        key = f"bonus:{index}"
        if (caster.uid, key) not in bs.rerolled:
            return key, index
    return "", -1
