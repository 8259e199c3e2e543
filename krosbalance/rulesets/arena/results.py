"""What an Arena match leaves in its result beyond the winner: its declared columns and counters.

Match columns (``ArenaRuleset.result_columns``): ``gg`` and ``kamas`` per seat (``gg0``, ``gg1``,
``kamas0``, ``kamas1`` in the matches table) and ``wild_gg_left``. Fighter columns
(``fighter_columns``): the kamas a Krosmaster picked up, the GG its KOs won, and its Demonic Reward
counters. The counters are kept during play in an :class:`ArenaStats` in ``FighterStats.extra``
(made on first use), so a fighter that never counts anything costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from krosbalance.engine.results import ResultColumn
from krosbalance.engine.rules import PieceState

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter

MATCH_COLUMNS: tuple[ResultColumn, ...] = (
    ResultColumn("gg", "int64", True, "GG each player holds at the end (R-A24)"),
    ResultColumn("kamas", "int64", True, "kamas in each player's stock at the end (R-A49)"),
    ResultColumn("wild_gg_left", "bool", False, "whether the wild GG was never taken (R-A129)"),
)
FIGHTER_COLUMNS: tuple[ResultColumn, ...] = (
    ResultColumn("kamas_collected", "int64", False, "kamas this fighter picked up (R-A49)"),
    ResultColumn("gg_won", "int64", False, "GG its KOs won for its player (R-A10)"),
    ResultColumn("rewards_bought", "int64", False, "Demonic Rewards it bought, for itself or an ally"),
    ResultColumn("rewards_revealed", "int64", False, "Demonic Rewards it revealed"),
    ResultColumn(
        "rewards_held",
        "string",
        False,
        "tokens that came onto its card, space-separated 'id:how' (how: v face-up purchase, "
        "r random purchase, s held from the start, d drawn by Ecaflip Style)",
    ),
    ResultColumn("rewards_used", "string", False, "ids of the tokens it revealed, space-separated"),
    ResultColumn(
        "rewards_held_turns",
        "string",
        False,
        "the game turn each token of rewards_held came, space-separated",
    ),
    ResultColumn(
        "rewards_used_turns",
        "string",
        False,
        "the game turn each token of rewards_used was revealed, space-separated",
    ),
)


class ArenaStats(PieceState):
    """One fighter's Arena counters over a match (``FighterStats.extra``)."""

    __slots__ = (
        "kamas_collected",
        "gg_won",
        "rewards_bought",
        "rewards_revealed",
        "rewards_held",
        "rewards_used",
        "rewards_held_turns",
        "rewards_used_turns",
    )

    def __init__(self) -> None:
        self.kamas_collected = 0
        self.gg_won = 0
        self.rewards_bought = 0  # Demonic Rewards this Krosmaster bought (for itself or an ally)
        self.rewards_revealed = 0
        # tokens that came onto its card, as "id:how", and the ids of those it revealed
        self.rewards_held: list[str] = []
        self.rewards_used: list[str] = []
        # the game turn of each entry of rewards_held and rewards_used (reveal timing, issue 18)
        self.rewards_held_turns: list[int] = []
        self.rewards_used_turns: list[int] = []

    def copy(self) -> ArenaStats:
        other = ArenaStats()
        other.kamas_collected = self.kamas_collected
        other.gg_won = self.gg_won
        other.rewards_bought = self.rewards_bought
        other.rewards_revealed = self.rewards_revealed
        other.rewards_held = list(self.rewards_held)
        other.rewards_used = list(self.rewards_used)
        other.rewards_held_turns = list(self.rewards_held_turns)
        other.rewards_used_turns = list(self.rewards_used_turns)
        return other

    def values(self) -> dict[str, Any]:
        """The fighter columns (tokens as space-separated ids)."""
        return {
            "kamas_collected": self.kamas_collected,
            "gg_won": self.gg_won,
            "rewards_bought": self.rewards_bought,
            "rewards_revealed": self.rewards_revealed,
            "rewards_held": " ".join(self.rewards_held),
            "rewards_used": " ".join(self.rewards_used),
            "rewards_held_turns": " ".join(str(t) for t in self.rewards_held_turns),
            "rewards_used_turns": " ".join(str(t) for t in self.rewards_used_turns),
        }

    def __eq__(self, other: object) -> bool:
        """Equal counters (a result compares equal to its pickled or copied self)."""
        return isinstance(other, ArenaStats) and self.values() == other.values()

    def __repr__(self) -> str:
        return f"ArenaStats({self.values()!r})"


#: the fighter columns of a fighter that never counted anything
_NOTHING = ArenaStats()


def arena_stats(fighter: Fighter) -> ArenaStats:
    """The fighter's Arena counters, made on first use."""
    extra = fighter.stats.extra
    if extra is None:
        made = ArenaStats()
        fighter.stats.extra = made
        return made
    return cast(ArenaStats, extra)


def fighter_values(fighter: Fighter) -> dict[str, Any]:
    extra = fighter.stats.extra
    return (_NOTHING if extra is None else cast(ArenaStats, extra)).values()
