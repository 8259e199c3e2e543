"""Whole Arena matches played by the native core are identical, event for event, to the Python
reference (core/src/engine, core/src/rulesets/arena, core/src/ai/random.rs against krosbalance).

- The golden rows of ``tests/fixtures/golden/arena-golden.jsonl`` whose AIs are both ``random``
  (the engine alone, 120 rows: four option variants on three boards) are replayed in the core and
  their canonical bytes (``arena_golden.canonical``'s layout: every event with every field, then the
  result head with every fighter's counters) hashed against the recorded SHA-256. A slice runs in
  the default suite, every row under ``slow``.
- A differential test plays random teams (every legal team of the Arena roster the core knows),
  boards, option variants and seeds on both engines and compares the bytes.

On a mismatch the failure names the first differing event, its index, and both engines' events
around it.
"""

from __future__ import annotations

import hashlib
import inspect
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
if not hasattr(core, "play_arena_match"):
    pytest.skip(
        "the installed krosbalance_core predates play_arena_match: rebuild it (`make build`)",
        allow_module_level=True,
    )
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

from krosbalance.native_match import play_match_core  # noqa: E402

RANDOM_ROWS = [row for row in golden.load() if row["ai"] == ["random", "random"]]
#: the default suite's slice: every seventh row (all four option variants, all three boards)
FAST_ROWS = RANDOM_ROWS[::7]
CONTEXT = 3


def _hashed(row: dict[str, Any]) -> dict[str, Any]:
    """A fighter row as the golden hashes it: the engine's counters, kamas and GG (the Demonic
    Reward counters were never hashed)."""
    return {k: v for k, v in row.items() if not k.startswith("rewards_")}


def canonical_core(out: dict[str, Any]) -> bytes:
    """The core's result in ``arena_golden.canonical``'s bytes."""
    head = {
        "winner": out["winner"],
        "end_reason": out["end_reason"],
        "turns": out["turns"],
        "first_player": out["first_player"],
        "gg": golden._value(out["gg"]),
        "kamas": golden._value(out["kamas"]),
        "wild_gg_left": out["wild_gg_left"],
        "teams": golden._value(out["teams"]),
        "board": out["board"],
        "ruleset": out["ruleset"],
        "seed": out["seed"],
        "fighters": [golden._value(_hashed(f)) for f in out["fighters"]],
    }
    lines = [
        json.dumps([kind, golden._value(fields)], sort_keys=True, separators=(",", ":"))
        for kind, fields in out["events"]
    ]
    lines.append(json.dumps(head, sort_keys=True, separators=(",", ":")))
    return "\n".join(lines).encode("utf-8")


def core_bytes(spec: dict[str, Any]) -> bytes:
    out = play_match_core(
        spec["teams"][0],
        spec["teams"][1],
        board=spec["board"],
        ai=tuple(spec["ai"]),
        seed=spec["seed"],
        options=spec["options"],
        record="full",
    )
    return canonical_core(out)


def reference_bytes(spec: dict[str, Any]) -> bytes:
    """The reference's canonical bytes of a spec, the Python engine playing (``engine="reference"``
    where ``play_match`` offers a choice of engine)."""
    from krosbalance.play import play_match

    choice = {"engine": "reference"} if "engine" in inspect.signature(play_match).parameters else {}
    result = play_match(
        *spec["teams"],
        board=spec["board"],
        ai=tuple(spec["ai"]),
        seed=spec["seed"],
        options=spec["options"],
        record="full",
        **choice,
    )
    return golden.canonical(result)


def first_divergence(ours: bytes, theirs: bytes) -> str:
    """A readable diff: the first differing line (event, or the result head last) with both
    engines' lines around it."""
    a, b = ours.decode().split("\n"), theirs.decode().split("\n")
    index = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lo = max(0, index - CONTEXT)
    what = "the result head" if index >= min(len(a), len(b)) - 1 else f"event {index}"
    lines = [f"first divergence at line {index} ({what}; core {len(a)} lines, reference {len(b)})"]
    for name, rows in (("core", a), ("reference", b)):
        lines.append(f"--- {name}")
        for i in range(lo, min(len(rows), index + CONTEXT + 1)):
            lines.append(f"{'>' if i == index else ' '} {i:5d} {rows[i]}")
    return "\n".join(lines)


def check_golden(spec: dict[str, Any]) -> None:
    data = core_bytes(spec)
    if golden.digest(data) == spec["sha256"]:
        return
    reference = reference_bytes(spec)  # the reference plays it again, for the diff
    assert golden.digest(reference) == spec["sha256"], "the reference itself no longer matches the golden"
    pytest.fail(f"seed {spec['seed']} options {spec['options']}:\n{first_divergence(data, reference)}")


def test_the_golden_has_random_rows():
    assert len(RANDOM_ROWS) == 120
    variants = {json.dumps(row["options"], sort_keys=True) for row in FAST_ROWS}
    assert len(variants) == 4 and len({row["board"] for row in FAST_ROWS}) == 3


@pytest.mark.parametrize("spec", FAST_ROWS, ids=lambda s: str(s["seed"]))
def test_random_golden_rows_are_identical(spec):
    check_golden(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", RANDOM_ROWS, ids=lambda s: str(s["seed"]))
def test_every_random_golden_row_is_identical(spec):
    check_golden(spec)


# ---------------------------------------------------------------------------- differential

#: the Arena boards and the option variants the differential test draws from (the golden's, plus
#: a few more the core reads)
BOARDS = golden.BOARDS
VARIANTS: tuple[dict[str, Any], ...] = (
    *golden.VARIANTS,
    {"strict_corner_los": True},
    {"caster_in_own_area": False, "first_turn_tension": True},
    {"scenery_destruction": True, "bomb_armour_dice": 0, "turn_limit": 30},
    {"wild_gg": 0, "starting_gg": 3, "simultaneous_zero_gg": "play_on"},
    {"demonic_rewards": True},
    {"demonic_rewards": True, "gg_price": 30, "kama_reserve": 200},
    {"demonic_rewards": True, "reward_reveal": "staged", "element_boost_waits": True},
    {"demonic_rewards": True, "reward_refill": "none", "reward_prices": {"granite": 1, "jade": 2, "gold": 3}},
    {
        "start_rewards": [
            ["xelor_style", "pet_guardian", "raziela_sword"],
            ["sacrier_style", "set_hp_counter"],
        ],
        "start_reward_prices": [[3, 0, 2], [5]],
        "start_reward_gg_prices": [[], [1, 1]],
    },
    {
        "start_rewards": [["perfect_lock", "masqueraider_style"], ["feca_style"]],
        "purchasable_rewards": [["cra_style", "angel_bow"], ["glue"]],
        "kama_reserve": 200,
    },
    {
        "demonic_rewards": True,
        "start_rewards": [["ecaflip_style", "celestial_wand"], ["bamboozle", "lightning"]],
    },
)


def differential_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` random match specs: teams from every legal team of the Arena roster, boards, variants."""
    from krosbalance.testing.conformance import all_legal_teams

    teams = all_legal_teams()
    rng = np.random.default_rng(seed)
    specs = []
    for k in range(n):
        a, b = (teams[int(i)] for i in rng.integers(len(teams), size=2))
        specs.append(
            {
                "teams": [list(a), list(b)],
                "board": BOARDS[int(rng.integers(len(BOARDS)))],
                "ai": ["random", "random"],
                "seed": int(rng.integers(2**40)),
                "options": VARIANTS[k % len(VARIANTS)],
            }
        )
    return specs


def check_differential(spec: dict[str, Any]) -> None:
    ours, theirs = core_bytes(spec), reference_bytes(spec)
    if ours != theirs:
        pytest.fail(f"{spec}:\n{first_divergence(ours, theirs)}")


@pytest.mark.parametrize("spec", differential_specs(36, 37), ids=lambda s: str(s["seed"]))
def test_random_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", differential_specs(600, 3737), ids=lambda s: str(s["seed"]))
def test_many_random_matches_are_identical_on_both_engines(spec):
    check_differential(spec)


def test_a_planted_divergence_is_caught_and_shown():
    spec = differential_specs(1, 99)[0]
    ours = core_bytes(spec)
    lines = ours.split(b"\n")
    lines[5] = lines[5].replace(b'"turn":', b'"turn":9', 1)
    report = first_divergence(b"\n".join(lines), ours)
    assert "first divergence at line 5 (event 5" in report and report.count(">") == 2


def test_what_the_core_does_not_play_is_refused_not_played():
    from krosbalance.content.registry import default_registry
    from krosbalance.native_match import _core_board
    from krosbalance.rulesets.arena.options import punch
    from krosbalance.rulesets.registry import get_ruleset

    with pytest.raises(ValueError, match="does not play the AI"):  # every Arena AI plays in the core
        play_match_core(
            ["anna_tommy"] * 2 + ["bill_tell"] * 2, ["oscar_kass"] * 2 + ["lil_healey"] * 2, ai="blast_glyph"
        )
    registry = default_registry()
    team = [registry.load_character(n) for n in ("anna_tommy", "anna_tommy", "bill_tell", "bill_tell")]
    rules = get_ruleset("arena", {"demonic_rewards": True})
    with pytest.raises(ValueError, match="not in the core yet"):  # the one-match path has no tokens
        core.play_arena_match(
            [team, team], {}, punch(), _core_board("arena-pit"), rules.options, ["random", "random"], 1
        )


def test_named_holders_and_bad_reward_options():
    from krosbalance.errors import ContentError

    spec = {
        "teams": [
            ["anna_tommy", "bill_tell", "kassius_kaos", "oscar_kass"],
            ["bill_tell", "lil_healey", "king_of_the_gobballs", "anna_tommy"],
        ],
        "board": "bonta-2",
        "ai": ["random", "random"],
        "options": {
            "start_rewards": [["perfect_lock", "masqueraider_style"], ["feca_style", "pet_scout"]],
            "start_reward_holders": [["", "bill_tell"], ["king_of_the_gobballs"]],
        },
    }
    for seed in range(6):
        check_differential({**spec, "seed": seed})
    with pytest.raises(ContentError, match="start_rewards"):
        play_match_core(*spec["teams"], options={"start_rewards": [["no_such_token"], []]})


def test_the_core_is_deterministic_and_records_less_on_request():
    spec = differential_specs(1, 5)[0]
    full = play_match_core(*spec["teams"], board=spec["board"], seed=spec["seed"], record="full")
    again = play_match_core(*spec["teams"], board=spec["board"], seed=spec["seed"], record="full")
    none = play_match_core(*spec["teams"], board=spec["board"], seed=spec["seed"])
    assert canonical_core(full) == canonical_core(again)
    assert none["events"] == [] and none["fighters"] == full["fighters"]
    assert hashlib.sha256(canonical_core(full)).hexdigest() != ""


# ---------------------------------------------------------------------------- R-A17, R-A19


@pytest.mark.parametrize("mode", ["random_deal", "draft"])
def test_team_deals_are_identical(mode):
    from krosbalance.native_match import deal_teams_core
    from krosbalance.play import deal_teams

    pools = [golden.BOX_POOL, (*golden.BOX_POOL, "merkator", "captain_amakna", "anna_tommy", "oscar_kass")]
    for pool in pools:
        for seed in range(0, 4000, 97):
            ai = ("random", "random")
            assert deal_teams_core(mode, pool, ai, seed) == deal_teams(mode, pool, ai, seed), (pool, seed)


def test_board_choices_are_identical():
    from krosbalance.native_match import pick_board_core
    from krosbalance.play import pick_board

    specs = differential_specs(40, 19)
    same = ["anna_tommy", "bill_tell", "oscar_kass", "lil_healey"]  # equal Initiative: the coin decides
    specs += [{**s, "teams": [same, list(reversed(same))]} for s in specs[:20]]
    for k, spec in enumerate(specs):
        boards = [BOARDS[(k + i) % len(BOARDS)] for i in range(1 + k % 3)]
        args = (boards, *spec["teams"])
        assert pick_board_core(*args, seed=spec["seed"]) == pick_board(*args, seed=spec["seed"]), spec


def dealt_spec(k: int) -> dict[str, Any]:
    """A match as the golden plan deals it (R-A17 teams, R-A19 board), by the reference."""
    from krosbalance.play import deal_teams, pick_board

    seed = 7_000_000 + k
    mode = ("random_deal", "draft")[k % 2]
    team0, team1 = deal_teams(mode, golden.BOX_POOL, ("random", "random"), seed)
    candidates = [BOARDS[k % len(BOARDS)], BOARDS[(k + 3) % len(BOARDS)]]
    board = pick_board(candidates, team0, team1, ai=("random", "random"), seed=seed)
    return {
        "teams": [list(team0), list(team1)],
        "board": board,
        "ai": ["random", "random"],
        "seed": seed,
        "options": VARIANTS[k % len(VARIANTS)],
        "deal": mode,
        "board_choice": candidates,
    }


@pytest.mark.parametrize("k", range(6))
def test_dealt_matches_are_identical_from_deal_to_end(k):
    from krosbalance.native_match import deal_teams_core, pick_board_core

    spec = dealt_spec(k)
    teams = deal_teams_core(spec["deal"], golden.BOX_POOL, ("random", "random"), spec["seed"])
    board = pick_board_core(spec["board_choice"], *teams, seed=spec["seed"])
    assert [list(teams[0]), list(teams[1])] == spec["teams"] and board == spec["board"]
    check_differential(spec)


# ---------------------------------------------------------------------------- four players

FOUR_BOARDS = ("arena-elemental", "arena-pit", "bonta-1")
FOUR_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"first_turn_tension": True},
    {"turn_limit": 12, "turn_limit_result": "gg"},
    {"lock_block_ends_turn": False},
    {"gg_price": 4, "kama_reserve": 30},
    {"zero_gg_loses": True, "four_player_wild_gg": 1},
    {"simultaneous_zero_gg": "play_on", "four_player_gg": 1},
    {"demonic_rewards": True},
    {"demonic_rewards": True, "reward_prices": {"granite": 1, "jade": 2, "gold": 3}, "kama_reserve": 200},
)


def four_player_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` four-player matches (free-for-all and two versus two alternately): teams from every
    legal four-player team of the Arena roster, boards with four start zones, variants, seeds."""
    from krosbalance.content.registry import default_registry
    from krosbalance.rulesets.registry import get_ruleset

    names = default_registry().list_characters(game="arena")
    rng = np.random.default_rng(seed)
    specs = []
    for k in range(n):
        mode = ("free_for_all", "two_vs_two")[k % 2]
        legal = get_ruleset("arena", {"mode": mode}).all_teams(names)
        teams = [list(legal[int(i)]) for i in rng.integers(len(legal), size=4)]
        specs.append(
            {
                "teams": teams,
                "board": FOUR_BOARDS[int(rng.integers(len(FOUR_BOARDS)))],
                "ai": ["random"] * 4,
                "seed": int(rng.integers(2**40)),
                "options": {"mode": mode, **FOUR_VARIANTS[k % len(FOUR_VARIANTS)]},
            }
        )
    return specs


def check_four(spec: dict[str, Any]) -> None:
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


@pytest.mark.parametrize(
    "spec", four_player_specs(14, 4), ids=lambda s: f"{s['options']['mode']}-{s['seed']}"
)
def test_four_player_matches_are_identical_on_both_engines(spec):
    check_four(spec)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", four_player_specs(300, 44), ids=lambda s: f"{s['options']['mode']}-{s['seed']}"
)
def test_many_four_player_matches_are_identical_on_both_engines(spec):
    check_four(spec)


def test_four_player_board_choices_are_identical():
    from krosbalance.native_match import pick_board_core
    from krosbalance.play import pick_board

    for k, spec in enumerate(four_player_specs(24, 8)):
        boards = [FOUR_BOARDS[(k + i) % len(FOUR_BOARDS)] for i in range(2 + k % 2)]
        args = (boards, *spec["teams"])
        kwargs = {"seed": spec["seed"], "options": spec["options"]}
        assert pick_board_core(*args, **kwargs) == pick_board(*args, **kwargs), spec


# ---------------------------------------------------------------------------- restricted play


def restricted_specs(n: int, seed: int) -> list[dict[str, Any]]:
    """Random matches where one character present loses one or two of its elements (a spell, a power
    or an action), as the restricted-play study forbids them."""
    from krosbalance.content.registry import default_registry
    from krosbalance.engine.restriction import elements_of
    from krosbalance.rulesets.registry import get_ruleset

    rules = get_ruleset("arena", {})
    rng = np.random.default_rng(seed)
    specs = differential_specs(n, seed)
    for spec in specs:
        name = spec["teams"][int(rng.integers(2))][0]
        elements = elements_of(default_registry().load_character(name), rules)
        picked = [elements[int(i)] for i in rng.permutation(len(elements))[: 1 + int(rng.integers(2))]]
        spec["forbid"] = {name: picked}
    return specs


def check_restricted(spec: dict[str, Any]) -> None:
    from krosbalance.play import play_match

    choice = {"engine": "reference"} if "engine" in inspect.signature(play_match).parameters else {}
    args = {"board": spec["board"], "seed": spec["seed"], "options": spec["options"], "record": "full"}
    ours = canonical_core(play_match_core(*spec["teams"], forbid=spec["forbid"], **args))
    theirs = golden.canonical(play_match(*spec["teams"], forbid=spec["forbid"], **args, **choice))
    if ours != theirs:
        pytest.fail(f"{spec}:\n{first_divergence(ours, theirs)}")


@pytest.mark.parametrize("spec", restricted_specs(12, 12), ids=lambda s: str(s["forbid"]))
def test_restricted_matches_are_identical(spec):
    check_restricted(spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", restricted_specs(200, 1212), ids=lambda s: f"{s['seed']}-{s['forbid']}")
def test_many_restricted_matches_are_identical(spec):
    check_restricted(spec)


def test_a_bad_restriction_is_the_references_error():
    from krosbalance.errors import ContentError

    with pytest.raises(ContentError, match="no spell"):
        play_match_core(
            ["anna_tommy"] * 2 + ["bill_tell"] * 2,
            ["oscar_kass"] * 2 + ["lil_healey"] * 2,
            forbid={"anna_tommy": ["spell:nothing"]},
        )


def test_a_batch_gives_what_single_matches_give_on_any_number_of_threads():
    from krosbalance.native_match import play_many_core

    specs = differential_specs(10, 2024) + four_player_specs(4, 2025)
    specs[3] = {**specs[3], "forbid": {specs[3]["teams"][0][0]: ["action:pick_kama"]}}
    singles = [
        canonical_core(
            play_match_core(
                *s["teams"],
                board=s["board"],
                ai=tuple(s["ai"]),
                seed=s["seed"],
                options=s["options"],
                record="full",
                forbid=s.get("forbid"),
            )
        )
        for s in specs
    ]
    for threads in (1, 2):
        batch = play_many_core(specs, record="full", threads=threads)
        assert [canonical_core(row) for row in batch] == singles
    rows = play_many_core([{**specs[0], "ai": "blast_glyph"}, specs[1]])
    assert "does not play the AI" in rows[0]["error"] and rows[0]["seed"] == specs[0]["seed"]
    assert (
        rows[1]["winner"]
        == play_match_core(
            *specs[1]["teams"], board=specs[1]["board"], seed=specs[1]["seed"], options=specs[1]["options"]
        )["winner"]
    )
