"""Blast's effect keywords play in the native core as on the reference (issue 41).

Krosmaster Blast's cards use two effect keywords of the shared engine that no Arena card prints:
``move_to_target`` (R-B28, Bond imprudent: the caster moves into the targeted cell if it is free, a
special movement) and ``different_target_next`` (Roulette de chat: the next cast of the spell may not
target the piece this cast targeted; ``legal`` refuses it). The core plays both
(core/src/engine/effects.rs, ``Fighter::banned_targets`` in state.rs, ``legal::target_ok``). They are
proven on Arena matches, where a designer's card may carry them: each keyword gets a registry of its
own, built as a balance patch over the box figures (:func:`krosbalance.sim.patched_cards.apply_patch`),
and whole matches on both engines must give the same canonical bytes (every event, then the result
head): the random AI (which casts at empty cells too), the heuristic AIs and a search AI, Demonic
Rewards on and off. Each registry changes the matches it plays, so a core that ignored the keyword
would diverge. Blast matches themselves are tests/core/test_blast_identity.py's.
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
BOARDS = sorted(REGISTRY.list_boards("arena"))[:3]
AIS = ("random", "focus-fire", "kiter", "objective-2", "kiter-race", "random")
KEYWORDS = ("move_to_target", "different_target_next")


def _changes(keyword: str) -> dict[str, Any]:
    """``keyword`` added to every attack of the box that targets any cell (the caster's first such
    attack on every other figure, all of them on the rest)."""
    changes: dict[str, Any] = {}
    for k, figure in enumerate(BOX):
        spec = REGISTRY.load_character(figure)
        attacks = [s for s in spec.spells if s.kind == "attack" and s.target == "any"]
        spells = {
            s.id: {"effects": [*({"kind": e.kind, **e.params} for e in s.effects), {"kind": keyword}]}
            for s in (attacks[:1] if k % 2 else attacks)
        }
        if spells:
            changes[figure] = {"spells": spells}
    return changes


MECHANICS = {keyword: _changes(keyword) for keyword in KEYWORDS}
REGISTRIES = {
    keyword: apply_patch(Patch(f"test-{keyword}", {"characters": changes}))
    for keyword, changes in MECHANICS.items()
}


def _specs(
    keyword: str, n: int, seed: int, ais: tuple[str, ...], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """Two-player box teams of four, each holding a patched figure; boards, AIs and seeds drawn,
    Demonic Rewards on every other match."""
    patched = sorted(MECHANICS[keyword])
    rng = np.random.default_rng(seed)
    specs = []
    for i in range(n):
        pool = [str(c) for c in rng.permutation(BOX)]
        first = patched[i % len(patched)]
        if first in pool:
            pool.remove(first)
        teams = [[first, *pool[:3]], pool[3:7]]
        if i % 3 == 2:
            teams.reverse()
        ai = [ais[i % len(ais)], AIS[(i + 1) % len(AIS)]]
        if i % 2:
            ai.reverse()
        specs.append(
            {
                "keyword": keyword,
                "teams": teams,
                "board": BOARDS[i % len(BOARDS)],
                "ai": tuple(ai),
                "seed": int(rng.integers(2**31)),
                "options": {**options, **({"demonic_rewards": True} if i % 2 else {})},
            }
        )
    return specs


def _both(spec: dict[str, Any]) -> tuple[bytes, bytes]:
    registry = REGISTRIES[spec["keyword"]]
    args: dict[str, Any] = dict(
        board=spec["board"], ai=spec["ai"], seed=spec["seed"], options=spec["options"], record="full"
    )
    ours = canonical_core(play_match_core(*spec["teams"], registry=registry, **args))
    theirs = golden.canonical(play_match(*spec["teams"], registry=registry, engine="reference", **args))
    return ours, theirs


def _id(spec: dict[str, Any]) -> str:
    return f"{spec['keyword']}-{spec['ai'][0]}-{spec['ai'][1]}-{spec['seed']}"


MATCHES = [s for k in KEYWORDS for s in _specs(k, 12, 20261208, AIS, {})]
SEARCHED = [s for k in KEYWORDS for s in _specs(k, 2, 20261209, ("mcts-race",), {"turn_limit": 6})]


@pytest.mark.parametrize("spec", MATCHES, ids=_id)
def test_r_b28_blast_keywords_matches_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


@pytest.mark.parametrize("spec", SEARCHED, ids=_id)
def test_r_b28_blast_keywords_search_matches_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for k in KEYWORDS for s in _specs(k, 60, 20261210, AIS, {})], ids=_id)
def test_r_b28_blast_keywords_many_matches_are_identical(spec: dict[str, Any]) -> None:
    ours, theirs = _both(spec)
    assert ours == theirs, first_divergence(ours, theirs)


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_the_keyword_changes_the_matches_and_auto_plays_them_in_the_core(keyword: str) -> None:
    """Each registry's cards are the ones played (the shared cards give other matches on the same
    seeds), the keyword acts (a ``spell_move`` for ``move_to_target``), and ``auto`` plays them in
    the core."""
    specs = [s for s in MATCHES if s["keyword"] == keyword][:6]
    changed = moved = 0
    for spec in specs:
        args: dict[str, Any] = dict(board=spec["board"], ai=spec["ai"], seed=spec["seed"], record="full")
        mine = play_match(*spec["teams"], registry=REGISTRIES[keyword], engine="core", **args)
        shared = play_match(*spec["teams"], engine="core", **args)
        changed += golden.canonical(mine) != golden.canonical(shared)
        moved += sum(1 for e in mine.events if getattr(e, "how", None) == "spell_move")
    assert changed >= 3
    if keyword == "move_to_target":
        assert moved > 0
    spec = specs[0]
    result = play_match(*spec["teams"], registry=REGISTRIES[keyword], board=spec["board"], ai="kiter", seed=1)
    assert result.engine == "core"
