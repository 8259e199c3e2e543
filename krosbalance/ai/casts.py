"""Which spells to cast from a cell, and what each cast is worth.

For one casting cell of a plan the search (:mod:`.plan_search`) asks :func:`greedy_casts` for the
casts to make there, picked greedily by value per AP among attacks on enemies and bombs, heals on
injured allies and summons. The valuations are cached on the pass's :class:`.context._Context`
because the same (spell, target) pair is asked about from many cells.
"""

from __future__ import annotations

from typing import Final, final

from krosbalance.ai import scoring
from krosbalance.ai.context import CastEntry, Target, _bonus_for, _Context
from krosbalance.ai.weights import Weights
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import FighterView


@final
class Step:
    """One step of a plan: ``goto`` (``arg`` = cell), ``cast`` (``arg`` = spell index, ``target`` =
    cell), ``tail`` (pick up kamas / buy GG) or ``end``. A plain slotted class rather than a
    NamedTuple: compiled code builds it natively, where a NamedTuple's constructor is Python code."""

    __slots__ = ("kind", "arg", "target")

    def __init__(self, kind: str, arg: int = -1, target: int = -1) -> None:
        self.kind: Final = kind
        self.arg: Final = arg
        self.target: Final = target

    def __repr__(self) -> str:
        return f"Step({self.kind!r}, {self.arg}, {self.target})"


@final
class _Aim:
    """An attack's target as the cast search sees it from one cell: the target and the worth of a
    first hit on it (a native class: compiled code reads its fields in place)."""

    __slots__ = ("cell", "uid", "piece", "bomb", "first")

    def __init__(self, target: Target, first: float) -> None:
        self.cell: Final = target.cell
        self.uid: Final = target.uid
        self.piece: Final = target.piece
        self.bomb: Final = target.bomb
        self.first: Final = first


def summon_groups(weights: Weights, ctx: _Context, summon: str, ap_left: int) -> list[tuple[int, float]]:
    """Where a new ``summon`` may go, as (cells, worth) groups, best first, worth over 0.2.

    A summon's worth (:func:`summon_value`) does not depend on the casting cell, only on whether the
    cell it lands on touches an enemy Krosmaster, lies in a bomb's blast, and is within the
    creature's walk-and-strike reach of one: at most eight kinds of cell, one value each. Groups of
    equal worth are merged, so the cast search takes the lowest free cell in range of the first
    group it meets, as a scan of the cells in order would. (Bombs are scanned cell by cell.) Nor
    does it depend on ``ap_left``: the groups are kept per summon, under both of its keys."""
    key = (summon, ap_left >= 3)
    groups = ctx.summon_ranks.get(key)
    if groups is None:
        board = ctx.board
        free = ((1 << board.n_cells) - 1) & ~ctx.occupied
        near = 0
        for c in ctx.enemy_kros:
            near |= board.neighbour_mask[c]
        traits = _summon_traits(ctx, summon)
        reach = traits[3]
        strike = ctx.geo.dilate(ctx.enemy_kros_mask, reach) if reach >= 0 else 0
        # (first worth, cells) per worth to 9 decimals, in the order the parts are met
        merged: list[tuple[float, int]] = []
        for a in (near, ~near):
            for b in (ctx.bomb_cells, ~ctx.bomb_cells):
                for c in (strike, ~strike):
                    part = free & a & b & c
                    if not part:
                        continue
                    x = (part & -part).bit_length() - 1
                    value = _placed_worth(weights, ctx, summon, x, traits)
                    if value > 0.2:
                        for i, (first, cells) in enumerate(merged):
                            # worths 2e-9 apart or more never round to one value: round (slow,
                            # decimal) only the close ones
                            if abs(first - value) < 2e-9 and round(first, 9) == round(value, 9):
                                merged[i] = (first, cells | part)
                                break
                        else:
                            merged.append((value, part))
        # best first: the groups' worths differ to 9 decimals, so their order is that of the
        # rounded worths (rounding never reverses an order); the worth does not depend on the AP
        # left (see summon_value), so both keys of this summon get the same groups
        groups = [(cells, first) for first, cells in sorted(merged, reverse=True)]
        ctx.summon_ranks[(summon, True)] = ctx.summon_ranks[(summon, False)] = groups
    return groups


def greedy_casts(
    weights: Weights, ctx: _Context, cell: int, ap: int, bonus: int, mp_left: int = 0
) -> tuple[list[Step], float, int, int]:
    """Casts from ``cell`` chosen greedily by value per AP: (steps, value, AP left, end cell or -1).

    ``mp_left`` is the MP left on ``cell``: a summon placed there may set up a boosted hit made
    after a few more steps (the planner replans after the summon and walks).

    Each round scans the castable spells in order and takes the first best density. What the rounds
    would ask again is worked out once per call: per attack, the targets it reaches from ``cell``
    in sight with their worth as a first hit (a bomb's worth never changes within a call, see
    :func:`attack_value`; a Krosmaster's only once this plan has hit it or placed a summon next to
    it)."""
    view, me = ctx.view, ctx.me
    reach_bonus = bonus + ((ctx.crates >> cell) & 1)
    castable = ctx.by_bonus.get(reach_bonus)
    if castable is None:
        castable = ctx.castable_with(reach_bonus)
    blockers = ctx.blockers
    los = ctx.board.los_path[cell]
    neighbours = ctx.board.neighbour_mask
    me_uid = ctx.me_uid
    remaining: dict[int, float] = {}
    # uids taken out of play by this plan's casts, spell indices used up and uids healed, as bits
    # (small ints: no set built per casting cell)
    gone = 0
    used = 0
    healed = 0
    planned: list[tuple[str, int]] = []  # (summon id, cell) placed by this plan
    planned_mask = 0
    steps: list[Step] = []
    total = 0.0
    # per castable entry, its targets in range and in sight from ``cell`` with their worth as a
    # first hit (None until the entry is first looked at, always in the first round: AP only goes
    # down and nothing is used up before a cast)
    aims: list[list[_Aim] | None] = [None] * len(castable)
    sight_known = sight_ok = 0  # as bits over the positions in ``ctx.targets``
    free_here = 0  # cells a summon may take from ``cell`` (0 until a summon asks)
    for _ in range(4):
        best_density = -1.0
        # the best cast so far: its position in ``castable`` (-1: none), worth, target and kind
        best = -1
        best_value = 0.0
        best_target = -1
        best_kind = ""
        best_victim: FighterView | None = None
        reserved = 0  # AP kept for a boosted hit made after a walk
        for position, entry in enumerate(castable):
            index, spell, cost, kind, needs_los, table = (
                entry.index,
                entry.spell,
                entry.cost,
                entry.kind,
                entry.needs_los,
                entry.table,
            )
            if cost > ap or (entry.limited and (used >> index) & 1):
                continue
            if kind == "attack":
                aimed = aims[position]
                if aimed is None:
                    aimed = []
                    mask = table[cell]
                    if mask & ctx.target_mask:
                        for i, candidate in enumerate(ctx.targets):
                            t = candidate.cell
                            if not (mask >> t) & 1:
                                continue
                            if needs_los:
                                if not (sight_known >> i) & 1:
                                    sight_known |= 1 << i
                                    if not los[t] & blockers:
                                        sight_ok |= 1 << i
                                if not (sight_ok >> i) & 1:
                                    continue
                            if candidate.bomb:
                                first = attack_value(
                                    weights, ctx, spell, candidate.piece, cell, remaining, planned
                                )
                            else:
                                # a first hit on an untouched target: the same from every cell
                                key = index << 20 | candidate.uid
                                cached = ctx.plain.get(key)
                                if cached is None:
                                    first = ctx.plain[key] = attack_value(
                                        weights, ctx, spell, candidate.piece, cell, remaining, planned
                                    )
                                else:
                                    first = cached
                            aimed.append(_Aim(candidate, first))
                    aims[position] = aimed
                for aim in aimed:
                    uid = aim.uid
                    if (gone >> uid) & 1:
                        continue
                    if aim.bomb or (
                        uid not in remaining and not (planned_mask and planned_mask & neighbours[aim.cell])
                    ):
                        # not hit yet by this plan and no summon placed next to it: as a first hit
                        value = aim.first
                    else:
                        value = attack_value(weights, ctx, spell, aim.piece, cell, remaining, planned)
                    if value > 0.05 and (best < 0 or value / cost > best_density + 1e-9):
                        best_density = value / cost
                        best, best_value, best_target, best_kind = position, value, aim.cell, "attack"
                        best_victim = aim.piece
                if planned_mask and planned_mask & table[cell]:
                    mask = table[cell]
                    for summon_id, x in planned:
                        if (
                            summon_id == "water_bomb"
                            and (mask >> x) & 1
                            and not (needs_los and los[x] & blockers)
                        ):
                            value = 0.25 * ctx.blast(x)
                            if value > 0.05 and (best < 0 or value / cost > best_density + 1e-9):
                                best_density = value / cost
                                best, best_value, best_target, best_kind = position, value, x, "virtual"
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
                    value = heal_value(weights, ctx, index, spell, ally, mine)
                    if (healed >> ally.uid) & 1:
                        value *= 0.5
                    if value > 0.05 and (best < 0 or value / cost > best_density + 1e-9):
                        best_density = value / cost
                        best, best_value, best_target, best_kind = position, value, t, "heal"
            else:  # summon
                summons = spell.summons or ""  # never empty: `castable` keeps spells that summon
                count = ctx.my_tokens.get(summons, 0)
                if planned:
                    count += sum(1 for s, _ in planned if s == summons)
                if count >= spell.summon_control:
                    continue
                if not free_here:
                    free_here = ~(ctx.occupied | (1 << cell))
                mask = table[cell] & free_here
                if planned_mask:
                    mask &= ~planned_mask
                if summons == "water_bomb":
                    mask &= ctx.near_enemies
                    bombs = ctx.bomb_values
                    while mask:
                        low = mask & -mask
                        mask ^= low
                        x = low.bit_length() - 1
                        known = bombs.get(x)  # a bomb's worth depends on its cell only
                        if known is None:
                            value = bombs[x] = summon_value(weights, ctx, summons, x, cell, ap - cost)
                        else:
                            value = known
                        if value > 0.2 and (best < 0 or value / cost > best_density + 1e-9):
                            best_density = value / cost
                            best, best_value, best_target, best_kind = position, value, x, "summon"
                            reserved = 0
                    continue
                if not mask:
                    continue
                groups = ctx.summon_ranks.get((summons, ap - cost >= 3))
                if groups is None:
                    groups = summon_groups(weights, ctx, summons, ap - cost)
                single: tuple[float, int] | None = None
                for cells, value in groups:
                    hit = mask & cells
                    if hit:
                        single = (value, (hit & -hit).bit_length() - 1)
                        break
                combo = _summon_then_hit(
                    weights, ctx, entry, castable, cell, ap, mask, remaining, gone, planned, mp_left
                )
                if combo is not None and (single is None or combo[1] >= single[0]):
                    # the pair is worth at least the summon alone: take it, at the better density
                    density = max(combo[0], single[0] / cost if single is not None else 0.0)
                    if best < 0 or density > best_density + 1e-9:
                        best_density = density
                        best, best_value, best_target, best_kind = position, combo[1], combo[2], "summon"
                        reserved = combo[3]
                elif single is not None and (best < 0 or single[0] / cost > best_density + 1e-9):
                    best_density = single[0] / cost
                    best, best_value, best_target, best_kind = position, single[0], single[1], "summon"
                    reserved = 0
        if best < 0:
            break
        entry = castable[best]
        index, spell, cost = entry.index, entry.spell, entry.cost
        target = best_target
        ap -= cost + (reserved if best_kind == "summon" else 0)
        total += best_value
        if entry.limited:
            used |= 1 << index
        steps.append(Step("cast", index, target))
        if best_kind == "summon":
            planned.append((spell.summons or "", target))
            planned_mask |= 1 << target
            continue
        if best_kind == "heal":
            healer_target = me if target == cell else view.piece_at(target)
            if healer_target is not None:
                healed |= 1 << healer_target.uid
            continue
        # an attack's target is the piece on its cell; a virtual hit's cell holds none yet
        piece = best_victim if best_kind == "attack" else view.piece_at(target)
        if piece is not None and best_kind == "attack":
            uid = piece.uid
            hurt = ctx.hurts.get((index, uid))
            if hurt is None:
                hurt = ctx.hurts[(index, uid)] = scoring.attack_odds(view, me, spell, piece)[0]
            remaining[uid] = remaining.get(uid, float(piece.remaining_hp)) - hurt
            if entry.moves_target or piece.kind == "bomb":
                gone |= 1 << uid
        if entry.swaps and piece is not None:
            return steps, total, ap, target
        if entry.moves_caster:
            # Retreat/Approach moves us: the plan ends where we land (replanning goes on from there)
            return steps, total, ap, landing(ctx, spell, cell, target)
    return steps, total, ap, -1


def _summon_then_hit(
    weights: Weights,
    ctx: _Context,
    summon_entry: CastEntry,
    castable: list[CastEntry],
    cell: int,
    ap: int,
    free: int,
    remaining: dict[int, float],
    gone: int,
    planned: list[tuple[str, int]],
    mp_left: int = 0,
) -> tuple[float, float, int, int] | None:
    """A summon placed next to an enemy and the hit it boosts this turn (To Fu Ti, Gobbolob: R-A96),
    taken as one move so the greedy search sees their worth together: (density of the pair, worth
    to credit the summon with, the summon's cell, AP to keep for the hit) for the best pair from
    ``cell``, or None. A hit castable from ``cell`` is left to the next greedy step (credit: the
    summon alone); a hit after a walk is credited to the summon and its AP kept.

    The hit is made from ``cell`` when the target is in range there, or after walking up to
    ``mp_left`` cells (a melee summon cannot touch both its caster and a target the caster touches:
    the King summons from a corner of the target, then steps next to it); a hit after a walk counts
    80% (the walk may be blocked, the cell may be taken)."""
    summons = summon_entry.spell.summons or ""
    cost = summon_entry.cost
    board = ctx.board
    los = board.los_path[cell]
    best: tuple[float, float, int, int] | None = None
    boosts = ctx.boosts
    worths = ctx.summon_worth
    for entry in castable:
        index, spell, hit_cost, needs_los, table = (
            entry.index,
            entry.spell,
            entry.cost,
            entry.needs_los,
            entry.table,
        )
        if entry.kind != "attack" or cost + hit_cost > ap:
            continue
        boosted = boosts.get((index, summons))
        if boosted is None:
            boosted = boosts[(index, summons)] = any(
                e.kind == "bonus_per_adjacent_summon" and e.params["summon"] == summons for e in spell.effects
            )
        if not boosted:
            continue
        reach = table[cell]
        top = 1 if spell.range_type == "melee" else spell.range_max
        for target in ctx.targets:
            t, victim = target.cell, target.piece
            if target.bomb or (gone >> target.uid) & 1 or not victim.is_krosmaster:
                continue
            here = bool((reach >> t) & 1) and not (needs_los and los[t] & ctx.blockers)
            if not here and board.distance[cell][t] > mp_left + top:
                continue
            spots = free & board.neighbour_mask[t]
            if not spots:
                continue
            x = (spots & -spots).bit_length() - 1
            if not here and not _can_step_in(ctx, cell, t, x, top, mp_left):
                continue
            alone = worths.get((summons, x))
            if alone is None:  # the same wherever we cast from (see summon_value)
                alone = worths[(summons, x)] = summon_value(weights, ctx, summons, x, cell, ap - cost)
            hit = attack_value(weights, ctx, spell, victim, cell, remaining, [*planned, (summons, x)])
            density = (alone + (hit if here else 0.8 * hit)) / (cost + hit_cost)
            if best is None or density > best[0] + 1e-9:
                best = (density, alone, x, 0) if here else (density, alone + 0.8 * hit, x, hit_cost)
    return best


def _can_step_in(ctx: _Context, cell: int, target: int, summon_cell: int, top: int, mp_left: int) -> bool:
    """Whether, once a summon stands on ``summon_cell``, a free cell within ``top`` of ``target`` lies
    within ``mp_left`` steps of ``cell`` (distances only: a rough but cheap test)."""
    row = ctx.board.distance[cell]
    near = ctx.geo.ring_mask(target, 1, top) & ~ctx.occupied & ~(1 << summon_cell)
    while near:
        low = near & -near
        c = low.bit_length() - 1
        if row[c] <= mp_left:
            return True
        near ^= low
    return False


def heal_value(
    weights: Weights, ctx: _Context, index: int, spell: SpellSpec, ally: FighterView, mine: bool
) -> float:
    """Worth of healing ``ally`` once (more when it is in danger), cached per pass."""
    key = (index, ally.uid)
    value = ctx.heals.get(key)
    if value is None:
        healed, _ = scoring.attack_odds(ctx.view, ctx.me, spell, ally)
        danger = 0.0 if mine else ctx.threat.at(ally.cell)
        value = weights.heal * healed * (1.0 + 0.5 * scoring.ko_risk(danger, ally.remaining_hp))
        ctx.heals[key] = value
    return value


def attack_value(
    weights: Weights,
    ctx: _Context,
    spell: SpellSpec,
    target: FighterView,
    cell: int,
    remaining: dict[int, float],
    planned: list[tuple[str, int]],
) -> float:
    view, me, w = ctx.view, ctx.me, weights
    if target.kind == "bomb":
        key = ("bomb", spell.id, target.uid)
        ko = ctx.values.get(key)
        if ko is None:
            ko = ctx.values[key] = scoring.attack_odds(view, me, spell, target)[1]
        # a swap (Assault) puts the bomb where we cast from, and us where it stood (R-A95)
        swaps = any(e.kind == "swap_places" for e in spell.effects)
        at, ours = (cell, target.cell) if swaps else (target.cell, cell)
        blast = ctx.blast(at)
        if target.team == ctx.team and target.placed_turn < view.turn:
            blast *= 0.2  # our bomb goes off this turn anyway (R-A112): only the timing is ours
        if (view.board.square_mask[at] >> ours) & 1:
            armour = 2 if me.has("armour") else 1
            hurt, dies = scoring.hit_odds(1, 1, armour, 0, me.remaining_hp)
            blast -= hurt + 0.3 + dies * ctx.my_worry
        return ko * blast
    left = remaining.get(target.uid)
    hp_left = target.remaining_hp if left is None else max(1, round(left))
    extra = 0
    if planned:
        near = view.board.neighbour_mask[target.cell]
        extra = sum(1 for _, x in planned if (near >> x) & 1)
    cached = ctx.values.get((spell.id, target.uid, hp_left, extra))
    if cached is not None:
        return cached
    hurt, ko = scoring.attack_odds(view, me, spell, target, hp_left, extra)
    lost = 1.0 - hp_left / max(1, target.hp)
    value: float = w.damage * hurt * (1.0 + w.focus * lost) + w.kill * ko * scoring.kill_value(view, target)
    for effect in spell.effects:
        if effect.kind == "lifesteal" and me.injuries > 0:
            value += 0.5 * min(hurt, me.injuries)
        elif effect.kind == "push" and w.kite:
            value += 0.3
    if not target.is_krosmaster:
        value *= 0.6
    if target.uid == ctx.team_target:
        # the team's target this turn: each injury is worth its share of the KO the team can make
        value += w.team * ctx.team_value * hurt
    if spell.limit == "game":
        # a once-per-game spell spent here is not there for a Krosmaster later
        value -= w.keep_limited * w.damage * scoring.average_hit(spell, me.has("critical"))
    ctx.values[(spell.id, target.uid, hp_left, extra)] = value
    return value


def summon_value(weights: Weights, ctx: _Context, summon: str, x: int, cell: int, ap_left: int) -> float:
    """Worth of a new ``summon`` on ``x`` (neither the casting ``cell`` nor ``ap_left`` matters; keep
    :func:`summon_groups` in step when this changes): the token's worth, the summoner's bonus when
    it stands next to an enemy Krosmaster (To Fu Ti, Gobbolob), the hit a creature makes at once (it
    acts right after its summoner, R-A31), less the blast of a bomb about to go off around ``x``."""
    if summon == "water_bomb":
        return 0.6 * ctx.blast(x) if (ctx.near_enemies >> x) & 1 else 0.0
    return _placed_worth(weights, ctx, summon, x, _summon_traits(ctx, summon))


#: what a summon's worth reads of its card and its summoner (see :func:`_summon_traits`)
_Traits = tuple[float, int, float, int]


def _summon_traits(ctx: _Context, summon: str) -> _Traits:
    """What :func:`summon_value` reads of a (non-bomb) summon, the same on every cell: (the token's
    worth, its summoner's damage bonus per adjacent token, the worth of the hit the creature makes
    at once, and the cells it walks and strikes over, -1 when it strikes no enemy Krosmaster)."""
    bonus = _bonus_for(ctx.me, summon)
    strike_worth = 0.0
    reach = -1
    spec = ctx.view.summon_spec(summon)
    if spec is not None and spec.kind == "creature" and ctx.enemy_kros:
        options = scoring._attack_options(spec.spells, spec.ap, "critical" in {p.kind for p in spec.powers})
        if options:
            strike_worth, spell, _ = options[0]
            top = 1 if spell.range_type == "melee" else spell.range_max
            reach = spec.mp + top
    return scoring.SUMMON_WORTH.get(summon, 0.5), bonus, strike_worth, reach


def _placed_worth(weights: Weights, ctx: _Context, summon: str, x: int, traits: _Traits) -> float:
    """:func:`summon_value` of a non-bomb ``summon`` on ``x``, given its :func:`_summon_traits`."""
    w = weights
    worth, bonus, strike_worth, reach = traits
    value = w.summon * worth
    near_enemy = ctx.board.neighbour_mask[x] & ctx.enemy_kros_mask
    if bonus and near_enemy:
        # the bonus serves again next turn (this turn's boosted hit is valued with the hit itself,
        # see _summon_then_hit)
        value += 0.5 * w.support * bonus
    if reach >= 0 and ctx.nearest_kros[x] <= reach:
        value += 0.5 * w.damage * strike_worth
    if (ctx.bomb_cells >> x) & 1:
        value -= w.summon * worth + 0.5
    if not ctx.enemies:
        value *= 0.5
    return value


def landing(ctx: _Context, spell: SpellSpec, cell: int, target: int) -> int:
    """Where a spell that moves its caster (Retreat, Approach: special movement, R-A83/R-A84) leaves
    a caster casting it from ``cell`` on ``target``: it slides cell by cell and stops before an
    obstacle or the edge (R-A87)."""
    board = ctx.board
    obstacles = ctx.occupied & ~(1 << cell)
    end = cell
    for effect in spell.effects:
        if effect.kind == "retreat":
            step = board.direction(target, end)
        elif effect.kind == "approach":
            step = board.direction(end, target)
        else:
            continue
        if step is None:
            continue
        for _ in range(int(effect.params.get("cells", 1))):
            nxt = board.step(end, step[0], step[1])
            if nxt < 0 or (obstacles >> nxt) & 1:
                break
            end = nxt
    return end
