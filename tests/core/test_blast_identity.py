"""Whole Krosmaster Blast matches played by the native core are identical, event for event, to the
Python reference (core/src/rulesets/blast, core/src/ai/blast against krosbalance/rulesets/blast and
krosbalance/ai/blast).

- Every row of ``tests/fixtures/golden/blast-golden.jsonl`` (every Blast AI against each, both Blast
  boards, the favors, every Divine Challenge and both tier readings, terrain, tackle, the dice faces,
  ``mutual_ko``, turn limits) is replayed in the core and its canonical bytes hashed against the
  recorded SHA-256.
- Differential matches: random disjoint teams of the Blast Krosmasters (by kind and game), both Blast
  boards, option variants, every AI the core plays in Blast, seeds, on both engines; the canonical
  bytes must be equal. The search AI (``blast-lookahead``) has differential matches of its own under
  the golden's search bound (a few by default, more under ``slow``). A mismatch names the first differing event with both engines' events around it.
- ``engine="auto"`` plays a Blast match in the core; what the core does not play (an AI it does not
  know, restricted play, a full record) is refused in one line and ``auto`` hands it to the reference.
- A planted divergence (``play_blast_core(..., plant_divergence_at=k)``) is caught at event ``k``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

from krosbalance import native
from tests.core.golden_diff import first_difference
from tests.fixtures.golden import blast_golden as golden

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)
if not hasattr(core, "play_blast_match"):
    pytest.skip(
        "the installed krosbalance_core predates play_blast_match: rebuild it", allow_module_level=True
    )
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.ai.registry import ai_tier, canonical_ai, list_ais  # noqa: E402
from krosbalance.content.registry import list_boards  # noqa: E402
from krosbalance.errors import EngineError  # noqa: E402
from krosbalance.native_blast import BLAST_AIS, play_blast_core, refusal  # noqa: E402
from krosbalance.play import play_match  # noqa: E402
from krosbalance.rulesets.blast.pregame import legal_teams  # noqa: E402
from krosbalance.rulesets.registry import get_ruleset  # noqa: E402

ROWS = golden.load()
#: the golden rows whose two AIs the core plays
PLAYED = [row for row in ROWS if {canonical_ai(a) for a in row["ai"]} <= set(BLAST_AIS)]
#: option variants of the differential run, cycled (the golden's, and a few more combinations)
VARIANTS: tuple[dict[str, Any], ...] = (
    *(v for v in golden.VARIANTS if golden.CHALLENGE not in str(v)),
    {"challenges": ["random", "random"], "dice_faces": "basic", "tackle_dice_several": "per_enemy"},
    {"challenges": ["random"], "challenge_tier_reading": "alternative", "bonus_damage_combat_roll": True},
    {"fire_combat_roll": True, "terrain_on_forced_moves": False, "glyph_capture_by_slide": False},
    {"challenges": ["random", "random", "random"], "turn_limit": 8, "mutual_ko": "active_loses"},
)


def core_bytes(spec: dict[str, Any], plant: int | None = None) -> bytes:
    rules = get_ruleset("blast", spec["options"])
    result = play_blast_core(
        spec["teams"], spec["board"], spec["ai"], spec["seed"], rules, "full", plant_divergence_at=plant
    )
    assert result.engine == "core"
    return golden.canonical(result)


def difference(spec: dict[str, Any], plant: int | None = None) -> tuple[int, str] | None:
    """Where the core's log first differs from the reference's: (event index, a message with both
    engines' events around it), or None when the bytes are equal."""
    return first_difference("Blast", spec, golden.play(spec, engine="reference"), core_bytes(spec, plant))


def differential_specs(n: int, master_seed: int) -> list[dict[str, Any]]:
    """``n`` random Blast matches: two disjoint teams drawn from every legal team of the Blast
    Krosmasters, boards cycled, variants and AIs drawn, seeds from ``master_seed``."""
    rng = np.random.default_rng(master_seed)
    teams = legal_teams(golden.blast_pool(), 2)
    boards = list_boards("blast")
    ais = [
        name for name in list_ais("blast") if canonical_ai(name) in BLAST_AIS and ai_tier(name) != "search"
    ]
    specs = []
    for k in range(n):
        team0 = teams[int(rng.integers(len(teams)))]
        others = [t for t in teams if set(t).isdisjoint(team0)]
        team1 = others[int(rng.integers(len(others)))]
        specs.append(
            {
                "teams": [list(team0), list(team1)],
                "board": boards[k % len(boards)],
                "ai": [ais[int(rng.integers(len(ais)))], ais[int(rng.integers(len(ais)))]],
                "seed": int(rng.integers(2**32)),
                "options": dict(VARIANTS[int(rng.integers(len(VARIANTS)))]),
            }
        )
    return specs


def search_specs(n: int, master_seed: int) -> list[dict[str, Any]]:
    """``n`` random Blast matches of a search AI against a Blast AI (itself included), seats
    alternating, under the golden's search bound (its reference plays a player turn in a second or
    two); teams, boards and variants drawn as :func:`differential_specs`."""
    rng = np.random.default_rng(master_seed)
    teams = legal_teams(golden.blast_pool(), 2)
    boards = list_boards("blast")
    searches = [name for name in list_ais("blast") if name in BLAST_AIS and ai_tier(name) == "search"]
    others = [name for name in list_ais("blast") if name in BLAST_AIS]
    specs = []
    for k in range(n):
        team0 = teams[int(rng.integers(len(teams)))]
        team1 = [t for t in teams if set(t).isdisjoint(team0)][0]
        options = dict(VARIANTS[int(rng.integers(len(VARIANTS)))])
        options.update(golden.SEARCH_BOUND)
        pair = [searches[int(rng.integers(len(searches)))], others[int(rng.integers(len(others)))]]
        specs.append(
            {
                "teams": [list(team0), list(team1)],
                "board": boards[(k // 2) % len(boards)],
                "ai": pair if k % 2 == 0 else pair[::-1],
                "seed": int(rng.integers(2**32)),
                "options": options,
            }
        )
    return specs


def _id(spec: dict[str, Any]) -> str:
    return f"{spec['ai'][0]}-{spec['ai'][1]}-{spec['seed']}"


def test_the_core_plays_every_golden_row() -> None:
    assert PLAYED == ROWS and len(ROWS) == 158
    assert {row["board"] for row in PLAYED} == set(list_boards("blast"))
    assert {canonical_ai(a) for row in PLAYED for a in row["ai"]} == set(BLAST_AIS) == set(list_ais("blast"))


@pytest.mark.parametrize("row", PLAYED[::4], ids=_id)  # every 4th: each AI pairing, both boards
def test_blast_golden_identical_in_the_core(row: dict[str, Any]) -> None:
    data = core_bytes(row)
    assert len(data) == row["bytes"] and golden.digest(data) == row["sha256"], (
        difference(row) or (0, "the reference itself no longer matches the golden")
    )[1]


@pytest.mark.slow
@pytest.mark.parametrize("row", PLAYED, ids=_id)
def test_blast_golden_identical_in_the_core_slow(row: dict[str, Any]) -> None:
    test_blast_golden_identical_in_the_core(row)


@pytest.mark.parametrize("spec", differential_specs(40, 41_101), ids=_id)
def test_blast_differential(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.slow
@pytest.mark.parametrize("spec", differential_specs(600, 41_102), ids=_id)
def test_blast_differential_slow(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.parametrize("spec", search_specs(4, 41_103), ids=_id)
def test_blast_search_differential(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.slow
@pytest.mark.parametrize("spec", search_specs(40, 41_104), ids=_id)
def test_blast_search_differential_slow(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


def test_the_differential_covers_every_blast_board_and_ai_the_core_plays() -> None:
    specs = differential_specs(40, 41_101)
    searched = search_specs(4, 41_103)
    assert {s["board"] for s in specs} == set(list_boards("blast"))
    assert {canonical_ai(a) for s in [*specs, *searched] for a in s["ai"]} == set(BLAST_AIS)
    searches = {name for name in BLAST_AIS if ai_tier(name) == "search"}
    assert searches == {"blast-lookahead"}
    assert {seat for s in searched for seat, a in enumerate(s["ai"]) if a in searches} == {0, 1}


def test_a_planted_divergence_is_caught_at_its_event() -> None:
    spec = PLAYED[0]
    assert difference(spec) is None
    for k in (0, 7, 40):
        found = difference(spec, plant=k)
        assert found is not None and found[0] == k, found


def test_auto_plays_blast_in_the_core_and_the_reference_what_it_refuses() -> None:
    row = PLAYED[0]
    kwargs: dict[str, Any] = {"board": row["board"], "seed": 5, "ruleset": "blast", "options": row["options"]}
    played = play_match(*row["teams"], ai="random", **kwargs)
    reference = play_match(*row["teams"], ai="random", engine="reference", **kwargs)
    assert played.engine == "core" and reference.engine == "reference"
    assert played.fighters == reference.fighters and played.values == reference.values
    assert played.ruleset == reference.ruleset and played.turns == reference.turns
    # a full record keeps the reference's replay checkpoints: auto plays it on the reference
    assert play_match(*row["teams"], ai="random", record="full", **kwargs).engine == "reference"
    # restricted play is not in the core yet: refused in one line, auto falls back
    spell = get_ruleset("blast").validate_team(row["teams"][0])[0].spells[0]
    forbid = {row["teams"][0][0]: [f"spell:{spell.id}"]}
    with pytest.raises(EngineError, match="not in the core yet: restricted play"):
        play_match(*row["teams"], ai="random", forbid=forbid, engine="core", **kwargs)
    assert play_match(*row["teams"], ai="random", forbid=forbid, **kwargs).engine == "reference"


def test_an_ai_the_core_does_not_play_is_refused_in_one_line() -> None:
    assert refusal(["random", "blast-glyph", "blast-brawler", "blast-lookahead"]) is None
    assert refusal(["blast-lookahead{dice_sets=2;walks=1}", "random"]) is None  # a screen's form
    why = refusal(["random", "my-own-blast-ai"])
    assert why is not None and why.startswith("the core does not play the AI 'my-own-blast-ai' in Blast")
    assert "\n" not in why


# ---------------------------------------------------------------------------- the differential fuzz

#: the default suite's fuzz seed (tests/core/test_differential.py's) and its Blast matches played here
FUZZ_SEED = 37_2026
FUZZ_MATCHES = 2_000
FUZZ_CHUNK = 200


@cache
def fuzz_blast_specs() -> list[dict[str, Any]]:
    from krosbalance.testing.fuzz_blast import blast_specs

    return blast_specs(FUZZ_MATCHES, FUZZ_SEED)


def test_the_fuzz_draws_blast_over_every_board_ai_and_option_family() -> None:
    from krosbalance.testing.fuzz_blast import BLAST_SHARE, challenges
    from krosbalance.testing.fuzz_specs import match_specs

    drawn = match_specs(2_000, FUZZ_SEED)  # test_differential's slice
    blast = [s for s in drawn if s.get("ruleset") == "blast"]
    assert len(blast) >= BLAST_SHARE * len(drawn) / 2
    specs = fuzz_blast_specs()
    assert all(s in specs for s in blast)  # the slice's Blast matches are the stream's first ones
    assert {s["board"] for s in specs} == set(list_boards("blast"))
    assert {canonical_ai(a) for s in specs for a in s["ai"]} == set(BLAST_AIS)
    named = {c for s in specs for c in s["options"].get("challenges", ()) if c != "random"}
    assert named == {c for c, _ in challenges()}
    options = {key for s in specs for key in s["options"]}
    assert options >= {
        "challenges",
        "challenge_tiers",
        "challenge_tier_reading",
        "favor_deck_size",
        "superior_favors",
        "dice_faces",
        "tackle_zone",
        "tackle_dice_several",
        "fire_combat_roll",
        "terrain_max_per_type",
        "terrain_range",
        "ice_slide_chain",
        "terrain_on_forced_moves",
        "glyph_capture_by_effect",
        "glyph_capture_by_slide",
        "bonus_damage_combat_roll",
        "mutual_ko",
        "turn_limit",
    }


def test_the_blast_stream_leaves_the_duels_and_the_arena_matches_as_they_were(monkeypatch) -> None:
    from krosbalance.testing import fuzz_specs

    with_blast = fuzz_specs.match_specs(300, 11)
    monkeypatch.setattr(fuzz_specs, "blast_spec", lambda master_seed, k: None)
    without = fuzz_specs.match_specs(300, 11)
    kinds = [s.get("ruleset", "arena") for s in with_blast]
    assert "blast" in kinds and "duel" in kinds and "arena" in kinds
    for spec, before in zip(with_blast, without, strict=True):
        if spec.get("ruleset") == "blast":
            assert before.get("ruleset", "arena") == "arena"  # a Blast match takes an Arena match's place
        else:
            assert spec == before


@pytest.mark.parametrize("start", range(0, FUZZ_MATCHES, FUZZ_CHUNK), ids=lambda s: f"{s}-{s + FUZZ_CHUNK}")
def test_fuzz_blast_matches_are_identical_on_both_engines(start: int) -> None:
    from krosbalance.testing import differential as fuzz

    found = fuzz.run_specs(fuzz_blast_specs()[start : start + FUZZ_CHUNK])
    assert found.matches == FUZZ_CHUNK
    assert not found.errors, "the core failed on fuzz matches:\n" + "\n".join(found.errors)
    assert found.divergences == 0, found.first_divergence


def test_a_divergence_planted_in_a_fuzz_blast_match_is_reported_at_its_step() -> None:
    from krosbalance.testing import differential as fuzz

    spec = fuzz_blast_specs()[0]
    reference = fuzz.play_reference(spec)
    (clean,) = fuzz.play_core([spec])
    assert fuzz.compare(spec, clean, reference) is None
    kinds = [e.kind for e in reference.events]
    blast_kinds = ("favor_revealed", "combat_rolled", "glyph_count")
    for k in sorted({0, len(kinds) - 1, *(kinds.index(x) for x in blast_kinds if x in kinds)}):
        (planted,) = fuzz.play_core([spec], plant_divergence_at=k)
        divergence = fuzz.compare(spec, planted, reference)
        assert divergence is not None and divergence.index == k, (k, kinds[k])
        report = divergence.report()
        assert f"first differing event: step {k} " in report and f"state after step {k}" in report
