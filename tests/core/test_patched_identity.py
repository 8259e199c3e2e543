"""A balance patch's cards play in the native core, event for event as on the reference.

A patched arm (the fix finder's probes, sweeps, patch studies) is a registry of its own
(:mod:`krosbalance.sim.patched_cards`); the core converts each registry's cards once per process
(:func:`krosbalance.native_match.catalog`), so ``play_match(..., registry=patched)`` plays in the core
and must give the reference's events. Figures are taken from the box set of the registry and the
patched values from their own cards (+2 HP, +1 AP on a spell), never named by hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from krosbalance import native
from krosbalance.content.registry import default_registry
from krosbalance.play import play_match
from krosbalance.sim.patch_spec import Patch
from krosbalance.sim.patched_cards import apply_patch
from tests.core.test_match_identity import canonical_core, first_divergence
from tests.fixtures.golden import arena_golden as golden

pytest.importorskip("krosbalance_core", reason="the native core (krosbalance_core) is not installed")
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.native_match import play_match_core  # noqa: E402

REGISTRY = default_registry()
BOX = sorted(
    c for c in REGISTRY.list_characters(game="arena") if REGISTRY.load_character(c).set == "arena-box"
)
BOARDS = sorted(REGISTRY.list_boards())[:3]
AIS = ("random", "focus-fire", "kiter", "objective-2")


def _patch() -> Patch:
    """+2 HP on one box figure and +1 AP on the first spell of another (its own values plus one
    step: what the fix finder's probe arms change)."""
    first, second = BOX[0], BOX[1]
    spell = REGISTRY.load_character(second).spells[0]
    return Patch(
        "test-patch",
        {
            "characters": {
                first: {"hp": REGISTRY.load_character(first).hp + 2},
                second: {"spells": {spell.id: {"ap_cost": spell.ap_cost + 1}}},
            }
        },
    )


PATCHED = apply_patch(_patch())


def _specs(n: int, seed: int) -> list[dict[str, Any]]:
    """Box teams of four (every one with a patched figure), boards, AIs and seeds."""
    rng = np.random.default_rng(seed)
    specs = []
    for i in range(n):
        pool = list(rng.permutation(BOX))
        patched = BOX[i % 2]
        pool.remove(patched)
        teams = [[patched, *pool[:3]], pool[3:7]]
        if i % 3 == 2:
            teams.reverse()
        specs.append(
            {
                "teams": teams,
                "board": BOARDS[i % len(BOARDS)],
                "ai": (AIS[i % len(AIS)], AIS[(i + 1) % len(AIS)]),
                "seed": int(rng.integers(2**31)),
            }
        )
    return specs


@pytest.mark.parametrize("spec", _specs(12, 20261207), ids=lambda s: f"{s['ai'][0]}-{s['board']}-{s['seed']}")
def test_a_patched_registry_plays_in_the_core_as_on_the_reference(spec: dict[str, Any]) -> None:
    ours = canonical_core(
        play_match_core(
            *spec["teams"],
            board=spec["board"],
            ai=spec["ai"],
            seed=spec["seed"],
            record="full",
            registry=PATCHED,
        )
    )
    theirs = golden.canonical(
        play_match(
            *spec["teams"],
            board=spec["board"],
            ai=spec["ai"],
            seed=spec["seed"],
            record="full",
            registry=PATCHED,
            engine="reference",
        )
    )
    assert ours == theirs, first_divergence(ours, theirs)


def test_the_patch_changes_the_match_and_auto_plays_it_in_the_core() -> None:
    """The patched cards are the ones played (the shared cards give another match on the same seed),
    and ``auto`` sends a patched arm to the core rather than the reference."""
    spec = _specs(1, 7)[0]
    args: dict[str, Any] = dict(board=spec["board"], ai=spec["ai"], seed=spec["seed"], record="full")
    patched = play_match(*spec["teams"], registry=PATCHED, engine="core", **args)
    shared = play_match(*spec["teams"], engine="core", **args)
    assert golden.canonical(patched) != golden.canonical(shared)
    summary = {**args, "record": "summary"}
    assert play_match(*spec["teams"], registry=PATCHED, **summary).engine == "core"


def _four_teams() -> list[list[str]]:
    """Four box pairs whose levels sum to the four-player team level (R-A150), the first holding the
    patched figure."""
    from itertools import combinations

    from krosbalance.rulesets.registry import get_ruleset

    level = get_ruleset("arena", {"mode": "free_for_all"}).options.four_player_team_level
    pairs = [
        list(p) for p in combinations(BOX, 2) if sum(REGISTRY.load_character(c).level for c in p) == level
    ]
    first = next(p for p in pairs if BOX[0] in p)
    return [first, *[p for p in pairs if p != first][:3]]


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_patched_registry_plays_four_seats_in_the_core_as_on_the_reference(mode: str, seed: int) -> None:
    teams = _four_teams()
    if len(teams) < 4:
        pytest.skip("the box has too few pairs at the four-player team level")
    args: dict[str, Any] = dict(
        board=BOARDS[0], ai="focus-fire", seed=seed, options={"mode": mode}, record="full"
    )
    ours = canonical_core(play_match_core(*teams, registry=PATCHED, **args))
    theirs = golden.canonical(play_match(*teams, registry=PATCHED, engine="reference", **args))
    assert ours == theirs, first_divergence(ours, theirs)
