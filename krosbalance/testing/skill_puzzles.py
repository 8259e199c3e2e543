"""Puzzles for the three skills of issue 18 (the ``-2`` AIs, :mod:`krosbalance.ai.skilled`).

Built like :mod:`krosbalance.testing.puzzles` (a set-up position, side 0 to play one activation, a
judge of the end state) and graded with its :func:`~krosbalance.testing.puzzles.solve_rate`; kept
apart from its ``PUZZLES`` because the untuned AIs fail them by design — that is what the skills fix.

- ``take_the_gg_not_the_kama``: 1 AP on a Demon cell with a kama on it and the GG price in stock,
  the wild GG still there: buy the GG (R-A50) rather than pick up the kama (R-A49).
- ``buy_then_walk_to_safety``: Bill Tell on a Demon cell with the price, Oscar Kass in reach: buy the
  GG, shoot, and walk away, rather than shoot twice and leave the GG.
- ``retreat_shot_out_of_melee``: Bad Aboum wounded next to the King (Lock): Retreat Shot takes him
  out of melee without a Lock roll (R-A41), then he walks on; walking out first risks a block that,
  since a block ends the turn (R-A45), leaves him next to the King.
- ``stand_on_the_winning_demon_cell``: the opponent at 5-1 with the GG price and the only free
  Demon cell in its walk: Anna ends on the cell (an occupied cell cannot be entered, R-A40), so the
  purchase that takes our last GG cannot be made.
"""

from __future__ import annotations

from krosbalance.testing.puzzles import Position, Puzzle, _grid, _locks_against, _scenario

__all__ = ["SKILL_PUZZLES"]


def _take_the_gg_not_the_kama() -> Position:
    sc = _scenario(_grid(7, 7, {(3, 3): "D"}))
    king = sc.add("king_of_the_gobballs", 0, (3, 3))
    king.minus_ap = king.base_ap - 1  # one AP: a kama or a GG, not both
    sc.add("oscar_kass", 1, (6, 6))
    sc.arena.board_kamas[sc.cell(3, 3)] = 1
    sc.arena.gg[:] = [2, 2]
    sc.arena.wild_gg = 2
    sc.arena.kamas[:] = [10, 0]
    return Position(sc, {"buyer": king}, king)


def _buy_then_walk_to_safety() -> Position:
    sc = _scenario(_grid(7, 7, {(3, 3): "D"}))
    bill = sc.add("bill_tell", 0, (3, 3))
    sc.add("oscar_kass", 1, (3, 0), injuries=2)
    sc.add("kassius_kaos", 1, (0, 6))
    sc.arena.gg[:] = [2, 2]
    sc.arena.wild_gg = 2
    sc.arena.kamas[:] = [10, 0]
    return Position(sc, {"buyer": bill}, bill)


def _retreat_shot_out_of_melee() -> Position:
    sc = _scenario(_grid(8, 5))
    aboum = sc.add("bad_aboum", 0, (3, 2), injuries=6)
    king = sc.add("king_of_the_gobballs", 1, (4, 2))
    sc.add("bill_tell", 1, (7, 0))
    return Position(sc, {"runner": aboum, "locker": king}, aboum)


def _stand_on_the_winning_demon_cell() -> Position:
    sc = _scenario(_grid(8, 6, {(4, 2): "D"}))
    anna = sc.add("anna_tommy", 0, (1, 2))
    sc.add("oscar_kass", 1, (7, 2))
    sc.add("bill_tell", 1, (7, 5))
    sc.arena.gg[:] = [1, 5]
    sc.arena.wild_gg = 0
    sc.arena.kamas[:] = [0, 10]
    sc.arena.board_kamas[:] = [0] * len(sc.arena.board_kamas)
    return Position(sc, {"blocker": anna}, anna)


def _left_melee_without_a_roll(p: Position) -> bool:
    runner, locker = p.pieces["runner"], p.pieces["locker"]
    apart = p.state.board.distance[runner.cell][locker.cell] > 1
    return runner.alive and apart and _locks_against(p, runner) == 0


SKILL_PUZZLES: tuple[Puzzle, ...] = (
    Puzzle(
        "take_the_gg_not_the_kama",
        "one AP on a Demon cell with the price and the wild GG there: buy the GG, not the kama",
        _take_the_gg_not_the_kama,
        lambda p: p.state.rules.gg[0] >= 3,  # type: ignore[attr-defined]
        ("R-A49", "R-A50"),
    ),
    Puzzle(
        "buy_then_walk_to_safety",
        "Bill Tell on a Demon cell with the price: buy the GG, then shoot and walk off",
        _buy_then_walk_to_safety,
        lambda p: p.state.rules.gg[0] >= 3,  # type: ignore[attr-defined]
        ("R-A50",),
    ),
    Puzzle(
        "retreat_shot_out_of_melee",
        "Bad Aboum leaves the King's melee by Retreat Shot (no Lock roll), not by walking",
        _retreat_shot_out_of_melee,
        _left_melee_without_a_roll,
        ("R-A41", "R-A45", "R-A83"),
    ),
    Puzzle(
        "stand_on_the_winning_demon_cell",
        "the opponent can walk to the only free Demon cell and buy our last GG: end on it",
        _stand_on_the_winning_demon_cell,
        lambda p: p.pieces["blocker"].cell == p.sc.cell(4, 2),
        ("R-A40", "R-A50", "R-A132"),
    ),
)
