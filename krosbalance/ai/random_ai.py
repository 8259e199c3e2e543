"""The random baseline: every decision uniformly at random among the legal ones.

It deploys at random, turns tension dice at random (so it makes doubles about as often as chance
allows), gives each die to a random Krosmaster or refunds it, and picks a uniformly random legal
action at every step, ending its turn only when that is the action drawn. Its edge, board and draft
picks and the orders of its creatures and triggers are uniformly random too, and so are the Duel
Pack's choices (draft pick, token holder, duel cell, which token to reveal or none), asked in duels
only, so they never draw from its stream in Arena or Blast matches. It is the floor every
heuristic AI must beat, and the driver of the conformance battery because it reaches odd corners
of the rules that sensible play avoids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from krosbalance.ai.base import AI
from krosbalance.engine.legal import Action
from krosbalance.engine.turn import Trigger
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.tension import TensionChoice

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.blast import FavorSpec
    from krosbalance.content.duel import DuelTokenSpec
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.rulesets.duel.turn import DraftChoice, RevealChoice


class RandomAI(AI):
    name = "random"
    #: every ruleset there is: it only picks among the legal actions and choices the engine offers,
    #: and answers every choice of the base class (Arena's and Blast's)
    rulesets = ("arena", "blast", "duel")

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        faces = options[int(self.rng.integers(len(options)))]
        candidates = [-1] + [k.uid for k in view.krosmasters(view.side) if k.alive]
        assigned = tuple(candidates[int(self.rng.integers(len(candidates)))] for _ in range(2))
        return TensionChoice(faces, (assigned[0], assigned[1]))

    def choose_action(self, view: MatchView) -> Action:
        actions = view.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]

    def choose_edge(self, view: MatchView, edges: list[int]) -> int:
        return int(self.rng.integers(len(edges)))

    def choose_player(self, view: MatchView, purpose: str, seats: list[int]) -> int:
        return int(self.rng.integers(len(seats)))

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]:
        return [creatures[int(i)].uid for i in self.rng.permutation(len(creatures))]

    def choose_favor_slot(self, view: MatchView, favor: FavorSpec, slots: list[FavorSpec | None]) -> int:
        return int(self.rng.integers(len(slots)))

    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int:
        return int(candidates[int(self.rng.integers(len(candidates)))].uid)

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]:
        return [int(i) for i in self.rng.permutation(len(triggers))]

    def choose_board(
        self, boards: Sequence[Board], own: Sequence[CharacterSpec], opponent: Sequence[CharacterSpec]
    ) -> int:
        return int(self.rng.integers(len(boards)))

    def choose_draft(
        self,
        visible: Sequence[CharacterSpec],
        own: Sequence[CharacterSpec],
        opponent: Sequence[CharacterSpec],
    ) -> int:
        return int(self.rng.integers(len(visible)))

    # --- the Duel Pack (krosbalance.rulesets.duel.turn.DuelController); asked in duels only
    def choose_duel_draft(self, view: MatchView, choices: list[DraftChoice], budget: int) -> int:
        return int(self.rng.integers(len(choices)))

    def choose_token_holder(
        self, view: MatchView, token: DuelTokenSpec, candidates: list[FighterView]
    ) -> int:
        return int(candidates[int(self.rng.integers(len(candidates)))].uid)

    def choose_duel_cell(self, view: MatchView, level: int, cells: list[int]) -> int:
        return int(cells[int(self.rng.integers(len(cells)))])

    def choose_reveal(self, view: MatchView, choices: list[RevealChoice]) -> int:
        """A token at random, or none (-1), each as likely."""
        return int(self.rng.integers(len(choices) + 1)) - 1
