"""Test doubles for the simulation layer: a small catalog and deterministic fake ``play_match``.

They live in an importable module (not in a test file) so loky workers and ``python -c`` children can
import them by reference.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from krosbalance.engine.results import FighterRecord, FighterStats, MatchResult
from krosbalance.errors import ContentError, KrosbalanceError, TeamError
from krosbalance.rulesets.arena import teams as arena_teams

BOX = (
    "queen_of_the_tofus",
    "king_of_the_gobballs",
    "oscar_kass",
    "anna_tommy",
    "bill_tell",
    "kassius_kaos",
    "lil_healey",
    "bad_aboum",
)
GOLD = {"queen_of_the_tofus", "king_of_the_gobballs"}
EXTRA_LEVELS = {"big_six": 6, "small_two": 2, "mid_four": 4}
LEVELS = {**dict.fromkeys(BOX, 3), **EXTRA_LEVELS}


@dataclass(frozen=True)
class FakeCard:
    """Just what the team rules read of a character."""

    id: str
    name: str
    level: int
    colour: str


CARDS = {n: FakeCard(n, n.title(), level, "gold" if n in GOLD else "white") for n, level in LEVELS.items()}


class FakeCatalog:
    """Box Krosmasters (level 3; King and Queen gold) plus three white extras of levels 6, 2 and 4,
    under the Arena ruleset's team rules (``krosbalance.rulesets.arena.teams``)."""

    def resolve_character(self, name: str) -> str:
        if name not in LEVELS:
            raise ContentError("characters", "id", f"unknown character {name!r}")
        return name

    def _rules(self, ruleset: str) -> Any:
        if ruleset != "arena":
            raise KrosbalanceError(f"unknown ruleset {ruleset!r}")
        return arena_teams

    def check_team(self, ids: Sequence[str], ruleset: str = "arena", options: Any = None) -> None:
        four = self.seats(ruleset, options) == 4
        problem = self._rules(ruleset).team_problem([CARDS[i] for i in ids], four_players=four)
        if problem:
            raise TeamError(problem)

    def legal_teams(
        self, pool: Sequence[str], ruleset: str = "arena", options: Any = None
    ) -> list[tuple[str, ...]]:
        return self._rules(ruleset).legal_teams(pool, CARDS, self.seats(ruleset, options) == 4)

    def all_teams(
        self, names: Sequence[str], ruleset: str = "arena", options: Any = None
    ) -> list[tuple[str, ...]]:
        four = self.seats(ruleset, options) == 4
        return self._rules(ruleset).every_legal_team({n: CARDS[n] for n in names}, four_players=four)

    def team_splits(
        self, pool: Sequence[str], ruleset: str = "arena", options: Any = None
    ) -> list[tuple[tuple[str, ...], ...]]:
        return self._rules(ruleset).team_splits(pool, CARDS)

    def deal_problem(
        self, mode: str, pool: Sequence[str], ruleset: str = "arena", options: Any = None
    ) -> str:
        return self._rules(ruleset).deal_problem(mode, pool, CARDS)

    def characters(
        self, ruleset: str = "arena", *, set: str | None = None, tag: str | None = None
    ) -> list[str]:
        if set not in (None, "arena-box") or tag is not None:
            return []
        return list(LEVELS) if set is None else [n for n, level in LEVELS.items() if level == 3]

    def boards(self, ruleset: str = "arena") -> list[str]:
        return ["arena-elemental", "test-open-5x5"]

    def ais(self, ruleset: str = "arena") -> list[str]:
        from krosbalance.ai.registry import list_ais  # the real names: shipped files use every tier

        return list_ais(ruleset)

    def ai_problem(self, name: str, ruleset: str = "arena", seats: int = 2) -> str:
        from krosbalance.ai.registry import ai_problem

        return ai_problem(name, ruleset, seats)

    def seats(self, ruleset: str = "arena", options: Any = None) -> int:
        return 4 if (options or {}).get("mode") in ("free_for_all", "two_vs_two") else 2

    def rulesets(self) -> list[str]:
        return ["arena"]

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        for key in options:
            if key not in (
                "turn_limit",
                "starting_gg",
                "start_rewards",
                "start_reward_holders",
                "purchasable_rewards",
                "demonic_rewards",
                "mode",
            ):
                raise KrosbalanceError(f"unknown ruleset option {key!r}")

    def rewards(self) -> list[str]:
        return ["xelor_style", "feca_style", "action_dofus"]

    def elements(self, character: str, ruleset: str = "arena", options: Any = None) -> list[str]:
        """Every fake Krosmaster has one spell named after it, the punch, Dodge and two options."""
        self.resolve_character(character)
        return [f"spell:{character}_shot", "spell:punch", "power:dodge", "action:pick_kama", "action:buy_gg"]


def fake_play(
    team0: Sequence[str],
    team1: Sequence[str],
    *,
    board: Any = "arena-elemental",
    ai: str | tuple[str, str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: Any = "arena",
) -> MatchResult:
    """A pure function of its arguments that looks like a match result (``ruleset``: a name or, as
    the runner passes it, the ruleset object)."""
    ais = (ai, ai) if isinstance(ai, str) else tuple(ai)
    key = zlib.crc32(f"{','.join(team0)}|{','.join(team1)}|{board}|{ais}".encode())
    rng = np.random.default_rng([seed, key])
    roll = int(rng.integers(0, 10))
    winner = None if roll == 0 else roll % 2
    fighters = []
    for side, team in enumerate((team0, team1)):
        for name in team:
            stats = FighterStats(kills=int(rng.integers(0, 3)), moves=int(rng.integers(0, 20)))
            stats.damage_dealt[int(rng.integers(0, 5))] += int(rng.integers(0, 9))
            fighters.append(FighterRecord(len(fighters), side, name, name.title(), 3, False, None, stats))
    end_reason = "gg" if winner is not None else "gg_exhausted"
    turns = int(rng.integers(4, 30))
    first_player = int(rng.integers(0, 2))
    values = {  # Arena's declared columns
        "gg": (int(rng.integers(0, 13)), int(rng.integers(0, 13))),
        "kamas": (int(rng.integers(0, 20)), int(rng.integers(0, 20))),
        "wild_gg_left": bool(rng.integers(0, 2)),
    }
    return MatchResult(
        winner=winner,
        end_reason=end_reason,
        turns=turns,
        first_player=first_player,
        teams=(tuple(team0), tuple(team1)),
        board=str(board),
        ruleset=getattr(ruleset, "name", ruleset),
        seed=seed,
        fighters=fighters,
        versions={"engine": "fake-1", "content": "fake-content"},
        values=values,
    )


def slow_play(*args: Any, **kwargs: Any) -> MatchResult:
    """``fake_play`` that takes 40 ms, so a child run can be killed half-way."""
    time.sleep(0.04)
    return fake_play(*args, **kwargs)


def crashy_play(*args: Any, **kwargs: Any) -> MatchResult:
    """``fake_play`` that raises for one seed in five."""
    if kwargs.get("seed", 0) % 5 == 0:
        raise RuntimeError(f"boom on seed {kwargs.get('seed')}")
    return fake_play(*args, **kwargs)


class FakeEvent:
    """An event with the attributes replay relies on: kind, turn, readable str, positions at turn end."""

    def __init__(
        self, kind: str, turn: int, positions: tuple[tuple[int, str, int, int, int], ...] = ()
    ) -> None:
        self.kind, self.turn, self.positions = kind, turn, positions

    def __str__(self) -> str:
        return f"{self.kind} (turn {self.turn})"


def eventful_play(*args: Any, **kwargs: Any) -> MatchResult:
    """``fake_play`` that records three turns of events when asked for ``record="full"``."""
    result = fake_play(*args, **kwargs)
    if kwargs.get("record") == "full":
        for turn in (1, 2, 3):
            result.events.append(FakeEvent("moved", turn))
            result.events.append(
                FakeEvent("turn_ended", turn, ((0, "big_six", 0, turn, 0), (1, "oscar_kass", 1, 20, 1)))
            )
    return result


#: the synthetic team field: three star teams of known strengths well above the rest, whose
#: strengths are spread in [0, 0.33) by a hash of the team (so the known top 3 is these, in order)
STAR_TEAMS = {
    ("bill_tell", "bill_tell", "oscar_kass", "oscar_kass"): 3.0,
    ("anna_tommy", "king_of_the_gobballs", "lil_healey", "queen_of_the_tofus"): 2.5,
    ("bill_tell", "king_of_the_gobballs", "lil_healey", "queen_of_the_tofus"): 2.0,
}
#: the roster of the synthetic field (every star team can be drawn from it)
STAR_ROSTER = (
    "bill_tell",
    "oscar_kass",
    "anna_tommy",
    "lil_healey",
    "king_of_the_gobballs",
    "queen_of_the_tofus",
)


def team_strength(team: Sequence[str]) -> float:
    key = tuple(sorted(team))
    return STAR_TEAMS.get(key, (zlib.crc32(",".join(key).encode()) % 1000) / 3000)


def strength_play(team0: Sequence[str], team1: Sequence[str], *, seed: int = 0, **kwargs: Any) -> MatchResult:
    """``fake_play`` whose winner follows a Bradley-Terry model of known team strengths:
    side 0 wins with probability 1 / (1 + exp(s1 - s0)) (a synthetic field for the team ladder)."""
    result = fake_play(team0, team1, seed=seed, **kwargs)
    rng = np.random.default_rng([seed, zlib.crc32(f"{','.join(team0)}|{','.join(team1)}".encode())])
    p = 1.0 / (1.0 + np.exp(team_strength(team1) - team_strength(team0)))
    result.winner = 0 if rng.random() < p else 1
    result.end_reason = "gg"
    return result
