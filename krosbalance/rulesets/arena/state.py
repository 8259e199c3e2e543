"""Arena's own match state: GG, the wild GG and the kamas (R-A24, R-A49, R-A50, R-A128-R-A135).

The ruleset creates it with every ``MatchState`` (``ArenaRuleset.new_state``) and keeps it in
``state.rules``; only Arena's code writes it. ``arena_state(state)`` gives it typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.content.specs import RANKS
from krosbalance.engine.rules import RulesetState
from krosbalance.rulesets.arena.options import start_holdings
from krosbalance.rulesets.arena.tokens import tokens_of

if TYPE_CHECKING:
    from krosbalance.content.specs import RewardSpec
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.arena.market import RewardMarket
    from krosbalance.rulesets.arena.options import ArenaOptions


class ArenaState(RulesetState):
    """GG and kamas of one Arena match.

    Attributes:
        gg: each player's GG stock (R-A24).
        wild_gg: the wild GG still in the middle; it goes to the first gain (R-A129).
        gg_removed: GG lost to the box by tension doubles (R-A26).
        kamas: each player's kama stock.
        kama_reserve: the box's kama tokens not on the board or in a stock.
        board_kamas: kama tokens on each cell (kama cells and Demon cells, R-A49).
        gg_price: kamas for one GG (option ``gg_price``, R-A50).
        market: the Demonic Reward market (R-A23), when rewards are in play (``rulesets.arena.market``).
    """

    __slots__ = ("gg", "wild_gg", "gg_removed", "kamas", "kama_reserve", "board_kamas", "gg_price", "market")

    def __init__(
        self,
        gg: list[int],
        wild_gg: int,
        gg_removed: int,
        kamas: list[int],
        kama_reserve: int,
        board_kamas: list[int],
        gg_price: int,
    ) -> None:
        self.gg = gg
        self.wild_gg = wild_gg
        self.gg_removed = gg_removed
        self.kamas = kamas
        self.kama_reserve = kama_reserve
        self.board_kamas = board_kamas
        self.gg_price = gg_price
        self.market: RewardMarket | None = None

    @classmethod
    def start(cls, state: MatchState, opts: ArenaOptions) -> ArenaState:
        """The holdings at set-up: the board's kama cells and one kama per Demon cell on the board,
        the rest of the box's kamas in the reserve, each player's starting GG and the wild GG."""
        board = state.board
        board_kamas = [0] * board.n_cells
        for cell, count in board.kama_cells.items():
            board_kamas[cell] += count
        demon = board.demon_cells
        while demon:
            low = demon & -demon
            board_kamas[low.bit_length() - 1] += 1
            demon ^= low
        reserve = max(0, opts.kama_reserve - sum(board_kamas))
        _, gg, wild = start_holdings(opts)
        seats = state.n_seats
        return cls([gg] * seats, wild, 0, [0] * seats, reserve, board_kamas, opts.gg_price)

    def copy(self) -> ArenaState:
        other = ArenaState(
            list(self.gg),
            self.wild_gg,
            self.gg_removed,
            list(self.kamas),
            self.kama_reserve,
            list(self.board_kamas),
            self.gg_price,
        )
        other.market = None if self.market is None else self.market.copy()
        return other

    def hide_from(self, state: MatchState, side: int) -> None:
        """Deal again, in a copy made for ``side``, the Demonic Rewards that side has not seen (R-A51,
        R-A52): per rank, the tokens of the market's face-down piles and the enemy's secret tokens
        (face down and drawn at random: one bought face up was seen) are pooled, sorted by id, turned by an offset that depends only on public facts (the game turn
        and the pool's size), and dealt back to the same places. Each place keeps its rank and count,
        the unseen tokens are those ``MatchView.unseen_rewards`` lists, and a random purchase or an
        enemy token in the copy tells nothing of the real pile order or the enemy's hand."""
        market = self.market
        if market is None:
            return
        team = state.team_of[side]  # a partner's secret tokens are known (R-A51, R-A158)
        hidden = [t for f in state.fighters if f.team != team for t in tokens_of(f) if t.secret]
        piles = market.piles
        for rank, name in enumerate(RANKS):
            held = [t for t in hidden if t.spec.rank == name]
            two = (piles[2 * rank], piles[2 * rank + 1])
            pool = sorted([s for pile in two for s in pile] + [t.spec for t in held], key=_by_id)
            if len(pool) < 2:
                continue
            shift = (state.turn * 7 + rank) % len(pool)
            pool = pool[shift:] + pool[:shift]
            for token in held:
                token.spec = pool.pop()
            for pile in two:
                count = len(pile)
                pile.clear()
                pile.extend([pool.pop() for _ in range(count)])

    def gg_total(self) -> int:
        """GG in the game: every stock and the wild GG (conserved except tension losses)."""
        return sum(self.gg) + self.wild_gg


def arena_state(state: MatchState) -> ArenaState:
    """The Arena state of a match played under the Arena ruleset."""
    return cast(ArenaState, state.rules)


def _by_id(spec: RewardSpec) -> str:
    return spec.id
