"""The Arena mechanics no shipped Krosmaster uses play in the native core as on the reference.

A designer's card may carry an ``element_bonus`` effect (R-A80), Invisibility or Stimulus (R-A108),
or lay traps (R-A116, R-A171); the core plays them (core/src/engine: effects.rs, legal.rs
``sight_blockers_from`` and ``lays_trap``, combat.rs ``injury_prevented``, ``trigger_trap`` and
``settle_traps``, turn.rs ``stimulus``, pieces.rs ``hide_traps_from`` for a search's copy). Each
mechanic gets a registry of its own, built as a balance patch is
(:func:`krosbalance.sim.patched_cards.apply_patch`) over the box figures, or with the test
trap-setter (tests/fixtures/characters/test_trapper.toml), and whole matches on both engines must
give the same canonical bytes (every event, then the result head): the random AI, the heuristic
AIs, search AIs (short matches: the reference's search is slow), Demonic Rewards on and off, two
and four seats.

Each registry changes the matches it plays (checked below against the shared cards), so a core
that ignored the mechanic would diverge; the rule tests that use these mechanics through the kit
(tests/engine/test_powers.py, test_spells.py, tests/rulesets/test_reward_effects.py) run on both
engines step by step (tests/core/scenario_coverage.json).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from krosbalance import native
from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDER, Registry, default_registry
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
BOARDS = sorted(REGISTRY.list_boards("arena"))[:3]
AIS = ("random", "focus-fire", "kiter", "objective-2", "kiter-race", "focus-fire-2")
SEARCH = ("lookahead-fast", "mcts-race")


def _effects(spell: Any) -> list[dict[str, Any]]:
    """A spell's effects as the TOML writes them (kind and parameters in one table)."""
    return [{"kind": e.kind, **e.params} for e in spell.effects]


def _element_bonus_changes() -> dict[str, Any]:
    """R-A80 on every elemental attack of the box: +1 of the spell's own element on the first
    figure's attacks (and +2 of another element, which adds nothing), +2 of its own element on
    the others' first elemental attack."""
    changes: dict[str, Any] = {}
    for k, figure in enumerate(BOX):
        spec = REGISTRY.load_character(figure)
        attacks = [s for s in spec.spells if s.kind == "attack" and s.element != "neutral"]
        if not attacks:
            continue
        spells: dict[str, Any] = {}
        for i, spell in enumerate(attacks if k == 0 else attacks[:1]):
            other = next(e for e in ("water", "air", "earth", "fire") if e != spell.element)
            bonus = [{"kind": "element_bonus", "element": spell.element, "amount": 1 if k == 0 else 2}]
            if i == 0:
                bonus.append({"kind": "element_bonus", "element": other, "amount": 2})
            spells[spell.id] = {"effects": _effects(spell) + bonus}
        changes[figure] = {"spells": spells}
    return changes


def _power_changes(kind: str, every: int, value: Any) -> dict[str, Any]:
    """The power ``kind`` on every ``every``-th box figure (the others keep their cards)."""
    return {figure: {"powers": {kind: value(k)}} for k, figure in enumerate(BOX) if k % every == 0}


MECHANICS: dict[str, dict[str, Any]] = {
    "element_bonus": _element_bonus_changes(),
    "invisibility": _power_changes("invisibility", 2, lambda k: True),
    "stimulus": _power_changes("stimulus", 1, lambda k: {"marker": "ap" if k % 2 else "mp"}),
}
REGISTRIES = {
    name: apply_patch(Patch(f"test-{name}", {"characters": changes})) for name, changes in MECHANICS.items()
}
#: the test trap-setter (R-A116): its snare is a trap token
TRAPPER, SNARE = "test_trapper", "test_snare"
#: its Jab pushes 2 cells (R-A85), so a pushed character ends a special movement on a trap (R-A171)
TRAPS = apply_patch(
    Patch(
        "test-trap-push",
        {"characters": {TRAPPER: {"spells": {"jab": {"effects": [{"kind": "push", "cells": 2}]}}}}},
    ),
    Registry(DEFAULT_CHARACTER_FOLDER, Path(__file__).resolve().parents[1] / "fixtures" / "characters"),
)
MECHANICS["traps"] = {TRAPPER: {}}
REGISTRIES["traps"] = TRAPS


def _specs(
    mechanic: str, n: int, seed: int, ais: tuple[str, ...], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """Two-player box teams of four, every one holding a patched figure; boards, AIs, seeds, and
    Demonic Rewards on every other match."""
    patched = sorted(MECHANICS[mechanic])
    rng = np.random.default_rng(seed)
    specs = []
    for i in range(n):
        pool = [str(c) for c in rng.permutation(BOX)]
        first = patched[i % len(patched)]
        if first in pool:
            pool.remove(first)
        teams = [[first, *pool[:3]], pool[3:7]]
        if mechanic == "traps" and i % 2:  # trap-setters on both sides
            teams[1][0] = TRAPPER
        if i % 3 == 2:
            teams.reverse()
        ai = [ais[i % len(ais)], AIS[(i + 1) % len(AIS)]]
        if i % 2:
            ai.reverse()
        specs.append(
            {
                "mechanic": mechanic,
                "teams": teams,
                "board": BOARDS[i % len(BOARDS)],
                "ai": tuple(ai),
                "seed": int(rng.integers(2**31)),
                "options": {**options, **({"demonic_rewards": True} if i % 2 else {})},
            }
        )
    return specs


def _both(spec: dict[str, Any], registry: Any = None) -> tuple[bytes, bytes]:
    registry = REGISTRIES[spec["mechanic"]] if registry is None else registry
    args: dict[str, Any] = dict(
        board=spec["board"], ai=spec["ai"], seed=spec["seed"], options=spec["options"], record="full"
    )
    ours = canonical_core(play_match_core(*spec["teams"], registry=registry, **args))
    theirs = golden.canonical(play_match(*spec["teams"], registry=registry, engine="reference", **args))
    return ours, theirs


def _id(spec: dict[str, Any]) -> str:
    return f"{spec['mechanic']}-{spec['ai'][0]}-{spec['ai'][1]}-{spec['seed']}"


HEURISTIC = [s for m in MECHANICS for s in _specs(m, 10, 20261207, AIS, {})]
SEARCHED = [s for m in MECHANICS for s in _specs(m, 2, 20261208, SEARCH, {"turn_limit": 8})]


@pytest.mark.parametrize("spec", HEURISTIC, ids=_id)
def test_r_a80_r_a108_r_a116_matches_with_the_mechanic_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


def _trap_searches(n: int, seed: int) -> list[dict[str, Any]]:
    """Trap-setters on both sides and ``mcts-race`` on one seat: the search plays on copies that
    hold none of the other side's traps (R-A116, ``hide_traps_from``), so its choices move if a
    copy kept them."""
    specs = _specs("traps", n, seed, ("lookahead-fast", "mcts-race", "lookahead", "mcts"), {"turn_limit": 10})
    for spec in specs:
        spec["ai"] = (spec["ai"][0], "mcts-race" if spec["ai"][0] != "mcts-race" else "lookahead-fast")
        spec["teams"][1][0] = TRAPPER
    return specs


SEARCHED += _trap_searches(6, 5)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for m in MECHANICS for s in _specs(m, 40, 20261209, AIS, {})], ids=_id)
def test_r_a80_r_a108_r_a116_many_matches_with_the_mechanic_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


@pytest.mark.parametrize("spec", SEARCHED, ids=_id)
def test_r_a80_r_a108_r_a116_search_matches_with_the_mechanic_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


@pytest.mark.parametrize("mechanic", sorted(m for m in MECHANICS if m != "traps"))
def test_the_mechanic_changes_the_matches_and_auto_plays_them_in_the_core(mechanic: str) -> None:
    """Each registry's cards are the ones played (the shared cards give other matches on the same
    seeds: a core that skipped the mechanic could not match the reference), and ``auto`` plays
    them in the core."""
    specs = _specs(mechanic, 4, 11, AIS, {})
    changed = 0
    for spec in specs:
        args: dict[str, Any] = dict(board=spec["board"], ai=spec["ai"], seed=spec["seed"], record="full")
        mine = golden.canonical(
            play_match(*spec["teams"], registry=REGISTRIES[mechanic], engine="core", **args)
        )
        shared = golden.canonical(play_match(*spec["teams"], engine="core", **args))
        changed += mine != shared
    assert changed >= 3
    spec = specs[0]
    result = play_match(
        *spec["teams"], registry=REGISTRIES[mechanic], board=spec["board"], ai="kiter", seed=1
    )
    assert result.engine == "core"


def _four_teams(mechanic: str) -> list[list[str]]:
    """Four box pairs at the four-player team level (R-A150), each holding a patched figure when
    one fits."""
    from krosbalance.rulesets.registry import get_ruleset

    level = get_ruleset("arena", {"mode": "free_for_all"}).options.four_player_team_level
    registry = REGISTRIES[mechanic]
    figures = [*BOX, TRAPPER] if mechanic == "traps" else BOX
    pairs = [
        list(p) for p in combinations(figures, 2) if sum(registry.load_character(c).level for c in p) == level
    ]
    patched = set(MECHANICS[mechanic])
    pairs.sort(key=lambda p: -len(patched & set(p)))
    return pairs[:4]


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
@pytest.mark.parametrize("mechanic", sorted(MECHANICS))
def test_r_a80_r_a108_r_a116_four_seats_are_identical(mechanic: str, mode: str) -> None:
    """Four seats: Stimulus reaches the partner's Krosmasters in 2v2 (``allied_krosmasters``)."""
    teams = _four_teams(mechanic)
    if len(teams) < 4:
        pytest.skip("the box has too few pairs at the four-player team level")
    args: dict[str, Any] = dict(
        board=BOARDS[0], ai="focus-fire", seed=3, options={"mode": mode}, record="full"
    )
    registry = REGISTRIES[mechanic]
    ours = canonical_core(play_match_core(*teams, registry=registry, **args))
    theirs = golden.canonical(play_match(*teams, registry=registry, engine="reference", **args))
    assert ours == theirs, first_divergence(ours, theirs)


def test_r_a116_traps_are_laid_and_sprung_in_these_matches() -> None:
    """The trap matches above lay and spring traps (so they test the core's traps), and ``auto``
    plays them in the core."""
    laid = sprung = 0
    for spec in [s for s in HEURISTIC if s["mechanic"] == "traps"][:6]:
        out = play_match_core(
            *spec["teams"],
            registry=TRAPS,
            board=spec["board"],
            ai=spec["ai"],
            seed=spec["seed"],
            options=spec["options"],
            record="full",
        )
        snares = {f["uid"] for kind, f in out["events"] if kind == "summoned" and f["character"] == SNARE}
        laid += len(snares)
        sprung += sum(1 for kind, f in out["events"] if kind == "spell_cast" and f["uid"] in snares)
    assert laid > 0 and sprung > 0
    spec = HEURISTIC[-1]
    result = play_match(*spec["teams"], registry=TRAPS, board=spec["board"], ai="kiter", seed=1)
    assert result.engine == "core"
