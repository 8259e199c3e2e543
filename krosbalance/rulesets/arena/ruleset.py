"""The Arena ruleset object: every hook the engine calls, and the set-up side, wired to the modules
of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK, count_successes
from krosbalance.engine.events import FULL, DiceRolled, LockRolled
from krosbalance.engine.outcome import end_match
from krosbalance.engine.powers import dice_for
from krosbalance.engine.rules import MINUS_AP, MINUS_MP, NO_BONUS, PLUS_AP, PLUS_MP
from krosbalance.engine.state import BOMB, KROSMASTER
from krosbalance.errors import TeamError
from krosbalance.rulesets.arena import actions as extra
from krosbalance.rulesets.arena import economy, four_player, pregame, results, rolls
from krosbalance.rulesets.arena import rewards as reward_rules
from krosbalance.rulesets.arena import teams as team_rules
from krosbalance.rulesets.arena.invariants import arena_problems, arena_snapshot
from krosbalance.rulesets.arena.kinds import BUY_REWARD, REVEAL_REWARD
from krosbalance.rulesets.arena.options import ArenaOptions, arena_file, arena_options, default_options, punch
from krosbalance.rulesets.arena.state import ArenaState, arena_state
from krosbalance.rulesets.arena.tension import tension_roll
from krosbalance.rulesets.arena.timeline import play_timeline, record_turn_end
from krosbalance.rulesets.arena.tokens import spell_bonus
from krosbalance.rulesets.arena.view import ArenaView
from krosbalance.rulesets.base import PregamePlayer, Ruleset, Team

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.registry import CharacterSource
    from krosbalance.content.specs import CharacterSpec, SpellSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult, ResultColumn
    from krosbalance.engine.rules import RulesetState
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.tension import ArenaController


class ArenaRuleset(Ruleset):
    """Krosmaster Arena, 2 players, as the 2013 Italian rulebook writes it (options in
    ``data/arena.toml``)."""

    @property
    def report_sections(self) -> tuple[str, ...]:
        """Arena's study: the Demonic Rewards (what a reward is worth for its kamas)."""
        return ("demonic_rewards",)

    @property
    def team_modes(self) -> tuple[str, ...]:
        """R-A17's team choices besides teams given by agreement."""
        return ("random_deal", "draft")

    def __init__(self, options: ArenaOptions) -> None:
        data = arena_file()
        super().__init__("arena", data.version, options, data.sources)
        self.opts = options
        self.punch = punch()
        #: the market is set up (``demonic_rewards``, or tokens held from the start)
        self.rewards = reward_rules.wants_market(options)
        #: Demonic Rewards are for sale: the whole market, or the purchase arms' listed tokens
        self.buying = options.demonic_rewards or any(options.purchasable_rewards)

    def __reduce__(self) -> tuple[type[ArenaRuleset], tuple[ArenaOptions]]:
        """Pickles and copies rebuild the ruleset from its options (compiled, it has no instance
        dictionary to restore)."""
        return ArenaRuleset, (self.opts,)

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

    def preliminary_phase(self, state: MatchState, fighter: Fighter) -> None:
        """Its face-up Upgrades leave the card (R-A32 b, R-A54)."""
        if fighter.extra is not None:
            reward_rules.preliminary_phase(state, fighter)

    def activation_ended(self, state: MatchState, fighter: Fighter) -> None:
        """Boosts "for this turn" that no spell used are lost."""
        if fighter.extra is not None:
            reward_rules.activation_ended(fighter)

    # ------------------------------------------------------------------ actions
    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        """A Krosmaster with AP may pick up a kama on its cell (R-A49), then buy a GG on a Demon
        cell with the price in its team's stock (R-A50); the same test as ``actions.is_legal``,
        written out because it runs for every list of legal actions. Then the Demonic Reward
        actions: reveals of its face-down tokens and purchases (``rewards``)."""
        arena: ArenaState = state.rules  # type: ignore[assignment]  # a cast() call costs here
        if fighter.kind == KROSMASTER and fighter.ap >= 1:
            cell = fighter.cell
            if arena.board_kamas[cell] > 0:
                actions.append(extra.PICK)
            if (state.board.demon_cells >> cell) & 1 and arena.kamas[fighter.side] >= arena.gg_price:
                actions.append(extra.BUY)
        if fighter.extra is not None or (arena.market is not None and self.buying):
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
        """Each adjacent enemy may lock a walking character (R-A41-R-A47); whether it gets away.

        A Dodge roll is made only against a lock roll with at least one success: with none, the
        mover escapes whatever it rolls. A blocked mover loses its remaining MP and may not walk
        again this turn; under the default ``lock_block_ends_turn`` it "cannot move or attack any
        more that turn; its turn ends at once" (R-A45, tutorial L518-L521): its AP are lost and its
        activation phase is over (``acting`` cleared), so no Demonic Reward reveal (Xelor Style's
        +4 AP) and no 0-AP spell either — only its end phase is left. Tiny pieces are never
        locked (R-A103).
        """
        if mover.has("tiny"):
            return True
        for locker in rolls.adjacent_lockers(state, mover):
            lock, _ = count_successes(state.dice, dice_for(locker, LOCK), LOCK)
            dodge = 0
            if lock:
                dodge, _ = count_successes(state.dice, dice_for(mover, DODGE), DODGE)
            blocked = lock > dodge
            if state.record >= FULL:
                state.events.append(LockRolled(state.turn, mover.uid, locker.uid, lock, dodge, blocked))
            if blocked:
                mover.mp = 0
                if self.opts.lock_block_ends_turn:
                    mover.ap = 0
                    mover.acting = False  # its turn ends at once: END is all that is legal
                mover.blocked = True
                mover.stats.times_blocked += 1
                return False
        return True

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
        """One Critical roll for the whole spell (R-A60, R-A97); neutral spells never roll two dice
        (R-A79)."""
        n_dice = 1 if spell.element == "neutral" else dice_for(caster, CRITICAL)
        successes, faces = count_successes(state.dice, n_dice, CRITICAL)
        if state.record >= FULL:
            state.events.append(DiceRolled(state.turn, caster.uid, "critical", faces, successes))
        return successes

    def spell_bonus(
        self, state: MatchState, caster: Fighter, spell: SpellSpec, consume: bool
    ) -> tuple[int, bool]:
        """What the caster's face-up Demonic Rewards and revealed boosts add (R-A145)."""
        if caster.extra is None:
            return NO_BONUS
        return spell_bonus(caster, spell, consume)

    def defence_roll(self, state: MatchState, target: Fighter, pierce: bool) -> int:
        """The target's Armour roll (R-A61); Pierce Armour removes one die (R-A82, R-A161); a bomb
        rolls ``bomb_armour_dice`` dice (R-A115)."""
        n_dice = self.opts.bomb_armour_dice if target.kind == BOMB else dice_for(target, ARMOUR)
        if pierce:
            n_dice -= 1
        if n_dice <= 0:
            return 0
        successes, faces = count_successes(state.dice, n_dice, ARMOUR)
        if state.record >= FULL:
            state.events.append(DiceRolled(state.turn, target.uid, "armour", faces, successes))
        return successes

    def on_scenery_destroyed(self, state: MatchState, cell: int, kind: str) -> None:
        economy.drop_loot(state, cell, self.opts.scenery_loot[kind])

    # ------------------------------------------------------------------ KOs and victory
    def on_kos(self, state: MatchState, kos: list[Fighter]) -> None:
        if arena_state(state).market is not None:
            reward_rules.on_kos(state, kos)
        if state.n_seats == 2:
            economy.gg_for_kos(state, kos)
        else:
            four_player.gg_for_kos(state, kos)

    def check_victory(self, state: MatchState) -> bool:
        """End the match if a player has won (R-A132) and say whether it is over.

        Called once per instant, after its KOs and GG gains (``engine.instant``):

        - Krosmasters: a player wins if he *alone* still has Krosmasters in play (``last_standing``).
        - GG, once the wild GG is gone (or at once under the ``zero_gg_loses`` variant): the only
          player holding GG wins (``gg``). Nobody holding GG (a tension double at 1-1, R-A133) is
          what the ``simultaneous_zero_gg`` option says: ``draw`` (``gg_exhausted``), or ``play_on``
          (nobody is *the only* player holding GG, so the match goes on until one player alone has
          Krosmasters).
        - Neither player has Krosmasters (their last ones were KO'd at one instant): the GG
          condition decides if it can, else the match is a draw (``mutual_ko``).
        """
        if state.finished:
            return True
        if state.n_seats != 2:
            return four_player.check_victory(state, self.opts)
        standing0 = any(f.alive for f in state.timeline[0])
        standing1 = any(f.alive for f in state.timeline[1])
        if standing0 != standing1:
            end_match(state, 0 if standing0 else 1, "last_standing")
            return True
        arena: ArenaState = state.rules  # type: ignore[assignment]  # runs at every activation
        opts = self.opts
        if arena.wild_gg == 0 or opts.zero_gg_loses:
            holding0, holding1 = arena.gg[0] > 0, arena.gg[1] > 0
            if holding0 != holding1:
                end_match(state, 0 if holding0 else 1, "gg")
                return True
            if not holding0 and standing0 and opts.simultaneous_zero_gg == "draw":
                end_match(state, None, "gg_exhausted")
                return True
        if not standing0:
            end_match(state, None, "mutual_ko")
            return True
        return False

    def turn_limit_winner(self, state: MatchState) -> int | None:
        if state.n_seats != 2:
            return four_player.turn_limit_winner(state, self.opts)
        return economy.turn_limit_winner(state, self.opts)

    def ruleset_view(self, state: MatchState, side: int) -> ArenaView:
        return ArenaView(state, arena_state(state), side)

    @property
    def result_columns(self) -> tuple[ResultColumn, ...]:
        return results.MATCH_COLUMNS

    @property
    def fighter_columns(self) -> tuple[ResultColumn, ...]:
        return results.FIGHTER_COLUMNS

    def fill_result(self, state: MatchState, result: MatchResult) -> None:
        arena = arena_state(state)  # the columns of results.MATCH_COLUMNS
        result.values["gg"] = tuple(arena.gg)
        result.values["kamas"] = tuple(arena.kamas)
        result.values["wild_gg_left"] = arena.wild_gg > 0

    def fighter_values(self, state: MatchState, fighter: Fighter) -> dict[str, Any]:
        return results.fighter_values(fighter)

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
    @property
    def seats(self) -> int:
        """Two players, or four under ``mode = "free_for_all"`` or ``"two_vs_two"`` (R-A152)."""
        return 2 if self.opts.mode == four_player.TWO_PLAYER else 4

    def partnerships(self) -> tuple[int, ...]:
        return four_player.partnerships(self.opts.mode)

    @property
    def team_level(self) -> int:
        """A team's level sum in this mode (options ``team_level``, ``four_player_team_level``)."""
        return self.opts.four_player_team_level if self.seats == 4 else self.opts.team_level

    def validate_team(
        self, names: Sequence[str], registry: Registry | None = None
    ) -> tuple[CharacterSpec, ...]:
        return pregame.validate_team(names, registry, four_players=self.seats == 4, level=self.team_level)

    def _cards(self, pool: Sequence[str], registry: Registry | None) -> dict[str, CharacterSpec]:
        registry = registry or default_registry()
        return {name: registry.load_character(name) for name in dict.fromkeys(pool)}

    def legal_teams(self, pool: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return team_rules.legal_teams(pool, self._cards(pool, registry), self.seats == 4, self.team_level)

    def all_teams(self, names: Sequence[str], registry: Registry | None = None) -> list[Team]:
        return team_rules.every_legal_team(self._cards(names, registry), self.seats == 4, self.team_level)

    def team_splits(self, pool: Sequence[str], registry: Registry | None = None) -> list[tuple[Team, Team]]:
        return team_rules.team_splits(pool, self._cards(pool, registry), self.team_level)

    def deal_problem(self, mode: str, pool: Sequence[str], registry: Registry | None = None) -> str:
        if mode not in self.team_modes:
            return f"ruleset 'arena' has no team deal {mode!r}; it has {', '.join(self.team_modes)}"
        return team_rules.deal_problem(mode, pool, self._cards(pool, registry), self.team_level)

    def deal_teams(
        self,
        mode: str,
        pool: Sequence[CharacterSpec],
        players: Sequence[PregamePlayer],
        rng: np.random.Generator,
    ) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
        """R-A17: ``random_deal`` (half the cards each, at random) or ``draft`` (the rulebook's pick)."""
        if mode == "random_deal":
            return pregame.random_deal(pool, rng)
        if mode == "draft":
            return pregame.draft(pool, players, rng)
        raise TeamError(f"ruleset 'arena' has no team deal {mode!r}; it has {', '.join(self.team_modes)}")

    def play_order(
        self, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator
    ) -> tuple[int, ...]:
        """Two players: the first player (R-A18, R-A151), then the other; four: R-A153, R-A159."""
        self.check_seats(len(teams))
        if len(teams) == 2:
            first = pregame.first_player(teams[0], teams[1], rng)
            return (first, 1 - first)
        return four_player.play_order(self.opts.mode, teams, rng)

    def choose_board(
        self,
        boards: Sequence[Board],
        teams: Sequence[Sequence[CharacterSpec]],
        players: Sequence[PregamePlayer],
        order: Sequence[int],
    ) -> int:
        """R-A19: the first player picks the board; with four players, player 4 does (R-A154)."""
        chooser = order[-1] if len(order) == 4 else order[0]
        return pregame.choose_board(boards, teams, players, chooser, self.partnerships())

    def setup(
        self,
        teams: Sequence[Sequence[CharacterSpec]],
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

    def deploy(self, state: MatchState, controllers: Sequence[Any], views: Sequence[MatchView]) -> None:
        """The player who is not first picks his edge (R-A19), then both deploy (R-A25); with four
        players, player 1 picks his start zone and the others sit clockwise (R-A154, R-A156), then
        all deploy in play order."""
        if state.n_seats == 2:
            pregame.choose_edges(state, controllers, views)
        else:
            pregame.choose_zones(state, controllers, views)
        pregame.deploy(state, controllers, views)
        if self.rewards and any(self.opts.start_rewards):
            reward_rules.give_start_rewards(state, self.opts, controllers, views)


def arena_ruleset(options: Mapping[str, Any] | None = None, *, file: str = "options") -> ArenaRuleset:
    """The Arena ruleset with option ``overrides`` (ContentError names a bad one)."""
    return ArenaRuleset(arena_options(options, file=file))
