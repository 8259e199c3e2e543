"""A scenario kit for Krosmaster Blast rule tests, on top of :class:`krosbalance.testing.scenario.Scenario`.

``BlastScenario`` plays under the Blast ruleset on a tiny ASCII board where ``G`` marks a glyph cell,
and lets a test set the Blast holdings directly — glyphs owned, tiles, the Dofus token, the favors in
the two slots, the Divine Challenges in play — then act through the engine's own code::

    sc = BlastScenario('''. . G .
                          . . . .''', dice=[DODGE], favors=("brasier", "vague_de_froid"))
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sc.activate(gege)
    sc.move(gege, (1, 0), (2, 0))     # captures the glyph on (2, 0)
    sc.use_favor(gege, 1, at=(3, 1))  # an Ice tile

By default the scenario is in game turn 2 (the first player's first turn forbids taking the Dofus
token, R-B15) with side 0 active and side 1 holding the Dofus token.

Every step is played by the native core too, from the same position, glyphs, tiles, favors and
challenges included, and must agree (:mod:`krosbalance.testing.scenario_core`, issue 41).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance.board.ascii import GLYPHS, Glyph
from krosbalance.board.board import Board
from krosbalance.content.blast import blast_cards
from krosbalance.engine.events import FULL
from krosbalance.engine.legal import Action
from krosbalance.engine.state import Fighter
from krosbalance.rulesets.blast.actions import USE_BONUS, USE_FAVOR, encode
from krosbalance.rulesets.blast.pregame import bonus_summons
from krosbalance.rulesets.blast.ruleset import BlastRuleset
from krosbalance.rulesets.blast.state import TERRAIN_INDEX, BlastState, blast_state
from krosbalance.rulesets.blast.terrain import place_tile
from krosbalance.testing.scenario import Scenario, Where

__all__ = ["BLAST_GLYPHS", "BlastScenario"]

#: the ASCII glyphs of Blast test boards: Arena's, plus ``G`` for a glyph cell
BLAST_GLYPHS: dict[str, Glyph] = {**GLYPHS, "G": Glyph("feature", "glyph")}


class BlastScenario(Scenario):
    """A hand-made Blast position with scripted dice (see the module docstring).

    Args:
        board: an ASCII grid (``G`` = glyph cell) or a ready ``Board``.
        dice: raw die faces, consumed in order.
        options: Blast option overrides (``krosbalance/rulesets/blast/data/blast.toml``).
        favors: the favors in the left and right slots (ids or names; None = empty).
        challenges: the Divine Challenges in play (ids or names).
        dofus: the player holding the Dofus token.
        turn, active_side, record: as for ``Scenario``.
        core: as for ``Scenario``: every step is played by the native core too and compared
            (:mod:`krosbalance.testing.scenario_core`), unless False or the core is missing.
    """

    def __init__(
        self,
        board: str | Board,
        dice: Sequence[int] = (),
        options: Mapping[str, Any] | None = None,
        *,
        favors: tuple[str | None, str | None] = (None, None),
        challenges: Sequence[str] = (),
        dofus: int = 1,
        turn: int = 2,
        active_side: int = 0,
        record: int = FULL,
        core: bool | None = None,
    ) -> None:
        grid = (
            board
            if isinstance(board, Board)
            else Board.from_ascii(board, id="blast-scenario", glyphs=BLAST_GLYPHS)
        )
        super().__init__(
            grid,
            dice,
            options,
            turn=turn,
            active_side=active_side,
            record=record,
            ruleset="blast",
            core=core,
        )
        cards = blast_cards()
        self.bs.slots = [None if name is None else cards.favor(name) for name in favors]
        self.bs.dofus = dofus
        self.blast.put_challenges(self.bs, tuple(cards.challenge(name) for name in challenges))
        bonus_summons(self.state, self.source)
        for slot in self.bs.slots:
            if slot is not None:
                self._load_summons(slot.action.effects)

    def _load_summons(self, effects: Sequence[Any]) -> None:
        for effect in effects:
            if effect.kind == "summon":
                spec_id = str(effect.params["summon"])
                self.state.summon_specs[spec_id] = self.source.load_character(spec_id)

    @property
    def bs(self) -> BlastState:
        """The Blast holdings of the scenario's match."""
        return blast_state(self.state)

    @property
    def blast(self) -> BlastRuleset:
        assert isinstance(self.rules, BlastRuleset)
        return self.rules

    # ----------------------------------------------------------------- holdings
    def own(self, side: int, *cells: Where) -> None:
        """Give ``side`` these glyph cells (no capture bonus, no Dofus token)."""
        for where in cells:
            bit = 1 << self._cell(where)
            assert self.bs.glyph_cells & bit, f"{where} is not a glyph cell"
            self.bs.owned[1 - side] &= ~bit
            self.bs.owned[side] |= bit

    def tile(self, terrain: str, *cells: Where) -> None:
        """Put terrain tiles (``ice``, ``fire``, ``fog``) on cells, oldest first."""
        for where in cells:
            place_tile(self.state, self.bs, TERRAIN_INDEX[terrain], self._cell(where), -1, self.blast.opts)

    def glyph_count(self, side: int) -> int:
        return self.bs.glyphs(side)

    # ----------------------------------------------------------------- bonus actions
    def favor_action(self, slot: int, at: Where | None = None, removed: Where | None = None) -> Action:
        return Action(
            USE_FAVOR, encode(slot, -1 if removed is None else self._cell(removed)), self._target(at)
        )

    def bonus_action(self, bonus: str, at: Where | None = None, removed: Where | None = None) -> Action:
        index = next(i for i, b in enumerate(self.bs.bonuses) if b.id == bonus)
        return Action(
            USE_BONUS, encode(index, -1 if removed is None else self._cell(removed)), self._target(at)
        )

    def _target(self, at: Where | None) -> int:
        return -1 if at is None else self._cell(at)

    def use_favor(
        self, fighter: Fighter, slot: int, at: Where | None = None, removed: Where | None = None
    ) -> None:
        self.do(fighter, self.favor_action(slot, at, removed))

    def use_bonus(
        self, fighter: Fighter, bonus: str, at: Where | None = None, removed: Where | None = None
    ) -> None:
        self.do(fighter, self.bonus_action(bonus, at, removed))
