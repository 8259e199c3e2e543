"""The expansion of an experiment into its match specs, in a stable order (``match_id`` = position).

The order is the product pairing × board × AI matchup × deal × arm × seating: within a deal, the
arms (:meth:`krosbalance.sim.design.Experiment.arms_of`) in order, grouped by their reward (none,
then each held or bought token), each group played direct then side-swapped (or rotated round a
table of more), each seating once per option arm — all on the deal's seed, derived from the master
seed and the deal's global index. Specs, seeds and their order are fixed: the goldens, resume and
every shipped results folder depend on them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from krosbalance.play import deal_teams, pick_board
from krosbalance.sim.arms import Arm
from krosbalance.sim.catalog import arm_ruleset
from krosbalance.sim.design import DEALT_MODES, Experiment
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.seeding import deal_seed
from krosbalance.sim.spec import MatchSpec, Team

if TYPE_CHECKING:
    from krosbalance.content.registry import Registry

#: the seed-sequence child of a deal's seed that draws a ``random_tables`` table: apart from every
#: stream a match draws from (``krosbalance.play.match_streams`` uses the first children)
TABLE_STREAM = 100


def draw_table(teams: Sequence[Team], seats: int, seed: int) -> tuple[Team, ...]:
    """``random_tables``: ``seats`` teams drawn at random, with replacement, from the legal teams of
    the pool (each player has his own figures: two may field the same team), seeded by the deal."""
    import numpy as np

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(TABLE_STREAM,)))
    return tuple(teams[int(i)] for i in rng.integers(len(teams), size=seats))


def expand(experiment: Experiment) -> list[MatchSpec]:
    """The experiment's matches in a stable order; ``match_id`` is the index in this list.

    Order: pairing, board, AI matchup, deal; within a deal each reward variant (``held_rewards``: none,
    then each token), within it the direct match, then (paired seeds) its side-swapped twin, and each
    of these once per option arm (``[[variants]]``), in order, all with the deal's seed. ``deal``
    counts deals within a pairing across boards and AI matchups, so ``(pairing, deal)`` names one
    deal; the seed depends only on the deal's global index.
    """
    return list(iter_matches(experiment))


class _Deals:
    """What every deal of an experiment shares: each option arm's ruleset object (the one its
    matches play, built once) and, where the pregame of R-A17/R-A19 picks by the cards, its cards."""

    def __init__(self, experiment: Experiment) -> None:
        self.experiment = experiment
        self.dealt = experiment.mode in DEALT_MODES
        self.drawn = experiment.mode == "random_tables"
        pregame = self.dealt or experiment.board_choice
        self.rules = {name: arm_ruleset(experiment.ruleset, options) for name, options in experiment.arms}
        self.cards = {
            name: _cards(experiment.patch_of(name)) if pregame else None for name, _ in experiment.arms
        }

    def cells(self) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
        """(boards, AIs of the table) of each deal of a pairing, in order: board, AI matchup, deal."""
        experiment = self.experiment
        for boards in experiment.board_groups:
            for table_ais, n_deals in zip(experiment.ais, experiment.deals_per_matchup, strict=True):
                yield from itertools.repeat((boards, table_ais), n_deals)

    def teams(
        self, pairing: tuple[Team, ...], arm: str, table_ais: Sequence[str], seed: int
    ) -> tuple[Team, ...]:
        """The teams an option arm plays a deal with: the pairing's, or dealt anew by its rules (R-A17)."""
        if not self.dealt:
            return pairing

        return deal_teams(
            self.experiment.mode,
            pairing[0],
            (table_ais[0], table_ais[1]),
            seed,
            ruleset=self.rules[arm],
            registry=self.cards[arm],
        )

    def board(
        self,
        boards: tuple[str, ...],
        arm: str,
        teams: Sequence[Team],
        table_ais: Sequence[str],
        seed: int,
        seated: tuple[int, ...],
    ) -> str:
        """The board of a match: the deal's, or (R-A19; R-A154 with four) the one its first player picks."""
        if len(boards) == 1:
            return boards[0]

        return pick_board(
            boards,
            *(teams[k] for k in seated),
            ai=tuple(table_ais[k] for k in seated),
            seed=seed,
            ruleset=self.rules[arm],
            registry=self.cards[arm],
        )


def _cards(patch: str) -> Registry | None:
    """The patched cards a draft or a board pick reads (None: the shipped cards)."""
    if not patch:
        return None
    cards: Registry | None = patched_registry(patch)
    return cards


DealFilter = Callable[[int, int, range], bool]
"""``keep(matchup, k, ids)``: whether a deal is played: the ``k``-th deal (from 0) of AI matchup
``matchup`` (its index in ``ais``) of a pairing and board, whose matches have the ids ``ids`` (an
adaptive sample, :mod:`krosbalance.sim.target`)."""


def deal_matchups(experiment: Experiment) -> list[tuple[int, int]]:
    """(AI matchup index, deal within that matchup) of each deal of a pairing, in the order of
    ``deal`` (board, AI matchup, deal)."""
    return [
        (i, k)
        for _ in experiment.board_groups
        for i, n_deals in enumerate(experiment.deals_per_matchup)
        for k in range(n_deals)
    ]


def matches_per_deal(experiment: Experiment, pairing: Sequence[Team]) -> int:
    """Matches one deal of ``pairing`` is played as: each arm in each seating."""
    return len(experiment.arms_of(pairing)) * len(experiment.seatings)


def iter_matches(experiment: Experiment, keep: DealFilter | None = None) -> Iterator[MatchSpec]:
    """The match specs of :func:`expand`, one at a time; with ``keep``, only the deals it keeps (the
    others are skipped before their teams are dealt; match ids stay those of :func:`expand`)."""
    deals = _Deals(experiment)
    first = 0  # the match id of the deal's first match
    per_pairing = experiment.deals_per_pairing
    cells = deal_matchups(experiment) if keep is not None else []
    for p, pairing in enumerate(experiment.pairings):
        arms = experiment.arms_of(pairing)
        per_deal = len(arms) * len(experiment.seatings)
        drawable = deals.rules[experiment.arms[0][0]].all_teams(list(pairing[0])) if deals.drawn else []
        for deal, (boards, table_ais) in enumerate(deals.cells()):
            ids = range(first, first + per_deal)
            first += per_deal
            if keep is not None and not keep(*cells[deal], ids):
                continue  # skipped before its teams are dealt; the ids stay its own
            match_ids = iter(ids)
            seed = deal_seed(experiment.master_seed, p * per_pairing + deal)
            # the table of the deal: the pairing's, or drawn from the pool's legal teams
            table = draw_table(drawable, experiment.seats, seed) if deals.drawn else pairing
            arm_teams = {name: deals.teams(table, name, table_ais, seed) for name, _ in experiment.arms}
            for group in _by_reward(arms):  # same seed: paired with the baseline
                for seating in experiment.seatings:
                    for arm in group:  # every arm on the same seed
                        yield _spec(
                            experiment,
                            deals,
                            next(match_ids),
                            p,
                            deal,
                            seed,
                            seating,
                            arm,
                            arm_teams[arm.name],
                            boards,
                            table_ais,
                        )


def _by_reward(arms: Sequence[Arm]) -> Iterator[list[Arm]]:
    """The arms in runs of one reward variant (``arms_of`` orders them reward first)."""
    for _, group in itertools.groupby(arms, key=lambda arm: arm.reward):
        yield list(group)


def _spec(
    experiment: Experiment,
    deals: _Deals,
    match_id: int,
    pairing: int,
    deal: int,
    seed: int,
    seating: int,
    arm: Arm,
    teams: tuple[Team, ...],
    boards: tuple[str, ...],
    table_ais: tuple[str, ...],
) -> MatchSpec:
    """One match: an arm of a deal in one seating."""
    seats = experiment.seats
    swapped = seats == 2 and seating == 1
    board = deals.board(boards, arm.name, teams, table_ais, seed, _seated(seats, swapped, seating))
    return MatchSpec(
        match_id=match_id,
        experiment=experiment.name,
        pairing=pairing,
        deal=deal,
        swapped=swapped,
        seed=seed,
        team_a=teams[0],
        team_b=teams[1],
        ai_a=table_ais[0],
        ai_b=table_ais[1],
        board=board,
        ruleset=experiment.ruleset,
        options_json=arm.options_json(swapped),
        record=experiment.record,
        variant=arm.label,
        more_teams=tuple(teams[2:]),
        more_ais=tuple(table_ais[2:]),
        rotation=seating if seats > 2 else 0,
        patch=arm.patch,
        forbid=arm.forbid,
        content=experiment.content,
    )


def _seated(seats: int, swapped: bool, rotation: int) -> tuple[int, ...]:
    """Which of a table's teams (0 = A, 1 = B, ...) plays each seat: ``MatchSpec.label_index``."""
    if seats == 2:
        return (1, 0) if swapped else (0, 1)
    return tuple((seat + rotation) % seats for seat in range(seats))
