"""One match from names to result: the function notebooks, the runner and tests call.

A match is a pure function of (teams, board, ruleset and its options, AIs, seed): the seed is split
with ``SeedSequence.spawn`` into independent streams for set-up, the dice and each AI.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from krosbalance.ai.registry import get_ai
from krosbalance.board.board import Board
from krosbalance.content.registry import Registry, default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.dice import Dice, SeededDice
from krosbalance.engine.events import LEVELS
from krosbalance.engine.match import run_to_end, summarise
from krosbalance.engine.results import MatchResult
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import MatchView
from krosbalance.errors import ContentError, TeamError
from krosbalance.rulesets.arena import deploy, setup, validate_team
from krosbalance.rulesets.options import load_ruleset

DEFAULT_BOARD = "arena-elemental"


def prepare_match(
    team0: Sequence[str],
    team1: Sequence[str],
    *,
    board: str | Board = DEFAULT_BOARD,
    ai: str | tuple[str, str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str = "arena",
    registry: Registry | None = None,
    dice: Dice | None = None,
) -> tuple[MatchState, tuple[Any, Any], tuple[MatchView, MatchView]]:
    """A deployed match ready for its first turn, with its two AIs and their views."""
    registry = registry or default_registry()
    if record not in LEVELS:
        raise ContentError("play_match", "record", f"must be one of {sorted(LEVELS)}, got {record!r}")
    the_board = board if isinstance(board, Board) else registry.load_board(board)
    rules = load_ruleset(ruleset, dict(options or {}))
    names = (ai, ai) if isinstance(ai, str) else tuple(ai)
    factories = (get_ai(names[0]), get_ai(names[1]))
    teams = (_team(team0, 0, registry), _team(team1, 1, registry))
    setup_seq, dice_seq, ai0_seq, ai1_seq = np.random.SeedSequence(seed).spawn(4)
    state = setup(
        teams,
        the_board,
        rules,
        dice or SeededDice(np.random.default_rng(dice_seq)),
        np.random.default_rng(setup_seq),
        registry,
        LEVELS[record],
    )
    controllers = (factories[0](np.random.default_rng(ai0_seq)), factories[1](np.random.default_rng(ai1_seq)))
    views = (MatchView(state, 0), MatchView(state, 1))
    deploy(state, controllers, views)
    return state, controllers, views


def _team(names: Sequence[str], side: int, registry: Registry) -> tuple[CharacterSpec, ...]:
    """The validated team of one side; the error says which side's team is wrong."""
    try:
        return validate_team(names, registry)
    except TeamError as exc:
        raise TeamError(f"team{side}: {exc}") from None


def play_match(
    team0: Sequence[str],
    team1: Sequence[str],
    *,
    board: str | Board = DEFAULT_BOARD,
    ai: str | tuple[str, str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str = "arena",
    registry: Registry | None = None,
) -> MatchResult:
    """Play one match to its end. ``ai`` is one AI name for both sides or a pair; ``record`` is
    ``none``, ``summary`` or ``full``."""
    state, controllers, views = prepare_match(
        team0,
        team1,
        board=board,
        ai=ai,
        seed=seed,
        options=options,
        record=record,
        ruleset=ruleset,
        registry=registry,
    )
    run_to_end(state, controllers, views)
    return summarise(state, seed)
