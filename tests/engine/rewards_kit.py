"""Test helpers for Demonic Rewards: a Krosmaster with one attack of each kind the bonuses care about,
a sturdy target, and the scenario kit's reward actions."""

from __future__ import annotations

from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RewardSpec
from krosbalance.engine.state import Fighter
from krosbalance.testing import Scenario

from .specs import character, spell

HERO = character(
    "hero",
    hp=10,
    ap=6,
    mp=3,
    spells=(
        spell("zap", element="fire", ap=3, rmin=1, rmax=3, amount=1),
        spell("splash", element="water", ap=3, rmin=1, rmax=3, amount=1),
        spell("slash", element="water", ap=3, range_type="melee", rmin=1, rmax=1, fixed_range=True, amount=1),
        spell("bonk", element="neutral", ap=3, rmin=1, rmax=3, amount=1),
        spell("snipe", element="air", ap=3, rmin=1, rmax=3, fixed_range=True, amount=1),
    ),
)
#: a sturdy target with no powers
DUMMY = character("dummy", hp=20, ap=6, mp=3, initiative=1)

BOARD = """. . . . . .
           . . . . . .
           . . . . . .
           . . . . . ."""


def reward(name: str) -> RewardSpec:
    return default_registry().load_reward(name)


def hold(sc: Scenario, fighter: Fighter, name: str) -> int:
    """Put the token face down on the fighter's card (R-A52); its position on the card."""
    return sc.hold(fighter, name)


def can(
    sc: Scenario, fighter: Fighter, name: str, choice: int = 0, target: tuple[int, int] | None = None
) -> bool:
    return sc.can_reveal(fighter, name, choice, target)


def reveal(
    sc: Scenario, fighter: Fighter, name: str, choice: int = 0, target: tuple[int, int] | None = None
) -> None:
    """Reveal a face-down token as the engine's action (R-A54), refused if illegal."""
    sc.reveal(fighter, name, choice, target)


def kamas(sc: Scenario) -> list[int]:
    return sc.arena.kamas
