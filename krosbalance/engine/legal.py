"""What the active character may do now: actions, spell targets, and their legality (R-A37-R-A77).

Actions are small immutable values of three ints so that generating and comparing them is cheap. A
cast names the spell by its index in the fighter's spell list (in Arena the punch is the last spell
of every Krosmaster). The engine's own kinds are END, MOVE and CAST; a ruleset adds kinds from
``EXTRA`` on, with their legality and resolution (``MatchRules.extra_actions``, ``is_legal_extra``,
``perform_extra``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from krosbalance.content.specs import SpellSpec
from krosbalance.engine.movement import held_fast
from krosbalance.engine.state import TRAP, Fighter, MatchState

if TYPE_CHECKING:
    from krosbalance.engine.rules import MatchRules

#: action kinds (``Final``: compiled code reads them as constants, not module attributes)
END: Final = 0
MOVE: Final = 1
CAST: Final = 2
EXTRA: Final = 3  #: the first action kind a ruleset may define
ACTION_NAMES: tuple[str, ...] = ("end", "move", "cast")


@final
class Action:
    """One decision of the active character. ``spell`` and ``target`` are -1 where unused.

    An immutable value, equal and hashable by its fields. A plain slotted class rather than a
    NamedTuple: compiled code builds it natively, where a NamedTuple's constructor is Python code.
    """

    __slots__ = ("kind", "spell", "target")

    def __init__(self, kind: int, spell: int = -1, target: int = -1) -> None:
        self.kind: Final = kind
        self.spell: Final = spell
        self.target: Final = target

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action)
            and self.kind == other.kind
            and self.spell == other.spell
            and self.target == other.target
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.spell, self.target))

    def __repr__(self) -> str:
        return f"Action(kind={self.kind}, spell={self.spell}, target={self.target})"

    def describe(self, fighter: Fighter | None = None, rules: MatchRules | None = None) -> str:
        """A readable form (``rules`` names the ruleset's own kinds)."""
        if self.kind >= EXTRA or self.kind < 0:
            return rules.action_name(self.kind) if rules is not None else f"action {self.kind}"
        name = ACTION_NAMES[self.kind]
        if self.kind == CAST and fighter is not None:
            return f"cast {fighter.spells[self.spell].id} on {self.target}"
        if self.kind == MOVE:
            return f"move to {self.target}"
        return name


END_TURN = Action(END)


def max_range(state: MatchState, fighter: Fighter, spell: SpellSpec) -> int:
    """The spell's max range with crate (+1, R-A121), effect and permanent ruleset bonuses (e.g.
    Arena's Demonic Rewards, R-A145), unless it is fixed (R-A73, R-A75-R-A77)."""
    if spell.fixed_range or not spell.needs_los or spell.range_type in ("melee", "personal"):
        return spell.range_max
    bonus = fighter.range_bonus + fighter.max_range_bonus
    if (state.crates >> fighter.cell) & 1:
        bonus += 1
    return spell.range_max + bonus


def sight_blockers_from(state: MatchState, origin: int) -> int:
    """What blocks line of sight for a caster on ``origin`` (R-A78): trees and non-Tiny characters,
    except pieces with Invisibility that are not adjacent to the caster (R-A108)."""
    blockers = state.sight_blockers
    if state.invisible:
        blockers &= ~(state.invisible & ~state.board.neighbour_mask[origin])
    return blockers


def can_pay(state: MatchState, fighter: Fighter, spell: SpellSpec) -> bool:
    """Costs, usage limit and summon control (R-A56, R-A66-R-A69)."""
    if fighter.ap < spell.ap_cost or fighter.mp < spell.mp_cost:
        return False
    if spell.injury_cost and fighter.injuries + spell.injury_cost > fighter.hp:
        return False
    if spell.limit == "turn" and fighter.turn_uses.get(spell.id, 0) >= 1:
        return False
    if spell.limit == "game" and spell.id in fighter.game_uses:
        return False
    if spell.summon_control:
        in_play = sum(1 for t in fighter.summons if t.alive and t.summon_spell == spell.id)
        if in_play >= spell.summon_control:
            return False
    return True


def _target_ok(state: MatchState, fighter: Fighter, spell: SpellSpec, cell: int) -> bool:
    if fighter.banned_targets:  # "your next <spell> must have a different target"
        banned = fighter.banned_targets.get(spell.id)
        if banned is not None:
            piece = state.by_cell[cell]
            if piece is not None and piece.uid == banned:
                return False
    rule = spell.target
    if rule == "any":
        return True
    if rule == "free_cell":
        # R-A64, R-A116: a trap's cell stays free; only a second trap may not be put there
        if (state.obstacles >> cell) & 1:
            return False
        return cell not in state.traps or not lays_trap(state, spell)
    piece = state.by_cell[cell]
    if piece is None or not piece.is_character:
        return False
    if rule == "ally":
        return piece.team == fighter.team and piece is not fighter
    if rule == "enemy":
        return piece.team != fighter.team
    return True  # "character"


def lays_trap(state: MatchState, spell: SpellSpec) -> bool:
    """Whether a summon spell puts a trap in play (at most one trap per cell, R-A116)."""
    spec = state.summon_specs.get(spell.summons or "")
    return spec is not None and spec.kind == TRAP


def spell_targets(state: MatchState, fighter: Fighter, spell: SpellSpec) -> list[int]:
    """Every cell this spell may target now: range, line, line of sight, target rule (R-A55-R-A78)."""
    origin = fighter.cell
    board = state.board
    kind = spell.range_type
    if kind == "personal":
        candidates: list[int] | tuple[int, ...] = (origin,)
    elif kind == "melee":
        candidates = board.neighbours[origin]
    else:
        rings = board.rings[origin]
        top = min(max_range(state, fighter, spell), len(rings) - 1)
        candidates = [cell for d in range(spell.range_min, top + 1) for cell in rings[d]]
        if kind == "line":
            candidates = [cell for cell in candidates if board.aligned(origin, cell)]
        if spell.needs_los:
            blockers = sight_blockers_from(state, origin)
            path = board.los_path[origin]
            candidates = [cell for cell in candidates if not path[cell] & blockers]
            if state.opts.strict_corner_los:
                candidates = [
                    cell for cell in candidates if board.has_los(origin, cell, blockers, strict=True)
                ]
    return [cell for cell in candidates if _target_ok(state, fighter, spell, cell)]


def is_target(state: MatchState, fighter: Fighter, spell: SpellSpec, cell: int) -> bool:
    """Whether one cell is a legal target: the single-cell form of ``spell_targets``."""
    board = state.board
    origin = fighter.cell
    kind = spell.range_type
    if kind == "personal":
        if cell != origin:
            return False
    elif kind == "melee":
        if cell not in board.neighbours[origin]:
            return False
    else:
        if cell < 0 or cell >= board.n_cells:
            return False
        distance = board.distance[origin][cell]
        if distance < spell.range_min or distance > max_range(state, fighter, spell):
            return False
        if kind == "line" and not board.aligned(origin, cell):
            return False
        if spell.needs_los and not board.has_los(
            origin, cell, sight_blockers_from(state, origin), state.opts.strict_corner_los
        ):
            return False
    return _target_ok(state, fighter, spell, cell)


def legal_actions(state: MatchState, fighter: Fighter) -> list[Action]:
    """All legal actions of the active character, END first; only END once its activation phase
    ended early (``fighter.acting`` cleared while it is active: Arena's lock block, R-A45)."""
    actions = [END_TURN]
    if not fighter.acting and state.active is fighter:
        return actions
    if fighter.mp >= 1 and not fighter.blocked and not (state.lock_holders and held_fast(state, fighter)):
        obstacles = state.obstacles
        actions.extend(
            Action(MOVE, -1, c) for c in state.board.neighbours[fighter.cell] if not (obstacles >> c) & 1
        )
    for index, spell in enumerate(fighter.spells):
        if can_pay(state, fighter, spell):
            actions.extend(Action(CAST, index, cell) for cell in spell_targets(state, fighter, spell))
    state.ruleset.extra_actions(state, fighter, actions)
    return actions


def is_legal(state: MatchState, fighter: Fighter, action: Action) -> bool:
    """Check one action without enumerating them all (what the engine does with an AI's choice)."""
    kind = action.kind
    if kind == END:
        return True
    if not fighter.acting and state.active is fighter:
        return False  # its activation phase is over (R-A45)
    if kind == MOVE:
        return (
            fighter.mp >= 1
            and not fighter.blocked
            and not (state.lock_holders and held_fast(state, fighter))
            and action.target in state.board.neighbours[fighter.cell]
            and not (state.obstacles >> action.target) & 1
        )
    if kind == CAST:
        if not 0 <= action.spell < len(fighter.spells):
            return False
        spell = fighter.spells[action.spell]
        return can_pay(state, fighter, spell) and is_target(state, fighter, spell, action.target)
    return state.ruleset.is_legal_extra(state, fighter, action)
