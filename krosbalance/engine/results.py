"""What a finished match leaves behind: the outcome and per-fighter counters.

Counters are kept by the engine as play happens (never recomputed from events), so bulk runs can
record no events at all and still get full statistics. The simulation layer flattens these records
into the tidy matches and fighters tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from krosbalance.content.specs import ELEMENTS

ENGINE_VERSION = "arena-2"  # arena-2: one settle per instant (issue 6), R-A17/R-A19 choices


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
    kamas_collected: int = 0
    gg_won: int = 0
    spells_cast: int = 0
    moves: int = 0
    times_blocked: int = 0
    rewards_bought: int = 0  # Demonic Rewards this Krosmaster bought (for itself or an ally)
    rewards_revealed: int = 0
    # tokens that came onto its card, as "id:how" (how: v face-up purchase, r random purchase,
    # s held from the start, d drawn by Ecaflip Style), and the ids of those it revealed
    rewards_held: list[str] = field(default_factory=list)
    rewards_used: list[str] = field(default_factory=list)


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
            kamas_collected=s.kamas_collected,
            gg_won=s.gg_won,
            spells_cast=s.spells_cast,
            moves=s.moves,
            times_blocked=s.times_blocked,
        )
        return row

    def reward_row(self) -> dict[str, Any]:
        """The Demonic Reward counters as flat columns (tokens as space-separated ids)."""
        s = self.stats
        return {
            "rewards_bought": s.rewards_bought,
            "rewards_revealed": s.rewards_revealed,
            "rewards_held": " ".join(s.rewards_held),
            "rewards_used": " ".join(s.rewards_used),
        }


@dataclass(slots=True)
class MatchResult:
    """The outcome of one match.

    A match has N seats (players, in play order), each with its team of Krosmasters and its
    partnership: two players are seats 0 and 1, partnerships ``(0, 1)``; a four-player
    free-for-all has partnerships ``(0, 1, 2, 3)`` and two versus two ``(0, 1, 0, 1)``.

    Attributes:
        winner: the winning partnership (with two players or a free-for-all, the winning seat), or
            None for a draw; ``winning_seats`` lists its seats.
        end_reason: ``gg`` (only one side holds GG), ``last_standing`` (only one side has Krosmasters),
            ``gg_exhausted`` (nobody holds GG: a draw under ``simultaneous_zero_gg = "draw"``),
            ``mutual_ko`` (both sides' last Krosmasters KO'd at one instant and the GG do not decide:
            a draw), ``turn_limit`` (the ruleset's bound was hit).
        turns: game turns played (one per player turn).
        first_player: the side that played first (R-A18).
        gg, kamas: final holdings per side; wild_gg_left: whether the wild GG was never taken (Arena's
            holdings, written by the ruleset's ``fill_result``; (0, 0) and False under a ruleset
            without them).
        teams: character ids per seat, in the order given.
        partnerships: each seat's partnership.
        fighters: every fighter that was ever in play, Krosmasters first.
        events: the event log at the recording level asked for (empty for ``none``).
        extras: the ruleset's other holdings as plain values (Blast: glyphs, tiers reached, bonus
            uses — ``krosbalance.rulesets.blast.results``); empty under Arena.
    """

    winner: int | None
    end_reason: str
    turns: int
    first_player: int
    gg: tuple[int, int]
    kamas: tuple[int, int]
    wild_gg_left: bool
    teams: tuple[tuple[str, ...], ...]
    board: str
    ruleset: str
    seed: int
    fighters: list[FighterRecord]
    events: list[Any] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    partnerships: tuple[int, ...] = (0, 1)

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
