"""``duel-lookahead``: the duel planner's plans, each tried on copies of the match and judged a few
game turns later (the Duel Pack's counterpart of Arena's ``ai/lookahead.py``).

At the start of each Krosmaster's activation the AI asks the duel planner for its plans
(:func:`.plans.candidate_plans`: its own decisions; walks to its ``walks`` best end cells and to its
best end cell at each of the ``bands`` nearest distances from the enemy, each with or without
striking first). Each plan is played on ``dice_sets`` copies of the match
(``MatchView.clone_state``: what this side may know, with the AI's own dice, never the match's),
each copy finishing the player's turn with the plan and then the planner (``ai/rollout.py``: the
Duel Pack plays Arena's Timeline, R-D40), then the opponent's whole reply (its token reveal
included) and ``turns`` more game turns, both sides played by ``duel_brawler``; the copies are then
scored by :func:`.evaluation.evaluate` (KO, HP, tokens, KO threats). Every plan meets the same
pre-drawn dice (common random numbers), so the comparison measures the plans, not their luck. The
plan with the best mean evaluation plus ``prior`` times the planner's value of its end cell is
played (the first on a tie: the base plan, which is always offered).

The budget is a count: up to ``1 + 2 x (walks + bands)`` plans times ``dice_sets`` rollouts per
Krosmaster activation (none when only one plan is offered), never a time, so a duel stays a pure
function of its seed. The registered budget (walks 2, bands 10, 8 dice sets, 2 more turns, no
prior) was screened against ``duel_brawler`` (``reports/ai-ladder-duel/``). The draft, token
holders, deployment, duel cells, reveals and creatures follow ``duel_brawler``. It plays one figure
a side and two (each Krosmaster's activation searched).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.duel.evaluation import evaluate
from krosbalance.ai.duel.planner import decide
from krosbalance.ai.duel.plans import DuelPlan, candidate_plans, plan_action
from krosbalance.ai.duel.players import DuelAI
from krosbalance.ai.rollout import ReplayDice, finish_team_turn, play_turn
from krosbalance.engine.view import MatchView

if TYPE_CHECKING:
    from krosbalance.engine.legal import Action

#: raw faces pre-drawn per dice set (a rollout that rolls more cycles through them)
FACES_PER_SET = 512
#: weight of the planner's own value of a plan, added to its mean rollout evaluation (screened:
#: 0.25 did no better than none, so the rollouts alone judge)
PRIOR = 0.0


class DuelLookaheadAI(DuelAI):
    """The duel planner's plans judged by rollouts on copies of the duel (see the module docstring)."""

    name = "duel-lookahead"
    rulesets = ("duel",)

    def __init__(
        self,
        rng: np.random.Generator,
        walks: int = 2,
        dice_sets: int = 8,
        prior: float = PRIOR,
        turns: int = 2,
        bands: int = 10,
    ) -> None:
        super().__init__(rng)
        self.turns = turns
        self.bands = bands
        self.walks = walks
        self.dice_sets = dice_sets
        self.prior = prior
        self.plan: DuelPlan | None = None
        self._key: tuple[int, int] = (-1, -1)
        self.rollouts = 0  # rollouts played so far (for benchmarks)
        self.searches = 0  # activations decided by rollouts

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None or not me.is_krosmaster:
            return decide(view, self.weights)
        key = (view.turn, me.uid)
        if key != self._key:
            self._key = key
            plans = candidate_plans(view, self.weights, self.walks, self.bands)
            self.plan = plans[0] if len(plans) == 1 else self.choose_plan(view, me.uid, plans)
        assert self.plan is not None
        return plan_action(view, self.weights, self.plan)

    def choose_plan(self, view: MatchView, uid: int, plans: list[DuelPlan]) -> DuelPlan:
        """The plan with the best mean evaluation over the shared dice sets plus the prior."""
        self.searches += 1
        dice = [self.rng.integers(0, 6, size=FACES_PER_SET).tolist() for _ in range(self.dice_sets)]
        best, best_value = plans[0], -1e18
        for plan in plans:
            mean = plain_sum(self._rollout(view, uid, plan, faces) for faces in dice) / len(dice)
            total = mean + self.prior * plan.value
            if total > best_value + 1e-9:
                best, best_value = plan, total
        return best

    def _rollout(self, view: MatchView, uid: int, plan: DuelPlan, faces: list[int]) -> float:
        """``plan`` on a copy, then the rest of the turn and the opponent's reply; evaluated."""
        self.rollouts += 1
        side = view.side
        state = view.clone_state(ReplayDice(faces))
        mine = PlanPlayer(self.rng, plan, uid)
        finish_team_turn(state, state.fighters[uid], mine, MatchView(state, side))
        play_turn(state, DuelAI(self.rng))
        for _ in range(self.turns):
            play_turn(state, DuelAI(self.rng))
        return evaluate(state, side)


class PlanPlayer(DuelAI):
    """A rollout's player on the searching side: ``plan`` for Krosmaster ``uid``'s activation under
    way, the duel planner for everything after it. It draws nothing from the stream it is given."""

    name = "duel-plan"

    def __init__(self, rng: np.random.Generator, plan: DuelPlan, uid: int) -> None:
        super().__init__(rng)
        self.plan = plan
        self.uid = uid

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is not None and me.uid == self.uid:
            return plan_action(view, self.weights, self.plan)
        return decide(view, self.weights)
