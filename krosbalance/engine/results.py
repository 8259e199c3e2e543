"""What a finished match leaves behind: the outcome and per-fighter counters.

Counters are kept by the engine as play happens (never recomputed from events), so bulk runs can
record no events at all and still get full statistics. The simulation layer flattens these records
into the tidy matches and fighters tables.

What a ruleset adds (e.g. Arena's GG and kamas per seat, its Demonic Reward counters per fighter) it
declares as typed :class:`ResultColumn` s (``MatchRules.result_columns`` and ``fighter_columns``)
and writes into ``MatchResult.values`` and ``FighterRecord.values`` (``fill_result`` and
``fighter_values``); during play it keeps its per-fighter counters in ``FighterStats.extra``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from krosbalance.content.specs import ELEMENTS, Frozen
from krosbalance.engine.rules import PieceState

#: engine-3: ruleset-neutral, the ruleset's holdings in declared columns (issue 17); arena-2: one
#: settle per instant (issue 6), R-A17/R-A19 choices. Each row's ``versions`` names the ruleset too.
ENGINE_VERSION = "engine-3"


@dataclass(frozen=True, slots=True)
class ResultColumn(Frozen):
    """One column a ruleset adds to the results tables.

    Attributes:
        name: the column's name; a per-seat column ``gg`` becomes ``gg0``, ``gg1``... in the table.
        dtype: a pandas dtype string (``int64``, ``bool``, ``float64``, ``string``); where a match or
            fighter has no value (a failed match, another ruleset's row) the table holds NA.
        per_seat: the value is a tuple indexed by seat (match columns only).
        doc: what the column means, for the reader of the table.
    """

    name: str
    dtype: str
    per_seat: bool = False
    doc: str = ""


def _per_element() -> list[int]:
    return [0] * len(ELEMENTS)


@dataclass(slots=True)
class FighterStats:
    """Counters of one fighter (Krosmaster or summon) over one match. Lists are indexed by ELEMENTS."""

    damage_dealt: list[int] = field(default_factory=_per_element)
    damage_taken: list[int] = field(default_factory=_per_element)
    heals_given: int = 0
    heals_received: int = 0
    kills: int = 0
    knocked_out: bool = False
    turns_alive: int = 0
    spells_cast: int = 0
    moves: int = 0
    times_blocked: int = 0
    # the ruleset's own counters of this fighter (e.g. Arena's kamas, GG and Demonic Rewards), None
    # until the ruleset first counts something; read back by ``MatchRules.fighter_values``
    extra: PieceState | None = None


@dataclass(slots=True)
class FighterRecord:
    """One fighter's identity and counters, as returned in a MatchResult."""

    uid: int
    side: int
    character: str
    name: str
    level: int
    is_summon: bool
    summoner: int | None
    stats: FighterStats
    values: dict[str, Any] = field(default_factory=dict)  # the ruleset's ``fighter_columns``

    def as_row(self) -> dict[str, Any]:
        """A flat dict: one column per counter, damage split per element."""
        s = self.stats
        row: dict[str, Any] = {
            "uid": self.uid,
            "side": self.side,
            "character": self.character,
            "name": self.name,
            "level": self.level,
            "is_summon": self.is_summon,
            "summoner": -1 if self.summoner is None else self.summoner,
        }
        for i, element in enumerate(ELEMENTS):
            row[f"damage_dealt_{element}"] = s.damage_dealt[i]
            row[f"damage_taken_{element}"] = s.damage_taken[i]
        row["damage_dealt"] = sum(s.damage_dealt)
        row["damage_taken"] = sum(s.damage_taken)
        row.update(
            heals_given=s.heals_given,
            heals_received=s.heals_received,
            kills=s.kills,
            knocked_out=s.knocked_out,
            turns_alive=s.turns_alive,
            spells_cast=s.spells_cast,
            moves=s.moves,
            times_blocked=s.times_blocked,
        )
        return row


@dataclass(slots=True)
class MatchResult:
    """The outcome of one match.

    A match has N seats (players, in play order), each with its team of Krosmasters and its
    partnership: two players are seats 0 and 1, partnerships ``(0, 1)``; a four-player
    free-for-all has partnerships ``(0, 1, 2, 3)`` and two versus two ``(0, 1, 0, 1)``.

    Attributes:
        winner: the winning partnership (with two players or a free-for-all, the winning seat), or
            None for a draw; ``winning_seats`` lists its seats.
        end_reason: why it ended, in the ruleset's words (e.g. Arena's ``gg``, ``last_standing``,
            ``mutual_ko``), or ``turn_limit`` (the simulation bound was hit).
        turns: game turns played (one per player turn).
        first_player: the seat that played first (R-A18).
        teams: character ids per seat, in the order given.
        partnerships: each seat's partnership.
        play_order: the seats in the order they played their turns (R-A18; R-A153, R-A159).
        fighters: every fighter that was ever in play, Krosmasters first.
        events: the event log at the recording level asked for (empty for ``none``).
        values: the ruleset's holdings, one entry per column it declares (``result_columns``; a
            per-seat value is a tuple indexed by seat), written by its ``fill_result``.
        checkpoints: at the ``full`` level only, the pieces and holdings after deployment and at
            every turn end (``krosbalance.render.checkpoints.Checkpoint``), from which a replay's
            frames are built; empty otherwise (and from the core, which keeps no Python state).
        engine: which engine played it: ``reference`` (the Python rules) or ``core`` (the native
            core, ``krosbalance.engine_choice``); the same match gives the same result on either.
    """

    winner: int | None
    end_reason: str
    turns: int
    first_player: int
    teams: tuple[tuple[str, ...], ...]
    board: str
    ruleset: str
    seed: int
    fighters: list[FighterRecord]
    events: list[Any] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    partnerships: tuple[int, ...] = (0, 1)
    play_order: tuple[int, ...] = ()
    checkpoints: list[Any] = field(default_factory=list)
    engine: str = "reference"

    @property
    def n_seats(self) -> int:
        return len(self.teams)

    @property
    def winning_seats(self) -> tuple[int, ...]:
        """The seats of the winning partnership (empty for a draw)."""
        if self.winner is None:
            return ()
        return tuple(seat for seat, team in enumerate(self.partnerships) if team == self.winner)

    def seat_won(self, seat: int) -> bool:
        return self.winner is not None and self.partnerships[seat] == self.winner
