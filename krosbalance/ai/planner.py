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

The best plan is replayed one action at a time; every action is checked with ``MatchView.is_legal``.
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
from krosbalance.ai.context import _bonus_for, _Context, _path, _path_risks, _reach
from krosbalance.ai.scoring import GG_UNIT
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
        self._threat_cache: dict = {}  # per-enemy shares of the threat map, for this match
        self._reach: dict[tuple[int, int, int], dict[int, int]] = {}  # for the current activation

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
            self._reach = {}
            self._plan(view, me)
        elif self._expect is not None and self._expect != (me.cell, me.mp, me.ap):
            self._plan(view, me)
        for _ in range(3):
            action = self._next(view, me)
            if action is not None and view.is_legal(action):
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
                nxt = self._first_step(view, me, dest)
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

    def _reachable(self, view: MatchView, me: FighterView) -> dict[int, int]:
        """``view.reachable_cells(me)``, kept for the activation by (cell, MP, obstacles): the plan and
        the first step of its walk ask the same question."""
        key = (me.cell, me.mp, view.obstacles)
        reach = self._reach.get(key)
        if reach is None:
            reach = self._reach[key] = view.reachable_cells(me)
        return reach

    def _first_step(self, view: MatchView, me: FighterView, dest: int) -> int:
        """The neighbour to walk to next on a shortest path to ``dest``, or -1 when out of reach."""
        if me.mp <= 0 or me.blocked:
            return -1
        reach = self._reachable(view, me)
        if dest not in reach:
            return -1
        return _path(view.board.neighbours, reach, dest)[0]

    def _threat_for(self, view: MatchView) -> list[float]:
        key = (view.turn, tuple((f.uid, f.cell, f.injuries) for f in view.enemies()))
        if key != self._threat_key:
            self._threat_key = key
            self._threat = scoring.threat_map(view, view.side, self._threat_cache)
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
        me_cell, me_ap = ctx.me_cell, me.ap
        mp = 0 if me.blocked else me.mp
        reach = self._reachable(view, me) if mp > 0 else {me_cell: 0}
        position_value, economy_value = self.position_value, self._economy_value
        # every reachable cell is a candidate end cell: score them all once
        pos_cache = {cell: position_value(ctx, cell) for cell in reach}
        econ_mask = ctx.econ_mask

        def pos(cell: int, ap_left: int) -> float:
            base = pos_cache.get(cell)
            if base is None:
                base = pos_cache[cell] = position_value(ctx, cell)
            if (econ_mask >> cell) & 1:
                return base + economy_value(ctx, cell, ap_left)
            return base

        # chance of walking to each cell unblocked: every cell left on the BFS path may lock (R-A16)
        risks = _path_risks(ctx, reach)
        # (cell, mp cost, ap cost, range bonus, mp left, cast first or None, lock risk, penalty)
        origins: list[tuple[int, int, int, int, int, tuple | None, float, float]] = [
            (cell, cost, 0, 0, mp - cost, None, risks[cell], 0.0) for cell, cost in reach.items()
        ]
        for index, spell in enumerate(me.spells):
            if spell.kind != "special" or spell.ap_cost > me_ap or me.spell_used(spell):
                continue
            kinds = {e.kind for e in spell.effects}
            if "range_bonus_this_turn" in kinds and me.range_bonus == 0:
                bonus = next(e.params["amount"] for e in spell.effects if e.kind == "range_bonus_this_turn")
                for cell, cost in reach.items():
                    origins.append(
                        (cell, cost, spell.ap_cost, bonus, 0, ("cast", index, cell), risks[cell], 0.0)
                    )
            elif "swap_places" in kinds and spell.target == "ally":
                for target in view.spell_targets(index):
                    ally = view.piece_at(target)
                    if ally is None:
                        continue
                    # the ally lands where we stood: charge the change of its danger
                    shift = ctx.threat[me_cell] - ctx.threat[target]
                    penalty = self.weights.safety * 0.5 * max(0.0, shift) if ally.is_krosmaster else 0.0
                    origins.append((target, 0, spell.ap_cost, 0, mp, ("cast", index, target), 0.0, penalty))

        useful = self._useful_by_bonus(ctx)
        wide, exact = useful.wide, useful.masks
        stuck = pos(me_cell, 0)
        best = _Plan([("tail",), ("end",)], pos(me_cell, me_ap))
        best_value = best.value
        ranked: dict[int, list[tuple[float, int]]] = {}  # AP left -> (-value, cell), best first
        distance = board.distance
        range_bonus = me.range_bonus
        greedy = self._greedy_casts
        crates = ctx.crates
        block = ctx.block
        no_casts: list[tuple] = []
        for cell, cost, ap_cost, bonus, mp_left, first, risk, penalty in origins:
            ap = me_ap - ap_cost
            reach_bonus = range_bonus + bonus
            if wide is None:
                mask = exact.get(reach_bonus + ((crates >> cell) & 1))
                if mask is None:
                    mask = useful.get(reach_bonus + ((crates >> cell) & 1))
            else:
                mask = wide
            if (mask >> cell) & 1:
                casts, value, ap_left, fixed_end = greedy(ctx, cell, ap, reach_bonus)
            else:
                casts, value, ap_left, fixed_end = no_casts, 0.0, ap, -1
                if mp_left > 0 and cell in pos_cache:
                    # nothing to cast here: the plan is worth at most the best reachable end
                    # (economy and the lock mix never exceed it), so skip it when that cannot win
                    order = ranked.get(ap_left)
                    if order is None:
                        order = ranked[ap_left] = self._ranked_ends(ctx, reach, ap_left, pos, ranked)
                    top = -order[0][0]
                    bound = (1.0 - risk) * top + risk * stuck - penalty - 0.001 * (cost + ap_cost)
                    if bound < best_value - 1e-7:
                        continue
            if fixed_end >= 0:
                end, end_value = fixed_end, pos(fixed_end, ap_left)
            else:
                end = cell
                end_value = pos_cache.get(cell)
                if end_value is None:  # a swap lands outside the walk
                    end_value = pos(cell, ap_left)
                elif (econ_mask >> cell) & 1:
                    end_value += economy_value(ctx, cell, ap_left)
                if mp_left > 0:
                    order = ranked.get(ap_left)
                    if order is None:
                        order = ranked[ap_left] = self._ranked_ends(ctx, reach, ap_left, pos, ranked)
                    row = distance[cell]
                    bar = -(end_value + 1e-9)
                    for v, other in order:
                        if v >= bar:  # -v <= end_value + 1e-9: no better end
                            break
                        if row[other] <= mp_left:
                            v = -v
                            leave = block(cell)
                            mixed = (1.0 - leave) * v + leave * pos(cell, 0)
                            if mixed > end_value + 1e-9:
                                end, end_value = other, mixed
                            break
            total = (1.0 - risk) * (value + end_value) + risk * stuck - penalty - 0.001 * (cost + ap_cost)
            if total > best_value + 1e-9:
                steps = [("goto", cell)] if cost else []
                if first is not None:
                    steps.append(first)
                steps += casts
                if end != cell and fixed_end < 0:
                    steps.append(("goto", end))
                steps += [("tail",), ("end",)]
                best = _Plan(steps, total)
                best_value = total
        return best

    @staticmethod
    def _ranked_ends(
        ctx: _Context, reach: dict[int, int], ap_left: int, pos, ranked: dict[int, list[tuple[float, int]]]
    ) -> list[tuple[float, int]]:
        """(-value, cell) of every reachable end cell with ``ap_left`` AP left, best first (ties:
        lower cell). Only kama and Demon cells depend on the AP left, so the list for another AP
        is re-sorted from an existing one with just those cells rescored (a sorted run plus a few
        items: one pass of the sort)."""
        econ = ctx.econ_mask
        for known in ranked.values():
            if econ:
                keep = [vc for vc in known if not (econ >> vc[1]) & 1]
                keep += [(-pos(c, ap_left), c) for c in reach if (econ >> c) & 1]
                keep.sort()
                return keep
            return known
        return sorted([(-pos(c, ap_left), c) for c in reach])

    def _useful_origins(self, ctx: _Context, bonus: int | None = None) -> int:
        """Cells from which some spell may have a target (range only, symmetric): the others skip
        the cast search. With ``bonus`` None, the range of every spell is stretched by the most
        any origin may add (Distant Shot and a crate), else by exactly ``bonus``."""
        me, geo = ctx.me, ctx.geo
        if bonus is None:
            bonus = me.range_bonus + 4
        mask = 0
        for spell in me.spells:
            if spell.ap_cost > me.ap or spell.ap_cost == 0 or me.spell_used(spell):
                continue
            if spell.kind == "attack":
                table = geo.spell_table(spell, bonus)
                for t, _, _, _ in ctx.targets:
                    mask |= table[t]
            elif spell.kind == "heal":
                table = geo.spell_table(spell, bonus)
                for ally in ctx.allies:
                    if ally.injuries > 0:
                        mask |= table[ally.cell] | (1 << ally.cell)
            elif spell.kind == "summon":
                return -1
        return mask

    def _useful_by_bonus(self, ctx: _Context) -> _UsefulMasks:
        """Per range bonus, the origins worth a cast search.

        An origin out of every target's exact range finds nothing to cast, except a heal on itself
        when a heal reaches its own cell (range 0): the search then keeps every origin within the
        stretched range (as it always did)."""
        me = ctx.me
        ap = me.ap
        wide = False
        for spell in me.spells:
            kind = spell.kind
            if kind != "summon" and kind != "heal":
                continue
            if spell.ap_cost > ap or spell.ap_cost == 0 or me.spell_used(spell):
                continue
            if kind == "summon" or (
                (spell.range_type == "personal" or spell.range_min == 0) and me.injuries > 0
            ):
                wide = True
                break
        return _UsefulMasks(self, ctx, self._useful_origins(ctx) if wide else None)

    def _summon_groups(self, ctx: _Context, summon: str, ap_left: int) -> list[tuple[int, float]]:
        """Where a new ``summon`` may go, as (cells, worth) groups, best first, worth over 0.2.

        A summon's worth (``_summon_value``) does not depend on the casting cell, only on the cell
        it lands on and on whether 3 AP are left: for a creature, whether the cell touches an enemy
        Krosmaster (bombs are scanned cell by cell instead). Groups of equal worth are merged,
        so the cast search takes the lowest free cell in range of the first group it meets, as a
        scan of the cells in order would."""
        key = (summon, ap_left >= 3)
        groups = ctx.summon_ranks.get(key)
        if groups is None:
            board = ctx.board
            near = 0
            for c in ctx.enemy_kros:
                near |= board.neighbour_mask[c]
            everywhere = (1 << board.n_cells) - 1
            parts = []
            for part in (near, everywhere & ~near):
                if part:
                    x = (part & -part).bit_length() - 1
                    parts.append((part, self._summon_value(ctx, summon, x, ctx.me_cell, ap_left)))
            merged: dict[float, list] = {}
            for cells_mask, value in parts:
                if value > 0.2:
                    slot = merged.setdefault(round(value, 9), [0, value])
                    slot[0] |= cells_mask
            groups = ctx.summon_ranks[key] = [
                (slot[0], slot[1]) for _, slot in sorted(merged.items(), key=lambda kv: -kv[0])
            ]
        return groups

    def _greedy_casts(
        self, ctx: _Context, cell: int, ap: int, bonus: int
    ) -> tuple[list[tuple], float, int, int]:
        """Casts from ``cell`` chosen greedily by value per AP: (steps, value, AP left, end cell or -1)."""
        view, me = ctx.view, ctx.me
        reach_bonus = bonus + ((ctx.crates >> cell) & 1)
        castable = ctx.by_bonus.get(reach_bonus)
        if castable is None:
            castable = ctx.castable_with(reach_bonus)
        blockers = ctx.blockers
        los = ctx.board.los_path[cell]
        me_uid = ctx.me_uid
        targets = ctx.targets
        target_mask = ctx.target_mask
        plain = ctx.plain
        remaining: dict[int, float] = {}
        gone: set[int] = set()
        used: set[int] = set()
        planned: list[tuple[str, int]] = []  # (summon id, cell) placed by this plan
        planned_mask = 0
        steps: list[tuple] = []
        total = 0.0
        occupied = ctx.occupied | (1 << cell)
        healed_uids: set[int] = set()
        attack_value = self._attack_value
        for _ in range(4):
            best_density = -1.0
            best: tuple[float, int, int, str, tuple] | None = None  # value, index, target, kind, entry
            for entry in castable:
                index, spell, cost, kind, limited, needs_los, _, _, _, table = entry
                if cost > ap or (limited and index in used):
                    continue
                if kind == "attack":
                    mask = table[cell]
                    if mask & target_mask:
                        fresh = not remaining and not planned
                        for t, uid, target, bomb in targets:
                            if not (mask >> t) & 1 or uid in gone:
                                continue
                            if needs_los and los[t] & blockers:
                                continue
                            if fresh and not bomb:
                                # first hit on an untouched target: the same from every cell
                                value = plain.get((index, uid))
                                if value is None:
                                    value = plain[(index, uid)] = attack_value(
                                        ctx, spell, target, cell, remaining, planned
                                    )
                            else:
                                value = attack_value(ctx, spell, target, cell, remaining, planned)
                            if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                                best_density = value / cost
                                best = (value, index, t, "attack", entry)
                    if planned_mask & mask:
                        for summon_id, x in planned:
                            if (
                                summon_id == "water_bomb"
                                and (mask >> x) & 1
                                and not (needs_los and los[x] & blockers)
                            ):
                                value = 0.25 * ctx.blast(x)
                                if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                                    best_density = value / cost
                                    best = (value, index, x, "virtual", entry)
                elif kind == "heal":
                    mask = table[cell]
                    for ally in ctx.allies:
                        if ally.injuries <= 0:
                            continue
                        mine = ally.uid == me_uid
                        t = cell if mine else ally.cell
                        if not (mask >> t) & 1:
                            continue
                        if needs_los and t != cell and los[t] & blockers:
                            continue
                        value = self._heal_value(ctx, index, spell, ally, mine)
                        if ally.uid in healed_uids:
                            value *= 0.5
                        if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                            best_density = value / cost
                            best = (value, index, t, "heal", entry)
                else:  # summon
                    summons = spell.summons
                    count = ctx.my_tokens.get(summons, 0)
                    if planned:
                        count += sum(1 for s, _ in planned if s == summons)
                    if count >= spell.summon_control:
                        continue
                    mask = table[cell] & ~occupied & ~planned_mask
                    if summons == "water_bomb":
                        mask &= ctx.near_enemies
                        bombs = ctx.bomb_values
                        while mask:
                            low = mask & -mask
                            mask ^= low
                            x = low.bit_length() - 1
                            value = bombs.get(x)  # a bomb's worth depends on its cell only
                            if value is None:
                                value = bombs[x] = self._summon_value(ctx, summons, x, cell, ap - cost)
                            if value > 0.2 and (best is None or value / cost > best_density + 1e-9):
                                best_density = value / cost
                                best = (value, index, x, "summon", entry)
                        continue
                    if not mask:
                        continue
                    groups = ctx.summon_ranks.get((summons, ap - cost >= 3))
                    if groups is None:
                        groups = self._summon_groups(ctx, summons, ap - cost)
                    for cells, value in groups:
                        hit = mask & cells
                        if hit:
                            if best is None or value / cost > best_density + 1e-9:
                                best_density = value / cost
                                best = (value, index, (hit & -hit).bit_length() - 1, "summon", entry)
                            break
            if best is None:
                break
            value, index, target, kind, entry = best
            spell = entry[1]
            ap -= entry[2]
            total += value
            if entry[4]:
                used.add(index)
            steps.append(("cast", index, target))
            if kind == "summon":
                planned.append((spell.summons or "", target))
                planned_mask |= 1 << target
                continue
            if kind == "heal":
                healer_target = me if target == cell else view.piece_at(target)
                if healer_target is not None:
                    healed_uids.add(healer_target.uid)
                continue
            piece = view.piece_at(target)
            if piece is not None and kind == "attack":
                uid = piece.uid
                hurt = ctx.hurts.get((index, uid))
                if hurt is None:
                    hurt = ctx.hurts[(index, uid)] = scoring.attack_odds(view, me, spell, piece)[0]
                remaining[uid] = remaining.get(uid, float(piece.remaining_hp)) - hurt
                if entry[6] or piece.kind == "bomb":
                    gone.add(uid)
            if entry[7] and piece is not None:
                return steps, total, ap, target
            if entry[8]:
                return steps, total, ap, cell  # the engine moves us: replanning will see where
        return steps, total, ap, -1

    def _heal_value(self, ctx: _Context, index: int, spell, ally: FighterView, mine: bool) -> float:
        """Worth of healing ``ally`` once (more when it is in danger), cached per pass."""
        key = (index, ally.uid)
        value = ctx.heals.get(key)
        if value is None:
            healed, _ = scoring.attack_odds(ctx.view, ctx.me, spell, ally)
            danger = 0.0 if mine else ctx.threat[ally.cell]
            value = self.weights.heal * healed * (1.0 + 0.5 * scoring.ko_risk(danger, ally.remaining_hp))
            ctx.heals[key] = value
        return value

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
            key = ("bomb", spell.id, target.uid)
            ko = ctx.values.get(key)
            if ko is None:
                ko = ctx.values[key] = scoring.attack_odds(view, me, spell, target)[1]
            blast = ctx.blast(target.cell)
            if cell != ctx.me_cell and (view.board.square_mask[target.cell] >> cell) & 1:
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
        """Worth of a new ``summon`` on ``x`` (the casting ``cell`` does not matter; keep
        ``_summon_groups`` in step when this changes)."""
        w = self.weights
        if summon == "water_bomb":
            return 0.6 * ctx.blast(x) if (ctx.near_enemies >> x) & 1 else 0.0
        value = w.summon * scoring.SUMMON_WORTH.get(summon, 0.5)
        near_enemy = ctx.board.neighbour_mask[x] & ctx.enemy_kros_mask
        bonus = _bonus_for(ctx.me, summon)
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
        w = self.weights
        value = 0.0
        danger = ctx.threat[cell]
        if danger > 0:
            left = ctx.hp_left
            hurt = danger if danger < left else left
            value -= w.safety * (0.5 * hurt + scoring.ko_risk(danger, left) * ctx.my_worry)
        if ctx.enemy_kros:
            near = ctx.nearest_kros[cell]
            short = near - ctx.strike
            value -= w.approach * (short if short > 0 else 0)
            if w.kite:
                value -= 0.02 * abs(near - ctx.hold)
            else:
                value -= 0.02 * near
        if ctx.support_bonus and ctx.board.neighbour_mask[cell] & ctx.enemy_kros_mask:
            value += w.support * ctx.support_bonus
        if w.objective and ctx.is_krosmaster:
            value -= w.objective * self._objective_distance(ctx, cell)
        return value

    def _objective_distance(self, ctx: _Context, cell: int) -> float:
        view, board = ctx.view, ctx.board
        if ctx.objective is None:
            ctx.objective = (scoring.iter_bits(board.demon_cells), view.kama_cells())
        demons, kamas = ctx.objective
        if demons and view.kamas[ctx.side] >= view.gg_price - 2:
            return 1.5 * scoring.nearest_distance(board, cell, demons)
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
class _UsefulMasks:
    """Useful-origins masks per range bonus: one mask for all (``wide``), or exact ones computed
    when first asked."""

    __slots__ = ("ai", "ctx", "wide", "masks")

    def __init__(self, ai: HeuristicAI, ctx: _Context, wide: int | None) -> None:
        self.ai = ai
        self.ctx = ctx
        self.wide = wide
        self.masks: dict[int, int] = {}

    def get(self, bonus: int) -> int:
        if self.wide is not None:
            return self.wide
        mask = self.masks.get(bonus)
        if mask is None:
            mask = self.masks[bonus] = self.ai._useful_origins(self.ctx, bonus)
        return mask
