"""The duel personality ``duel_brawler``: drafts the best tokens its level budget allows, reveals the
best one at every turn start, picks up tokens when worth their AP, and closes in to hit
(``krosbalance.ai.duel.planner``). Its set-up choices:

- draft (R-D16, R-D17): the highest level that fits the budget (the budget is spent in fewer,
  stronger tokens, since the draft stops at 3), a face-up token over a face-down one of the same
  level when it is worth at least the mean of the unseen ones;
- holder (R-D36): the Krosmaster the token is worth most to (the first on a tie);
- deployment (R-D18): the starting cells nearest the board's centre (melee first);
- duel cells (R-D19): the free duel cell nearest its own Krosmasters relative to the enemy's;
- reveal (R-D21): always its best face-down token (a bonus is permanent: waiting gains nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.ai.base import AI
from krosbalance.ai.duel.planner import (
    BRAWLER,
    DuelWeights,
    decide,
    duel_view,
    expected_token_worth,
    token_worth,
)

if TYPE_CHECKING:
    from krosbalance.content.duel import DuelTokenSpec
    from krosbalance.engine.legal import Action
    from krosbalance.engine.view import FighterView, MatchView
    from krosbalance.rulesets.duel.turn import DraftChoice, RevealChoice


class DuelAI(AI):
    """A heuristic Duel Pack player; subclasses set ``weights``."""

    name = "duel"
    rulesets = ("duel",)
    weights: DuelWeights = BRAWLER

    def choose_action(self, view: MatchView) -> Action:
        return decide(view, self.weights)

    def choose_duel_draft(self, view: MatchView, choices: list[DraftChoice], budget: int) -> int:
        dv = duel_view(view)
        team = [k for k in view.krosmasters(view.side) if k.alive]

        def worth(choice: DraftChoice) -> float:
            if choice.token is not None:
                return max(token_worth(choice.token, k) for k in team)
            return max(expected_token_worth(dv, choice.level, k) for k in team)

        fitting = [i for i, c in enumerate(choices) if c.level <= budget] or list(range(len(choices)))
        top = max(choices[i].level for i in fitting)
        best = [i for i in fitting if choices[i].level == top]
        return max(best, key=lambda i: (worth(choices[i]), -i))

    def choose_token_holder(
        self, view: MatchView, token: DuelTokenSpec, candidates: list[FighterView]
    ) -> int:
        values = [token_worth(token, k) for k in candidates]
        return int(candidates[values.index(max(values))].uid)

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        board = view.board
        centre = board.cell(board.width // 2, board.height // 2)
        ranked = sorted(cells, key=lambda c: (board.distance[c][centre], c))
        melee_first = sorted(
            range(len(fighters)),
            key=lambda i: (
                max((s.range_max for s in fighters[i].spells if s.kind == "attack"), default=0),
                i,
            ),
        )
        chosen = [0] * len(fighters)
        for rank, i in enumerate(melee_first):
            chosen[i] = ranked[rank]
        return chosen

    def choose_duel_cell(self, view: MatchView, level: int, cells: list[int]) -> int:
        board = view.board
        own = [f.cell for f in view.allies() if f.is_krosmaster]
        theirs = [f.cell for f in view.enemies() if f.is_krosmaster]

        def key(cell: int) -> tuple[int, int]:
            mine = min((board.distance[cell][c] for c in own), default=0)
            other = min((board.distance[cell][c] for c in theirs), default=0)
            return (mine - other, cell)

        return min(cells, key=key)

    def choose_reveal(self, view: MatchView, choices: list[RevealChoice]) -> int:
        values = [token_worth(c.token, view.fighter(c.uid)) for c in choices]
        return values.index(max(values))


class DuelBrawlerAI(DuelAI):
    name = "duel_brawler"
    weights = BRAWLER
