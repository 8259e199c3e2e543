"""AIs by name: the one list the CLI, experiments and tests read."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from krosbalance.ai.base import AI
from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.random_ai import RandomAI
from krosbalance.errors import ContentError

AIFactory = Callable[[np.random.Generator], AI]

_AIS: dict[str, AIFactory] = {
    "random": RandomAI,
    "focus_fire": FocusFireAI,
    "kiter": KiterAI,
    "objective": ObjectiveAI,
}


def register_ai(name: str, factory: AIFactory) -> None:
    _AIS[name] = factory


def list_ais() -> list[str]:
    return sorted(_AIS)


def get_ai(name: str) -> AIFactory:
    """The factory of a named AI; an unknown name is a user error listing the known ones."""
    try:
        return _AIS[name]
    except KeyError:
        raise ContentError(
            "AI registry", "ai", f"unknown AI {name!r}; known: {', '.join(list_ais())}"
        ) from None
