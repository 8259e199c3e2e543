"""AIs by name: the one list the CLI, experiments, tests and reports read.

Each AI belongs to a *tier* — ``baseline`` (random), ``heuristic`` (scripted planners) or ``search``
(lookahead over copies of the state) — so that reports can give every balance verdict per tier.

AI ids are kebab-case (``focus-fire``, ``focus-fire-2``, ``blast-glyph``). The ids some AIs had before
(``focus_fire``, ``focus_fire-2``, ``blast_glyph``...) stay accepted everywhere an id is read:
:func:`canonical_ai` maps them (and any spelling with ``_`` for ``-``) to today's id, for experiment
files, the command line, the ladder's standing file and result rows already on disk. The native core
knows the AIs by the ids it was built with: :func:`core_ai_id` gives that id before a name crosses.
"""

from __future__ import annotations

import difflib
import statistics
import tomllib
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np

from krosbalance.ai.base import AI
from krosbalance.ai.blast.lookahead import BlastLookaheadAI
from krosbalance.ai.blast.players import BrawlerAI, GlyphAI
from krosbalance.ai.duel.lookahead import DuelLookaheadAI
from krosbalance.ai.duel.players import DuelBrawlerAI
from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.lookahead import LookaheadAI
from krosbalance.ai.mcts import MCTSAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.random_ai import RandomAI
from krosbalance.ai.skilled import SKILLED, Kiter2AI
from krosbalance.ai.tuned import TUNED, KiterRaceAI
from krosbalance.errors import ContentError

AIFactory = Callable[[np.random.Generator], AI]
TIERS: tuple[str, ...] = ("baseline", "heuristic", "search")

_AIS: dict[str, AIFactory] = {}
_TIER_OF: dict[str, str] = {}
_RULESETS_OF: dict[str, tuple[str, ...]] = {}
"""The rulesets each AI plays, as the AI declares them (``AI.rulesets``), taken when it registers."""
_TWO_PLAYERS_ONLY: set[str] = set()
"""The AIs that play two-player matches only (``AI.two_players_only``)."""
_FORMER_IDS: dict[str, str] = {}
"""An AI's former id (what result rows, files and the native core knew) -> its kebab-case id."""


def canonical_ai(name: str) -> str:
    """Today's id of an AI name: itself when registered, else the AI it was the id of before
    (``focus_fire`` -> ``focus-fire``), else the kebab-case spelling when that is registered, else
    the name unchanged (an unknown name stays for the error that names it)."""
    if not isinstance(name, str) or name in _AIS:
        return name
    if name in _FORMER_IDS:
        return _FORMER_IDS[name]
    kebab = name.strip().lower().replace("_", "-").replace(" ", "-")
    return kebab if kebab in _AIS else name


def _did_you_mean(name: str) -> str:
    """``"; did you mean 'kiter' or 'kiter-2'?"`` with the registered ids nearest to ``name``, or ''."""
    key = name.strip().lower().replace("_", "-")
    close = difflib.get_close_matches(key, list_ais(), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def core_ai_id(name: str) -> str:
    """The id the native core knows an AI by (its former id, the one the core was built with)."""
    current = canonical_ai(name)
    return next((old for old, new in _FORMER_IDS.items() if new == current), current)


def former_ids() -> dict[str, str]:
    """Every former AI id and the id it stands for today (for renaming result rows on read)."""
    return dict(_FORMER_IDS)


def _lookahead(candidates: int, dice_sets: int) -> AIFactory:
    def factory(rng: np.random.Generator) -> AI:
        return LookaheadAI(rng, candidates=candidates, dice_sets=dice_sets)

    return factory


def _lookahead_four(rng: np.random.Generator) -> AI:
    """The four-player search (``LookaheadAI.four_players``; screened in
    ``reports/ai-ladder-arena-4p/NOTES-2026-12-07-four-player-search.md``): kiter-2 (the best
    four-player heuristic) proposes 6 plans per activation, each judged on 4 shared dice sets over
    the rest of the team's turn and every other seat's turn (kiter models each seat), the
    partnership scored against the strongest other (``against="max"``). In a free-for-all
    (``reports/ai-ladder-arena-4p/NOTES-2026-12-07-ffa-search.md``) two rounds of the others'
    turns on 2 dice sets, one's own worth weighing 1.5 times in the leaf."""
    return LookaheadAI(
        rng,
        candidates=6,
        dice_sets=4,
        base=Kiter2AI,
        four_players=True,
        against="max",
        ffa_rounds=2,
        ffa_dice_sets=2,
        ffa_own=1.5,
    )


def _mcts_skilled(rng: np.random.Generator) -> AI:
    """mcts with the ``-2`` skills in its own plans (``kiter-2`` proposes them and finishes its
    team's turns in the rollouts); the opponent's reply is still modelled by ``kiter``."""
    return MCTSAI(rng, base=Kiter2AI)


def _mcts_race(rng: np.random.Generator) -> AI:
    """mcts with ``kiter-race`` proposing its plans and finishing its team's turns in the rollouts
    (the GG race priced in its own play); the opponent's reply is still modelled by ``kiter``."""
    return MCTSAI(rng, base=KiterRaceAI)


def _mcts_deep(
    rng: np.random.Generator,
    confirm: int = 0,
    confirm_turns: int = 0,
    proof: float = 0.0,
    confirm_max: int = 0,
    confirm_step: int = 8,
) -> AI:
    """mcts-race's search made deeper and wider (issue 39, item 4;
    ``reports/ai-ladder-connected/NOTES-2026-12-07-stronger-ai-2.md``): kiter-race also models the
    opponent, 16 plans over 4 -> 8 -> 16 -> 32 worlds with the heuristic's own never cut and no
    prior (the rollouts alone judge), and the best plans of kiter, focus-fire and objective joined to
    kiter-race's. ``confirm`` and ``confirm_turns``: :func:`_mcts_fair`'s judge; ``proof``,
    ``confirm_max`` and ``confirm_step``: :func:`_mcts_sure`'s."""
    return MCTSAI(
        rng,
        candidates=16,
        schedule=(4, 8, 16, 32),
        base=KiterRaceAI,
        model=KiterRaceAI,
        prior=0.0,
        keep_base=True,
        alternatives=(KiterAI, FocusFireAI, ObjectiveAI),
        confirm=confirm,
        confirm_turns=confirm_turns,
        proof=proof,
        confirm_max=confirm_max,
        confirm_step=confirm_step,
    )


def _mcts_fair(rng: np.random.Generator) -> AI:
    """mcts-deep with a fair judge of its base's plan (issue 39, item 4;
    ``reports/ai-ladder-connected/NOTES-2026-12-07-fair-judge.md``): the halving's winner replaces
    kiter-race's plan only when it is also better on 16 fresh worlds, each played 10 game turns past
    the reply (``confirm``, ``confirm_turns``), so a plan that looks better for one reply but loses
    the match (the King that walks away from the archer it should pin) is not played."""
    return _mcts_deep(rng, confirm=16, confirm_turns=10)


def _mcts_sure(rng: np.random.Generator) -> AI:
    """mcts-fair with a sequential judge (issue 39, item 4;
    ``reports/ai-ladder-connected/NOTES-2026-12-07-sequential-confirmation.md``): the halving's winner
    replaces kiter-race's plan only when its advantage on fresh worlds, each played 20 game turns past
    the reply, is 1.645 standard errors above zero (``proof``); while the test is within one standard
    error of that margin, 16 more fresh worlds are drawn, up to 64 (``confirm_max``), so a small edge
    is proven on more worlds instead of being given up, and a plan that only puts the losses off
    (``keep_the_puff``'s corner) is not played."""
    return _mcts_deep(rng, confirm=16, confirm_turns=20, proof=1.645, confirm_max=64, confirm_step=16)


def register_ai(
    name: str,
    factory: AIFactory,
    tier: str = "heuristic",
    rulesets: Sequence[str] | None = None,
    two_players_only: bool | None = None,
    former: str | None = None,
) -> None:
    """Add (or replace) a named AI; ``tier`` is one of :data:`TIERS`. The rulesets it plays are the
    declaration of the AI itself: ``factory.rulesets`` when the factory is an ``AI`` class; a factory
    function states them with ``rulesets`` (else it is taken to play what the base ``AI`` declares,
    Arena); ``two_players_only`` likewise (``AI.two_players_only``). ``former``: the id the AI had
    before (read as an alias, :func:`canonical_ai`)."""
    if tier not in TIERS:
        raise ContentError("AI registry", "tier", f"unknown tier {tier!r}; known: {', '.join(TIERS)}")
    declared = rulesets if rulesets is not None else getattr(factory, "rulesets", AI.rulesets)
    if isinstance(declared, str) or not all(isinstance(r, str) for r in declared):
        raise ContentError(
            "AI registry", "rulesets", f"AI {name!r}: must be a tuple of ruleset names, got {declared!r}"
        )
    _AIS[name] = factory
    if former:
        _FORMER_IDS[former] = name
    _TIER_OF[name] = tier
    _RULESETS_OF[name] = tuple(declared)
    only_two = (
        two_players_only if two_players_only is not None else getattr(factory, "two_players_only", False)
    )
    if only_two:
        _TWO_PLAYERS_ONLY.add(name)
    else:
        _TWO_PLAYERS_ONLY.discard(name)


COSTS_FILE = Path(__file__).resolve().parent / "data" / "costs.toml"
"""Each AI's measured seconds per box match, with the core and on the reference engine
(written by :mod:`krosbalance.tools.ai_costs`)."""


@cache
def _costs() -> dict[str, dict[str, float]]:
    try:
        data = tomllib.loads(COSTS_FILE.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {"core": {}, "reference": {}}
    return {
        engine: {str(k): float(v) for k, v in data.get(engine, {}).items()}
        for engine in ("core", "reference")
    }


def run_startup_seconds() -> float:
    """Seconds a run on several workers spends beside its matches (:data:`COSTS_FILE`'s ``startup``;
    0 when it was not measured)."""
    try:
        data = tomllib.loads(COSTS_FILE.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return 0.0
    value = data.get("startup", 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def ai_cost(name: str, core: bool = True) -> tuple[float, str]:
    """Seconds one box match of the AI takes (measured on the machine :data:`COSTS_FILE` names), with
    the native core (``core``) or on the Python reference engine, and how it was found: ``measured``;
    ``scaled`` (a reference cost from the core's, by the median ratio of the AIs measured on both);
    ``tier`` (an AI never timed on a box match: the median of its tier's). ``(nan, "unknown")`` when
    nothing was measured."""
    get_ai(name)
    name = canonical_ai(name)
    costs = _costs()
    engine = "core" if core else "reference"
    if name in costs[engine]:
        return costs[engine][name], "measured"
    if not core and name in costs["core"]:
        both = [costs["reference"][a] / costs["core"][a] for a in costs["reference"] if costs["core"].get(a)]
        if both:
            return costs["core"][name] * statistics.median(both), "scaled"
    same_tier = [v for a, v in costs[engine].items() if a in _TIER_OF and _TIER_OF[a] == _TIER_OF[name]]
    if same_tier:
        return statistics.median(same_tier), "tier"
    return float("nan"), "unknown"


def unregister_ai(name: str) -> None:
    """Remove a named AI (the tuner's temporary candidate, :mod:`krosbalance.tools.tuning`); an unknown
    name is ignored."""
    for old in [old for old, new in _FORMER_IDS.items() if new == name]:
        del _FORMER_IDS[old]
    _AIS.pop(name, None)
    _TIER_OF.pop(name, None)
    _RULESETS_OF.pop(name, None)
    _TWO_PLAYERS_ONLY.discard(name)


def list_ais(ruleset: str | None = None) -> list[str]:
    """Sorted names of the registered AIs; with ``ruleset``, only those that play it."""
    return sorted(name for name in _AIS if ruleset is None or ruleset in ai_rulesets(name))


def ai_rulesets(name: str) -> tuple[str, ...]:
    """The rulesets a registered AI plays (its declaration)."""
    get_ai(name)
    return _RULESETS_OF[canonical_ai(name)]


def ai_problem(name: str, ruleset: str | None = None, seats: int = 2) -> str:
    """Why the AI ``name`` cannot play a match of ``ruleset`` (any ruleset when None) with ``seats``
    players — unknown, it does not play that ruleset, or it plays two players only — or '' when it
    can. The one wording of the mismatch, for matches, the pregame, experiment files and the
    benchmark."""
    name = canonical_ai(name)
    if name not in _AIS:
        return f"unknown AI {name!r}{_did_you_mean(str(name))}; known: {', '.join(list_ais())}"
    if seats != 2 and name in _TWO_PLAYERS_ONLY:
        others = [other for other in list_ais(ruleset) if other not in _TWO_PLAYERS_ONLY]
        return (
            f"AI {name!r} plays two-player matches only, not {seats} players; "
            f"AIs for {seats} players: {', '.join(others) or '(none)'}"
        )
    plays = _RULESETS_OF[name]
    if ruleset is None or ruleset in plays:
        return ""
    return (
        f"AI {name!r} does not play ruleset {ruleset!r}; it plays: {', '.join(plays)}. "
        f"AIs for {ruleset}: {', '.join(list_ais(ruleset)) or '(none)'}"
    )


def ai_tier(name: str) -> str:
    """The tier of a registered AI (``baseline``, ``heuristic`` or ``search``)."""
    get_ai(name)
    return _TIER_OF[canonical_ai(name)]


def get_ai(name: str, ruleset: str | None = None, seats: int = 2) -> AIFactory:
    """The factory of a named AI; an unknown name, or (given ``ruleset``) an AI that does not play
    that ruleset or that many players, is a user error (:func:`ai_problem`)."""
    problem = ai_problem(name, ruleset, seats)
    if problem:
        raise ContentError("AI registry", "ai", problem)
    return _AIS[canonical_ai(name)]


register_ai("random", RandomAI, tier="baseline")
register_ai("blast-glyph", GlyphAI, former="blast_glyph")
register_ai("blast-brawler", BrawlerAI, former="blast_brawler")
register_ai("duel-brawler", DuelBrawlerAI, former="duel_brawler")
register_ai("focus-fire", FocusFireAI, former="focus_fire")
register_ai("kiter", KiterAI)
register_ai("objective", ObjectiveAI)
# the same personalities with the skills of issue 18 (ai/skilled.py); the three above stay untuned
# (names written out: in the compiled build a class's ``name`` default is not readable from the class)
for _skilled_name, _skilled in zip(("focus-fire-2", "kiter-2", "objective-2"), SKILLED, strict=True):
    register_ai(_skilled_name, _skilled, former="focus_fire-2" if _skilled_name == "focus-fire-2" else None)
# kiter-2 with weights measured by self-play (ai/tuned.py, data/tuned.toml: kiter-3 tuned by
# tools/tuning.py, kiter-race screened in mcts); the AIs above stay as they are, so old studies replay
for _tuned_name, _tuned in zip(("kiter-3", "kiter-race"), TUNED, strict=True):
    register_ai(_tuned_name, _tuned)
# The search tier plays Arena only: its candidates and leaf evaluation come from the Arena planner
# (ai/planner.py, ai/evaluation.py), which knows nothing of Blast's glyphs, favors or challenges.
for _name, _factory in (("lookahead-fast", _lookahead(3, 1)), ("lookahead", _lookahead(4, 2))):
    register_ai(
        _name,
        _factory,
        tier="search",
        rulesets=LookaheadAI.rulesets,
        two_players_only=LookaheadAI.two_players_only,
    )
# four-player Arena (R-A150-R-A159): an opponent model per seat, a leaf scored for the partnership
# (ai/lookahead.py; reports/ai-ladder-arena-4p/); with two players it is the two-player lookahead
# with the same knobs
register_ai(
    "lookahead-4p", _lookahead_four, tier="search", rulesets=LookaheadAI.rulesets, two_players_only=False
)
register_ai("mcts", MCTSAI, tier="search")
for _name, _factory in (
    ("mcts-2", _mcts_skilled),
    ("mcts-race", _mcts_race),
    ("mcts-deep", _mcts_deep),
    ("mcts-fair", _mcts_fair),
    ("mcts-sure", _mcts_sure),
):
    register_ai(
        _name,
        _factory,
        tier="search",
        rulesets=MCTSAI.rulesets,
        two_players_only=MCTSAI.two_players_only,
    )
# the Duel Pack's search (ai/duel/lookahead.py): the duel planner's plans judged by rollouts
register_ai("duel-lookahead", DuelLookaheadAI, tier="search")
# Blast's search (ai/blast/lookahead.py): the Blast planner's plans judged by rollouts
register_ai("blast-lookahead", BlastLookaheadAI, tier="search")
