"""``python -m krosbalance.tools.puzzles [--ai NAME ...] [--seeds N] [--puzzle NAME ...]``: the
tactics puzzles' score table (:mod:`krosbalance.testing.puzzles`), one row per puzzle, one column
per AI, as ``krosbalance/ai/README.md`` shows it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from krosbalance.ai.registry import list_ais
from krosbalance.testing.puzzles import PUZZLES, format_table, score_table


def main(argv: Sequence[str] | None = None) -> None:
    """Grade the AIs asked for (every registered Arena AI by default) and print the table."""
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.puzzles")
    parser.add_argument(
        "--ai", action="append", help="AI to grade (repeatable; default: every registered AI)"
    )
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    args = parser.parse_args(argv)
    chosen = [p for p in PUZZLES if not args.puzzle or p.name in args.puzzle]
    table = score_table(args.ai or list_ais("arena"), range(args.seeds), chosen)
    print(format_table(table, args.seeds))


if __name__ == "__main__":
    main()
