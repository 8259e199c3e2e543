"""Arena's conservation laws, checked by the conformance kit (``krosbalance.testing.invariants``)
through the ruleset's ``state_problems`` hook: GG conserved except the tension losses (R-A26,
R-A128-R-A131), kamas conserved between the board, the stocks and the box reserve (R-A49, R-A50,
R-A134, R-A135; a stock is below zero only by the debt of ``start_reward_prices``), and no sight blocker other than trees (Arena adds none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from krosbalance.rulesets.arena.options import start_holdings
from krosbalance.rulesets.arena.state import arena_state

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.arena.options import ArenaOptions


def expected_gg_total(opts: ArenaOptions) -> int:
    """GG in the game at the start: every player's stock plus the wild GG (R-A128, R-A155)."""
    seats, gg, wild = start_holdings(opts)
    return seats * gg + wild


def expected_kama_total(state: MatchState, opts: ArenaOptions) -> int:
    """Kamas in the game at the start: the board's printed kamas and Demon-cell kamas, plus what the
    box reserve holds beyond them (the reserve is the box's tokens minus the board's, never < 0)."""
    board = state.board
    on_board = sum(board.kama_cells.values()) + board.demon_cells.bit_count()
    return on_board + max(0, opts.kama_reserve - on_board)


def arena_problems(state: MatchState, opts: ArenaOptions) -> list[str]:
    """Every broken Arena invariant, as a message naming the values that disagree."""
    arena = arena_state(state)
    problems = []
    if min(arena.gg) < 0 or arena.wild_gg < 0 or arena.gg_removed < 0:
        problems.append(f"negative GG: stocks {arena.gg}, wild {arena.wild_gg}, removed {arena.gg_removed}")
    total_gg = sum(arena.gg) + arena.wild_gg + arena.gg_removed
    if total_gg != expected_gg_total(opts):
        problems.append(
            f"GG not conserved: stocks {arena.gg} + wild {arena.wild_gg} + removed {arena.gg_removed} "
            f"= {total_gg}, expected {expected_gg_total(opts)}"
        )
    owed = [sum(prices) for prices in opts.start_reward_prices] + [0] * len(arena.kamas)
    in_debt = any(stock < -owed[side] for side, stock in enumerate(arena.kamas))  # a start price's debt
    if min(arena.board_kamas) < 0 or in_debt or arena.kama_reserve < 0:
        problems.append(f"negative kamas: stocks {arena.kamas}, reserve {arena.kama_reserve}")
    on_board = sum(arena.board_kamas)
    total_kamas = on_board + sum(arena.kamas) + arena.kama_reserve
    if total_kamas != expected_kama_total(state, opts):
        problems.append(
            f"kamas not conserved: board {on_board} + stocks {arena.kamas} + reserve "
            f"{arena.kama_reserve} = {total_kamas}, expected {expected_kama_total(state, opts)}"
        )
    if state.fixed_sight != state.trees:
        problems.append(f"sight blockers other than trees: {state.fixed_sight & ~state.trees:#x}")
    return problems


def arena_snapshot(state: MatchState) -> tuple[Any, ...]:
    """Arena's holdings as plain comparable values."""
    arena = arena_state(state)
    return (
        tuple(arena.board_kamas),
        arena.kama_reserve,
        tuple(arena.gg),
        arena.wild_gg,
        arena.gg_removed,
        tuple(arena.kamas),
    )
