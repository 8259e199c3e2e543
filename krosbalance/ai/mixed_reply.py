"""An opponent model that does not always play its heuristic's best plan.

A search that answers a deterministic model of the opponent learns the model's habits: the plan it
picks is the best reply to the one move the model always makes, which a stronger opponent (one that
searches the same plans, as ``lookahead`` does) often does not make. :class:`MixedReply` plays the
model's ``len(mix)`` best plans of each Krosmaster activation (:meth:`HeuristicAI.candidates`) with
the chances in ``mix`` (by rank; the chances of missing plans go to the best), so a search over
several worlds meets the replies a searching opponent might choose, in proportion. The draws come
from the world's own stream, so every plan a search compares in one world meets the same draws
(common random numbers). Creatures, deployment and the tension roll follow the heuristic.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.reply_model import ReplyModel
from krosbalance.engine.view import FighterView, MatchView


def check_mix(mix: tuple[float, ...]) -> None:
    """A mix is empty (the model's best plan, always) or chances by rank that sum to 1."""
    if mix and (any(p < 0 for p in mix) or abs(sum(mix) - 1.0) > 1e-6):
        raise ValueError(f"reply_mix must be chances by rank that sum to 1, got {mix!r}")


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class MixedReply(ReplyModel):
    """``player``'s best plans of each Krosmaster activation, drawn by rank with the chances in
    ``mix`` from ``draws`` (see the module docstring)."""

    name = "mixed_reply"

    def __init__(self, player: HeuristicAI, mix: tuple[float, ...], draws: random.Random) -> None:
        super().__init__(player)
        check_mix(mix)
        self.mix = mix
        self.draws = draws

    def choose(self, view: MatchView, me: FighterView) -> None:
        """The plan of the rank drawn, among the heuristic's ``len(mix)`` best."""
        if len(self.mix) <= 1:
            return
        player = self.player
        player.begin(view, me)
        plans = player.candidates(view, me, len(self.mix))
        pick = self._rank(len(plans))
        if plans:
            player.adopt(plans[pick])

    def _rank(self, offered: int) -> int:
        """The rank drawn among ``offered`` plans (the chances of the missing ones go to the best)."""
        if offered <= 1:
            return 0
        u = self.draws.random()
        acc = 0.0
        for rank in range(offered - 1, 0, -1):
            acc += self.mix[rank]
            if u < acc:
                return rank
        return 0
