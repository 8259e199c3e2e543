"""Adding a Krosmaster is adding data: with one more figure in the content, every shipped
experiment still validates and passes its trial, and the new figure plays a match."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from krosbalance.content import registry as registry_module
from krosbalance.content.registry import Registry
from krosbalance.play import play_trial
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim import catalog
from krosbalance.sim.experiment import check_experiment
from krosbalance.sim.trial import trial_errors

ROOT = Path(__file__).resolve().parents[1]
CHARACTERS = ROOT / "krosbalance" / "content" / "data" / "characters"


@pytest.fixture
def one_more_krosmaster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A copy of a box Krosmaster under a new id, set and name, with other stats and no sources
    (the data README calls ``[characters.source]`` optional), added as a user adds a file."""
    template = sorted(CHARACTERS.glob("*.toml"))[0].read_text(encoding="utf-8")
    text = re.sub(r'(?m)^id = "[^"]+"', 'id = "robin_arrow"', template, count=1)
    text = re.sub(r'(?m)^name = "[^"]+"', 'name = "Robin Arrow"', text, count=1)
    text = re.sub(r'(?m)^set = "[^"]+"', 'set = "custom"', text, count=1)
    text = re.sub(r"(?m)^aliases = \[.*\]\n", "", text, count=1)
    text = re.sub(r"(?ms)^\[characters\.source\]\n.*?(?=^\[)", "", text, count=1)
    text = re.sub(r"(?m)^hp = \d+", "hp = 7", text, count=1)
    extra = tmp_path / "content"
    extra.mkdir()
    (extra / "robin_arrow.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(
        registry_module, "_DEFAULT", Registry(*registry_module.DEFAULT_CHARACTER_FOLDERS, extra)
    )
    catalog.arm_ruleset.cache_clear()
    yield "robin_arrow"
    catalog.arm_ruleset.cache_clear()


def test_every_shipped_experiment_validates_with_one_more_krosmaster(one_more_krosmaster: str) -> None:
    assert one_more_krosmaster in registry_module.list_characters()
    for path in sorted((ROOT / "simulations").glob("*.toml")):
        experiment, errors = check_experiment(path)
        assert errors == [], [str(e) for e in errors]
        assert experiment is not None and trial_errors(experiment, str(path)) == [], path.name


def test_the_added_krosmaster_plays_a_match(one_more_krosmaster: str) -> None:
    box = registry_module.list_characters(set="arena-box")
    teams = get_ruleset("arena").legal_teams([one_more_krosmaster, *box])
    team = next(t for t in teams if one_more_krosmaster in t)
    other = next(t for t in teams if one_more_krosmaster not in t)
    result = play_trial(list(team), list(other), ai="focus_fire", seed=3, turns=6)
    assert one_more_krosmaster in result.teams[0]
