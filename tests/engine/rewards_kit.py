"""Test helpers for Demonic Rewards: put a token on a card, reveal it as the rules allow."""

from __future__ import annotations

from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RewardSpec
from krosbalance.engine.instant import settle
from krosbalance.engine.rewards import give
from krosbalance.engine.rewards import reveal as engine_reveal
from krosbalance.engine.state import Fighter
from krosbalance.rulesets.rewards import Reveal, can_reveal, reveals
from krosbalance.testing import Scenario

from .specs import character, spell

#: a Krosmaster with one attack of each kind the reward bonuses care about
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
    spec = reward(name)
    for effect in spec.effects:  # the creatures a token summons, as the ruleset's set-up provides them
        if effect.kind == "summon":
            creature = str(effect.params["summon"])
            sc.state.summon_specs[creature] = default_registry().load_character(creature)
    give(sc.state, fighter, spec, "s")
    return len(fighter.tokens) - 1


def position(fighter: Fighter, name: str) -> int:
    spec = reward(name)
    return next(i for i, t in enumerate(fighter.tokens) if t.spec.id == spec.id and not t.face_up)


def can(
    sc: Scenario, fighter: Fighter, name: str, choice: int = 0, target: tuple[int, int] | None = None
) -> bool:
    cell = -1 if target is None else sc.cell(*target)
    return can_reveal(sc.state, fighter, Reveal(position(fighter, name), choice, cell))


def reveal(
    sc: Scenario, fighter: Fighter, name: str, choice: int = 0, target: tuple[int, int] | None = None
) -> None:
    """Reveal a face-down token as a legal reveal (R-A54), then let its instant settle."""
    cell = -1 if target is None else sc.cell(*target)
    move = Reveal(position(fighter, name), choice, cell)
    assert can_reveal(sc.state, fighter, move), (move, reveals(sc.state, fighter))
    engine_reveal(sc.state, fighter, move.token, move.choice, move.target)
    settle(sc.state)


def kamas(sc: Scenario) -> list[int]:
    return sc.state.kamas
