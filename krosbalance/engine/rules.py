"""What the engine asks of the ruleset in play: the hooks of the ruleset seam.

The engine keeps only the mechanics every Krosmaster game shares — the board, pieces, walking and
special movement, spells and their effects, powers, dice, summons, the same instant, events. What a
ruleset decides (Arena, Blast, the Duel Pack...) it asks through one object, ``state.ruleset``, an
instance of a subclass of :class:`MatchRules`, resolved once when the match is set up: every hook is
a plain method call, never a lookup by name or a chain of ``isinstance`` tests. The set-up half of a
ruleset (teams, first player, deployment, the pregame) is ``krosbalance.rulesets.base.Ruleset``, a
subclass of this class.

The hooks, in the order a match meets them (the full list with the engine's call sites is in
``krosbalance/rulesets/README.md``):

- ``new_state``: the ruleset's own typed state (:class:`RulesetState`: Arena's GG and kamas), owned
  by the ruleset, created with the ``MatchState`` and copied with it (``RulesetState.copy``);
- ``spells_for``: the spells a piece spawns with — the spell cost model (Arena adds the punch;
  Blast makes every spell cost 1 AP), resolved once per piece;
- ``start_turn``, ``play_characters``, ``end_turn``, ``next_player``: a player's game turn (Arena:
  the tension roll, the Timeline with creatures after their summoner, the turn-end record);
- ``preliminary_phase``: a character's preliminary phase, after its start-of-turn triggers (Arena:
  its face-up Upgrades leave the card, R-A32 b);
- ``activation_started``, ``activation_ended``: when a character starts acting, its MP and AP set
  (Blast: start-of-activation bonuses, a range bonus), and after its end phase (Blast:
  end-of-activation bonuses);
- ``extra_actions``, ``is_legal_extra``, ``perform_extra``: the actions a ruleset adds, with kinds
  from ``engine.legal.EXTRA`` on (Arena: pick up a kama, buy a GG);
- ``may_leave``: whether a walking piece gets away from its cell (Arena: Lock against Dodge);
- ``on_enter``: a piece entered a cell of ``state.enter_cells`` (Blast: glyphs, Ice, Fire, Fog);
  extra sight blockers (Fog) are cells of ``state.fixed_sight``, set with ``engine.pieces``;
- ``add_marker``: when a +/- MP/AP marker acts (Arena: at the piece's next activation);
- ``attack_roll``, ``defence_roll``: the combat roll (Arena: Critical, then Armour per target);
- ``spell_bonus``: what the caster's ruleset holdings add to a cast (e.g. Arena's Demonic Rewards);
- ``on_scenery_destroyed``: what a destroyed tree, bush or crate leaves (Arena: kamas);
- ``on_kos``: the consequences of the KOs of one instant (Arena: GG by level);
- ``check_victory``, ``turn_limit_winner``: who has won;
- ``result_columns``, ``fighter_columns``, ``fill_result``, ``fighter_values``: the ruleset's typed
  result columns and their values (Arena: GG and kamas per seat, reward counters per fighter);
- ``ruleset_view``: a read-only view of the ruleset's own state, for AIs (``MatchView.ruleset_view``);
- ``expected_damage``, ``leave_risk``: the expectations of the two rolls, for AIs.

The defaults below are what a ruleset gets when it does not override a hook: they are the shared
mechanics (no extra actions, no ruleset state), or raise ``NotImplementedError`` where no sensible
default exists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import Frozen

if TYPE_CHECKING:
    from krosbalance.content.specs import CharacterSpec, SpellSpec
    from krosbalance.engine.legal import Action
    from krosbalance.engine.results import MatchResult, ResultColumn
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.turn import Controller
    from krosbalance.engine.view import MatchView

#: the four kinds of +/- MP/AP markers (R-A33, R-B26), as ``add_marker`` receives them
PLUS_MP, MINUS_MP, PLUS_AP, MINUS_AP = range(4)
#: ``spell_bonus`` of a caster the ruleset adds nothing to: no damage, no Lifesteal
NO_BONUS: tuple[int, bool] = (0, False)


@dataclass(frozen=True, slots=True)
class EngineOptions(Frozen):
    """The options the shared engine reads; every ruleset's options class extends this one.

    Attributes:
        turn_limit: the simulation bound in game turns (not a rule); ``turn_limit_winner`` decides.
        strict_corner_los: a line squeezing between two diagonal blockers is blocked (R-A78).
        caster_in_own_area: a caster whose cell lies in its own area is hit (R-A98).
        bombs_unfazed: bombs cannot be pushed or attracted (R-A122).
        scenery_destruction: melee attacks injure scenery (R-A123-R-A127).
        scenery_hp: HP of a tree, a bush and a crate under ``scenery_destruction``.
        scenery_hit_under_piece: a melee attack on a piece standing on a crate injures the crate.
    """

    turn_limit: int
    strict_corner_los: bool
    caster_in_own_area: bool
    bombs_unfazed: bool
    scenery_destruction: bool
    scenery_hp: dict[str, int]
    scenery_hit_under_piece: bool


class RulesetState:
    """The part of a match's state that one ruleset owns (Arena: GG and kamas; Blast: glyphs and
    favors). The engine never reads it; it keeps it in ``MatchState.rules`` and copies it with
    :meth:`copy` when a state is copied. Subclasses are small slotted classes."""

    __slots__ = ()

    def copy(self) -> RulesetState:
        """An independent copy (containers copied, not shared)."""
        return self

    def hide_from(self, state: MatchState, side: int) -> None:
        """In ``state``, a copy made for ``side`` to play on (``MatchView.clone_state``), replace what
        that side may not know (Arena: the order of the Demonic Rewards it has not seen) by something
        it could have guessed. By default there is nothing hidden."""


class PieceState:
    """The part of one piece's state that the ruleset owns (e.g. Arena's Demonic Rewards on a
    Krosmaster's card), kept in ``Fighter.extra`` (None while the piece has none), and likewise its
    counters for the results, in ``FighterStats.extra``. The engine never reads them;
    ``engine.clone`` copies them with :meth:`copy`. Subclasses are small slotted classes, read
    by the ruleset through a typed accessor (``cast``)."""

    __slots__ = ()

    def copy(self) -> PieceState:
        """An independent copy (containers copied, not shared)."""
        return self


class MatchRules:
    """The in-match half of a ruleset: its name, version, options, and the hooks the engine calls.

    Subclasses pass ``name``, ``version``, ``options`` and ``sources`` (option name -> where its
    value comes from, in the order of the ruleset's data file) to ``__init__`` and override the hooks
    their rules change.
    """

    def __init__(self, name: str, version: str, options: EngineOptions, sources: dict[str, str]) -> None:
        self.name = name
        self.version = version
        self.options = options
        self.sources = sources

    def describe(self) -> str:
        """A short stable label: the name plus every option that differs from the default."""
        defaults = self.default_options()
        names = [f.name for f in fields(self.options)]
        order = [name for name in self.sources if name in names] + [n for n in names if n not in self.sources]
        changed = [
            f"{name}={getattr(self.options, name)}"
            for name in order
            if getattr(self.options, name) != getattr(defaults, name)
        ]
        return self.name if not changed else f"{self.name}[{', '.join(changed)}]"

    def default_options(self) -> EngineOptions:
        """The options with every default value (for ``describe``)."""
        raise NotImplementedError(f"ruleset {self.name!r} does not give its default options")

    def __repr__(self) -> str:
        return f"<ruleset {self.describe()}>"

    # ------------------------------------------------------------------ state and pieces
    def new_state(self, state: MatchState) -> RulesetState:
        """The ruleset's own state for a new match (called once, by ``MatchState.__init__``)."""
        return RulesetState()

    def spells_for(self, spec: CharacterSpec) -> tuple[SpellSpec, ...]:
        """The spells a piece of this spec spawns with: the spell cost model (``engine.pieces.spawn``)."""
        return spec.spells

    # ------------------------------------------------------------------ the game turn
    def start_turn(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        """The start-of-turn phase, after ``TurnStarted`` (Arena: the tension roll). May end the match."""

    def play_characters(self, state: MatchState, side: int, controller: Controller, view: MatchView) -> None:
        """Activate the player's characters in the order the rules give (``engine.turn.character_turn``
        for each); return early once ``state.finished``."""
        raise NotImplementedError(f"ruleset {self.name!r} does not say who acts in a turn")

    def end_turn(self, state: MatchState, side: int) -> None:
        """The end of a player's turn that did not end the match (Blast: the favor deck runs out)."""

    def next_player(self, state: MatchState, side: int) -> int:
        """Who plays the next game turn: the next seat in ``state.play_order`` that still has a
        Krosmaster in play (the other seat, with two players)."""
        if state.n_seats == 2:
            return 1 - side
        order = state.play_order
        at = order.index(side)
        for step in range(1, len(order) + 1):
            seat = order[(at + step) % len(order)]
            if any(f.alive for f in state.timeline[seat]):
                return seat
        return order[(at + 1) % len(order)]

    def activation_started(self, state: MatchState, fighter: Fighter) -> None:
        """A character starts acting, its MP and AP set from its markers (after ``CharacterTurnStarted``)."""

    def preliminary_phase(self, state: MatchState, fighter: Fighter) -> None:
        """The rest of a character's preliminary phase, after its start-of-turn triggers resolved and
        before its MP and AP are set (R-A32)."""

    def activation_ended(self, state: MatchState, fighter: Fighter) -> None:
        """A character's end phase is over (before ``state.active`` is cleared)."""

    # ------------------------------------------------------------------ actions
    def extra_actions(self, state: MatchState, fighter: Fighter, actions: list[Action]) -> None:
        """Append the legal actions this ruleset adds (kinds >= ``engine.legal.EXTRA``)."""

    def is_legal_extra(self, state: MatchState, fighter: Fighter, action: Action) -> bool:
        """Whether an action of a ruleset-defined kind is legal now."""
        return False

    def action_name(self, kind: int) -> str:
        """The name of a ruleset-defined action kind, for messages."""
        return f"action {kind}"

    def perform_extra(self, state: MatchState, fighter: Fighter, action: Action) -> None:
        """Carry out a legal ruleset-defined action (its instant settles after it)."""
        raise NotImplementedError(f"ruleset {self.name!r} defines no action of kind {action.kind}")

    # ------------------------------------------------------------------ movement
    def may_leave(self, state: MatchState, mover: Fighter) -> bool:
        """A piece spends 1 MP to walk off its cell: whether it gets away. On False the hook has
        applied the consequences (lost MP/AP, ``mover.blocked``)."""
        return True

    def on_enter(self, state: MatchState, piece: Fighter, origin: int, cell: int, how: str) -> None:
        """A piece entered ``cell`` (a cell of ``state.enter_cells``) by walking or by a special
        movement (``how`` as in ``events.Moved``), after any trap there has sprung."""

    # ------------------------------------------------------------------ markers
    def add_marker(self, state: MatchState, piece: Fighter, marker: int, amount: int) -> None:
        """A +/- MP/AP marker for ``piece`` (``PLUS_MP``...): when and how it acts."""
        raise NotImplementedError(f"ruleset {self.name!r} does not say when markers act")

    # ------------------------------------------------------------------ combat
    def attack_roll(self, state: MatchState, caster: Fighter, spell: SpellSpec) -> int:
        """The caster's roll for one attack or heal spell, made once for all its targets: damage
        added to each target's base (may be negative)."""
        raise NotImplementedError(f"ruleset {self.name!r} has no combat roll")

    def spell_bonus(
        self, state: MatchState, caster: Fighter, spell: SpellSpec, consume: bool
    ) -> tuple[int, bool]:
        """What the caster's ruleset holdings add to one cast of ``spell``: damage added to each
        target's base, and whether the spell gains Lifesteal (e.g. Arena's Demonic Rewards, R-A145).
        Called once per cast with ``consume`` True (one-shot bonuses are used up); with ``consume``
        False only to peek, for an AI's estimate."""
        return NO_BONUS

    def defence_roll(self, state: MatchState, target: Fighter, pierce: bool) -> int:
        """A target's roll against a damaging spell: damage removed. ``pierce``: Pierce Armour."""
        return 0

    def on_scenery_destroyed(self, state: MatchState, cell: int, kind: str) -> None:
        """A tree, bush or crate was destroyed under ``scenery_destruction``."""

    # ------------------------------------------------------------------ KOs and victory
    def on_kos(self, state: MatchState, kos: list[Fighter]) -> None:
        """The consequences of the pieces KO'd in one instant, once they have left the board."""

    def check_victory(self, state: MatchState) -> bool:
        """End the match (``engine.outcome.end_match``) if a player has won; whether it is over.
        Called once per instant that KO'd a piece or changed the ruleset's holdings, at the start
        of each activation and after each game turn."""
        raise NotImplementedError(f"ruleset {self.name!r} has no victory condition")

    def turn_limit_winner(self, state: MatchState) -> int | None:
        """The winner when the simulation bound stops the match (None: a draw)."""
        return None

    def ruleset_view(self, state: MatchState, side: int) -> Any:
        """A read-only view of the ruleset's own holdings for player ``side`` (Blast: glyphs, tiles,
        favors, Divine Challenges), what ``MatchView.ruleset_view`` returns to AIs; None when the
        ruleset has none beyond ``MatchView``'s own accessors."""
        return None

    @property
    def result_columns(self) -> tuple[ResultColumn, ...]:
        """The match-level columns this ruleset adds to the results (e.g. Arena's ``gg`` and
        ``kamas`` per seat, ``wild_gg_left``), filled by :meth:`fill_result`."""
        return ()

    @property
    def fighter_columns(self) -> tuple[ResultColumn, ...]:
        """The fighter-level columns this ruleset adds (e.g. Arena's kamas and reward counters),
        filled by :meth:`fighter_values`."""
        return ()

    def fill_result(self, state: MatchState, result: MatchResult) -> None:
        """Write the ruleset's holdings into a finished match's ``result.values``, one entry per
        :attr:`result_columns` name (a per-seat value as a tuple indexed by seat)."""

    def fighter_values(self, state: MatchState, fighter: Fighter) -> dict[str, Any]:
        """One fighter's values of :attr:`fighter_columns` at the end of a match (its counters in
        ``fighter.stats.extra``)."""
        return {}

    # ------------------------------------------------------------------ expectations, for AIs
    def expected_damage(self, state: MatchState, caster: Fighter, spell: SpellSpec, target: Fighter) -> float:
        """Expected injuries (or heals) of a spell on one target under this ruleset's rolls."""
        raise NotImplementedError(f"ruleset {self.name!r} gives no expected damage")

    def leave_risk(self, state: MatchState, mover: Fighter) -> float:
        """Chance that walking off the mover's cell fails."""
        return 0.0

    # ------------------------------------------------------------------ checks, for the test kit
    def state_problems(self, state: MatchState) -> list[str]:
        """What is wrong with the ruleset's own state (conservation laws...), for
        ``krosbalance.testing.invariants``; empty when nothing is."""
        return []

    def snapshot(self, state: MatchState) -> tuple[Any, ...]:
        """The ruleset's own state as plain comparable values (``testing.conformance.snapshot``)."""
        return ()
