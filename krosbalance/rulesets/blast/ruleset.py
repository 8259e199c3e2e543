"""The Krosmaster Blast ruleset object: every hook the engine calls, and the set-up side, wired to the
modules of this package (rule ids R-B1-R-B55: ``README.md`` here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.events import FULL
from krosbalance.engine.instant import settle
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, PLUS_AP, PLUS_MP
from krosbalance.engine.state import KROSMASTER
from krosbalance.errors import ContentError, TeamError
from krosbalance.rulesets.base import PregamePlayer, Ruleset, Team
from krosbalance.rulesets.blast import actions as extra
from krosbalance.rulesets.blast import pregame, terrain, turn
from krosbalance.rulesets.blast.combat import expected_spell_damage, spell_roll
from krosbalance.rulesets.blast.events import DodgeRolled
from krosbalance.rulesets.blast.invariants import blast_problems, blast_snapshot
from krosbalance.rulesets.blast.options import BlastOptions, blast_file, blast_options, default_options
from krosbalance.rulesets.blast.passives import end_of_activation, start_of_activation
from krosbalance.rulesets.blast.results import blast_columns, blast_values
from krosbalance.rulesets.blast.rolls import FREE, TACKLED, dodge_odds, dodge_outcome
from krosbalance.rulesets.blast.state import BlastState, blast_state
from krosbalance.rulesets.blast.view import BlastView

if TYPE_CHECKING:
    import numpy as np

    from krosbalance.board.board import Board
    from krosbalance.content.blast import ChallengeSpec
    from krosbalance.content.registry import CharacterSource
    from krosbalance.content.specs import CharacterSpec, SpellSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult, ResultColumn
    from krosbalance.engine.rules import RulesetState
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.blast.turn import BlastController


class BlastRuleset(Ruleset):
    """Krosmaster Blast, 2 players, as the French rulebook writes it (options in ``data/blast.toml``)."""

    @property
    def team_modes(self) -> tuple[str, ...]:
        """R-B5: each player takes his Krosmasters at random."""
        return ("random_deal",)

    @property
    def report_sections(self) -> tuple[str, ...]:
        """Blast's study: the Divine Challenges (which tier acts, whom a challenge favours)."""
        return ("divine_challenges",)

    @property
    def card_game(self) -> str:
        """Blast plays Krosmaster Blast cards (``game = "blast"``)."""
        return "blast"

    def __init__(self, options: BlastOptions) -> None:
        data = blast_file()
        super().__init__("blast", data.version, options, data.sources)
        self.opts = options

    def __reduce__(self) -> tuple[type[BlastRuleset], tuple[BlastOptions]]:
        """Pickles and copies rebuild the ruleset from its options (compiled, it has no instance
        dictionary to restore)."""
        return BlastRuleset, (self.opts,)

    def default_options(self) -> BlastOptions:
        return default_options()

    # ------------------------------------------------------------------ state and pieces
    def new_state(self, state: MatchState) -> RulesetState:
        glyphs = state.board.features.get("glyph", 0)
        state.enter_cells = glyphs
        return BlastState(glyphs)

    def put_challenges(self, bs: BlastState, challenges: tuple[ChallengeSpec, ...]) -> None:
        """The challenges in play, their bonuses flattened with the tier each needs (R-B41)."""
        bs.challenges = challenges
        bs.bonuses = tuple(bonus for challenge in challenges for bonus in challenge.bonuses)
        reading = self.opts.challenge_tier_reading
        overrides = self.opts.challenge_tiers
        bs.tiers = tuple(
            overrides.get(f"{challenge.id}.{bonus.id}", bonus.tier_for(reading))
            for challenge in challenges
            for bonus in challenge.bonuses
        )
        bs.bonus_uses = [[0] * len(bs.bonuses), [0] * len(bs.bonuses)]

    def ruleset_view(self, state: MatchState, side: int) -> BlastView:
        return BlastView(state, blast_state(state), self.opts, side)

    # ------------------------------------------------------------------ the game turn
    def start_turn(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        turn.new_favor(state, blast_state(state), side, cast("BlastController", controller), view)

    def play_characters(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        turn.play_fighters(state, side, cast("BlastController", controller), view)

    def end_turn(self, state: MatchState, side: int) -> None:
        turn.end_of_turn(state, blast_state(state), side)

    def activation_started(self, state: MatchState, fighter: Fighter) -> None:
        start_of_activation(state, blast_state(state), fighter)

    def activation_ended(self, state: MatchState, fighter: Fighter) -> None:
        end_of_activation(state, blast_state(state), fighter)
        settle(state)  # a glyph trap's injury is an instant of its own

    # ------------------------------------------------------------------ actions
    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        extra.add_actions(state, blast_state(state), fighter, actions, self.opts)

    def is_legal_extra(self, state: MatchState, fighter: Fighter, action: Action) -> bool:
        return extra.is_legal(state, blast_state(state), fighter, action, self.opts)

    def action_name(self, kind: int) -> str:
        return extra.NAMES.get(kind, f"action {kind}")

    def perform_extra(self, state: MatchState, fighter: Fighter, action: Action) -> None:
        extra.perform(state, blast_state(state), fighter, action, self.opts)

    # ------------------------------------------------------------------ movement and markers
    def _zone_dice(self, state: MatchState, mover: Fighter) -> int:
        """Dodge dice to walk off the mover's cell: 0 outside enemy tackle zones, 1 in one, two (or
        one per enemy) in several (R-B34-R-B37)."""
        if not self.opts.tackle_zone:
            return 0
        enemies = 0
        for cell in state.board.neighbours[mover.cell]:
            piece = state.by_cell[cell]
            if piece is not None and piece.alive and piece.side != mover.side and piece.kind == KROSMASTER:
                enemies += 1
        if enemies <= 1:
            return enemies
        return 2 if self.opts.tackle_dice_several == "two" else enemies

    def may_leave(self, state: MatchState, mover: Fighter) -> bool:
        """The dodge roll (R-B35-R-B39): all Dodge, the Combatant walks away; otherwise it is grabbed
        (stays, loses its MP) or, on a Lock face, tackled (loses its AP too)."""
        dice = self._zone_dice(state, mover)
        if not dice:
            return True
        faces = tuple(state.dice.roll() for _ in range(dice))
        outcome = dodge_outcome(faces, self.opts.dice_faces == "advanced")
        if state.record >= FULL:
            state.events.append(DodgeRolled(state.turn, mover.uid, faces, outcome))
        if outcome == FREE:
            return True
        mover.mp = 0
        mover.blocked = True
        mover.stats.times_blocked += 1
        if outcome == TACKLED:
            mover.ap = 0
        return False

    def on_enter(self, state: MatchState, piece: Fighter, origin: int, cell: int, how: str) -> None:
        terrain.enter(state, blast_state(state), piece, origin, cell, how, self.opts)

    def add_marker(self, state: MatchState, piece: Fighter, marker: int, amount: int) -> None:
        """R-B26, R-B53: a marker received during the piece's own activation acts at once; otherwise
        it waits for its next activation. Either way it is gone when that activation ends."""
        if piece.acting:
            if marker == PLUS_MP:
                piece.mp += amount
            elif marker == MINUS_MP:
                piece.mp = max(0, piece.mp - amount)
            elif marker == PLUS_AP:
                piece.ap += amount
            elif marker == MINUS_AP:
                piece.ap = max(0, piece.ap - amount)
        elif marker == PLUS_MP:
            piece.plus_mp += amount
        elif marker == MINUS_MP:
            piece.minus_mp = min(piece.minus_mp + amount, piece.base_mp)
        elif marker == PLUS_AP:
            piece.plus_ap += amount
        elif marker == MINUS_AP:
            piece.minus_ap = min(piece.minus_ap + amount, piece.base_ap)

    # ------------------------------------------------------------------ combat
    def attack_roll(self, state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
        return spell_roll(state, blast_state(state), caster, spell, self.opts)

    # ------------------------------------------------------------------ victory
    def check_victory(self, state: MatchState) -> bool:
        return turn.ko_victory(state, self.opts)

    def turn_limit_winner(self, state: MatchState) -> int | None:
        bs = blast_state(state)
        counts = (bs.glyphs(0), bs.glyphs(1))
        return None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)

    @property
    def result_columns(self) -> tuple[ResultColumn, ...]:

        return blast_columns()

    def fill_result(self, state: MatchState, result: MatchResult) -> None:

        result.values.update(blast_values(state, blast_state(state)))

    # ------------------------------------------------------------------ expectations, for AIs
    def expected_damage(self, state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter) -> float:
        return expected_spell_damage(state, blast_state(state), caster, spell, target, self.opts)

    def leave_risk(self, state: MatchState, mover: Fighter) -> float:
        dice = self._zone_dice(state, mover)
        return 1.0 - dodge_odds(dice, self.opts.dice_faces == "advanced")[0] if dice else 0.0

    # ------------------------------------------------------------------ checks, for the test kit
    def state_problems(self, state: MatchState) -> list[str]:

        return blast_problems(state, blast_state(state), self.opts)

    def snapshot(self, state: MatchState) -> tuple[Any, ...]:

        return blast_snapshot(blast_state(state))

    # ------------------------------------------------------------------ teams and the pregame
    def validate_team(
        self, names: Sequence[str], registry: Registry | None = None
    ) -> tuple[CharacterSpec, ...]:
        return pregame.validate_team(names, registry or default_registry(), self.opts)

    def legal_teams(self, pool: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return pregame.legal_teams(pool, self.opts.team_size)

    def all_teams(self, names: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return pregame.legal_teams(names, self.opts.team_size)

    def team_splits(self, pool: Sequence[str], registry: Registry | None = None) -> list[tuple[Team, Team]]:
        return pregame.team_splits(pool, self.opts.team_size)

    def deal_problem(self, mode: str, pool: Sequence[str], registry: Registry | None = None) -> str:
        if mode not in self.team_modes:
            return f"ruleset 'blast' has no team deal {mode!r}; it has {', '.join(self.team_modes)}"
        need = 2 * self.opts.team_size
        if len(set(pool)) < need:
            return f"a Blast random deal needs {need} different Krosmasters in the pool, got {len(set(pool))}"
        return ""

    def deal_teams(
        self,
        mode: str,
        pool: Sequence[CharacterSpec],
        players: Sequence[PregamePlayer],
        rng: np.random.Generator,
    ) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
        """R-B5: each player takes ``team_size`` Krosmasters at random."""
        if mode != "random_deal":
            raise TeamError(f"ruleset 'blast' has no team deal {mode!r}; it has random_deal")
        return pregame.random_deal(pool, self.opts.team_size, rng)

    def first_player(self, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator) -> int:
        """R-B7: a glyph tile tossed in the air, its face up names the first player."""
        return int(rng.integers(2))

    def setup(
        self,
        teams: Sequence[Sequence[CharacterSpec]],
        board: Board,
        dice: Dice,
        setup_rng: np.random.Generator,
        registry: CharacterSource,
        record: int = 0,
    ) -> MatchState:
        if "glyph" not in board.features:
            raise ContentError(
                "board", board.id, "the board has no glyph cells: it is not a Krosmaster Blast board"
            )
        return pregame.setup(teams, board, self, dice, setup_rng, registry, record)

    def deploy(self, state: MatchState, controllers: Sequence[Any], views: Sequence[MatchView]) -> None:
        pregame.deploy(state, controllers, views)


def blast_ruleset(options: Mapping[str, Any] | None = None, *, file: str = "options") -> BlastRuleset:
    """The Blast ruleset with option overrides (the registry's factory)."""
    return BlastRuleset(blast_options(options, file=file))
