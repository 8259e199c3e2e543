"""One match from names to result: the function notebooks, the runner and tests call.

A match is a pure function of (teams, board, ruleset and its options, AIs, seed): the seed is split
with ``SeedSequence.spawn`` into independent streams for set-up, the dice, each AI and the pregame.

Everything particular to a ruleset — team rules, set-up, deployment, the pregame — is asked of the
ruleset object: ``ruleset`` is its name (built with ``options`` by ``krosbalance.rulesets.registry``;
an unknown name is a ``ContentError``) or the object itself, already built with its options (an
experiment arm's, ``krosbalance.sim.catalog.arm_ruleset``). An AI that does not play the ruleset (its
``rulesets`` declaration) is a ``ContentError`` naming both. The pregame choices that experiments
make before a match (``deal_teams``: Arena's random deal or draft between two AIs, R-A17;
``pick_board``: the first player's board, R-A19, or player 4's with four, R-A154) use the fifth stream, so they never disturb the
match's own streams; Arena's edge choice (R-A19) is made inside the match, at deployment, by the
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
from krosbalance.engine.match import play_opening, run_to_end, summarise
from krosbalance.engine.restriction import apply_restrictions
from krosbalance.engine.results import MatchResult
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import MatchView
from krosbalance.engine_choice import play_in_core
from krosbalance.errors import ContentError, TeamError
from krosbalance.render.checkpoints import take_checkpoint
from krosbalance.rulesets.base import Ruleset
from krosbalance.rulesets.registry import get_ruleset

DEFAULT_BOARD = "arena-elemental"
DEFAULT_RULESET = "arena"
#: the children of ``SeedSequence(seed)``: set-up, dice, AI of seat 0, AI of seat 1, pregame; then
#: the AIs of seats 2, 3, ... (a child's stream depends only on its index, so two-player matches
#: draw exactly what they drew before there were more seats)
STREAMS = ("setup", "dice", "ai0", "ai1", "pregame")


def match_streams(seed: int, seats: int = 2) -> dict[str, np.random.SeedSequence]:
    """The independent seed streams of one match, by name (``STREAMS``, then ``ai2``, ``ai3``...)."""
    names = STREAMS + tuple(f"ai{seat}" for seat in range(2, seats))
    return dict(zip(names, np.random.SeedSequence(seed).spawn(len(names)), strict=True))


def _ai_names(ai: str | Sequence[str], seats: int) -> tuple[str, ...]:
    """One AI name per seat: one name for every seat, or a name per seat."""
    if isinstance(ai, str):
        return (ai,) * seats
    names = tuple(ai)
    if len(names) != seats:
        raise ContentError(
            "play_match", "ai", f"give one AI name or one per seat ({seats}), got {len(names)}"
        )
    return names


def resolve_ruleset(ruleset: str | Ruleset, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset object of a match: built by name with ``options``, or given already built (then
    its options are its own, and ``options`` must be empty)."""
    if isinstance(ruleset, Ruleset):
        if options:
            raise ContentError(
                "play_match", "options", f"ruleset {ruleset.name!r} is given built; pass its options to it"
            )
        return ruleset
    return get_ruleset(ruleset, dict(options or {}))


def prepare_match(
    *teams: Sequence[str],
    board: str | Board = DEFAULT_BOARD,
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str | Ruleset = DEFAULT_RULESET,
    registry: Registry | None = None,
    dice: Dice | None = None,
    forbid: Mapping[str, Sequence[str]] | None = None,
) -> tuple[MatchState, tuple[Any, ...], tuple[MatchView, ...]]:
    """A deployed match ready for its first turn, with one AI and one view per seat (``teams`` in
    seat order: two, or four for four-player Arena). ``forbid`` (restricted play,
    :mod:`krosbalance.engine.restriction`) maps a character id to the elements its Krosmasters may
    not use in this match, on whichever side they play."""
    registry = registry or default_registry()
    if record not in LEVELS:
        raise ContentError("play_match", "record", f"must be one of {sorted(LEVELS)}, got {record!r}")
    rules = resolve_ruleset(ruleset, options)
    rules.check_seats(len(teams))
    the_board = board if isinstance(board, Board) else registry.load_board(board)
    names = _ai_names(ai, len(teams))
    factories = [get_ai(name, rules.name, len(teams)) for name in names]
    specs = tuple(_team(rules, team, seat, registry) for seat, team in enumerate(teams))
    streams = match_streams(seed, len(teams))
    state = rules.setup(
        specs,
        the_board,
        dice or SeededDice(np.random.default_rng(streams["dice"])),
        np.random.default_rng(streams["setup"]),
        registry,
        LEVELS[record],
    )
    if forbid:
        _restrict(state, forbid)
    controllers = tuple(
        factory(np.random.default_rng(streams[f"ai{seat}"])) for seat, factory in enumerate(factories)
    )
    views = tuple(MatchView(state, seat) for seat in range(len(teams)))
    rules.deploy(state, controllers, views)
    return state, controllers, views


def _restrict(state: MatchState, forbid: Mapping[str, Sequence[str]]) -> None:
    """Restricted play before deployment; an element the figure does not have is a ``ContentError``."""
    try:
        apply_restrictions(state, forbid)
    except ValueError as exc:
        raise ContentError("play_match", "forbid", str(exc)) from None


def _team(rules: Ruleset, names: Sequence[str], side: int, registry: Registry) -> tuple[CharacterSpec, ...]:
    """The validated team of one side; the error says which side's team is wrong."""
    try:
        return rules.validate_team(names, registry)
    except TeamError as exc:
        raise TeamError(f"team{side}: {exc}") from None


def play_match(
    *teams: Sequence[str],
    board: str | Board = DEFAULT_BOARD,
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str | Ruleset = DEFAULT_RULESET,
    registry: Registry | None = None,
    forbid: Mapping[str, Sequence[str]] | None = None,
    engine: str = "auto",
) -> MatchResult:
    """Play one match to its end. ``teams`` are the seats' teams in seat order (two; four under
    Arena's ``mode = "free_for_all"`` or ``"two_vs_two"``); ``ai`` is one AI name for every seat or
    one per seat; ``record`` is ``none``, ``summary`` or ``full``.

    ``engine``: ``auto`` (the native core plays the match when it can, the Python reference
    otherwise), ``core`` (the core or an ``EngineError``) or ``reference``; the environment variable
    ``KROSBALANCE_ENGINE=reference`` overrides it (:mod:`krosbalance.engine_choice`). Either engine
    gives the same result; ``result.engine`` says which played."""
    played = play_in_core(
        *teams,
        board=board,
        ai=ai,
        seed=seed,
        options=options,
        record=record,
        ruleset=ruleset,
        registry=registry,
        forbid=forbid,
        engine=engine,
    )
    if played is not None:
        return played
    state, controllers, views = prepare_match(
        *teams,
        board=board,
        ai=ai,
        seed=seed,
        options=options,
        record=record,
        ruleset=ruleset,
        registry=registry,
        forbid=forbid,
    )
    if record != "full":
        run_to_end(state, controllers, views)
        return summarise(state, seed)
    # A replay's checkpoints: after deployment, after every turn and at the end.

    checkpoints = [take_checkpoint(state, seed)]
    run_to_end(state, controllers, views, lambda s: checkpoints.append(take_checkpoint(s, seed)))
    if checkpoints[-1].event_index != len(state.events):
        checkpoints.append(take_checkpoint(state, seed))
    checkpoints[-1] = take_checkpoint(state, seed, last=True)
    result = summarise(state, seed)
    result.checkpoints = checkpoints
    return result


def play_trial(
    *teams: Sequence[str],
    board: str | Board = DEFAULT_BOARD,
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    ruleset: str | Ruleset = DEFAULT_RULESET,
    turns: int = 2,
    registry: Registry | None = None,
    forbid: Mapping[str, Sequence[str]] | None = None,
) -> MatchResult:
    """The match ``play_match`` would play, stopped after its first ``turns`` game turns as the
    turn bound stops one: set-up, deployment, the first turns and the result, in a fraction of a
    match's time (``krosbalance validate`` plays one per arm). The reference plays it: the core plays
    whole matches only."""
    state, controllers, views = prepare_match(
        *teams, board=board, ai=ai, seed=seed, ruleset=ruleset, registry=registry, forbid=forbid
    )
    play_opening(state, controllers, views, turns)
    return summarise(state, seed)


def deal_teams(
    mode: str,
    pool: Sequence[str],
    ai: tuple[str, str],
    seed: int,
    *,
    registry: Registry | None = None,
    ruleset: str | Ruleset = DEFAULT_RULESET,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The teams of player A and player B dealt from ``pool`` (character ids) by ``mode``, one of the
    ruleset's ``team_modes`` (Arena, R-A17: ``random_deal``, half the cards each at random, or
    ``draft``, the rulebook's pick, each player's picks made by its AI, ``ai = (AI of A, AI of B)``).
    Seeded by the deal's ``seed`` (its pregame stream); each team lists its Krosmasters in pool
    order. ``ruleset`` is a name (default options) or the ruleset object, with its options (team
    size, …), of the matches the teams will play."""
    registry = registry or default_registry()
    rules = resolve_ruleset(ruleset)
    if mode not in rules.team_modes:
        raise ContentError("deal_teams", "mode", f"must be one of {rules.team_modes}, got {mode!r}")
    deal_seq, a_seq, b_seq = match_streams(seed)["pregame"].spawn(3)
    rng = np.random.default_rng(deal_seq)
    order = {name: i for i, name in reversed(list(enumerate(pool)))}
    specs = [registry.load_character(name) for name in pool]
    players = (
        get_ai(ai[0], rules.name)(np.random.default_rng(a_seq)),
        get_ai(ai[1], rules.name)(np.random.default_rng(b_seq)),
    )
    dealt = rules.deal_teams(mode, specs, players, rng)
    hand_a, hand_b = [s.id for s in dealt[0]], [s.id for s in dealt[1]]

    def ordered(hand: list[str]) -> tuple[str, ...]:
        return tuple(sorted(hand, key=lambda name: order.get(name, len(order))))

    return ordered(hand_a), ordered(hand_b)


def pick_board(
    boards: Sequence[str],
    *teams: Sequence[str],
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    registry: Registry | None = None,
    ruleset: str | Ruleset = DEFAULT_RULESET,
) -> str:
    """The board chosen among ``boards`` for the match ``play_match(*teams, ai=ai, seed=seed, ...)``
    would play (``teams`` in seat order; ``ai`` one name for every seat or one per seat): with two
    players the first player picks it (Arena: R-A19), with four player 4, the last in play order
    (R-A154; player 1 then orients it, at deployment). The play order is decided as
    ``prepare_match`` decides it (same stream); the chooser's AI chooses with its own pregame
    stream (seat ``s`` draws from the pregame stream's child ``s + 1``). ``ruleset`` and
    ``options``: as for :func:`play_match` (or the ruleset object, as for :func:`deal_teams`)."""
    registry = registry or default_registry()
    if len(boards) == 1:
        return boards[0]
    rules = resolve_ruleset(ruleset, options)
    rules.check_seats(len(teams))
    names = _ai_names(ai, len(teams))
    specs = tuple(_team(rules, team, seat, registry) for seat, team in enumerate(teams))
    streams = match_streams(seed, len(specs))
    order = rules.play_order(specs, np.random.default_rng(streams["setup"]))
    _, *seat_seqs = streams["pregame"].spawn(1 + len(specs))  # two seats: the children R-A19 always drew
    players = tuple(
        get_ai(name, rules.name, len(specs))(np.random.default_rng(seq))
        for name, seq in zip(names, seat_seqs, strict=True)
    )
    candidates = [registry.load_board(name) for name in boards]
    return boards[rules.choose_board(candidates, specs, players, order)]
