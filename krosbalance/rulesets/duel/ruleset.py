"""The Duel Pack ruleset object: every hook the engine calls, and the set-up side, wired to the
modules of this package (rule ids R-D1-R-D43: ``README.md`` here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from krosbalance.content.duel import DuelTokenSet, duel_tokens
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK, count_successes
from krosbalance.engine.events import FULL, DiceRolled, LockRolled
from krosbalance.engine.powers import dice_for
from krosbalance.engine.results import ResultColumn
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, PLUS_AP, PLUS_MP
from krosbalance.engine.state import BOMB, KROSMASTER
from krosbalance.errors import ContentError, TeamError
from krosbalance.rulesets.arena.options import punch
from krosbalance.rulesets.arena.rolls import adjacent_lockers, lock_risk
from krosbalance.rulesets.arena.timeline import play_timeline
from krosbalance.rulesets.base import PregamePlayer, Ruleset, Team
from krosbalance.rulesets.duel import actions as extra
from krosbalance.rulesets.duel import pregame, turn
from krosbalance.rulesets.duel.checks import critical_dice, duel_problems, duel_snapshot, expected_damage
from krosbalance.rulesets.duel.options import DuelOptions, default_options, duel_file, duel_options
from krosbalance.rulesets.duel.state import DuelState, duel_state
from krosbalance.rulesets.duel.view import DuelView

#: what a duel leaves in the matches table beyond the winner (per-seat ones as ``drafted0``, ...)
RESULT_COLUMNS: tuple[ResultColumn, ...] = (
    ResultColumn("duel_level", "int64", False, "2 + the higher level of the two teams (R-D15, R-D38)"),
    ResultColumn("tokens_left_on_cells", "int64", False, "Duel Tokens still on duel cells at the end"),
    ResultColumn("drafted", "int64", True, "Duel Tokens each player drafted (R-D16, R-D17)"),
    ResultColumn("picked", "int64", True, "Duel Tokens each player picked up from duel cells (R-D25)"),
    ResultColumn("revealed", "int64", True, "Duel Tokens each player revealed (R-D21)"),
    ResultColumn(
        "tokens_held", "int64", True, "Duel Tokens on each player's cards at the end, face down or revealed"
    ),
    ResultColumn(
        "held_from_start",
        "int64",
        True,
        "Duel Tokens each player held from the start (study option start_token_levels; not a rule)",
    ),
    ResultColumn(
        "start_revealed", "int64", True, "of the tokens held from the start, how many were revealed (R-D21)"
    ),
    ResultColumn(
        "start_token_levels",
        "string",
        False,
        "the levels of the tokens seat 0 held from the start, comma separated ('' = none: the rules' game)",
    ),
)
#: what a duel leaves in the fighters table, per Krosmaster (0 for a summon)
FIGHTER_COLUMNS: tuple[ResultColumn, ...] = (
    ResultColumn("tokens_face_down", "int64", False, "Duel Tokens face down on its card at the end"),
    ResultColumn("tokens_revealed", "int64", False, "Duel Tokens revealed on its card at the end (R-D21)"),
    ResultColumn(
        "held_from_start", "int64", False, "Duel Tokens it held from the start (study option; not a rule)"
    ),
)

if TYPE_CHECKING:
    import numpy as np

    from krosbalance.board.board import Board
    from krosbalance.content.registry import CharacterSource, Registry
    from krosbalance.content.specs import CharacterSpec, SpellSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult
    from krosbalance.engine.rules import RulesetState
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.tension import ArenaController
    from krosbalance.rulesets.duel.turn import DuelController


class DuelRuleset(Ruleset):
    """Krosmaster Arena Duel Pack 1, 2 players, as its English rulebook writes it (options in
    ``data/duel.toml``)."""

    def __init__(self, options: DuelOptions) -> None:
        data = duel_file()
        super().__init__("duel", data.version, options, data.sources)
        self.opts = options
        self.tokens: DuelTokenSet = duel_tokens(options.token_set)
        problem = pregame.start_token_problem(self.tokens, options)
        if problem:
            raise ContentError("options", "start_token_levels", problem)

    def __reduce__(self) -> tuple[type[DuelRuleset], tuple[DuelOptions]]:
        """Pickles and copies rebuild the ruleset from its options (compiled, it has no instance
        dictionary to restore)."""
        return DuelRuleset, (self.opts,)

    def default_options(self) -> DuelOptions:
        return default_options()

    # ------------------------------------------------------------------ state and pieces
    def new_state(self, state: MatchState) -> RulesetState:
        return DuelState(self.tokens, state.board.features.get(pregame.DUEL_FEATURE, 0))

    def spells_for(self, spec: CharacterSpec) -> tuple[SpellSpec, ...]:
        """The printed spells; Arena's punch only under the ``punch`` option (the Duel Pack lists none)."""
        if self.opts.punch and spec.kind == KROSMASTER:
            return spec.spells + (punch(),)
        return spec.spells

    def ruleset_view(self, state: MatchState, side: int) -> DuelView:
        return DuelView(state, duel_state(state), self.opts, side)

    # ------------------------------------------------------------------ the game turn
    def start_turn(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        """R-D21: reveal at most one face-down token (no tension roll, no GG in the Duel Pack)."""
        turn.reveal_at_turn_start(
            state, duel_state(state), self.opts, side, cast("DuelController", controller), view
        )

    def play_characters(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        """R-D40: the first Krosmaster, then the second, each followed by its creatures (Arena's
        Timeline, the order summons follow, R-D30)."""
        play_timeline(state, side, cast("ArenaController", controller), view)

    def end_turn(self, state: MatchState, side: int) -> None:
        turn.end_of_turn(state, duel_state(state), side)

    # ------------------------------------------------------------------ actions
    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        extra.add_actions(state, duel_state(state), fighter, actions)

    def is_legal_extra(self, state: MatchState, fighter: Fighter, action: Action) -> bool:
        return extra.is_legal(state, duel_state(state), fighter, action)

    def action_name(self, kind: int) -> str:
        return extra.NAMES.get(kind, f"action {kind}")

    def perform_extra(self, state: MatchState, fighter: Fighter, action: Action) -> None:
        extra.perform(state, duel_state(state), fighter, action)

    # ------------------------------------------------------------------ movement, markers, combat
    def may_leave(self, state: MatchState, mover: Fighter) -> bool:
        """R-D24, R-D41: each adjacent enemy character rolls Lock, the mover Dodge against it; fewer
        Dodge than Lock successes blocks the mover, which loses all its remaining MP and AP.

        The mover rolls Dodge only against a Lock roll with a success (with none, any Dodge roll is
        "at least equal"); the lockers roll in the order of the cells around the mover, and the first
        block stops the walk. Tiny pieces and mechanisms neither lock nor get locked (Arena's
        R-A44, R-A103, for cards from the box)."""
        if mover.has("tiny"):
            return True
        for locker in adjacent_lockers(state, mover):
            lock, _ = count_successes(state.dice, dice_for(locker, LOCK), LOCK)
            dodge = 0
            if lock:
                dodge, _ = count_successes(state.dice, dice_for(mover, DODGE), DODGE)
            blocked = lock > dodge
            if state.record >= FULL:
                state.events.append(LockRolled(state.turn, mover.uid, locker.uid, lock, dodge, blocked))
            if blocked:
                mover.mp = 0
                mover.ap = 0
                mover.blocked = True
                mover.stats.times_blocked += 1
                return False
        return True

    def add_marker(self, state: MatchState, piece: Fighter, marker: int, amount: int) -> None:
        """R-D22: markers alter the characteristics at the piece's next activation, then are
        discarded; minus markers never exceed its MP or AP (Arena's R-A34)."""
        if marker == PLUS_MP:
            piece.plus_mp += amount
        elif marker == MINUS_MP:
            piece.minus_mp = min(piece.minus_mp + amount, piece.base_mp)
        elif marker == PLUS_AP:
            piece.plus_ap += amount
        elif marker == MINUS_AP:
            piece.minus_ap = min(piece.minus_ap + amount, piece.base_ap)

    def attack_roll(self, state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
        """R-D29 step 4: one Critical roll for the whole spell, +1 per success (R-D12); the Critical
        power adds a die (R-D32), to a neutral spell too unless ``neutral_critical_power`` is off
        (``checks.critical_dice``)."""
        n_dice = critical_dice(caster, spell, self.opts)
        successes, faces = count_successes(state.dice, n_dice, CRITICAL)
        if state.record >= FULL:
            state.events.append(DiceRolled(state.turn, caster.uid, "critical", faces, successes))
        return successes

    def defence_roll(self, state: MatchState, target: Fighter, pierce: bool) -> int:
        """R-D29 step 5: each target's Armour roll, -1 per success; Pierces Armour removes a die
        (R-D13); the Armour power adds one (R-D32); a bomb rolls ``bomb_armour_dice``."""
        n_dice = self.opts.bomb_armour_dice if target.kind == BOMB else dice_for(target, ARMOUR)
        if pierce:
            n_dice -= 1
        if n_dice <= 0:
            return 0
        successes, faces = count_successes(state.dice, n_dice, ARMOUR)
        if state.record >= FULL:
            state.events.append(DiceRolled(state.turn, target.uid, "armour", faces, successes))
        return successes

    # ------------------------------------------------------------------ victory
    def check_victory(self, state: MatchState) -> bool:
        return turn.ko_victory(state)

    def turn_limit_winner(self, state: MatchState) -> int | None:
        return turn.turn_limit_winner(state, self.opts)

    @property
    def result_columns(self) -> tuple[ResultColumn, ...]:
        return RESULT_COLUMNS

    @property
    def report_sections(self) -> tuple[str, ...]:
        """The Duel Pack's study: who beats whom, and the value of a Duel Token level
        (``krosbalance.analysis.duel``)."""
        return ("duel_tokens",)

    @property
    def fighter_columns(self) -> tuple[ResultColumn, ...]:
        return FIGHTER_COLUMNS

    def fill_result(self, state: MatchState, result: MatchResult) -> None:
        """The declared columns (``RESULT_COLUMNS``): the duel level, the tokens left on duel cells,
        per seat the tokens drafted, picked up, revealed, on the cards at the end, held from the
        start and of those revealed (``drafted0``, ``drafted1``...), and the levels held from the
        start."""
        ds = duel_state(state)
        seats = range(state.n_seats)
        result.values["duel_level"] = ds.duel_level
        result.values["tokens_left_on_cells"] = len(ds.on_cells)
        result.values["drafted"] = tuple(ds.drafted)
        result.values["picked"] = tuple(ds.picked)
        result.values["revealed"] = tuple(ds.revealed)
        result.values["tokens_held"] = tuple(sum(ds.on_cards(state, side)) for side in seats)
        result.values["held_from_start"] = tuple(len(ds.start_tokens[side]) for side in seats)
        result.values["start_revealed"] = tuple(ds.start_revealed(state, side) for side in seats)
        result.values["start_token_levels"] = ",".join(
            str(t.level) for t in ds.start_tokens[pregame.START_TOKEN_SEAT]
        )

    def fighter_values(self, state: MatchState, fighter: Fighter) -> dict[str, Any]:
        """Its tokens at the end: face down, revealed, and held from the start."""
        ds = duel_state(state)
        hidden = ds.hidden.get(fighter.uid, [])
        shown = ds.shown.get(fighter.uid, [])
        start = {t.id for t in ds.start_tokens[fighter.side]}
        return {
            "tokens_face_down": len(hidden),
            "tokens_revealed": len(shown),
            "held_from_start": sum(1 for t in (*hidden, *shown) if t.id in start),
        }

    # ------------------------------------------------------------------ expectations, for AIs
    def expected_damage(self, state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter) -> float:
        return expected_damage(state, caster, spell, target, self.opts)

    def leave_risk(self, state: MatchState, mover: Fighter) -> float:
        return lock_risk(state, mover)

    # ------------------------------------------------------------------ checks, for the test kit
    def state_problems(self, state: MatchState) -> list[str]:
        return duel_problems(state, duel_state(state), self.opts)

    def snapshot(self, state: MatchState) -> tuple[Any, ...]:
        return duel_snapshot(duel_state(state))

    # ------------------------------------------------------------------ teams and the pregame
    def validate_team(
        self, names: Sequence[str], registry: Registry | None = None
    ) -> tuple[CharacterSpec, ...]:
        return pregame.validate_team(names, pregame.duel_team_registry(registry), self.opts.figures)

    def legal_teams(self, pool: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return pregame.legal_teams(pool, self.opts.figures)

    def all_teams(self, names: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return pregame.legal_teams(names, self.opts.figures)

    def team_splits(self, pool: Sequence[str], registry: Registry | None = None) -> list[tuple[Team, Team]]:
        return pregame.team_splits(pool, self.opts.figures)

    def deal_problem(self, mode: str, pool: Sequence[str], registry: Registry | None = None) -> str:
        return f"ruleset 'duel' has no team deal {mode!r}: each player chooses his Krosmasters (R-D14)"

    def deal_teams(
        self,
        mode: str,
        pool: Sequence[CharacterSpec],
        players: Sequence[PregamePlayer],
        rng: np.random.Generator,
    ) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
        raise TeamError(
            f"ruleset 'duel' has no team deal {mode!r}: each player chooses his Krosmasters (R-D14)"
        )

    def first_player(self, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator) -> int:
        return pregame.first_player(teams, rng)

    def setup(
        self,
        teams: Sequence[Sequence[CharacterSpec]],
        board: Board,
        dice: Dice,
        setup_rng: np.random.Generator,
        registry: CharacterSource,
        record: int = 0,
    ) -> MatchState:
        return pregame.setup(teams, board, self, dice, setup_rng, registry, record)

    def deploy(self, state: MatchState, controllers: Sequence[Any], views: Sequence[MatchView]) -> None:
        """The tokens held from the start (study option ``start_token_levels``, none by default), the
        draft (R-D16, R-D17), the deployment, second player first (R-D18), then the tokens put on
        duel cells (R-D19, R-D39)."""
        ds = duel_state(state)
        if self.opts.start_token_levels:
            pregame.give_start_tokens(state, ds, self.opts, controllers, views)
        pregame.draft(state, ds, self.opts, controllers, views)
        pregame.deploy(state, controllers, views)
        pregame.place_tokens(state, ds, self.opts, controllers, views)


def duel_ruleset(options: Mapping[str, Any] | None = None, *, file: str = "options") -> DuelRuleset:
    """The Duel Pack ruleset with option overrides (the registry's factory)."""
    return DuelRuleset(duel_options(options, file=file))
