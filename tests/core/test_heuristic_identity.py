"""The heuristic AIs in the native core are identical, event for event, to the Python reference
(core/src/ai/{scoring,context,casts,positions,plan_search,planner,tension}.rs against
krosbalance/ai).

- The golden rows of ``tests/fixtures/golden/arena-golden.jsonl`` whose two AIs the core plays
  (``focus_fire``, ``kiter``, ``objective``, ``random``: all 960) are replayed in the core and hashed
  against the recorded SHA-256: a slice in the default suite, every row under ``slow``.
- The four-player rows of ``tests/fixtures/golden/arena4-golden.jsonl`` whose AIs the core plays
  (every row: Demonic Rewards included): the same, player 4's board choice (R-A154) made in the core.
- A differential run over random teams, boards, option variants (Demonic Rewards, held and
  purchasable tokens included) and the heuristic AIs of :data:`krosbalance.native_match.IDENTICAL_AIS`
  (the search AIs have their own tests: ``test_search_identity.py``), two and
  four players, on both engines.

A mismatch prints the first differing event with both engines' events around it
(:func:`tests.core.test_match_identity.first_divergence`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from krosbalance import native
from tests.fixtures.golden import arena_golden as golden

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.ai.registry import ai_tier, canonical_ai, list_ais  # noqa: E402
from krosbalance.native_match import IDENTICAL_AIS, PORTED_AIS, play_match_core  # noqa: E402
from tests.core.test_match_identity import (  # noqa: E402
    BOARDS,
    FOUR_BOARDS,
    FOUR_VARIANTS,
    canonical_core,
    core_bytes,
    first_divergence,
    reference_bytes,
)
from tests.core.test_match_identity import VARIANTS as BASE_VARIANTS  # noqa: E402

#: the heuristic tier of the AIs the core plays (the search tier: test_search_identity.py)
HEURISTIC_AIS = frozenset(name for name in IDENTICAL_AIS if ai_tier(name) == "heuristic")
PLAYED = HEURISTIC_AIS | {"random"}
#: the golden rows the core plays with a heuristic AI on at least one side
HEURISTIC_ROWS = [  # the golden rows name the AIs by their former ids (focus_fire): read as today's
    row
    for row in golden.load()
    if set(map(canonical_ai, row["ai"])) <= PLAYED and row["ai"] != ["random", "random"]
]
FAST_ROWS = HEURISTIC_ROWS[::12]
FOUR_GOLDEN = golden.GOLDEN.parent / "arena4-golden.jsonl"
FOUR_ROWS = [
    row
    for row in (json.loads(line) for line in FOUR_GOLDEN.read_text(encoding="utf-8").splitlines() if line)
    if set(map(canonical_ai, row["ai"])) <= PLAYED
]


def _check(spec: dict[str, Any], ours: bytes) -> None:
    if golden.digest(ours) == spec["sha256"]:
        return
    theirs = reference_bytes(spec)
    assert golden.digest(theirs) == spec["sha256"], "the reference itself no longer matches the golden"
    pytest.fail(
        f"seed {spec['seed']} AIs {spec['ai']} options {spec['options']}:\n{first_divergence(ours, theirs)}"
    )


def test_the_golden_rows_cover_the_three_personalities():
    assert {"focus-fire", "kiter", "objective"} <= IDENTICAL_AIS <= set(PORTED_AIS)
    assert len(HEURISTIC_ROWS) == 840
    assert {ai for row in FAST_ROWS for ai in row["ai"]} == {"focus_fire", "kiter", "objective", "random"}
    assert len(FOUR_ROWS) == 120


@pytest.mark.parametrize("spec", FAST_ROWS, ids=lambda s: f"{'-'.join(s['ai'])}-{s['seed']}")
def test_heuristic_golden_rows_are_identical(spec):
    _check(spec, core_bytes(spec))


@pytest.mark.slow
@pytest.mark.parametrize("spec", HEURISTIC_ROWS, ids=lambda s: f"{'-'.join(s['ai'])}-{s['seed']}")
def test_every_heuristic_golden_row_is_identical(spec):
    _check(spec, core_bytes(spec))


def _four_bytes(spec: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The core's bytes of a four-player golden row (its board picked by player 4 in the core,
    ``pick_board_core``) and the spec as played."""
    played = dict(spec)
    if "board_choice" in spec:  # player 4 picks the board (R-A154), in the core
        from krosbalance.native_match import pick_board_core

        played["board"] = pick_board_core(
            spec["board_choice"],
            *spec["teams"],
            ai=tuple(spec["ai"]),
            seed=spec["seed"],
            options=spec["options"],
        )
    out = play_match_core(
        *played["teams"],
        board=played["board"],
        ai=tuple(played["ai"]),
        seed=played["seed"],
        options=played["options"],
        record="full",
    )
    return played, canonical_core(out)


@pytest.mark.parametrize("spec", FOUR_ROWS[::5], ids=lambda s: f"{s['mode']}-{s['seed']}")
def test_four_player_golden_rows_are_identical(spec):
    played, ours = _four_bytes(spec)
    _check(played, ours)


@pytest.mark.slow
@pytest.mark.parametrize("spec", FOUR_ROWS, ids=lambda s: f"{s['mode']}-{s['seed']}")
def test_every_four_player_golden_row_is_identical(spec):
    played, ours = _four_bytes(spec)
    _check(played, ours)


# ---------------------------------------------------------------------------- differential

#: the option variants of the random differential (Demonic Rewards, held and purchasable tokens)
#: and a cheap-GG economy, where the heuristic AIs' purchases and reward advisor matter most
VARIANTS: tuple[dict[str, Any], ...] = (*BASE_VARIANTS, {"gg_price": 4, "kama_reserve": 30})
AIS = sorted(PLAYED)


def heuristic_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` two-player specs: teams from every legal team of the roster, boards, variants, and two
    AIs of :data:`HEURISTIC_AIS` (or ``random``), at least one heuristic."""
    from krosbalance.testing.conformance import all_legal_teams

    teams = all_legal_teams()
    rng = np.random.default_rng(seed)
    heuristics = sorted(HEURISTIC_AIS)
    specs = []
    for k in range(n):
        a, b = (teams[int(i)] for i in rng.integers(len(teams), size=2))
        ai = [heuristics[int(rng.integers(len(heuristics)))], AIS[int(rng.integers(len(AIS)))]]
        if k % 2:
            ai.reverse()
        specs.append(
            {
                "teams": [list(a), list(b)],
                "board": BOARDS[int(rng.integers(len(BOARDS)))],
                "ai": ai,
                "seed": int(rng.integers(2**40)),
                "options": VARIANTS[k % len(VARIANTS)],
            }
        )
    return specs


def four_heuristic_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` four-player specs (free-for-all and two versus two alternately), AIs drawn per seat."""
    from krosbalance.content.registry import default_registry
    from krosbalance.rulesets.registry import get_ruleset

    names = default_registry().list_characters(game="arena")
    rng = np.random.default_rng(seed)
    variants = FOUR_VARIANTS
    specs = []
    for k in range(n):
        mode = ("free_for_all", "two_vs_two")[k % 2]
        legal = get_ruleset("arena", {"mode": mode}).all_teams(names)
        teams = [list(legal[int(i)]) for i in rng.integers(len(legal), size=4)]
        specs.append(
            {
                "teams": teams,
                "board": FOUR_BOARDS[int(rng.integers(len(FOUR_BOARDS)))],
                "ai": [AIS[int(i)] for i in rng.integers(len(AIS), size=4)],
                "seed": int(rng.integers(2**40)),
                "options": {"mode": mode, **variants[k % len(variants)]},
            }
        )
    return specs


def check_differential(spec: dict[str, Any]) -> None:
    out = play_match_core(
        *spec["teams"],
        board=spec["board"],
        ai=tuple(spec["ai"]),
        seed=spec["seed"],
        options=spec["options"],
        record="full",
    )
    ours, theirs = canonical_core(out), reference_bytes(spec)
    if ours != theirs:
        pytest.fail(f"{spec}:\n{first_divergence(ours, theirs)}")


@pytest.mark.parametrize("spec", heuristic_specs(24, 370), ids=lambda s: f"{'-'.join(s['ai'])}-{s['seed']}")
def test_heuristic_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", heuristic_specs(400, 3700), ids=lambda s: f"{'-'.join(s['ai'])}-{s['seed']}")
def test_many_heuristic_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.parametrize(
    "spec", four_heuristic_specs(8, 470), ids=lambda s: f"{s['options']['mode']}-{s['seed']}"
)
def test_four_player_heuristic_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", four_heuristic_specs(150, 4700), ids=lambda s: f"{s['options']['mode']}-{s['seed']}"
)
def test_many_four_player_heuristic_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


def test_a_heuristic_batch_equals_single_matches():
    from krosbalance.native_match import play_many_core

    specs = heuristic_specs(4, 11)
    rows = play_many_core(specs, record="full", threads=2)
    for spec, row in zip(specs, rows, strict=True):
        assert canonical_core(row) == core_bytes(spec)


def test_what_the_core_does_not_play_identically_is_refused():
    teams = (["anna_tommy", "bill_tell", "kassius_kaos", "oscar_kass"],) * 2
    refused = [n for n in list_ais("arena") if n != "random" and n not in IDENTICAL_AIS]
    for name in [*sorted(set(PORTED_AIS) - IDENTICAL_AIS), *refused, "blast_glyph"]:
        with pytest.raises(ValueError, match="does not play the AI"):
            play_match_core(*teams, ai=(name, "random"))


# ---------------------------------------------------------------------------- R-A17, R-A19


@pytest.mark.parametrize("mode", ["random_deal", "draft"])
def test_heuristic_team_deals_are_identical(mode):
    """The base class's draft (``card_value``) as the heuristic AIs play it."""
    from krosbalance.native_match import deal_teams_core
    from krosbalance.play import deal_teams

    pools = [golden.BOX_POOL, (*golden.BOX_POOL, "merkator", "captain_amakna", "anna_tommy", "oscar_kass")]
    heuristics = sorted(HEURISTIC_AIS)
    for pool in pools:
        for k, seed in enumerate(range(0, 4000, 131)):
            ai = (heuristics[k % len(heuristics)], AIS[(3 * k + 1) % len(AIS)])
            assert deal_teams_core(mode, pool, ai, seed) == deal_teams(mode, pool, ai, seed), (pool, ai, seed)


def test_heuristic_board_choices_are_identical():
    """The base class's board choice (trees against the opponents' reach), two and four players."""
    from krosbalance.native_match import pick_board_core
    from krosbalance.play import pick_board

    for k, spec in enumerate(heuristic_specs(40, 23)):
        boards = [BOARDS[(k + i) % len(BOARDS)] for i in range(1 + k % 3)]
        args = (boards, *spec["teams"])
        kw = {"ai": tuple(spec["ai"]), "seed": spec["seed"]}
        assert pick_board_core(*args, **kw) == pick_board(*args, **kw), spec
    for k, spec in enumerate(four_heuristic_specs(24, 29)):
        boards = [FOUR_BOARDS[(k + i) % len(FOUR_BOARDS)] for i in range(2 + k % 2)]
        args = (boards, *spec["teams"])
        kw = {"ai": tuple(spec["ai"]), "seed": spec["seed"], "options": spec["options"]}
        assert pick_board_core(*args, **kw) == pick_board(*args, **kw), spec
