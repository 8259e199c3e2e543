"""How an Arena match begins (R-A17-R-A25, R-A146-R-A151): team validation, first player, set-up and
deployment.

The pregame choices of R-A17 and R-A19 live here as well, as functions of the players' decisions
and a seeded stream:

- team choice (R-A17): ``random_deal`` (four cards each at random) and ``draft`` (the face-up pick of
  the rulebook, step by step); teams "by agreement" are simply given;
- board and edge (R-A19): the first player picks the board (``choose_board``, among the candidates
  an experiment lists), then the other player picks the edge he sits at (``choose_edges``). The
  model's boards carry their deployment cells as two zones on opposite edges (R-A25: "the two rows
  nearest to him"; the printed layouts are not known, R-A3), so the edge choice is the choice of one
  of those zones; the first player takes the opposite one. On the shipped boards, which are mirror
  symmetric, the choice changes nothing but the side of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar, cast

import numpy as np

from krosbalance.content.registry import CharacterSource, Registry, default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import KROSMASTER, MatchState
from krosbalance.errors import IllegalActionError, KrosbalanceError, TeamError
from krosbalance.rulesets.arena.four_player import CLOCKWISE_ZONES, assign_zones
from krosbalance.rulesets.arena.teams import draft_splits_evenly, team_problem
from krosbalance.rulesets.base import PregamePlayer, Ruleset, summonable

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.rules import MatchRules
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.tension import ArenaController

T = TypeVar("T")


def validate_team(
    names: Sequence[str],
    registry: Registry | None = None,
    *,
    four_players: bool = False,
    level: int | None = None,
) -> tuple[CharacterSpec, ...]:
    """The team's specs, or TeamError saying which rule it breaks: 2-8 Krosmasters whose levels sum
    to exactly 12 (R-A146), or with four players 1-4 Krosmasters of level sum 6 (R-A150), or to
    ``level`` when given (the options ``team_level``, ``four_player_team_level``); a gold name at
    most once and a white name at most twice (R-A147)."""
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
    problem = team_problem(specs, four_players=four_players, level=level)
    if problem:
        raise TeamError(problem)
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


def random_deal(pool: Sequence[T], rng: np.random.Generator) -> tuple[list[T], list[T]]:
    """R-A17 (b), "a caso": the cards are shuffled and dealt one at a time, alternately, so each
    player gets half of them (four each from the eight box cards)."""
    order = rng.permutation(len(pool))
    return [pool[int(i)] for i in order[0::2]], [pool[int(i)] for i in order[1::2]]


def draft(
    pool: Sequence[CharacterSpec], players: Sequence[PregamePlayer], rng: np.random.Generator
) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
    """R-A17 (c), "pescando" (seed L2170-L2178), the hands of player 0 and player 1.

    The cards form a face-down deck (shuffled by ``rng``) and the first two are turned face up. A
    player drawn at random (``rng``) takes one of the two visible cards and a card is turned up to
    refill them; then each player in turn, starting with the other, takes two consecutive cards the
    same way, until the deck is used up; the last card goes to the player who chose first. Each pick
    is the player's ``choose_draft`` among the two visible cards.
    """
    if not draft_splits_evenly(len(pool)):
        raise TeamError(f"the draft splits a deck of {len(pool)} cards unevenly; it needs a multiple of 4")
    deck = [pool[int(i)] for i in rng.permutation(len(pool))]
    visible = [deck.pop(0), deck.pop(0)]
    hands: tuple[list[CharacterSpec], list[CharacterSpec]] = ([], [])
    first = int(rng.integers(2))

    def pick(player: int) -> None:
        choice = players[player].choose_draft(list(visible), list(hands[player]), list(hands[1 - player]))
        if not 0 <= choice < len(visible):
            raise IllegalActionError(f"player {player} picked card {choice} of {len(visible)} visible")
        hands[player].append(visible.pop(choice))
        if deck:
            visible.append(deck.pop(0))

    pick(first)
    player = 1 - first
    while deck:
        pick(player)
        pick(player)
        player = 1 - player
    hands[first].extend(visible)  # the last card
    return hands


def choose_board(
    boards: Sequence[Board],
    teams: Sequence[Sequence[CharacterSpec]],
    players: Sequence[PregamePlayer],
    first: int,
    team_of: Sequence[int] | None = None,
) -> int:
    """R-A19: the first player (``first``: the chooser, player 4 with four players, R-A154) picks
    the board among the candidates; returns its index. His opponents are the other partnerships'
    Krosmasters (``team_of``: each seat's partnership; default every player for himself), so a
    partner in two versus two is not one."""
    if len(boards) == 1:
        return 0
    side = team_of or tuple(range(len(teams)))
    opponents = [spec for seat, team in enumerate(teams) if side[seat] != side[first] for spec in team]
    choice = players[first].choose_board(list(boards), list(teams[first]), opponents)
    if not 0 <= choice < len(boards):
        raise IllegalActionError(f"player {first} picked board {choice} of {len(boards)}")
    return choice


def choose_edges(
    state: MatchState,
    controllers: Sequence[ArenaController],
    views: Sequence[MatchView],
) -> None:
    """R-A19: the player who is not first picks the edge he sits at — one of the board's deployment
    zones — and the first player sits opposite (``state.edges``, used by ``deploy``)."""
    chooser = 1 - state.first_player
    edges = [state.board.deploy[0], state.board.deploy[1]]
    choice = controllers[chooser].choose_edge(views[chooser], list(edges))
    if choice not in (0, 1):
        raise IllegalActionError(f"player {chooser} picked edge {choice}; the board has edges 0 and 1")
    state.edges[chooser] = choice
    state.edges[1 - chooser] = 1 - choice


def check_four_zones(board: Board) -> None:
    """R-A156: a four-player match needs a board with four start zones (the native core asks this
    before it plays, so both engines refuse such a board in the same words).

    Raises:
        TeamError: the board has fewer.
    """

    if len(board.deploy) < len(CLOCKWISE_ZONES):
        raise TeamError(
            f"board {board.id!r} has {len(board.deploy)} start zones; a four-player match needs "
            f"{len(CLOCKWISE_ZONES)} (R-A156)"
        )


def choose_zones(
    state: MatchState,
    controllers: Sequence[ArenaController],
    views: Sequence[MatchView],
) -> None:
    """R-A154, R-A156: player 1 orients the board by picking his start zone among the board's four
    (clockwise from the bottom), and the others sit clockwise from him in play order."""

    board = state.board
    check_four_zones(board)
    chooser = state.play_order[0]
    zones = [board.deploy[zone] for zone in CLOCKWISE_ZONES]
    assign_zones(state, controllers[chooser].choose_edge(views[chooser], zones))


def setup(
    teams: Sequence[Sequence[CharacterSpec]],
    board: Board,
    ruleset: MatchRules,
    dice: Dice,
    setup_rng: np.random.Generator,
    registry: CharacterSource,
    record: int = 0,
) -> MatchState:
    """A state with every seat's team spawned (not yet deployed), Timelines built (R-A20) and the
    play order decided (R-A18; four players: R-A153, R-A159) by the ruleset (``Ruleset.play_order``,
    from ``setup_rng``), with its partnerships."""
    rules = cast(Ruleset, ruleset)
    order = rules.play_order(teams, setup_rng)
    state = MatchState(board, ruleset, dice, record, team_of=rules.partnerships())
    for side in range(len(teams)):
        fighters = [spawn(state, spec, side) for spec in teams[side]]
        # Decreasing Initiative; equal Initiative keeps the order the team was given in (R-A20).
        state.timeline[side].extend(sorted(fighters, key=lambda f: -f.spec.initiative))
    state.summon_specs = summonable([spec for team in teams for spec in team], registry)
    state.play_order = tuple(order)
    state.first_player = state.play_order[0]
    state.active_side = state.first_player
    return state


def deploy(
    state: MatchState,
    controllers: Sequence[ArenaController],
    views: Sequence[MatchView],
) -> None:
    """The first player places all his figures on the deployment cells of his edge (R-A19), then the
    other (R-A25); with four players, each in play order in his start zone (R-A156)."""
    for side in state.play_order:
        zone = state.board.deploy[state.edges[side]]
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
