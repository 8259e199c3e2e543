"""An opponent model that searches its own plans a little, as a searching opponent would.

A search that answers the kiter's one best plan learns the kiter's habits; ``lookahead``, the
opponent the deeper tier is measured against, plays the kiter's plans too, but picks among its best
few by rollouts. :class:`SearchedReply` does the same cheaply inside a rollout: at each of its
Krosmasters' activations it takes its heuristic's ``candidates`` best plans
(:meth:`HeuristicAI.candidates`), plays each on a copy of the rollout's position (what the modelled
side may see, :meth:`MatchView.clone_state`) to the end of its team's turn by the heuristic, and
adopts the one whose end position its ``leaf`` evaluation rates best from its own side, plus
``prior`` times the heuristic's value of the plan (as the search tier weighs a plan). No counter-reply
is played in the copies (the leaf's next-turn KO threats stand for it), so a reply costs about
``candidates`` team turns per activation, not a search of its own.

With an ``answer`` (a heuristic of the other side), each copy also plays that side's whole next
turn before the leaf, as ``lookahead`` judges its plans: ``mcts`` plays its own team's later
activations in a rollout this way (its ``continuation`` knob), so that a rollout's rest of the
turn is chosen as the searcher would choose it, not by the heuristic's first plan.

Every copy rolls the same pre-drawn ``faces`` (common random numbers: the plans are compared, not
their luck), which the caller draws per world, so a rollout stays a pure function of its world.
Creatures, deployment and the tension roll follow the heuristic (:class:`.reply_model.ReplyModel`).
"""

from __future__ import annotations

from collections.abc import Callable

from mypy_extensions import mypyc_attr

from krosbalance.ai.plan_search import Plan
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.reply_model import ReplyModel
from krosbalance.ai.rollout import ReplayDice, finish_team_turn, play_turn
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import FighterView, MatchView

#: how a copy's end position is rated, from the modelled side: ``leaf(state, side)``
Leaf = Callable[[MatchState, int], float]


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class SearchedReply(ReplyModel):
    """``player``'s best plan of each Krosmaster activation among its ``candidates`` best, judged
    on copies played to the end of the team's turn (see the module docstring)."""

    name = "searched_reply"

    def __init__(
        self,
        player: HeuristicAI,
        candidates: int,
        faces: list[int],
        leaf: Leaf,
        prior: float,
        answer: HeuristicAI | None = None,
    ) -> None:
        super().__init__(player)
        if candidates < 1:
            raise ValueError(f"a searched reply weighs at least 1 plan, got {candidates!r}")
        self.candidates = candidates
        self.faces = faces
        self.leaf = leaf
        self.prior = prior
        self.answer = answer
        self.copies = 0  # copies played so far (for the cost)

    def choose(self, view: MatchView, me: FighterView) -> None:
        """The best of the heuristic's ``candidates`` plans by :meth:`best`."""
        if self.candidates <= 1:
            return
        player = self.player
        player.begin(view, me)
        plans = player.candidates(view, me, self.candidates)
        if len(plans) > 1:
            player.adopt(self.best(view, me, plans))
        elif plans:
            player.adopt(plans[0])

    def best(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """The plan whose copy ends the team's turn (and the ``answer``'s turn after it) rated best
        (ties: the heuristic's order)."""
        side = view.side
        best, best_value = plans[0], -1e18
        for plan in plans:
            self.copies += 1
            state = view.clone_state(ReplayDice(self.faces))
            mine = self.player.fork()
            mine.adopt(plan)
            finish_team_turn(state, state.fighters[me.uid], mine, MatchView(state, side))
            if self.answer is not None:
                play_turn(state, self.answer.fork())
            value = self.leaf(state, side) + self.prior * plan.value
            if value > best_value + 1e-9:
                best, best_value = plan, value
        return best
