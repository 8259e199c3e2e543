"""The core's random streams are numpy's, draw for draw (core/src/rng).

Every stream of a reference match is a child of ``SeedSequence(seed)`` (play.py's ``match_streams``,
sim/seeding.py's deal seeds) drawn through ``np.random.default_rng`` (PCG64). The reference draws with
exactly these calls, and each is compared here with the same arguments and sizes:

- ``integers(0, 6, size=512)``: SeededDice's blocks, lookahead's dice sets, mcts's world faces;
- ``integers(n)`` for small ``n``: the random AI's picks, ``first_player`` (``integers(2)``);
- ``integers(2**63)``: the market's stream seed; ``integers(0, 2**62, size=worlds)``: mcts's deal
  seeds (each then seeds ``default_rng(deal)``); ``integers(2**31)``: ai/diagnostics' seeds;
- ``permutation(n)``: deals, the market's token order, four-player seats, deployment orders, the
  random AI's orders, determinization's redeal.

``random()``, ``shuffle`` and a few more ranges (``integers(1, 3)``, scalar ``integers(0, 2**62)``, the
edges of numpy's paths) are compared too, though the reference no longer draws them.

PCG64 hands out 32-bit words from a buffer that outlives a call (a small ``integers`` draw after an odd
number of words uses the high half of the previous output), so the strongest test interleaves the
methods in random orders and compares every value and the final bit-generator state.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from krosbalance.play import STREAMS, match_streams
from krosbalance.sim.seeding import deal_seed

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)

#: (low, high) of every integers() call the reference makes, plus the edges of numpy's paths: a span
#: of exactly 2**32 - 1 (raw 32-bit words), just above it (64-bit Lemire), the full int64 span (raw
#: 64-bit words), a one-value range (no draw at all) and negative lows.
RANGES: list[tuple[int, int | None]] = [
    (0, 6),
    (2, None),
    (1, 3),
    (2**31, None),
    (2**63, None),
    (0, 2**62),
    *((n, None) for n in (1, 3, 5, 7, 13, 40, 100, 1000)),
    (0, 2**32),
    (0, 2**32 + 1),
    (-(2**63), 2**63),
    (5, 6),
    (-7, 7),
    (-(2**40), 2**40),
]
#: sizes: a scalar, small arrays, mcts's worlds (8 by default, 16) and the 512-face blocks
SIZES = [None, 1, 2, 3, 7, 8, 16, 512]

seeds = st.integers(min_value=0, max_value=2**64 - 1)
big_ints = st.integers(min_value=0, max_value=2**200)
spawn_keys = st.lists(st.integers(min_value=0, max_value=2**64 - 1), max_size=3).map(tuple)


def pair(seed: int | np.random.SeedSequence) -> tuple[np.random.Generator, object]:
    """numpy's default_rng and the core's Generator for one seed (an int or a SeedSequence)."""
    if isinstance(seed, np.random.SeedSequence):
        mirror = core.SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
        return np.random.default_rng(seed), core.Generator(mirror)
    return np.random.default_rng(seed), core.Generator(seed)


def numpy_state(rng: np.random.Generator) -> dict[str, object]:
    state = dict(rng.bit_generator.state)
    state["state"] = dict(state["state"])
    return state


# ------------------------------------------------------------------------------- SeedSequence


@settings(max_examples=300)
@given(entropy=st.one_of(big_ints, st.lists(big_ints, min_size=1, max_size=6)), key=spawn_keys)
def test_seed_sequence_pool_and_state_words_match_numpy(entropy, key):
    ours = core.SeedSequence(entropy, spawn_key=key)
    theirs = np.random.SeedSequence(entropy, spawn_key=key)
    assert ours.pool == theirs.pool.tolist()
    assert ours.spawn_key == theirs.spawn_key
    for n in (1, 4, 9):
        assert ours.generate_state(n) == theirs.generate_state(n).tolist()
        assert ours.generate_state(n, "uint64") == theirs.generate_state(n, np.uint64).tolist()


@settings(max_examples=200)
@given(seed=seeds, first=st.integers(0, 6), second=st.integers(0, 6))
def test_spawned_children_match_numpy_across_calls(seed, first, second):
    ours, theirs = core.SeedSequence(seed), np.random.SeedSequence(seed)
    for n in (first, second):
        mine, numpys = ours.spawn(n), theirs.spawn(n)
        assert [c.spawn_key for c in mine] == [c.spawn_key for c in numpys]
        assert [c.generate_state(4, "uint64") for c in mine] == [
            c.generate_state(4, np.uint64).tolist() for c in numpys
        ]
        grandchildren = [c.spawn(3) for c in mine]
        assert [[g.pool for g in gs] for gs in grandchildren] == [
            [g.pool.tolist() for g in c.spawn(3)] for c in numpys
        ]
    assert ours.n_children_spawned == theirs.n_children_spawned


@settings(max_examples=200)
@given(seed=st.integers(0, 2**63 - 1), seats=st.sampled_from([2, 4]))
def test_a_matchs_streams_seed_the_same_generators(seed, seats):
    """play.py's streams (set-up, dice, each AI, pregame, and the pregame's three children) give the
    same PCG64 state in the core as in numpy."""
    streams = match_streams(seed, seats)
    root = core.SeedSequence(seed)
    mine = dict(zip(streams, root.spawn(len(streams)), strict=True))
    assert list(streams)[: len(STREAMS)] == list(STREAMS)
    for name, seq in streams.items():
        assert core.Generator(mine[name]).state == numpy_state(np.random.default_rng(seq))
    pregame = zip(mine["pregame"].spawn(3), streams["pregame"].spawn(3), strict=True)
    for ours, theirs in pregame:
        assert core.Generator(ours).state == numpy_state(np.random.default_rng(theirs))


@settings(max_examples=200)
@given(master=seeds, deal=st.integers(0, 2**40))
def test_deal_seeds_derive_alike(master, deal):
    """sim/seeding.py's deal seed: child ``deal`` of ``SeedSequence(master)``, first 64-bit word >> 1."""
    child = core.SeedSequence(master, spawn_key=(deal,))
    assert child.generate_state(1, "uint64")[0] >> 1 == deal_seed(master, deal)


# ------------------------------------------------------------------------------- PCG64 and draws


@settings(max_examples=300)
@given(seed=st.one_of(seeds, big_ints))
def test_default_rng_seeds_pcg64_like_numpy(seed):
    theirs, ours = pair(seed)
    assert ours.state == numpy_state(theirs)


@pytest.mark.parametrize(("low", "high"), RANGES)
@pytest.mark.parametrize("size", SIZES)
def test_integers_match_numpy_for_every_range_and_size(low, high, size):
    """40 seeds x 20 calls of each (range, size): 8.8 million values over the 160 cases."""
    for seed in range(40):
        theirs, ours = pair(seed)
        for _ in range(20):
            expected = theirs.integers(low, high, size=size)
            got = ours.integers(low, high, size=size)
            assert got == (int(expected) if size is None else expected.tolist())
        assert ours.state == numpy_state(theirs)


def test_the_dice_stream_matches_numpy_for_many_matches():
    """SeededDice draws blocks of 512 faces from the match's dice stream: 200 matches x 8 blocks."""
    for seed in range(200):
        dice = match_streams(seed)["dice"]
        theirs = np.random.default_rng(dice)
        ours = core.Generator(core.SeedSequence(seed).spawn(2)[1])
        for _ in range(8):
            assert ours.integers(0, 6, size=512) == theirs.integers(0, 6, size=512).tolist()


@pytest.mark.parametrize("n", [*range(0, 34), 64, 100, 257, 1000])
def test_permutations_match_numpy(n):
    for seed in range(30):
        theirs, ours = pair(seed)
        for _ in range(5):
            assert ours.permutation(n) == theirs.permutation(n).tolist()
        assert ours.state == numpy_state(theirs)


def test_random_matches_numpy_exactly():
    for seed in range(50):
        theirs, ours = pair(seed)
        assert ours.random(size=1000) == theirs.random(size=1000).tolist()
        assert [ours.random() for _ in range(101)] == [theirs.random() for _ in range(101)]
        assert ours.state == numpy_state(theirs)


def test_shuffle_matches_numpy():
    for seed in range(30):
        theirs, ours = pair(seed)
        items = list(range(50))
        array = np.arange(50)
        ours.shuffle(items)
        theirs.shuffle(array)
        assert items == array.tolist()


def test_bad_ranges_raise_like_numpy():
    ours = core.Generator(0)
    theirs = np.random.default_rng(0)
    for args in [(0,), (5, 5), (6, 2), (2**63 + 1,), (-(2**63) - 1, 0)]:
        with pytest.raises(ValueError):
            theirs.integers(*args)
        with pytest.raises(ValueError):
            ours.integers(*args)
    assert ours.integers(5, 5, size=0) == [] and theirs.integers(5, 5, size=0).tolist() == []


def test_a_search_activations_draws_match_numpy():
    """mcts's draws for one activation from the seat's AI stream (core/src/ai/search/mcts.rs): eight
    worlds of 512 faces, eight deal seeds below 2**62, then each world's redeal, a permutation per
    rank from ``default_rng(deal)``; lookahead's dice sets are the first kind alone."""
    for seed in range(20):
        stream = match_streams(seed)["ai0"]
        theirs = np.random.default_rng(stream)
        ours = core.Generator(core.SeedSequence(seed).spawn(3)[2])
        for _ in range(3):  # three searched activations in a row
            for _ in range(8):
                assert ours.integers(0, 6, size=512) == theirs.integers(0, 6, size=512).tolist()
            deals = theirs.integers(0, 2**62, size=8)
            assert ours.integers(0, 2**62, size=8) == deals.tolist()
            for deal in deals.tolist():
                world, mirror = np.random.default_rng(deal), core.Generator(deal)
                for n in (9, 2, 7):  # one pool per rank
                    assert mirror.permutation(n) == world.permutation(n).tolist()
        assert ours.state == numpy_state(theirs)


# One draw of an interleaved program: a method and its arguments, as the reference calls them.
draw_calls = st.one_of(
    st.tuples(st.just("integers"), st.sampled_from(RANGES), st.sampled_from(SIZES)),
    st.tuples(st.just("permutation"), st.integers(0, 40), st.none()),
    st.tuples(st.just("random"), st.none(), st.sampled_from([None, 1, 5])),
)


def run(rng, call) -> object:
    method, arg, size = call
    if method == "integers":
        low, high = arg
        out = rng.integers(low, high, size=size)
    elif method == "permutation":
        out = rng.permutation(arg)
    else:
        out = rng.random(size=size)
    # numpy returns arrays and numpy scalars, the core lists and Python numbers
    return out.tolist() if isinstance(out, np.ndarray | np.generic) else out


@settings(max_examples=400)
@given(
    seed=st.one_of(seeds, st.builds(np.random.SeedSequence, seeds, spawn_key=spawn_keys)),
    program=st.lists(draw_calls, min_size=1, max_size=60),
)
def test_interleaved_draws_match_numpy(seed, program):
    """Any order of the reference's draw methods: the same values and the same final state (the 32-bit
    buffer carries across calls)."""
    theirs, ours = pair(seed)
    for call in program:
        assert run(ours, call) == run(theirs, call), call
    assert ours.state == numpy_state(theirs)
