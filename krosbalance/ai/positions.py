"""Where to end an activation: the worth of standing on a cell, and of its kamas and Demon cell.

The plan search (:mod:`.plan_search`) scores every reachable end cell with these; a personality
weighs safety, approach, kiting, support and objectives through its :class:`.weights.Weights`
(and may extend :meth:`HeuristicAI.position_value`, which calls :func:`position_value`).

- **Danger**: the injuries the enemy could deal there next turn (:func:`.enemy_threat.threat_map`, line
  of sight and range bonuses included), and the chance they KO us times what the KO would cost at
  the current score; plus the blast of any bomb about to go off around the cell, ours included.
- **Melee figures** (:func:`.context.is_melee`) weigh their danger at most ``melee_safety`` and value
  standing next to enemies: the pin (the enemy's chance of being blocked when it walks away, times
  what it loses) and the strike they make next turn without walking (:meth:`_Context.engagement`).
- **Cover**: a melee figure's body on the line between an enemy that shoots and one of our
  Krosmasters blocks it (``screen`` times half the shooter's output, doubled for a wounded
  Krosmaster).
- **Economy** (:func:`economy_value`): kamas picked up on the end cell and on the way there, and
  every GG the kamas then buy on a Demon cell, each valued at the score it is bought at; buying
  changes the score, so the KO risk of the cell is re-priced at the new score. While the team can
  afford a GG, its buyer (the Krosmaster fewest turns from a Demon cell, the healthiest on ties) is
  drawn toward the Demon cells: ``economy`` times the GG's worth, a quarter less per turn of walking.
- **Denial** (``deny``, the ``-2`` AIs): an occupied cell cannot be entered (R-A40), so ending on
  the only Demon cell an enemy Krosmaster can walk to next turn, while its team holds the GG price,
  stops that purchase (R-A50): the cell is worth the purchase to the opponent at today's score
  (:func:`purchase_denial`), the match when it would win it.
"""

from __future__ import annotations

from krosbalance.ai import enemy_threat, scoring
from krosbalance.ai.context import _Context
from krosbalance.ai.scoring import GG_UNIT
from krosbalance.ai.weights import Weights


def position_value(weights: Weights, ctx: _Context, cell: int) -> float:
    """Worth of ending the activation on ``cell`` (kamas aside): safety, distance to enemies,
    engagement, support, objectives (personalities extend it through ``HeuristicAI.position_value``)."""
    w = weights
    value = 0.0
    danger = ctx.threat.at(cell)
    if danger > 0:
        left = ctx.hp_left
        hurt = danger if danger < left else left
        value -= ctx.safety * (0.5 * hurt + enemy_threat.ko_risk(danger, left) * ctx.my_worry)
    if (ctx.bomb_cells >> cell) & 1:
        value -= ctx.blast_danger(cell)
    if ctx.enemy_kros:
        near = ctx.nearest_kros[cell]
        short = near - ctx.strike
        value -= w.approach * (short if short > 0 else 0)
        if w.kite and not ctx.melee:
            value -= 0.02 * abs(near - ctx.hold)
        else:
            value -= 0.02 * near
    if ctx.pins:
        value += w.engage * ctx.engagement(cell)
    if w.screen:
        value += w.screen * ctx.screen(cell)
    if ctx.support_bonus and ctx.board.neighbour_mask[cell] & ctx.enemy_kros_mask:
        value += w.support * ctx.support_bonus
    if w.deny and (ctx.board.demon_cells >> cell) & 1:
        value += w.deny * purchase_denial(ctx).get(cell, 0.0)
    if w.objective and ctx.is_krosmaster:
        value -= w.objective * objective_distance(ctx, cell)
    if ctx.buy_pull:
        # the team can afford a GG: a Demon cell this many turns' walk away brings it nearer
        turns = -(-ctx.nearest_demon[cell] // max(1, ctx.me.base_mp))
        value += w.economy * ctx.buy_pull * max(0.0, 1.0 - 0.25 * turns)
    return value


def objective_distance(ctx: _Context, cell: int) -> float:
    """How far ``cell`` is from what the economy wants next: a Demon cell when GG are nearly
    affordable, else kamas, else any Demon cell (0 with neither on the board)."""
    arena = ctx.arena
    if ctx.objective is None:
        # per cell, the distance to the nearest Demon cell and to the nearest kama (empty when
        # there are none, or restricted play forbids picking them up / buying there)
        kama_mask = 0
        if ctx.may_pick:
            for c in arena.kama_cells():
                kama_mask |= 1 << c
        demon_mask = ctx.board.demon_cells if ctx.may_buy else 0
        geo = ctx.geo
        ctx.objective = (
            geo.nearest(demon_mask) if demon_mask else [],
            geo.nearest(kama_mask) if kama_mask else [],
        )
    demons, kamas = ctx.objective
    if demons and arena.kamas[ctx.side] >= arena.gg_price - 2:
        return 1.5 * demons[cell]
    if kamas:
        return float(min(kamas[cell], 8))
    if demons:
        return 0.5 * demons[cell]
    return 0.0


def economy_value(weights: Weights, ctx: _Context, cell: int, ap_left: int, on_way: int = 0) -> float:
    """Kamas picked up (on ``cell`` and ``on_way`` on the walk there) and GG bought on ``cell`` with
    the AP left (R-A49, R-A50): see :func:`economy_plan`."""
    return economy_plan(weights, ctx, cell, ap_left, on_way)[0]


def economy_plan(
    weights: Weights, ctx: _Context, cell: int, ap_left: int, on_way: int = 0
) -> tuple[float, int]:
    """(worth, kamas to pick on the way) of the best use of ``ap_left`` AP for kamas and GG when the
    activation ends on ``cell``.

    Each kama picked is worth ``weights.kama``; on a Demon cell every GG the kamas can buy (after the
    pickups) is counted, each at the score it is bought at (:func:`.scoring.score_swing`, a GG that
    wins the match is worth the match), and the KO risk of standing there is re-priced at the score
    after the purchases (a KO that would have lost the match may no longer). Purchases come before
    extra pickups: AP is kept for them."""
    me, arena = ctx.me, ctx.arena
    if ap_left <= 0 or not me.is_krosmaster:
        return 0.0, 0
    here = arena.kamas_at(cell) if ctx.may_pick else 0
    picks_max = here + on_way if ctx.may_pick else 0
    on_demon = (ctx.board.demon_cells >> cell) & 1 if ctx.may_buy else 0
    if not on_demon:
        picks = min(picks_max, ap_left)
        return weights.kama * picks, max(0, picks - here)
    side = ctx.side
    stock = arena.kamas[side]
    price = arena.gg_price
    best = (weights.kama * min(picks_max, ap_left), max(0, min(picks_max, ap_left) - here))
    buys = 0
    gg, wild = arena.gg, arena.wild_gg
    team_of = ctx.view.team_of
    bought = 0.0
    while True:
        buys += 1
        need = max(0, buys * price - stock)  # kamas to pick before this many purchases
        if need > picks_max or need + buys > ap_left:
            break
        gain = scoring.score_swing(gg, wild, side, 1, -1, team_of)
        gg, wild = scoring.score_after(gg, wild, side, 1, -1, team_of)
        bought += GG_UNIT * gain + 0.5
        value = bought
        if gain >= scoring.WIN_VALUE:
            value = GG_UNIT * scoring.WIN_VALUE
        else:
            danger = ctx.threat.at(cell)
            if danger > 0 and ctx.my_worry > 0:
                # the KO risk here was priced at today's score; price it at the new one
                rival = scoring.rival(gg, team_of, side)
                worry = GG_UNIT * scoring.score_swing(gg, wild, rival, me.level, side, team_of)
                value += ctx.safety * enemy_threat.ko_risk(danger, ctx.hp_left) * (ctx.my_worry - worry)
        extra = min(picks_max - need, ap_left - need - buys)
        picks = need + extra
        value += weights.kama * extra
        if value > best[0]:
            best = (value, max(0, picks - here))
        if gain >= scoring.WIN_VALUE:
            break
    return best


def purchase_denial(ctx: _Context) -> dict[int, float]:
    """Per Demon cell, what ending there takes from the opponent next turn: the worth to it, at
    today's score, of the GG its kamas buy there (R-A50, ``GG_UNIT`` per GG; the match when a
    purchase wins it, :data:`.scoring.WIN_VALUE`), when that cell is the only free Demon cell an
    enemy Krosmaster can walk to with its printed MP (an occupied cell cannot be entered, R-A40).
    With two such cells, standing on one stops nothing. Kamas it could pick up on the way and Lock
    on its walk are not counted."""
    known = ctx.denial
    if known is not None:
        return known
    denial: dict[int, float] = {}
    ctx.denial = denial
    view, arena, side = ctx.view, ctx.arena, ctx.side
    demons = ctx.board.demon_cells & ~ctx.occupied  # a piece already on one stops it (we move)
    if not demons:
        return denial
    team_of = view.team_of
    for rival in view.opponents():
        buys = arena.kamas[rival] // max(1, arena.gg_price)
        if buys <= 0:
            continue
        reachable = 0
        most_ap = 0
        for enemy in view.krosmasters(rival):
            if not enemy.alive or enemy.cell < 0:
                continue
            cells = view.reachable_cells(enemy, int(enemy.base_mp))
            hits = [c for c in cells if (demons >> c) & 1]
            if hits:
                most_ap = max(most_ap, int(enemy.base_ap))
                for c in hits:
                    reachable |= 1 << c
        if not reachable or reachable & (reachable - 1):
            continue  # no Demon cell within its walk, or more than one: standing on one stops nothing
        cell = reachable.bit_length() - 1
        gg, wild = arena.gg, arena.wild_gg
        worth = 0.0
        for _ in range(min(buys, most_ap)):
            gain = scoring.score_swing(gg, wild, rival, 1, side, team_of)
            if gain >= scoring.WIN_VALUE:
                worth = GG_UNIT * scoring.WIN_VALUE
                break
            worth += GG_UNIT * gain
            gg, wild = scoring.score_after(gg, wild, rival, 1, side, team_of)
        denial[cell] = denial.get(cell, 0.0) + worth
    return denial
