"""The ruleset protocol: the engine's in-match hooks plus everything before the first turn.

``Ruleset`` extends :class:`krosbalance.engine.rules.MatchRules` (the hooks the engine calls during a
match) with the set-up side that ``krosbalance.play``, the experiment runner, the benchmark and the
test kits call: team rules, team deals and splits, the first player, the board choice, the set-up of
a ``MatchState`` and the deployment. A ruleset is one subclass (``krosbalance.rulesets.arena``) and
one entry in ``krosbalance.rulesets.registry``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from krosbalance.engine.rules import MatchRules
from krosbalance.errors import TeamError

if TYPE_CHECKING:
    import numpy as np

    from krosbalance.board.board import Board
    from krosbalance.content.registry import CharacterSource, Registry
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.state import MatchState
    from krosbalance.engine.view import MatchView

T = TypeVar("T")
Team = tuple[str, ...]


class PregamePlayer(Protocol):
    """The decisions a player makes before a match (implemented by the AIs): indices into the given
    lists. Arena asks for the board (R-A19) and the draft picks (R-A17)."""

    def choose_board(
        self, boards: Sequence[Board], own: Sequence[CharacterSpec], opponent: Sequence[CharacterSpec]
    ) -> int: ...

    def choose_draft(
        self,
        visible: Sequence[CharacterSpec],
        own: Sequence[CharacterSpec],
        opponent: Sequence[CharacterSpec],
    ) -> int: ...


def summonable(specs: Sequence[CharacterSpec], source: CharacterSource) -> dict[str, CharacterSpec]:
    """Every piece the teams can put in play, found by following summon spells."""
    found: dict[str, CharacterSpec] = {}
    todo = list(specs)
    while todo:
        spec = todo.pop()
        for spell in spec.spells:
            if spell.summons and spell.summons not in found:
                found[spell.summons] = source.load_character(spell.summons)
                todo.append(found[spell.summons])
    return found


class Ruleset(MatchRules):
    """A whole ruleset: the engine's hooks (``MatchRules``) and the set-up side below.

    ``team_modes`` are the team deals of experiments this ruleset knows besides given teams (Arena:
    ``random_deal`` and ``draft``, R-A17). The set-up methods here raise ``NotImplementedError``
    until a subclass gives them.
    """

    @property
    def team_modes(self) -> tuple[str, ...]:
        """The team deals of experiments this ruleset knows besides given teams."""
        return ()

    @property
    def card_game(self) -> str:
        """The game whose cards the ruleset plays (``CharacterSpec.game``): ``arena`` or ``blast``."""
        return "arena"

    @property
    def report_sections(self) -> tuple[str, ...]:
        """The report sections of this ruleset's own study, by name (``krosbalance.analysis.sections``
        maps each name to its analysis), in the order the report shows them."""
        return ()

    # ------------------------------------------------------------------ teams
    def validate_team(
        self, names: Sequence[str], registry: Registry | None = None
    ) -> tuple[CharacterSpec, ...]:
        """The team's specs, or ``TeamError`` saying which team rule it breaks."""
        raise NotImplementedError(f"ruleset {self.name!r} has no team rules")

    def legal_teams(self, pool: Sequence[str], registry: Registry | None = None) -> list[Team]:
        """Every legal team that can be drawn from ``pool`` (a multiset of character ids: a name
        listed twice may appear twice), in a stable order."""
        raise NotImplementedError(f"ruleset {self.name!r} does not enumerate teams")

    def all_teams(self, names: Sequence[str], registry: Registry | None = None) -> list[Team]:
        """Every legal team of these Krosmasters, each name as many times as the rules allow, as
        sorted tuples of ids, by size then name."""
        raise NotImplementedError(f"ruleset {self.name!r} does not enumerate teams")

    def team_splits(self, pool: Sequence[str], registry: Registry | None = None) -> list[tuple[Team, Team]]:
        """Every split of ``pool`` into two legal teams, each unordered split once (the first team
        holds ``pool[0]``)."""
        raise NotImplementedError(f"ruleset {self.name!r} does not split pools")

    def deal_problem(self, mode: str, pool: Sequence[str], registry: Registry | None = None) -> str:
        """Why ``pool`` cannot be dealt by ``mode`` (one of ``team_modes``), or '' when it can."""
        return f"ruleset {self.name!r} has no team deal {mode!r}"

    def deal_teams(
        self,
        mode: str,
        pool: Sequence[CharacterSpec],
        players: Sequence[PregamePlayer],
        rng: np.random.Generator,
    ) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
        """The hands of player 0 and player 1 dealt from ``pool`` by ``mode``."""
        raise NotImplementedError(f"ruleset {self.name!r} has no team deal {mode!r}")

    # ------------------------------------------------------------------ seats
    @property
    def seats(self) -> int:
        """How many players a match of this ruleset (with its options) seats."""
        return 2

    def partnerships(self) -> tuple[int, ...]:
        """Each seat's partnership (``MatchState.team_of``): by default every player for himself."""
        return tuple(range(self.seats))

    def check_seats(self, teams: int) -> None:
        """``TeamError`` unless ``teams`` is one team per seat."""
        if teams != self.seats:
            raise TeamError(
                f"ruleset {self.name!r} seats {self.seats} players here, so a match needs {self.seats} "
                f"teams, not {teams}"
            )

    # ------------------------------------------------------------------ before the first turn
    def first_player(self, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator) -> int:
        """The seat that plays first; ``rng`` is the match's set-up stream."""
        return self.play_order(teams, rng)[0]

    def play_order(
        self, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The seats in play order (by default the first player, then the seats after it); a ruleset
        overrides this or ``first_player``."""
        if type(self).first_player is Ruleset.first_player:
            raise NotImplementedError(f"ruleset {self.name!r} does not say who plays first")
        first = self.first_player(teams, rng)
        return tuple((first + k) % len(teams) for k in range(len(teams)))

    def choose_board(
        self,
        boards: Sequence[Board],
        teams: Sequence[Sequence[CharacterSpec]],
        players: Sequence[PregamePlayer],
        order: Sequence[int],
    ) -> int:
        """The index of the board the match is played on, among candidate ``boards``; ``order`` is
        the play order (``play_order``)."""
        return 0

    def setup(
        self,
        teams: Sequence[Sequence[CharacterSpec]],
        board: Board,
        dice: Dice,
        setup_rng: np.random.Generator,
        registry: CharacterSource,
        record: int = 0,
    ) -> MatchState:
        """A ``MatchState`` with both teams spawned (not deployed) and the first player decided."""
        raise NotImplementedError(f"ruleset {self.name!r} has no set-up")

    def deploy(self, state: MatchState, controllers: Sequence[Any], views: Sequence[MatchView]) -> None:
        """Put both teams on the board, asking the players (the ruleset's own controller protocol)."""
        raise NotImplementedError(f"ruleset {self.name!r} has no deployment")
