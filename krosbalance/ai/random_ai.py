"""The random baseline: every decision uniformly at random among the legal ones.

It deploys at random, turns tension dice at random (so it makes doubles about as often as chance
allows), gives each die to a random Krosmaster or refunds it, and picks a uniformly random legal
action at every step, ending its turn only when that is the action drawn. It is the floor every
heuristic AI must beat, and the driver of the conformance battery because it reaches odd corners
of the rules that sensible play avoids.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from krosbalance.ai.base import AI
from krosbalance.engine.legal import Action
from krosbalance.engine.turn import TensionChoice
from krosbalance.engine.view import MatchView


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class RandomAI(AI):
    name = "random"

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        faces = options[int(self.rng.integers(len(options)))]
        candidates = [-1] + [k.uid for k in view.krosmasters(view.side) if k.alive]
        assigned = tuple(candidates[int(self.rng.integers(len(candidates)))] for _ in range(2))
        return TensionChoice(faces, (assigned[0], assigned[1]))

    def choose_action(self, view: MatchView) -> Action:
        actions = view.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]
