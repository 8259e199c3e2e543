"""The plan search: every way to start (walk, Distant Shot, Transposition), its casts, its best end.

:func:`best_plan` enumerates the *origins* of a plan (every reachable casting cell, reached by the
shortest walk least exposed to Lock and then richest in kamas, weighted by the chance of getting
there unblocked; plus the origins opened by range-bonus and swap spells), asks :mod:`.casts` what to
cast from each (also with 1, 2... AP held back when the team can afford GG on a reachable Demon
cell), and :mod:`.positions` where to end; origins that cannot have a target
(:func:`useful_origins`) or cannot beat the best plan so far are skipped, so a pass stays cheap
enough for batteries of thousands of matches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, final

from krosbalance.ai import scoring
from krosbalance.ai.casts import Step, greedy_casts
from krosbalance.ai.context import _Context
from krosbalance.ai.positions import economy_plan, economy_value, position_value
from krosbalance.ai.walks import route, walk_plan
from krosbalance.ai.weights import Weights
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import BLOCK_CHANCE

#: the worth of ending on a cell, before kamas (``HeuristicAI.position_value``); None: the default,
#: :func:`.positions.position_value` with the search's weights (a native call, not a Python one)
PositionValue = Callable[[_Context, int], float] | None


@dataclass(slots=True)
class Plan:
    """A plan for one activation: its steps, the planner's value of it, and the walk chosen to its
    first cell (the safest shortest one)."""

    steps: list[Step]
    value: float
    route: list[int] = field(default_factory=list)  # the walk to the first cell, when chosen


def affordable_buys(ctx: _Context, reach: dict[int, int]) -> int:
    """How many GG the team could buy this activation: a Demon cell within the walk, and the team's
    kamas plus the kamas lying within the walk (R-A49, R-A50); 0 for creatures."""
    arena, me = ctx.arena, ctx.me
    if not ctx.is_krosmaster or not ctx.econ_mask or not ctx.may_buy:
        return 0
    demons = ctx.board.demon_cells
    if not any((demons >> c) & 1 for c in reach):
        return 0
    kamas = arena.kamas[ctx.side] + sum(arena.kamas_at(c) for c in reach if (ctx.econ_mask >> c) & 1)
    return min(int(me.ap), kamas // max(1, arena.gg_price))


def best_plan(weights: Weights, ctx: _Context, reach: dict[int, int], position_value: PositionValue) -> Plan:
    """The best plan from here; ``reach`` is ``view.reachable_cells(me)`` (just the current cell
    when the fighter cannot walk)."""
    return best_plans(weights, ctx, reach, position_value, 1)[0]


@final
class _Origin:
    """One way to start a plan: the casting cell, the MP and AP it costs, the range bonus it gives,
    the MP left there, the cast made first (Distant Shot, Transposition) or None, the chance of a
    lock block on the way, a penalty (the danger a swap moves onto an ally) and the kamas picked up
    on the way (bits; a walk only)."""

    __slots__ = ("cell", "mp_cost", "ap_cost", "bonus", "mp_left", "first", "risk", "penalty", "way")

    def __init__(
        self,
        cell: int,
        mp_cost: int,
        ap_cost: int,
        bonus: int,
        mp_left: int,
        first: Step | None,
        risk: float,
        penalty: float,
        way: int,
    ) -> None:
        self.cell: Final = cell
        self.mp_cost: Final = mp_cost
        self.ap_cost: Final = ap_cost
        self.bonus: Final = bonus
        self.mp_left: Final = mp_left
        self.first: Final = first
        self.risk: Final = risk
        self.penalty: Final = penalty
        self.way: Final = way


def best_plans(
    weights: Weights, ctx: _Context, reach: dict[int, int], position_value: PositionValue, keep: int
) -> list[Plan]:
    """The ``keep`` best plans from here, best first, no two with the same casts and end cell (the
    candidates a lookahead AI tries; see :func:`best_plan`).

    Each origin's casts (:func:`_cast_tries`) are followed by the best end for them
    (:func:`_best_end`); a plan is offered to the search when it beats the best kept so far."""
    me = ctx.me
    me_cell, me_ap = ctx.me_cell, me.ap
    search = _Search(weights, ctx, reach, position_value, keep)
    # the safest shortest walk to each cell: its chance of a lock block (R-A16) and its kamas
    risks, on_way, parent = walk_plan(ctx, reach)
    origins = _origins(weights, ctx, reach, risks, on_way)
    useful = useful_by_bonus(ctx)
    stuck = search.pos(me_cell, 0)
    best_value = search.offer(search.pos(me_cell, me_ap), [_TAIL, _END], me_cell, me_cell)
    buys = affordable_buys(ctx, reach)
    for origin in origins:
        cell, cost, ap_cost, risk, penalty = (
            origin.cell,
            origin.mp_cost,
            origin.ap_cost,
            origin.risk,
            origin.penalty,
        )
        for casts, value, ap_left, fixed_end in _cast_tries(
            weights, ctx, search, origin, useful, buys, stuck, best_value
        ):
            end, end_value, picks, bought = _best_end(
                weights, ctx, search, origin, casts, ap_left, fixed_end, risks
            )
            total = (1.0 - risk) * (value + end_value) + risk * stuck - penalty - 0.001 * (cost + ap_cost)
            if total > best_value + 1e-9:
                steps = _plan_steps(origin, casts, picks, bought, end, fixed_end)
                dest = cell if cost or origin.first is not None or end == cell else end
                best_value = search.offer(total, steps, dest, end)
    plans = []
    for total, steps, dest, _ in search.leaders:
        plan = Plan(steps, total)
        if steps and steps[0].kind == "goto":
            plan.route = route(parent, me_cell, dest)
        plans.append(plan)
    return plans


def _origins(
    weights: Weights, ctx: _Context, reach: dict[int, int], risks: list[float], on_way: list[int]
) -> list[_Origin]:
    """Every way to start a plan: a walk to each reachable cell, then Distant Shot cast on each of
    them (its range bonus, no MP left), then Transposition with each ally it may swap with."""
    view, me = ctx.view, ctx.me
    me_cell, me_ap = ctx.me_cell, me.ap
    mp = 0 if me.blocked else me.mp
    origins = [
        _Origin(cell, cost, 0, 0, mp - cost, None, risks[cell], 0.0, on_way[cell])
        for cell, cost in reach.items()
    ]
    for index, spell in enumerate(me.spells):
        if spell.kind != "special" or spell.ap_cost > me_ap or me.spell_used(spell):
            continue
        kinds = {e.kind for e in spell.effects}
        if "range_bonus_this_turn" in kinds and me.range_bonus == 0:
            bonus = next(e.params["amount"] for e in spell.effects if e.kind == "range_bonus_this_turn")
            for cell, cost in reach.items():
                origins.append(
                    _Origin(
                        cell, cost, spell.ap_cost, bonus, 0, Step("cast", index, cell), risks[cell], 0.0, 0
                    )
                )
        elif "swap_places" in kinds and spell.target == "ally":
            for target in view.spell_targets(index):
                ally = view.piece_at(target)
                if ally is None or target == ctx.no_swap_back:
                    continue
                # the ally lands where we stood: charge the change of its danger
                shift = ctx.threat.at(me_cell) - ctx.threat.at(target)
                penalty = weights.safety * 0.5 * max(0.0, shift) if ally.is_krosmaster else 0.0
                origins.append(
                    _Origin(target, 0, spell.ap_cost, 0, mp, Step("cast", index, target), 0.0, penalty, 0)
                )
    return origins


def _cast_tries(
    weights: Weights,
    ctx: _Context,
    search: _Search,
    origin: _Origin,
    useful: _UsefulMasks,
    buys: int,
    stuck: float,
    best_value: float,
) -> list[tuple[list[Step], float, int, int]]:
    """The casts to try from an origin, as :func:`.casts.greedy_casts` answers: the greedy casts,
    then the same with 1, 2... AP held back for purchases; none from a cell where nothing can be
    cast; nothing at all where even the best reachable end cannot beat ``best_value``."""
    cell, mp_left = origin.cell, origin.mp_left
    ap = ctx.me.ap - origin.ap_cost
    reach_bonus = ctx.me.range_bonus + origin.bonus
    if (useful.get(reach_bonus + ((ctx.crates >> cell) & 1)) >> cell) & 1:
        tries = [greedy_casts(weights, ctx, cell, ap, reach_bonus, mp_left)]
        # keep AP for purchases: the same casts with 1, 2... AP fewer
        for held in range(1, min(buys, ap) + 1):
            casts, value, ap_left, fixed_end = greedy_casts(
                weights, ctx, cell, ap - held, reach_bonus, mp_left
            )
            tries.append((casts, value, ap_left + held, fixed_end))
            if not casts:
                break
        return tries
    if mp_left > 0 and cell in search.pos_cache and not origin.way:
        # nothing to cast here: the plan is worth at most the best reachable end
        # (economy and the lock mix never exceed it), so skip it when that cannot win
        top = -search.ends(ap)[0][0]
        risk = origin.risk
        bound = (1.0 - risk) * top + risk * stuck - origin.penalty - 0.001 * (origin.mp_cost + origin.ap_cost)
        if bound < best_value - 1e-7:
            return []
    return [(_NO_CASTS, 0.0, ap, -1)]


def _best_end(
    weights: Weights,
    ctx: _Context,
    search: _Search,
    origin: _Origin,
    casts: list[Step],
    ap_left: int,
    fixed_end: int,
    risks: list[float],
) -> tuple[int, float, int, int]:
    """(end cell, its worth, kamas picked up on the way as bits, GG bought before walking on) after
    ``casts`` from an origin: where a spell left us (and on from there), or the casting cell with its
    kamas and GG, a better end cell within the MP left, or GG bought here then a walk on."""
    cell, mp_left = origin.cell, origin.mp_left
    free_escape = weights.free_escape
    placed, pushed = _placed_and_pushed(ctx, cell, casts, free_escape)
    if fixed_end >= 0:
        end, end_value = fixed_end, search.pos(fixed_end, ap_left)
        if free_escape and mp_left > 0:
            # the spell moved us (Retreat Shot): walk on from where we land, a Lock roll
            # only if the landing cell is next to a locker
            end, end_value = walk_on(search, ctx, fixed_end, end_value, ap_left, mp_left, placed)
        return end, end_value, 0, 0
    end, picks, bought = cell, 0, 0
    known = search.pos_cache.get(cell)
    if known is None:  # a swap lands outside the walk
        end_value = search.pos(cell, ap_left)
    else:
        end_value = known
        if origin.way:
            gain, picks = economy_plan(weights, ctx, cell, ap_left, origin.way)
            end_value += gain
        elif cell in search.econ:
            end_value += economy_value(weights, ctx, cell, ap_left)
    if mp_left > 0:
        better = _better_end(
            ctx, search, cell, ap_left, mp_left, placed, pushed, risks, end_value, free_escape
        )
        if better is not None:
            end, end_value, picks = better[0], better[1], 0
    if (
        weights.buy_first
        and ctx.may_buy
        and mp_left > 0
        and ap_left > 0
        and (ctx.board.demon_cells >> cell) & 1
    ):
        # buy here, then walk on: a GG bought now is worth no less than the kamas kept
        count, gain = gg_purchases(ctx, cell, ap_left)
        if count:
            leave_risk = risks if cell == ctx.me_cell else None
            other, mixed = best_walk_from(search, ctx, cell, ap_left - count, mp_left, placed, leave_risk)
            if other >= 0 and gain + mixed > end_value + 1e-9:
                end, end_value, picks, bought = other, gain + mixed, 0, count
    return end, end_value, picks, bought


def _placed_and_pushed(ctx: _Context, cell: int, casts: list[Step], free_escape: bool) -> tuple[int, int]:
    """(cells the casts put a summon on, enemies next to ``cell`` that a cast pushes away), as bits:
    no end on a summon, and a pushed locker rolls no block (weighed with ``free_escape`` only)."""
    spells = ctx.me.spells
    neighbours = ctx.board.neighbour_mask[cell]
    placed = pushed = 0
    for st in casts:
        cast_spell = spells[st.arg]
        if cast_spell.kind == "summon":
            placed |= 1 << st.target
        elif free_escape and (neighbours >> st.target) & 1 and pushes(cast_spell):
            pushed |= 1 << st.target
    return placed, pushed


def _better_end(
    ctx: _Context,
    search: _Search,
    cell: int,
    ap_left: int,
    mp_left: int,
    placed: int,
    pushed: int,
    risks: list[float],
    end_value: float,
    free_escape: bool,
) -> tuple[int, float] | None:
    """(end cell, worth) of the best end cell within ``mp_left`` of ``cell``, not on a summon just
    placed, mixed with staying by the chance of a lock block on leaving, when it beats ``end_value``;
    None otherwise. From the fighter's own cell the walk is the safest shortest one; from a casting
    cell, only leaving that cell is weighed."""
    row = ctx.board.distance[cell]
    bar = -(end_value + 1e-9)
    from_start = cell == ctx.me_cell
    for v, other in search.ends(ap_left):
        if v >= bar:  # -v <= end_value + 1e-9: no better end
            break
        if row[other] <= mp_left and not (placed >> other) & 1:
            v = -v
            if free_escape and pushed:
                leave = block_after_push(ctx, cell, pushed)
            else:
                leave = risks[other] if from_start else ctx.block(cell)
            mixed = (1.0 - leave) * v + leave * search.pos(cell, 0)
            if mixed > end_value + 1e-9:
                return other, mixed
            return None
    return None


def _plan_steps(
    origin: _Origin, casts: list[Step], picks: int, bought: int, end: int, fixed_end: int
) -> list[Step]:
    """A plan's steps: the walk to the casting cell (with the kamas it picks up), the first cast,
    the casts, the GG bought there, the walk to the end cell, the tail and the end."""
    steps = [Step("goto", origin.cell, picks)] if origin.mp_cost else []
    if origin.first is not None:
        steps.append(origin.first)
    steps += casts
    if bought:
        steps.append(Step("buy", bought))
    if end != origin.cell and fixed_end < 0:
        steps.append(Step("goto", end))
    steps.append(_TAIL)
    steps.append(_END)
    return steps


def gg_purchases(ctx: _Context, cell: int, ap: int) -> tuple[int, float]:
    """(how many, worth) of the GG the team's kamas buy on the Demon cell ``cell`` with ``ap`` AP,
    each at the score it is bought at (R-A50, as :func:`.positions.economy_plan` counts them; a
    purchase that wins is worth the match); (0, 0) for a creature or without the price."""
    arena = ctx.arena
    if not ctx.is_krosmaster or not (ctx.board.demon_cells >> cell) & 1:
        return 0, 0.0
    count = min(ap, arena.kamas[ctx.side] // max(1, arena.gg_price))
    gg, wild, side, team_of = arena.gg, arena.wild_gg, ctx.side, ctx.view.team_of
    worth = 0.0
    for n in range(count):
        gain = scoring.score_swing(gg, wild, side, 1, -1, team_of)
        if gain >= scoring.WIN_VALUE:
            return n + 1, scoring.GG_UNIT * scoring.WIN_VALUE
        worth += scoring.GG_UNIT * gain + 0.5
        gg, wild = scoring.score_after(gg, wild, side, 1, -1, team_of)
    return count, worth


def pushes(spell: SpellSpec) -> bool:
    """Whether the spell pushes its target away (Puff): cast on a locker, it ends the melee."""
    return any(e.kind == "push" for e in spell.effects)


def block_after_push(ctx: _Context, cell: int, pushed: int) -> float:
    """Chance of a lock block walking off ``cell`` once the enemies on ``pushed`` (bits) have been
    pushed away (R-A16, R-A45, R-A85): only the other adjacent lockers roll. A push stopped at once
    by an obstacle is not foreseen (the planner replans after every push)."""
    me = ctx.me
    if me.has("tiny"):
        return 0.0
    dodge = 2 if me.has("dodge") else 1
    free = 1.0
    for c in ctx.board.neighbours[cell]:
        if (pushed >> c) & 1:
            continue
        piece = ctx.view.piece_at(c)
        if piece is None or piece.team == me.team or not piece.is_character or piece.has("tiny"):
            continue
        free *= 1.0 - BLOCK_CHANCE[2 if piece.has("lock") else 1][dodge]
    return 1.0 - free


def best_walk_from(
    search: _Search,
    ctx: _Context,
    cell: int,
    ap_left: int,
    mp_left: int,
    placed: int,
    start_risks: list[float] | None,
) -> tuple[int, float]:
    """(end cell, worth) of the best walk on from ``cell`` to another end cell within ``mp_left``,
    mixed with staying on ``cell`` by the chance of a lock block on leaving it (``start_risks``: the
    safest walks' risks from the fighter's own cell; else ``cell``'s own block chance); (-1, 0)
    when no other cell is within reach."""
    row = ctx.board.distance[cell]
    for v, other in search.ends(ap_left):
        if other != cell and row[other] <= mp_left and not (placed >> other) & 1:
            leave = start_risks[other] if start_risks is not None else ctx.block(cell)
            return other, (1.0 - leave) * -v + leave * search.pos(cell, 0)
    return -1, 0.0


def walk_on(
    search: _Search, ctx: _Context, cell: int, value: float, ap_left: int, mp_left: int, placed: int
) -> tuple[int, float]:
    """After a spell that moved the caster to ``cell`` (worth ``value`` as an end), the better of
    staying and walking on with the MP left (:func:`best_walk_from`)."""
    other, mixed = best_walk_from(search, ctx, cell, ap_left, mp_left, placed, None)
    if other >= 0 and mixed > value + 1e-9:
        return other, mixed
    return cell, value


#: the last two steps of every plan (steps are immutable: plans share them)
_TAIL = Step("tail")
_END = Step("end")
#: the casts of an origin where nothing can be cast (shared: never changed)
_NO_CASTS: list[Step] = []


class _Search:
    """What one pass of :func:`best_plans` keeps as it goes: the worth of each end cell, the end cells
    ranked per AP left, and the plans kept so far, best first."""

    __slots__ = (
        "weights",
        "ctx",
        "reach",
        "position_value",
        "keep",
        "pos_cache",
        "econ",
        "ranked",
        "leaders",
        "seen",
    )

    def __init__(
        self, weights: Weights, ctx: _Context, reach: dict[int, int], position_value: PositionValue, keep: int
    ) -> None:
        self.weights = weights
        self.ctx = ctx
        self.reach = reach
        self.position_value = position_value
        self.keep = keep
        # every reachable cell is a candidate end cell: score them all once
        self.pos_cache = {cell: self.cell_value(cell) for cell in reach}
        # the cells whose worth depends on the AP left (kamas, Demon cells)
        self.econ = ctx.econ_cells
        self.ranked: dict[int, list[tuple[float, int]]] = {}  # AP left -> (-value, cell), best first
        # (value, steps, the cell its walk from the start goes to, end cell), best first
        self.leaders: list[tuple[float, list[Step], int, int]] = []
        self.seen: dict[tuple[tuple[Step, ...], int], float] = {}

    def cell_value(self, cell: int) -> float:
        """The worth of ending on ``cell``, kamas aside (the AI's ``position_value``)."""
        if self.position_value is None:
            return position_value(self.weights, self.ctx, cell)
        return self.position_value(self.ctx, cell)

    def pos(self, cell: int, ap_left: int) -> float:
        """The worth of ending on ``cell`` with ``ap_left`` AP left (kamas and GG included)."""
        base = self.pos_cache.get(cell)
        if base is None:
            base = self.pos_cache[cell] = self.cell_value(cell)
        if cell in self.econ:
            return base + economy_value(self.weights, self.ctx, cell, ap_left)
        return base

    def ends(self, ap_left: int) -> list[tuple[float, int]]:
        """Every reachable end cell as (-worth, cell) with ``ap_left`` AP left, best first."""
        order = self.ranked.get(ap_left)
        if order is None:
            order = self.ranked[ap_left] = self._ranked_ends(ap_left)
        return order

    def _ranked_ends(self, ap_left: int) -> list[tuple[float, int]]:
        """(-value, cell) of every reachable end cell with ``ap_left`` AP left, best first (ties:
        lower cell). Only kama and Demon cells depend on the AP left, so the list for another AP
        is re-sorted from an existing one with just those cells rescored (a sorted run plus a few
        items: one pass of the sort)."""
        econ = self.econ
        for known in self.ranked.values():
            if econ:
                keep = [vc for vc in known if vc[1] not in econ]
                keep += [(-self.pos(c, ap_left), c) for c in self.reach if c in econ]
                keep.sort()
                return keep
            return known
        return sorted([(-self.pos(c, ap_left), c) for c in self.reach])

    def offer(self, total: float, steps: list[Step], dest: int, end: int) -> float:
        """Keep a plan if it is among the best; return the value a plan must now beat."""
        leaders, keep = self.leaders, self.keep
        signature = (tuple([st for st in steps if st.kind == "cast"]), end)
        known = self.seen.get(signature)
        if known is not None and known >= total:
            return leaders[-1][0] if len(leaders) >= keep else -1e18
        if known is not None:
            leaders[:] = [
                k for k in leaders if (tuple([st for st in k[1] if st.kind == "cast"]), k[3]) != signature
            ]
        self.seen[signature] = total
        index = len(leaders)
        while index > 0 and leaders[index - 1][0] < total:
            index -= 1
        leaders.insert(index, (total, steps, dest, end))
        del leaders[keep:]
        return leaders[-1][0] if len(leaders) >= keep else -1e18


def useful_origins(ctx: _Context, bonus: int | None = None) -> int:
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
            for target in ctx.targets:
                mask |= table[target.cell]
        elif spell.kind == "heal":
            table = geo.spell_table(spell, bonus)
            for ally in ctx.allies:
                if ally.injuries > 0:
                    mask |= table[ally.cell] | (1 << ally.cell)
        elif spell.kind == "summon":
            return -1
    return mask


def useful_by_bonus(ctx: _Context) -> _UsefulMasks:
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
        if kind == "summon" or ((spell.range_type == "personal" or spell.range_min == 0) and me.injuries > 0):
            wide = True
            break
    return _UsefulMasks(ctx, useful_origins(ctx) if wide else None)


class _UsefulMasks:
    """Useful-origins masks per range bonus: one mask for all (``wide``), or exact ones computed
    when first asked."""

    __slots__ = ("ctx", "wide", "masks")

    def __init__(self, ctx: _Context, wide: int | None) -> None:
        self.ctx = ctx
        self.wide = wide
        self.masks: dict[int, int] = {}

    def get(self, bonus: int) -> int:
        if self.wide is not None:
            return self.wide
        mask = self.masks.get(bonus)
        if mask is None:
            mask = self.masks[bonus] = useful_origins(self.ctx, bonus)
        return mask
