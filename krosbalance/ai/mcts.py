"""MCTS: determinized rollouts over the team's turn and the opponent's reply, with successive halving.

At the start of each Krosmaster's activation the AI asks its heuristic (``base``, the kiter's planner
by default) for its ``candidates`` best plans (:meth:`HeuristicAI.candidates`) and judges them over
*worlds*: each world is one guess at what this side cannot see — a pre-drawn list of dice faces
(``ReplayDice``) and a fresh deal of the Demonic Rewards it has not seen (:func:`.determinize.redeal`:
the market's face-down piles and the enemy's face-down tokens shuffled together). A plan is played in
a world on a copy of the match (``MatchView.clone_state``), continued by the heuristic for the rest
of the team's turn and by a model of the opponent (``model``, the kiter) for its whole reply
(:mod:`.rollout`), and the copy is scored by :func:`.evaluation.evaluate_holdings` (the score,
material, next-turn KO threats, kamas at what they buy and held tokens at their worth to the holder).

The worlds are shared by every plan (common random numbers: a comparison measures the plans, not
their luck) and drawn once per activation. The budget is spent by *successive halving*, the
root-selection rule of Monte-Carlo tree search with a fixed budget (Karnin et al. 2013; Danihelka
et al. 2022): every plan meets the first ``schedule[0]`` worlds, the better half goes on to
``schedule[1]`` worlds, and so on, so dominated plans are cut early and the worlds go to the close
calls. A plan's value is its mean over the worlds it met plus ``prior`` (``PRIOR``) times the
heuristic's own value of it; the best after the last round is played. Creatures, deployment,
replanning on surprises and the tension roll follow the heuristic.

Two identical positions are played once: a rollout's result is kept by the position after the
plan's activation and the world (:func:`position_key`), so two plans that end in the same place
(a different walk to the same cell, the same casts in another order) share their rollouts — the
transposition table of a tree search, on the one level where positions repeat.

The budget is a count — at most ``candidates x schedule[0] + ...`` rollouts per Krosmaster
activation — never a time, so a match stays a pure function of its seed. Named budgets are
registered in :mod:`.registry` (``mcts``, and ``mcts-2`` / ``mcts-race`` with another ``base``).
Fifteen further search knobs (a re-search on surprises, other horizons, a searched tension roll,
deployment and reply, other leaves and candidates...) were screened and not kept; their figures are
in ``reports/ai-ladder-connected/NOTES-2026-12-06-search-knobs.md``. Two knobs of issue 39 stay, off
in every registered AI: ``keep_base`` (the heuristic's own plan is never cut by the halving, so it
meets every world the finalists meet) and ``replies`` (further models of the opponent's reply, a
rollout worth the worst of them); with ``model = kiter-race`` they were screened against mcts-race
in ``reports/ai-ladder-connected/NOTES-2026-12-07-stronger-ai.md`` (none reached the 60% bar). A
third, also off: ``alternatives`` (further heuristics; each one's ``alt_plans`` best plans join the
base's, :func:`.plan_choice.union_of_plans`), screened in ``NOTES-2026-12-07-stronger-ai-2.md``.
A fourth, ``proof`` (with ``keep_base``): the best plan replaces the base's only when its paired
advantage over the worlds both met is ``proof`` standard errors above zero. A fifth, ``confirm``
(with ``keep_base``): the halving's winner is the best of many noisy means, so on the worlds that chose
it it looks better than it is (the winner's curse); with ``confirm`` it and the base meet that many
fresh worlds, which chose nothing, and it replaces the base only when it is better there (beyond
``proof`` standard errors when ``proof`` is set too). With ``confirm_turns`` as well, each of those
fresh rollouts plays that many more whole game turns after the reply (each side by its heuristic:
the base for this side, the model for the other) before the leaf is scored, so the judge of the
base's plan sees past the one reply a halving rollout sees. With ``confirm_max`` as well (off in
every registered AI before ``mcts-sure``), the confirmation is sequential: while its paired mean is
within ``confirm_band`` standard errors of the margin (``proof`` SE, or 0) and it has met fewer than
``confirm_max`` fresh worlds, ``confirm_step`` more are drawn (from the AI's stream, after the
halving's) and both plans meet them, so the extra rollouts go to the close calls only.
"""

from __future__ import annotations

import math

import numpy as np

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.determinize import redeal
from krosbalance.ai.evaluation import evaluate_holdings
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.plan_choice import PlanSearchAI
from krosbalance.ai.plan_search import Plan
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.rollout import ReplayDice, finish_activation, finish_team_turn_after, play_turn
from krosbalance.engine.state import Fighter, MatchState
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.state import ArenaState
from krosbalance.rulesets.arena.tokens import tokens_of

#: raw faces pre-drawn per world (a rollout that rolls more cycles through them)
FACES_PER_WORLD = 512
#: weight of the heuristic's own value of a plan, added to its mean rollout evaluation (as lookahead)
PRIOR = 0.5
#: the default budget: plans asked of the heuristic, and the worlds met by the survivors of each
#: round of successive halving (cumulative: 6 plans x 2 worlds, the best 3 on 4, the best 2 on 8)
CANDIDATES = 6
SCHEDULE: tuple[int, ...] = (2, 4, 8)


def paired(challenger: list[float], base: list[float]) -> tuple[float, float] | None:
    """The mean of the paired differences ``challenger - base`` over the worlds both met and its
    standard error, or None under two worlds. Summed in world order, as the core sums."""
    n = min(len(challenger), len(base))
    if n < 2:
        return None
    diffs = [challenger[w] - base[w] for w in range(n)]
    mean = plain_sum(diffs) / n
    var = plain_sum((d - mean) * (d - mean) for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def proven_better(challenger: list[float], base: list[float], z: float) -> bool:
    """Whether ``challenger`` beats ``base`` on the worlds both met beyond the noise: the mean of
    the paired differences above ``z`` standard errors (a one-sided paired test; with ``keep_base``
    the base met every world the finalists met)."""
    test = paired(challenger, base)
    return test is not None and test[0] > z * test[1]


def undecided(challenger: list[float], base: list[float], z: float, band: float) -> bool:
    """Whether :func:`proven_better`'s test is a close call: the paired mean less than ``band``
    standard errors from the margin (``z`` standard errors). Not under two worlds, nor when every
    world gives the same difference (no noise to wait out)."""
    test = paired(challenger, base)
    if test is None:
        return False
    mean, se = test
    return abs(mean - z * se) < band * se


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
        prior: float = PRIOR,
        keep_base: bool = False,
        replies: tuple[type[HeuristicAI], ...] = (),
        alternatives: tuple[type[HeuristicAI], ...] = (),
        alt_plans: int = 1,
        proof: float = 0.0,
        confirm: int = 0,
        confirm_turns: int = 0,
        confirm_max: int = 0,
        confirm_step: int = 8,
        confirm_band: float = 1.0,
    ) -> None:
        if (
            not schedule
            or any(b <= a for a, b in zip(schedule, schedule[1:], strict=False))
            or schedule[0] < 1
        ):
            raise ValueError(f"schedule must be increasing and positive, got {schedule!r}")
        super().__init__(rng, candidates, base, model)
        self.schedule = schedule
        self.prior = prior
        self.keep_base = keep_base
        self.replies = [reply(rng) for reply in replies]
        for reply in self.replies:
            reply.share_caches(self.base)
        if alt_plans < 1:
            raise ValueError(f"alt_plans must be positive, got {alt_plans!r}")
        self.alternatives = [alternative(rng) for alternative in alternatives]
        for alternative in self.alternatives:
            alternative.share_caches(self.base)
        self.alt_plans = alt_plans
        if proof < 0 or (proof and not keep_base):
            raise ValueError(f"proof needs keep_base and must be >= 0, got {proof!r}")
        self.proof = proof
        if confirm < 0 or confirm == 1 or (confirm and not keep_base):
            raise ValueError(f"confirm needs keep_base and must be 0 or at least 2 worlds, got {confirm!r}")
        self.confirm = confirm
        if confirm_turns < 0 or (confirm_turns and not confirm):
            raise ValueError(f"confirm_turns needs confirm and must be >= 0, got {confirm_turns!r}")
        self.confirm_turns = confirm_turns
        if confirm_max < 0 or (confirm_max and (not confirm or confirm_max <= confirm)):
            raise ValueError(f"confirm_max needs confirm and must be 0 or above it, got {confirm_max!r}")
        self.confirm_max = confirm_max
        if confirm_step < 1:
            raise ValueError(f"confirm_step must be positive, got {confirm_step!r}")
        self.confirm_step = confirm_step
        if not confirm_band >= 0:
            raise ValueError(f"confirm_band must be >= 0, got {confirm_band!r}")
        self.confirm_band = confirm_band
        self.transpositions = 0  # rollouts answered by the transposition table

    def choose_plan(self, view: MatchView, me: FighterView, plans: list[Plan]) -> Plan:
        """Successive halving over the worlds (ties: the heuristic's order). With ``keep_base`` the
        heuristic's own plan (the first) is never cut: it meets every world, as the finalists do,
        and another plan is played only when it is better on the same worlds; with ``proof`` as
        well, only when it is better beyond the noise (:func:`proven_better`), so the search never
        trades its base's plan for a rollout's luck; with ``confirm``, that test is made on fresh
        worlds (drawn after the halving's), which the winner was not chosen on, and with
        ``confirm_max``, more of them while the test is a close call (:func:`undecided`)."""
        self.searches += 1
        worlds = self.schedule[-1] + self.confirm
        faces = [self.rng.integers(0, 6, size=FACES_PER_WORLD).tolist() for _ in range(worlds)]
        deals = [int(s) for s in self.rng.integers(0, 2**62, size=worlds)]
        totals = [0.0] * len(plans)
        met = [0] * len(plans)
        values: list[list[float]] = [[] for _ in plans]  # each plan's value in each world it met
        tables: list[dict[tuple[object, ...], float]] = [{} for _ in range(worlds)]
        alive = list(range(len(plans)))
        for round_index, upto in enumerate(self.schedule):
            for i in alive:
                for w in range(met[i], upto):
                    value = self._rollout(view, me, plans[i], faces[w], deals[w], tables[w])
                    totals[i] += value
                    values[i].append(value)
                met[i] = upto
            scored = sorted(alive, key=lambda i: (-(totals[i] / met[i] + self.prior * plans[i].value), i))
            if round_index + 1 < len(self.schedule):
                alive = sorted(scored[: max(1, (len(scored) + 1) // 2)])
                if self.keep_base and 0 not in alive:
                    alive.insert(0, 0)
            else:
                alive = scored
        best = alive[0]
        if self.confirm and best != 0:
            fresh: list[list[float]] = [[], []]
            for w in range(self.schedule[-1], worlds):
                for row, i in zip(fresh, (best, 0), strict=True):
                    value = self._rollout(
                        view, me, plans[i], faces[w], deals[w], tables[w], self.confirm_turns
                    )
                    row.append(value)
            while len(fresh[0]) < self.confirm_max and undecided(
                fresh[0], fresh[1], self.proof, self.confirm_band
            ):
                more = min(self.confirm_step, self.confirm_max - len(fresh[0]))
                extra_faces = [self.rng.integers(0, 6, size=FACES_PER_WORLD).tolist() for _ in range(more)]
                extra_deals = [int(s) for s in self.rng.integers(0, 2**62, size=more)]
                for world_faces, deal in zip(extra_faces, extra_deals, strict=True):
                    table: dict[tuple[object, ...], float] = {}
                    for row, i in zip(fresh, (best, 0), strict=True):
                        value = self._rollout(
                            view, me, plans[i], world_faces, deal, table, self.confirm_turns
                        )
                        row.append(value)
            return plans[best] if proven_better(fresh[0], fresh[1], self.proof) else plans[0]
        if self.proof and best != 0 and not proven_better(values[best], values[0], self.proof):
            return plans[0]
        return plans[best]

    def _rollout(
        self,
        view: MatchView,
        me: FighterView,
        plan: Plan,
        faces: list[int],
        deal: int,
        table: dict[tuple[object, ...], float],
        extra_turns: int = 0,
    ) -> float:
        """Play ``plan`` in one world (its dice, its deal of the unseen tokens), then the rest of the
        turn by the heuristic and the opponent's reply by its model (and ``extra_turns`` more game
        turns); evaluate. A position already met
        in this world (``table``: this world's transpositions) is not played again. With ``replies``,
        the world is played again with each of them as the opponent's model, and the worst value for
        this side is the plan's (the reply the opponent would choose among those)."""
        dice = ReplayDice(faces)
        state, fighter, mine, seen = self._after_activation(view, me, plan, dice, deal)
        key = position_key(state, dice)
        known = table.get(key)
        if known is not None:
            self.transpositions += 1
            return known
        self.rollouts += 1
        value = self._reply(state, fighter, mine, seen, self.model, view.side, extra_turns)
        for reply in self.replies:
            again = self._after_activation(view, me, plan, ReplayDice(faces), deal)
            value = min(value, self._reply(*again, reply, view.side, extra_turns))
        table[key] = value
        return value

    def _after_activation(
        self, view: MatchView, me: FighterView, plan: Plan, dice: ReplayDice, deal: int
    ) -> tuple[MatchState, Fighter, HeuristicAI, MatchView]:
        """A copy of the match in one world (``dice``, ``deal``) with ``plan``'s activation played."""
        side = view.side
        state = view.clone_state(dice)
        redeal(state, side, np.random.default_rng(deal))
        fighter = state.fighters[me.uid]
        mine = self.base.fork()
        mine.adopt(plan)
        seen = MatchView(state, side)
        finish_activation(state, fighter, mine, seen)
        return state, fighter, mine, seen

    def _reply(
        self,
        state: MatchState,
        fighter: Fighter,
        mine: HeuristicAI,
        seen: MatchView,
        model: HeuristicAI,
        side: int,
        extra_turns: int = 0,
    ) -> float:
        """The rest of the team's turn, the opponent's reply by ``model``, ``extra_turns`` more game
        turns (this side's by the base, the other's by ``model``), and the leaf."""
        finish_team_turn_after(state, fighter, mine, seen)
        play_turn(state, model.fork())
        for _ in range(extra_turns):
            if state.finished:
                break
            play_turn(state, (self.base if state.active_side == side else model).fork())
        return evaluate_holdings(state, side, self.base._threat_cache)
