"""What the opponent models of the search tier share: a heuristic that plays the reply in a rollout,
with its plan for each Krosmaster activation chosen another way than its own best.

:class:`ReplyModel` passes everything to its heuristic (deployment, the tension roll, creatures,
every action of a plan, replanning on surprises) except the start of a Krosmaster's activation,
where :meth:`ReplyModel.choose` may make it adopt another of its plans. ``mixed_reply`` draws one by
rank; ``reply_search`` judges them on copies.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from krosbalance.ai.base import AI
from krosbalance.ai.planner import END_ACTION, HeuristicAI
from krosbalance.engine.legal import Action
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.tension import TensionChoice


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class ReplyModel(AI):
    """``player``, with the plan of each Krosmaster activation chosen by :meth:`choose` (see the
    module docstring)."""

    name = "reply_model"
    rulesets = ("arena",)  # the Arena planner's candidates

    def __init__(self, player: HeuristicAI) -> None:
        super().__init__(player.rng)
        self.player = player
        self._key: tuple[int, int] = (-1, -1)

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        return self.player.choose_deployment(view, fighters, cells)

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        return self.player.choose_tension(view, raw, options)

    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None:
            return END_ACTION
        key = (view.turn, me.uid)
        if key != self._key:
            self._key = key
            if me.is_krosmaster:
                self.choose(view, me)
        return self.player.choose_action(view)

    def choose(self, view: MatchView, me: FighterView) -> None:
        """At the start of ``me``'s activation, make the heuristic adopt the plan to play; by default
        its own (it plans as usual)."""
