"""Additional-effect keywords (R-A81-R-A96) as small registered functions.

Each keyword declares its *phase*, which says when and to whom it applies during the five steps of
a spell (R-A58-R-A62):

- ``flag``: sets a flag read later in the resolution (Pierce Armour, Lifesteal);
- ``caster``: acts once on the caster in step 2 (Retreat, Approach, Distant Shot);
- ``target``: acts on each target in step 2, ignored by Unfazed targets (R-A106) except the caster
  of its own personal spell (R-D35);
- ``bonus``: adds damage to each target in step 2; Unfazed does not stop it (R-A106).

The keyword vocabulary and its parameters are declared as data in ``krosbalance.content.keywords``;
a test checks that this registry implements exactly that vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import Frozen
from krosbalance.engine.events import Moved
from krosbalance.engine.movement import slide
from krosbalance.engine.pieces import relocate, swap
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, PLUS_AP, PLUS_MP

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.state import Fighter, MatchState

FLAG, CASTER, TARGET, BONUS = "flag", "caster", "target", "bonus"


@dataclass(slots=True)
class CastContext:
    """What one spell resolution knows while it runs."""

    state: MatchState
    caster: Fighter
    spell: SpellSpec
    target_cell: int
    pierce_armour: bool = False
    lifesteal: bool = False
    bonus: dict[int, int] = field(default_factory=dict)  # uid -> extra damage
    choice: int = -1  # a second cell the player picked for the cast (Pandawa Style's ally), or -1


EffectFn = Callable[..., None]


@dataclass(frozen=True, slots=True)
class EffectRule(Frozen):
    kind: str
    phase: str
    rule: str
    apply: EffectFn


EFFECTS: dict[str, EffectRule] = {}


def effect(kind: str, phase: str, rule: str) -> Callable[[EffectFn], EffectFn]:
    def register(fn: EffectFn) -> EffectFn:
        EFFECTS[kind] = EffectRule(kind, phase, rule, fn)
        return fn

    return register


def _away(ctx: CastContext, origin: int, other: int) -> tuple[int, int] | None:
    """Unit step pointing from ``other`` to ``origin`` (away from ``other``); None when undefined."""
    step = ctx.state.board.direction(other, origin)
    return step


def _is_fazed(ctx: CastContext, piece: Fighter) -> bool:
    """Whether movement effects move this piece: Unfazed pieces and (by option) bombs are not."""
    if piece.has("unfazed"):
        return False
    return not (piece.kind == "bomb" and ctx.state.opts.bombs_unfazed)


@effect("pierce_armour", FLAG, "R-A82")
def _pierce_armour(ctx: CastContext, target: Fighter | None) -> None:
    ctx.pierce_armour = True


@effect("lifesteal", FLAG, "R-A81")
def _lifesteal(ctx: CastContext, target: Fighter | None) -> None:
    ctx.lifesteal = True


@effect("retreat", CASTER, "R-A83")
def _retreat(ctx: CastContext, target: Fighter | None, cells: int) -> None:
    step = _away(ctx, ctx.caster.cell, ctx.target_cell)
    if step is not None and ctx.caster.cell >= 0:
        slide(ctx.state, ctx.caster, step[0], step[1], cells, "retreat")


def _toward(ctx: CastContext, origin: int, goal: int, cells: int) -> tuple[int, int, int] | None:
    """Unit step from ``origin`` toward ``goal`` and how many cells a move *toward* it may take: never
    past the goal's row or column along that axis (R-A84, R-A86); None when there is no direction."""
    board = ctx.state.board
    step = board.direction(origin, goal)
    if step is None:
        return None
    (x0, y0), (x1, y1) = board.xy(origin), board.xy(goal)
    room = abs(x1 - x0) if step[0] else abs(y1 - y0)
    return step[0], step[1], min(cells, room)


@effect("approach", CASTER, "R-A84")
def _approach(ctx: CastContext, target: Fighter | None, cells: int) -> None:
    """The caster moves up to ``cells`` toward the target cell, never past it: an empty target cell
    may be reached, an occupied one stops the caster in front of it (R-A84, R-A87)."""
    if ctx.caster.cell < 0:
        return
    move = _toward(ctx, ctx.caster.cell, ctx.target_cell, cells)
    if move is not None and move[2] > 0:
        slide(ctx.state, ctx.caster, move[0], move[1], move[2], "approach")


@effect("push", TARGET, "R-A85")
def _push(ctx: CastContext, target: Fighter | None, cells: int) -> None:
    if target is None or target is ctx.caster or not _is_fazed(ctx, target):
        return
    step = _away(ctx, target.cell, ctx.caster.cell)
    if step is not None:
        slide(ctx.state, target, step[0], step[1], cells, "push")


@effect("attract", TARGET, "R-A86")
def _attract(ctx: CastContext, target: Fighter | None, cells: int) -> None:
    if target is None or target is ctx.caster or not _is_fazed(ctx, target):
        return
    move = _toward(ctx, target.cell, ctx.caster.cell, cells)
    if move is not None and move[2] > 0:
        slide(ctx.state, target, move[0], move[1], move[2], "attract")


# Markers (R-A90-R-A93): when they act is the ruleset's (``MatchRules.add_marker``; Arena: at the
# piece's next activation, minus markers capped by its MP/AP, R-A34).


@effect("minus_mp", TARGET, "R-A90")
def _minus_mp(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, MINUS_MP, amount)


@effect("plus_mp", TARGET, "R-A90")
def _plus_mp(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, PLUS_MP, amount)


@effect("minus_ap", TARGET, "R-A91")
def _minus_ap(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, MINUS_AP, amount)


@effect("plus_ap", TARGET, "R-A91")
def _plus_ap(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, PLUS_AP, amount)


@effect("steal_mp", TARGET, "R-A92")
def _steal_mp(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, MINUS_MP, amount)
        ctx.state.ruleset.add_marker(ctx.state, ctx.caster, PLUS_MP, amount)


@effect("steal_ap", TARGET, "R-A93")
def _steal_ap(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    if target is not None and target.is_character:
        ctx.state.ruleset.add_marker(ctx.state, target, MINUS_AP, amount)
        ctx.state.ruleset.add_marker(ctx.state, ctx.caster, PLUS_AP, amount)


@effect("swap_places", TARGET, "R-A95")
def _swap_places(ctx: CastContext, target: Fighter | None) -> None:
    """The caster and the target *character* (a figure or a creature token) exchange cells; a special
    movement, never locked (R-A95, seed L1220, L1242-L1245). Bombs and traps are mechanisms, not
    characters (R-A111, R-A116): a spell that hits one still resolves, but nobody swaps."""
    caster = ctx.caster
    if target is None or target is caster or caster.cell < 0 or target.cell < 0:
        return
    if not target.is_character:
        return
    if not _is_fazed(ctx, target):
        return
    state = ctx.state
    origin = caster.cell
    swap(state, caster, target)
    if state.record >= 2:
        state.events.append(Moved(state.turn, caster.uid, origin, caster.cell, "swap"))
    if state.enter_cells:
        for piece, came_from in ((caster, origin), (target, caster.cell)):
            if piece.cell >= 0 and (state.enter_cells >> piece.cell) & 1:
                state.ruleset.on_enter(state, piece, came_from, piece.cell, "swap")


@effect("bonus_per_adjacent_summon", BONUS, "R-A96")
def _bonus_per_adjacent_summon(ctx: CastContext, target: Fighter | None, summon: str, damage: int) -> None:
    """+damage per summon of that id *placed by this caster* adjacent to the target (R-A96)."""
    if target is None:
        return
    adjacent = ctx.state.board.neighbour_mask[target.cell]
    count = sum(
        1
        for token in ctx.caster.summons
        if token.alive and token.spec.id == summon and (adjacent >> token.cell) & 1
    )
    if count:
        ctx.bonus[target.uid] = ctx.bonus.get(target.uid, 0) + count * damage


@effect("element_bonus", BONUS, "R-A80")
def _element_bonus(ctx: CastContext, target: Fighter | None, element: str, amount: int) -> None:
    if target is not None and ctx.spell.element == element:
        ctx.bonus[target.uid] = ctx.bonus.get(target.uid, 0) + amount


@effect("range_bonus_this_turn", CASTER, "R-A72")
def _range_bonus_this_turn(ctx: CastContext, target: Fighter | None, amount: int) -> None:
    ctx.caster.range_bonus += amount


@effect("lose_all_mp", CASTER, "R-A65")
def _lose_all_mp(ctx: CastContext, target: Fighter | None) -> None:
    ctx.caster.mp = 0


@effect("move_to_target", CASTER, "R-B28 (Bond imprudent)")
def _move_to_target(ctx: CastContext, target: Fighter | None) -> None:
    """The caster moves into the targeted cell if it is free: a special movement, so no Lock and no
    dodge roll; entering a cell of ``state.enter_cells`` calls the ruleset's ``on_enter``."""
    state, caster = ctx.state, ctx.caster
    cell = ctx.target_cell
    if caster.cell < 0 or cell == caster.cell or (state.obstacles >> cell) & 1:
        return
    origin = caster.cell
    relocate(state, caster, cell)
    if state.record >= 2:
        state.events.append(Moved(state.turn, caster.uid, origin, cell, "spell_move"))
    if (state.enter_cells >> cell) & 1:
        state.ruleset.on_enter(state, caster, origin, cell, "spell_move")


@effect("different_target_next", FLAG, "Roulette de chat")
def _different_target_next(ctx: CastContext, target: Fighter | None) -> None:
    """The caster's next cast of this spell may not target the piece this cast targets."""
    piece = ctx.state.by_cell[ctx.target_cell]
    if piece is None:
        ctx.caster.banned_targets.pop(ctx.spell.id, None)
    else:
        ctx.caster.banned_targets[ctx.spell.id] = piece.uid


@effect("carry_ally", CASTER, "R-A143")
def _carry_ally(ctx: CastContext, target: Fighter | None) -> None:
    """Pandawa Style (seed L2961-L2966): the ally the player picked (``ctx.choice``, its cell), adjacent
    to the caster, is put on the target cell — a free cell — in one go, never locked (R-A41). It
    springs a trap there once the spell has resolved, which here is at once (R-A171)."""
    state = ctx.state
    caster = ctx.caster
    if ctx.choice < 0 or caster.cell < 0 or (state.obstacles >> ctx.target_cell) & 1:
        return
    ally = state.by_cell[ctx.choice]
    if ally is None or not ally.alive or ally.team != caster.team or ally is caster or not ally.is_character:
        return
    if not (state.board.neighbour_mask[caster.cell] >> ally.cell) & 1:
        return
    origin = ally.cell
    relocate(state, ally, ctx.target_cell)
    if state.record >= 2:
        state.events.append(Moved(state.turn, ally.uid, origin, ally.cell, "carry"))
    if ally.cell in state.traps:
        from krosbalance.engine.combat import (
            trigger_trap,  # cycle: combat imports this module (a trap casts a spell)
        )

        trigger_trap(state, ally.cell)


def _unfazed_against(ctx: CastContext, target: Fighter) -> bool:
    """Whether Unfazed stops this spell's additional effects on ``target`` (R-A106, R-D35).

    The Duel Pack adds: "Personal spells are not affected by Unfazed." (Duel Pack rulebook, Powers,
    R-D35), so an Unfazed Krosmaster's own personal spell (range type ``personal``: it "touches only
    the character who casts it", Arena seed L2610-L2611) still gives him its markers. Arena's text
    (seed L2777-L2779: Unfazed ignores the additional effects "of spells cast on the character") is
    silent on one's own personal spells; read as the same power, the clarification holds in every
    ruleset. The area of a personal spell never holds its caster (``combat._targets``), so pieces
    around it keep their Unfazed (a bomb's Explosion, R-A106)."""
    if not target.has("unfazed"):
        return False
    return not (target is ctx.caster and ctx.spell.range_type == "personal")


def apply_step_two(ctx: CastContext, targets: list[Fighter]) -> None:
    """Step 2 of a spell: every additional effect in printed order, to all targets (R-A59)."""
    for spec in ctx.spell.effects:
        rule = EFFECTS[spec.kind]
        params: dict[str, Any] = spec.params
        if rule.phase == FLAG or rule.phase == CASTER:
            rule.apply(ctx, None, **params)
        elif rule.phase == BONUS:
            for target in targets:
                if target.cell >= 0:
                    rule.apply(ctx, target, **params)
        else:
            for target in targets:
                if target.cell >= 0 and target.alive and not _unfazed_against(ctx, target):
                    rule.apply(ctx, target, **params)
