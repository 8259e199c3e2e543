"""The duel planner: one decision at a time for the active character, from a read-only view.

The Arena planner (``ai/planner.py``) reads GG and kamas at every step, which a duel has none of, so
the Duel Pack has this small planner of its own. At every decision it values:

- **casts** now: expected injuries (the ruleset's expected damage) plus a KO's worth times a rough
  chance of it, heals on its own side, a little for a -MP marker on an enemy Krosmaster, minus the
  injuries a spell costs its caster;
- **end cells** within its MP: the best greedy sequence of casts its AP buys from there, a Duel Token
  there worth picking up (R-D25: its level + the token's level in AP, a token worth the expected
  bonuses of the unseen tokens of its level), minus the damage enemies could deal there next turn
  and the distance to the nearest enemy Krosmaster (a brawler closes in), each weighted by the
  chance of walking there unblocked (R-D24: a blocked mover loses its MP and AP).

It picks up a token on its cell when that is worth more than the casts the AP would buy; walks
toward the best end cell when it beats staying; otherwise casts the best spell, or ends. Beside an
enemy it casts first (a block takes the AP too). Ties follow the stable order of the legal actions
and of the board's cells, so decisions are a pure function of the view.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.content.specs import Frozen
from krosbalance.engine.legal import CAST, END, MOVE, Action
from krosbalance.rulesets.duel.actions import PICK_TOKEN
from krosbalance.rulesets.duel.view import DuelView

if TYPE_CHECKING:
    from krosbalance.content.duel import DuelTokenSpec
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.duel.view import DuelView

END_ACTION = Action(END)
EPS = 1e-6


@dataclass(frozen=True, slots=True)
class DuelWeights(Frozen):
    """How a duel personality weighs what it sees.

    Attributes:
        damage: worth of one expected injury dealt.
        ko: worth of KO'ing an enemy Krosmaster (times its rough chance).
        heal: worth of one injury healed on its own side.
        self_injury: cost of one injury a spell costs its caster.
        marker: worth of a -1 MP/AP marker on an enemy Krosmaster.
        safety: cost of one expected injury enemies could deal on the end cell next turn.
        approach: cost of each cell between the end cell and the nearest enemy Krosmaster.
        token: worth of one bonus point of a Duel Token (1 MP = 1 AP = 1 range = 2 HP).
    """

    damage: float = 1.0
    ko: float = 6.0
    heal: float = 0.8
    self_injury: float = 0.7
    marker: float = 0.6
    safety: float = 0.15
    approach: float = 0.3
    token: float = 1.6


BRAWLER = DuelWeights()


def duel_view(view: MatchView) -> DuelView:
    """The duel holdings of the match the view looks at."""
    return cast(DuelView, view.ruleset_view())


def token_worth(token: DuelTokenSpec, fighter: FighterView) -> float:
    """Bonus points of a token for one Krosmaster: max range counts only for a Krosmaster with an
    extendable ranged spell (R-D10: fixed ranges never grow)."""
    ranged = any(s.range_type in ("classic", "line") and not s.fixed_range for s in fighter.spells)
    return float(token.mp + token.ap) + token.hp / 2.0 + (token.range if ranged else 0.2 * token.range)


def expected_token_worth(dv: DuelView, level: int, fighter: FighterView) -> float:
    """The mean worth of a face-down token of ``level``: the tokens of that level this player has not
    seen (the level itself when he has seen them all)."""
    unseen = dv.unseen(level)
    if not unseen:
        return float(level)
    return plain_sum(token_worth(t, fighter) for t in unseen) / len(unseen)


class Planner:
    """Values the legal actions of the active character (see the module docstring)."""

    def __init__(self, view: MatchView, weights: DuelWeights) -> None:
        self.view = view
        self.w = weights
        self.dv = duel_view(view)
        self.board = view.board
        self.side = view.side
        active = view.active
        assert active is not None
        self.me: FighterView = active
        self.enemies = [f for f in view.enemies() if f.alive]
        self.enemy_krosmasters = [f for f in self.enemies if f.is_krosmaster]
        self._threat: dict[int, float] = {}
        self._expected: dict[tuple[int, int], float] = {}
        self.tokens = self.dv.token_levels_on_cells()

    # ------------------------------------------------------------------ the decision
    def decide(self, may_move: bool = True) -> Action:
        """The action to take; without ``may_move``, a token pick-up, a cast or the end (a search's
        plan has walked where it meant to: ``ai/duel/plans.py``)."""
        actions = self.view.legal_actions()
        casts = sorted(
            ((self.cast_value(a), -i, a) for i, a in enumerate(actions) if a.kind == CAST), reverse=True
        )
        best_cast = casts[0] if casts and casts[0][0] > EPS else None
        ap = self.me.ap
        pick = next((a for a in actions if a.kind == PICK_TOKEN), None)
        if pick is not None:
            level = self.tokens[self.me.cell]
            cost = self.dv.pick_cost(self.me, level)
            gain = self.w.token * expected_token_worth(self.dv, level, self.me)
            if gain + self.attacks_from(self.me.cell, ap - cost) >= self.attacks_from(self.me.cell, ap) - EPS:
                return pick
        if best_cast is not None and self.view.lock_risk() > 0.0:
            return best_cast[2]  # a block takes the AP too (R-D24)
        if may_move and self.me.mp > 0 and not self.me.blocked:
            end, first = self.best_end_cell()
            if end != self.me.cell and first >= 0:
                step = Action(MOVE, -1, first)
                if self.view.is_legal(step):
                    return step
        if best_cast is not None:
            return best_cast[2]
        return END_ACTION

    # ------------------------------------------------------------------ casts
    def spell_value(self, index: int, spell: SpellSpec, target: FighterView, expected: float) -> float:
        w = self.w
        value = -w.self_injury * spell.injury_cost
        if spell.kind == "heal":
            if target.side != self.side:
                return value - w.damage * expected
            return value + w.heal * expected * (1.0 if target.is_krosmaster else 0.3)
        if spell.kind != "attack":
            return value
        sign = 1.0 if target.side != self.side else -1.0
        value += sign * w.damage * expected
        if target.side != self.side and target.is_krosmaster:
            if expected + 0.5 >= target.remaining_hp:
                value += w.ko * min(1.0, 0.5 + (expected + 0.5 - target.remaining_hp))
            for effect in spell.effects:
                if effect.kind in ("minus_mp", "minus_ap", "steal_mp", "steal_ap"):
                    value += w.marker * int(effect.params["amount"])
        return value

    def cast_value(self, action: Action) -> float:
        spell = self.me.spells[action.spell]
        target = self.view.piece_at(action.target)
        if target is None or spell.kind not in ("attack", "heal"):
            return 0.0
        expected = self.view.expected_damage(action.spell, action.target)
        return self.spell_value(action.spell, spell, target, expected)

    def expected(self, index: int, target: FighterView) -> float:
        key = (index, target.uid)
        found = self._expected.get(key)
        if found is None:
            found = self._expected[key] = self.view.expected_damage(index, target.cell)
        return found

    def attacks_from(self, cell: int, ap: int) -> float:
        """The worth of the casts ``ap`` buys from ``cell`` this turn: the best cast again and again,
        a once-per-turn spell once (greedy)."""
        if ap <= 0:
            return 0.0
        blockers = self.view.sight_blockers & ~(1 << self.me.cell)
        options: list[tuple[float, int, int]] = []  # value, AP cost, spell index
        for index, spell in enumerate(self.me.spells):
            if (
                spell.ap_cost > ap
                or spell.mp_cost
                or (spell.limit != "unlimited" and self.me.spell_used(spell))
            ):
                continue
            if spell.kind not in ("attack", "heal"):
                continue
            best = 0.0
            targets = [self.me] if spell.range_type == "personal" else self.enemies
            top = self.view.max_range(index)
            for target in targets:
                if spell.range_type == "personal":
                    if spell.kind == "heal":
                        healed = min(float(spell.amount), float(target.injuries))
                        best = max(best, self.spell_value(index, spell, target, healed))
                    continue
                d = self.board.distance[cell][target.cell]
                if not spell.range_min <= d <= top:
                    continue
                if spell.range_type == "line" and not self.board.aligned(cell, target.cell):
                    continue
                if spell.needs_los and self.board.los_path[cell][target.cell] & blockers:
                    continue
                best = max(best, self.spell_value(index, spell, target, self.expected(index, target)))
            if best > EPS:
                options.append((best, spell.ap_cost, index))
        total = 0.0
        left = ap
        used: set[int] = set()
        while True:
            fitting = [o for o in options if o[1] <= left and (o[2] not in used or self._repeatable(o[2]))]
            if not fitting:
                return total
            value, cost, index = max(fitting, key=lambda o: (o[0] / max(1, o[1]), o[0], -o[2]))
            total += value
            left -= max(1, cost)
            used.add(index)

    def _repeatable(self, index: int) -> bool:
        return self.me.spells[index].limit == "unlimited"

    # ------------------------------------------------------------------ cells
    def threat(self, cell: int) -> float:
        """Injuries the enemy Krosmasters could deal on ``cell`` next turn (reach = MP + range)."""
        found = self._threat.get(cell)
        if found is not None:
            return found
        total = 0.0
        for enemy in self.enemy_krosmasters:
            attacks = [s for s in enemy.spells if s.kind == "attack" and s.amount > 0]
            if not attacks:
                continue
            reach = enemy.base_mp + max(s.range_max for s in attacks)
            if self.board.distance[enemy.cell][cell] <= reach:
                total += max(s.amount * max(1, enemy.base_ap // max(1, s.ap_cost)) for s in attacks) * 0.6
        self._threat[cell] = total
        return total

    def cell_value(self, cell: int) -> float:
        ap = self.me.ap
        value = self.attacks_from(cell, ap)
        level = self.tokens.get(cell)
        if level is not None and self.me.is_krosmaster:
            cost = self.dv.pick_cost(self.me, level)
            if cost <= ap:
                with_token = self.w.token * expected_token_worth(self.dv, level, self.me)
                value = max(value, with_token + self.attacks_from(cell, ap - cost))
        value -= self.w.safety * self.threat(cell)
        if self.enemy_krosmasters and self.w.approach:
            value -= self.w.approach * min(self.board.distance[cell][e.cell] for e in self.enemy_krosmasters)
        return value

    def leave_chance(self, cell: int) -> float:
        """Rough chance of walking off ``cell`` (R-D24): 5/6 per adjacent enemy character."""
        near = sum(1 for e in self.enemies if e.is_character and self.board.distance[e.cell][cell] == 1)
        return (5.0 / 6.0) ** near

    def best_end_cell(self) -> tuple[int, int]:
        """(end cell, first step) of the best walk within the MP; (own cell, -1) to stay."""
        walks = self.end_cells()
        best_cell, best_value, best_first = walks[0]
        for cell, value, first in walks[1:]:
            if value > best_value + EPS:
                best_cell, best_value, best_first = cell, value, first
        return best_cell, best_first

    def end_cells(self) -> list[tuple[int, float, int]]:
        """(cell, value, first step) of every end cell within the MP, the own cell first (value: its
        own, first step -1), then in breadth-first order; a cell's value is weighed by the chance of
        walking there unblocked (R-D24), a blocked walk being worth staying less an injury. The
        search (``ai/duel/plans.py``) offers the best few as plans."""
        start = self.me.cell
        obstacles = self.view.obstacles
        reach = {start: 1.0}
        first = {start: -1}
        dist = {start: 0}
        order = [start]
        frontier = deque([start])
        while frontier:
            cell = frontier.popleft()
            if dist[cell] >= self.me.mp:
                continue
            leave = reach[cell] * self.leave_chance(cell)
            for nxt in self.board.neighbours[cell]:
                if (obstacles >> nxt) & 1 or nxt in dist:
                    continue
                dist[nxt] = dist[cell] + 1
                reach[nxt] = leave
                first[nxt] = nxt if cell == start else first[cell]
                order.append(nxt)
                frontier.append(nxt)
        stay = self.cell_value(start)
        walks = [(start, stay, -1)]
        for cell in order[1:]:
            value = reach[cell] * self.cell_value(cell) + (1.0 - reach[cell]) * (stay - self.w.damage)
            walks.append((cell, value, first[cell]))
        return walks


def decide(view: MatchView, weights: DuelWeights) -> Action:
    """The planner's action for the active character."""
    return Planner(view, weights).decide()
