"""A small kit for rule tests: a position on a tiny ASCII board, scripted dice, and one-line actions.

A :class:`Scenario` builds a :class:`~krosbalance.engine.state.MatchState` directly (no deployment,
no tension), lets a test put pieces where it wants and then act through the engine's own code:
legality is checked with :func:`krosbalance.engine.legal.is_legal` and actions are carried out with
:func:`krosbalance.engine.turn.perform`, so a test exercises exactly what a match does.

    sc = Scenario('''. . . .
                     . . . .''', dice=[CRITICAL, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    assert sc.dice.remaining == 0

Whole game turns (tension roll, Timeline order, summons acting after their summoner) run through
:func:`krosbalance.engine.turn.game_turn` with a :class:`ScriptedController`.

Dice faces are the raw faces of :mod:`krosbalance.engine.dice` (CRITICAL, ARMOUR, LOCK, DODGE,
CRIT_DODGE, DOFUS); a script that runs out raises ``ScriptExhaustedError``, so a test asserting
``sc.dice.remaining == 0`` proves that every roll it scripted was made and no other.

A scenario (Arena's, and the Duel Pack's and Blast's kits built on this one) plays every step on the
native core too, when it is installed, and fails when the engines disagree
(:mod:`krosbalance.testing.scenario_core`; ``core=False`` or ``KROSBALANCE_SCENARIO_CORE=0`` turns
that off).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from krosbalance.board.board import Board
from krosbalance.content.registry import Registry, default_registry
from krosbalance.content.specs import RANKS, CharacterSpec, RewardSpec
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.events import FULL, Event
from krosbalance.engine.legal import CAST, END, MOVE, Action, is_legal
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import BOMB, CREATURE, KROSMASTER, TRAP, Fighter, MatchState, Players
from krosbalance.engine.turn import (
    Controller,
    Trigger,
    begin_activation,
    character_turn,
    end_activation,
    game_turn,
    perform,
)
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.arena.kinds import BUY_GG, PICK_KAMA
from krosbalance.rulesets.arena.market import Purchase, RewardMarket, setup_market
from krosbalance.rulesets.arena.options import ArenaOptions
from krosbalance.rulesets.arena.rewards import (
    Reveal,
    buy_action,
    reveal_action,
    reward_creatures,
    take_from_market,
)
from krosbalance.rulesets.arena.state import ArenaState, arena_state
from krosbalance.rulesets.arena.tension import TensionChoice
from krosbalance.rulesets.arena.tokens import give, tokens_of
from krosbalance.rulesets.base import summonable
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.scenario_core import CoreMirror, mirroring_wanted

__all__ = ["END_TURN", "Scenario", "ScriptedController"]

Where = tuple[int, int] | int
Answers = dict[int, list[tuple[Any, ...]]]
_T = TypeVar("_T")
END_TURN = Action(END)


class _SpecSource:
    """Looks characters up in the test's own specs first, then in the registry.

    ``krosbalance.rulesets.base.summonable`` only calls ``load_character``, so this also lets it
    follow summon spells into test-only tokens (a trap, a custom creature).
    """

    def __init__(self, registry: Registry, extra: Iterable[CharacterSpec]) -> None:
        self.registry = registry
        self.extra = {spec.id: spec for spec in extra}

    def load_character(self, name: str) -> CharacterSpec:
        if name in self.extra:
            return self.extra[name]
        return self.registry.load_character(name)


class ScriptedController:
    """A player whose every decision is written in the test.

    Args:
        actions: ``(fighter, action)`` pairs in the order they must happen. When the engine asks the
            active character for an action, the head of the script is returned if it belongs to that
            character; otherwise the character ends its turn. ``(fighter, END_TURN)`` ends a turn
            explicitly (needed when one character acts in two consecutive activations).
        tension: answers to tension rolls, in order
            (:class:`~krosbalance.rulesets.arena.tension.TensionChoice`).
        deployment: the cells returned to ``choose_deployment``, in Timeline order.
        edge: the answer to ``choose_edge`` (R-A19); None keeps the zone the board lists for the side.
        creature_orders: answers to ``order_creatures`` (R-A31), each a list of pieces in acting order;
            when none is left, creatures act in the order they were summoned.
        trigger_orders: answers to ``order_triggers`` (R-A32, R-A36), each a list of indices into the
            triggers offered; when none is left, the listed order.
        reward_holders: answers to ``give_reward`` (the Krosmaster given a Demonic Reward held from the
            start); when none is left, the first candidate.
        players: answers to ``choose_player`` (four-player Arena: who loses a GG to a tension double,
            who receives a self-KO's GG), each a seat; when none is left, the first seat offered.

    ``raw_tension`` records the raw faces of every tension roll seen; ``options_seen`` the options;
    ``triggers_seen`` and ``creatures_seen`` what the ordering decisions were offered.
    """

    def __init__(
        self,
        actions: Sequence[tuple[Fighter, Action]] = (),
        tension: Sequence[TensionChoice] | TensionChoice = (),
        deployment: Sequence[int] = (),
        *,
        edge: int | None = None,
        creature_orders: Sequence[Sequence[Fighter]] = (),
        trigger_orders: Sequence[Sequence[int]] = (),
        reward_holders: Sequence[Fighter] = (),
        players: Sequence[int] = (),
    ) -> None:
        self.actions = list(actions)
        self.players = list(players)
        self.players_offered: list[tuple[str, list[int]]] = []
        self.reward_holders = list(reward_holders)
        self.tension = [tension] if isinstance(tension, TensionChoice) else list(tension)
        self.deployment = list(deployment)
        self.edge = edge
        self.creature_orders = [list(order) for order in creature_orders]
        self.trigger_orders = [list(order) for order in trigger_orders]
        self.raw_tension: list[tuple[int, int]] = []
        self.options_seen: list[list[tuple[int, int]]] = []
        self.triggers_seen: list[list[Trigger]] = []
        self.creatures_seen: list[list[int]] = []

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        return list(self.deployment)

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        self.raw_tension.append(raw)
        self.options_seen.append(options)
        if not self.tension:
            raise AssertionError(f"unscripted tension roll {raw}")
        return self.tension.pop(0)

    def choose_action(self, view: MatchView) -> Action:
        active = view.active
        if self.actions and active is not None and self.actions[0][0].uid == active.uid:
            return self.actions.pop(0)[1]
        return END_TURN

    def choose_edge(self, view: MatchView, edges: list[int]) -> int:
        return view.side if self.edge is None else self.edge

    def order_creatures(
        self, view: MatchView, summoner: FighterView, creatures: list[FighterView]
    ) -> list[int]:
        self.creatures_seen.append([c.uid for c in creatures])
        if self.creature_orders:
            return [f.uid for f in self.creature_orders.pop(0)]
        return [c.uid for c in creatures]

    def order_triggers(self, view: MatchView, triggers: list[Trigger]) -> list[int]:
        self.triggers_seen.append(list(triggers))
        if self.trigger_orders:
            return self.trigger_orders.pop(0)
        return list(range(len(triggers)))

    def choose_player(self, view: MatchView, purpose: str, seats: list[int]) -> int:
        self.players_offered.append((purpose, list(seats)))
        if self.players:
            return seats.index(self.players.pop(0))
        return 0

    def give_reward(self, view: MatchView, reward: RewardSpec, candidates: list[FighterView]) -> int:
        if self.reward_holders:
            return self.reward_holders.pop(0).uid
        return candidates[0].uid

    @property
    def done(self) -> bool:
        """Whether every scripted action, tension answer and order was used."""
        return not self.actions and not self.tension and not self.creature_orders and not self.trigger_orders


class Scenario:
    """A hand-made position with scripted dice.

    Args:
        board: an ASCII grid for :meth:`Board.from_ascii`, or a ready ``Board``.
        dice: raw die faces, consumed in order by every roll.
        options: ruleset option overrides (Arena's names: ``rulesets/arena/data/arena.toml``).
        specs: test-only ``CharacterSpec`` s that ``add`` and summon spells may name by id.
        turn: the game-turn number the position is in (bombs self-detonate when ``turn`` has moved on
            since they were placed; the first turn skips the tension roll).
        active_side: the player whose game turn it is.
        record: event recording level (default ``FULL``, so tests can look at every step).
        ruleset: the ruleset's name in ``krosbalance.rulesets.registry`` (default ``arena``).
        core: whether the native core plays every step too and must agree
            (:mod:`krosbalance.testing.scenario_core`); None (the default) mirrors Arena, Duel and
            Blast scenarios when the core is available and ``KROSBALANCE_SCENARIO_CORE`` is not
            ``0``.
    """

    def __init__(
        self,
        board: str | Board,
        dice: Sequence[int] = (),
        options: Mapping[str, Any] | None = None,
        *,
        specs: Iterable[CharacterSpec] = (),
        turn: int = 1,
        active_side: int = 0,
        record: int = FULL,
        ruleset: str = "arena",
        registry: Registry | None = None,
        core: bool | None = None,
    ) -> None:
        self.board = board if isinstance(board, Board) else Board.from_ascii(board, id="scenario")
        self.dice = ScriptedDice(list(dice))
        self.source = _SpecSource(registry or default_registry(), specs)
        self.rules = get_ruleset(ruleset, dict(options or {}))
        self.state = MatchState(self.board, self.rules, self.dice, record, team_of=self.rules.partnerships())
        self.state.turn = turn
        self.state.active_side = active_side
        self.state.first_player = active_side
        self.mirror = CoreMirror(self) if mirroring_wanted(ruleset, core) else None

    def _step(
        self,
        name: str,
        fighter: Fighter | None,
        run: Callable[[Answers], _T],
        action: Action | None = None,
        controller: bool = False,
    ) -> _T:
        """One engine step, played by the core too when the scenario is mirrored."""
        if self.mirror is None:
            return run({})
        return self.mirror.step(name, fighter, run, action, controller)

    def _player(self, controller: Any, log: Answers) -> Any:
        """The controller a step hands the engine: recording its answers while mirrored."""
        return controller if self.mirror is None else self.mirror.wrap(controller, log)

    def stop_core(self, reason: str) -> None:
        """Stop comparing with the core from here on, saying why (a test that changes the reference
        in a way the core cannot follow)."""
        if self.mirror is not None:
            self.mirror.stop(f"stopped by the test: {reason}")

    @property
    def arena(self) -> ArenaState:
        """Arena's GG and kamas (``krosbalance.rulesets.arena.state``), for Arena scenarios."""
        return arena_state(self.state)

    # ----------------------------------------------------------------- cells and pieces
    def cell(self, x: int, y: int) -> int:
        """Cell index of column ``x``, row ``y`` (row 0 is the first line of the grid)."""
        if not self.board.in_bounds(x, y):
            raise ValueError(f"({x}, {y}) is not on the {self.board.width}x{self.board.height} board")
        return self.board.cell(x, y)

    def _cell(self, where: Where) -> int:
        return where if isinstance(where, int) else self.cell(*where)

    def xy(self, piece: Fighter) -> tuple[int, int] | None:
        """Where a piece stands, as ``(x, y)``, or None when it is off the board."""
        return None if piece.cell < 0 else self.board.xy(piece.cell)

    def at(self, where: Where) -> Fighter | None:
        """The piece on a cell (traps included), or None."""
        cell = self._cell(where)
        piece = self.state.by_cell[cell]
        if piece is None:
            piece = self.state.traps.get(cell)
        return piece

    def spec(self, name: str | CharacterSpec) -> CharacterSpec:
        return name if isinstance(name, CharacterSpec) else self.source.load_character(name)

    def add(
        self,
        character: str | CharacterSpec,
        side: int,
        at: Where,
        *,
        summoner: Fighter | None = None,
        injuries: int = 0,
    ) -> Fighter:
        """Spawn a piece with the engine, place it, and (for a Krosmaster) put it in its Timeline.

        A summon token may be given its ``summoner``: it is then tied to it exactly as if the
        summoner's spell had put it in play (acts after it, counts for summon control, leaves with it).
        """
        spec = self.spec(character)
        state = self.state
        spell_id = ""
        if summoner is not None:
            spell_id = next((s.id for s in summoner.spells if s.summons == spec.id), "")
        fighter = spawn(state, spec, side, summoner, spell_id)
        cell = self._cell(at)
        if spec.kind != "trap" and state.by_cell[cell] is not None:
            raise ValueError(f"cell {self.board.xy(cell)} already holds {state.by_cell[cell]!r}")
        place(state, fighter, cell)
        fighter.injuries = injuries
        fighter.placed_turn = state.turn
        if summoner is not None and spec.kind in (CREATURE, BOMB, TRAP):
            summoner.summons.append(fighter)
        if spec.kind == KROSMASTER:
            timeline = state.timeline[side]
            timeline.append(fighter)
            timeline.sort(key=lambda f: -f.spec.initiative)  # stable: ties keep the order added (R-A20)
        state.summon_specs.update(summonable([spec], self.source))
        return fighter

    # ----------------------------------------------------------------- turns
    def new_turn(self, side: int) -> None:
        """Start the next game turn for ``side`` without a tension roll (for activation-level tests)."""
        self.state.turn += 1
        self.state.active_side = side

    def activate(self, fighter: Fighter, controller: ScriptedController | None = None) -> None:
        """Run the engine's preliminary phase and the start of the activation phase for ``fighter``
        (bombs self-detonate, ±MP/AP markers applied and discarded, MP/AP set), then hand control to
        the test (``engine.turn.begin_activation``). ``controller`` answers the order of several
        self-detonating bombs (R-A32); without one they go in the order placed.

        If the preliminary phase KOs the fighter (its own bomb) or ends the match, it returns with
        the fighter not active; if the match was already over it raises IllegalActionError.
        """
        if self.state.active is not None and self.state.active is not fighter:
            self.end_turn()
        view = MatchView(self.state, fighter.side) if controller is not None else None
        over = self.state.finished or sum(1 for line in self.state.timeline if line) == 1
        began = self._step(
            "begin",
            fighter,
            lambda log: begin_activation(self.state, fighter, self._player(controller, log), view),
            controller=controller is not None,
        )
        if began:
            return
        if fighter.alive and over:
            raise IllegalActionError(
                f"{fighter!r} could not start its activation: the match is over "
                f"({self.state.end_reason}; a scenario needs a Krosmaster on each side)"
            )

    def end_turn(self, fighter: Fighter | None = None, controller: ScriptedController | None = None) -> None:
        """End phase of the active character (``engine.turn.end_activation``, R-A11, R-A36);
        ``controller`` answers the order of several end-of-turn triggers."""
        fighter = fighter or self.state.active
        if fighter is not None:
            view = MatchView(self.state, fighter.side) if controller is not None else None
            active = fighter
            self._step(
                "end",
                active,
                lambda log: end_activation(self.state, active, self._player(controller, log), view),
                controller=controller is not None,
            )

    def seat_players(self, controllers: Sequence[ScriptedController]) -> None:
        """Attach one controller per seat, as ``run_to_end`` does, so that a ruleset may ask a player
        who is not active (four-player Arena's tension double, R-A157)."""
        views = tuple(MatchView(self.state, seat) for seat in range(self.state.n_seats))
        self.state.players = Players(tuple(controllers), views)

    def play_turn(self, controller: Controller) -> None:
        """One whole game turn of the active side through ``engine.turn.game_turn``."""
        if self.state.active is not None:
            self.end_turn()
        side = self.state.active_side
        self._step(
            "game_turn",
            None,
            lambda log: game_turn(self.state, self._player(controller, log), MatchView(self.state, side)),
            controller=True,
        )

    def play_character(self, fighter: Fighter, controller: Controller) -> None:
        """One character's whole turn (preliminary, activation and end phases) through
        ``engine.turn.character_turn``, its decisions asked of ``controller`` (e.g. an AI)."""
        if self.state.active is not None:
            self.end_turn()
        view = MatchView(self.state, fighter.side)
        self._step(
            "character_turn",
            fighter,
            lambda log: character_turn(self.state, fighter, self._player(controller, log), view),
            controller=True,
        )

    def tension(self, faces: tuple[int, int], *to: Fighter | None) -> TensionChoice:
        """A tension answer: the faces the dice are turned to, and who each die inspires (None =
        refund)."""
        assigned = tuple(-1 if f is None else f.uid for f in to) + (-1, -1)
        return TensionChoice((faces[0], faces[1]), (assigned[0], assigned[1]))

    # ----------------------------------------------------------------- actions
    def spell_index(self, fighter: Fighter, spell_id: str) -> int:
        for index, spell in enumerate(fighter.spells):
            if spell.id == spell_id:
                return index
        raise KeyError(f"{fighter.spec.name} has no spell {spell_id!r}: {[s.id for s in fighter.spells]}")

    def cast_action(self, fighter: Fighter, spell_id: str, target: Where | None = None) -> Action:
        cell = fighter.cell if target is None else self._cell(target)
        return Action(CAST, self.spell_index(fighter, spell_id), cell)

    def move_action(self, to: Where) -> Action:
        return Action(MOVE, -1, self._cell(to))

    def do(self, fighter: Fighter, action: Action) -> None:
        """Carry out one action of the active character, refusing it as the engine would."""
        if self.state.active is not fighter:
            raise IllegalActionError(f"{fighter!r} is not the active character ({self.state.active!r})")
        if self.mirror is not None:
            self.mirror.check_legal(fighter, action)
        if not is_legal(self.state, fighter, action):
            raise IllegalActionError(f"{fighter!r} cannot {action.describe(fighter, self.rules)}")
        self._step("perform", fighter, lambda log: perform(self.state, fighter, action), action)

    def can(self, fighter: Fighter, action: Action) -> bool:
        """Whether the engine would accept this action now (both engines, while mirrored)."""
        if self.mirror is not None:
            self.mirror.check_legal(fighter, action)
        return self.state.active is fighter and is_legal(self.state, fighter, action)

    def can_cast(self, fighter: Fighter, spell_id: str, target: Where | None = None) -> bool:
        return self.can(fighter, self.cast_action(fighter, spell_id, target))

    def can_move(self, fighter: Fighter, to: Where) -> bool:
        return self.can(fighter, self.move_action(to))

    def cast(self, fighter: Fighter, spell_id: str, target: Where | None = None) -> None:
        """Cast a spell on a cell (the caster's own cell when ``target`` is None)."""
        self.do(fighter, self.cast_action(fighter, spell_id, target))

    def move(self, fighter: Fighter, *path: Where) -> None:
        """Walk one cell, or several cells one after the other (1 MP each, Lock applies each step)."""
        for step in path:
            self.do(fighter, self.move_action(step))

    # ----------------------------------------------------------------- Demonic Rewards
    def open_market(self, seed: int = 0) -> RewardMarket:
        """Arena's reward market (R-A23) with every registered token, piles shuffled by ``seed``; made
        once (holding a token makes it too)."""
        arena = arena_state(self.state)
        if arena.market is None:
            opts = cast(ArenaOptions, self.rules.options)
            specs = self.source.registry.all_rewards()
            arena.market = setup_market(
                specs, opts.reward_prices, opts.reward_reveal, np.random.default_rng(seed)
            )
            for creature in reward_creatures(specs):
                self.state.summon_specs[creature] = self.source.load_character(creature)
        return arena.market

    def hold(self, fighter: Fighter, reward: str) -> int:
        """Put a Demonic Reward, taken from the market, face down on the fighter's card (R-A52);
        its position on the card."""
        self.open_market()
        spec = self.source.registry.load_reward(reward)
        give(self.state, fighter, take_from_market(arena_state(self.state), spec.id), "s")
        return len(tokens_of(fighter)) - 1

    def token_position(self, fighter: Fighter, reward: str) -> int:
        """Where the face-down token ``reward`` lies on the fighter's card."""
        spec = self.source.registry.load_reward(reward)
        for i, token in enumerate(tokens_of(fighter)):
            if token.spec.id == spec.id and not token.face_up:
                return i
        raise KeyError(f"{fighter.spec.name} holds no face-down {spec.id}")

    def reveal_action(
        self, fighter: Fighter, reward: str, choice: int = 0, target: Where | None = None
    ) -> Action:
        cell = -1 if target is None else self._cell(target)
        return reveal_action(Reveal(self.token_position(fighter, reward), choice, cell))

    def can_reveal(self, fighter: Fighter, reward: str, choice: int = 0, target: Where | None = None) -> bool:
        return self.can(fighter, self.reveal_action(fighter, reward, choice, target))

    def reveal(self, fighter: Fighter, reward: str, choice: int = 0, target: Where | None = None) -> None:
        """Reveal a face-down token of the active Krosmaster as an action (0 AP, R-A54)."""
        self.do(fighter, self.reveal_action(fighter, reward, choice, target))

    def buy_reward(self, fighter: Fighter, visible: int, rank: str, holder: Fighter) -> None:
        """Buy a face-up token (``visible``: its index in the market's face-up row) or, with
        ``visible = -1``, a random one of ``rank``, for ``holder`` (R-A51, R-A52)."""
        self.do(fighter, buy_action(Purchase(visible, RANKS.index(rank), holder.uid)))

    def pick_kama(self, fighter: Fighter) -> None:
        self.do(fighter, Action(PICK_KAMA))

    def buy_gg(self, fighter: Fighter) -> None:
        self.do(fighter, Action(BUY_GG))

    # ----------------------------------------------------------------- reading
    def events(self, kind: str | None = None) -> list[Event]:
        """Recorded events, optionally only those of one ``kind`` (e.g. ``"damaged"``)."""
        return [e for e in self.state.events if kind is None or e.kind == kind]

    def event_kinds(self) -> list[str]:
        return [e.kind for e in self.state.events]
