"""Where to end an activation: the worth of standing on a cell, and of its kamas and Demon cell.

The plan search (:mod:`.plan_search`) scores every reachable end cell with these; a personality
weighs safety, approach, kiting, support and objectives through its :class:`.weights.Weights`
(and may extend :meth:`HeuristicAI.position_value`, which calls :func:`position_value`).
"""

from __future__ import annotations

from krosbalance.ai import scoring
from krosbalance.ai.context import _Context
from krosbalance.ai.scoring import GG_UNIT
from krosbalance.ai.weights import Weights


def position_value(weights: Weights, ctx: _Context, cell: int) -> float:
    """Worth of ending the activation on ``cell`` (kamas aside): safety, distance to enemies,
    support, objectives (personalities extend it through ``HeuristicAI.position_value``)."""
    w = weights
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
        value -= w.objective * objective_distance(ctx, cell)
    return value


def objective_distance(ctx: _Context, cell: int) -> float:
    """How far ``cell`` is from what the economy wants next: a Demon cell when GG are nearly
    affordable, else kamas, else any Demon cell (0 with neither on the board)."""
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


def economy_value(weights: Weights, ctx: _Context, cell: int, ap_left: int) -> float:
    """Kamas picked up and GG bought on ``cell`` with the AP left (R-A49, R-A50)."""
    me, view = ctx.me, ctx.view
    if ap_left <= 0 or not me.is_krosmaster:
        return 0.0
    picks = min(view.kamas_at(cell), ap_left)
    value = weights.kama * picks
    on_demon = (ctx.board.demon_cells >> cell) & 1
    if on_demon and ap_left > picks and view.kamas[ctx.side] + picks >= view.gg_price:
        value += GG_UNIT * scoring.gg_swing(view, ctx.side, 1) + 0.5
    return value
