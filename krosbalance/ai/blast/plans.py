"""A Blast Krosmaster's activation as a plan: what the Blast search (``ai/blast/lookahead.py``)
chooses among.

The Blast planner (``ai/blast/planner.py``) decides one action at a time; a plan here is an intent
the planner then carries out (the duel search's plans, ``ai/duel/plans.py``, on Blast's planner):

- the **base** plan is the planner itself, every decision its own (always offered, first: the
  search judges the heuristic's own choice on the same dice as the others);
- a **walk** plan goes to an end cell first, by the planner's best walk there (the one capturing
  the most glyph cells on the way, through the tackle zones' odds), then acts where it stands (the
  planner without walks: casts, favors, Divine Challenge bonuses, the end);
- a **hit-and-walk** plan acts where it stands first (the planner without walks, while it finds
  anything worth doing), then walks to its end cell and acts there with what is left.

The end cells offered are the planner's ``walks`` best (its own values: captures on the way and the
end cell's worth) and its best at each of the ``bands`` nearest distances from the enemy
Krosmasters, so that keeping away, holding a glyph and closing in are all judged. A plan's ``value``
is the planner's value of its end cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from krosbalance.ai.blast.planner import EPS, Planner
from krosbalance.content.specs import Frozen
from krosbalance.engine.legal import CAST, END, MOVE, Action

if TYPE_CHECKING:
    from krosbalance.ai.blast.weights import BlastWeights
    from krosbalance.engine.view import MatchView

BASE, WALK, HIT_AND_WALK = "base", "walk", "hit-and-walk"


@dataclass(frozen=True, slots=True)
class BlastPlan(Frozen):
    """One intent for an activation (see the module docstring): ``kind``, the end cell ``goal``
    (-1 for the base plan), the cell it starts from and the planner's value of it."""

    kind: str
    goal: int
    start: int
    value: float


def candidate_plans(view: MatchView, weights: BlastWeights, walks: int, bands: int = 0) -> list[BlastPlan]:
    """The base plan, then a walk plan to each of the planner's ``walks`` best end cells (ties:
    breadth-first order) and to the best end cell at each of the ``bands`` nearest distances from
    the enemy Krosmasters not among them, then a hit-and-walk plan to each end cell other than the
    start when a cast is worth making from where the active Krosmaster stands."""
    planner = Planner(view, weights)
    me = planner.me
    if me.mp > 0 and not me.blocked:
        cells = [(p.end, p.value) for p in planner.walks(me.mp)]
    else:
        cells = [(me.cell, planner.stay_value())]
    ranked = sorted(range(len(cells)), key=lambda i: (-cells[i][1], i))[:walks]
    best = cells[ranked[0]][1]
    if bands and planner.enemy_krosmasters:
        distance = view.board.distance
        best_at: dict[int, int] = {}  # distance to the nearest enemy Krosmaster -> best cell's index
        for i, (cell, value) in enumerate(cells):
            d = min(distance[cell][e.cell] for e in planner.enemy_krosmasters)
            if d not in best_at or value > cells[best_at[d]][1] + EPS:
                best_at[d] = i
        ranked.extend(i for _, i in sorted(best_at.items())[:bands] if i not in ranked)
    plans = [BlastPlan(BASE, -1, me.cell, best)]
    plans.extend(BlastPlan(WALK, cells[i][0], me.cell, cells[i][1]) for i in ranked)
    if any(planner.cast_value(a) > EPS for a in view.legal_actions() if a.kind == CAST):
        plans.extend(
            BlastPlan(HIT_AND_WALK, cells[i][0], me.cell, cells[i][1])
            for i in ranked
            if cells[i][0] != me.cell
        )
    return plans


def plan_action(view: MatchView, weights: BlastWeights, plan: BlastPlan) -> Action:
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
        for walk in planner.walks(me.mp):
            if walk.end == plan.goal:
                move = Action(MOVE, -1, walk.first)
                if view.is_legal(move):
                    return move
                break
    return planner.decide(may_move=False)
