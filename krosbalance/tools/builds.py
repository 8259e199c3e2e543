"""The seeded matches the benchmark plays in each ruleset (:data:`WORKLOADS`), and the digest of a
whole match that the determinism tests compare.

Arena's workload is the box splits (every split of the ``arena-box`` Krosmasters into two legal
teams), Blast's every split of every four of its Krosmasters, the Duel Pack's every one-figure duel;
``make bench`` plays them on the reference, on the mypyc copy (:mod:`krosbalance.tools.mypyc_copy`)
and on the native core.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from krosbalance.content.registry import list_characters
from krosbalance.engine.results import MatchResult
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET
from krosbalance.rulesets.registry import get_ruleset

__all__ = [
    "BASE_SEED",
    "BLAST_BOARD",
    "BLAST_OPTIONS",
    "BOX_SET",
    "DUEL_BOARD",
    "WORKLOADS",
    "Workload",
    "blast_splits",
    "box_splits",
    "duel_splits",
    "match_digest",
    "match_outcome",
]

#: the first seed of the benchmark's matches
BASE_SEED = 20_251_130
#: the card set whose Krosmasters the benchmark splits into teams
BOX_SET = "arena-box"
#: the Blast board and options of the benchmark's Blast matches
BLAST_BOARD = "blast-a"
BLAST_OPTIONS: dict[str, Any] = {"challenges": ["random"]}
#: the Duel Pack's card set and the board of the benchmark's duels
DUEL_SET = "duel-pack"
DUEL_BOARD = "duel-workshop"


def box_splits(card_set: str = BOX_SET) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every split of the Krosmasters of ``card_set`` into two legal Arena teams, the first always
    holding the first Krosmaster by id (35 splits for the eight box Krosmasters); the team rules are
    the Arena ruleset's."""
    return get_ruleset(DEFAULT_RULESET).team_splits(list_characters(set=card_set))


def blast_splits() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every split into two Blast teams of every four of the Blast Krosmasters (45 for the six)."""
    rules = get_ruleset("blast")
    pool = list_characters(game="blast")
    return [split for four in itertools.combinations(pool, 4) for split in rules.team_splits(list(four))]


def duel_splits() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every one-figure duel between two of the Duel Pack's and the box's Krosmasters (R-D14)."""
    pool = list_characters(set=DUEL_SET) + list_characters(set=BOX_SET)
    return [((a,), (b,)) for a, b in itertools.combinations(pool, 2)]


Splits = list[tuple[tuple[str, ...], tuple[str, ...]]]


@dataclass(frozen=True, slots=True)
class Workload:
    """The seeded matches of one ruleset that the benchmark plays: the team splits taken in turn,
    the board, the options, the offset of the seeds and the prefix of its rows' labels."""

    splits: Callable[[], Splits]
    board: str
    options: dict[str, Any] | None
    seed_offset: int
    prefix: str


#: the workload of each ruleset the benchmark knows, by ruleset name
WORKLOADS: dict[str, Workload] = {
    DEFAULT_RULESET: Workload(box_splits, DEFAULT_BOARD, None, 0, ""),
    "blast": Workload(blast_splits, BLAST_BOARD, BLAST_OPTIONS, 1_000_000, "blast:"),
    "duel": Workload(duel_splits, DUEL_BOARD, None, 2_000_000, "duel:"),
}


def match_outcome(result: MatchResult) -> tuple[Any, ...]:
    """Everything in a MatchResult but its events, as comparable values: the outcome, the ruleset's
    holdings (its declared values) and each fighter's counters."""
    return (
        result.winner,
        result.end_reason,
        result.turns,
        result.first_player,
        result.teams,
        result.board,
        result.ruleset,
        result.seed,
        result.versions,
        [(f.as_row(), sorted(f.values.items())) for f in result.fighters],
        sorted(result.values.items()),
    )


def match_digest(result: MatchResult) -> str:
    """SHA-256 of everything a match leaves behind: every event (``repr``) and its outcome."""
    text = "\n".join(repr(e) for e in result.events) + "\n" + repr(match_outcome(result))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
