"""The choices outside an activation: where to deploy, and how to turn and give the tension dice.

Both read the view only (and the threat map the planner keeps), and both are deterministic: ties
follow cell order and the Timeline order of the Krosmasters.
"""

from __future__ import annotations

from krosbalance.ai import board_masks, enemy_threat
from krosbalance.ai.context import _reach
from krosbalance.ai.enemy_threat import ThreatMap
from krosbalance.ai.weights import Weights
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.engine.view import BLOCK_CHANCE, FighterView, MatchView
from krosbalance.rulesets.arena.tension import TensionChoice
from krosbalance.rulesets.arena.view import arena_view


def deployment_cells(view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
    """Melee Krosmasters on the cells nearest the enemy's deployment zone, ranged ones behind
    (ties: nearer the board's centre, then lower cell index)."""
    board = view.board
    if view.n_seats == 2:
        enemy_zone = board_masks.iter_bits(board.deploy[1 - view.side]) or [board.n_cells // 2]
    else:  # four players: every start zone but the one these cells belong to
        own = sum(1 << c for c in cells)
        enemy_zone = [c for zone in board.deploy if not zone & own for c in board_masks.iter_bits(zone)]
        enemy_zone = enemy_zone or [board.n_cells // 2]
    depth = {c: sum(board.distance[c][e] for e in enemy_zone) for c in cells}
    centre = board.cell(board.width // 2, board.height // 2)
    front = sorted(cells, key=lambda c: (depth[c], board.distance[c][centre], c))
    order = sorted(range(len(fighters)), key=lambda i: (_reach(fighters[i]), i))
    chosen = [-1] * len(fighters)
    for slot, i in enumerate(order):
        chosen[i] = front[slot]
    return chosen


def tension_choice(
    weights: Weights, view: MatchView, options: list[tuple[int, int]], threat: ThreatMap
) -> TensionChoice:
    """Make a double only when ahead in GG with the wild GG gone (each double then brings the
    opponent nearer 0 first, R-A26/R-A132); otherwise avoid it. Then give each die to the
    Krosmaster it helps most, or refund it for kamas when that is worth more (R-A27, R-A28)."""
    side = view.side
    arena = arena_view(view)
    gg = arena.gg
    mine, theirs = gg[side], max(gg[seat] for seat in view.opponents())
    want_double = arena.wild_gg == 0 and mine > theirs
    choices = [o for o in options if (o[0] == o[1]) == want_double] or options
    kros = [k for k in view.krosmasters(side) if k.alive and k.cell >= 0]
    worth = inspiration_worth(weights, view, kros, threat)
    # refund worth by dice given (2, 1 or 0 refunded), and each die's worth per Krosmaster for the
    # faces at hand, read once; the additions keep the order of a plain per-pair sum (same floats)
    refund = weights.refund
    refunds = (refund * 3, refund * 1, refund * 0)
    n = len(kros)
    best_value = 0.0
    best: tuple[tuple[int, int], int, int] | None = None
    for faces in choices:
        first, second = faces
        same = first == second
        firsts = [row[first] for row in worth]
        seconds = [row[second] for row in worth]
        for a in range(-1, n):
            start = 0.0
            if a >= 0:
                start += firsts[a]
            for b in range(-1, n):
                value = start
                used = 0 if a < 0 else 1
                if b >= 0:
                    if not (a == b and same):
                        value += seconds[b]
                    used += 1
                value += refunds[used]
                if best is None or value > best_value + 1e-9:
                    best_value = value
                    best = (faces, a, b)
    if best is None:
        return TensionChoice(choices[0], (-1, -1))
    faces, a, b = best
    return TensionChoice(faces, (kros[a].uid if a >= 0 else -1, kros[b].uid if b >= 0 else -1))


def inspiration_worth(
    weights: Weights, view: MatchView, kros: list[FighterView], threat: ThreatMap
) -> list[list[float]]:
    """Per Krosmaster, the estimated worth of each face's power until our next tension roll."""
    enemies = [f for f in view.enemies() if f.is_character]
    w = weights.inspire
    table: list[list[float]] = []
    for k in kros:
        row = [0.0, 0.0, 0.0, 0.0]
        near = board_masks.nearest_distance(view.board, k.cell, [e.cell for e in enemies])
        if not k.has("critical"):
            hits = 0.0
            for spell in k.spells:
                if spell.kind == "attack" and spell.element != "neutral" and spell.ap_cost:
                    hits = max(hits, k.base_ap // spell.ap_cost)
            engaged = 1.0 if near <= k.base_mp + _reach(k) + 1 else 0.3
            row[CRITICAL] = w * 0.45 * hits * engaged
        danger = threat.at(k.cell) if k.cell >= 0 else 0.0
        if not k.has("armour"):
            row[ARMOUR] = w * 0.28 * danger * (1.0 + enemy_threat.ko_risk(danger, k.remaining_hp))
        adjacent = 0
        lockers = 0.0
        for c in view.board.neighbours[k.cell]:
            piece = view.piece_at(c)
            if piece is not None and piece.team != k.team and piece.is_character and not piece.has("tiny"):
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
