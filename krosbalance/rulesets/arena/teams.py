"""Arena's team rules (R-A146, R-A147, R-A150), in one place: every team check, team enumeration and
pool split of the project (experiments, the conformance battery, the benchmark) calls these.

A team is 2 to 8 Krosmasters whose levels sum to exactly 12 (with four players 1 to 4 of level sum
6); a gold name appears at most once and a white name at most twice. The level sums are the
ruleset's options ``team_level`` and ``four_player_team_level`` (the rulebook's totals by default):
each function here takes the total as ``level`` (None: the rulebook's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Protocol

TEAM_LEVEL = 12
TEAM_SIZE = (2, 8)
FOUR_PLAYER_TEAM_LEVEL = 6  # R-A150
FOUR_PLAYER_TEAM_SIZE = (1, 4)  # R-A150
COPIES_ALLOWED: dict[str, int] = {"gold": 1, "white": 2}
DRAFT_MULTIPLE = 4  # R-A17's draft gives both players as many cards only for a multiple of 4

Team = tuple[str, ...]


class Card(Protocol):
    """What the team rules read of a character (a ``CharacterSpec`` has it all)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def level(self) -> int: ...

    @property
    def colour(self) -> str: ...


def copies_allowed(card: Card) -> int:
    """How many times a name may appear in one team (R-A147)."""
    return COPIES_ALLOWED.get(card.colour, 1)


def team_rule(four_players: bool, level: int | None = None) -> tuple[tuple[int, int], int, str]:
    """(team size range, level sum, rule id) of a team: two players (R-A146) or four (R-A150), with
    ``level`` in place of the rulebook's total when given."""
    if four_players:
        return FOUR_PLAYER_TEAM_SIZE, FOUR_PLAYER_TEAM_LEVEL if level is None else level, "R-A150"
    return TEAM_SIZE, TEAM_LEVEL if level is None else level, "R-A146"


def team_problem(cards: Sequence[Card], *, four_players: bool = False, level: int | None = None) -> str:
    """What makes a team of these Krosmasters illegal (R-A146, R-A147; four players: R-A150), or ''
    when it is legal."""
    label = ", ".join(c.name for c in cards) or "(empty)"
    size, level, rule = team_rule(four_players, level)
    if not size[0] <= len(cards) <= size[1]:
        return f"team [{label}] has {len(cards)} Krosmasters; a team has {size[0]} to {size[1]} ({rule})"
    total = sum(c.level for c in cards)
    if total != level:
        return f"team [{label}] has level sum {total}; it must be exactly {level} ({rule})"
    for card_id, copies in Counter(c.id for c in cards).items():
        card = next(c for c in cards if c.id == card_id)
        allowed = copies_allowed(card)
        if copies > allowed:
            return (
                f"team [{label}] has {copies} copies of {card.name} ({card.colour} name); "
                f"at most {allowed} allowed (R-A147)"
            )
    return ""


def _sub_multisets(
    pool: Sequence[str], cards: Mapping[str, Card], four_players: bool = False, level: int | None = None
) -> Iterator[Team]:
    """Every sub-multiset of ``pool`` with the team level sum and size (12 and 2-8, R-A146; with four
    players 6 and 1-4, R-A150) and no name more often than R-A147 allows, in pool order.

    A name is taken at most as many times as a team may hold it (R-A147), so the walk's breadth is
    bounded by the rule, not by how many copies the pool lists: a pool of 60,000 names (eight names
    listed 7,500 times each) is walked as quickly as the box's eight."""
    counts = Counter(pool)
    names = list(dict.fromkeys(pool))
    levels = {n: cards[n].level for n in names}
    most = {n: min(counts[n], copies_allowed(cards[n])) for n in names}
    size, team_level, _ = team_rule(four_players, level)

    def walk(i: int, chosen: list[str], level: int) -> Iterator[Team]:
        if level > team_level or len(chosen) > size[1]:
            return
        if i == len(names):
            if level == team_level and len(chosen) >= size[0]:
                yield tuple(chosen)
            return
        name = names[i]
        for k in range(most[name], -1, -1):
            yield from walk(i + 1, chosen + [name] * k, level + k * levels[name])

    yield from walk(0, [], 0)


def _legal(
    team: Team, cards: Mapping[str, Card], four_players: bool = False, level: int | None = None
) -> bool:
    return not team_problem([cards[name] for name in team], four_players=four_players, level=level)


def legal_teams(
    pool: Sequence[str], cards: Mapping[str, Card], four_players: bool = False, level: int | None = None
) -> list[Team]:
    """All legal teams that can be drawn from a pool of figures (a multiset of ids), in pool order
    (``four_players``: the four-player team rule, R-A150)."""
    return [
        team
        for team in _sub_multisets(pool, cards, four_players, level)
        if _legal(team, cards, four_players, level)
    ]


def team_splits(
    pool: Sequence[str], cards: Mapping[str, Card], level: int | None = None
) -> list[tuple[Team, Team]]:
    """Every split of the pool into two legal teams, each unordered split once (team A holds pool[0]).

    A split gives every figure of the pool to one of two teams of at most 8 (R-A146) whose levels sum
    to the team level each: a pool of more figures, or of another level sum, has no split, which is
    answered before any team is enumerated (a pool of 60,000 names is refused at once)."""
    if split_problem(pool, cards, level):
        return []
    order = {name: i for i, name in reversed(list(enumerate(pool)))}
    whole = Counter(pool)
    seen: set[tuple[Team, Team]] = set()
    splits: list[tuple[Team, Team]] = []
    for team in _sub_multisets(pool, cards, level=level):
        rest_counts = whole - Counter(team)
        rest = tuple(sorted(rest_counts.elements(), key=order.__getitem__))
        key = (min(team, rest), max(team, rest))
        if key in seen or not rest:
            continue
        seen.add(key)
        if _legal(team, cards, level=level) and _legal(rest, cards, level=level):
            a, b = (team, rest) if pool[0] in team else (rest, team)
            splits.append((a, b))
    return splits


def split_problem(pool: Sequence[str], cards: Mapping[str, Card], level: int | None = None) -> str:
    """Why no split of ``pool`` into two legal teams (R-A146, R-A147) can exist, found by counting
    alone (linear in the pool), or '' when splits may exist (:func:`team_splits` then enumerates them)."""
    (fewest, most), team_level, rule = team_rule(False, level)
    if not 2 * fewest <= len(pool) <= 2 * most:
        return (
            f"it has {len(pool)} figures; a split gives each to one of two teams of {fewest} to {most} "
            f"({rule}), so it needs {2 * fewest} to {2 * most}"
        )
    total = sum(cards[name].level for name in pool)
    if total != 2 * team_level:
        return (
            f"its levels sum to {total}; two teams of level sum {team_level} need {2 * team_level} ({rule})"
        )
    for name, copies in Counter(pool).items():
        if copies > 2 * copies_allowed(cards[name]):
            return (
                f"it holds {copies} copies of {cards[name].name} ({cards[name].colour} name); two teams hold "
                f"at most {2 * copies_allowed(cards[name])} (R-A147)"
            )
    return ""


def every_legal_team(
    cards: Mapping[str, Card], four_players: bool = False, level: int | None = None
) -> list[Team]:
    """Every legal team of these Krosmasters (each name up to the copies it allows), as sorted tuples
    of ids, by size then name."""
    names = sorted(cards)
    pool = [name for name in names for _ in range(copies_allowed(cards[name]))]
    return sorted(legal_teams(pool, cards, four_players, level), key=lambda team: (len(team), team))


def draft_splits_evenly(size: int) -> bool:
    """Whether R-A17's draft (1 card, then 2 a turn, the last card to the first chooser) gives both
    players as many cards: only for a deck whose size is a multiple of 4 (8 in the box)."""
    return size >= DRAFT_MULTIPLE and size % DRAFT_MULTIPLE == 0


def deal_problem(mode: str, pool: Sequence[str], cards: Mapping[str, Card], level: int | None = None) -> str:
    """Why a pool cannot be dealt by ``draft`` or ``random_deal`` (R-A17), or '' when it can: half of
    it to each player, every possible half a legal team, and for the draft a multiple of 4 cards."""
    size = len(pool)
    if mode == "draft" and not draft_splits_evenly(size):
        return (
            f"the draft (R-A17: one card, then two a turn, the last to the first chooser) splits a pool "
            f"evenly only when its size is a multiple of 4; this one has {size}"
        )
    if size < 4 or size % 2:
        return f"a random deal gives half the pool to each player; it needs an even number (>= 4), not {size}"
    (_, most), _, rule = team_rule(False, level)
    if size // 2 > most:  # and the halves are not enumerated: there would be too many to try
        return f"half of the pool is {size // 2} Krosmasters; a team has at most {most} ({rule})"
    for half in sorted({tuple(sorted(c)) for c in combinations(pool, size // 2)}):
        problem = team_problem([cards[name] for name in half], level=level)
        if problem:
            return f"every half of the pool must be a legal team for mode {mode!r}; {', '.join(half)} is not: {problem}"
    return ""
