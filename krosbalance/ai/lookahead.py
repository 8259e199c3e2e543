"""Lookahead: the heuristic's best few plans, each tried on copies of the match and judged after the
opponent's reply.

At the start of each Krosmaster's activation, the AI asks its heuristic (the kiter's planner by
default) for its ``candidates`` best plans (:meth:`HeuristicAI.candidates`: distinct casts or end
cells). Each plan is played on ``dice_sets`` copies of the match (``MatchView.clone_state``: what
this side may see, with the AI's own dice, never the match's), each copy continuing with the
heuristic for the rest of the team's turn and a heuristic model of the opponent (the kiter) for
its whole reply; the copies are then scored by :func:`.evaluation.evaluate` (GG at the score,
material, KO threats, kamas). Every plan meets the same pre-drawn dice (common random numbers), so
the comparison measures the plans, not their luck. The plan with the best mean evaluation plus
``PRIOR`` times the heuristic's own value of it (which settles near-ties) is played;
replanning on surprises follows the heuristic. Creatures, deployment and tension follow the
heuristic.

The budget is a count: ``candidates x dice_sets`` rollouts per Krosmaster activation (plus none when
the heuristic offers a single plan), never a time, so a match stays a pure function of its seed.
Named budgets are registered in :mod:`.registry` (``lookahead-fast``, ``lookahead``).

**Four players** (R-A150-R-A159; ``four_players``, registered as ``lookahead-4p``): the rollout
plays the rest of the team's turn, then every other seat's turn until this seat is to play again,
each seat by its own fork of the model (an opponent model per seat; in two versus two the ally's
seat is played by the same heuristic, which treats it as a partner), and the copy is scored by
:func:`.evaluation.evaluate_sides`: the partnership against ``against`` of the others (``sum`` by
default). A two-player match is played exactly as without the flag.
"""

from __future__ import annotations

import numpy as np

from krosbalance.ai.evaluation import evaluate, evaluate_sides
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.plan_choice import PlanSearchAI
from krosbalance.ai.plan_search import Plan
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.rollout import ReplayDice, finish_team_turn, play_turn
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import FighterView, MatchView

#: raw faces pre-drawn per dice set (a rollout that rolls more cycles through them)
FACES_PER_SET = 512
#: weight of the heuristic's own value of a plan, added to its mean rollout evaluation: a prior that
#: settles near-ties (a few rollouts are noisy) in the heuristic's favour
PRIOR = 0.5


class LookaheadAI(PlanSearchAI):
    """Heuristic plans judged by rollouts on copies of the match (see the module docstring)."""

    name = "lookahead"
    rulesets = ("arena",)  # the Arena planner's candidates and evaluation
    two_players_only = True  # its leaf evaluation (ai/evaluation.py) scores one side against the other

    def __init__(
        self,
        rng: np.random.Generator,
        candidates: int = 4,
        dice_sets: int = 2,
        base: type[HeuristicAI] = KiterAI,
        model: type[HeuristicAI] = KiterAI,
        four_players: bool = False,
        against: str = "sum",
        prior: float = PRIOR,
    ) -> None:
        super().__init__(rng, candidates, base, model)
        self.dice_sets = dice_sets
        self.four_players = four_players
        self.against = against
        self.prior = prior

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """The plan with the best total evaluation over the shared dice sets (ties: the heuristic's
        order)."""
        self.searches += 1
        dice = [self.rng.integers(0, 6, size=FACES_PER_SET).tolist() for _ in range(self.dice_sets)]
        best, best_value = plans[0], -1e18
        for plan in plans:
            mean = sum(self._rollout(view, me, plan, faces) for faces in dice) / len(dice)
            total = mean + self.prior * plan.value
            if total > best_value + 1e-9:
                best, best_value = plan, total
        return best

    def _rollout(self, view: MatchView, me: FighterView, plan: Plan, faces: list[int]) -> float:
        """Play ``plan`` on a copy, then the rest of the turn and the opponent's reply; evaluate."""
        self.rollouts += 1
        side = view.side
        state = view.clone_state(ReplayDice(faces))
        fighter = next(f for f in state.fighters if f.uid == me.uid)
        mine = self.base.fork()
        mine.adopt(plan)
        finish_team_turn(state, fighter, mine, MatchView(state, side))
        if self.four_players and state.n_seats > 2:
            return self._replies(state, side)
        play_turn(state, self.model.fork())
        return evaluate(state, side, self.base._threat_cache)

    def _replies(self, state: MatchState, side: int) -> float:
        """Four players: every other seat's turn until ``side`` is to play again (at most one round),
        each seat by its own fork of the model; the copy scored for the partnership."""
        models: dict[int, HeuristicAI] = {}
        for _ in range(state.n_seats - 1):
            if state.finished or state.active_side == side:
                break
            seat = state.active_side
            if seat not in models:
                models[seat] = self.model.fork()
            play_turn(state, models[seat])
        return evaluate_sides(state, side, self.base._threat_cache, self.against)
