"""``blast-lookahead``: the Blast planner's plans, each tried on copies of the match and judged a
game turn or two later (the Blast counterpart of the Duel Pack's ``ai/duel/lookahead.py``).

At the start of each Krosmaster's activation the AI asks the Blast planner for its plans
(:func:`.plans.candidate_plans`: its own decisions; walks to its ``walks`` best end cells and to its
best end cell at each of the ``bands`` nearest distances from the enemy, each with or without acting
first). Each plan is played on ``dice_sets`` copies of the match (``MatchView.clone_state``: what
this side may know, with the AI's own dice, never the match's), each copy finishing the player turn
with the plan and then the planner in Blast's order (:func:`finish_player_turn`: the Krosmasters
that have not acted in the order the planner chooses, R-B10, then the Invocations, R-B11), then
the opponent's whole player turn (its new favor included, R-B9) and ``turns`` more, both sides
played by the base personality; the copies are then scored by :func:`.evaluation.evaluate` (KO,
HP, KO threats, glyph lead against the favor clock). Every plan meets the same pre-drawn dice
(common random numbers), so the comparison measures the plans, not their luck. The plan with the
best mean evaluation plus ``prior`` times the planner's value of its end cell is played (the first
on a tie: the base plan, which is always offered).

The budget is a count: up to ``1 + 2 x (walks + bands)`` plans times ``dice_sets`` rollouts per
Krosmaster activation (none when only one plan is offered), never a time, so a match stays a pure
function of its seed. The base personality (the planner's weights, the deployment, the favor slots,
who acts next) is ``blast_brawler``, the stronger Blast heuristic (57.9% of 800 matches against
``blast_glyph``, ``reports/ai-ladder-blast/``).

assumed: the copy does not hide the favor deck's order (Blast's ruleset state hides nothing from a
copy), so a rollout's new favors are the ones the match will reveal; a rollout looks at most a few
favors ahead and its players value favors only by their effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.blast.evaluation import evaluate
from krosbalance.ai.blast.planner import decide
from krosbalance.ai.blast.plans import BlastPlan, candidate_plans, plan_action
from krosbalance.ai.blast.players import BrawlerAI
from krosbalance.ai.rollout import ReplayDice, finish_activation, play_turn
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.blast.turn import in_chosen_order

if TYPE_CHECKING:
    from krosbalance.engine.legal import Action
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.blast.turn import BlastController

#: raw faces pre-drawn per dice set (a rollout that rolls more cycles through them)
FACES_PER_SET = 512
#: weight of the planner's own value of a plan, added to its mean rollout evaluation
PRIOR = 0.0


class BlastLookaheadAI(BrawlerAI):
    """The Blast planner's plans judged by rollouts on copies of the match (see the module
    docstring). It remembers which of its Krosmasters have acted in the current player turn (the
    match does not say), so a rollout finishes the turn with the others."""

    name = "blast-lookahead"
    rulesets = ("blast",)

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
        self.walks = walks
        self.dice_sets = dice_sets
        self.prior = prior
        self.turns = turns
        self.bands = bands
        self.plan: BlastPlan | None = None
        self._key: tuple[int, int] = (-1, -1)
        self._acted: set[int] = set()  # Krosmasters of this player turn whose activation began
        self.rollouts = 0  # rollouts played so far (for benchmarks)
        self.searches = 0  # activations decided by rollouts

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None or not me.is_krosmaster:
            return decide(view, self.weights)
        key = (view.turn, me.uid)
        if key != self._key:
            if key[0] != self._key[0]:
                self._acted = set()
            self._key = key
            self._acted.add(me.uid)
            plans = candidate_plans(view, self.weights, self.walks, self.bands)
            self.plan = plans[0] if len(plans) == 1 else self.choose_plan(view, me.uid, plans)
        assert self.plan is not None
        return plan_action(view, self.weights, self.plan)

    def choose_plan(self, view: MatchView, uid: int, plans: list[BlastPlan]) -> BlastPlan:
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

    def _rollout(self, view: MatchView, uid: int, plan: BlastPlan, faces: list[int]) -> float:
        """``plan`` on a copy, then the rest of the player turn and the opponent's; evaluated."""
        self.rollouts += 1
        side = view.side
        state = view.clone_state(ReplayDice(faces))
        mine = PlanPlayer(self.rng, plan, uid)
        finish_player_turn(state, state.fighters[uid], mine, MatchView(state, side), self._acted)
        base = BrawlerAI(self.rng)
        for _ in range(1 + self.turns):
            play_turn(state, base)
        return evaluate(state, side)


def finish_player_turn(
    state: MatchState, fighter: Fighter, controller: BlastController, view: MatchView, acted: set[int]
) -> None:
    """The rest of a Blast player turn from the middle of Krosmaster ``fighter``'s activation: it
    finishes, then the side's Krosmasters not in ``acted`` in the player's order (R-B10), then its
    Invocations (R-B11), as ``rulesets/blast/turn.play_fighters`` plays them; then the turn ends as
    ``engine.turn.game_turn`` ends it and the victory check runs as after every game turn."""
    finish_activation(state, fighter, controller, view)
    side = fighter.side
    if not state.finished:
        krosmasters = [f for f in state.timeline[side] if f.alive and f.uid not in acted]
        in_chosen_order(state, krosmasters, controller, view)
    if state.finished:
        return
    invocations = [
        f for f in state.fighters if f.side == side and f.kind != KROSMASTER and f.alive and f.cell >= 0
    ]
    in_chosen_order(state, invocations, controller, view)
    if state.finished:
        return
    rules = state.ruleset
    state.scenery_injuries.clear()  # R-A125, as at the end of engine.turn.game_turn
    rules.end_turn(state, side)
    state.active_side = rules.next_player(state, side)
    rules.check_victory(state)


class PlanPlayer(BrawlerAI):
    """A rollout's player on the searching side: ``plan`` for Krosmaster ``uid``'s activation under
    way, the base personality for everything after it. It draws nothing from its stream."""

    name = "blast-plan"

    def __init__(self, rng: np.random.Generator, plan: BlastPlan, uid: int) -> None:
        super().__init__(rng)
        self.plan = plan
        self.uid = uid

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is not None and me.uid == self.uid:
            return plan_action(view, self.weights, self.plan)
        return decide(view, self.weights)
