"""One match from names to result: the function notebooks, the runner and tests call.

A match is a pure function of (teams, board, ruleset and its options, AIs, seed): the seed is split
with ``SeedSequence.spawn`` into independent streams for set-up, the dice, each AI and the pregame.

The pregame choices of R-A17 and R-A19 that experiments make before a match (``deal_teams``: a random
deal or a draft between two AIs; ``pick_board``: the first player's board) use the fifth stream, so
they never disturb the match's own streams; the edge choice of R-A19 is made inside the match by the
player who is not first.
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
from krosbalance.rulesets.arena import (
    choose_board,
    choose_edges,
    deploy,
    draft,
    first_player,
    random_deal,
    setup,
    validate_team,
)
from krosbalance.rulesets.options import load_ruleset

DEFAULT_BOARD = "arena-elemental"
#: the children of ``SeedSequence(seed)``: set-up, dice, AI of side 0, AI of side 1, pregame
STREAMS = ("setup", "dice", "ai0", "ai1", "pregame")
TEAM_DEALS = ("random_deal", "draft")


def match_streams(seed: int) -> dict[str, np.random.SeedSequence]:
    """The independent seed streams of one match, by name (``STREAMS``)."""
    return dict(zip(STREAMS, np.random.SeedSequence(seed).spawn(len(STREAMS)), strict=True))


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
    streams = match_streams(seed)
    state = setup(
        teams,
        the_board,
        rules,
        dice or SeededDice(np.random.default_rng(streams["dice"])),
        np.random.default_rng(streams["setup"]),
        registry,
        LEVELS[record],
    )
    controllers = (
        factories[0](np.random.default_rng(streams["ai0"])),
        factories[1](np.random.default_rng(streams["ai1"])),
    )
    views = (MatchView(state, 0), MatchView(state, 1))
    choose_edges(state, controllers, views)  # R-A19
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


def deal_teams(
    mode: str,
    pool: Sequence[str],
    ai: tuple[str, str],
    seed: int,
    *,
    registry: Registry | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """R-A17: the teams of player A and player B dealt from ``pool`` (character ids) by ``mode``:
    ``random_deal`` (half the cards each, at random) or ``draft`` (the rulebook's pick, each player's
    picks made by its AI, ``ai = (AI of A, AI of B)``). Seeded by the deal's ``seed`` (its pregame
    stream); each team lists its Krosmasters in pool order."""
    registry = registry or default_registry()
    if mode not in TEAM_DEALS:
        raise ContentError("deal_teams", "mode", f"must be one of {TEAM_DEALS}, got {mode!r}")
    deal_seq, a_seq, b_seq = match_streams(seed)["pregame"].spawn(3)
    rng = np.random.default_rng(deal_seq)
    order = {name: i for i, name in reversed(list(enumerate(pool)))}
    if mode == "random_deal":
        hand_a, hand_b = random_deal(list(pool), rng)
    else:
        specs = [registry.load_character(name) for name in pool]
        players = (
            get_ai(ai[0])(np.random.default_rng(a_seq)),
            get_ai(ai[1])(np.random.default_rng(b_seq)),
        )
        drafted = draft(specs, players, rng)
        hand_a, hand_b = [s.id for s in drafted[0]], [s.id for s in drafted[1]]

    def ordered(hand: list[str]) -> tuple[str, ...]:
        return tuple(sorted(hand, key=lambda name: order.get(name, len(order))))

    return ordered(hand_a), ordered(hand_b)


def pick_board(
    boards: Sequence[str],
    team0: Sequence[str],
    team1: Sequence[str],
    ai: tuple[str, str],
    seed: int,
    *,
    registry: Registry | None = None,
) -> str:
    """R-A19: the board the first player picks among ``boards`` for the match ``(team0, team1, ai,
    seed)``. The first player is decided as ``prepare_match`` decides it (R-A18, same coin); his AI
    chooses with its own pregame stream."""
    registry = registry or default_registry()
    if len(boards) == 1:
        return boards[0]
    teams = (_team(team0, 0, registry), _team(team1, 1, registry))
    streams = match_streams(seed)
    first = first_player(teams[0], teams[1], np.random.default_rng(streams["setup"]))
    _, side0_seq, side1_seq = streams["pregame"].spawn(3)
    players = (
        get_ai(ai[0])(np.random.default_rng(side0_seq)),
        get_ai(ai[1])(np.random.default_rng(side1_seq)),
    )
    candidates = [registry.load_board(name) for name in boards]
    return boards[choose_board(candidates, teams, players, first)]
