"""The search AIs in the native core are identical, event for event, to the Python reference
(core/src/ai/search against krosbalance/ai/plan_choice.py, lookahead.py, mcts.py, rollout.py,
evaluation.py, determinize.py).

Each search AI the core plays (``lookahead-fast``, ``lookahead``, ``mcts``, ``mcts-2``, ``mcts-race``,
``mcts-deep``: the search tier of ``PORTED_AIS``) plays seeded
two-player matches against ``kiter`` and against another search AI, on either seat, with and without
Demonic Rewards; both engines play each match and the canonical bytes (every event, then the result
head) must be equal. A search decides every Krosmaster activation by rollouts drawn from its own
stream (dice sets, worlds, deal seeds), its transposition table and successive halving, so one
differing float or draw moves the match.

The four-player search (``lookahead-4p``) plays four-player matches (free-for-all and two versus
two) in two seats beside a heuristic or another AI the core plays, and its golden rows (the search
rows of ``tests/fixtures/golden/arena4-golden.jsonl``) are replayed in the core.

The default suite plays short matches (``turn_limit`` 8, 4 with a deep search: the reference's
search is slow, 1-90 s a full match); full matches and more seeds, and matches under every option variant of the heuristic
differential against any AI the core plays, run under ``slow``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from krosbalance import native

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.ai.registry import ai_tier  # noqa: E402
from krosbalance.native_match import IDENTICAL_AIS, PORTED_AIS, play_match_core  # noqa: E402
from krosbalance.testing.fuzz_specs import is_deep_search  # noqa: E402
from tests.core.test_heuristic_identity import VARIANTS, _check, _four_bytes, check_differential  # noqa: E402
from tests.core.test_match_identity import BOARDS, canonical_core  # noqa: E402
from tests.fixtures.golden.arena4_golden import GOLDEN as FOUR_GOLDEN  # noqa: E402
from tests.fixtures.golden.arena4_golden import four_player_searches, load, search_plan  # noqa: E402

#: the four-player search AIs (their own specs below; left out of the two-player lists so those
#: lists, and the specs drawn from them, stay what they were)
FOUR_SEARCH_AIS = tuple(four_player_searches())
#: every two-player search AI the core plays, in the order they were ported (a new one adds its specs after)
SEARCH_AIS = tuple(name for name in PORTED_AIS if ai_tier(name) == "search" and name not in FOUR_SEARCH_AIS)
REWARDS: dict[str, Any] = {"demonic_rewards": True}
#: the default suite's matches are cut short (the reference's search costs seconds a match)
SHORT: dict[str, Any] = {"turn_limit": 8}
#: shorter still for a match seating a deep search (``fuzz_specs.is_deep_search``: mcts-deep, -fair,
#: -sure), whose reference spends 5-10 s on a game turn: 4 game turns are every figure's decisions
#: four times over, openings and first exchanges; its full matches run under ``slow`` below
DEEP_SHORT: dict[str, Any] = {"turn_limit": 4}


def _opponent(k: int, name: str) -> str:
    """Another search AI than ``name``, in turn."""
    others = [other for other in SEARCH_AIS if other != name]
    return others[k % len(others)]


def search_specs(n: int, seed: int, short: bool) -> list[dict[str, Any]]:
    """``n`` two-player specs per search AI: against ``kiter`` and against another search AI in turn,
    with and without Demonic Rewards, on either seat, over random legal teams and boards."""
    from krosbalance.testing.conformance import all_legal_teams

    teams = all_legal_teams()
    rng = np.random.default_rng(seed)
    specs = []
    for name in SEARCH_AIS:
        for k in range(n):
            a, b = (teams[int(i)] for i in rng.integers(len(teams), size=2))
            ai = [name, "kiter" if k % 2 == 0 else _opponent(k // 2, name)]
            if (k // 2 + SEARCH_AIS.index(name)) % 2:  # either seat
                ai.reverse()
            options = dict(REWARDS) if (k + k // 2) % 2 else {}
            if short:
                options.update(DEEP_SHORT if any(is_deep_search(a) for a in ai) else SHORT)
            specs.append(
                {
                    "teams": [list(a), list(b)],
                    "board": BOARDS[int(rng.integers(len(BOARDS)))],
                    "ai": ai,
                    "seed": int(rng.integers(2**40)),
                    "options": options,
                }
            )
    return specs


def _id(spec: dict[str, Any]) -> str:
    rewards = "rewards" if spec["options"].get("demonic_rewards") else "plain"
    return f"{'-'.join(spec['ai'])}-{rewards}-{spec['seed']}"


def test_the_search_ais_are_played_and_the_specs_cover_them():
    assert set(SEARCH_AIS) <= IDENTICAL_AIS
    specs = search_specs(4, 1, short=True)
    for name in SEARCH_AIS:
        mine = [s for s in specs if name in s["ai"]]
        assert any("kiter" in s["ai"] for s in mine), name
        assert any(set(s["ai"]) <= set(SEARCH_AIS) for s in mine), name
        assert any(s["ai"][0] == name for s in mine) and any(s["ai"][1] == name for s in mine), name
        assert {bool(s["options"].get("demonic_rewards")) for s in mine} == {True, False}, name


#: search AIs that play one default-suite match here, not two: mcts-sure is mcts-deep with judge
#: knobs that ``test_search_knobs_identity.py`` also plays on their own, and the reference's
#: sequential judge costs up to a minute a match; it meets kiter in the ``slow`` matches below
ONE_DEFAULT_MATCH = ("mcts-sure",)


def default_specs() -> list[dict[str, Any]]:
    """The default suite's search matches: two per search AI (:func:`search_specs`), but for the
    AIs of :data:`ONE_DEFAULT_MATCH`, whose match with Demonic Rewards is kept."""
    return [
        spec
        for spec in search_specs(2, 380, short=True)
        if spec["options"].get("demonic_rewards") or not set(spec["ai"]) & set(ONE_DEFAULT_MATCH)
    ]


@pytest.mark.parametrize("spec", default_specs(), ids=_id)
def test_search_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", search_specs(12, 3800, short=False), ids=_id)
def test_many_full_search_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


def variant_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` specs over the heuristic differential's option variants (held, purchasable and staged
    rewards, scenery, a cheap GG...), a search AI against any AI the core plays (``turn_limit`` 12
    unless the variant sets one)."""
    from krosbalance.testing.conformance import all_legal_teams

    teams = all_legal_teams()
    rng = np.random.default_rng(seed)
    others = sorted((IDENTICAL_AIS - set(FOUR_SEARCH_AIS)) | {"random"})
    specs = []
    for k in range(n):
        a, b = (teams[int(i)] for i in rng.integers(len(teams), size=2))
        ai = [SEARCH_AIS[k % len(SEARCH_AIS)], others[int(rng.integers(len(others)))]]
        if k % 2:
            ai.reverse()
        options = {"turn_limit": 12, **VARIANTS[k % len(VARIANTS)]}
        specs.append(
            {
                "teams": [list(a), list(b)],
                "board": BOARDS[int(rng.integers(len(BOARDS)))],
                "ai": ai,
                "seed": int(rng.integers(2**40)),
                "options": options,
            }
        )
    return specs


@pytest.mark.slow
@pytest.mark.parametrize("spec", variant_specs(40, 3900), ids=lambda s: f"{'-'.join(s['ai'])}-{s['seed']}")
def test_search_matches_under_every_option_variant_are_identical(spec):
    check_differential(spec)


def test_a_search_batch_equals_single_matches():
    """Matches on two threads: the search keeps no state outside its match."""
    from krosbalance.native_match import play_many_core

    specs = search_specs(1, 12, short=True)
    rows = play_many_core(specs, record="full", threads=2)
    for spec, row in zip(specs, rows, strict=True):
        single = play_match_core(
            *spec["teams"],
            board=spec["board"],
            ai=tuple(spec["ai"]),
            seed=spec["seed"],
            options=spec["options"],
            record="full",
        )
        assert canonical_core(row) == canonical_core(single), spec


def test_the_core_refuses_a_search_ai_in_a_four_player_match():
    """The reference's searches play two players only (their leaf evaluation scores one side
    against the other); the core says so instead of playing."""
    from krosbalance.content.registry import default_registry
    from krosbalance.rulesets.registry import get_ruleset

    names = default_registry().list_characters(game="arena")
    team = list(get_ruleset("arena", {"mode": "free_for_all"}).all_teams(names)[0])
    with pytest.raises(ValueError, match="two-player matches only"):
        play_match_core(
            team,
            team,
            team,
            team,
            board="arena-elemental",
            ai=("mcts", "random", "random", "random"),
            options={"mode": "free_for_all"},
        )


# ---------------------------------------------------------------------------- four players
#: the AIs that sit beside the four-player search in its differential, in turn
FOUR_COMPANIONS = ("kiter-2", "kiter", "focus-fire", "objective", "random", "kiter-3", "focus-fire-2")
FOUR_MODES = ("free_for_all", "two_vs_two")


def four_player_specs(n: int, seed: int, turn_limit: int | None) -> list[dict[str, Any]]:
    """``n`` four-player specs per four-player search AI: the search in seats 0 and 2 or 1 and 3
    in turn, a companion AI in the others (another search once in a while: both search seats then
    differ), both modes, with and without Demonic Rewards, four random legal four-player teams."""
    from krosbalance.rulesets.registry import get_ruleset
    from tests.fixtures.golden.arena_golden import BOX_POOL

    rng = np.random.default_rng(seed)
    specs = []
    for name in FOUR_SEARCH_AIS:
        for k in range(n):
            mode = FOUR_MODES[k % 2]
            legal = get_ruleset("arena", {"mode": mode}).all_teams(sorted(BOX_POOL))
            other = FOUR_COMPANIONS[(k // 2) % len(FOUR_COMPANIONS)]
            mine = (0, 2) if (k // 2) % 2 == 0 else (1, 3)
            options: dict[str, Any] = {"mode": mode}
            if (k + k // 2) % 2:
                options["demonic_rewards"] = True
            if turn_limit is not None:
                options["turn_limit"] = turn_limit
            specs.append(
                {
                    "teams": [list(legal[int(i)]) for i in rng.integers(0, len(legal), size=4)],
                    "board": ("arena-elemental", "arena-pit", "bonta-1")[int(rng.integers(3))],
                    "ai": [name if seat in mine else other for seat in range(4)],
                    "seed": int(rng.integers(2**40)),
                    "options": options,
                }
            )
    return specs


def _four_id(spec: dict[str, Any]) -> str:
    return f"{spec['options']['mode']}-{'-'.join(spec['ai'])}-{spec['seed']}"


def test_the_four_player_search_is_played_and_its_specs_cover_it():
    assert FOUR_SEARCH_AIS and set(FOUR_SEARCH_AIS) <= IDENTICAL_AIS
    specs = four_player_specs(4, 1, None)
    for name in FOUR_SEARCH_AIS:
        mine = [s for s in specs if name in s["ai"]]
        assert {s["options"]["mode"] for s in mine} == set(FOUR_MODES), name
        assert {s["ai"].index(name) for s in mine} == {0, 1}, name
        assert {bool(s["options"].get("demonic_rewards")) for s in mine} == {True, False}, name


@pytest.mark.parametrize("spec", four_player_specs(4, 480, 24), ids=_four_id)
def test_four_player_search_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", four_player_specs(24, 4800, None), ids=_four_id)
def test_many_full_four_player_search_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


FOUR_SEARCH_ROWS = load(FOUR_GOLDEN)[-len(search_plan()) :]


@pytest.mark.parametrize(
    "spec", FOUR_SEARCH_ROWS, ids=lambda s: f"{s['mode']}-{'-'.join(s['ai'])}-{s['seed']}"
)
def test_four_player_search_golden_rows_are_identical_in_the_core(spec):
    played, ours = _four_bytes(spec)
    _check(played, ours)
