"""Whole Duel Pack matches played by the native core are identical, event for event, to the Python
reference (core/src/rulesets/duel, core/src/ai/duel against krosbalance/rulesets/duel and
krosbalance/ai/duel).

- Every row of ``tests/fixtures/golden/duel-golden.jsonl`` (one figure and two, the plain and the
  tactical draft, both duel boards, every duel AI, the duel options) is replayed in the core and its
  canonical bytes (``duel_golden.canonical``) hashed against the recorded SHA-256.
- Differential matches: random legal teams of the duel pool (the Duel Pack's Krosmasters and the
  box's, by set and game), every duel board, option variants, every AI the core plays in a duel,
  seeds, on both engines; the canonical bytes must be equal. A mismatch names the first differing
  event with both engines' events around it.
- ``engine="auto"`` plays a duel in the core; what the core does not play (an AI of another kind,
  restricted play) is refused in one line and ``auto`` hands it to the reference.
- A planted divergence (``play_duel_core(..., plant_divergence_at=k)``) is caught at event ``k``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from krosbalance import native
from tests.core.golden_diff import first_difference
from tests.fixtures.golden import duel_golden as golden

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)
if not hasattr(core, "play_duel_match"):
    pytest.skip(
        "the installed krosbalance_core predates play_duel_match: rebuild it", allow_module_level=True
    )
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.ai.registry import ai_tier, list_ais  # noqa: E402
from krosbalance.content.registry import list_boards  # noqa: E402
from krosbalance.errors import EngineError  # noqa: E402
from krosbalance.native_duel import DUEL_AIS, play_duel_core  # noqa: E402
from krosbalance.play import play_match  # noqa: E402
from krosbalance.rulesets.duel.pregame import legal_teams  # noqa: E402
from krosbalance.rulesets.registry import get_ruleset  # noqa: E402
from krosbalance.testing.duel import duel_registry  # noqa: E402

ROWS = golden.load()
#: the duel AIs of the search tier (their differential runs under a turn bound)
SEARCHES = {name for name in list_ais("duel") if ai_tier(name) == "search"}
#: option variants of the differential run, cycled (the golden's, and a few more combinations)
VARIANTS: tuple[dict[str, Any], ...] = (
    *golden.VARIANTS,
    {"draft_overshoot": True, "reveal_applies_this_turn": False, "punch": True},
    {"start_token_levels": [4], "draft_max_tokens": 1},
    {"turn_limit": 6, "turn_limit_result": "hp", "neutral_critical_power": False},
)


def core_bytes(spec: dict[str, Any], plant: int | None = None) -> bytes:
    rules = get_ruleset("duel", spec["options"])
    result = play_duel_core(
        spec["teams"], spec["board"], spec["ai"], spec["seed"], rules, "full", plant_divergence_at=plant
    )
    assert result.engine == "core"
    return golden.canonical(result)


def difference(spec: dict[str, Any], plant: int | None = None) -> tuple[int, str] | None:
    """Where the core's log first differs from the reference's: (event index, a message with both
    engines' events around it), or None when the bytes are equal."""
    return first_difference("duel", spec, golden.play(spec, engine="reference"), core_bytes(spec, plant))


def differential_specs(n: int, master_seed: int) -> list[dict[str, Any]]:
    """``n`` random duels: teams drawn from every legal team of the duel pool, boards, figures,
    drafts, variants and AIs cycled, seeds from ``master_seed``."""
    rng = np.random.default_rng(master_seed)
    pool = golden.duel_pool()
    teams = {figures: legal_teams(pool, figures) for figures in (1, 2)}
    boards = list_boards("duel")
    ais = [name for name in list_ais("duel") if name in DUEL_AIS and ai_tier(name) != "search"]
    specs = []
    for k in range(n):
        figures = 1 + k % 2
        deck = teams[figures]
        options = {"figures": figures, "draft": ("plain", "tactical")[(k // 2) % 2]}
        options.update(VARIANTS[int(rng.integers(len(VARIANTS)))])
        specs.append(
            {
                "teams": [list(deck[int(rng.integers(len(deck)))]), list(deck[int(rng.integers(len(deck)))])],
                "board": boards[(k // 4) % len(boards)],
                "ai": [ais[int(rng.integers(len(ais)))], ais[int(rng.integers(len(ais)))]],
                "seed": int(rng.integers(2**32)),
                "options": options,
            }
        )
    return specs


def search_specs(n: int, master_seed: int) -> list[dict[str, Any]]:
    """``n`` random duels of a search AI against a duel AI of another tier (or itself), seats
    alternating, under the golden's search bound (``SEARCH_BOUND``: its reference plays a game turn
    in seconds); teams, boards, figures, drafts and variants drawn as :func:`differential_specs`."""
    rng = np.random.default_rng(master_seed)
    pool = golden.duel_pool()
    teams = {figures: legal_teams(pool, figures) for figures in (1, 2)}
    boards = list_boards("duel")
    searches = [name for name in list_ais("duel") if name in DUEL_AIS and ai_tier(name) == "search"]
    others = [name for name in list_ais("duel") if name in DUEL_AIS]
    specs = []
    for k in range(n):
        figures = 1 + k % 2
        deck = teams[figures]
        options = {"figures": figures, "draft": ("plain", "tactical")[(k // 2) % 2]}
        options.update(VARIANTS[int(rng.integers(len(VARIANTS)))])
        options.update(golden.SEARCH_BOUND)
        pair = [searches[int(rng.integers(len(searches)))], others[int(rng.integers(len(others)))]]
        specs.append(
            {
                "teams": [list(deck[int(rng.integers(len(deck)))]), list(deck[int(rng.integers(len(deck)))])],
                "board": boards[(k // 4) % len(boards)],
                "ai": pair if k % 4 < 2 else pair[::-1],
                "seed": int(rng.integers(2**32)),
                "options": options,
            }
        )
    return specs


def _id(spec: dict[str, Any]) -> str:
    return f"{spec['ai'][0]}-{spec['ai'][1]}-{spec['seed']}"


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_duel_golden_identical_in_the_core(row: dict[str, Any]) -> None:
    data = core_bytes(row)
    assert len(data) == row["bytes"] and golden.digest(data) == row["sha256"], (
        difference(row) or (0, "the reference itself no longer matches the golden")
    )[1]


@pytest.mark.parametrize("spec", differential_specs(60, 41_001), ids=_id)
def test_duel_differential(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.slow
@pytest.mark.parametrize("spec", differential_specs(1000, 41_002), ids=_id)
def test_duel_differential_slow(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.parametrize("spec", search_specs(4, 41_003), ids=_id)
def test_duel_search_differential(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


@pytest.mark.slow
@pytest.mark.parametrize("spec", search_specs(60, 41_004), ids=_id)
def test_duel_search_differential_slow(spec: dict[str, Any]) -> None:
    found = difference(spec)
    assert found is None, found[1]


def test_the_differential_covers_every_duel_board_ai_and_team_size() -> None:
    specs = differential_specs(60, 41_001)
    searched = search_specs(4, 41_003)
    assert {s["board"] for s in specs} == set(list_boards("duel"))
    assert set(DUEL_AIS) == set(list_ais("duel"))
    assert {a for s in [*specs, *searched] for a in s["ai"]} == set(DUEL_AIS)
    assert {s["options"]["figures"] for s in searched} == {1, 2}
    assert {seat for s in searched for seat, a in enumerate(s["ai"]) if a in SEARCHES} == {0, 1}
    assert {(s["options"]["figures"], s["options"]["draft"]) for s in specs} == {
        (f, d) for f in (1, 2) for d in ("plain", "tactical")
    }


def test_a_planted_divergence_is_caught_at_its_event() -> None:
    spec = ROWS[0]
    assert difference(spec) is None
    for k in (0, 7, 40):
        found = difference(spec, plant=k)
        assert found is not None and found[0] == k, found


def test_auto_plays_a_duel_in_the_core_and_the_reference_what_it_refuses() -> None:
    a, b = golden.duel_pool()[:2]
    board = list_boards("duel")[0]
    kwargs: dict[str, Any] = {"board": board, "seed": 5, "ruleset": "duel"}
    played = play_match([a], [b], ai="duel-brawler", **kwargs)
    reference = play_match([a], [b], ai="duel-brawler", engine="reference", **kwargs)
    assert played.engine == "core" and reference.engine == "reference"
    assert played.fighters == reference.fighters and played.values == reference.values
    assert played.ruleset == reference.ruleset and played.turns == reference.turns
    # a full record keeps the reference's replay checkpoints: auto plays it on the reference
    assert play_match([a], [b], ai="random", record="full", **kwargs).engine == "reference"
    # restricted play is not in the core yet: refused in one line, auto falls back
    spell = get_ruleset("duel").validate_team([a], duel_registry())[0].spells[0]
    forbid = {a: [f"spell:{spell.id}"]}
    with pytest.raises(EngineError, match="not in the core yet: restricted play"):
        play_match([a], [b], ai="random", forbid=forbid, engine="core", **kwargs)
    assert play_match([a], [b], ai="random", forbid=forbid, **kwargs).engine == "reference"


# ---------------------------------------------------------------------------- the differential fuzz


def test_the_fuzz_draws_duels_over_every_board_ai_team_size_and_draft() -> None:
    from krosbalance.testing.fuzz_specs import match_specs

    duels = [s for s in match_specs(2_000, 37_2026) if s.get("ruleset") == "duel"]  # test_differential's
    assert len(duels) >= 200
    assert {s["board"] for s in duels} == set(list_boards("duel"))
    assert {a for s in duels for a in s["ai"]} == set(DUEL_AIS)
    assert {(s["options"]["figures"], s["options"]["draft"]) for s in duels} == {
        (f, d) for f in (1, 2) for d in ("plain", "tactical")
    }
    drawn = {key for s in duels for key in s["options"]}
    assert {"start_token_levels", "turn_limit_result", "punch", "draft_overshoot"} <= drawn


def test_a_divergence_planted_in_a_fuzz_duel_is_reported_at_its_step() -> None:
    from krosbalance.testing import differential as fuzz
    from krosbalance.testing.fuzz_specs import match_specs

    spec = next(s for s in match_specs(200, 5) if s.get("ruleset") == "duel")
    reference = fuzz.play_reference(spec)
    (clean,) = fuzz.play_core([spec])
    assert fuzz.compare(spec, clean, reference) is None
    kinds = [e.kind for e in reference.events]
    for k in sorted({0, len(kinds) - 1, kinds.index("token_drafted"), kinds.index("turn_ended")}):
        (planted,) = fuzz.play_core([spec], plant_divergence_at=k)
        divergence = fuzz.compare(spec, planted, reference)
        assert divergence is not None and divergence.index == k, (k, kinds[k])
        report = divergence.report()
        assert f"first differing event: step {k} " in report and f"state after step {k}" in report
