"""A duel Krosmaster's activation as a plan: what a search (``ai/duel/lookahead.py``) chooses among.

The duel planner (``ai/duel/planner.py``) decides one action at a time and has no plans of its own,
so a plan here is an intent the planner then carries out:

- the **base** plan is the planner itself, every decision its own (the search always offers it, so it
  can never do worse than the heuristic by leaving it out);
- a **walk** plan goes to an end cell by a shortest route first, then acts where it stands (the
  planner without moves: a token pick-up, casts, the end);
- a **hit-and-walk** plan casts from where it stands first (the planner's casts while any is worth
  it), then walks to its end cell and acts there with what is left.

The end cells offered are the planner's best few (``Planner.end_cells``, its own values), so a plan
differs from the heuristic only by where it ends and whether it strikes before walking. A plan's
``value`` is the planner's value of its end cell: the search adds a share of it as a prior.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from krosbalance.ai.duel.planner import EPS, Planner
from krosbalance.content.specs import Frozen
from krosbalance.engine.legal import CAST, END, MOVE, Action

if TYPE_CHECKING:
    from krosbalance.ai.duel.planner import DuelWeights
    from krosbalance.engine.view import MatchView

BASE, WALK, HIT_AND_WALK = "base", "walk", "hit-and-walk"


@dataclass(frozen=True, slots=True)
class DuelPlan(Frozen):
    """One intent for an activation (see the module docstring): ``kind``, the end cell ``goal``
    (-1 for the base plan), the cell it starts from and the planner's value of it."""

    kind: str
    goal: int
    start: int
    value: float


def candidate_plans(view: MatchView, weights: DuelWeights, walks: int, bands: int = 0) -> list[DuelPlan]:
    """The base plan, then a walk plan to each of the planner's ``walks`` best end cells (ties:
    breadth-first order) and to the best end cell at each of the ``bands`` nearest distances from
    the enemy Krosmasters not among them (so that keeping away is offered beside closing in), then
    a hit-and-walk plan to each when a cast is worth making from where the active Krosmaster
    stands and the end cell is elsewhere."""
    planner = Planner(view, weights)
    me = planner.me
    cells = (
        planner.end_cells() if me.mp > 0 and not me.blocked else [(me.cell, planner.cell_value(me.cell), -1)]
    )
    ranked = sorted(range(len(cells)), key=lambda i: (-cells[i][1], i))[:walks]
    best = cells[ranked[0]][1]
    if bands and planner.enemy_krosmasters:
        distance = view.board.distance
        best_at: dict[int, int] = {}  # distance to the nearest enemy Krosmaster -> best cell's index
        for i, (cell, value, _) in enumerate(cells):
            d = min(distance[cell][e.cell] for e in planner.enemy_krosmasters)
            if d not in best_at or value > cells[best_at[d]][1] + EPS:
                best_at[d] = i
        ranked.extend(i for _, i in sorted(best_at.items())[:bands] if i not in ranked)
    plans = [DuelPlan(BASE, -1, me.cell, best)]
    plans.extend(DuelPlan(WALK, cells[i][0], me.cell, cells[i][1]) for i in ranked)
    if any(planner.cast_value(a) > EPS for a in view.legal_actions() if a.kind == CAST):
        plans.extend(
            DuelPlan(HIT_AND_WALK, cells[i][0], me.cell, cells[i][1])
            for i in ranked
            if cells[i][0] != me.cell
        )
    return plans


def plan_action(view: MatchView, weights: DuelWeights, plan: DuelPlan) -> Action:
    """The next action of ``plan`` for the active Krosmaster."""
    planner = Planner(view, weights)
    if plan.kind == BASE:
        return planner.decide()
    me = planner.me
    if plan.kind == HIT_AND_WALK and me.cell == plan.start:
        action = planner.decide(may_move=False)
        if action.kind != END:
            return action
    if me.cell != plan.goal and me.mp > 0 and not me.blocked:
        step = first_step(view, me.cell, plan.goal, me.mp)
        if step >= 0:
            move = Action(MOVE, -1, step)
            if view.is_legal(move):
                return move
    return planner.decide(may_move=False)


def first_step(view: MatchView, start: int, goal: int, mp: int) -> int:
    """The first cell of a shortest walk of at most ``mp`` cells from ``start`` to ``goal`` around
    the obstacles (breadth-first in the board's neighbour order), or -1 when there is none."""
    board = view.board
    obstacles = view.obstacles
    first = {start: -1}
    dist = {start: 0}
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        if dist[cell] >= mp:
            continue
        for nxt in board.neighbours[cell]:
            if (obstacles >> nxt) & 1 or nxt in dist:
                continue
            dist[nxt] = dist[cell] + 1
            first[nxt] = nxt if cell == start else first[cell]
            if nxt == goal:
                return first[nxt]
            frontier.append(nxt)
    return -1
