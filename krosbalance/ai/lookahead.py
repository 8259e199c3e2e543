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
default). A two-player match is played exactly as without the flag. In a free-for-all (every seat
its own partnership) three knobs apply, two versus two left as it is: ``ffa_rounds`` rounds of the
other seats' turns (this seat's own turns between them by a fork of the base), ``ffa_dice_sets``
dice sets per plan (0: ``dice_sets``) and ``ffa_own``, the weight of the seat's own worth in the
leaf (``evaluate_sides``'s ``own``).
"""

from __future__ import annotations

import numpy as np

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.evaluation import evaluate, evaluate_sides, free_for_all
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
        ffa_rounds: int = 1,
        ffa_dice_sets: int = 0,
        ffa_own: float = 1.0,
    ) -> None:
        super().__init__(rng, candidates, base, model)
        if ffa_rounds < 1 or ffa_dice_sets < 0:
            raise ValueError(
                f"ffa_rounds must be positive and ffa_dice_sets not negative, got {ffa_rounds}, {ffa_dice_sets}"
            )
        self.dice_sets = dice_sets
        self.four_players = four_players
        self.against = against
        self.prior = prior
        self.ffa_rounds = ffa_rounds
        self.ffa_dice_sets = ffa_dice_sets
        self.ffa_own = ffa_own

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """The plan with the best total evaluation over the shared dice sets (ties: the heuristic's
        order)."""
        self.searches += 1
        sets = self.dice_sets
        if self.four_players and self.ffa_dice_sets and free_for_all(view.n_seats, view.team_of):
            sets = self.ffa_dice_sets
        dice = [self.rng.integers(0, 6, size=FACES_PER_SET).tolist() for _ in range(sets)]
        best, best_value = plans[0], -1e18
        for plan in plans:
            mean = plain_sum(self._rollout(view, me, plan, faces) for faces in dice) / len(dice)
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
        """Four players: every other seat's turn until ``side`` is to play again, each seat by its own
        fork of the model; in a free-for-all ``ffa_rounds`` such rounds, ``side``'s own turns between
        them by a fork of the base. The copy is scored for the partnership."""
        rounds = self.ffa_rounds if free_for_all(state.n_seats, state.team_of) else 1
        models: dict[int, HeuristicAI] = {}
        round_ = 1
        for _ in range(rounds * state.n_seats - 1):
            if state.finished:
                break
            seat = state.active_side
            if seat == side:
                if round_ >= rounds:
                    break
                round_ += 1
            if seat not in models:
                models[seat] = self.base.fork() if seat == side else self.model.fork()
            play_turn(state, models[seat])
        return evaluate_sides(state, side, self.base._threat_cache, self.against, own=self.ffa_own)
