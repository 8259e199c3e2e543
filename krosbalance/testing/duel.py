"""A scenario kit for Duel Pack rule tests, on top of :class:`krosbalance.testing.scenario.Scenario`.

``DuelScenario`` plays under the duel ruleset on a tiny ASCII board where ``X`` marks a duel cell,
reads characters from the package's cards plus the Duel Pack's (``content.duel.with_duel_pack``),
and lets a test put Duel Tokens where it wants — on a Krosmaster's card, face down or face up, or on
a duel cell — always taken out of the supply, so the token conservation invariant keeps holding::

    sc = DuelScenario('''. X . .
                         . . . .''', dice=[LOCK, DODGE])
    amakna = sc.add(duel_pack()[0], side=0, at=(0, 0))
    sc.put_token("l2_ap", (1, 0))
    sc.activate(amakna)
    sc.move(amakna, (1, 0))
    sc.pick(amakna)                  # level 6 + level 2 = 8 AP (R-D25)

Every step is played by the native core too, from the same position, tokens and supply included,
and must agree (:mod:`krosbalance.testing.scenario_core`, issue 41).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance.board.ascii import GLYPHS, Glyph
from krosbalance.board.board import Board
from krosbalance.content.duel import DuelTokenSpec, with_duel_pack
from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.events import FULL
from krosbalance.engine.legal import Action
from krosbalance.engine.state import Fighter
from krosbalance.rulesets.duel.actions import PICK_TOKEN
from krosbalance.rulesets.duel.pregame import DUEL_FEATURE
from krosbalance.rulesets.duel.ruleset import DuelRuleset
from krosbalance.rulesets.duel.state import DuelState, duel_state
from krosbalance.rulesets.duel.turn import reveal
from krosbalance.testing.scenario import Scenario, Where

__all__ = ["DUEL_GLYPHS", "DuelScenario", "duel_pack", "duel_registry"]

#: the ASCII glyphs of duel test boards: Arena's, plus ``X`` for a duel cell
DUEL_GLYPHS: dict[str, Glyph] = {**GLYPHS, "X": Glyph("feature", DUEL_FEATURE)}


def duel_registry(registry: Registry | None = None) -> Registry:
    """The package's cards plus the Duel Pack's."""
    return with_duel_pack(registry or default_registry())


def duel_pack() -> list[str]:
    """The Duel Pack's Krosmasters (``set = "duel-pack"``), by id."""
    return duel_registry().list_characters("krosmaster", set="duel-pack")


class DuelScenario(Scenario):
    """A hand-made duel position with scripted dice (see the module docstring).

    Args:
        board: an ASCII grid (``X`` = duel cell) or a ready ``Board``.
        dice: raw die faces, consumed in order.
        options: duel option overrides (``krosbalance/rulesets/duel/data/duel.toml``).
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
        turn: int = 1,
        active_side: int = 0,
        record: int = FULL,
        core: bool | None = None,
    ) -> None:
        if isinstance(board, str):
            board = Board.from_ascii(board, id="duel-scenario", glyphs=DUEL_GLYPHS)
        super().__init__(
            board,
            dice,
            options,
            turn=turn,
            active_side=active_side,
            record=record,
            ruleset="duel",
            registry=duel_registry(),
            core=core,
        )

    @property
    def ds(self) -> DuelState:
        """The Duel Pack holdings (``krosbalance.rulesets.duel.state``)."""
        return duel_state(self.state)

    @property
    def duel(self) -> DuelRuleset:
        assert isinstance(self.rules, DuelRuleset)
        return self.rules

    def add(
        self,
        character: Any,
        side: int,
        at: Where,
        *,
        summoner: Fighter | None = None,
        injuries: int = 0,
    ) -> Fighter:
        fighter = super().add(character, side, at, summoner=summoner, injuries=injuries)
        self.ds.hidden.setdefault(fighter.uid, [])
        self.ds.shown.setdefault(fighter.uid, [])
        return fighter

    # ----------------------------------------------------------------- tokens
    def token(self, token_id: str) -> DuelTokenSpec:
        return self.ds.token_set.token(token_id)

    def take_from_supply(self, token_id: str) -> DuelTokenSpec:
        """Remove a token from the face-down supply (or the face-up row) and return it."""
        ds = self.ds
        for pile in ds.piles:
            for i, token in enumerate(pile):
                if token.id == token_id:
                    return pile.pop(i)
        for i, shown in enumerate(ds.face_up):
            if shown is not None and shown.id == token_id:
                ds.face_up[i] = None
                return shown
        raise KeyError(f"Duel Token {token_id!r} is not in the supply")

    def give_token(self, fighter: Fighter, token_id: str, *, face_up: bool = False) -> DuelTokenSpec:
        """Put a token from the supply face down on a Krosmaster's card; ``face_up`` reveals it at once
        (its bonuses applied as at the start of a turn, R-D21)."""
        token = self.take_from_supply(token_id)
        self.ds.hidden.setdefault(fighter.uid, []).append(token)
        if face_up:
            reveal(self.state, self.ds, self.duel.opts, fighter, len(self.ds.hidden[fighter.uid]) - 1)
        return token

    def put_token(self, token_id: str, at: Where) -> DuelTokenSpec:
        """Put a token from the supply face down on a duel cell (R-D19)."""
        cell = self._cell(at)
        if not (self.ds.duel_cells >> cell) & 1:
            raise ValueError(f"{self.board.xy(cell)} is not a duel cell")
        token = self.take_from_supply(token_id)
        self.ds.on_cells[cell] = token
        return token

    def pick_action(self, fighter: Fighter) -> Action:
        return Action(PICK_TOKEN, -1, fighter.cell)

    def pick(self, fighter: Fighter) -> None:
        """Pick up the token on the Krosmaster's cell (R-D25)."""
        self.do(fighter, self.pick_action(fighter))
