"""Bonus actions: what a Krosmaster does when it uses a Krosmic Favor (R-B17) or an active Divine
Challenge bonus (R-B43), as registered functions keyed by their keyword
(``krosbalance.content.blast_keywords.BONUS_EFFECT_KEYWORDS``).

A bonus action is data (``BonusActionSpec``): a target rule, a range from the active Krosmaster, an
optional line of sight, and effects applied in order. :func:`choices` lists the legal (target cell,
removed tile) pairs — a tile placed when its type is at the limit names the tile its player removes
first (R-B45) — and :func:`resolve` applies the effects. Damage from a bonus is not a spell's: no
combat roll unless ``bonus_damage_combat_roll`` (one die per use).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from krosbalance.content.blast_keywords import TERRAINS
from krosbalance.engine.combat import heal, inflict
from krosbalance.engine.events import FULL, Moved, Summoned
from krosbalance.engine.movement import slide
from krosbalance.engine.pieces import place, relocate, spawn
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, PLUS_AP, PLUS_MP

# Imported at run time, not under TYPE_CHECKING: the compiled BonusContext dataclass records its
# field types when this module loads, and a class whose module is not loaded yet is a null pointer.
from krosbalance.engine.state import Fighter, MatchState
from krosbalance.rulesets.blast.combat import combat_die
from krosbalance.rulesets.blast.glyphs import take_glyph
from krosbalance.rulesets.blast.options import BlastOptions
from krosbalance.rulesets.blast.state import TERRAIN_INDEX, BlastState
from krosbalance.rulesets.blast.terrain import enter, place_tile, placeable

if TYPE_CHECKING:
    from krosbalance.content.blast import BonusActionSpec

NO_TARGET = -1


@dataclass(slots=True)
class BonusContext:
    """One use of a bonus action while it resolves."""

    state: MatchState
    bs: BlastState
    opts: BlastOptions
    user: Fighter
    target: int
    removed: int
    source: str  # "favor:<id>" or "bonus:<i>", for the summoned pieces' summon tag
    damage_roll: int | None = None  # the combat die of this use, rolled once when first needed


BonusFn = Callable[[BonusContext, dict[str, Any]], None]
BONUS_EFFECTS: dict[str, BonusFn] = {}


def bonus_effect(kind: str) -> Callable[[BonusFn], BonusFn]:
    def register(fn: BonusFn) -> BonusFn:
        BONUS_EFFECTS[kind] = fn
        return fn

    return register


# ------------------------------------------------------------------------------------- targets


def terrain_kind(action: BonusActionSpec) -> int:
    """The terrain type the action places, or -1."""
    for effect in action.effects:
        if effect.kind == "place_terrain":
            return TERRAIN_INDEX[str(effect.params["terrain"])]
    return -1


def summon_room(state: MatchState, user: Fighter, action: BonusActionSpec) -> bool:
    """Whether every Invocation the action brings in is under its per-player maximum (R-B27)."""
    for effect in action.effects:
        if effect.kind == "summon":
            spec_id = str(effect.params["summon"])
            in_play = sum(
                1
                for f in state.fighters
                if f.alive and f.cell >= 0 and f.side == user.side and f.spec.id == spec_id
            )
            if in_play >= int(effect.params["max"]):
                return False
    return True


def _in_range(state: MatchState, origin: int, cell: int, action: BonusActionSpec) -> bool:
    distance = state.board.distance[origin][cell]
    if not action.range_min <= distance <= action.range_max:
        return False
    return not action.needs_los or state.board.has_los(
        origin, cell, state.sight_blockers, state.opts.strict_corner_los
    )


def targets(
    state: MatchState, bs: BlastState, user: Fighter, action: BonusActionSpec, opts: BlastOptions
) -> list[int]:
    """Every target cell the action may take now (``[NO_TARGET]`` for an action without one)."""
    rule = action.target
    if not summon_room(state, user, action):
        return []
    if rule == "none":
        return [NO_TARGET]
    origin = user.cell
    board = state.board
    if rule == "terrain_cell":
        mask = placeable(state, bs)
        cells = [c for c in range(board.n_cells) if (mask >> c) & 1]
        if opts.terrain_range:
            cells = [c for c in cells if board.distance[origin][c] <= opts.terrain_range]
        return cells
    top = min(action.range_max, len(board.rings[origin]) - 1)
    candidates = [c for d in range(action.range_min, top + 1) for c in board.rings[origin][d]]
    if rule == "free_cell":
        wanted = [c for c in candidates if not (state.obstacles >> c) & 1]
    elif rule == "enemy":
        wanted = []
        for c in candidates:
            piece = state.by_cell[c]
            if piece is not None and piece.alive and piece.side != user.side:
                wanted.append(c)
    else:  # glyph: a glyph cell its player does not control yet
        free_glyphs = bs.glyph_cells & ~bs.owned[user.side]
        wanted = [c for c in candidates if (free_glyphs >> c) & 1]
    return [c for c in wanted if _in_range(state, origin, c, action)]


def choices(
    state: MatchState, bs: BlastState, user: Fighter, action: BonusActionSpec, opts: BlastOptions
) -> list[tuple[int, int]]:
    """Every legal (target, removed tile) of the action now; the removed tile is -1 unless the action
    places a tile of a type already at the limit, when each of that type's tiles is a choice."""
    cells = targets(state, bs, user, action, opts)
    kind = terrain_kind(action)
    if kind < 0 or len(bs.tiles[kind]) < opts.terrain_max_per_type:
        return [(cell, -1) for cell in cells]
    return [(cell, removed) for cell in cells for removed in bs.tiles[kind]]


def resolve(ctx: BonusContext, action: BonusActionSpec) -> None:
    """Apply the action's effects in order (the caller has checked legality and paid)."""
    for effect in action.effects:
        if not ctx.user.alive or ctx.state.finished:
            return
        BONUS_EFFECTS[effect.kind](ctx, effect.params)


# ------------------------------------------------------------------------------------- effects


def _damage(ctx: BonusContext, piece: Fighter, amount: int) -> None:

    if ctx.opts.bonus_damage_combat_roll:
        if ctx.damage_roll is None:
            ctx.damage_roll = combat_die(ctx.state, ctx.user, ctx.opts)
        amount += ctx.damage_roll
    if amount > 0 and piece.alive:
        inflict(ctx.state, ctx.user, piece, amount, 0)


@bonus_effect("next_spell_damage")
def _next_spell_damage(ctx: BonusContext, params: dict[str, Any]) -> None:
    """Brasier: the active Krosmaster's next damaging spell this turn deals +amount."""
    uid = ctx.user.uid
    ctx.bs.spell_bonus[uid] = ctx.bs.spell_bonus.get(uid, 0) + int(params["amount"])


@bonus_effect("place_terrain")
def _place_terrain(ctx: BonusContext, params: dict[str, Any]) -> None:
    """Vague de froid, Brasero, Nappe de brouillard: a tile on the target cell (R-B44, R-B45)."""
    kind = TERRAINS.index(str(params["terrain"]))
    place_tile(ctx.state, ctx.bs, kind, ctx.target, ctx.removed, ctx.opts)


@bonus_effect("marker_self")
def _marker_self(ctx: BonusContext, params: dict[str, Any]) -> None:
    kind = PLUS_MP if params["marker"] == "mp" else PLUS_AP
    ctx.state.ruleset.add_marker(ctx.state, ctx.user, kind, int(params["amount"]))


@bonus_effect("heal_self")
def _heal_self(ctx: BonusContext, params: dict[str, Any]) -> None:

    heal(ctx.state, ctx.user, ctx.user, int(params["amount"]), from_spell=False)


@bonus_effect("summon")
def _summon(ctx: BonusContext, params: dict[str, Any]) -> None:
    """An Invocation of the active player on the target cell (R-B21, R-B27); it acts with his other
    Invocations, after all his Krosmasters (R-B11)."""
    state = ctx.state
    spec = state.summon_specs[str(params["summon"])]
    token = spawn(state, spec, ctx.user.side, ctx.user, ctx.source)
    place(state, token, ctx.target)
    token.placed_turn = state.turn
    ctx.user.summons.append(token)
    if state.record >= FULL:
        state.events.append(Summoned(state.turn, ctx.user.uid, token.uid, spec.id, ctx.target))
    if (state.enter_cells >> ctx.target) & 1:
        enter(state, ctx.bs, token, ctx.target, ctx.target, "summon", ctx.opts)


@bonus_effect("leap")
def _leap(ctx: BonusContext, params: dict[str, Any]) -> None:
    """The active Krosmaster moves to the target cell: an effect, so no dodge roll (R-B35)."""
    state, user = ctx.state, ctx.user
    origin = user.cell
    relocate(state, user, ctx.target)
    user.stats.moves += 1
    if state.record >= FULL:
        state.events.append(Moved(state.turn, user.uid, origin, ctx.target, "leap"))
    if (state.enter_cells >> ctx.target) & 1:
        enter(state, ctx.bs, user, origin, ctx.target, "leap", ctx.opts)


@bonus_effect("push_target")
def _push_target(ctx: BonusContext, params: dict[str, Any]) -> None:
    """The target is pushed away from the active Krosmaster (R-B28), stopping before an obstacle."""

    piece = ctx.state.by_cell[ctx.target]
    step = ctx.state.board.direction(ctx.user.cell, ctx.target)
    if piece is not None and piece.alive and step is not None:
        slide(ctx.state, piece, step[0], step[1], int(params["cells"]), "push")


@bonus_effect("damage_target")
def _damage_target(ctx: BonusContext, params: dict[str, Any]) -> None:
    piece = ctx.state.by_cell[ctx.target]
    if piece is not None:
        _damage(ctx, piece, int(params["amount"]))


@bonus_effect("damage_around")
def _damage_around(ctx: BonusContext, params: dict[str, Any]) -> None:
    """Colere de Iop: every Combatant at 1 to ``reach`` cells from the active Krosmaster (allies too
    when ``allies``), in uid order."""
    state, user = ctx.state, ctx.user
    reach = int(params["reach"])
    distance = state.board.distance[user.cell]
    hit = [
        f
        for f in state.fighters
        if f.alive
        and f.cell >= 0
        and f is not user
        and 1 <= distance[f.cell] <= reach
        and (bool(params["allies"]) or f.side != user.side)
    ]
    for piece in hit:
        _damage(ctx, piece, int(params["amount"]))


@bonus_effect("minus_marker_target")
def _minus_marker_target(ctx: BonusContext, params: dict[str, Any]) -> None:
    piece = ctx.state.by_cell[ctx.target]
    if piece is not None and piece.alive:
        kind = MINUS_MP if params["marker"] == "mp" else MINUS_AP
        ctx.state.ruleset.add_marker(ctx.state, piece, kind, int(params["amount"]))


@bonus_effect("capture_target")
def _capture_target(ctx: BonusContext, params: dict[str, Any]) -> None:
    """Conquete: the active player captures the target glyph cell from afar (R-B14, R-B15)."""
    take_glyph(ctx.state, ctx.bs, ctx.user.side, ctx.target, ctx.user)
