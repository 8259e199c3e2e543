"""A public conformance kit: play matches with the state checked before every decision.

Every character and every AI must pass it (PettingZoo's ``api_test`` is the model): a match between
any legal teams on any shipped board plays to a result, and the invariants of
``krosbalance.testing.invariants`` hold before every decision, i.e. after every action the engine
carried out. ``CheckingController`` wraps any AI without changing what it decides, so a checked
match and an unchecked one with the same seed give the same event log.

Example::

    from krosbalance.testing.conformance import run_checked_match
    result = run_checked_match(["anna_tommy"] * 2 + ["bill_tell"] * 2,
                               ["bad_aboum", "lil_healey", "oscar_kass", "kassius_kaos"],
                               "arena-pit", seed=7)
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.match import run_to_end, summarise
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET, prepare_match
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.invariants import check_invariants

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult
    from krosbalance.engine.state import MatchState
    from krosbalance.engine.turn import Trigger
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.arena.tension import TensionChoice

__all__ = [
    "CheckingController",
    "all_legal_teams",
    "run_checked_match",
    "battery_plan",
    "first_difference",
    "snapshot",
]


def snapshot(state: MatchState) -> tuple[Any, ...]:
    """Everything a decision could conceivably change, as plain comparable values: every fighter's
    cell, injuries, MP/AP, markers, powers and limits, the bitmasks, the ruleset's own state (Arena:
    GG and kamas) and the clock."""
    fighters = tuple(
        (
            f.uid,
            f.alive,
            f.cell,
            f.injuries,
            f.hp,
            f.mp,
            f.ap,
            f.plus_mp,
            f.minus_mp,
            f.plus_ap,
            f.minus_ap,
            tuple(sorted(f.powers)),
            tuple(sorted(f.inspired)),
            tuple(sorted(f.turn_uses.items())),
            tuple(sorted(f.game_uses)),
            tuple(sorted(f.banned_targets.items())),
            f.range_bonus,
            f.blocked,
            tuple(t.uid for t in f.summons),
        )
        for f in state.fighters
    )
    return (
        fighters,
        tuple(None if p is None else p.uid for p in state.by_cell),
        state.obstacles,
        state.sight_blockers,
        state.trees,
        state.bushes,
        state.crates,
        state.fixed_sight,
        state.enter_cells,
        tuple(sorted((c, t.uid) for c, t in state.traps.items())),
        state.ruleset.snapshot(state),
        state.turn,
        state.active_side,
        None if state.active is None else state.active.uid,
        state.finished,
        state.winner,
        len(state.events),
        tuple(sorted(state.scenery_injuries.items())),
        tuple(state.edges),
        state.invisible,
        state.unsettled,
        tuple(f.uid for f in state.pending_kos),
    )


class CheckingController:
    """Wrap an AI so ``check_invariants(state)`` runs before each of its decisions.

    The wrapper only reads the state, so the inner AI decides exactly as it would unwrapped. With
    ``check_untouched`` it also compares a ``snapshot`` of the state before and after each decision:
    an AI that changes the match while deciding fails at once.

    Attributes:
        checks: how many times the invariants were checked (one per decision).
    """

    def __init__(self, inner: Any, state: MatchState, *, check_untouched: bool = False) -> None:
        self.inner = inner
        self.state = state
        self.check_untouched = check_untouched
        self.checks = 0

    def _guard(self, what: str, decide: Callable[[], Any], *, mid_instant: bool = False) -> Any:
        check_invariants(self.state, mid_instant=mid_instant)
        self.checks += 1
        if not self.check_untouched:
            return decide()
        before = snapshot(self.state)
        answer = decide()
        if snapshot(self.state) != before:
            raise AssertionError(f"{type(self.inner).__name__}.{what} changed the match state")
        return answer

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        return self._guard("choose_deployment", lambda: self.inner.choose_deployment(view, fighters, cells))

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        return self._guard("choose_tension", lambda: self.inner.choose_tension(view, raw, options))

    def choose_action(self, view: MatchView) -> Action:
        return self._guard("choose_action", lambda: self.inner.choose_action(view))

    def choose_edge(self, view: MatchView, edges: list[int]) -> int:
        return self._guard("choose_edge", lambda: self.inner.choose_edge(view, edges))

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]:
        return self._guard("order_creatures", lambda: self.inner.order_creatures(view, summoner, creatures))

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]:
        return self._guard("order_triggers", lambda: self.inner.order_triggers(view, triggers))

    def choose_favor_slot(self, view: MatchView, favor: Any, slots: list[Any]) -> int:
        return self._guard("choose_favor_slot", lambda: self.inner.choose_favor_slot(view, favor, slots))

    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int:
        return self._guard("choose_next", lambda: self.inner.choose_next(view, candidates))

    def choose_player(self, view: MatchView, purpose: str, seats: list[int]) -> int:
        return self._guard(
            "choose_player", lambda: self.inner.choose_player(view, purpose, seats), mid_instant=True
        )

    def __getattr__(self, name: str) -> Any:  # anything else an AI exposes (name, rng, ...)
        return getattr(self.inner, name)


def run_checked_match(
    team0: Sequence[str],
    team1: Sequence[str],
    board: str | Board = DEFAULT_BOARD,
    seed: int = 0,
    *,
    ai: str | Sequence[str] = "random",
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str = DEFAULT_RULESET,
    registry: Registry | None = None,
    check_untouched: bool = False,
    more_teams: Sequence[Sequence[str]] = (),
) -> MatchResult:
    """Play one match like ``krosbalance.play.play_match``, checking the invariants after deployment,
    before every decision and at the end; an AssertionError names the broken invariant.
    ``more_teams`` seats further players (four-player Arena: the teams of seats 2 and 3)."""
    teams = [list(team0), list(team1), *(list(t) for t in more_teams)]
    state, controllers, views = prepare_match(
        *teams,
        board=board,
        ai=ai,
        seed=seed,
        options=options,
        record=record,
        ruleset=ruleset,
        registry=registry,
    )
    check_invariants(state)
    checked = tuple(
        CheckingController(controller, state, check_untouched=check_untouched) for controller in controllers
    )
    try:
        run_to_end(state, checked, views)
        check_invariants(state)
    except AssertionError as exc:
        raise AssertionError(
            f"{exc} [replay: teams {' vs '.join(str(t) for t in teams)}, board "
            f"{state.board.id}, seed {seed}, ai {ai}]"
        ) from None
    if not state.finished:
        raise AssertionError(f"run_to_end returned an unfinished match (seed {seed})")
    return summarise(state, seed)


def all_legal_teams(
    pool: Sequence[str] | None = None, registry: Registry | None = None, ruleset: str = DEFAULT_RULESET
) -> list[tuple[str, ...]]:
    """Every legal team of the ruleset (Arena: R-A146, R-A147) from ``pool`` (default: every
    Krosmaster), as sorted tuples of ids, by size then name: each name up to the copies the rules
    allow (Arena: gold once, white twice)."""
    registry = registry or default_registry()
    rules = get_ruleset(ruleset)
    names = sorted(set(pool if pool is not None else registry.list_characters(game=rules.card_game)))
    return rules.all_teams(names, registry)


BATTERY_SEED = 20_251_130
END_REASONS = ("gg", "last_standing", "gg_exhausted", "mutual_ko", "turn_limit")


def battery_plan(
    board: str, n_matches: int, *, start: int = 0, teams: Sequence[tuple[str, ...]] | None = None
) -> list[tuple[tuple[str, ...], tuple[str, ...], int]]:
    """(team0, team1, seed) of matches ``start`` to ``start + n_matches`` of a board's battery.

    Teams are dealt from shuffled decks of every legal team (``all_legal_teams``), a new shuffle per
    deck, so every team appears once before any appears twice. In the first deck, the teams that
    bring a Krosmaster not yet dealt come first (in shuffled order), so the first few matches field
    every Krosmaster that can be in a legal team, whatever the content. The seeds depend on the board
    id and the match number only, so any slice of the plan can be replayed on its own.
    """
    deck_source = list(teams if teams is not None else all_legal_teams())
    board_key = zlib.crc32(board.encode("utf-8"))
    rng = np.random.default_rng(np.random.SeedSequence([BATTERY_SEED, board_key]))
    needed = 2 * (start + n_matches)
    dealt: list[tuple[str, ...]] = []
    while len(dealt) < needed:
        deck = [deck_source[int(i)] for i in rng.permutation(len(deck_source))]
        dealt.extend(_covering_first(deck) if not dealt else deck)
    return [
        (dealt[2 * k], dealt[2 * k + 1], int(board_key % 100_000) * 100_000 + k)
        for k in range(start, start + n_matches)
    ]


def _covering_first(deck: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The deck with the teams that each bring a Krosmaster not yet seen moved to the front."""
    unseen = {name for team in deck for name in team}
    front: list[tuple[str, ...]] = []
    rest: list[tuple[str, ...]] = []
    for team in deck:
        if unseen.intersection(team):
            front.append(team)
            unseen.difference_update(team)
        else:
            rest.append(team)
    return front + rest


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> str:
    """Where two event logs first differ, for assertion messages ('' when they are equal)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"event {i} differs: {x!r} != {y!r}"
    if len(a) != len(b):
        return f"logs have {len(a)} and {len(b)} events; the first {min(len(a), len(b))} agree"
    return ""
