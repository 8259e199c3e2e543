"""The plan search's hook for personalities: an AI that extends ``position_value`` is heard (the
default is called natively, an extension through the method)."""

from __future__ import annotations

import numpy as np

from krosbalance.ai.casts import Step
from krosbalance.ai.context import _Context
from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.view import MatchView
from krosbalance.testing.scenario import Scenario

OPEN7 = "\n".join([" ".join(["."] * 7)] * 7)


def _krosmaster(walks: int) -> CharacterSpec:
    """Some Arena Krosmaster with at least ``walks`` MP (whichever the content holds)."""
    registry = default_registry()
    specs = [registry.load_character(cid) for cid in registry.list_characters("krosmaster", game="arena")]
    return next(spec for spec in specs if spec.mp >= walks)


class _LovesACorner(FocusFireAI):
    """A personality that wants to end on one cell above all (an interpreted subclass)."""

    corner = -1

    def position_value(self, ctx: _Context, cell: int) -> float:
        return super().position_value(ctx, cell) + (100.0 if cell == self.corner else 0.0)


def _plan_end(ai: FocusFireAI, sc: Scenario, fighter) -> int:  # type: ignore[no-untyped-def]
    sc.activate(fighter)
    view = MatchView(sc.state, fighter.side)
    me = view.active
    assert me is not None
    ai.begin(view, me)
    plan = ai.candidates(view, me, 1)[0]
    gotos = [step.arg for step in plan.steps if isinstance(step, Step) and step.kind == "goto"]
    return gotos[-1] if gotos else me.cell


def test_an_ai_that_extends_position_value_ends_where_its_extension_says() -> None:
    spec = _krosmaster(3)
    sc = Scenario(OPEN7)
    mine = sc.add(spec, 0, (3, 3))
    sc.add(spec, 1, (3, 6))
    corner = sc.cell(3, 0)  # three steps away, away from the enemy
    plain = _plan_end(FocusFireAI(np.random.default_rng(0)), sc, mine)
    assert plain != corner
    lover = _LovesACorner(np.random.default_rng(0))
    lover.corner = corner
    assert _plan_end(lover, sc, mine) == corner
