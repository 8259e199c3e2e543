"""The AI protocol and the choices every AI shares.

An AI decides through a ``MatchView`` only (never the live state or the match dice) and owns its
own random stream, so a match stays a pure function of its seed. Subclasses override the decisions
they care about; the defaults here are reasonable, cheap and deterministic given the stream.

Besides the match decisions (deployment, tension, actions) a player makes a few choices the rules
give him around them, each with a deterministic default here:

- before the match, through the ``krosbalance.rulesets.arena`` pregame: which card to take in a draft
  (R-A17, ``choose_draft``) and, as first player, which board to play on (R-A19, ``choose_board``);
- in the match: which board edge to sit at (R-A19, ``choose_edge``), the order in which several of
  his creatures act (R-A31, ``order_creatures``) and the order of triggers that fire together
  (R-A32, R-A36, ``order_triggers``), and which Krosmaster holds a Demonic Reward dealt before the
  match (R-A52, ``give_reward``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from krosbalance.ai.rewards import best_holder
from krosbalance.engine.dice import CRITICAL, DODGE
from krosbalance.engine.legal import Action
from krosbalance.engine.turn import Trigger
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.four_player import choose_by_policy
from krosbalance.rulesets.arena.tension import TensionChoice
from krosbalance.rulesets.arena.view import arena_view

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.blast import FavorSpec
    from krosbalance.content.specs import CharacterSpec, RewardSpec


def card_value(spec: CharacterSpec) -> float:
    """A plain reading of a Krosmaster card for drafting: HP + AP + 2 x MP + 2 per power, plus its
    best attack (damage + half its max range) and 1 per other spell. A baseline valuation, not a
    balance model: it sees numbers, not synergies."""
    attacks = [s.amount + s.range_max / 2 for s in spec.spells if s.kind == "attack"]
    others = sum(1 for s in spec.spells if s.kind != "attack")
    return spec.hp + spec.ap + 2 * spec.mp + 2 * len(spec.powers) + max(attacks, default=0.0) + others


def team_reach(team: Sequence[CharacterSpec]) -> float:
    """Mean over a team of each Krosmaster's longest attack range (0 for one with no attack)."""
    if not team:
        return 0.0
    return sum(max((s.range_max for s in k.spells if s.kind == "attack"), default=0) for k in team) / len(
        team
    )


def edge_distance(board: Board, edge: int) -> int:
    """How far a deployment zone is from the board's objectives: for every kama token and Demon cell,
    the distance to the zone's nearest cell, summed."""
    cells = [c for c in range(board.n_cells) if (edge >> c) & 1]
    if not cells:
        return 1 << 30
    objectives = list(board.kama_cells.items())
    demon = board.demon_cells
    objectives += [(c, 1) for c in range(board.n_cells) if (demon >> c) & 1]
    distance = board.distance
    return sum(count * min(distance[cell][c] for c in cells) for cell, count in objectives)


class AI:
    """Base class: random deployment, tension dice that avoid doubles and inspire the first
    Krosmasters to act, the pregame and ordering defaults below, and ``choose_action`` left to
    subclasses."""

    name = "base"
    #: the rulesets whose matches this AI can play (by ruleset name): the registry lists an AI for a
    #: ruleset, and a match refuses an AI, from this declaration alone. The default, for subclasses
    #: that declare nothing, is Arena's; a class variable, so it is read from the class unbuilt.
    rulesets: ClassVar[tuple[str, ...]] = ("arena",)
    #: whether the AI plays only two-player matches (the search tier's evaluation scores two sides)
    two_players_only: ClassVar[bool] = False

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        order = self.rng.permutation(len(cells))[: len(fighters)]
        return [cells[int(i)] for i in order]

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        """Avoid a double unless it wins the game or it is forced; inspire useful powers."""
        arena = arena_view(view)  # the tension roll is Arena's
        gg = arena.gg
        mine, theirs = gg[view.side], max(gg[seat] for seat in view.opponents())
        wants_double = arena.wild_gg == 0 and theirs == 1 and mine > 1
        choices = [o for o in options if (o[0] == o[1]) == wants_double] or options
        preferred = [o for o in choices if o[0] in (CRITICAL, DODGE) or o[1] in (CRITICAL, DODGE)]
        faces = (preferred or choices)[0]
        alive = [k for k in view.krosmasters(view.side) if k.alive]
        if not alive:
            return TensionChoice(faces, (-1, -1))
        first = alive[0].uid
        second = alive[1].uid if len(alive) > 1 else first
        return TensionChoice(faces, (first, second))

    def choose_action(self, view: MatchView) -> Action:
        raise TypeError(f"{type(self).__name__} must implement choose_action")

    # ------------------------------------------------------------------ choices around the match
    def choose_edge(self, view: MatchView, edges: list[int]) -> int:
        """R-A19: the edge (deployment zone) nearest the kamas and Demon cells; on a board where the
        zones are equally placed, the zone the board lists for this side."""
        board = view.board
        costs = [edge_distance(board, edge) for edge in edges]
        best = min(costs)
        own = view.side if view.side < len(edges) else 0
        return own if costs[own] == best else costs.index(best)

    def choose_player(self, view: MatchView, purpose: str, seats: list[int]) -> int:
        """Four-player Arena (R-A155, R-A157): which player loses a GG to a tension double or gets a
        self-KO's GG, an index into ``seats``: hurt the leader, feed the weakest
        (``krosbalance.rulesets.arena.four_player.choose_by_policy``)."""
        gg = arena_view(view).gg
        return choose_by_policy(gg, view.team_of, view.play_order, view.side, purpose, seats)

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]:
        """R-A31: creatures act in the order they were summoned."""
        return [c.uid for c in creatures]

    def choose_favor_slot(self, view: MatchView, favor: FavorSpec, slots: list[FavorSpec | None]) -> int:
        """Blast, R-B9: the new favor goes to an empty slot, else covers the left one."""
        return 0 if slots[0] is None or slots[1] is not None else 1

    def choose_next(self, view: MatchView, candidates: list[FighterView]) -> int:
        """Blast, R-B10, R-B11: the uid of the fighter that acts next (the first listed)."""
        return int(candidates[0].uid)

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]:
        """R-A32, R-A36: triggers resolve in the order listed (bombs in the order they were placed)."""
        return list(range(len(triggers)))

    def give_reward(self, view: MatchView, reward: RewardSpec, candidates: list[FighterView]) -> int:
        """R-A52: a Demonic Reward held from the start (option ``start_rewards``) goes face down to
        the Krosmaster it helps most (:func:`krosbalance.ai.rewards.best_holder`)."""
        return candidates[best_holder(reward, candidates)].uid

    def choose_board(
        self, boards: Sequence[Board], own: Sequence[CharacterSpec], opponent: Sequence[CharacterSpec]
    ) -> int:
        """R-A19, as first player: a team that outranges the opponent picks the board with the fewest
        trees (open lines of sight), one that is outranged the most trees (cover); ties, and equal
        reach, keep the first board listed."""
        trees = [board.trees.bit_count() for board in boards]
        reach, theirs = team_reach(own), team_reach(opponent)
        if reach == theirs:
            return 0
        wanted = min(trees) if reach > theirs else max(trees)
        return trees.index(wanted)

    def choose_draft(
        self,
        visible: Sequence[CharacterSpec],
        own: Sequence[CharacterSpec],
        opponent: Sequence[CharacterSpec],
    ) -> int:
        """R-A17: take the visible card with the higher ``card_value`` (the first on a tie)."""
        values = [card_value(spec) for spec in visible]
        return values.index(max(values))
