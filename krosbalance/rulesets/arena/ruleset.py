"""The Arena ruleset object: every hook the engine calls, and the set-up side, wired to the modules
of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.legal import BUY_REWARD, REVEAL_REWARD
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, PLUS_AP, PLUS_MP
from krosbalance.engine.state import KROSMASTER
from krosbalance.errors import TeamError
from krosbalance.rulesets.arena import actions as extra
from krosbalance.rulesets.arena import economy, pregame, rolls
from krosbalance.rulesets.arena import rewards as reward_rules
from krosbalance.rulesets.arena import teams as team_rules
from krosbalance.rulesets.arena.invariants import arena_problems, arena_snapshot
from krosbalance.rulesets.arena.options import ArenaOptions, arena_file, arena_options, default_options, punch
from krosbalance.rulesets.arena.state import ArenaState, arena_state
from krosbalance.rulesets.arena.tension import tension_roll
from krosbalance.rulesets.arena.timeline import play_timeline, record_turn_end
from krosbalance.rulesets.base import PregamePlayer, Ruleset, Team

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.specs import CharacterSpec, SpellSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult
    from krosbalance.engine.rules import RulesetState
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.tension import ArenaController
    from krosbalance.rulesets.base import CharacterSource


class ArenaRuleset(Ruleset):
    """Krosmaster Arena, 2 players, as the 2013 Italian rulebook writes it (options in
    ``data/arena.toml``)."""

    team_modes = ("random_deal", "draft")

    def __init__(self, options: ArenaOptions) -> None:
        data = arena_file()
        super().__init__("arena", data.version, options, data.sources)
        self.opts = options
        self.punch = punch()
        #: the market is set up (``demonic_rewards``, or tokens held from the start)
        self.rewards = reward_rules.wants_market(options)

    def default_options(self) -> ArenaOptions:
        return default_options()

    # ------------------------------------------------------------------ state and pieces
    def new_state(self, state: MatchState) -> RulesetState:
        return ArenaState.start(state, self.opts)

    def spells_for(self, spec: CharacterSpec) -> tuple[SpellSpec, ...]:
        """Every spell at its printed costs; Krosmasters also get the punch (R-A39)."""
        return spec.spells + (self.punch,) if spec.kind == KROSMASTER else spec.spells

    # ------------------------------------------------------------------ the game turn
    def start_turn(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        """The staged reward schedule (option ``reward_reveal``), then the tension roll, except on the
        first player's very first turn (R-A26)."""
        if arena_state(state).market is not None:
            reward_rules.turn_started(state, self.opts)
        if state.turn != 1 or self.opts.first_turn_tension:
            tension_roll(state, side, cast("ArenaController", controller), view)

    def play_characters(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        play_timeline(state, side, cast("ArenaController", controller), view)

    def end_turn(self, state: MatchState, side: int) -> None:
        record_turn_end(state, side)

    def activation_started(self, state: MatchState, fighter: Fighter) -> None:
        """Its face-up Upgrades leave the card (R-A32 b, R-A54)."""
        if fighter.tokens:
            reward_rules.activation_started(state, fighter)

    def activation_ended(self, state: MatchState, fighter: Fighter) -> None:
        """Boosts "for this turn" that no spell used are lost."""
        if fighter.reward_mods is not None:
            reward_rules.activation_ended(fighter)

    # ------------------------------------------------------------------ actions
    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        extra.add_actions(state, fighter, actions)
        if fighter.tokens or (self.opts.demonic_rewards and arena_state(state).market is not None):
            reward_rules.add_actions(state, fighter, actions, self.opts)

    def is_legal_extra(self, state: MatchState, fighter: Fighter, action: Action) -> bool:
        if action.kind == BUY_REWARD or action.kind == REVEAL_REWARD:
            return arena_state(state).market is not None and reward_rules.is_legal(
                state, fighter, action, self.opts
            )
        return extra.is_legal(state, fighter, action)

    def action_name(self, kind: int) -> str:
        return extra.NAMES.get(kind) or reward_rules.NAMES.get(kind, f"action {kind}")

    def perform_extra(self, state: MatchState, fighter: Fighter, action: Action) -> None:
        if action.kind == BUY_REWARD or action.kind == REVEAL_REWARD:
            reward_rules.perform(state, fighter, action, self.opts)
        else:
            extra.perform(state, fighter, action)

    # ------------------------------------------------------------------ movement, markers, combat
    def may_leave(self, state: MatchState, mover: Fighter) -> bool:
        return rolls.lock_check(state, mover, self.opts)

    def add_marker(self, state: MatchState, piece: Fighter, marker: int, amount: int) -> None:
        """Markers wait for the piece's next activation (R-A33, R-A35); minus markers never exceed
        its printed MP or AP (R-A34)."""
        if marker == PLUS_MP:
            piece.plus_mp += amount
        elif marker == MINUS_MP:
            piece.minus_mp = min(piece.minus_mp + amount, piece.base_mp)
        elif marker == PLUS_AP:
            piece.plus_ap += amount
        elif marker == MINUS_AP:
            piece.minus_ap = min(piece.minus_ap + amount, piece.base_ap)

    def attack_roll(self, state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
        return rolls.critical_roll(state, caster, spell)

    def defence_roll(self, state: MatchState, target: Fighter, pierce: bool) -> int:
        return rolls.armour_roll(state, target, pierce, self.opts)

    def on_scenery_destroyed(self, state: MatchState, cell: int, kind: str) -> None:
        economy.drop_loot(state, cell, self.opts.scenery_loot[kind])

    # ------------------------------------------------------------------ KOs and victory
    def on_kos(self, state: MatchState, kos: list[Fighter]) -> None:
        if arena_state(state).market is not None:
            reward_rules.on_kos(state, kos)
        economy.gg_for_kos(state, kos)

    def check_victory(self, state: MatchState) -> bool:
        return economy.check_victory(state, self.opts)

    def turn_limit_winner(self, state: MatchState) -> int | None:
        return economy.turn_limit_winner(state, self.opts)

    def fill_result(self, state: MatchState, result: MatchResult) -> None:
        arena = arena_state(state)
        result.gg = (arena.gg[0], arena.gg[1])
        result.kamas = (arena.kamas[0], arena.kamas[1])
        result.wild_gg_left = arena.wild_gg > 0

    def expected_damage(self, state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter) -> float:
        return rolls.expected_damage(state, caster, spell, target, self.opts)

    def leave_risk(self, state: MatchState, mover: Fighter) -> float:
        return rolls.lock_risk(state, mover)

    def state_problems(self, state: MatchState) -> list[str]:
        problems = arena_problems(state, self.opts)
        return problems + reward_rules.reward_problems(state)

    def snapshot(self, state: MatchState) -> tuple[Any, ...]:
        snap = arena_snapshot(state)
        return snap + reward_rules.reward_snapshot(state) if arena_state(state).market is not None else snap

    # ------------------------------------------------------------------ teams and the pregame
    def validate_team(
        self, names: Sequence[str], registry: Registry | None = None
    ) -> tuple[CharacterSpec, ...]:
        return pregame.validate_team(names, registry)

    def _cards(self, pool: Sequence[str], registry: Registry | None) -> dict[str, CharacterSpec]:
        registry = registry or default_registry()
        return {name: registry.load_character(name) for name in dict.fromkeys(pool)}

    def legal_teams(self, pool: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return team_rules.legal_teams(pool, self._cards(pool, registry))

    def all_teams(self, names: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return team_rules.every_legal_team(self._cards(names, registry))

    def team_splits(self, pool: Sequence[str], registry: Registry | None = None) -> list[tuple[Team, Team]]:
        return team_rules.team_splits(pool, self._cards(pool, registry))

    def deal_problem(self, mode: str, pool: Sequence[str], registry: Registry | None = None) -> str:
        if mode not in self.team_modes:
            return f"ruleset 'arena' has no team deal {mode!r}; it has {', '.join(self.team_modes)}"
        return team_rules.deal_problem(mode, pool, self._cards(pool, registry))

    def deal_teams(
        self,
        mode: str,
        pool: Sequence[CharacterSpec],
        players: tuple[PregamePlayer, PregamePlayer],
        rng: np.random.Generator,
    ) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
        """R-A17: ``random_deal`` (half the cards each, at random) or ``draft`` (the rulebook's pick)."""
        if mode == "random_deal":
            return pregame.random_deal(pool, rng)
        if mode == "draft":
            return pregame.draft(pool, players, rng)
        raise TeamError(f"ruleset 'arena' has no team deal {mode!r}; it has {', '.join(self.team_modes)}")

    def first_player(
        self, teams: tuple[Sequence[CharacterSpec], Sequence[CharacterSpec]], rng: np.random.Generator
    ) -> int:
        return pregame.first_player(teams[0], teams[1], rng)

    def choose_board(
        self,
        boards: Sequence[Board],
        teams: tuple[Sequence[CharacterSpec], Sequence[CharacterSpec]],
        players: tuple[PregamePlayer, PregamePlayer],
        first: int,
    ) -> int:
        return pregame.choose_board(boards, teams, players, first)

    def setup(
        self,
        teams: tuple[Sequence[CharacterSpec], Sequence[CharacterSpec]],
        board: Board,
        dice: Dice,
        setup_rng: np.random.Generator,
        registry: CharacterSource,
        record: int = 0,
    ) -> MatchState:
        state = pregame.setup(teams, board, self, dice, setup_rng, registry, record)
        if self.rewards:  # after the first player: the market's own stream never shifts the others
            specs = (registry if isinstance(registry, Registry) else default_registry()).all_rewards()
            market_rng = np.random.default_rng(int(setup_rng.integers(2**63)))
            reward_rules.open_market(state, self.opts, specs, market_rng)
            for creature in reward_rules.reward_creatures(specs):
                state.summon_specs[creature] = registry.load_character(creature)
        return state

    def deploy(
        self, state: MatchState, controllers: tuple[Any, Any], views: tuple[MatchView, MatchView]
    ) -> None:
        """The player who is not first picks his edge (R-A19), then both deploy (R-A25)."""
        pregame.choose_edges(state, controllers, views)
        pregame.deploy(state, controllers, views)
        if self.rewards and any(self.opts.start_rewards):
            reward_rules.give_start_rewards(state, self.opts, controllers, views)


def arena_ruleset(options: Mapping[str, Any] | None = None, *, file: str = "options") -> ArenaRuleset:
    """The Arena ruleset with option ``overrides`` (ContentError names a bad one)."""
    return ArenaRuleset(arena_options(options, file=file))
