"""What the search AIs share: the heuristic proposes an activation's plans, a search picks one.

``lookahead`` and ``mcts`` differ only in how they judge the plans (:meth:`PlanSearchAI.choose_plan`);
the rest is this base: deployment and tension follow the heuristic; at the start of each Krosmaster's
activation the heuristic (``base``, the kiter's planner by default) offers its ``candidates`` best
plans, the search chooses, and the heuristic replays the chosen plan (replanning on surprises);
a creature's activation plays the heuristic's own plan. ``model`` is the heuristic that plays the
opponent in rollouts, sharing the base's caches. ``alternatives`` (off: none) are further heuristics
whose ``alt_plans`` best plans join the base's for a Krosmaster (:func:`union_of_plans`): plans the
base does not propose, judged by the same search and replayed by the base.
"""

from __future__ import annotations

import numpy as np

from krosbalance.ai.base import AI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.plan_search import Plan
from krosbalance.ai.planner import END_ACTION, HeuristicAI
from krosbalance.engine.legal import Action
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.tension import TensionChoice


class PlanSearchAI(AI):
    """The heuristic's plans, one chosen per Krosmaster activation (see the module docstring)."""

    name = "plan_search"
    rulesets = ("arena",)  # the Arena planner's candidates and evaluation
    two_players_only = True  # the searches' leaf evaluations score one side against the other

    def __init__(
        self,
        rng: np.random.Generator,
        candidates: int,
        base: type[HeuristicAI] = KiterAI,
        model: type[HeuristicAI] = KiterAI,
    ) -> None:
        super().__init__(rng)
        self.candidates = candidates
        self.base = base(rng)
        self.model = model(rng)
        self.model.share_caches(self.base)
        self.alternatives: list[HeuristicAI] = []
        self.alt_plans = 1
        self._key: tuple[int, int] = (-1, -1)
        self.rollouts = 0  # rollouts played so far (for benchmarks)
        self.searches = 0  # activations decided by rollouts

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        return self.base.choose_deployment(view, fighters, cells)

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        return self.base.choose_tension(view, raw, options)

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None:
            return END_ACTION
        key = (view.turn, me.uid)
        if key != self._key:
            self._key = key
            self.base.begin(view, me)
            for alternative in self.alternatives:
                alternative.begin(view, me)
            keep = self.candidates if me.is_krosmaster else 1  # a creature: the heuristic's plan
            plans = self.base.candidates(view, me, keep)
            if me.is_krosmaster and self.alternatives:
                offered = [a.candidates(view, me, self.alt_plans) for a in self.alternatives]
                plans = union_of_plans(plans, offered)
            plan = plans[0] if len(plans) == 1 else self.choose_plan(view, me, plans)
            self.base.adopt(plan)
        return self.base.choose_action(view)

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """The plan to play among several (the heuristic's order); a search overrides this."""
        return plans[0]


def union_of_plans(plans: list[Plan], offered: list[list[Plan]]) -> list[Plan]:
    """The base's ``plans`` (first, in its order), then each alternative's plans in order, a plan
    left out when one with the same steps and walk is already in. An alternative's plan is valued at
    the lowest of the base's values, so the prior never favours a plan for coming from another
    heuristic (the values of two heuristics are not on one scale)."""
    floor = min(p.value for p in plans)
    seen = {_signature(p) for p in plans}
    union = list(plans)
    for extra in offered:
        for plan in extra:
            signature = _signature(plan)
            if signature not in seen:
                seen.add(signature)
                union.append(Plan(list(plan.steps), floor, list(plan.route)))
    return union


def _signature(plan: Plan) -> tuple[object, ...]:
    return (tuple((s.kind, s.arg, s.target) for s in plan.steps), tuple(plan.route))
