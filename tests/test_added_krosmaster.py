"""Adding a Krosmaster is adding data: with one more figure in the content, every shipped
experiment still validates and passes its trial, and the new figure plays a match.

A shipped experiment whose first matches the figure leaves unchanged (it deals none of them the new
figure: every file today) plays, in its trial, the very matches ``tests/sim/test_trial.py`` trials
with one unused figure more in the registry: those with a search AI's arm (mcts-fair's openings on the
reference, seconds each) are left to it, and that an unused figure changes no match (a search AI's
opening) is checked here on its own, event for event; the others, and any whose first match the
figure changes (a pool it joins), are trialled here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from krosbalance.ai.registry import ai_tier
from krosbalance.content import registry as registry_module
from krosbalance.content.registry import Registry
from krosbalance.play import play_match, play_trial
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim import catalog
from krosbalance.sim.experiment import check_experiment, load_experiment
from krosbalance.sim.spec import MatchSpec
from krosbalance.sim.trial import first_match_of_each_arm, trial_errors
from krosbalance.testing.conformance import first_difference
from krosbalance.tools.builds import match_outcome

ROOT = Path(__file__).resolve().parents[1]
CHARACTERS = ROOT / "krosbalance" / "content" / "data" / "characters"
SHIPPED = sorted((ROOT / "simulations").glob("*.toml"))


@pytest.fixture(scope="module")
def first_matches_without() -> dict[str, list[MatchSpec]]:
    """Each shipped experiment's first match of each arm, with the shipped content alone."""
    catalog.arm_ruleset.cache_clear()
    return {path.name: first_match_of_each_arm(load_experiment(path)) for path in SHIPPED}


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


def test_every_shipped_experiment_validates_with_one_more_krosmaster(
    first_matches_without: dict[str, list[MatchSpec]], one_more_krosmaster: str
) -> None:
    assert one_more_krosmaster in registry_module.list_characters()
    left_to_test_trial = []
    for path in SHIPPED:
        experiment, errors = check_experiment(path)
        assert errors == [], [str(e) for e in errors]
        assert experiment is not None
        firsts = first_match_of_each_arm(experiment)
        searched = any(ai_tier(ai) == "search" for spec in firsts for ai in spec.ais)
        if searched and firsts == first_matches_without[path.name]:
            left_to_test_trial.append(path.name)  # its trial: test_trial's, and the test below
            continue
        assert trial_errors(experiment, str(path)) == [], path.name
    assert len(left_to_test_trial) < len(SHIPPED) / 2, left_to_test_trial  # most are trialled here


def test_an_unused_figure_changes_no_match(one_more_krosmaster: str) -> None:
    """The same match, event for event, with and without one more Krosmaster in the registry (a
    search AI's match on the reference, as a trial plays one): the shipped experiments the test
    above leaves to tests/sim/test_trial.py play there what they play here."""
    teams = (
        ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
        ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"],
    )
    shipped = Registry(*registry_module.DEFAULT_CHARACTER_FOLDERS)
    extended = registry_module.default_registry()
    assert one_more_krosmaster in extended.list_characters()
    assert one_more_krosmaster not in shipped.list_characters()
    played = [
        play_match(
            *teams, board="arena-elemental", ai="lookahead-fast", seed=13, record="full", registry=registry
        )
        for registry in (shipped, extended)
    ]
    assert played[0].engine == "reference" and len(played[0].events) > 50
    assert played[0].events == played[1].events, first_difference(played[0].events, played[1].events)
    assert match_outcome(played[0]) == match_outcome(played[1])


def test_the_added_krosmaster_plays_a_match(one_more_krosmaster: str) -> None:
    box = registry_module.list_characters(set="arena-box")
    teams = get_ruleset("arena").legal_teams([one_more_krosmaster, *box])
    team = next(t for t in teams if one_more_krosmaster in t)
    other = next(t for t in teams if one_more_krosmaster not in t)
    result = play_trial(list(team), list(other), ai="focus_fire", seed=3, turns=6)
    assert one_more_krosmaster in result.teams[0]
