"""A toy ruleset for the seam's tests — and a worked example of adding one (see
``krosbalance/rulesets/README.md``). It is TEST CONTENT, no Krosmaster game: it borrows Blast-like
mechanics so that every hook the next rulesets need is exercised by a test.

- every spell costs 1 AP and nothing else (``spells_for``, the spell cost model);
- the player picks which Krosmaster acts next (``play_characters`` asks its own controller
  protocol, ``ToyController.choose_next``); then all creatures act;
- glyph cells (``state.enter_cells``): a Krosmaster entering one captures it for its side
  (``on_enter``); fog cells block sight (``engine.pieces.block_sight``) and a piece entering one
  clears it;
- an extra action ``RALLY`` (kind ``engine.legal.EXTRA``): 1 AP for +1 MP at once;
- markers act at once on the acting piece, else wait (``add_marker``);
- one combat die, +1 on Critical or Critical/Dodge, -1 on Armour (``attack_roll``), no defence roll,
  no Lock (``may_leave``);
- the first KO ends the match (``on_kos``, ``check_victory``); a turn end with 2 glyphs wins;
- a piece may carry a one-shot "charge" (its per-piece data, a ``ToyCharge`` in ``Fighter.extra``):
  +that much damage to its next attack (``spell_bonus``);
- the results declare ``glyphs`` per seat and ``kos`` per match, and ``entered`` per fighter
  (``result_columns``, ``fighter_columns``, ``fill_result``, ``fighter_values``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from krosbalance.content.specs import CharacterSpec, SpellSpec
from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL
from krosbalance.engine.events import FULL, DiceRolled
from krosbalance.engine.legal import EXTRA, Action
from krosbalance.engine.outcome import end_match, seats_standing
from krosbalance.engine.pieces import unblock_sight
from krosbalance.engine.results import MatchResult, ResultColumn
from krosbalance.engine.rules import (
    MINUS_AP,
    MINUS_MP,
    NO_BONUS,
    PLUS_AP,
    PLUS_MP,
    EngineOptions,
    PieceState,
    RulesetState,
)
from krosbalance.engine.state import CREATURE, KROSMASTER, Fighter, MatchState
from krosbalance.engine.turn import Controller, character_turn
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.base import Ruleset

RALLY = EXTRA
GLYPHS_TO_WIN = 2


@dataclass(frozen=True, slots=True)
class ToyOptions(EngineOptions):
    glyphs_to_win: int


DEFAULTS = ToyOptions(
    turn_limit=40,
    strict_corner_los=False,
    caster_in_own_area=True,
    bombs_unfazed=False,
    scenery_destruction=False,
    scenery_hp={"crate": 3, "bush": 6, "tree": 12},
    scenery_hit_under_piece=False,
    glyphs_to_win=GLYPHS_TO_WIN,
)


class ToyState(RulesetState):
    __slots__ = ("owner", "kos", "entered")

    def __init__(self, owner: dict[int, int], kos: list[int], entered: list[tuple[int, int, str]]) -> None:
        self.owner = owner  # glyph cell -> side holding it
        self.kos = kos  # uids KO'd, in order
        self.entered = entered  # (uid, cell, how) of every on_enter call

    def copy(self) -> ToyState:
        return ToyState(dict(self.owner), list(self.kos), list(self.entered))


class ToyCharge(PieceState):
    """A piece's one-shot damage bonus (the toy's per-piece data)."""

    __slots__ = ("damage",)

    def __init__(self, damage: int) -> None:
        self.damage = damage

    def copy(self) -> ToyCharge:
        return ToyCharge(self.damage)


class ToyController(Controller, Protocol):
    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int: ...


def toy(state: MatchState) -> ToyState:
    return cast(ToyState, state.rules)


class ToyRuleset(Ruleset):
    def __init__(self, options: ToyOptions, glyphs: int = 0, fog: int = 0) -> None:
        super().__init__("toy", "1", options, {f: "test" for f in ToyOptions.__dataclass_fields__})
        self.opts = options
        self.glyphs = glyphs  # cells, as a bitmask (a real ruleset reads them from its board data)
        self.fog = fog

    def default_options(self) -> ToyOptions:
        return DEFAULTS

    def new_state(self, state: MatchState) -> RulesetState:
        state.enter_cells = self.glyphs | self.fog
        fog = self.fog
        while fog:
            low = fog & -fog
            from krosbalance.engine.pieces import block_sight

            block_sight(state, low.bit_length() - 1)
            fog ^= low
        return ToyState({}, [], [])

    def spells_for(self, spec: CharacterSpec) -> tuple[SpellSpec, ...]:
        return tuple(replace(s, ap_cost=1, mp_cost=0, injury_cost=0) for s in spec.spells)

    def play_characters(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        chooser = cast(ToyController, controller)
        waiting = [f for f in state.timeline[side] if f.alive]
        while waiting and not state.finished:
            uid = chooser.choose_next(view, [view.fighter(f.uid) for f in waiting])
            chosen = next((f for f in waiting if f.uid == uid), None)
            if chosen is None:
                raise IllegalActionError(f"#{uid} is not a Krosmaster waiting to act")
            waiting.remove(chosen)
            character_turn(state, chosen, controller, view)
            waiting = [f for f in waiting if f.alive]
        for piece in [f for f in state.fighters if f.side == side and f.kind == CREATURE]:
            if state.finished:
                return
            if piece.alive and piece.cell >= 0:
                character_turn(state, piece, controller, view)

    def end_turn(self, state: MatchState, side: int) -> None:
        held = sum(1 for owner in toy(state).owner.values() if owner == side)
        if held >= self.opts.glyphs_to_win:
            end_match(state, side, "glyphs")

    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        if fighter.kind == KROSMASTER and fighter.ap >= 1:
            actions.append(Action(RALLY))

    def is_legal_extra(self, state: MatchState, fighter: Fighter, action: Action) -> bool:
        return action.kind == RALLY and fighter.kind == KROSMASTER and fighter.ap >= 1

    def action_name(self, kind: int) -> str:
        return "rally" if kind == RALLY else f"action {kind}"

    def perform_extra(self, state: MatchState, fighter: Fighter, action: Action) -> None:
        fighter.ap -= 1
        self.add_marker(state, fighter, PLUS_MP, 1)

    def may_leave(self, state: MatchState, mover: Fighter) -> bool:
        return True

    def on_enter(self, state: MatchState, piece: Fighter, origin: int, cell: int, how: str) -> None:
        toy(state).entered.append((piece.uid, cell, how))
        bit = 1 << cell
        if self.fog & bit and state.fixed_sight & bit:
            unblock_sight(state, cell)
            state.enter_cells &= ~bit
        elif self.glyphs & bit and piece.kind == KROSMASTER:
            toy(state).owner[cell] = piece.side

    def add_marker(self, state: MatchState, piece: Fighter, marker: int, amount: int) -> None:
        if piece.acting:  # at once during its own activation
            if marker == PLUS_MP:
                piece.mp += amount
            elif marker == MINUS_MP:
                piece.mp = max(0, piece.mp - amount)
            elif marker == PLUS_AP:
                piece.ap += amount
            else:
                piece.ap = max(0, piece.ap - amount)
        elif marker == PLUS_MP:
            piece.plus_mp += amount
        elif marker == MINUS_MP:
            piece.minus_mp += amount
        elif marker == PLUS_AP:
            piece.plus_ap += amount
        elif marker == MINUS_AP:
            piece.minus_ap += amount

    def attack_roll(self, state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
        face = state.dice.roll()
        bonus = 1 if face in (CRITICAL, CRIT_DODGE) else -1 if face == ARMOUR else 0
        if state.record >= FULL:
            state.events.append(DiceRolled(state.turn, caster.uid, "combat", (face,), bonus))
        return bonus

    def spell_bonus(
        self, state: MatchState, caster: Fighter, spell: SpellSpec, consume: bool
    ) -> tuple[int, bool]:
        charge = caster.extra
        if not isinstance(charge, ToyCharge) or spell.kind != "attack":
            return NO_BONUS
        if consume:
            caster.extra = None
        return charge.damage, False

    @property
    def result_columns(self) -> tuple[ResultColumn, ...]:
        return (
            ResultColumn("glyphs", "int64", True, "glyph cells held at the end"),
            ResultColumn("kos", "int64", False, "pieces KO'd"),
        )

    @property
    def fighter_columns(self) -> tuple[ResultColumn, ...]:
        return (ResultColumn("entered", "int64", False, "on_enter calls of the piece"),)

    def fill_result(self, state: MatchState, result: MatchResult) -> None:
        owner = toy(state).owner
        result.values["glyphs"] = tuple(sum(1 for s in owner.values() if s == side) for side in (0, 1))
        result.values["kos"] = len(toy(state).kos)

    def fighter_values(self, state: MatchState, fighter: Fighter) -> dict[str, Any]:
        return {"entered": sum(1 for uid, _, _ in toy(state).entered if uid == fighter.uid)}

    def on_kos(self, state: MatchState, kos: list[Fighter]) -> None:
        toy(state).kos.extend(victim.uid for victim in kos)

    def check_victory(self, state: MatchState) -> bool:
        if state.finished:
            return True
        standing = seats_standing(state)
        if standing[0] != standing[1]:
            end_match(state, 0 if standing[0] else 1, "ko")
        return state.finished

    def validate_team(self, names: Sequence[str], registry: Any = None) -> tuple[CharacterSpec, ...]:
        raise NotImplementedError


def toy_factory(glyphs: int = 0, fog: int = 0) -> Any:
    def factory(options: Mapping[str, Any] | None = None, *, file: str = "options") -> ToyRuleset:
        return ToyRuleset(replace(DEFAULTS, **dict(options or {})), glyphs, fog)

    return factory
