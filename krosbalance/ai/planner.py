"""The shared heuristic player: plan an activation, replay it step by step, replan on surprises.

``HeuristicAI`` is the base of the scripted personalities (focus fire, kiter, objective); they differ
only by their :class:`Weights` and a few overrides.

How an activation is decided. At the fighter's first decision (and again after every cast, after a
blocked step, or whenever the position is not what the plan expected) the planner scores every
*plan* of the form "get to a casting cell, cast greedily from there, walk to an end cell, pick up
kamas / buy GG, end":

- casting cells: every cell the fighter can walk to with its MP (``MatchView.reachable_cells``), each
  weighted by the chance of getting there without being blocked (Lock, R-A16/R-A45; the risk of
  every cell left on the path); for a fighter with a swap-with-ally spell (Transposition) the allies
  it can swap with now; for a fighter with a "+range for all MP" spell (Distant Shot) every cell
  again with the bonus, its cost and no MP left;
- casts from a cell: greedy by value per AP among attacks on enemies and bombs, heals on injured
  allies and summons, with line of sight computed for the hypothetical cell from board geometry
  (``Board.los_path`` against trees and non-Tiny characters, the fighter's own old cell left out)
  and crate range (+1, R-A121). An attack is worth its expected injuries (exact dice odds) plus its
  KO chance times the KO's GG swing (:func:`scoring.kill_value`); bonuses from the caster's summons
  adjacent to the target are counted, including summons the plan itself places first (Tofu next to
  the target then To Fu Ti). Shooting a bomb is worth its KO chance times its explosion's worth
  (Water Bomb, R-A114); a new bomb is worth 0.6 of its explosion (it goes off next turn);
- end cells: cells within the MP left, scored by the personality's position value (next-turn threat
  from :func:`scoring.threat_map`, distance to enemies, kamas and Demon cells, support of the
  summoner's bonus for creatures).

The best plan is replayed one action at a time; every action is checked with ``MatchView.is_legal``.
It replans after a cast that moved pieces or put a new one in play, when a planned target is gone,
and whenever the fighter's cell, MP or AP are not what the plan expected (a lock block); it never
raises and always returns a legal action (END at worst). Tie-breaks follow the board's stable orders (BFS order of cells, spell order,
Timeline order); the AI's ``rng`` is not needed, so its decisions are a pure function of the view.

Where each part lives: :mod:`.weights` (what a personality cares about), :mod:`.plan_search` (origins
and the search), :mod:`.casts` (cast selection and valuation), :mod:`.positions` (end cells),
:mod:`.tension` (deployment and tension dice); this module keeps the decision loop: replaying the
plan, noticing surprises, replanning.
"""

from __future__ import annotations

import numpy as np
from mypy_extensions import mypyc_attr

from krosbalance.ai import scoring
from krosbalance.ai.base import AI
from krosbalance.ai.casts import Step
from krosbalance.ai.context import _Context, _path
from krosbalance.ai.plan_search import best_plan
from krosbalance.ai.positions import position_value
from krosbalance.ai.tension import deployment_cells, tension_choice
from krosbalance.ai.weights import Weights
from krosbalance.engine.legal import BUY_GG, CAST, END, MOVE, PICK_KAMA, Action
from krosbalance.engine.turn import TensionChoice
from krosbalance.engine.view import FighterView, MatchView

__all__ = ["END_ACTION", "MAX_REPLANS", "HeuristicAI", "Weights"]

END_ACTION = Action(END)
#: effects after which the planner replans (the caster or a target moved)
_MOVERS = frozenset({"swap_places", "retreat", "approach", "push", "attract", "range_bonus_this_turn"})
MAX_REPLANS = 24


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class HeuristicAI(AI):
    """Plan-and-replay heuristic player; personalities set ``weights`` (see the module docstring)."""

    name = "heuristic"
    weights = Weights()

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self._key: tuple[int, int] = (-1, -1)
        self._steps: list[Step] = []
        self._expect: tuple[int, int, int] | None = None
        self._replans = 0
        self._threat_key: tuple[int, tuple[tuple[int, int, int], ...]] | None = None
        self._threat: list[float] = []
        self._threat_cache: scoring.ThreatCache = {}  # per-enemy shares of the threat map, for this match
        self._reach: dict[tuple[int, int, int], dict[int, int]] = {}  # for the current activation

    # ------------------------------------------------------------------------------ deployment, tension
    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        """Melee Krosmasters nearest the enemy, ranged ones behind (:func:`.tension.deployment_cells`)."""
        return deployment_cells(view, fighters, cells)

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        """Doubles only when ahead with the wild GG gone; each die to whom it helps most, or refunded
        (:func:`.tension.tension_choice`)."""
        return tension_choice(self.weights, view, options, self._threat_for(view))

    # ------------------------------------------------------------------------------ actions
    def choose_action(self, view: MatchView) -> Action:
        me = view.active
        if me is None:
            return END_ACTION
        key = (view.turn, me.uid)
        if key != self._key:
            self._key = key
            self._steps = []
            self._expect = None
            self._replans = 0
            self._reach = {}
            self._plan(view, me)
        elif self._expect is not None and self._expect != (me.cell, me.mp, me.ap):
            self._plan(view, me)
        for _ in range(3):
            action = self._next(view, me)
            if action is not None and view.is_legal(action):
                self._remember(me, action)
                return action
            if not self._plan(view, me):
                break
        return END_ACTION

    def _remember(self, me: FighterView, action: Action) -> None:
        if action.kind == MOVE:
            self._expect = (action.target, me.mp - 1, me.ap)
        elif action.kind == CAST:
            spell = me.spells[action.spell]
            if spell.kind == "summon" or any(e.kind in _MOVERS for e in spell.effects):
                self._steps = []  # the picture changed (a new piece, someone moved): replan
                self._expect = (-2, -2, -2)
            else:
                self._expect = (me.cell, me.mp - spell.mp_cost, me.ap - spell.ap_cost)
        elif action.kind in (PICK_KAMA, BUY_GG):
            self._expect = (me.cell, me.mp, me.ap - 1)
        else:
            self._expect = None

    def _next(self, view: MatchView, me: FighterView) -> Action | None:
        """The next action of the current plan, or None when the plan is broken."""
        while self._steps:
            step = self._steps[0]
            kind = step.kind
            if kind == "goto":
                dest = step.arg
                if me.cell == dest:
                    self._steps.pop(0)
                    continue
                nxt = self._first_step(view, me, dest)
                if nxt < 0:
                    return None
                return Action(MOVE, -1, nxt)
            if kind == "cast":
                self._steps.pop(0)
                spell = me.spells[step.arg]
                if spell.kind in ("attack", "heal") and spell.range_type != "personal":
                    piece = view.piece_at(step.target)
                    if piece is None or (spell.kind == "heal" and piece.injuries == 0):
                        return None  # the target is gone (KO'd, exploded) or healed: replan
                return Action(CAST, step.arg, step.target)
            if kind == "tail":
                if me.ap >= 1 and me.is_krosmaster:
                    if view.kamas_at(me.cell) > 0:
                        return Action(PICK_KAMA)
                    if (view.board.demon_cells >> me.cell) & 1 and view.kamas[me.side] >= view.gg_price:
                        return Action(BUY_GG)
                self._steps.pop(0)
                continue
            self._steps.pop(0)
        return END_ACTION

    def _reachable(self, view: MatchView, me: FighterView) -> dict[int, int]:
        """``view.reachable_cells(me)``, kept for the activation by (cell, MP, obstacles): the plan and
        the first step of its walk ask the same question."""
        key = (me.cell, me.mp, view.obstacles)
        reach = self._reach.get(key)
        if reach is None:
            reach = self._reach[key] = view.reachable_cells(me)
        return reach

    def _first_step(self, view: MatchView, me: FighterView, dest: int) -> int:
        """The neighbour to walk to next on a shortest path to ``dest``, or -1 when out of reach."""
        if me.mp <= 0 or me.blocked:
            return -1
        reach = self._reachable(view, me)
        if dest not in reach:
            return -1
        return _path(view.board.neighbours, reach, dest)[0]

    def _threat_for(self, view: MatchView) -> list[float]:
        key = (view.turn, tuple((f.uid, f.cell, f.injuries) for f in view.enemies()))
        if key != self._threat_key:
            self._threat_key = key
            self._threat = scoring.threat_map(view, view.side, self._threat_cache)
        return self._threat

    # ------------------------------------------------------------------------------ planning
    def _plan(self, view: MatchView, me: FighterView) -> bool:
        """Replace the current plan with the best one from here; False when replanning too often."""
        self._replans += 1
        self._expect = None
        if self._replans > MAX_REPLANS:
            self._steps = [Step("end")]
            return False
        ctx = _Context(view, me, self._threat_for(view))
        mp = 0 if me.blocked else me.mp
        reach = self._reachable(view, me) if mp > 0 else {ctx.me_cell: 0}
        self._steps = best_plan(self.weights, ctx, reach, self.position_value).steps
        return True

    # ------------------------------------------------------------------------------ positions
    def position_value(self, ctx: _Context, cell: int) -> float:
        """Worth of ending the activation on ``cell`` (kamas aside): the hook personalities may
        extend; by default :func:`.positions.position_value` with this AI's weights."""
        return position_value(self.weights, ctx, cell)
