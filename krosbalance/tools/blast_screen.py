"""Screen (or validate) a Krosmaster Blast AI against another on paired deals.

A *deal* is two disjoint legal Blast teams of two drawn from the Blast Krosmasters (by kind and
game), a Blast board and an option variant (both cycled: no Divine Challenge, then one drawn at
random, R-B40) and a seed, all drawn from the master seed before any match is played; each deal is
played twice, the AI under test on seat 0 and then on seat 1 (the teams stay on their seats). The
machinery is the Duel Pack's screen's (:func:`krosbalance.tools.duel_screen.screen_main`): the AI's
score (a draw is half a win) with its 95% Wilson interval over the matches and a 95% interval from a
bootstrap over the deals, and the CPU seconds per match.

``--knobs`` screens ``blast-lookahead`` with some of its keyword arguments changed (``walks``,
``bands``, ``dice_sets``, ``turns``, ``prior``); screens use master seeds a validation does not
(``reports/ai-ladder-blast/NOTES-2026-12-07-blast-lookahead.md`` names them).

    python -m krosbalance.tools.blast_screen blast-lookahead --deals 400 --master-seed 41
    python -m krosbalance.tools.blast_screen blast-lookahead --knobs '{"walks": 4}' --deals 60 --master-seed 7
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from krosbalance.ai.blast.lookahead import BlastLookaheadAI
from krosbalance.content.registry import default_registry, list_boards
from krosbalance.rulesets.blast.pregame import legal_teams
from krosbalance.tools.duel_screen import screen_main

#: the option variants cycled over the deals: the first game's (no challenge), one random challenge
VARIANTS: tuple[dict[str, Any], ...] = ({}, {"challenges": ["random"]})


def deals(n: int, master_seed: int, figures: int = 2) -> list[dict[str, Any]]:
    """``n`` deals drawn from ``master_seed`` (see the module docstring); ``figures`` is the team
    size (a Blast team is two Krosmasters, R-B5)."""
    rng = np.random.default_rng(master_seed)
    teams = legal_teams(default_registry().list_characters("krosmaster", game="blast"), figures)
    boards = list_boards("blast")
    out = []
    for k in range(n):
        team0 = teams[int(rng.integers(len(teams)))]
        others = [t for t in teams if set(t).isdisjoint(team0)]
        team1 = others[int(rng.integers(len(others)))]
        out.append(
            {
                "teams": [list(team0), list(team1)],
                "board": boards[k % len(boards)],
                "ruleset": "blast",
                "options": dict(VARIANTS[(k // len(boards)) % len(VARIANTS)]),
                "seed": int(rng.integers(2**32)),
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    return screen_main(
        argv,
        __doc__.split("\n\n")[0],
        "blast-brawler",
        ("blast-lookahead", BlastLookaheadAI, "blast"),
        deals,
        figures=2,
    )


if __name__ == "__main__":
    sys.exit(main())
