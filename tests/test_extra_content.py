"""Adding a Krosmaster never breaks the suite, the benchmark or the team rules.

``tests/fixtures/extra_krosmasters`` holds two test Krosmasters of another set
(``krosbalance-tests``): a level-6 one that fits legal Arena teams with the box, and a level-5 one
that fits none. The fast tests below build a registry with them and exercise what enumerates
characters (the team rules, the conformance plan, a checked match, the benchmark's box splits);
the slow one runs the whole default suite with them added to the default registry
(``pytest --extra-characters tests/fixtures/extra_krosmasters``, see ``tests/conftest.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from krosbalance.content import registry as registry_module
from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDER, Registry
from krosbalance.errors import TeamError
from krosbalance.rulesets import get_ruleset
from krosbalance.testing.conformance import all_legal_teams, battery_plan, run_checked_match
from krosbalance.tools import bench

ROOT = Path(__file__).resolve().parents[1]
EXTRA = ROOT / "tests" / "fixtures" / "extra_krosmasters"
COLOSSUS, STRAGGLER = "test_colossus", "test_straggler"


@pytest.fixture(scope="module")
def extended() -> Registry:
    return Registry(DEFAULT_CHARACTER_FOLDER, EXTRA)


def test_the_extra_krosmasters_are_another_set_and_another_level(extended: Registry) -> None:
    assert extended.list_characters(set="krosbalance-tests") == [COLOSSUS, STRAGGLER]
    assert extended.list_characters(tag="tank") == [COLOSSUS]
    assert len(extended.list_characters(set="arena-box")) == 8
    assert {extended.load_character(c).level for c in (COLOSSUS, STRAGGLER)} == {5, 6}


def test_team_rules_take_the_extra_krosmasters_as_they_are(extended: Registry) -> None:
    arena = get_ruleset("arena")
    arena.validate_team([COLOSSUS, "bill_tell", "anna_tommy"], extended)
    with pytest.raises(TeamError, match="level sum 11"):
        arena.validate_team([STRAGGLER, "bill_tell", "anna_tommy"], extended)
    teams = all_legal_teams(registry=extended)
    assert any(COLOSSUS in t for t in teams) and not any(STRAGGLER in t for t in teams)
    assert len(teams) > len(all_legal_teams(extended.list_characters(set="arena-box"), extended))
    rest = ["lil_healey", "oscar_kass", "kassius_kaos", "bad_aboum"]
    splits = arena.team_splits([COLOSSUS, "bill_tell", "anna_tommy", *rest], extended)
    assert ((COLOSSUS, "bill_tell", "anna_tommy"), tuple(rest)) in splits


def test_a_checked_match_with_the_colossus_plays_to_a_result(extended: Registry) -> None:
    result = run_checked_match(
        [COLOSSUS, "bill_tell", "anna_tommy"],
        ["lil_healey", "oscar_kass", "kassius_kaos", "bad_aboum"],
        "arena-pit",
        seed=3,
        registry=extended,
    )
    assert result.winner in (0, 1, None) and result.turns >= 1


def test_battery_plan_fields_every_playable_krosmaster_early(extended: Registry) -> None:
    teams = all_legal_teams(registry=extended)
    playable = {c for team in teams for c in team}
    first = battery_plan("arena-pit", 10, teams=teams)
    assert {c for a, b, _ in first for team in (a, b) for c in team} == playable


def test_bench_box_splits_select_the_box_by_set(extended: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "_DEFAULT", extended)
    splits = bench.box_splits()
    assert len(splits) == 35 and all(COLOSSUS not in a + b for a, b in splits)


@pytest.mark.slow
def test_the_default_suite_passes_with_the_extra_krosmasters() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "-m", "not slow", "--extra-characters", str(EXTRA)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
