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

The default suite plays short matches (``turn_limit`` 8: the reference's search is slow, 1-10 s a
full match); full matches and more seeds, and matches under every option variant of the heuristic
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
from tests.core.test_heuristic_identity import VARIANTS, check_differential  # noqa: E402
from tests.core.test_match_identity import BOARDS, canonical_core  # noqa: E402

#: every search AI the core plays, in the order they were ported (a new one adds its specs after)
SEARCH_AIS = tuple(name for name in PORTED_AIS if ai_tier(name) == "search")
REWARDS: dict[str, Any] = {"demonic_rewards": True}
#: the default suite's matches are cut short (the reference's search costs seconds a match)
SHORT: dict[str, Any] = {"turn_limit": 8}


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
                options.update(SHORT)
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


@pytest.mark.parametrize("spec", search_specs(2, 380, short=True), ids=_id)
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
    others = sorted(IDENTICAL_AIS | {"random"})
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
