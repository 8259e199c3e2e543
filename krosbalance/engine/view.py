"""The read-only window through which AIs see a match.

AIs never touch the live state or the match dice: they get a ``MatchView`` for their side, whose
methods answer the questions decision makers ask (legal actions, reachable cells, targets in range
and sight, expected damage) and whose ``FighterView`` objects expose fighters' public facts as
read-only properties. A lookahead AI that wants to try moves works on ``clone_state`` copies with its
own dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import CharacterSpec, SpellSpec
from krosbalance.engine.clone import clone_state
from krosbalance.engine.legal import Action, is_legal, legal_actions, max_range, spell_targets

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.state import Fighter, MatchState

#: expected successes of 1 or 2 dice: Critical/Dodge succeed on 3 faces of 6, Armour/Lock on 2
EXPECTED_CRITICAL = (0.0, 0.5, 1.0)
EXPECTED_ARMOUR = (0.0, 1 / 3, 2 / 3)
#: chance of being blocked by one locker, indexed [lock dice][dodge dice] (R-A16)
BLOCK_CHANCE = ((0.0, 0.0, 0.0), (0.0, 1 / 6, 1 / 12), (0.0, 1 / 3, 7 / 36))


class FighterView:
    """Read-only facts about one fighter."""

    __slots__ = ("_f",)

    def __init__(self, fighter: Fighter) -> None:
        self._f = fighter

    @property
    def uid(self) -> int:
        return self._f.uid

    @property
    def side(self) -> int:
        """The seat (player) that owns it."""
        return self._f.side

    @property
    def team(self) -> int:
        """Its partnership: pieces of one partnership are allies."""
        return self._f.team

    @property
    def character(self) -> str:
        """The character id (``spec.id``)."""
        return self._f.spec.id

    @property
    def name(self) -> str:
        return self._f.spec.name

    @property
    def kind(self) -> str:
        """``krosmaster``, ``creature``, ``bomb`` or ``trap``."""
        return self._f.kind

    @property
    def level(self) -> int:
        return self._f.level

    @property
    def cell(self) -> int:
        return self._f.cell

    @property
    def hp(self) -> int:
        return self._f.hp

    @property
    def injuries(self) -> int:
        return self._f.injuries

    @property
    def remaining_hp(self) -> int:
        return self._f.hp - self._f.injuries

    @property
    def mp(self) -> int:
        return self._f.mp

    @property
    def ap(self) -> int:
        return self._f.ap

    @property
    def base_mp(self) -> int:
        return self._f.base_mp

    @property
    def base_ap(self) -> int:
        return self._f.base_ap

    @property
    def alive(self) -> bool:
        return self._f.alive

    @property
    def spells(self) -> tuple[SpellSpec, ...]:
        return self._f.spells

    @property
    def initiative(self) -> int:
        return self._f.spec.initiative

    @property
    def is_character(self) -> bool:
        return self._f.is_character

    @property
    def is_krosmaster(self) -> bool:
        return self._f.kind == "krosmaster"

    @property
    def summoner(self) -> int | None:
        """The uid of the fighter that summoned this token, if any."""
        return None if self._f.summoner is None else self._f.summoner.uid

    @property
    def summon_spell(self) -> str:
        return self._f.summon_spell

    @property
    def blocked(self) -> bool:
        return self._f.blocked

    @property
    def range_bonus(self) -> int:
        return self._f.range_bonus

    @property
    def pending_markers(self) -> tuple[int, int]:
        """Net MP and AP markers waiting for the next activation (R-A33, R-A35)."""
        return (self._f.plus_mp - self._f.minus_mp, self._f.plus_ap - self._f.minus_ap)

    @property
    def placed_turn(self) -> int:
        """The game turn a summon token was put in play (a bomb goes off at its summoner's first
        activation of a later turn, R-A112)."""
        return self._f.placed_turn

    def has(self, power: str) -> bool:
        return self._f.has(power)

    def may(self, kind: int) -> bool:
        """Whether restricted play leaves it actions of this kind (``engine.restriction``): what a
        planner asks before planning a kama pick-up or a GG purchase."""
        return kind not in self._f.forbidden_kinds

    def resists(self, element: str) -> bool:
        return element in self._f.resist

    def immune_to(self, element: str) -> bool:
        return element in self._f.immune

    def spell_used(self, spell: SpellSpec) -> bool:
        """Whether a blue/red spell's limit is used up for now (R-A66)."""
        f = self._f
        if spell.limit == "turn":
            return f.turn_uses.get(spell.id, 0) >= 1
        return spell.limit == "game" and spell.id in f.game_uses

    def __repr__(self) -> str:
        return f"FighterView({self._f!r})"


class MatchView:
    """What one side may see and ask. Reading is free; nothing here changes the match."""

    __slots__ = ("_s", "side", "team", "_views", "_ruleset_view")

    def __init__(self, state: MatchState, side: int) -> None:
        self._s = state
        self.side = side  # the seat this view belongs to
        self.team = state.team_of[side]  # its partnership: the pieces it sees as allies
        self._views: dict[int, FighterView] = {}
        self._ruleset_view: Any = None  # made on first use: it reads the live state

    def _view(self, fighter: Fighter) -> FighterView:
        view = self._views.get(fighter.uid)
        if view is None:
            view = self._views[fighter.uid] = FighterView(fighter)
        return view

    # --- the public situation -------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self._s.board

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def ruleset(self) -> str:
        """The name of the ruleset in play."""
        return self._s.ruleset.name

    def ruleset_view(self) -> Any:
        """The ruleset's own read-only view for this side (``MatchRules.ruleset_view``; e.g. Arena's
        ``krosbalance.rulesets.arena.view.ArenaView``, Blast's ``BlastView``), None when it has none."""
        view = self._ruleset_view
        if view is None:
            view = self._ruleset_view = self._s.ruleset.ruleset_view(self._s, self.side)
        return view

    @property
    def active(self) -> FighterView | None:
        f = self._s.active
        return None if f is None else self._view(f)

    @property
    def n_seats(self) -> int:
        """How many players the match has."""
        return self._s.n_seats

    @property
    def team_of(self) -> tuple[int, ...]:
        """Each seat's partnership (``(0, 1)`` for two players, ``(0, 1, 0, 1)`` for two versus two)."""
        return self._s.team_of

    @property
    def play_order(self) -> tuple[int, ...]:
        """The seats in the order they play their game turns."""
        return self._s.play_order

    def opponents(self) -> list[int]:
        """The seats of every other partnership, in seat order."""
        team_of = self._s.team_of
        return [seat for seat in range(self._s.n_seats) if team_of[seat] != self.team]

    def fighters(self, side: int | None = None) -> list[FighterView]:
        """Fighters on the board (traps excluded: the opponent's are hidden), optionally of one seat."""
        return [
            self._view(f)
            for f in self._s.fighters
            if f.alive and f.cell >= 0 and f.kind != "trap" and (side is None or f.side == side)
        ]

    def _of_teams(self, own: bool) -> list[FighterView]:
        team = self.team
        return [
            self._view(f)
            for f in self._s.fighters
            if f.alive and f.cell >= 0 and f.kind != "trap" and (f.team == team) == own
        ]

    def allies(self) -> list[FighterView]:
        """Fighters of this view's partnership (its own seat's, and its partner's in two versus two)."""
        return self._of_teams(True)

    def enemies(self) -> list[FighterView]:
        """Fighters of every other partnership."""
        return self._of_teams(False)

    def krosmasters(self, side: int) -> list[FighterView]:
        """A seat's Krosmasters in Timeline order, KO'd ones included (check ``alive``)."""
        return [self._view(f) for f in self._s.timeline[side]]

    def summons_of(self, fighter: FighterView) -> list[FighterView]:
        """The tokens this fighter has in play, in the order summoned; the opponent's traps are hidden."""
        return [
            self._view(t) for t in fighter._f.summons if t.alive and (t.kind != "trap" or t.team == self.team)
        ]

    def fighter(self, uid: int) -> FighterView:
        """The fighter with this uid (in play or not; the engine numbers fighters in spawn order).
        The opponent's traps stay hidden: asking for one raises KeyError."""
        f = self._s.fighters[uid]
        if f.kind == "trap" and f.team != self.team:
            raise KeyError(uid)
        return self._view(f)

    def piece_at(self, cell: int) -> FighterView | None:
        f = self._s.by_cell[cell]
        return None if f is None or not f.alive else self._view(f)

    def is_free(self, cell: int) -> bool:
        return self._s.is_free(cell)

    @property
    def sight_blockers(self) -> int:
        """Cells that block line of sight now (trees and non-Tiny characters), as a bitmask."""
        return self._s.sight_blockers

    @property
    def obstacles(self) -> int:
        """Cells nothing may enter now (trees, bushes, pieces), as a bitmask."""
        return self._s.obstacles

    @property
    def crates(self) -> int:
        """Cells holding a crate now (+1 range to a caster standing there), as a bitmask."""
        return self._s.crates

    def has_los(self, a: int, b: int) -> bool:
        """Line of sight now, characters included (R-A78)."""
        s = self._s
        return s.board.has_los(a, b, s.sight_blockers, s.opts.strict_corner_los)

    def summon_spec(self, summon: str) -> CharacterSpec | None:
        """The card of a token a spell in this match can put in play (None if none can)."""
        return self._s.summon_specs.get(summon)

    def clone_state(self, dice: Dice, *, keep_stats: bool = False) -> MatchState:
        """A copy of the match as this side may know it, to play on (:mod:`krosbalance.engine.clone`):
        it rolls ``dice`` (the AI's own, never the match's), records nothing, and holds none of the
        opponent's traps (hidden, R-A116), and what the ruleset's state hides from this side is
        replaced (``RulesetState.hide_from``: Arena deals the unseen Demonic Rewards again). Nothing
        done to the copy reaches the match."""
        copy = clone_state(self._s, dice, keep_stats=keep_stats, viewer_team=self.team)
        copy.rules.hide_from(copy, self.side)
        return copy

    # --- questions about the active character ------------------------------------------------
    def legal_actions(self) -> list[Action]:
        f = self._s.active
        return [] if f is None else legal_actions(self._s, f)

    def is_legal(self, action: Action) -> bool:
        """Whether the active character may take this action now, without listing them all."""
        f = self._s.active
        return f is not None and is_legal(self._s, f, action)

    def reachable_cells(self, fighter: FighterView | None = None, mp: int | None = None) -> dict[int, int]:
        """Cells the fighter can walk to with its MP (or ``mp``), with their MP cost; lock rolls are
        ignored (see ``lock_risk``)."""
        f = self._s.active if fighter is None else fighter._f
        if f is None:
            return {}
        budget = f.mp if mp is None else mp
        board = self._s.board
        # the obstacles a byte per 8 cells: a board-wide mask is a long integer, and shifting it
        # for every cell looked at allocates a new one
        blocked = self._s.obstacles.to_bytes((board.n_cells + 7) >> 3, "little")
        neighbours = board.neighbours
        costs = {f.cell: 0}
        frontier = [f.cell]  # breadth-first: a list read in order (a native loop once compiled)
        for cell in frontier:
            cost = costs[cell]
            if cost >= budget:
                continue
            for nxt in neighbours[cell]:
                if nxt not in costs and not (blocked[nxt >> 3] >> (nxt & 7)) & 1:
                    costs[nxt] = cost + 1
                    frontier.append(nxt)
        return costs

    def lock_risk(self, fighter: FighterView | None = None) -> float:
        """Chance that leaving the fighter's current cell by walking fails (the ruleset's
        ``leave_risk``: Arena's Lock, R-A16, R-A47)."""
        f = self._s.active if fighter is None else fighter._f
        if f is None:
            return 0.0
        return self._s.ruleset.leave_risk(self._s, f)

    def spell_targets(self, spell_index: int, fighter: FighterView | None = None) -> list[int]:
        f = self._s.active if fighter is None else fighter._f
        if f is None:
            return []
        return spell_targets(self._s, f, f.spells[spell_index])

    def max_range(self, spell_index: int, fighter: FighterView | None = None) -> int:
        f = self._s.active if fighter is None else fighter._f
        return 0 if f is None else max_range(self._s, f, f.spells[spell_index])

    def expected_damage(
        self, spell_index: int, target_cell: int, fighter: FighterView | None = None
    ) -> float:
        """Expected injuries a spell would deal to the piece on ``target_cell`` (0 if none) under the
        ruleset's rolls (``MatchRules.expected_damage``; Arena: printed damage, adjacency bonuses,
        expected criticals and armour, resistance, immunity and the target's remaining HP). A heal
        spell gives the expected injuries healed instead."""
        s = self._s
        f = s.active if fighter is None else fighter._f
        target = s.by_cell[target_cell] if 0 <= target_cell < len(s.by_cell) else None
        if f is None or target is None or not target.alive:
            return 0.0
        return s.ruleset.expected_damage(s, f, f.spells[spell_index], target)


def expected_bonus(state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter) -> int:
    """Damage the spell's bonus effects add against ``target`` now (R-A80, R-A96)."""
    bonus = 0
    for effect in spell.effects:
        if effect.kind == "bonus_per_adjacent_summon":
            mask = state.board.neighbour_mask[target.cell]
            bonus += effect.params["damage"] * sum(
                1
                for t in caster.summons
                if t.alive and t.spec.id == effect.params["summon"] and (mask >> t.cell) & 1
            )
        elif effect.kind == "element_bonus" and spell.element == effect.params["element"]:
            bonus += effect.params["amount"]
    return bonus
