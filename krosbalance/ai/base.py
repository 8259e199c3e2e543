"""The AI protocol and the choices every AI shares.

An AI decides through a ``MatchView`` only (never the live state or the match dice) and owns its
own random stream, so a match stays a pure function of its seed. Subclasses override the decisions
they care about; the defaults here are reasonable, cheap and deterministic given the stream.
"""

from __future__ import annotations

import numpy as np
from mypy_extensions import mypyc_attr

from krosbalance.engine.dice import CRITICAL, DODGE
from krosbalance.engine.legal import Action
from krosbalance.engine.turn import TensionChoice
from krosbalance.engine.view import FighterView, MatchView


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class AI:
    """Base class: random deployment, tension dice that avoid doubles and inspire the first
    Krosmasters to act, and ``choose_action`` left to subclasses."""

    name = "base"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        order = self.rng.permutation(len(cells))[: len(fighters)]
        return [cells[int(i)] for i in order]

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        """Avoid a double unless it wins the game or it is forced; inspire useful powers."""
        mine, theirs = view.gg[view.side], view.gg[1 - view.side]
        wants_double = view.wild_gg == 0 and theirs == 1 and mine > 1
        choices = [o for o in options if (o[0] == o[1]) == wants_double] or options
        preferred = [o for o in choices if o[0] in (CRITICAL, DODGE) or o[1] in (CRITICAL, DODGE)]
        faces = (preferred or choices)[0]
        alive = [k for k in view.krosmasters(view.side) if k.alive]
        if not alive:
            return TensionChoice(faces, (-1, -1))
        first = alive[0].uid
        second = alive[1].uid if len(alive) > 1 else first
        return TensionChoice(faces, (first, second))

    def choose_action(self, view: MatchView) -> Action:
        raise TypeError(f"{type(self).__name__} must implement choose_action")
