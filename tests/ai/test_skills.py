"""The pieces of the issue-18 skills (krosbalance.ai.plan_search, krosbalance.ai.positions): the
GG a Demon cell buys, the Lock roll a push on the locker saves, the purchase a Demon cell denies."""

from __future__ import annotations

import numpy as np

from krosbalance.ai.context import _Context
from krosbalance.ai.plan_search import block_after_push, gg_purchases
from krosbalance.ai.positions import purchase_denial
from krosbalance.ai.scoring import GG_UNIT, WIN_VALUE
from krosbalance.ai.skilled import Kiter2AI
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.view import MatchView
from krosbalance.testing.scenario import Scenario

BOARD = "\n".join([" ".join("D" if (x, y) in ((4, 2), (0, 5)) else "." for x in range(8)) for y in range(6)])


def _krosmaster(power: str | None = None, without: str | None = None) -> CharacterSpec:
    """Some Arena Krosmaster (with ``power``, without ``without``): whichever the content holds."""
    registry = default_registry()
    specs = [registry.load_character(cid) for cid in registry.list_characters("krosmaster", game="arena")]
    return next(
        s
        for s in specs
        if (power is None or any(p.kind == power for p in s.powers))
        and (without is None or all(p.kind != without for p in s.powers))
        and s.mp >= 3
    )


def _context(sc: Scenario, fighter) -> _Context:  # type: ignore[no-untyped-def]
    sc.activate(fighter)
    view = MatchView(sc.state, fighter.side)
    ai = Kiter2AI(np.random.default_rng(0))
    me = view.active
    assert me is not None
    ai.begin(view, me)
    return ai._context(view, me)


def test_r_a50_gg_purchases_counts_what_the_stock_buys_and_a_win_is_worth_the_match() -> None:
    sc = Scenario(BOARD)
    mine = sc.add(_krosmaster(), 0, (4, 2))
    sc.add(_krosmaster(), 1, (7, 5))
    sc.arena.kamas[:] = [25, 0]
    ctx = _context(sc, mine)
    count, worth = gg_purchases(ctx, sc.cell(4, 2), 6)
    assert count == 2 and 0 < worth < GG_UNIT * WIN_VALUE
    assert gg_purchases(ctx, sc.cell(4, 2), 1)[0] == 1
    assert gg_purchases(ctx, sc.cell(3, 2), 6) == (0, 0.0)  # not a Demon cell
    sc.arena.gg[:] = [5, 1]
    sc.arena.wild_gg = 0
    assert gg_purchases(_context(sc, mine), sc.cell(4, 2), 6) == (1, GG_UNIT * WIN_VALUE)


def test_r_a45_a_pushed_locker_rolls_no_lock() -> None:
    sc = Scenario(BOARD)
    mine = sc.add(_krosmaster(without="dodge"), 0, (3, 3))
    locker = sc.add(_krosmaster(power="lock"), 1, (4, 3))
    ctx = _context(sc, mine)
    cell = sc.cell(3, 3)
    assert ctx.block(cell) > 0
    assert block_after_push(ctx, cell, 1 << locker.cell) == 0.0
    assert block_after_push(ctx, cell, 0) == ctx.block(cell)


def test_r_a40_the_only_demon_cell_an_enemy_reaches_is_worth_its_purchase() -> None:
    sc = Scenario(BOARD)
    mine = sc.add(_krosmaster(), 0, (1, 2))
    sc.add(_krosmaster(), 1, (7, 2))  # 3 cells from (4, 2), far from (0, 5)
    sc.arena.kamas[:] = [0, 10]
    denial = purchase_denial(_context(sc, mine))
    assert set(denial) == {sc.cell(4, 2)} and denial[sc.cell(4, 2)] > 0
    sc.arena.kamas[:] = [0, 9]  # short of the price: nothing to deny
    assert purchase_denial(_context(sc, mine)) == {}
