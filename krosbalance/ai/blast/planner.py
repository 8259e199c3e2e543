"""The Blast planner: one decision at a time for the active Combatant, from a read-only view.

At every decision it scores three kinds of move and takes the best:

- **casts** (exact combat-die odds: expected injuries and the chance of a KO, which ends the game
  when it is half the enemy team, R-B2), heals and summons;
- **bonus uses** — Krosmic Favors and active Divine Challenge bonuses — by what their effects are
  worth now (Brasier before a damaging spell, a leap or +MP that reaches a glyph, a capture from
  afar, damage, a summon), minus the cast their AP would have paid for (favors are free for the
  Dofus holder);
- **walks** toward the best end cell among those its MP reaches, each worth the glyph cells captured
  on the way (an opponent's glyph counts more: it also costs him one) times the chance of getting
  there through enemy tackle zones (the exact dodge odds, R-B36-R-B38), plus the end cell's worth:
  the attack it allows, standing on one's own glyph under threat, the damage enemies could deal
  there next turn, closeness to enemies (brawlers) and to glyphs not yet one's own. Captures gain
  weight as the favor deck runs out (the glyph race against the favor clock, R-B3).

In an enemy tackle zone it casts before walking: a tackled Combatant loses its AP (R-B36).
Invocations attack, then walk to stand on their player's glyph cells nearest the enemy (a glyph cell
with a Combatant on it cannot be entered, so it cannot be captured) or toward the nearest enemy.

Every action returned is checked with ``MatchView.is_legal``; ties follow the stable orders of the
legal actions and of the board's cells, so decisions are a pure function of the view.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.engine.legal import CAST, END, MOVE, Action
from krosbalance.rulesets.blast.actions import USE_BONUS, USE_FAVOR, decode
from krosbalance.rulesets.blast.rolls import combat_odds
from krosbalance.rulesets.blast.view import BlastView

if TYPE_CHECKING:
    from krosbalance.ai.blast.weights import BlastWeights
    from krosbalance.content.blast import BonusActionSpec
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.blast.view import BlastView

END_ACTION = Action(END)
EPS = 1e-6


def blast_view(view: MatchView) -> BlastView:
    """The Blast holdings of the match the view looks at."""
    return cast(BlastView, view.ruleset_view())


@dataclass(slots=True)
class Plan:
    """The best walk: its value, first step, end cell and expected captures on the way."""

    value: float
    first: int
    end: int
    captures: float


class Planner:
    """Scores the legal actions of the active Combatant (see the module docstring)."""

    def __init__(self, view: MatchView, weights: BlastWeights) -> None:
        self.view = view
        self.w = weights
        self.bv = blast_view(view)
        self.board = view.board
        self.side = view.side
        active = view.active
        assert active is not None
        self.me: FighterView = active
        self.enemies = [f for f in view.enemies() if f.alive]
        self.enemy_krosmasters = [f for f in self.enemies if f.is_krosmaster]
        self.allies = [f for f in view.allies() if f.alive]
        self.advanced = self.bv.options.dice_faces == "advanced"
        self.urgency = 1.0 + self.w.urgency / (self.bv.turns_left(self.side) + 1)
        self._threat: dict[int, float] = {}
        self._cells: dict[tuple[int, bool], float] = {}
        self._expected: dict[tuple[int, int], float] = {}
        todo = self.bv.glyph_cells & ~self.bv.owned(self.side)
        self.todo = [c for c in range(self.board.n_cells) if (todo >> c) & 1]  # glyphs not yet ours

    # ------------------------------------------------------------------ the decision
    def decide(self, may_move: bool = True) -> Action:
        """The best action; without ``may_move`` it never walks (a search's plan walks for it)."""
        actions = self.view.legal_actions()
        casts = sorted(
            ((self.cast_value(a), i, a) for i, a in enumerate(actions) if a.kind == CAST), reverse=True
        )
        cast_values = self.ap_uses(casts)
        bonuses = sorted(
            (
                (self.bonus_value(a, cast_values), i, a)
                for i, a in enumerate(actions)
                if a.kind in (USE_FAVOR, USE_BONUS)
            ),
            reverse=True,
        )
        best_cast = casts[0] if casts and casts[0][0] > EPS else None
        best_bonus = bonuses[0] if bonuses and bonuses[0][0] > EPS else None
        plan = self.best_plan(self.me.mp) if may_move and self.me.mp > 0 and not self.me.blocked else None
        stay = self.stay_value()
        gain = plan.value - stay if plan is not None and plan.end != self.me.cell else 0.0

        if best_cast is not None and self.view.lock_risk() > 0.0:
            return best_cast[2]  # cast before a dodge roll can take the AP away (R-B36)
        top = max(best_cast[0] if best_cast else 0.0, gain)
        if best_bonus is not None and (best_bonus[0] > top + EPS or self.amplifies(best_bonus[2])):
            return best_bonus[2]
        if (
            plan is not None
            and gain > EPS
            and (plan.captures > EPS or best_cast is None or gain >= best_cast[0])
        ):
            step = Action(MOVE, -1, plan.first)
            if self.view.is_legal(step):
                return step
        if best_cast is not None:
            return best_cast[2]
        if plan is not None and gain > EPS:
            step = Action(MOVE, -1, plan.first)
            if self.view.is_legal(step):
                return step
        if best_bonus is not None:
            return best_bonus[2]
        return END_ACTION

    # ------------------------------------------------------------------ casts
    def ko_chance(self, base: int, remaining: int) -> float:
        plus, zero, minus = combat_odds(self.advanced)
        return plain_sum(p for d, p in ((1, plus), (0, zero), (-1, minus)) if base + d >= remaining)

    def hit_value(self, target: FighterView, expected: float, base: int) -> float:
        """What injuring ``target`` is worth: expected injuries, and a KO's worth times its chance."""
        w = self.w
        sign = 1.0 if target.side != self.side else -1.0
        if not target.is_krosmaster:
            return sign * w.damage * w.minion * (expected + (1.0 if base >= target.remaining_hp else 0.0))
        ko = self.ko_chance(base, target.remaining_hp) if base > 0 else 0.0
        return sign * (w.damage * expected + w.ko * ko)

    def spell_base(self, spell: SpellSpec) -> int:
        if spell.kind != "attack" or spell.amount <= 0:
            return 0
        bonus = self.bv.spell_bonus(self.me.uid) + (
            self.bv.damage_bonus(self.side) if self.me.is_krosmaster else 0
        )
        return spell.amount + bonus

    def cast_value(self, action: Action) -> float:
        spell = self.me.spells[action.spell]
        target = self.view.piece_at(action.target)
        if spell.kind == "attack":
            if target is None:
                return 0.0
            expected = self.view.expected_damage(action.spell, action.target)
            return self.hit_value(target, expected, self.spell_base(spell))
        if spell.kind == "heal":
            if target is None or target.side != self.side:
                return 0.0
            healed = min(spell.amount, target.injuries)
            return float(self.w.heal * healed * (1.0 if target.is_krosmaster else 0.3))
        if spell.kind == "summon":
            return self.w.summon
        if any(e.kind == "move_to_target" for e in spell.effects):
            return self.cell_gain(action.target) - self.stay_value()
        return 0.0

    def ap_uses(self, casts: list[tuple[float, int, Action]]) -> list[float]:
        """The worth of the casts the AP left would buy, best first: each spell's best target, a
        once-per-turn spell once, another spell as often as the AP allow."""
        best: dict[int, float] = {}
        for value, _, action in casts:
            if value > EPS and value > best.get(action.spell, 0.0):
                best[action.spell] = value
        uses: list[float] = []
        for index, value in best.items():
            spell = self.me.spells[index]
            repeat = max(1, self.me.ap) if spell.limit == "unlimited" and spell.kind == "attack" else 1
            uses.extend([value] * repeat)
        return sorted(uses, reverse=True)

    def amplifies(self, action: Action) -> bool:
        """A bonus that makes what follows better (Brasier, +MP, +AP) is worth taking first when its
        net worth is positive: having used it early costs nothing later."""
        spec, _ = self.bonus_spec(action)
        return all(e.kind in ("next_spell_damage", "marker_self") for e in spec.effects)

    # ------------------------------------------------------------------ bonus uses
    def bonus_spec(self, action: Action) -> tuple[BonusActionSpec, int]:
        index, _ = decode(action.spell)
        if action.kind == USE_FAVOR:
            favor = self.bv.slots()[index][0]
            assert favor is not None
            return favor.action, self.bv.favor_cost(self.side)
        spec = self.bv.bonuses[index].action
        assert spec is not None
        return spec, 1

    def bonus_value(self, action: Action, cast_values: list[float]) -> float:
        spec, cost = self.bonus_spec(action)
        me, w = self.me, self.w
        value = 0.0
        for effect in spec.effects:
            kind, params = effect.kind, effect.params
            if kind == "next_spell_damage":
                if me.ap - cost >= 1 and cast_values and self.has_attack():
                    value += w.damage * float(params["amount"])
            elif kind == "marker_self":
                amount = int(params["amount"])
                if params["marker"] == "mp":
                    if not me.blocked:
                        now = self.best_plan(me.mp)
                        more = self.best_plan(me.mp + amount)
                        value += max(0.0, (more.value if more else 0.0) - (now.value if now else 0.0))
                else:
                    start = me.ap - cost
                    value += plain_sum(cast_values[start : start + amount]) if start >= 0 else 0.0
            elif kind == "heal_self":
                value += w.heal * min(int(params["amount"]), me.injuries)
            elif kind == "summon":
                value += w.summon
            elif kind == "leap":
                value += self.cell_gain(action.target) - self.stay_value()
            elif kind == "push_target":
                value += 0.5 * w.safety if self.board.distance[me.cell][action.target] == 1 else 0.0
            elif kind == "damage_target":
                target = self.view.piece_at(action.target)
                if target is not None:
                    amount = int(params["amount"])
                    value += self.hit_value(target, min(float(amount), float(target.remaining_hp)), amount)
            elif kind == "damage_around":
                amount, reach = int(params["amount"]), int(params["reach"])
                for piece in self.view.fighters():
                    d = self.board.distance[me.cell][piece.cell]
                    if (
                        piece.uid != me.uid
                        and 1 <= d <= reach
                        and (bool(params["allies"]) or piece.side != self.side)
                    ):
                        value += self.hit_value(piece, min(float(amount), float(piece.remaining_hp)), amount)
            elif kind == "minus_marker_target":
                target = self.view.piece_at(action.target)
                if target is not None and target.is_krosmaster:
                    value += w.damage * 1.0 * int(params["amount"])
            elif kind == "capture_target":
                value += self.glyph_gain(action.target)
            elif kind == "place_terrain":
                value += self.terrain_value(str(params["terrain"]), action.target)
        lost = me.ap - cost  # the cast the AP paid would have bought
        if cost and 0 <= lost < len(cast_values):
            value -= cast_values[lost]
        return value

    def has_attack(self) -> bool:
        return any(s.kind == "attack" and s.amount > 0 for s in self.me.spells)

    def terrain_value(self, terrain: str, cell: int) -> float:
        """A small worth for a tile where it hinders an enemy Krosmaster: Fire next to one, Fog
        between one and an ally in its sight; Ice is left to chance (0)."""
        near = [e for e in self.enemy_krosmasters if self.board.distance[e.cell][cell] == 1]
        if terrain == "fire" and near:
            return 0.25 * self.w.damage * self.bv.options.fire_damage
        if terrain == "fog":
            for ally in self.allies:
                for enemy in self.enemy_krosmasters:
                    if (self.board.los_path[enemy.cell][ally.cell] >> cell) & 1:
                        return 0.5 * self.w.safety
        return 0.0

    # ------------------------------------------------------------------ glyphs and cells
    def glyph_gain(self, cell: int) -> float:
        """What capturing ``cell`` is worth to a Krosmaster now (0 if it is not a glyph to take)."""
        if not self.me.is_krosmaster or not (self.bv.glyph_cells >> cell) & 1:
            return 0.0
        if (self.bv.owned(self.side) >> cell) & 1:
            return 0.0
        flip = (self.bv.owned(1 - self.side) >> cell) & 1
        return (self.w.flip if flip else self.w.capture) * self.urgency

    def threat(self, cell: int) -> float:
        """Injuries the enemy Krosmasters could deal on ``cell`` next turn (reach = MP + range)."""
        cached = self._threat.get(cell)
        if cached is not None:
            return cached
        total = 0.0
        for enemy in self.enemy_krosmasters:
            attacks = [s for s in enemy.spells if s.kind == "attack" and s.amount > 0]
            if not attacks:
                continue
            reach = enemy.base_mp + max(s.range_max for s in attacks)
            if self.board.distance[enemy.cell][cell] <= reach:
                best = max(s.amount for s in attacks)
                total += best * enemy.base_ap * 0.6
        self._threat[cell] = total
        return total

    def attack_from(self, cell: int) -> float:
        """The best expected hit the active Combatant could make from ``cell`` with its AP."""
        if self.me.ap <= 0:
            return 0.0
        blockers = self.view.sight_blockers & ~(1 << self.me.cell)
        best = 0.0
        for index, spell in enumerate(self.me.spells):
            if spell.kind != "attack" or spell.amount <= 0:
                continue
            top = spell.range_max + self.me.range_bonus
            for enemy in self.enemies:
                d = self.board.distance[cell][enemy.cell]
                if not spell.range_min <= d <= top:
                    continue
                if spell.needs_los and self.board.los_path[cell][enemy.cell] & blockers:
                    continue
                key = (index, enemy.uid)
                expected = self._expected.get(key)
                if expected is None:  # position-independent under Blast's rolls
                    expected = self._expected[key] = self.view.expected_damage(index, enemy.cell)
                best = max(best, self.hit_value(enemy, expected, self.spell_base(spell)))
        return best

    def cell_value(self, cell: int, owned_after: bool) -> float:
        """The worth of ending the activation on ``cell``."""
        cached = self._cells.get((cell, owned_after))
        if cached is not None:
            return cached
        w = self.w
        threat = self.threat(cell)
        value = self.attack_from(cell) - w.safety * threat
        if self.me.is_krosmaster:
            if threat >= self.me.remaining_hp:
                value -= w.danger
            if owned_after and any(
                self.board.distance[e.cell][cell] <= e.base_mp + 1 for e in self.enemy_krosmasters
            ):
                value += w.hold
            if self.enemy_krosmasters and w.approach:
                value -= w.approach * min(self.board.distance[cell][e.cell] for e in self.enemy_krosmasters)
            if w.near_glyph:
                distance = self.board.distance[cell]
                near = [distance[g] for g in self.todo if g != cell]
                if near:
                    value -= w.near_glyph * min(near)
        self._cells[(cell, owned_after)] = value
        return value

    def cell_gain(self, cell: int) -> float:
        """Leaping to ``cell``: its capture and its worth as an end cell."""
        mine = bool((self.bv.owned(self.side) >> cell) & 1)
        gain = self.glyph_gain(cell)
        return gain + self.cell_value(cell, mine or gain > 0)

    def stay_value(self) -> float:
        cell = self.me.cell
        return self.cell_value(cell, bool((self.bv.owned(self.side) >> cell) & 1))

    def leave_chance(self, cell: int) -> float:
        """Chance of walking off ``cell`` (1 outside enemy tackle zones)."""
        if not self.bv.tackle_zone:
            return 1.0
        enemies = sum(1 for e in self.enemy_krosmasters if self.board.distance[e.cell][cell] == 1)
        return self.bv.escape_chance(enemies)

    def best_plan(self, mp: int) -> Plan | None:
        """The best end cell within ``mp`` steps, by expected captures on the way and end worth."""
        best: Plan | None = None
        for plan in self.walks(mp):
            if best is None or plan.value > best.value + EPS:
                best = plan
        return best

    def walks(self, mp: int) -> list[Plan]:
        """Every end cell within ``mp`` steps (breadth-first order, the start first), each with its
        value, the first step of its best walk and the expected captures on the way."""
        start = self.me.cell
        obstacles = self.view.obstacles
        fire = self.bv.fire
        neighbours = self.board.neighbours
        dist = {start: 0}
        expect = {start: 0.0}
        reach = {start: 1.0}
        first = {start: start}
        order = [start]
        frontier = deque([start])
        while frontier:
            cell = frontier.popleft()
            if dist[cell] >= mp:
                continue
            leave = reach[cell] * self.leave_chance(cell)
            for nxt in neighbours[cell]:
                if (obstacles >> nxt) & 1:
                    continue
                gain = self.glyph_gain(nxt)
                if (fire >> nxt) & 1:
                    gain -= self.w.damage * self.bv.options.fire_damage
                value = expect[cell] + leave * gain
                if nxt not in dist:
                    dist[nxt] = dist[cell] + 1
                    expect[nxt] = value
                    reach[nxt] = leave
                    first[nxt] = nxt if cell == start else first[cell]
                    order.append(nxt)
                    frontier.append(nxt)
                elif dist[nxt] == dist[cell] + 1 and value > expect[nxt] + EPS:
                    expect[nxt] = value
                    reach[nxt] = leave
                    first[nxt] = nxt if cell == start else first[cell]
        stay = self.stay_value()
        plans = []
        for cell in order:
            mine = (
                bool((self.bv.owned(self.side) >> cell) & 1)
                or expect[cell] > EPS
                and bool((self.bv.glyph_cells >> cell) & 1)
            )
            value = expect[cell] + reach[cell] * self.cell_value(cell, mine) + (1.0 - reach[cell]) * stay
            plans.append(Plan(value, first[cell], cell, expect[cell]))
        return plans

    # ------------------------------------------------------------------ Invocations
    def invocation_action(self) -> Action:
        actions = self.view.legal_actions()
        casts = [(self.cast_value(a), i, a) for i, a in enumerate(actions) if a.kind == CAST]
        best = max(casts, default=None)
        if best is not None and best[0] > EPS:
            return best[2]
        goal = self.invocation_goal()
        if goal >= 0 and self.me.mp > 0 and not self.me.blocked:
            reach = self.view.reachable_cells()
            here = self.board.distance[self.me.cell][goal]
            target = min(reach, key=lambda c: (self.board.distance[c][goal], reach[c], c))
            if self.board.distance[target][goal] < here:
                step = self.first_step(target)
                if step >= 0:
                    action = Action(MOVE, -1, step)
                    if self.view.is_legal(action):
                        return action
        return END_ACTION

    def invocation_goal(self) -> int:
        """Its player's free glyph cell nearest an enemy Krosmaster (to stand guard) for glyph
        players, else the nearest enemy."""
        if self.w.guard >= 1.0 and self.enemy_krosmasters:
            free = self.bv.owned(self.side) & ~self.view.obstacles
            cells = [c for c in range(self.board.n_cells) if (free >> c) & 1]
            if cells:
                return min(
                    cells,
                    key=lambda c: (min(self.board.distance[c][e.cell] for e in self.enemy_krosmasters), c),
                )
        if self.enemies:
            return int(
                min(self.enemies, key=lambda e: (self.board.distance[self.me.cell][e.cell], e.uid)).cell
            )
        return -1

    def first_step(self, goal: int) -> int:
        """The first cell of a shortest walk to ``goal`` (-1 if none)."""
        start: int = self.me.cell
        obstacles = self.view.obstacles
        parent: dict[int, int] = {start: start}
        frontier = deque([start])
        while frontier:
            cell = frontier.popleft()
            if cell == goal:
                while parent[cell] != start:
                    cell = parent[cell]
                return cell
            for nxt in self.board.neighbours[cell]:
                if nxt not in parent and not (obstacles >> nxt) & 1:
                    parent[nxt] = cell
                    frontier.append(nxt)
        return -1


def decide(view: MatchView, weights: BlastWeights) -> Action:
    """The planner's action for the active Combatant."""
    planner = Planner(view, weights)
    if not planner.me.is_krosmaster:
        return planner.invocation_action()
    return planner.decide()


def next_to_act(view: MatchView, weights: BlastWeights, candidates: list[FighterView]) -> int:
    """R-B10: the Krosmaster whose best walk is worth the most goes first (captures early also
    trigger capture bonuses); Invocations act in the listed order."""
    if not candidates[0].is_krosmaster:
        return int(candidates[0].uid)
    bv = blast_view(view)
    board = view.board
    todo = bv.glyph_cells & ~bv.owned(view.side)
    cells = [c for c in range(board.n_cells) if (todo >> c) & 1]

    def key(f: FighterView) -> tuple[int, int]:
        nearest = min((board.distance[f.cell][c] for c in cells), default=99)
        return (nearest - int(f.base_mp), int(f.uid))

    return int(min(candidates, key=key).uid)
