"""The Demonic Reward market of Arena and buying from it (R-A23, R-A51-R-A53, FAQ R-A163).

- **Market** (R-A23): the tokens are sorted by rank, each rank shuffled (a stream drawn from the
  match's set-up stream) and split into two face-down piles; under ``reward_reveal = "setup"`` the
  top token of each of the six piles is turned face up beside it. When a face-up token is bought,
  ``reward_refill`` says what happens: ``same_pile`` (default) turns up the top of the pile it lay
  beside, ``none`` leaves the place empty. Under ``reward_reveal = "staged"`` (the later edition)
  nothing is face up at set-up, so the first player can buy only face down on his first turn, and at
  the start of each following game turn one token of each rank is turned face up (bought ones are
  not replaced).
- **Buying** (R-A51): a Krosmaster on a Demon cell spends 1 AP and pays the rank's price from the
  team stock to the reserve — in full, before the token does anything (FAQ R-A163) — for a face-up
  token or a random face-down token of a chosen rank.
- **Giving** (R-A52, R-A53): the token goes face down to any allied Krosmaster in play (the buyer or
  another), which may hold at most *level* tokens. A purchase with nobody to hold it is not offered.

Used Boosts, expired Upgrades and the tokens of KO'd Krosmasters go to the market's box: with the
tokens on cards, the market always holds every token (a conservation law the conformance kit checks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from krosbalance.content.specs import RANKS, RewardSpec
from krosbalance.engine.events import SUMMARY
from krosbalance.engine.state import KROSMASTER
from krosbalance.rulesets.arena.events import RewardBought
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.tokens import capacity, give

if TYPE_CHECKING:
    import numpy as np

    from krosbalance.engine.state import Fighter, MatchState

RANK_INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}


class RewardMarket:
    """The Demonic Reward tokens that are not on a card (R-A23): face-down piles, two per rank
    (pile ``p`` has rank ``RANKS[p // 2]``; its top is the end of the list), the face-up tokens
    beside them, and the box (tokens out of the game: ``box`` for those shown, ``hidden_box`` for
    face-down tokens of KO'd Krosmasters that nobody saw)."""

    __slots__ = ("piles", "face_up", "box", "hidden_box", "prices", "total")

    def __init__(self, piles: list[list[RewardSpec]], prices: tuple[int, int, int]) -> None:
        self.piles = piles
        self.face_up: list[tuple[int, RewardSpec]] = []  # (pile it lies beside, token)
        self.box: list[RewardSpec] = []  # tokens out of the game that both players have seen
        self.hidden_box: list[RewardSpec] = []  # face-down tokens of KO'd Krosmasters, never shown
        self.prices = prices
        self.total = sum(len(p) for p in piles)  # every token of the game, for the conservation law

    def copy(self) -> RewardMarket:
        other = RewardMarket([list(p) for p in self.piles], self.prices)
        other.face_up = list(self.face_up)
        other.box = list(self.box)
        other.hidden_box = list(self.hidden_box)
        other.total = self.total
        return other

    def price(self, rank: str) -> int:
        return self.prices[RANK_INDEX[rank]]

    def pile_for(self, rank: int) -> int:
        """The pile a random token of this rank is drawn from: the fuller of the rank's two piles
        (both are face down and shuffled, so the choice never matters); -1 when both are empty."""
        a, b = 2 * rank, 2 * rank + 1
        if not self.piles[a] and not self.piles[b]:
            return -1
        return a if len(self.piles[a]) >= len(self.piles[b]) else b

    def draw(self, rank: int) -> RewardSpec | None:
        """The top face-down token of a rank, or None when none is left."""
        pile = self.pile_for(rank)
        return None if pile < 0 else self.piles[pile].pop()

    def turn_up(self, pile: int) -> None:
        """Turn the top token of a pile face up beside it (R-A23), if the pile has one."""
        if self.piles[pile]:
            self.face_up.append((pile, self.piles[pile].pop()))

    def face_down_count(self, rank: int) -> int:
        return len(self.piles[2 * rank]) + len(self.piles[2 * rank + 1])

    def count(self) -> int:
        """Tokens here (piles, face up, box); with the tokens on cards, ``total``."""
        return sum(len(p) for p in self.piles) + len(self.face_up) + len(self.box) + len(self.hidden_box)


class Purchase(NamedTuple):
    """One purchase: a face-up token (``visible`` is its index in ``market.face_up``) or, with
    ``visible = -1``, a random face-down token of rank index ``rank``; ``holder`` is the uid of the
    Krosmaster it goes to."""

    visible: int
    rank: int
    holder: int


def setup_market(
    specs: Sequence[RewardSpec], prices: dict[str, int], reveal: str, rng: np.random.Generator
) -> RewardMarket:
    """R-A23: two face-down piles per rank, each rank shuffled by ``rng``; with ``reveal = "setup"``
    the top of each pile is turned face up beside it."""
    piles: list[list[RewardSpec]] = [[] for _ in range(2 * len(RANKS))]
    for r, rank in enumerate(RANKS):
        tokens = sorted((s for s in specs if s.rank == rank), key=lambda s: s.id)
        order = rng.permutation(len(tokens))
        for i, j in enumerate(order):
            piles[2 * r + i % 2].append(tokens[int(j)])
    market = RewardMarket(piles, (prices["granite"], prices["jade"], prices["gold"]))
    if reveal == "setup":
        for pile in range(len(piles)):
            market.turn_up(pile)
    return market


def staged_turn_start(market: RewardMarket, turn: int) -> None:
    """``reward_reveal = "staged"``: at the start of every game turn after the first, one token of
    each rank is turned face up (from the fuller of its two piles)."""
    if turn <= 1:
        return
    for r in range(len(RANKS)):
        pile = market.pile_for(r)
        if pile >= 0:
            market.turn_up(pile)


def may_shop(state: MatchState, buyer: Fighter) -> bool:
    """A Krosmaster on a Demon cell with 1 AP (R-A51)."""
    return buyer.kind == KROSMASTER and buyer.ap >= 1 and bool((state.board.demon_cells >> buyer.cell) & 1)


def recipients(state: MatchState, side: int) -> list[Fighter]:
    """Allied Krosmasters in play with room for one more token (R-A52, R-A53)."""
    return [f for f in state.timeline[side] if f.alive and f.cell >= 0 and capacity(f) > 0]


def purchases(state: MatchState, market: RewardMarket, buyer: Fighter, stock: int) -> list[Purchase]:
    """Every purchase the buyer may make now with ``stock`` kamas: each affordable face-up token and
    each rank with face-down tokens left, for each ally with room (R-A51-R-A53)."""
    if not may_shop(state, buyer):
        return []
    holders = recipients(state, buyer.side)
    if not holders:
        return []
    out: list[Purchase] = []
    for i, (_, spec) in enumerate(market.face_up):
        if stock >= market.price(spec.rank):
            out.extend(Purchase(i, RANK_INDEX[spec.rank], h.uid) for h in holders)
    for r in range(len(RANKS)):
        if stock >= market.prices[r] and market.face_down_count(r):
            out.extend(Purchase(-1, r, h.uid) for h in holders)
    return out


def can_buy(state: MatchState, market: RewardMarket, buyer: Fighter, purchase: Purchase, stock: int) -> bool:
    """Whether this purchase is legal now (the single-purchase form of ``purchases``)."""
    if not may_shop(state, buyer) or not 0 <= purchase.holder < len(state.fighters):
        return False
    holder = state.fighters[purchase.holder]
    if (
        holder.side != buyer.side
        or holder.kind != KROSMASTER
        or not holder.alive
        or holder.cell < 0
        or capacity(holder) <= 0
    ):
        return False
    if purchase.visible >= 0:
        if purchase.visible >= len(market.face_up):
            return False
        spec = market.face_up[purchase.visible][1]
        return purchase.rank == RANK_INDEX[spec.rank] and stock >= market.price(spec.rank)
    if not 0 <= purchase.rank < len(RANKS):
        return False
    return stock >= market.prices[purchase.rank] and market.face_down_count(purchase.rank) > 0


def take(market: RewardMarket, purchase: Purchase, refill: bool) -> RewardSpec:
    """Take the purchased token from the market (a face-up one, refilled from its pile if ``refill``;
    or the top of a face-down pile of the rank)."""
    if purchase.visible >= 0:
        pile, spec = market.face_up.pop(purchase.visible)
        if refill:
            market.turn_up(pile)
        return spec
    drawn = market.draw(purchase.rank)
    assert drawn is not None  # the caller checked can_buy
    return drawn


def hand_over(state: MatchState, buyer: Fighter, holder: Fighter, spec: RewardSpec, visible: bool) -> None:
    """Give a bought token face down to the chosen ally (R-A52) and count it."""
    give(state, holder, spec, "v" if visible else "r")
    arena_stats(buyer).rewards_bought += 1
    if state.record >= SUMMARY:
        state.events.append(RewardBought(state.turn, buyer.uid, holder.uid, spec.id, spec.rank, visible))
