"""The Demonic Reward economy of Arena: the market, buying, giving and revealing (R-A23, R-A51-R-A54,
R-A136-R-A145, FAQ R-A163).

- **Market** (R-A23): the tokens are sorted by rank, each rank shuffled (the match's set-up stream)
  and split into two face-down piles; under ``reward_reveal = "setup"`` the top token of each of the
  six piles is turned face up beside it. When a face-up token is bought, ``reward_refill`` says what
  happens: ``same_pile`` (default) turns up the top of the pile it lay beside, ``none`` leaves the
  place empty. Under ``reward_reveal = "staged"`` (the later edition) nothing is face up at set-up,
  so the first player can buy only face down on his first turn, and at the start of each following
  game turn one token of each rank is turned face up (bought ones are not replaced).
- **Buying** (R-A51): a Krosmaster on a Demon cell spends 1 AP and pays the rank's price from the
  team stock to the reserve — in full, before the token does anything (FAQ R-A163) — for a face-up
  token or a random face-down token of a chosen rank.
- **Giving** (R-A52, R-A53): the token goes face down to any allied Krosmaster in play (the buyer or
  another), which may hold at most *level* tokens. A purchase with nobody to hold the token is not
  offered.
- **Revealing** (R-A54, R-A138): 0 AP, during the holder's own activation; a second face-up equipment
  of a kind already face up cannot be revealed (R-A141). What a reveal does is ``engine.rewards``.

Every function here takes its decision explicitly (which token, which choice, which cell), so the
same code serves the AIs' actions, the scenario tests and the study's starting hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from krosbalance.content.specs import RANKS, RewardSpec
from krosbalance.engine.events import SUMMARY, RewardBought
from krosbalance.engine.legal import can_pay, spell_targets
from krosbalance.engine.rewards import RewardMarket, capacity, give, slot_taken
from krosbalance.engine.state import KROSMASTER, Fighter, MatchState

RANK_INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}


class Purchase(NamedTuple):
    """One purchase: a face-up token (``visible`` is its index in ``market.face_up``) or, with
    ``visible = -1``, a random face-down token of rank ``rank``; ``holder`` is the uid it goes to."""

    visible: int
    rank: int
    holder: int


class Reveal(NamedTuple):
    """One reveal: the holder's ``token`` (its position on the card), the player's ``choice`` (an alternative of a "choose
    one" token; 1 to pay for Rogue Style's GG; for Pandawa Style the index of the caster's neighbour
    holding the ally) and the ``target`` cell (a summon's cell, the Recall Potion's cell, a one-shot
    spell's target), -1 where unused."""

    token: int
    choice: int = 0
    target: int = -1


# -------------------------------------------------------------------------------------- market


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


def staged_turn_start(state: MatchState) -> None:
    """``reward_reveal = "staged"``: at the start of every game turn after the first, one token of
    each rank is turned face up (from the fuller of its two piles)."""
    market = state.market
    if market is None or state.opts.reward_reveal != "staged" or state.turn <= 1:
        return
    for r in range(len(RANKS)):
        pile = market.pile_for(r)
        if pile >= 0:
            market.turn_up(pile)


# -------------------------------------------------------------------------------------- buying


def may_shop(state: MatchState, buyer: Fighter) -> bool:
    """A Krosmaster on a Demon cell with 1 AP, while the market is in play (R-A51)."""
    return (
        state.market is not None
        and buyer.kind == KROSMASTER
        and buyer.ap >= 1
        and bool((state.board.demon_cells >> buyer.cell) & 1)
    )


def recipients(state: MatchState, side: int) -> list[Fighter]:
    """Allied Krosmasters in play with room for one more token (R-A52, R-A53)."""
    return [f for f in state.timeline[side] if f.alive and f.cell >= 0 and capacity(f) > 0]


def purchases(state: MatchState, buyer: Fighter) -> list[Purchase]:
    """Every purchase the buyer may make now: each affordable face-up token and each rank with
    face-down tokens left, for each ally with room (R-A51-R-A53)."""
    market = state.market
    if market is None or not may_shop(state, buyer):
        return []
    holders = recipients(state, buyer.side)
    if not holders:
        return []
    stock = state.kamas[buyer.side]
    out: list[Purchase] = []
    for i, (_, spec) in enumerate(market.face_up):
        if stock >= market.price(spec.rank):
            out.extend(Purchase(i, RANK_INDEX[spec.rank], h.uid) for h in holders)
    for r in range(len(RANKS)):
        if stock >= market.prices[r] and market.face_down_count(r):
            out.extend(Purchase(-1, r, h.uid) for h in holders)
    return out


def can_buy(state: MatchState, buyer: Fighter, purchase: Purchase) -> bool:
    market = state.market
    if market is None or not may_shop(state, buyer):
        return False
    if not 0 <= purchase.holder < len(state.fighters):
        return False
    holder = state.fighters[purchase.holder]
    if holder.side != buyer.side or not holder.alive or holder.cell < 0 or capacity(holder) <= 0:
        return False
    if purchase.visible >= 0:
        if purchase.visible >= len(market.face_up):
            return False
        spec = market.face_up[purchase.visible][1]
        return purchase.rank == RANK_INDEX[spec.rank] and state.kamas[buyer.side] >= market.price(spec.rank)
    if not 0 <= purchase.rank < len(RANKS):
        return False
    return (
        state.kamas[buyer.side] >= market.prices[purchase.rank] and market.face_down_count(purchase.rank) > 0
    )


def buy(state: MatchState, buyer: Fighter, purchase: Purchase) -> RewardSpec:
    """Pay 1 AP and the price (in full, first: FAQ R-A163), take the token and give it face down to
    the chosen ally (R-A51, R-A52). The caller checked ``can_buy``."""
    market = state.market
    assert market is not None
    price = market.prices[purchase.rank]
    buyer.ap -= 1
    state.kamas[buyer.side] -= price
    state.kama_reserve += price
    if purchase.visible >= 0:
        pile, spec = market.face_up.pop(purchase.visible)
        if state.opts.reward_refill == "same_pile" and state.opts.reward_reveal == "setup":
            market.turn_up(pile)
        how = "v"
    else:
        drawn = market.draw(purchase.rank)
        assert drawn is not None
        spec = drawn
        how = "r"
    holder = state.fighters[purchase.holder]
    give(state, holder, spec, how)
    buyer.stats.rewards_bought += 1
    if state.record >= SUMMARY:
        state.events.append(
            RewardBought(state.turn, buyer.uid, holder.uid, spec.id, spec.rank, purchase.visible >= 0)
        )
    return spec


# ------------------------------------------------------------------------------------ revealing


def may_reveal(state: MatchState, holder: Fighter) -> bool:
    """Only during the holder's own activation (R-A54, R-A138)."""
    return state.active is holder and holder.acting and holder.alive and holder.kind == KROSMASTER


def _free_cells(state: MatchState, mask: int) -> list[int]:
    return [c for c in range(state.board.n_cells) if (mask >> c) & 1 and not (state.obstacles >> c) & 1]


def reveals(state: MatchState, holder: Fighter) -> list[Reveal]:
    """Every legal reveal of the holder's face-down tokens, with every choice and target."""
    if not holder.tokens or not may_reveal(state, holder):
        return []
    out: list[Reveal] = []
    for index, token in enumerate(holder.tokens):
        if token.face_up:
            continue
        spec = token.spec
        if spec.kind == "equipment":
            if not slot_taken(holder, spec.slot):
                out.append(Reveal(index))
            continue
        if spec.kind == "upgrade":
            out.append(Reveal(index))
            continue
        out.extend(_boost_reveals(state, holder, index, spec))
    return out


def _boost_reveals(state: MatchState, holder: Fighter, index: int, spec: RewardSpec) -> list[Reveal]:
    kinds = {e.kind for e in spec.effects}
    n_choices = len(spec.choices) or 1
    choices = list(range(n_choices))
    if "buy_gg" in kinds:
        price = next(int(e.params["kamas"]) for e in spec.effects if e.kind == "buy_gg")
        choices = [0, 1] if state.kamas[holder.side] >= price else [0]
    targets: list[int] = [-1]
    if "summon" in kinds:
        targets = _free_cells(state, state.board.neighbour_mask[holder.cell]) or [-1]
    elif "recall" in kinds:
        targets = _free_cells(state, state.board.deploy[state.edges[holder.side]]) or [-1]
    elif "one_shot_spell" in kinds:
        spell = spec.spell
        assert spell is not None
        if not can_pay(state, holder, spell):
            return []
        targets = spell_targets(state, holder, spell)
        if any(e.kind == "carry_ally" for e in spell.effects):
            choices = [
                i
                for i, cell in enumerate(state.board.neighbours[holder.cell])
                if _ally_at(state, holder, cell)
            ]
    return [Reveal(index, c, t) for c in choices for t in targets]


def _ally_at(state: MatchState, holder: Fighter, cell: int) -> bool:
    piece = state.by_cell[cell]
    return piece is not None and piece.alive and piece.side == holder.side and piece.is_character


def can_reveal(state: MatchState, holder: Fighter, reveal: Reveal) -> bool:
    """Whether this reveal is legal now (the single-reveal form of ``reveals``)."""
    if not may_reveal(state, holder) or not 0 <= reveal.token < len(holder.tokens):
        return False
    token = holder.tokens[reveal.token]
    if token.face_up:
        return False
    if token.spec.kind != "boost":
        if reveal.choice != 0 or reveal.target != -1:
            return False
        return token.spec.kind == "upgrade" or not slot_taken(holder, token.spec.slot)
    return reveal in _boost_reveals(state, holder, reveal.token, token.spec)
