"""Krosmaster Arena, 2 players: team building, first player, set-up and deployment (R-A17-R-A25,
R-A146-R-A151). Everything else is the shared engine; this module only says how a match begins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from krosbalance.content.registry import CharacterSource, Registry, default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import KROSMASTER, MatchState
from krosbalance.errors import IllegalActionError, KrosbalanceError, TeamError

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.options import Ruleset

TEAM_LEVEL = 12
TEAM_SIZE = (2, 8)
COPIES_ALLOWED = {"gold": 1, "white": 2}


def validate_team(names: Sequence[str], registry: Registry | None = None) -> tuple[CharacterSpec, ...]:
    """The team's specs, or TeamError saying which rule it breaks: 2-8 Krosmasters whose levels sum
    to exactly 12 (R-A146), a gold name at most once and a white name at most twice (R-A147)."""
    registry = registry or default_registry()
    if isinstance(names, str):
        raise TeamError(f"a team is a list of character names, got the string {names!r}")
    specs = []
    given: Sequence[object] = names  # user input, checked name by name
    for name in given:
        if not isinstance(name, str):
            raise TeamError(f"expected a character name, got {name!r}")
        try:
            spec = registry.load_character(name)
        except KrosbalanceError as exc:
            raise TeamError(str(exc)) from None
        if spec.kind != KROSMASTER:
            raise TeamError(f"{spec.name!r} is a {spec.kind} token, not a Krosmaster: it cannot be in a team")
        specs.append(spec)
    label = ", ".join(s.name for s in specs) or "(empty)"
    if not TEAM_SIZE[0] <= len(specs) <= TEAM_SIZE[1]:
        raise TeamError(f"team [{label}] has {len(specs)} Krosmasters; a team has 2 to 8 (R-A146)")
    total = sum(s.level for s in specs)
    if total != TEAM_LEVEL:
        raise TeamError(f"team [{label}] has level sum {total}; it must be exactly {TEAM_LEVEL} (R-A146)")
    for spec_id, copies in Counter(s.id for s in specs).items():
        spec = next(s for s in specs if s.id == spec_id)
        allowed = COPIES_ALLOWED.get(spec.colour, 1)
        if copies > allowed:
            raise TeamError(
                f"team [{label}] has {copies} copies of {spec.name} ({spec.colour} name); "
                f"at most {allowed} allowed (R-A147)"
            )
    return tuple(specs)


def first_player(
    team0: Sequence[CharacterSpec], team1: Sequence[CharacterSpec], rng: np.random.Generator
) -> int:
    """Higher Initiative sum plays first (R-A18); ties compare the highest single Initiatives, then the
    next, and so on (R-A151); a perfect tie is a coin toss."""
    sums = (sum(s.initiative for s in team0), sum(s.initiative for s in team1))
    if sums[0] != sums[1]:
        return 0 if sums[0] > sums[1] else 1
    ranked = (
        sorted((s.initiative for s in team0), reverse=True),
        sorted((s.initiative for s in team1), reverse=True),
    )
    if ranked[0] != ranked[1]:
        return 0 if ranked[0] > ranked[1] else 1
    return int(rng.integers(2))


def summonable(specs: Sequence[CharacterSpec], registry: CharacterSource) -> dict[str, CharacterSpec]:
    """Every piece the teams can put in play, found by following summon spells."""
    found: dict[str, CharacterSpec] = {}
    todo = list(specs)
    while todo:
        spec = todo.pop()
        for spell in spec.spells:
            if spell.summons and spell.summons not in found:
                found[spell.summons] = registry.load_character(spell.summons)
                todo.append(found[spell.summons])
    return found


def setup(
    teams: tuple[Sequence[CharacterSpec], Sequence[CharacterSpec]],
    board: Board,
    ruleset: Ruleset,
    dice: Dice,
    setup_rng: np.random.Generator,
    registry: CharacterSource,
    record: int = 0,
) -> MatchState:
    """A state with both teams spawned (not yet deployed), Timelines built (R-A20) and the first
    player decided (R-A18)."""
    state = MatchState(board, ruleset, dice, record)
    for side in (0, 1):
        fighters = [spawn(state, spec, side) for spec in teams[side]]
        # Decreasing Initiative; equal Initiative keeps the order the team was given in (R-A20).
        state.timeline[side].extend(sorted(fighters, key=lambda f: -f.spec.initiative))
    state.summon_specs = summonable([*teams[0], *teams[1]], registry)
    state.first_player = first_player(teams[0], teams[1], setup_rng)
    state.active_side = state.first_player
    return state


def deploy(
    state: MatchState, controllers: tuple[Controller, Controller], views: tuple[MatchView, MatchView]
) -> None:
    """The first player places all his figures on his deployment cells, then the other (R-A25)."""
    order = (state.first_player, 1 - state.first_player)
    for side in order:
        zone = state.board.deploy[side]
        cells = [c for c in range(state.board.n_cells) if (zone >> c) & 1 and state.is_free(c)]
        fighters = state.timeline[side]
        if len(cells) < len(fighters):
            raise TeamError(
                f"board {state.board.id!r} has {len(cells)} free deployment cells for player {side}, "
                f"but the team has {len(fighters)} Krosmasters"
            )
        views_of = views[side].krosmasters(side)
        chosen = list(controllers[side].choose_deployment(views[side], views_of, cells))
        if len(chosen) != len(fighters) or len(set(chosen)) != len(chosen) or not set(chosen) <= set(cells):
            raise IllegalActionError(
                f"player {side} deployed to {chosen}, not distinct free deployment cells"
            )
        for fighter, cell in zip(fighters, chosen, strict=True):
            place(state, fighter, cell)
