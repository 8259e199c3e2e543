"""Which spells to cast from a cell.

For one casting cell of a plan the search (:mod:`.plan_search`) asks :func:`greedy_casts` for the
casts to make there, picked greedily by value per AP among attacks on enemies and bombs, heals on
injured allies and summons, each valued by :mod:`.cast_values`; a spell that moves its caster ends
the plan where the caster lands (:func:`landing`).
"""

from __future__ import annotations

from typing import Final, final

from krosbalance.ai import scoring
from krosbalance.ai.cast_values import attack_value, heal_value, summon_groups, summon_value
from krosbalance.ai.context import CastEntry, Target, _Context
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


@final
class _Casting:
    """What one call of :func:`greedy_casts` knows while it picks casts from one cell: the cell and
    the AP left, what this plan's casts have done so far, and what the rounds would ask again.

    Pieces taken out of play, spell indices used up and pieces healed are kept as bits over uids or
    indices (small ints: no set built per casting cell). ``aims`` holds, per castable entry, its
    targets in range and in sight from ``cell`` with their worth as a first hit (None until the
    entry is first looked at, always in the first round: AP only goes down and nothing is used up
    before a cast); ``sight_known``/``sight_ok`` are bits over the positions in ``ctx.targets``."""

    __slots__ = (
        "cell",
        "ap",
        "castable",
        "los",
        "blockers",
        "remaining",
        "gone",
        "used",
        "healed",
        "planned",
        "planned_mask",
        "steps",
        "total",
        "aims",
        "sight_known",
        "sight_ok",
        "free_here",
    )

    def __init__(self, ctx: _Context, cell: int, ap: int, castable: list[CastEntry]) -> None:
        self.cell: Final = cell
        self.ap = ap
        self.castable: Final = castable
        self.los: Final = ctx.board.los_path[cell]
        self.blockers: Final = ctx.blockers
        self.remaining: Final[dict[int, float]] = {}  # uid -> HP left after this plan's hits
        self.gone = 0
        self.used = 0
        self.healed = 0
        self.planned: Final[list[tuple[str, int]]] = []  # (summon id, cell) placed by this plan
        self.planned_mask = 0
        self.steps: Final[list[Step]] = []
        self.total = 0.0
        self.aims: Final[list[list[_Aim] | None]] = [None] * len(castable)
        self.sight_known = 0
        self.sight_ok = 0
        self.free_here = 0  # cells a summon may take from ``cell`` (0 until a summon asks)


@final
class _Pick:
    """The best cast of one round so far: its position in the castable entries (-1: none), its
    density (worth per AP), worth, target cell and kind (``attack``, ``virtual``: a hit on a bomb
    this plan placed, ``heal``, ``summon``), the piece an attack hits, and the AP a summon keeps for
    a boosted hit made after a walk."""

    __slots__ = ("position", "density", "value", "target", "kind", "victim", "reserved")

    def __init__(self) -> None:
        self.position = -1
        self.density = -1.0
        self.value = 0.0
        self.target = -1
        self.kind = ""
        self.victim: FighterView | None = None
        self.reserved = 0

    def beaten_by(self, density: float) -> bool:
        """Whether a cast of this density takes the place of the best so far (the first one met
        wins a tie)."""
        return self.position < 0 or density > self.density + 1e-9

    def take(
        self,
        position: int,
        density: float,
        value: float,
        target: int,
        kind: str,
        victim: FighterView | None = None,
        reserved: int = 0,
    ) -> None:
        """Make this cast the best so far."""
        self.position, self.density, self.value, self.target, self.kind = (
            position,
            density,
            value,
            target,
            kind,
        )
        self.victim = victim
        self.reserved = reserved


def greedy_casts(
    weights: Weights, ctx: _Context, cell: int, ap: int, bonus: int, mp_left: int = 0
) -> tuple[list[Step], float, int, int]:
    """Casts from ``cell`` chosen greedily by value per AP: (steps, value, AP left, end cell or -1).

    ``mp_left`` is the MP left on ``cell``: a summon placed there may set up a boosted hit made
    after a few more steps (the planner replans after the summon and walks).

    Each round scans the castable spells in order and takes the first best density. What the rounds
    would ask again is worked out once per call: per attack, the targets it reaches from ``cell``
    in sight with their worth as a first hit (a bomb's worth never changes within a call, see
    :func:`.cast_values.attack_value`; a Krosmaster's only once this plan has hit it or placed a
    summon next to it)."""
    reach_bonus = bonus + ((ctx.crates >> cell) & 1)
    castable = ctx.by_bonus.get(reach_bonus)
    if castable is None:
        castable = ctx.castable_with(reach_bonus)
    state = _Casting(ctx, cell, ap, castable)
    for _ in range(4):
        pick = _best_cast(weights, ctx, state, mp_left)
        if pick.position < 0:
            break
        end = _cast(ctx, state, pick)
        if end >= 0:
            return state.steps, state.total, state.ap, end
    return state.steps, state.total, state.ap, -1


def _best_cast(weights: Weights, ctx: _Context, state: _Casting, mp_left: int) -> _Pick:
    """One round of the greedy search: the castable entries in order, each offering its casts."""
    pick = _Pick()
    for position, entry in enumerate(state.castable):
        if entry.cost > state.ap or (entry.limited and (state.used >> entry.index) & 1):
            continue
        kind = entry.kind
        if kind == "attack":
            _offer_attacks(weights, ctx, state, pick, position, entry)
        elif kind == "heal":
            _offer_heals(weights, ctx, state, pick, position, entry)
        else:
            _offer_summons(weights, ctx, state, pick, position, entry, mp_left)
    return pick


def _aims(weights: Weights, ctx: _Context, state: _Casting, entry: CastEntry) -> list[_Aim]:
    """The targets an attack reaches from the casting cell, in sight, with their worth as a first
    hit. A Krosmaster's first-hit worth is the same from every cell, so it is cached on ``ctx``."""
    aimed: list[_Aim] = []
    cell = state.cell
    mask = entry.table[cell]
    if not mask & ctx.target_mask:
        return aimed
    los, blockers = state.los, state.blockers
    index, spell, needs_los = entry.index, entry.spell, entry.needs_los
    for i, candidate in enumerate(ctx.targets):
        t = candidate.cell
        if not (mask >> t) & 1:
            continue
        if needs_los:
            if not (state.sight_known >> i) & 1:
                state.sight_known |= 1 << i
                if not los[t] & blockers:
                    state.sight_ok |= 1 << i
            if not (state.sight_ok >> i) & 1:
                continue
        if candidate.bomb:
            first = attack_value(weights, ctx, spell, candidate.piece, cell, state.remaining, state.planned)
        else:
            # a first hit on an untouched target: the same from every cell
            key = index << 20 | candidate.uid
            cached = ctx.plain.get(key)
            if cached is None:
                first = ctx.plain[key] = attack_value(
                    weights, ctx, spell, candidate.piece, cell, state.remaining, state.planned
                )
            else:
                first = cached
        aimed.append(_Aim(candidate, first))
    return aimed


def _offer_attacks(
    weights: Weights, ctx: _Context, state: _Casting, pick: _Pick, position: int, entry: CastEntry
) -> None:
    """An attack's hits on the targets it reaches, then on the Water Bombs this plan placed."""
    aimed = state.aims[position]
    if aimed is None:
        aimed = _aims(weights, ctx, state, entry)
        state.aims[position] = aimed
    cell, cost, spell = state.cell, entry.cost, entry.spell
    gone, remaining, planned_mask = state.gone, state.remaining, state.planned_mask
    neighbours = ctx.board.neighbour_mask
    for aim in aimed:
        uid = aim.uid
        if (gone >> uid) & 1:
            continue
        if aim.bomb or (uid not in remaining and not (planned_mask and planned_mask & neighbours[aim.cell])):
            # not hit yet by this plan and no summon placed next to it: as a first hit
            value = aim.first
        else:
            value = attack_value(weights, ctx, spell, aim.piece, cell, remaining, state.planned)
        if value > 0.05 and pick.beaten_by(value / cost):
            pick.take(position, value / cost, value, aim.cell, "attack", aim.piece)
    if planned_mask and planned_mask & entry.table[cell]:
        _offer_virtual_hits(ctx, state, pick, position, entry)


def _offer_virtual_hits(ctx: _Context, state: _Casting, pick: _Pick, position: int, entry: CastEntry) -> None:
    """A hit on a Water Bomb this plan placed (a cell with no piece yet): a quarter of its blast."""
    mask = entry.table[state.cell]
    cost, needs_los, los, blockers = entry.cost, entry.needs_los, state.los, state.blockers
    for summon_id, x in state.planned:
        if summon_id == "water_bomb" and (mask >> x) & 1 and not (needs_los and los[x] & blockers):
            value = 0.25 * ctx.blast(x)
            if value > 0.05 and pick.beaten_by(value / cost):
                pick.take(position, value / cost, value, x, "virtual")


def _offer_heals(
    weights: Weights, ctx: _Context, state: _Casting, pick: _Pick, position: int, entry: CastEntry
) -> None:
    """A heal on each injured ally in range and in sight (on ourselves where we stand); an ally this
    plan healed already counts half."""
    cell, cost, index, spell = state.cell, entry.cost, entry.index, entry.spell
    mask = entry.table[cell]
    needs_los, los, blockers = entry.needs_los, state.los, state.blockers
    me_uid = ctx.me_uid
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
        if (state.healed >> ally.uid) & 1:
            value *= 0.5
        if value > 0.05 and pick.beaten_by(value / cost):
            pick.take(position, value / cost, value, t, "heal")


def _offer_summons(
    weights: Weights,
    ctx: _Context,
    state: _Casting,
    pick: _Pick,
    position: int,
    entry: CastEntry,
    mp_left: int,
) -> None:
    """A summon on a free cell in range while the summoner controls fewer than its limit: a Water
    Bomb cell by cell next to the enemies, any other creature on the best group of cells, alone or
    with the hit it boosts (:func:`_summon_then_hit`)."""
    spell, cost, ap, cell = entry.spell, entry.cost, state.ap, state.cell
    summons = spell.summons or ""  # never empty: `castable` keeps spells that summon
    planned = state.planned
    count = ctx.my_tokens.get(summons, 0)
    if planned:
        count += sum(1 for s, _ in planned if s == summons)
    if count >= spell.summon_control:
        return
    if not state.free_here:
        state.free_here = ~(ctx.occupied | (1 << cell))
    mask = entry.table[cell] & state.free_here
    if state.planned_mask:
        mask &= ~state.planned_mask
    if summons == "water_bomb":
        _offer_bomb_cells(weights, ctx, state, pick, position, entry, mask & ctx.near_enemies)
        return
    if not mask:
        return
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
        weights, ctx, entry, state.castable, cell, ap, mask, state.remaining, state.gone, planned, mp_left
    )
    if combo is not None and (single is None or combo[1] >= single[0]):
        # the pair is worth at least the summon alone: take it, at the better density
        density = max(combo[0], single[0] / cost if single is not None else 0.0)
        if pick.beaten_by(density):
            pick.take(position, density, combo[1], combo[2], "summon", reserved=combo[3])
    elif single is not None and pick.beaten_by(single[0] / cost):
        pick.take(position, single[0] / cost, single[0], single[1], "summon")


def _offer_bomb_cells(
    weights: Weights, ctx: _Context, state: _Casting, pick: _Pick, position: int, entry: CastEntry, mask: int
) -> None:
    """A Water Bomb on each free cell of ``mask`` (those next to an enemy), lowest first."""
    cost, summons = entry.cost, entry.spell.summons or ""
    bombs = ctx.bomb_values
    while mask:
        low = mask & -mask
        mask ^= low
        x = low.bit_length() - 1
        known = bombs.get(x)  # a bomb's worth depends on its cell only
        if known is None:
            value = bombs[x] = summon_value(weights, ctx, summons, x, state.cell, state.ap - cost)
        else:
            value = known
        if value > 0.2 and pick.beaten_by(value / cost):
            pick.take(position, value / cost, value, x, "summon")


def _cast(ctx: _Context, state: _Casting, pick: _Pick) -> int:
    """Make the round's pick in the plan: its step, worth and AP, and what it leaves behind (a summon
    placed, an ally healed, a target's HP). Returns the cell where the plan must end (a swap, a
    spell that moves its caster: replanning goes on from there), or -1 when it goes on."""
    entry = state.castable[pick.position]
    index, spell, kind, target = entry.index, entry.spell, pick.kind, pick.target
    state.ap -= entry.cost + (pick.reserved if kind == "summon" else 0)
    state.total += pick.value
    if entry.limited:
        state.used |= 1 << index
    state.steps.append(Step("cast", index, target))
    if kind == "summon":
        state.planned.append((spell.summons or "", target))
        state.planned_mask |= 1 << target
        return -1
    if kind == "heal":
        patient = ctx.me if target == state.cell else ctx.view.piece_at(target)
        if patient is not None:
            state.healed |= 1 << patient.uid
        return -1
    # an attack's target is the piece on its cell; a virtual hit's cell holds none yet
    piece = pick.victim if kind == "attack" else ctx.view.piece_at(target)
    if piece is not None and kind == "attack":
        uid = piece.uid
        hurt = ctx.hurts.get((index, uid))
        if hurt is None:
            hurt = ctx.hurts[(index, uid)] = scoring.attack_odds(ctx.view, ctx.me, spell, piece)[0]
        state.remaining[uid] = state.remaining.get(uid, float(piece.remaining_hp)) - hurt
        if entry.moves_target or piece.kind == "bomb":
            state.gone |= 1 << uid
    if entry.swaps and piece is not None:
        return target
    if entry.moves_caster:
        # Retreat/Approach moves us: the plan ends where we land (replanning goes on from there)
        return landing(ctx, spell, state.cell, target)
    return -1


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
