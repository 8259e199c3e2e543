"""What a cast is worth to the heuristic planner: an attack (:func:`attack_value`), a heal
(:func:`heal_value`) and a summon (:func:`summon_value`, :func:`summon_groups`), in injury units
(:mod:`krosbalance.ai.scoring`).

The cast search (:mod:`krosbalance.ai.casts`) asks for the same (spell, target) pair from many
cells, so the valuations are cached on the pass's :class:`.context._Context`: a Krosmaster's
first hit, a bomb's worth by cell, a summon's groups of cells of equal worth.
"""

from __future__ import annotations

from krosbalance.ai import enemy_threat, scoring
from krosbalance.ai.context import _bonus_for, _Context
from krosbalance.ai.weights import Weights
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import FighterView


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


def heal_value(
    weights: Weights, ctx: _Context, index: int, spell: SpellSpec, ally: FighterView, mine: bool
) -> float:
    """Worth of healing ``ally`` once (more when it is in danger), cached per pass."""
    key = (index, ally.uid)
    value = ctx.heals.get(key)
    if value is None:
        healed, _ = scoring.attack_odds(ctx.view, ctx.me, spell, ally)
        danger = 0.0 if mine else ctx.threat.at(ally.cell)
        value = weights.heal * healed * (1.0 + 0.5 * enemy_threat.ko_risk(danger, ally.remaining_hp))
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
        value -= w.keep_limited * w.damage * enemy_threat.average_hit(spell, me.has("critical"))
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
        options = enemy_threat._attack_options(
            spec.spells, spec.ap, "critical" in {p.kind for p in spec.powers}
        )
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
