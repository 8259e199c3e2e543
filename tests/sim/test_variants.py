"""Experiment arms (``[[variants]]``): every deal is played under each arm on the same seed, the arm
is the matches table's ``variant``, and a bad arm gets a located message."""

from __future__ import annotations

import json
import pickle

import pytest

from krosbalance.content.registry import default_registry
from krosbalance.engine.results import MatchResult
from krosbalance.errors import ContentError
from krosbalance.play import play_match
from krosbalance.sim.catalog import arm_ruleset, options_json
from krosbalance.sim.experiment import check_experiment_text, expand, loads_experiment
from krosbalance.sim.match import play_spec, run_batch
from krosbalance.sim.tables import match_row

BASE = """
name = "arms"
master_seed = 7
matches_per_pairing = 2
boards = ["blast-a"]
ais = ["random"]
ruleset = "blast"
[teams]
mode = "random_deal"
pool = "all"
[options]
dice_faces = "basic"
"""
ARMS = """
[[variants]]
name = "none"
[[variants]]
name = "iop"
options = { challenges = ["grande_melee_de_iop"] }
"""


def test_every_deal_is_played_under_every_arm_on_the_same_seed() -> None:
    experiment = loads_experiment(BASE + ARMS)
    specs = expand(experiment)
    assert experiment.n_matches == len(specs) == 2 * 2 * 2
    assert [s.match_id for s in specs] == list(range(len(specs)))
    by_arm: dict[str, list[tuple[int, bool, tuple[str, ...]]]] = {}
    for spec in specs:
        by_arm.setdefault(spec.variant, []).append((spec.seed, spec.swapped, spec.team0))
    assert by_arm["none"] == by_arm["iop"]  # paired across arms
    options = {s.variant: s.options for s in specs}
    assert options["none"] == {"dice_faces": "basic"}
    assert options["iop"] == {"dice_faces": "basic", "challenges": ["grande_melee_de_iop"]}


def test_without_variants_one_unnamed_arm() -> None:
    specs = expand(loads_experiment(BASE))
    assert {s.variant for s in specs} == {""} and len(specs) == 4


@pytest.mark.parametrize(
    ("arms", "field"),
    [
        ('[[variants]]\nname = "a"\n[[variants]]\nname = "a"\n', "variants[1].name"),
        ('[[variants]]\nname = "a"\noptions = { challenges = ["zeus"] }\n', "variants[0].options.challenges"),
        ('[[variants]]\nname = "a"\ncolour = 1\n', "variants[0].colour"),
        ("[[variants]]\noptions = {}\n", "variants[0].name"),
    ],
)
def test_bad_arms_are_located(arms: str, field: str) -> None:
    _, errors = check_experiment_text(BASE + arms, "arms.toml")
    assert field in {e.field for e in errors}, [str(e) for e in errors]


def test_the_matches_row_carries_the_arm_and_the_rulesets_declared_values() -> None:
    spec = expand(loads_experiment(BASE + ARMS))[1]
    result = MatchResult(
        winner=0,
        end_reason="glyphs",
        turns=10,
        first_player=0,
        teams=(spec.team0, spec.team1),
        board="blast-a",
        ruleset="blast",
        seed=spec.seed,
        fighters=[],
        values={"glyphs": (3, 1), "dofus": 0},
    )
    row = match_row(spec, result)
    assert row["variant"] == spec.variant
    assert (row["glyphs0"], row["glyphs1"], row["dofus"]) == (3, 1, 0) and "extras" not in row


# --------------------------------------------------------------- one ruleset object per arm (issue 17)

THREE = """
name = "three"
master_seed = 11
matches_per_pairing = 2
boards = ["blast-a"]
ais = ["blast_glyph"]
ruleset = "blast"
[teams]
mode = "random_deal"
pool = "all"
[options]
team_size = 3
"""


def test_blast_team_size_3_random_deal_validates_and_every_match_plays() -> None:
    """R-B5 with ``team_size = 3``: validation, the deal and the matches all use the arm's ruleset
    (before, the deal and the pre-game rebuilt it without its options: every match was a TeamError)."""
    experiment, errors = check_experiment_text(THREE)
    assert errors == [] and experiment is not None
    specs = expand(experiment)
    assert specs and all(len(s.team_a) == len(s.team_b) == 3 for s in specs)
    assert all(not set(s.team_a) & set(s.team_b) for s in specs)
    batch = run_batch(specs)
    assert [row["error"] for row in batch.matches] == [""] * len(specs) and not batch.errors
    assert len(batch.fighters) >= 6 * len(specs)


def test_each_arm_deals_and_plays_under_its_own_team_size() -> None:
    arms = '[[variants]]\nname = "two"\noptions = { team_size = 2 }\n[[variants]]\nname = "three"\n'
    specs = expand(loads_experiment(THREE + arms))
    sizes = {(s.variant, len(s.team_a), len(s.team_b)) for s in specs}
    assert sizes == {("two", 2, 2), ("three", 3, 3)}
    assert {s.seed for s in specs if s.variant == "two"} == {s.seed for s in specs if s.variant == "three"}
    batch = run_batch(specs[:4])
    assert [row["error"] for row in batch.matches] == [""] * 4 and not batch.errors


def test_a_pool_too_small_for_an_arm_team_size_is_reported_on_that_arm() -> None:
    pool = default_registry().list_characters("krosmaster", game="blast")
    big = len(pool) // 2 + 1  # a random deal of two such teams needs more Krosmasters than the pool has
    arms = f'[[variants]]\nname = "ok"\n[[variants]]\nname = "big"\noptions = {{ team_size = {big} }}\n'
    _, errors = check_experiment_text(THREE.replace("team_size = 3", "team_size = 2") + arms)
    assert [e.field for e in errors] == ["teams.pool"]
    assert f"needs {2 * big} different Krosmasters" in errors[0].reason and "'big'" in errors[0].reason


def test_an_explicit_team_illegal_under_one_arm_names_the_arm() -> None:
    four = default_registry().list_characters("krosmaster", game="blast")[:4]
    pairs = json.dumps([[four[:2], four[2:]]])
    text = THREE.replace('mode = "random_deal"\npool = "all"', f'mode = "pairs"\npairs = {pairs}')
    text = text.replace("team_size = 3", "team_size = 2")
    arms = '[[variants]]\nname = "two"\n[[variants]]\nname = "three"\noptions = { team_size = 3 }\n'
    _, errors = check_experiment_text(text + arms)
    assert [e.field for e in errors] == ["teams.pairs[0][0]", "teams.pairs[0][1]"]
    assert all("a Blast team has 3" in e.reason and "variant 'three')" in e.reason for e in errors)
    _, errors = check_experiment_text(text.replace("team_size = 2", "team_size = 3"))  # one arm: no name
    assert len(errors) == 2 and "variant" not in errors[0].reason


def test_an_arm_ruleset_is_built_once_and_is_the_object_each_match_plays() -> None:
    experiment = loads_experiment(THREE)
    rules = arm_ruleset("blast", experiment.options_json)
    assert rules is arm_ruleset("blast", options_json({"team_size": 3}))
    assert rules.opts.team_size == 3
    seen: list[object] = []

    def recording_play(*args: object, ruleset: object = None, **kwargs: object) -> MatchResult:
        seen.append(ruleset)
        return play_match(*args, ruleset=ruleset, **kwargs)  # type: ignore[arg-type]

    spec = expand(experiment)[0]
    play_spec(spec, recording_play)
    assert seen == [rules]  # the very object validation built, not a rebuild by name
    copy = pickle.loads(pickle.dumps(rules))  # it travels to joblib workers
    assert copy.opts == rules.opts and copy.name == "blast"


def test_a_built_ruleset_and_options_together_are_refused() -> None:
    rules = arm_ruleset("blast", options_json({"team_size": 3}))
    with pytest.raises(ContentError, match="given built"):
        play_match(["a"], ["b"], ruleset=rules, options={"team_size": 2})


def test_arms_whose_team_rules_draw_other_teams_from_the_pool_are_refused() -> None:
    four = default_registry().list_characters("krosmaster", game="blast")[:4]
    text = THREE.replace(
        'mode = "random_deal"\npool = "all"', f'mode = "round_robin"\npool = {json.dumps(four)}'
    )
    arms = '[[variants]]\nname = "three"\n[[variants]]\nname = "two"\noptions = { team_size = 2 }\n'
    _, errors = check_experiment_text(text + arms)
    assert [e.field for e in errors] == ["teams"]
    assert "variant 'two' draws other teams" in errors[0].reason


def test_held_rewards_under_a_ruleset_without_start_rewards_fail_validation_not_the_run() -> None:
    _, errors = check_experiment_text(
        THREE.replace('ruleset = "blast"', 'ruleset = "blast"\nheld_rewards = "all"')
    )
    assert [e.field for e in errors] == ["held_rewards"]
    assert "ruleset 'blast' refuses the option start_rewards it sets" in errors[0].reason
