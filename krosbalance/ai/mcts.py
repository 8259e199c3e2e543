"""MCTS: determinized rollouts over the team's turn and the opponent's reply, with successive halving.

At the start of each Krosmaster's activation the AI asks its heuristic (the kiter's planner) for its
``candidates`` best plans (:meth:`HeuristicAI.candidates`) and judges them over *worlds*: each world
is one guess at what this side cannot see — a pre-drawn list of dice faces (``ReplayDice``) and a
fresh deal of the Demonic Rewards it has not seen (:func:`.determinize.redeal`: the market's
face-down piles and the enemy's face-down tokens shuffled together). A plan is played in a world on
a copy of the match (``MatchView.clone_state``), continued by the heuristic for the rest of the
team's turn and by a kiter model of the opponent for its whole reply (:mod:`.rollout`), and the copy
is scored by :func:`.evaluation.evaluate_holdings` (the score, material, next-turn KO threats, kamas
at what they buy and held tokens at their worth to the holder).

The worlds are shared by every plan (common random numbers: a comparison measures the plans, not
their luck) and drawn once per activation. The budget is spent by *successive halving*, the
root-selection rule of Monte-Carlo tree search with a fixed budget (Karnin et al. 2013; Danihelka
et al. 2022): every plan meets the first ``schedule[0]`` worlds, the better half goes on to
``schedule[1]`` worlds, and so on, so dominated plans are cut early and the worlds go to the close
calls. A plan's value is its mean over the worlds it met plus ``prior`` (``PRIOR``) times the
heuristic's own value of it; the best after the last round is played. Creatures and deployment
follow the heuristic; replanning on surprises and the tension roll do too unless the knobs below
say otherwise.

Two identical positions are played once: a rollout's result is kept by the position after the
plan's activation and the world (:func:`position_key`), so two plans that end in the same place
(a different walk to the same cell, the same casts in another order) share their rollouts — the
transposition table of a tree search, on the one level where positions repeat.

Three further searches are knobs, off in the registered budget (measured against ``lookahead`` on
the same deals as ``mcts`` and not kept: none scored above ``mcts`` beyond the noise, ``horizon`` 0 clearly below;
the README's search-tier section gives the figures): ``research``, a new search when the plan breaks
mid-activation (a failed Lock or dodge roll, a push, a cast that changed the picture: where the
heuristic would plan again), at most that many times an activation; ``horizon``, the game turns
played after the team's own before the evaluation (1: the opponent's reply; 0: none, the
evaluation's KO threats standing for it; more: this side's later turns by its heuristic, the
opponent's by its model); and ``tension_answers`` > 1, the heuristic's best answers to the tension
roll (:func:`.tension.tension_candidates`) applied by the rules' own code
(:func:`~krosbalance.rulesets.arena.tension.apply_tension`) and judged over ``tension_worlds``
worlds. Five more are knobs on the same terms: ``reply_mix``, an opponent model that draws among
its best plans by rank (:mod:`.mixed_reply`); ``reply_search``, an opponent model that judges its
best plans on copies to the end of its team's turn, as a searching opponent would
(:mod:`.reply_search`); ``evaluation``, the leaf's terms (:func:`.evaluation.evaluation_terms`)
under other weights; ``alternatives``, other personalities' best plans added to the candidates;
``deployments``, the deployment judged by rollouts to the first reply (:mod:`.deployment_search`).
Four more followed, measured on ``mcts-2`` and not kept either: ``win_model``, a fitted chance of
winning as the leaf (:func:`.evaluation.evaluate_fitted`, fitted by :mod:`krosbalance.sim.win_model`);
``pool``, the candidates varied by cast sequence among the heuristic's ``pool`` best
(:func:`varied_plans`); ``blend``, that share of the leaf read at the end of the team's own turn,
before the reply; and ``purchases``, kamas priced as the GG they buy, less the walk to a Demon cell
(:func:`.evaluation.evaluate_purchases`). Three more, measured the same way and not kept:
``continuation``, the team's later Krosmaster activations in a rollout chosen among that many of
the heuristic's plans, each judged on a copy after the opponent's reply (a ``lookahead`` inside the
rollout, :class:`.reply_search.SearchedReply` with an answer); ``creatures``, a creature's
activation searched among that many plans as a Krosmaster's is (the default, 1, plays the
heuristic's own); ``reply_lookahead``, the searched reply (``reply_search``) judged as
``lookahead`` judges its plans, after this side's answer by the model and by lookahead's own
evaluation and prior: an opponent model built on the opponent the tier is measured against.

The budget is a count — at most ``candidates x schedule[0] + ...`` rollouts per Krosmaster
activation (as many again per search after a surprise, with ``research``) — never a time, so a match
stays a pure function of its seed. Named budgets are registered in :mod:`.registry` (``mcts``).
"""

from __future__ import annotations

import random

import numpy as np
from mypy_extensions import mypyc_attr

from krosbalance.ai.deployment_search import search_deployment
from krosbalance.ai.determinize import redeal
from krosbalance.ai.evaluation import (
    TERMS,
    evaluate,
    evaluate_fitted,
    evaluate_holdings,
    evaluate_purchases,
    evaluate_weighted,
)
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.lookahead import PRIOR as LOOKAHEAD_PRIOR
from krosbalance.ai.mixed_reply import MixedReply, check_mix
from krosbalance.ai.plan_choice import PlanSearchAI
from krosbalance.ai.plan_search import Plan
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.reply_search import SearchedReply
from krosbalance.ai.rollout import (
    ReplayDice,
    finish_activation,
    finish_game_turn,
    finish_team_turn_after,
    play_turn,
)
from krosbalance.ai.tension import tension_candidates
from krosbalance.engine.legal import Action
from krosbalance.engine.state import MatchState
from krosbalance.engine.turn import Controller
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.state import ArenaState
from krosbalance.rulesets.arena.tension import ArenaController, TensionChoice, apply_tension
from krosbalance.rulesets.arena.tokens import tokens_of

#: raw faces pre-drawn per world (a rollout that rolls more cycles through them)
FACES_PER_WORLD = 512
#: weight of the heuristic's own value of a plan, added to its mean rollout evaluation (as lookahead)
PRIOR = 0.5
#: the default budget: plans asked of the heuristic, and the worlds met by the survivors of each
#: round of successive halving (cumulative: 6 plans x 2 worlds, the best 3 on 4, the best 2 on 8)
CANDIDATES = 6
SCHEDULE: tuple[int, ...] = (2, 4, 8)
#: mixed into a world's deal to seed the dice of a searched reply's copies (not the reply's draws)
REPLY_FACES_SALT = 0x5EA5C4ED
#: mixed into a world's deal to seed the dice of the copies that choose a rollout's later activations
CONTINUATION_FACES_SALT = 0xC0471E55


def position_key(state: MatchState, dice: ReplayDice) -> tuple[object, ...]:
    """What the rest of a rollout depends on, after the searched activation: every fighter's place,
    wounds, points and markers, the stock, the kamas on the board, the tokens on the cards and the
    market, and how far the world's dice have been read. Two plans with the same key continue
    identically (the heuristic players restart at the next activation)."""
    fighters = tuple(
        (
            f.uid,
            f.alive,
            f.cell,
            f.injuries,
            f.ap,
            f.mp,
            f.plus_mp,
            f.minus_mp,
            f.plus_ap,
            f.minus_ap,
            tuple(sorted(f.inspired)),
            tuple(sorted(f.game_uses)),
            len(f.summons),
        )
        for f in state.fighters
    )
    rules = state.rules
    holdings: tuple[object, ...] = ()
    if isinstance(rules, ArenaState):
        market = rules.market
        piles = () if market is None else tuple(len(p) for p in market.piles)
        cards = tuple(tuple((t.spec.id, t.face_up) for t in tokens_of(f)) for f in state.fighters)
        holdings = (
            tuple(rules.gg),
            rules.wild_gg,
            tuple(rules.kamas),
            tuple(rules.board_kamas),
            piles,
            cards,
        )
    board = (state.obstacles, state.crates, len(state.pending_bombs), len(state.fighters))
    return (fighters, holdings, board, state.active_side, state.finished, state.winner, dice.position)


@mypyc_attr(allow_interpreted_subclasses=True)  # users and tests subclass AIs
class MCTSAI(PlanSearchAI):
    """Heuristic plans judged over determinized worlds by successive halving (see the module
    docstring)."""

    name = "mcts"
    rulesets = ("arena",)  # the Arena planner's candidates and evaluation
    two_players_only = True  # its leaf evaluation scores one side against the other

    def __init__(
        self,
        rng: np.random.Generator,
        candidates: int = CANDIDATES,
        schedule: tuple[int, ...] = SCHEDULE,
        base: type[HeuristicAI] = KiterAI,
        model: type[HeuristicAI] = KiterAI,
        horizon: int = 1,
        tension_answers: int = 1,
        tension_worlds: int = 4,
        prior: float = PRIOR,
        research: int = 0,
        reply_mix: tuple[float, ...] = (),
        evaluation: tuple[float, ...] = (),
        alternatives: tuple[type[HeuristicAI], ...] = (),
        deployments: int = 1,
        deployment_worlds: int = 4,
        reply_search: int = 1,
        win_model: tuple[float, ...] = (),
        pool: int = 0,
        blend: float = 0.0,
        purchases: bool = False,
        continuation: int = 1,
        creatures: int = 1,
        reply_lookahead: bool = False,
    ) -> None:
        if research < 0:
            raise ValueError(f"research must be a count of searches, got {research!r}")
        if tension_answers < 1 or tension_worlds < 1:
            raise ValueError("tension_answers and tension_worlds must be at least 1")
        if deployments < 1 or deployment_worlds < 1:
            raise ValueError("deployments and deployment_worlds must be at least 1")
        if horizon < 0:
            raise ValueError(f"horizon must be a count of game turns after the team's, got {horizon!r}")
        if (
            not schedule
            or any(b <= a for a, b in zip(schedule, schedule[1:], strict=False))
            or schedule[0] < 1
        ):
            raise ValueError(f"schedule must be increasing and positive, got {schedule!r}")
        check_mix(reply_mix)
        if reply_search < 1:
            raise ValueError(f"reply_search must be a count of plans, got {reply_search!r}")
        if reply_lookahead and reply_search < 2:
            raise ValueError("reply_lookahead judges a searched reply: set reply_search to 2 or more")
        if reply_search > 1 and reply_mix:
            raise ValueError("reply_search and reply_mix are two opponent models: choose one")
        if evaluation and len(evaluation) != len(TERMS):
            raise ValueError(f"evaluation must weigh the {len(TERMS)} terms {', '.join(TERMS)}")
        if win_model and len(win_model) != len(TERMS) + 1:
            raise ValueError(
                f"win_model must be an intercept and one coefficient for each of {', '.join(TERMS)}"
            )
        if not 0.0 <= blend <= 1.0:
            raise ValueError(f"blend must be a share between 0 and 1, got {blend!r}")
        if pool and pool < candidates:
            raise ValueError(f"pool must hold at least the {candidates} candidates, got {pool!r}")
        if continuation < 1 or creatures < 1:
            raise ValueError("continuation and creatures must be counts of plans, at least 1")
        if purchases and (win_model or evaluation):
            raise ValueError("purchases prices the holdings evaluation: not with win_model or evaluation")
        if win_model and evaluation:
            raise ValueError("win_model and evaluation are two leaf evaluations: choose one")
        super().__init__(rng, candidates, base, model)
        self.reply_mix = reply_mix
        self.reply_search = reply_search
        self.reply_lookahead = reply_lookahead
        self.evaluation = evaluation
        self.win_model = win_model
        self.pool = pool
        self.blend = blend
        self.purchases = purchases
        self.continuation = continuation
        self.creature_candidates = creatures
        self.deployments = deployments
        self.deployment_worlds = deployment_worlds
        self.alternatives: list[HeuristicAI] = []
        for personality in alternatives:
            other = personality(rng)
            other.share_caches(self.base)
            self.alternatives.append(other)
        self.schedule = schedule
        self.horizon = horizon
        self.tension_answers = tension_answers
        self.prior = prior
        self.tension_worlds = tension_worlds
        self.research = research
        self._researched = (-1, -1, 0)  # (turn, uid, searches after a surprise in that activation)
        self.transpositions = 0  # rollouts answered by the transposition table

    def choose_action(self, view: MatchView) -> Action:
        """As the base, and with ``research`` > 0: when the plan breaks mid-activation (a failed
        roll, a push, a cast that changed the picture: where the heuristic would plan again), a new
        search from there, at most ``research`` times an activation."""
        me = view.active
        if self.research > 0 and me is not None and me.is_krosmaster and (view.turn, me.uid) == self._key:
            expect = self.base._expect
            if expect is not None and expect != (me.cell, me.mp, me.ap):
                turn, uid, count = self._researched
                count = count if (turn, uid) == (view.turn, me.uid) else 0
                if count < self.research:
                    self._researched = (view.turn, me.uid, count + 1)
                    plans = self.candidate_plans(view, me, self.candidates)
                    if plans:
                        self.base.adopt(plans[0] if len(plans) == 1 else self.choose_plan(view, me, plans))
        return super().choose_action(view)

    def candidate_plans(self, view: MatchView, me: FighterView, keep: int) -> list[Plan]:
        """The heuristic's ``keep`` best plans, or with ``pool`` the ``keep`` most varied of its
        ``pool`` best (:func:`varied_plans`): the heuristic's best plans often share their casts and
        differ in the end cell alone, which leaves the search no other attack to weigh."""
        if self.pool <= keep:
            return self.base.candidates(view, me, keep)
        return varied_plans(self.base.candidates(view, me, self.pool), keep)

    def choose_deployment(self, view: MatchView, fighters: list[FighterView], cells: list[int]) -> list[int]:
        """The heuristic's deployment, or with ``deployments`` > 1 the best of that many judged by
        rollouts of the first turn and its reply (:func:`.deployment_search.search_deployment`)."""
        if self.deployments <= 1:
            return self.base.choose_deployment(view, fighters, cells)
        self.searches += 1
        return search_deployment(
            view,
            fighters,
            cells,
            self.base,
            self.model,
            self._leaf,
            self.rng,
            self.deployments,
            self.deployment_worlds,
        )

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """Successive halving over the worlds (ties: the heuristic's order), the ``alternatives``'
        best plans added to the heuristic's."""
        self.searches += 1
        if self.alternatives and me.is_krosmaster:
            plans = self._widened(view, me, plans)
        worlds = self.schedule[-1]
        faces = [self.rng.integers(0, 6, size=FACES_PER_WORLD).tolist() for _ in range(worlds)]
        deals = [int(s) for s in self.rng.integers(0, 2**62, size=worlds)]
        totals = [0.0] * len(plans)
        met = [0] * len(plans)
        tables: list[dict[tuple[object, ...], float]] = [{} for _ in range(worlds)]
        alive = list(range(len(plans)))
        for round_index, upto in enumerate(self.schedule):
            for i in alive:
                for w in range(met[i], upto):
                    totals[i] += self._rollout(view, me, plans[i], faces[w], deals[w], tables[w])
                met[i] = upto
            scored = sorted(alive, key=lambda i: (-(totals[i] / met[i] + self.prior * plans[i].value), i))
            if round_index + 1 < len(self.schedule):
                alive = sorted(scored[: max(1, (len(scored) + 1) // 2)])
            else:
                alive = scored
        return plans[alive[0]]

    def choose_tension(
        self, view: MatchView, raw: tuple[int, int], options: list[tuple[int, int]]
    ) -> TensionChoice:
        """With ``tension_answers`` > 1, the heuristic's best answers to the tension roll, each
        played on copies of the match over ``tension_worlds`` shared worlds (the answer by the rules'
        own code, the team's whole turn by the heuristic, the opponent's reply by its model) and
        judged as the plans are; otherwise the heuristic's answer."""
        base = self.base
        if self.tension_answers <= 1:
            return base.choose_tension(view, raw, options)
        answers = tension_candidates(
            base.weights, view, options, base._threat_for(view), self.tension_answers
        )
        if len(answers) == 1:
            return answers[0][0]
        self.searches += 1
        worlds = [
            (self.rng.integers(0, 6, size=FACES_PER_WORLD).tolist(), int(self.rng.integers(0, 2**62)))
            for _ in range(self.tension_worlds)
        ]
        side = view.side
        best, best_value = answers[0][0], -1e18
        for answer, prior in answers:
            total = 0.0
            for faces, deal in worlds:
                self.rollouts += 1
                state = view.clone_state(ReplayDice(faces))
                redeal(state, side, np.random.default_rng(deal))
                apply_tension(state, side, raw, answer)
                finish_game_turn(state, base.fork())
                self._later_turns(state, deal)
                total += self._leaf(state, side)
            value = total / len(worlds) + self.prior * prior
            if value > best_value + 1e-9:
                best, best_value = answer, value
        return best

    def _rollout(
        self,
        view: MatchView,
        me: FighterView,
        plan: Plan,
        faces: list[int],
        deal: int,
        table: dict[tuple[object, ...], float],
    ) -> float:
        """Play ``plan`` in one world (its dice, its deal of the unseen tokens), then the rest of the
        turn and the opponent's reply; evaluate. A position already met in this world (``table``:
        this world's transpositions) is not played again. With ``continuation`` > 1, the team's later
        Krosmaster activations choose among that many of the heuristic's plans, each judged on a
        copy after the opponent's reply by its model (:class:`.reply_search.SearchedReply`, a
        ``lookahead`` inside the rollout)."""
        side = view.side
        dice = ReplayDice(faces)
        state = view.clone_state(dice)
        redeal(state, side, np.random.default_rng(deal))
        fighter = state.fighters[me.uid]
        mine = self.base.fork()
        mine.adopt(plan)
        seen = MatchView(state, side)
        finish_activation(state, fighter, mine, seen)
        key = position_key(state, dice)
        known = table.get(key)
        if known is not None:
            self.transpositions += 1
            return known
        self.rollouts += 1
        rest: ArenaController = mine
        if self.continuation > 1:
            stream = random.Random(deal ^ CONTINUATION_FACES_SALT)
            inner = [stream.randrange(6) for _ in range(FACES_PER_WORLD)]
            rest = SearchedReply(mine, self.continuation, inner, self._leaf, self.prior, self.model)
        finish_team_turn_after(state, fighter, rest, seen)
        before = self._leaf(state, side) if self.blend > 0.0 else 0.0
        self._later_turns(state, deal)
        value = self.blend * before + (1.0 - self.blend) * self._leaf(state, side)
        table[key] = value
        return value

    def _later_turns(self, state: MatchState, deal: int) -> None:
        """The ``horizon`` game turns after the team's own: the opponent's by its model (drawing among
        its best plans with ``reply_mix``, from the world's stream, or searching its
        ``reply_search`` best on copies that roll faces drawn from the world's deal, with
        ``reply_lookahead`` judged as ``lookahead`` judges its plans: after this side's answer by the
        model, by :func:`.evaluation.evaluate` plus lookahead's prior), this side's by its
        heuristic."""
        draws = random.Random(deal) if self.reply_mix else None
        faces: list[int] = []
        if self.reply_search > 1:
            stream = random.Random(deal ^ REPLY_FACES_SALT)
            faces = [stream.randrange(6) for _ in range(FACES_PER_WORLD)]
        for turn in range(self.horizon):
            player: Controller
            if turn % 2 == 1:
                player = self.base.fork()
            elif faces and self.reply_lookahead:
                player = SearchedReply(
                    self.model.fork(),
                    self.reply_search,
                    faces,
                    self._lookahead_leaf,
                    LOOKAHEAD_PRIOR,
                    self.model,
                )
            elif faces:
                player = SearchedReply(self.model.fork(), self.reply_search, faces, self._leaf, self.prior)
            elif draws is None:
                player = self.model.fork()
            else:
                player = MixedReply(self.model.fork(), self.reply_mix, draws)
            play_turn(state, player)

    def _lookahead_leaf(self, state: MatchState, side: int) -> float:
        """``lookahead``'s evaluation of a rollout's last position (a searched reply modelled on it)."""
        return evaluate(state, side, self.base._threat_cache)

    def _leaf(self, state: MatchState, side: int) -> float:
        """The evaluation of a rollout's last position: :func:`.evaluation.evaluate_holdings`, its
        terms under the ``evaluation`` weights, or the fitted chance of winning of ``win_model``."""
        if self.win_model:
            return evaluate_fitted(state, side, self.win_model, self.base._threat_cache)
        if self.evaluation:
            return evaluate_weighted(state, side, self.evaluation, self.base._threat_cache)
        if self.purchases:
            return evaluate_purchases(state, side, self.base._threat_cache)
        return evaluate_holdings(state, side, self.base._threat_cache)

    def _widened(self, view: MatchView, me: FighterView, plans: list[Plan]) -> list[Plan]:
        """``plans`` and each alternative personality's best plan that none of them already is. An
        added plan is valued at the lowest of the heuristic's (its own value is on another
        personality's scale), so the prior never favours it."""
        seen = {_signature(p) for p in plans}
        floor = min(p.value for p in plans)
        out = list(plans)
        for other in self.alternatives:
            other.begin(view, me)
            for plan in other.candidates(view, me, 1):
                signature = _signature(plan)
                if signature not in seen:
                    seen.add(signature)
                    out.append(Plan(plan.steps, floor, plan.route))
        return out


def varied_plans(plans: list[Plan], keep: int) -> list[Plan]:
    """``keep`` of ``plans`` (best first) taken in turn from their cast sequences: the best plan of
    each sequence (in the order of those bests), then the second best of each, and so on; returned
    best first."""
    groups: dict[tuple[tuple[str, int, int], ...], list[int]] = {}
    for index, plan in enumerate(plans):
        groups.setdefault(_casts(plan), []).append(index)
    chosen: list[int] = []
    depth = 0
    while len(chosen) < keep and len(chosen) < len(plans):
        for members in groups.values():
            if depth < len(members) and len(chosen) < keep:
                chosen.append(members[depth])
        depth += 1
    return [plans[i] for i in sorted(chosen)]


def _casts(plan: Plan) -> tuple[tuple[str, int, int], ...]:
    """A plan's steps other than its walks: what it casts, buys and picks up, and on whom."""
    return tuple((s.kind, s.arg, s.target) for s in plan.steps if s.kind != "goto")


def _signature(plan: Plan) -> tuple[tuple[str, int, int], ...]:
    """What a plan does, step by step (two plans with the same steps are one)."""
    return tuple((s.kind, s.arg, s.target) for s in plan.steps)
