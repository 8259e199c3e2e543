"""The match spec: everything one match needs, a pure function of it (plus code versions).

``krosbalance.sim.expansion`` makes them from an experiment; workers play them
(``krosbalance.sim.match``) and the tables record them (``krosbalance.sim.tables``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Team = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything one match needs; a match is a pure function of this (plus code versions).

    Team A / team B are the pairing's two teams; ``swapped`` puts team B on side 0. AIs follow teams.
    A table of more than two players adds teams C, D (``more_teams``, with ``more_ais``) and seats
    them rotated: seat ``s`` plays the table's team ``(s + rotation) % seats`` (``teams``, ``ais``).
    """

    match_id: int
    experiment: str
    pairing: int
    deal: int
    swapped: bool
    seed: int
    team_a: Team
    team_b: Team
    ai_a: str
    ai_b: str
    board: str
    ruleset: str
    options_json: str
    record: str = "none"
    variant: str = ""
    more_teams: tuple[Team, ...] = ()
    more_ais: tuple[str, ...] = ()
    rotation: int = 0
    patch: str = ""  # the arm's balance patch, canonical JSON ('' = the shipped cards)
    forbid: str = ""  # restricted play: {figure: [elements]} as JSON ('' = none; sim.restricted)
    content: str = ""  # the designer's cards' folder, absolute ('' = the shipped cards; content.custom)

    @property
    def n_seats(self) -> int:
        return 2 + len(self.more_teams)

    def label_index(self, seat: int) -> int:
        """Which of the table's teams (0 = A, 1 = B, ...) plays ``seat``."""
        if not self.more_teams:
            return seat ^ int(self.swapped)
        return (seat + self.rotation) % self.n_seats

    @property
    def table(self) -> tuple[Team, ...]:
        """The table's teams A, B, ... in the order the experiment gave them."""
        return (self.team_a, self.team_b, *self.more_teams)

    @property
    def table_ais(self) -> tuple[str, ...]:
        return (self.ai_a, self.ai_b, *self.more_ais)

    @property
    def teams(self) -> tuple[Team, ...]:
        """The team of each seat."""
        table = self.table
        return tuple(table[self.label_index(seat)] for seat in range(self.n_seats))

    @property
    def ais(self) -> tuple[str, ...]:
        """The AI of each seat (an AI follows its team)."""
        ais = self.table_ais
        return tuple(ais[self.label_index(seat)] for seat in range(self.n_seats))

    @property
    def team0(self) -> Team:
        """Seat 0's team (with more than two players, rotated like every seat: ``teams[0]``)."""
        return self.table[self.label_index(0)]

    @property
    def team1(self) -> Team:
        return self.table[self.label_index(1)]

    @property
    def ai0(self) -> str:
        return self.table_ais[self.label_index(0)]

    @property
    def ai1(self) -> str:
        return self.table_ais[self.label_index(1)]

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_json)

    def side_team(self, side: int) -> str:
        """``"A"``, ``"B"`` (``"C"``, ``"D"``): which of the pairing's teams played seat ``side``."""
        return "ABCDEFGH"[self.label_index(side)]

    def as_json(self) -> str:
        more: dict[str, Any] = {}
        if self.more_teams:
            more = {"teams": [list(t) for t in self.teams], "ais": list(self.ais), "rotation": self.rotation}
        if self.forbid:
            more["forbid"] = json.loads(self.forbid)
        return json.dumps(
            {
                **more,
                "match_id": self.match_id,
                "experiment": self.experiment,
                "pairing": self.pairing,
                "deal": self.deal,
                "swapped": self.swapped,
                "seed": self.seed,
                "team0": list(self.team0),
                "team1": list(self.team1),
                "ai": [self.ai0, self.ai1],
                "board": self.board,
                "ruleset": self.ruleset,
                "options": self.options,
                "record": self.record,
                "variant": self.variant,
                **({"patch": json.loads(self.patch)} if self.patch else {}),
            },
            sort_keys=True,
        )
