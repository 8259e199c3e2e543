"""Match state: small, slotted, and mutated in place by the engine only.

Cells are ints and cell sets are int bitmasks, so the hot questions (is this cell free? does a
character block this line?) are one AND. ``obstacles`` holds everything that stops movement
(trees, bushes, pieces); ``sight_blockers`` what stops line of sight: ``fixed_sight`` (trees, and
whatever else the ruleset puts there, such as Blast's Fog tiles) and non-Tiny characters.

What belongs to one ruleset (Arena's GG, wild GG, kamas and kama reserve) is not here: it lives in
``rules``, a typed state object the ruleset creates (``MatchRules.new_state``) and owns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from krosbalance.content.specs import ELEMENTS, CharacterSpec, SpellSpec
from krosbalance.engine.results import FighterStats

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.events import Event
    from krosbalance.engine.rules import EngineOptions, MatchRules, PieceState, RulesetState

KROSMASTER, CREATURE, BOMB, TRAP = "krosmaster", "creature", "bomb", "trap"
ELEMENT_INDEX: dict[str, int] = {element: i for i, element in enumerate(ELEMENTS)}


class Fighter:
    """A piece in play: a Krosmaster or a summon token (creature, bomb, trap).

    MP/AP markers wait in ``plus_mp``/``minus_mp``/``plus_ap``/``minus_ap`` until the start of the
    piece's next activation (R-A33, R-A35; the ruleset's ``add_marker`` decides what waits).
    ``inspired`` holds powers a ruleset gives for a while (Arena: tension dice, until the owner's
    next tension roll, R-A27).
    """

    __slots__ = (
        "uid",
        "spec",
        "side",
        "team",
        "cell",
        "injuries",
        "hp",
        "base_mp",
        "base_ap",
        "mp",
        "ap",
        "kind",
        "level",
        "alive",
        "spells",
        "powers",
        "inspired",
        "resist",
        "immune",
        "summoner",
        "summon_spell",
        "summons",
        "plus_mp",
        "minus_mp",
        "plus_ap",
        "minus_ap",
        "turn_uses",
        "game_uses",
        "range_bonus",
        "blocked",
        "placed_turn",
        "stats",
        "acting",
        "ko_by",
        "banned_targets",
        "extra",
        "max_range_bonus",
        "forbidden_kinds",
        "forbidden_powers",
    )

    def __init__(
        self,
        uid: int,
        spec: CharacterSpec,
        side: int,
        spells: tuple[SpellSpec, ...],
        summoner: Fighter | None = None,
        summon_spell: str = "",
        team: int = -1,
    ) -> None:
        self.uid = uid
        self.spec = spec
        self.side = side  # the seat (player) that owns it
        self.team = side if team < 0 else team  # its partnership: allies share it (R-A158)
        self.cell = -1
        self.injuries = 0
        self.hp = spec.hp
        self.base_mp = spec.mp
        self.base_ap = spec.ap
        self.mp = 0
        self.ap = 0
        self.kind = spec.kind
        self.level = spec.level
        self.alive = True
        self.spells = spells
        self.powers: set[str] = {p.kind for p in spec.powers if p.kind not in ("resistance", "immune")}
        self.inspired: set[str] = set()
        self.resist = frozenset(p.params["element"] for p in spec.powers if p.kind == "resistance")
        self.immune = frozenset(p.params["element"] for p in spec.powers if p.kind == "immune")
        self.summoner = summoner
        self.summon_spell = summon_spell
        self.summons: list[Fighter] = []
        self.plus_mp = self.minus_mp = self.plus_ap = self.minus_ap = 0
        self.turn_uses: dict[str, int] = {}
        self.game_uses: set[str] = set()
        self.range_bonus = 0
        self.blocked = False
        self.placed_turn = -1
        self.stats = FighterStats()
        self.acting = False
        self.ko_by: Fighter | None = None  # who KO'd it, credited when its KO settles (e.g. Arena's GG)
        self.banned_targets: dict[str, int] = {}  # spell id -> uid its next cast may not target
        # the ruleset's per-piece data (``engine.rules.PieceState``; e.g. Arena's Demonic Rewards on
        # a Krosmaster's card), None while it has none
        self.extra: PieceState | None = None
        self.max_range_bonus = 0  # +max range from permanent ruleset effects, read by legal.max_range
        # restricted play (``engine.restriction``): action kinds this piece may not take and card
        # powers that do not act for it; empty for every piece of an unrestricted match
        self.forbidden_kinds: frozenset[int] = frozenset()
        self.forbidden_powers: frozenset[str] = frozenset()

    def has(self, power: str) -> bool:
        """Whether the piece has this power from its card or from inspiration (never twice, R-A100)."""
        return power in self.powers or power in self.inspired

    @property
    def is_character(self) -> bool:
        """Krosmasters and creatures are characters; bombs and traps are mechanisms (R-A111, R-A116)."""
        return self.kind == KROSMASTER or self.kind == CREATURE

    @property
    def remaining_hp(self) -> int:
        return self.hp - self.injuries

    def __repr__(self) -> str:
        return f"<{self.spec.id}#{self.uid} side={self.side} cell={self.cell} {self.injuries}/{self.hp}>"


class Players:
    """Each seat's controller and view, attached to a match by ``engine.match.run_to_end`` so that a
    ruleset can ask a player who is not the active one (Arena's four-player tension double, R-A157).
    Never copied or pickled: a copy made for a search AI, or a pickled state, has none, and the
    ruleset then applies its default policy."""

    __slots__ = ("controllers", "views")

    def __init__(self, controllers: tuple[Any, ...] = (), views: tuple[Any, ...] = ()) -> None:
        self.controllers = controllers
        self.views = views

    def __reduce__(self) -> tuple[type[Players], tuple[()]]:
        return Players, ()


class MatchState:
    """Everything that changes during a match. Only engine modules write to it."""

    __slots__ = (
        "board",
        "ruleset",
        "opts",
        "dice",
        "fighters",
        "by_cell",
        "obstacles",
        "sight_blockers",
        "trees",
        "bushes",
        "crates",
        "fixed_sight",
        "enter_cells",
        "traps",
        "rules",
        "turn",
        "active_side",
        "first_player",
        "timeline",
        "active",
        "winner",
        "end_reason",
        "finished",
        "record",
        "events",
        "n_seats",
        "team_of",
        "play_order",
        "players",
        "scenery_injuries",
        "pending_bombs",
        "pending_kos",
        "unsettled",
        "invisible",
        "edges",
        "next_uid",
        "summon_specs",
        "lock_holders",
    )

    def __init__(
        self,
        board: Board,
        ruleset: MatchRules,
        dice: Dice,
        record: int = 0,
        rules: RulesetState | None = None,
        team_of: Sequence[int] = (0, 1),
    ) -> None:
        """A match on ``board`` before set-up; ``rules``, the ruleset's state, is made by the
        ruleset's ``new_state`` unless given (``engine.clone`` gives a copy).

        ``team_of`` gives each seat (player, in play order) its partnership: ``(0, 1)`` for two
        players, ``(0, 1, 2, 3)`` for a four-player free-for-all, ``(0, 1, 0, 1)`` for two versus two
        (R-A159). Pieces of one partnership are allies; every other piece is an enemy."""
        self.board = board
        self.ruleset = ruleset
        self.opts: EngineOptions = ruleset.options
        self.dice = dice
        self.fighters: list[Fighter] = []
        self.by_cell: list[Fighter | None] = [None] * board.n_cells
        self.trees = board.trees
        self.bushes = board.bushes
        self.crates = board.crates
        self.obstacles = board.trees | board.bushes
        self.sight_blockers = board.trees
        self.fixed_sight = board.trees  # sight blockers that are not pieces (engine.pieces keeps it)
        self.enter_cells = 0  # cells whose entering calls the ruleset's on_enter (e.g. none in Arena)
        self.traps: dict[int, Fighter] = {}
        self.turn = 0
        self.active_side = 0
        self.first_player = 0
        self.n_seats = len(team_of)
        self.team_of: tuple[int, ...] = tuple(team_of)
        self.play_order: tuple[int, ...] = tuple(range(len(team_of)))  # seats in turn order (R-A153)
        self.players = Players()  # attached by engine.match.run_to_end
        # each seat's Krosmasters, in the order the ruleset activates them (Arena: the Timeline)
        self.timeline: list[list[Fighter]] = [[] for _ in team_of]
        self.active: Fighter | None = None
        self.winner: int | None = None  # the winning partnership (the seat, without partnerships)
        self.end_reason = ""
        self.finished = False
        self.record = record
        self.events: list[Event] = []
        self.scenery_injuries: dict[int, int] = {}
        self.pending_bombs: list[Fighter] = []
        # The same instant (engine.instant): pieces KO'd in the instant being resolved, and whether
        # anything (a KO, a change in the ruleset's holdings) waits for the instant to settle.
        self.pending_kos: list[Fighter] = []
        self.unsettled = False
        self.invisible = 0  # cells of pieces with Invisibility (R-A108), a bitmask
        self.edges = list(range(len(team_of)))  # each seat's deployment zone (R-A19, R-A156)
        self.next_uid = 0
        self.summon_specs: dict[str, CharacterSpec] = {}
        self.lock_holders: list[Fighter] = []  # fighters given Perfect Lock in play (R-A48), for held_fast
        # last: the ruleset may read the above
        self.rules: RulesetState = ruleset.new_state(self) if rules is None else rules

    def piece_at(self, cell: int) -> Fighter | None:
        return self.by_cell[cell]

    def is_free(self, cell: int) -> bool:
        """A free cell holds no obstacle (R-A7): crates and traps do not count (nor e.g. Arena's kamas)."""
        return not (self.obstacles >> cell) & 1

    def allied_krosmasters(self, fighter: Fighter) -> list[Fighter]:
        """The Krosmasters of every seat in the fighter's partnership (its own seat's first)."""
        if self.n_seats == 2:
            return self.timeline[fighter.side]
        seats = [fighter.side] + [
            s for s in range(self.n_seats) if s != fighter.side and self.team_of[s] == fighter.team
        ]
        return [f for s in seats for f in self.timeline[s]]

    def seats_of(self, team: int) -> list[int]:
        """The seats of one partnership, in play order."""
        return [s for s in range(self.n_seats) if self.team_of[s] == team]

    def teams_standing(self) -> list[int]:
        """The partnerships that still have a Krosmaster in play, each once, in seat order."""
        standing: list[int] = []
        for seat in range(self.n_seats):
            team = self.team_of[seat]
            if team not in standing and any(f.alive for f in self.timeline[seat]):
                standing.append(team)
        return standing

    def pieces(self) -> list[Fighter]:
        """Every piece on the board (traps included), in uid order."""
        return [f for f in self.fighters if f.alive and f.cell >= 0]
