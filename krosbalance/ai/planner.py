"""The shared heuristic player: plan an activation, replay it step by step, replan on surprises.

``HeuristicAI`` is the base of the scripted personalities (focus fire, kiter, objective); they differ
only by their :class:`Weights` and a few overrides.

How an activation is decided. At the fighter's first decision (and again after every cast that
moves pieces or summons, after a blocked step, or whenever the position is not what the plan
expected) the planner scores every *plan* of the form "get to a casting cell, cast greedily from
there, walk to an end cell, pick up kamas / buy GG, end":

- casting cells: every cell the fighter can walk to with its MP, reached by the safest shortest walk
  (of equally short walks the one least exposed to Lock, R-A16/R-A45, then the one passing over most
  kamas, picked up on the way) and weighted by the chance of getting there unblocked; for a fighter
  with a swap-with-ally spell (Transposition) the allies it can swap with; for a fighter with a
  "+range for all MP" spell (Distant Shot) every cell again with the bonus and no MP left;
- casts from a cell: greedy by value per AP (:mod:`.casts`), also with 1, 2... AP held back when the
  team can afford GG on a reachable Demon cell;
- end cells: scored by the personality's position value (:mod:`.positions`: danger with line of
  sight and range bonuses, bombs about to go off, engagement for melee figures, cover, economy).

Each fighter also knows the team's target this turn (:func:`team_target`: the enemy Krosmaster the
allies still to act can most likely KO together), so the first hits of a dive count.

The best plan is replayed one action at a time; every action is checked with ``MatchView.is_legal``;
it never raises and always returns a legal action (END at worst). Tie-breaks follow the board's
stable orders (BFS order of cells, spell order, Timeline order); the AI's ``rng`` is not needed, so
its decisions are a pure function of the view. A search AI drives the same player through
:meth:`HeuristicAI.candidates` (the k best plans), :meth:`HeuristicAI.adopt` and
:meth:`HeuristicAI.fork` (the same player on a copy of the match).

Where each part lives: :mod:`.weights` (what a personality cares about), :mod:`.plan_search` (origins
and the search), :mod:`.casts` (cast selection and valuation), :mod:`.positions` (end cells),
:mod:`.tension` (deployment and tension dice); this module keeps the decision loop: replaying the
plan, noticing surprises, replanning.
"""

from __future__ import annotations

import numpy as np

from krosbalance.ai import enemy_threat, scoring
from krosbalance.ai.base import AI
from krosbalance.ai.casts import Step
from krosbalance.ai.context import _Context, _reach, per_turn_damage
from krosbalance.ai.economy import advise
from krosbalance.ai.plan_search import Plan, PositionValue, best_plan, best_plans
from krosbalance.ai.positions import position_value
from krosbalance.ai.tension import deployment_cells, tension_choice
from krosbalance.ai.walks import bfs_path
from krosbalance.ai.weights import Weights
from krosbalance.engine.legal import CAST, END, MOVE, Action
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.kinds import BUY_GG, BUY_REWARD, PICK_KAMA
from krosbalance.rulesets.arena.tension import TensionChoice
from krosbalance.rulesets.arena.view import arena_view

__all__ = ["END_ACTION", "MAX_REPLANS", "HeuristicAI", "Weights"]

END_ACTION = Action(END)
#: effects after which the planner replans (the caster or a target moved)
_MOVERS = frozenset({"swap_places", "retreat", "approach", "push", "attract", "range_bonus_this_turn"})
MAX_REPLANS = 24


class HeuristicAI(AI):
    """Plan-and-replay heuristic player; personalities set ``weights`` (see the module docstring)."""

    name = "heuristic"
    rulesets = ("arena",)  # plans and scores Arena's GG, kamas and Demon cells
    weights = Weights()

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self._key: tuple[int, int] = (-1, -1)
        self._steps: list[Step] = []
        self._expect: tuple[int, int, int] | None = None
        self._replans = 0
        self._threat_key: tuple[int, tuple[tuple[int, int, int], ...]] | None = None
        self._threat: enemy_threat.ThreatMap | None = None
        self._threat_cache = enemy_threat.ThreatCache()  # threat maps and their per-enemy shares, this match
        self._reach: dict[tuple[int, int, int], dict[int, int]] = {}  # for the current activation
        self._route: list[int] = []  # the walk the plan chose to its first cell
        self._picks = 0  # kamas the plan picks up on that walk
        self._turn = -1
        self._acted: set[int] = set()  # allies that have had their activation this turn
        self._team: tuple[int, float] = (-1, 0.0)
        self._first = True  # the activation's first decision (the reward advisor's timing)
        self._swap = (-1, -1)  # (the cell the last swap with an ally put us on, the cell we left)

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
            self.begin(view, me)
            self._plan(view, me)
        elif self._expect is not None and self._expect != (me.cell, me.mp, me.ap):
            self._plan(view, me)
        rewards = me.is_krosmaster and arena_view(view).rewards_in_play
        for _ in range(3):
            saved = (list(self._steps), list(self._route), self._picks) if rewards else None
            action = self._next(view, me)
            if action is not None and view.is_legal(action):
                reward = self._reward_first(view, me, action) if saved is not None else None
                if reward is not None and saved is not None:
                    self._steps, self._route, self._picks = saved  # the plan goes on after it
                    return reward
                self._remember(me, action)
                self._first = False
                return action
            if not self._plan(view, me):
                break
        return (self._reward_first(view, me, END_ACTION) if rewards else None) or END_ACTION

    def _reward_first(self, view: MatchView, me: FighterView, action: Action) -> Action | None:
        """A Demonic Reward action to take before ``action`` (:func:`.economy.advise`: reveal a bonus
        before the attack it improves, gains at once, defences at the end, buy on a Demon cell when a
        reward beats a GG for the kamas, for the ally it helps most), or None. The plan goes on after
        a reward action unless the fighter's cell, MP or AP then differ from what it expects (an AP
        gain, a Recall Potion, the Treechnid Set): then it is made again, with what the token gave."""
        if not arena_view(view).reward_tokens(me) and not (view.board.demon_cells >> me.cell) & 1:
            return None  # nothing to reveal, nowhere to buy
        reward = advise(view, me, action, self._first)
        if reward is None or not view.is_legal(reward):
            return None
        self._first = False
        self._expect = (me.cell, me.mp, me.ap - 1 if reward.kind == BUY_REWARD else me.ap)
        return reward

    def begin(self, view: MatchView, me: FighterView) -> None:
        """Start a new activation of ``me``: forget the last plan, note who has acted this turn and
        choose the team's target (:func:`team_target`)."""
        if view.turn != self._turn:
            self._turn = view.turn
            self._acted = set()
        self._acted.add(me.uid)
        self._team = team_target(view, self._acted)
        self._key = (view.turn, me.uid)
        self._first = True
        self._steps = []
        self._expect = None
        self._replans = 0
        self._reach = {}
        self._swap = (-1, -1)

    def _context(self, view: MatchView, me: FighterView) -> _Context:
        ctx = _Context(view, me, self._threat_for(view), self.weights, self._team)
        if me.cell == self._swap[0]:
            ctx.no_swap_back = self._swap[1]  # never undo this activation's swap
        return ctx

    def candidates(self, view: MatchView, me: FighterView, keep: int) -> list[Plan]:
        """The ``keep`` best plans for ``me`` from here, best first (for a lookahead AI); call
        :meth:`begin` first."""
        ctx = self._context(view, me)
        mp = 0 if me.blocked else me.mp
        reach = self._reachable(view, me) if mp > 0 else {ctx.me_cell: 0}
        return best_plans(self.weights, ctx, reach, self._position_hook(), keep)

    def adopt(self, plan: Plan) -> None:
        """Follow ``plan`` from now on (replanning on surprises as usual)."""
        self._steps = list(plan.steps)
        self._route = list(plan.route)
        first = plan.steps[0] if plan.steps else None
        self._picks = first.target if first is not None and first.kind == "goto" and first.target > 0 else 0
        self._expect = None
        self._replans += 1

    def _remember(self, me: FighterView, action: Action) -> None:
        if action.kind == MOVE:
            self._expect = (action.target, me.mp - 1, me.ap)
        elif action.kind == CAST:
            spell = me.spells[action.spell]
            if spell.target == "ally" and any(e.kind == "swap_places" for e in spell.effects):
                self._swap = (action.target, me.cell)  # Transposition: we land on the ally's cell
            if spell.kind == "summon" or any(e.kind in _MOVERS for e in spell.effects):
                self._steps = []  # the picture changed (a new piece, someone moved): replan
                self._expect = (-2, -2, -2)
            else:
                self._expect = (me.cell, me.mp - spell.mp_cost, me.ap - spell.ap_cost)
        elif action.kind in (PICK_KAMA, BUY_GG):
            self._expect = (me.cell, me.mp, me.ap - 1)
        else:
            self._expect = None
        if action.kind == MOVE and self._route and self._route[0] == action.target:
            self._route.pop(0)

    def _next(self, view: MatchView, me: FighterView) -> Action | None:
        """The next action of the current plan, or None when the plan is broken."""
        while self._steps:
            step = self._steps[0]
            kind = step.kind
            if kind == "goto":
                dest = step.arg
                if me.cell == dest:
                    self._steps.pop(0)
                    self._route = []
                    continue
                if (
                    self._picks > 0
                    and me.ap >= 1
                    and me.may(PICK_KAMA)
                    and me.is_krosmaster
                    and arena_view(view).kamas_at(me.cell) > 0
                ):
                    self._picks -= 1
                    return Action(PICK_KAMA)  # a kama on the way (R-A49)
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
            if kind == "buy":  # buy GG here, then walk on (Weights.buy_first)
                self._steps.pop(0)
                arena = arena_view(view)
                if (
                    me.ap >= 1
                    and (view.board.demon_cells >> me.cell) & 1
                    and arena.kamas[me.side] >= arena.gg_price
                    and me.may(BUY_GG)
                ):
                    if step.arg > 1:
                        self._steps.insert(0, Step("buy", step.arg - 1))
                    return Action(BUY_GG)
                continue
            if kind == "tail":
                if me.ap >= 1 and me.is_krosmaster:
                    arena = arena_view(view)
                    can_buy = (
                        (view.board.demon_cells >> me.cell) & 1
                        and arena.kamas[me.side] >= arena.gg_price
                        and me.may(BUY_GG)
                    )
                    if can_buy and self.weights.buy_first:
                        return Action(BUY_GG)  # the GG before a kama: its AP may be the last
                    if arena.kamas_at(me.cell) > 0 and me.may(PICK_KAMA):
                        return Action(PICK_KAMA)
                    if can_buy:
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
        if self._route and self._route[-1] == dest and self._route[0] in view.board.neighbours[me.cell]:
            return self._route[0]  # the walk the plan chose (least Lock, most kamas)
        reach = self._reachable(view, me)
        if dest not in reach:
            return -1
        return bfs_path(view.board.neighbours, reach, dest)[0]

    def _threat_for(self, view: MatchView) -> enemy_threat.ThreatMap:
        """The threat map of this turn, made again when an enemy moved or was hurt (allies' moves
        within a turn are not looked at)."""
        key = (view.turn, tuple((f.uid, f.cell, f.injuries) for f in view.enemies()))
        if key != self._threat_key or self._threat is None:
            self._threat_key = key
            self._threat = enemy_threat.threat_lookup(view, view.side, self._threat_cache)
        return self._threat

    # ------------------------------------------------------------------------------ planning
    def _plan(self, view: MatchView, me: FighterView) -> bool:
        """Replace the current plan with the best one from here; False when replanning too often."""
        self._replans += 1
        self._expect = None
        if self._replans > MAX_REPLANS:
            self._steps = [Step("end")]
            return False
        ctx = self._context(view, me)
        mp = 0 if me.blocked else me.mp
        reach = self._reachable(view, me) if mp > 0 else {ctx.me_cell: 0}
        plan = best_plan(self.weights, ctx, reach, self._position_hook())
        self._steps = plan.steps
        self._route = plan.route
        first = plan.steps[0] if plan.steps else None
        self._picks = first.target if first is not None and first.kind == "goto" and first.target > 0 else 0
        return True

    def fork(self) -> HeuristicAI:
        """A copy of this player in the middle of the same activation (same plan, same turn
        bookkeeping, shared caches), to continue it on a copy of the match."""
        other = type(self)(self.rng)
        other._threat_cache = self._threat_cache
        other._threat_key, other._threat = self._threat_key, self._threat
        other._key, other._turn, other._team = self._key, self._turn, self._team
        other._acted = set(self._acted)
        other._steps, other._route, other._picks = list(self._steps), list(self._route), self._picks
        other._expect, other._replans = self._expect, self._replans
        other._first = self._first
        other._reach = dict(self._reach)
        return other

    def share_caches(self, other: HeuristicAI) -> None:
        """Use ``other``'s per-match caches (threat layers keyed by what they depend on, so any copy
        of the same match may share them)."""
        self._threat_cache = other._threat_cache

    # ------------------------------------------------------------------------------ positions
    def _position_hook(self) -> PositionValue:
        """``position_value`` for the plan search: None when this class keeps the default (the search
        then calls :func:`.positions.position_value` natively), the bound method when it extends it."""
        if type(self).position_value is HeuristicAI.position_value:
            return None
        return self.position_value

    def position_value(self, ctx: _Context, cell: int) -> float:
        """Worth of ending the activation on ``cell`` (kamas aside): the hook personalities may
        extend; by default :func:`.positions.position_value` with this AI's weights."""
        return position_value(self.weights, ctx, cell)


def team_target(view: MatchView, acted: set[int]) -> tuple[int, float]:
    """The enemy Krosmaster the team can most likely KO this turn, and what each injury dealt to it is
    worth: (uid, worth per injury), or (-1, 0) when no KO is within the team's reach.

    Every ally still to act (the active one included) that can walk to striking range of an enemy
    adds its damage per turn (:func:`.context.per_turn_damage`); the KO chance is read from the total
    against the enemy's HP left (:func:`.enemy_threat.ko_risk`). Each injury on the chosen target is then
    worth half its share of that KO (its GG swing, :func:`.scoring.kill_value`), so the first hits of
    a dive count, not only the last."""
    board = view.board
    active = view.active
    allies = [
        a
        for a in view.allies()
        if a.is_character and (a.uid not in acted or (active is not None and a.uid == active.uid))
    ]
    # per ally: its cell's distances, how far it strikes (walk and reach) and its damage per turn
    strikers = [(board.distance[a.cell], a.base_mp + _reach(a), per_turn_damage(a)) for a in allies]
    best = (-1, 0.0)
    best_score = 0.0
    for enemy in view.enemies():
        if not enemy.is_krosmaster:
            continue
        total = 0.0
        target = enemy.cell
        for row, strike, damage in strikers:
            if row[target] <= strike:
                total += damage
        left = enemy.remaining_hp
        chance = enemy_threat.ko_risk(total, left)
        if chance <= 0.2:
            continue
        worth = scoring.kill_value(view, enemy)
        if chance * worth > best_score:
            best_score = chance * worth
            best = (enemy.uid, 0.5 * chance * worth / max(1, left))
    return best
