"""The shared heuristic player: plan an activation, replay it step by step, replan on surprises.

``HeuristicAI`` is the base of the scripted personalities (focus fire, kiter, objective); they differ
only by their :class:`Weights` and a few overrides.

How an activation is decided. At the fighter's first decision (and again after every cast, after a
blocked step, or whenever the position is not what the plan expected) the planner scores every
*plan* of the form "get to a casting cell, cast greedily from there, walk to an end cell, pick up
kamas / buy GG, end":

- casting cells: every cell the fighter can walk to with its MP (``MatchView.reachable_cells``), each
  weighted by the chance of getting there without being blocked (Lock, R-A16/R-A45; the risk of
  every cell left on the path); for a fighter with a swap-with-ally spell (Transposition) the allies
  it can swap with now; for a fighter with a "+range for all MP" spell (Distant Shot) every cell
  again with the bonus, its cost and no MP left;
- casts from a cell: greedy by value per AP among attacks on enemies and bombs, heals on injured
  allies and summons, with line of sight computed for the hypothetical cell from board geometry
  (``Board.los_path`` against trees and non-Tiny characters, the fighter's own old cell left out)
  and crate range (+1, R-A121). An attack is worth its expected injuries (exact dice odds) plus its
  KO chance times the KO's GG swing (:func:`scoring.kill_value`); bonuses from the caster's summons
  adjacent to the target are counted, including summons the plan itself places first (Tofu next to
  the target then To Fu Ti). Shooting a bomb is worth its KO chance times its explosion's worth
  (Water Bomb, R-A114); a new bomb is worth 0.6 of its explosion (it goes off next turn);
- end cells: cells within the MP left, scored by the personality's position value (next-turn threat
  from :func:`scoring.threat_map`, distance to enemies, kamas and Demon cells, support of the
  summoner's bonus for creatures).

The best plan is replayed one action at a time; every action is checked against the legal ones.
It replans after a cast that moved pieces or put a new one in play, when a planned target is gone,
and whenever the fighter's cell, MP or AP are not what the plan expected (a lock block); it never
raises and always returns a legal action (END at worst). Tie-breaks follow the board's stable orders (BFS order of cells, spell order,
Timeline order); the AI's ``rng`` is not needed, so its decisions are a pure function of the view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from krosbalance.ai import scoring
from krosbalance.ai.base import AI
from krosbalance.ai.scoring import GG_UNIT, geometry
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.engine.legal import BUY_GG, CAST, END, MOVE, PICK_KAMA, Action
from krosbalance.engine.turn import TensionChoice
from krosbalance.engine.view import BLOCK_CHANCE, FighterView, MatchView

END_ACTION = Action(END)
#: effects after which the planner replans (the caster or a target moved)
_MOVERS = frozenset({"swap_places", "retreat", "approach", "push", "attract", "range_bonus_this_turn"})
MAX_REPLANS = 24


@dataclass(frozen=True, slots=True)
class Weights:
    """What a personality cares about, in injury units (see :mod:`krosbalance.ai.scoring`)."""

    damage: float = 1.0  # per expected injury dealt
    kill: float = 1.0  # times the KO's GG swing
    focus: float = 0.3  # extra per fraction of the target's HP already lost
    safety: float = 0.35  # per expected injury taken next turn (and KO risk)
    kama: float = 0.25  # per kama picked up
    objective: float = 0.0  # per cell of distance to kamas / Demon cells
    approach: float = 0.15  # per cell short of striking distance of the nearest enemy
    kite: bool = False  # hold at range instead of closing in
    heal: float = 1.0  # per expected injury healed
    summon: float = 1.0  # times a token's worth
    support: float = 0.6  # per point of summoner bonus a creature gives by standing next to an enemy
    refund: float = 0.2  # per kama refunded by tension dice
    inspire: float = 1.0  # times an inspiration's estimated worth


@dataclass(slots=True)
class _Plan:
    steps: list[tuple]
    value: float


class _Context:
    """What one planning pass reads many times: masks, threat, targets."""

    __slots__ = (
        "view",
        "me",
        "side",
        "board",
        "geo",
        "blockers",
        "obstacles",
        "threat",
        "enemies",
        "allies",
        "bombs",
        "risk",
        "enemy_kros",
        "blasts",
        "near_enemies",
        "my_reach",
        "my_worry",
        "support_bonus",
        "values",
    )

    def __init__(self, view: MatchView, me: FighterView, threat: list[float]) -> None:
        self.view = view
        self.me = me
        self.side = me.side
        self.board = view.board
        self.geo = geometry(view.board)
        everyone = view.fighters()
        mine = 1 << me.cell
        self.blockers = scoring.sight_blockers(view) & ~mine
        self.obstacles = scoring.obstacles(view)
        self.threat = threat
        self.enemies = [f for f in everyone if f.side != me.side and f.is_character]
        self.allies = [f for f in everyone if f.side == me.side and f.is_character]
        self.bombs = [f for f in everyone if f.kind == "bomb"]
        self.enemy_kros = [f.cell for f in self.enemies if f.is_krosmaster]
        self.risk: dict[int, float] = {}
        self.blasts: dict[int, float] = {}
        square = self.board.square_mask
        near = 0
        for enemy in self.enemies:
            near |= square[enemy.cell]
        self.near_enemies = near
        self.my_reach = _reach(me)
        self.my_worry = scoring.kill_value(view, me) if me.is_krosmaster else 0.3
        self.support_bonus = 0
        self.values: dict[tuple, float] = {}
        if not me.is_krosmaster and me.summoner is not None:
            summoner = next((a for a in self.allies if a.uid == me.summoner), None)
            self.support_bonus = _bonus_for(summoner, me.character)

    def blast(self, cell: int) -> float:
        """Worth to us of a bomb exploding on ``cell`` (our fighter counted where it stands now)."""
        value = self.blasts.get(cell)
        if value is None:
            value = self.blasts[cell] = scoring.explosion_value(self.view, cell, self.side, self.me.cell)
        return value

    def block(self, cell: int) -> float:
        risk = self.risk.get(cell)
        if risk is None:
            risk = self.risk[cell] = scoring.block_chance(self.view, self.me, cell)
        return risk


class HeuristicAI(AI):
    """Plan-and-replay heuristic player; personalities set ``weights`` (see the module docstring)."""

    name = "heuristic"
    weights = Weights()

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self._key: tuple[int, int] = (-1, -1)
        self._steps: list[tuple] = []
        self._expect: tuple[int, int, int] | None = None
        self._replans = 0
        self._threat_key: tuple = ()
        self._threat: list[float] = []

    # ------------------------------------------------------------------------------ deployment
    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        """Melee Krosmasters on the cells nearest the enemy's deployment zone, ranged ones behind
        (ties: nearer the board's centre, then lower cell index)."""
        board = view.board
        enemy_zone = scoring.iter_bits(board.deploy[1 - view.side]) or [board.n_cells // 2]
        depth = {c: sum(board.distance[c][e] for e in enemy_zone) for c in cells}
        centre = board.cell(board.width // 2, board.height // 2)
        front = sorted(cells, key=lambda c: (depth[c], board.distance[c][centre], c))
        order = sorted(range(len(fighters)), key=lambda i: (_reach(fighters[i]), i))
        chosen = [-1] * len(fighters)
        for slot, i in enumerate(order):
            chosen[i] = front[slot]
        return chosen

    # ------------------------------------------------------------------------------ tension
    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        """Make a double only when ahead in GG with the wild GG gone (each double then brings the
        opponent nearer 0 first, R-A26/R-A132); otherwise avoid it. Then give each die to the
        Krosmaster it helps most, or refund it for kamas when that is worth more (R-A27, R-A28)."""
        side = view.side
        mine, theirs = view.gg[side], view.gg[1 - side]
        want_double = view.wild_gg == 0 and mine > theirs
        choices = [o for o in options if (o[0] == o[1]) == want_double] or options
        kros = [k for k in view.krosmasters(side) if k.alive and k.cell >= 0]
        worth = self._inspiration_worth(view, kros)
        w = self.weights
        best: tuple[float, tuple[int, int], tuple[int, int]] | None = None
        for faces in choices:
            for a in [-1, *range(len(kros))]:
                for b in [-1, *range(len(kros))]:
                    value = 0.0
                    used = 0
                    if a >= 0:
                        value += worth[a][faces[0]]
                        used += 1
                    if b >= 0:
                        if not (a == b and faces[0] == faces[1]):
                            value += worth[b][faces[1]]
                        used += 1
                    value += w.refund * (3, 1, 0)[used]
                    if best is None or value > best[0] + 1e-9:
                        uids = (kros[a].uid if a >= 0 else -1, kros[b].uid if b >= 0 else -1)
                        best = (value, faces, uids)
        if best is None:
            return TensionChoice(choices[0], (-1, -1))
        return TensionChoice(best[1], best[2])

    def _inspiration_worth(self, view: MatchView, kros: list[FighterView]) -> list[list[float]]:
        """Per Krosmaster, the estimated worth of each face's power until our next tension roll."""
        threat = self._threat_for(view)
        enemies = [f for f in view.enemies() if f.is_character]
        w = self.weights.inspire
        table = []
        for k in kros:
            row = [0.0, 0.0, 0.0, 0.0]
            near = scoring.nearest_distance(view.board, k.cell, [e.cell for e in enemies])
            if not k.has("critical"):
                hits = 0.0
                for spell in k.spells:
                    if spell.kind == "attack" and spell.element != "neutral" and spell.ap_cost:
                        hits = max(hits, k.base_ap // spell.ap_cost)
                engaged = 1.0 if near <= k.base_mp + _reach(k) + 1 else 0.3
                row[CRITICAL] = w * 0.45 * hits * engaged
            danger = threat[k.cell] if k.cell >= 0 else 0.0
            if not k.has("armour"):
                row[ARMOUR] = w * 0.28 * danger * (1.0 + scoring.ko_risk(danger, k.remaining_hp))
            adjacent = 0
            lockers = 0.0
            for c in view.board.neighbours[k.cell]:
                piece = view.piece_at(c)
                if (
                    piece is not None
                    and piece.side != k.side
                    and piece.is_character
                    and not piece.has("tiny")
                ):
                    adjacent += 1
                    lockers += (
                        BLOCK_CHANCE[2 if piece.has("lock") else 1][1]
                        - BLOCK_CHANCE[2 if piece.has("lock") else 1][2]
                    )
            if not k.has("dodge"):
                row[DODGE] = w * (2.5 * lockers + (0.05 if near <= 3 else 0.0))
            if not k.has("lock"):
                row[LOCK] = w * 0.25 * adjacent
            table.append(row)
        return table

    # ------------------------------------------------------------------------------ actions
    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None:
            return END_ACTION
        key = (view.turn, me.uid)
        if key != self._key:
            self._key = key
            self._steps = []
            self._expect = None
            self._replans = 0
            self._plan(view, me)
        elif self._expect is not None and self._expect != (me.cell, me.mp, me.ap):
            self._plan(view, me)
        legal = view.legal_actions()
        for _ in range(3):
            action = self._next(view, me)
            if action is not None and action in legal:
                self._remember(me, action)
                return action
            if not self._plan(view, me):
                break
        return END_ACTION

    def _remember(self, me: FighterView, action: Action) -> None:
        if action.kind == MOVE:
            self._expect = (action.target, me.mp - 1, me.ap)
        elif action.kind == CAST:
            spell = me.spells[action.spell]
            if spell.kind == "summon" or any(e.kind in _MOVERS for e in spell.effects):
                self._steps = []  # the picture changed (a new piece, someone moved): replan
                self._expect = (-2, -2, -2)
            else:
                self._expect = (me.cell, me.mp - spell.mp_cost, me.ap - spell.ap_cost)
        elif action.kind in (PICK_KAMA, BUY_GG):
            self._expect = (me.cell, me.mp, me.ap - 1)
        else:
            self._expect = None

    def _next(self, view: MatchView, me: FighterView) -> Action | None:
        """The next action of the current plan, or None when the plan is broken."""
        while self._steps:
            step = self._steps[0]
            kind = step[0]
            if kind == "goto":
                dest = step[1]
                if me.cell == dest:
                    self._steps.pop(0)
                    continue
                nxt = _first_step(view, me, dest)
                if nxt < 0:
                    return None
                return Action(MOVE, -1, nxt)
            if kind == "cast":
                self._steps.pop(0)
                spell = me.spells[step[1]]
                if spell.kind in ("attack", "heal") and spell.range_type != "personal":
                    piece = view.piece_at(step[2])
                    if piece is None or (spell.kind == "heal" and piece.injuries == 0):
                        return None  # the target is gone (KO'd, exploded) or healed: replan
                return Action(CAST, step[1], step[2])
            if kind == "tail":
                if me.ap >= 1 and me.is_krosmaster:
                    if view.kamas_at(me.cell) > 0:
                        return Action(PICK_KAMA)
                    if (view.board.demon_cells >> me.cell) & 1 and view.kamas[me.side] >= view.gg_price:
                        return Action(BUY_GG)
                self._steps.pop(0)
                continue
            self._steps.pop(0)
        return END_ACTION

    def _threat_for(self, view: MatchView) -> list[float]:
        key = (view.turn, tuple((f.uid, f.cell, f.injuries) for f in view.enemies()))
        if key != self._threat_key:
            self._threat_key = key
            self._threat = scoring.threat_map(view, view.side)
        return self._threat

    # ------------------------------------------------------------------------------ planning
    def _plan(self, view: MatchView, me: FighterView) -> bool:
        """Replace the current plan with the best one from here; False when replanning too often."""
        self._replans += 1
        self._expect = None
        if self._replans > MAX_REPLANS:
            self._steps = [("end",)]
            return False
        ctx = _Context(view, me, self._threat_for(view))
        self._steps = self._best_plan(ctx).steps
        return True

    def _best_plan(self, ctx: _Context) -> _Plan:
        view, me, board = ctx.view, ctx.me, ctx.board
        mp = 0 if me.blocked else me.mp
        reach = view.reachable_cells(me) if mp > 0 else {me.cell: 0}
        pos_cache: dict[int, float] = {}

        def pos(cell: int, ap_left: int) -> float:
            base = pos_cache.get(cell)
            if base is None:
                base = pos_cache[cell] = self.position_value(ctx, cell)
            return base + self._economy_value(ctx, cell, ap_left)

        # (cell, mp cost, ap cost, range bonus, mp left, prefix steps, lock risk, penalty)
        origins: list[tuple[int, int, int, int, int, list[tuple], float, float]] = []
        for cell, cost in reach.items():
            risk = _path_risk(ctx, reach, cell) if cost else 0.0
            origins.append((cell, cost, 0, 0, mp - cost, [("goto", cell)] if cost else [], risk, 0.0))
        for index, spell in enumerate(me.spells):
            if spell.kind != "special" or spell.ap_cost > me.ap or me.spell_used(spell):
                continue
            kinds = {e.kind for e in spell.effects}
            if "range_bonus_this_turn" in kinds and me.range_bonus == 0:
                bonus = next(e.params["amount"] for e in spell.effects if e.kind == "range_bonus_this_turn")
                for cell, cost in reach.items():
                    risk = _path_risk(ctx, reach, cell) if cost else 0.0
                    prefix = ([("goto", cell)] if cost else []) + [("cast", index, cell)]
                    origins.append((cell, cost, spell.ap_cost, bonus, 0, prefix, risk, 0.0))
            elif "swap_places" in kinds and spell.target == "ally":
                for target in view.spell_targets(index):
                    ally = view.piece_at(target)
                    if ally is None:
                        continue
                    # the ally lands where we stood: charge the change of its danger
                    shift = ctx.threat[me.cell] - ctx.threat[target]
                    penalty = self.weights.safety * 0.5 * max(0.0, shift) if ally.is_krosmaster else 0.0
                    prefix = [("cast", index, target)]
                    origins.append((target, 0, spell.ap_cost, 0, mp, prefix, 0.0, penalty))

        useful = self._useful_origins(ctx)
        stuck = pos(me.cell, 0)
        best = _Plan([("tail",), ("end",)], pos(me.cell, me.ap))
        ranked: dict[int, list[tuple[float, int]]] = {}  # AP left -> (value, cell), best first
        for cell, cost, ap_cost, bonus, mp_left, prefix, risk, penalty in origins:
            ap = me.ap - ap_cost
            if (useful >> cell) & 1:
                casts, value, ap_left, fixed_end = self._greedy_casts(ctx, cell, ap, me.range_bonus + bonus)
            else:
                casts, value, ap_left, fixed_end = [], 0.0, ap, -1
            if fixed_end >= 0:
                end, end_value = fixed_end, pos(fixed_end, ap_left)
            else:
                end, end_value = cell, pos(cell, ap_left)
                if mp_left > 0:
                    order = ranked.get(ap_left)
                    if order is None:
                        order = ranked[ap_left] = sorted(
                            ((pos(c, ap_left), c) for c in reach), key=lambda vc: (-vc[0], vc[1])
                        )
                    row = board.distance[cell]
                    for v, other in order:
                        if v <= end_value + 1e-9:
                            break
                        if row[other] <= mp_left:
                            leave = ctx.block(cell)
                            mixed = (1.0 - leave) * v + leave * pos(cell, 0)
                            if mixed > end_value + 1e-9:
                                end, end_value = other, mixed
                            break
            total = (1.0 - risk) * (value + end_value) + risk * stuck - penalty - 0.001 * (cost + ap_cost)
            if total > best.value + 1e-9:
                steps = [*prefix, *casts]
                if end != cell and fixed_end < 0:
                    steps.append(("goto", end))
                steps += [("tail",), ("end",)]
                best = _Plan(steps, total)
        return best

    def _useful_origins(self, ctx: _Context) -> int:
        """Cells from which some spell may have a target (range only, symmetric): the others skip
        the cast search."""
        me, geo = ctx.me, ctx.geo
        bonus = me.range_bonus + 4  # Distant Shot and a crate at most
        mask = 0
        for spell in me.spells:
            if spell.ap_cost > me.ap or spell.ap_cost == 0 or me.spell_used(spell):
                continue
            if spell.kind == "attack":
                for target in ctx.enemies + ctx.bombs:
                    mask |= geo.spell_mask(target.cell, spell, bonus)
            elif spell.kind == "heal":
                for ally in ctx.allies:
                    if ally.injuries > 0:
                        mask |= geo.spell_mask(ally.cell, spell, bonus) | (1 << ally.cell)
            elif spell.kind == "summon":
                return -1
        return mask

    def _greedy_casts(
        self, ctx: _Context, cell: int, ap: int, bonus: int
    ) -> tuple[list[tuple], float, int, int]:
        """Casts from ``cell`` chosen greedily by value per AP: (steps, value, AP left, end cell or -1)."""
        view, me, board, w = ctx.view, ctx.me, ctx.board, self.weights
        geo = ctx.geo
        crate = 1 if (board.crates >> cell) & 1 else 0
        blockers = ctx.blockers
        los = board.los_path[cell]
        remaining: dict[int, float] = {}
        gone: set[int] = set()
        used: set[int] = set()
        planned: list[tuple[str, int]] = []  # (summon id, cell) placed by this plan
        steps: list[tuple] = []
        total = 0.0
        occupied = (ctx.obstacles & ~(1 << me.cell)) | (1 << cell)
        healed_uids: set[int] = set()
        my_tokens: dict[str, int] = {}
        for token in view.summons_of(me):
            my_tokens[token.character] = my_tokens.get(token.character, 0) + 1
        for _ in range(4):
            best: tuple[float, float, int, int, str] | None = None  # density, value, index, target, kind
            for index, spell in enumerate(me.spells):
                cost = spell.ap_cost
                if cost > ap or cost == 0 or spell.mp_cost or spell.injury_cost:
                    continue
                if spell.limit != "unlimited" and (index in used or me.spell_used(spell)):
                    continue
                kind = spell.kind
                if kind == "attack":
                    mask = geo.spell_mask(cell, spell, bonus + crate)
                    for target in ctx.enemies + ctx.bombs:
                        t = target.cell
                        if target.uid in gone or not (mask >> t) & 1:
                            continue
                        if spell.needs_los and los[t] & blockers:
                            continue
                        value = self._attack_value(ctx, spell, target, cell, remaining, planned)
                        if value > 0.05 and (best is None or value / cost > best[0] + 1e-9):
                            best = (value / cost, value, index, t, "attack")
                    for summon_id, x in planned:
                        if (
                            summon_id == "water_bomb"
                            and (mask >> x) & 1
                            and not (spell.needs_los and los[x] & blockers)
                        ):
                            value = 0.25 * ctx.blast(x)
                            if value > 0.05 and (best is None or value / cost > best[0] + 1e-9):
                                best = (value / cost, value, index, x, "virtual")
                elif kind == "heal":
                    mask = geo.spell_mask(cell, spell, bonus + crate)
                    for ally in ctx.allies:
                        t = cell if ally.uid == me.uid else ally.cell
                        if ally.injuries <= 0 or not (mask >> t) & 1:
                            continue
                        if spell.needs_los and t != cell and los[t] & blockers:
                            continue
                        healed, _ = scoring.attack_odds(view, me, spell, ally)
                        danger = ctx.threat[t] if ally.uid != me.uid else 0.0
                        value = w.heal * healed * (1.0 + 0.5 * scoring.ko_risk(danger, ally.remaining_hp))
                        if ally.uid in healed_uids:
                            value *= 0.5
                        if value > 0.05 and (best is None or value / cost > best[0] + 1e-9):
                            best = (value / cost, value, index, t, "heal")
                elif kind == "summon" and spell.summons:
                    count = my_tokens.get(spell.summons, 0) + sum(1 for s, _ in planned if s == spell.summons)
                    if count >= spell.summon_control:
                        continue
                    mask = geo.spell_mask(cell, spell) & ~occupied
                    if spell.summons == "water_bomb":
                        mask &= ctx.near_enemies
                    for x in scoring.iter_bits(mask):
                        if x == cell or any(x == p for _, p in planned):
                            continue
                        value = self._summon_value(ctx, spell.summons, x, cell, ap - cost)
                        if value > 0.2 and (best is None or value / cost > best[0] + 1e-9):
                            best = (value / cost, value, index, x, "summon")
            if best is None:
                break
            _, value, index, target, kind = best
            spell = me.spells[index]
            ap -= spell.ap_cost
            total += value
            if spell.limit != "unlimited":
                used.add(index)
            steps.append(("cast", index, target))
            if kind == "summon":
                planned.append((spell.summons or "", target))
                continue
            if kind == "heal":
                healer_target = me if target == cell else view.piece_at(target)
                if healer_target is not None:
                    healed_uids.add(healer_target.uid)
                continue
            piece = view.piece_at(target)
            effects = {e.kind for e in spell.effects}
            if piece is not None and kind == "attack":
                hurt, _ = scoring.attack_odds(view, me, spell, piece)
                remaining[piece.uid] = remaining.get(piece.uid, float(piece.remaining_hp)) - hurt
                if "push" in effects or "attract" in effects or piece.kind == "bomb":
                    gone.add(piece.uid)
            if "swap_places" in effects and piece is not None:
                return steps, total, ap, target
            if "retreat" in effects or "approach" in effects:
                return steps, total, ap, cell  # the engine moves us: replanning will see where
        return steps, total, ap, -1

    def _attack_value(
        self,
        ctx: _Context,
        spell,
        target: FighterView,
        cell: int,
        remaining: dict[int, float],
        planned: list[tuple[str, int]],
    ) -> float:
        view, me, w = ctx.view, ctx.me, self.weights
        if target.kind == "bomb":
            _, ko = scoring.attack_odds(view, me, spell, target)
            blast = ctx.blast(target.cell)
            if cell != me.cell and (view.board.square_mask[target.cell] >> cell) & 1:
                blast -= 1.0 + scoring.ko_risk(1.5, me.remaining_hp) * scoring.kill_value(view, me)
            return ko * blast
        left = remaining.get(target.uid)
        hp_left = target.remaining_hp if left is None else max(1, round(left))
        extra = 0
        if planned:
            near = view.board.neighbour_mask[target.cell]
            extra = sum(1 for _, x in planned if (near >> x) & 1)
        key = (spell.id, target.uid, hp_left, extra)
        cached = ctx.values.get(key)
        if cached is not None:
            return cached
        hurt, ko = scoring.attack_odds(view, me, spell, target, hp_left, extra)
        lost = 1.0 - hp_left / max(1, target.hp)
        value = w.damage * hurt * (1.0 + w.focus * lost) + w.kill * ko * scoring.kill_value(view, target)
        for effect in spell.effects:
            if effect.kind == "lifesteal" and me.injuries > 0:
                value += 0.5 * min(hurt, me.injuries)
            elif effect.kind == "push" and w.kite:
                value += 0.3
        if not target.is_krosmaster:
            value *= 0.6
        ctx.values[key] = value
        return value

    def _summon_value(self, ctx: _Context, summon: str, x: int, cell: int, ap_left: int) -> float:
        view, me, w = ctx.view, ctx.me, self.weights
        if summon == "water_bomb":
            return 0.6 * ctx.blast(x) if (ctx.near_enemies >> x) & 1 else 0.0
        value = w.summon * scoring.SUMMON_WORTH.get(summon, 0.5)
        near_enemy = any((view.board.neighbour_mask[x] >> e.cell) & 1 for e in ctx.enemies if e.is_krosmaster)
        bonus = _bonus_for(me, summon)
        if bonus and near_enemy:
            # the bonus serves at once when AP is left for the boosted spell, and again next turn
            value += 0.5 * w.support * bonus + (w.damage * bonus if ap_left >= 3 else 0.0)
        if not ctx.enemies:
            value *= 0.5
        return value

    # ------------------------------------------------------------------------------ positions
    def position_value(self, ctx: _Context, cell: int) -> float:
        """Worth of ending the activation on ``cell`` (kamas aside): safety, distance to enemies,
        support, objectives. Personalities may extend it."""
        me, w, board = ctx.me, self.weights, ctx.board
        value = 0.0
        danger = ctx.threat[cell]
        if danger > 0:
            hurt = min(danger, me.remaining_hp)
            value -= w.safety * (0.5 * hurt + scoring.ko_risk(danger, me.remaining_hp) * ctx.my_worry)
        if ctx.enemy_kros:
            row = board.distance[cell]
            near = min(row[c] for c in ctx.enemy_kros)
            strike = me.base_mp + ctx.my_reach
            value -= w.approach * max(0, near - strike)
            if w.kite:
                value -= 0.02 * abs(near - max(2, ctx.my_reach))
            else:
                value -= 0.02 * near
        if ctx.support_bonus:
            near_mask = board.neighbour_mask[cell]
            if any((near_mask >> e.cell) & 1 for e in ctx.enemies if e.is_krosmaster):
                value += w.support * ctx.support_bonus
        if w.objective and me.is_krosmaster:
            value -= w.objective * self._objective_distance(ctx, cell)
        return value

    def _objective_distance(self, ctx: _Context, cell: int) -> float:
        view, board = ctx.view, ctx.board
        demons = scoring.iter_bits(board.demon_cells)
        if demons and view.kamas[ctx.side] >= view.gg_price - 2:
            return 1.5 * scoring.nearest_distance(board, cell, demons)
        kamas = view.kama_cells()
        if kamas:
            return float(min(scoring.nearest_distance(board, cell, kamas), 8))
        if demons:
            return 0.5 * scoring.nearest_distance(board, cell, demons)
        return 0.0

    def _economy_value(self, ctx: _Context, cell: int, ap_left: int) -> float:
        """Kamas picked up and GG bought on ``cell`` with the AP left (R-A49, R-A50)."""
        me, view = ctx.me, ctx.view
        if ap_left <= 0 or not me.is_krosmaster:
            return 0.0
        picks = min(view.kamas_at(cell), ap_left)
        value = self.weights.kama * picks
        on_demon = (ctx.board.demon_cells >> cell) & 1
        if on_demon and ap_left > picks and view.kamas[ctx.side] + picks >= view.gg_price:
            value += GG_UNIT * scoring.gg_swing(view, ctx.side, 1) + 0.5
        return value


# ---------------------------------------------------------------------------------- helpers
def _reach(fighter: FighterView) -> int:
    """The longest max range among the fighter's attack spells (1 for melee, 0 with none)."""
    best = 0
    for spell in fighter.spells:
        if spell.kind == "attack" and spell.ap_cost:
            best = max(best, 1 if spell.range_type == "melee" else spell.range_max)
    return best


def _bonus_for(summoner: FighterView | None, summon: str) -> int:
    """Damage a summoner's spells gain per adjacent token of ``summon`` (To Fu Ti, Gobbolob)."""
    if summoner is None:
        return 0
    return max(
        (
            e.params["damage"]
            for spell in summoner.spells
            for e in spell.effects
            if e.kind == "bonus_per_adjacent_summon" and e.params["summon"] == summon
        ),
        default=0,
    )


def _path(board_neighbours, reach: dict[int, int], dest: int) -> list[int]:
    """Cells from the start to ``dest`` along decreasing BFS cost (start excluded, dest included)."""
    path = [dest]
    cur = dest
    while reach[cur] > 1:
        cost = reach[cur] - 1
        for n in board_neighbours[cur]:
            if reach.get(n) == cost:
                cur = n
                break
        else:
            break
        path.append(cur)
    path.reverse()
    return path


def _path_risk(ctx: _Context, reach: dict[int, int], dest: int) -> float:
    """Chance of being blocked somewhere on the way to ``dest`` (every cell left may lock)."""
    free = 1.0 - ctx.block(ctx.me.cell)
    for cell in _path(ctx.board.neighbours, reach, dest)[:-1]:
        free *= 1.0 - ctx.block(cell)
    return 1.0 - free


def _first_step(view: MatchView, me: FighterView, dest: int) -> int:
    """The neighbour to walk to next on a shortest path to ``dest``, or -1 when out of reach."""
    if me.mp <= 0 or me.blocked:
        return -1
    reach = view.reachable_cells()
    if dest not in reach:
        return -1
    return _path(view.board.neighbours, reach, dest)[0]
