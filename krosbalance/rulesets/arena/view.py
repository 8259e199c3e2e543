"""What an Arena player sees of Arena's holdings: GG, kamas and the Demonic Rewards — read-only, for
AIs (``MatchView.ruleset_view()`` under the Arena ruleset; :func:`arena_view` gives it typed).

The opponent's face-down tokens from random draws stay hidden (R-A51: a random purchase is
secret; a token bought face up was seen by both players), and so does the order of the market's
face-down piles: the unseen tokens of a rank are listed sorted by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.content.specs import RANKS, RewardSpec, SpellSpec
from krosbalance.rulesets.arena.tokens import spell_bonus, tokens_of

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.arena.state import ArenaState


class ArenaView:
    """Read-only Arena facts for player ``side`` (R-A24, R-A49-R-A54, R-A128).

    A random purchase is secret from the buyer's opponents only ("il tuo avversario non sa cosa hai
    acquistato", R-A51), so in two versus two a partner's secret tokens are known (R-A158)."""

    __slots__ = ("_s", "_a", "side", "team")

    def __init__(self, state: MatchState, arena: ArenaState, side: int) -> None:
        self._s = state
        self._a = arena
        self.side = side
        self.team = state.team_of[side]

    # ------------------------------------------------------------------ GG and kamas
    @property
    def gg(self) -> tuple[int, ...]:
        """Every seat's GG."""
        return tuple(self._a.gg)

    @property
    def wild_gg(self) -> int:
        return self._a.wild_gg

    @property
    def kamas(self) -> tuple[int, ...]:
        """Every seat's kama stock."""
        return tuple(self._a.kamas)

    @property
    def gg_price(self) -> int:
        return self._a.gg_price

    def kamas_at(self, cell: int) -> int:
        return self._a.board_kamas[cell]

    def kama_cells(self) -> list[int]:
        return [c for c, n in enumerate(self._a.board_kamas) if n > 0]

    # ------------------------------------------------------------------ Demonic Rewards
    @property
    def rewards_in_play(self) -> bool:
        """Whether the match has a reward market (``demonic_rewards`` or tokens held from the start)."""
        return self._a.market is not None

    def reward_tokens(self, fighter: FighterView) -> list[RewardSpec | None]:
        """The tokens on a Krosmaster's card in order (a ``REVEAL_REWARD`` action names one by its
        position): every one of this side's own and its partner's; of an enemy's, the face-up ones and those bought
        face up from the market, and None for each secret one (R-A51: only a random purchase is
        secret)."""
        f = self._s.fighters[fighter.uid]
        own = f.team == self.team
        return [t.spec if own or not t.secret else None for t in tokens_of(f)]

    def reward_bonus(self, fighter: FighterView, spell: SpellSpec) -> int:
        """The damage a Krosmaster's face-up rewards and revealed boosts would add to this spell now
        (``tokens.spell_bonus``, nothing used up)."""
        f = self._s.fighters[fighter.uid]
        if f.extra is None:
            return 0
        return spell_bonus(f, spell, consume=False)[0]

    def reward_face_up(self, fighter: FighterView) -> list[bool]:
        return [t.face_up for t in tokens_of(self._s.fighters[fighter.uid])]

    def market_face_up(self) -> list[RewardSpec]:
        """The face-up tokens of the market, in the order a ``BUY_REWARD`` action names them."""
        market = self._a.market
        return [] if market is None else [spec for _, spec in market.face_up]

    def reward_prices(self) -> tuple[int, int, int]:
        market = self._a.market
        return (0, 0, 0) if market is None else market.prices

    def face_down_left(self, rank: int) -> int:
        """Face-down tokens left in the market's two piles of a rank (index in ``RANKS``)."""
        market = self._a.market
        return 0 if market is None else len(market.piles[2 * rank]) + len(market.piles[2 * rank + 1])

    def unseen_rewards(self, rank: int) -> list[RewardSpec]:
        """The tokens of a rank this side has never seen (in the piles, drawn at random onto enemy
        cards, or discarded unseen), sorted by id: what a random purchase may bring, never in pile order."""
        market = self._a.market
        if market is None:
            return []
        name = RANKS[rank]
        unseen = [s for p in (market.piles[2 * rank], market.piles[2 * rank + 1]) for s in p]
        unseen += [s for s in market.hidden_box if s.rank == name]
        for f in self._s.fighters:
            if f.team != self.team:
                unseen += [t.spec for t in tokens_of(f) if t.secret and t.spec.rank == name]
        return sorted(unseen, key=lambda s: s.id)


def arena_view(view: MatchView) -> ArenaView:
    """The Arena holdings of the match the view looks at (take it once per decision in a hot path)."""
    return cast(ArenaView, view.ruleset_view())
