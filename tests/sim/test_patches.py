"""Balance patches (krosbalance.sim.patches): validated like content, applied without mutating the
shared registry, carried by the arm's match specs and recorded in the fingerprint and manifest."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.content.registry import default_registry, list_characters
from krosbalance.errors import ContentError, ExperimentError
from krosbalance.sim.experiment import expand, loads_experiment
from krosbalance.sim.patched_cards import apply_patch, patched_registry
from krosbalance.sim.patches import (
    load_patch,
    merge_patches,
    parse_patch,
    patch_from_json,
    patch_manifest,
    shipped_patches,
)
from krosbalance.sim.runner import fingerprint


def _box_figure_with_spell() -> tuple[str, str]:
    """A box Krosmaster and one of its spells that is not melee or personal (any card will do)."""
    for char_id in list_characters(set="arena-box"):
        for spell in default_registry().load_character(char_id).spells:
            if spell.range_type not in ("melee", "personal"):
                return char_id, spell.id
    pytest.skip("no box Krosmaster with a ranged spell")


def _melee_spell() -> tuple[str, str]:
    for char_id in list_characters(set="arena-box"):
        for spell in default_registry().load_character(char_id).spells:
            if spell.range_type == "melee":
                return char_id, spell.id
    pytest.skip("no box Krosmaster with a melee spell")


def test_a_patch_gives_a_new_registry_and_leaves_the_shared_one_alone() -> None:
    char_id, spell_id = _box_figure_with_spell()
    shipped = default_registry().load_character(char_id)
    old_cost = shipped.spell(spell_id).ap_cost
    patch = parse_patch(
        {
            "characters": {
                shipped.name: {"hp": shipped.hp + 1, "spells": {spell_id: {"ap_cost": old_cost + 1}}}
            }
        },
        "p.toml",
    )
    patched = apply_patch(patch).load_character(char_id)
    assert patched.hp == shipped.hp + 1
    assert patched.spell(spell_id).ap_cost == old_cost + 1
    assert patched.version.endswith("+p")  # the patched card says it is patched
    again = default_registry().load_character(char_id)
    assert (again.hp, again.spell(spell_id).ap_cost) == (shipped.hp, old_cost)
    assert patch.lines()[0] == f"{shipped.name}: HP {shipped.hp} → {shipped.hp + 1}"


def test_a_patch_resolves_names_so_two_spellings_are_one_patch() -> None:
    char_id = list_characters(set="arena-box")[0]
    spec = default_registry().load_character(char_id)
    by_id = parse_patch({"characters": {char_id: {"mp": spec.mp + 1}}}, "a.toml", name="x")
    by_name = parse_patch({"characters": {spec.name.upper(): {"mp": spec.mp + 1}}}, "b.toml", name="x")
    assert by_id.json == by_name.json


def test_a_power_is_added_and_removed() -> None:
    char_id = next(c for c in list_characters(set="arena-box") if default_registry().load_character(c).powers)
    spec = default_registry().load_character(char_id)
    kind = spec.powers[0].kind
    removed = apply_patch(parse_patch({"characters": {char_id: {"powers": {kind: False}}}}, "p.toml"))
    assert not removed.load_character(char_id).has_power(kind)
    other = next(
        c
        for c in list_characters(set="arena-box")
        if not default_registry().load_character(c).has_power("dodge")
    )
    added = apply_patch(parse_patch({"characters": {other: {"powers": {"dodge": True}}}}, "p.toml"))
    assert added.load_character(other).has_power("dodge")


def test_a_reward_rank_is_patched() -> None:
    reward = default_registry().all_rewards()[0]
    rank = "gold" if reward.rank != "gold" else "granite"
    patched = apply_patch(parse_patch({"rewards": {reward.id: {"rank": rank}}}, "p.toml"))
    assert patched.load_reward(reward.id).rank == rank
    assert default_registry().load_reward(reward.id).rank == reward.rank


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"characters": {"no_such_figure": {"hp": 3}}}, "characters.no_such_figure", "unknown character"),
        (
            {"characters": {"{fig}": {"spells": {"no_such_spell": {"ap_cost": 1}}}}},
            "characters.{fig}.spells.no_such_spell",
            "has no spell",
        ),
        ({"characters": {"{fig}": {"charisma": 3}}}, "characters.{fig}.charisma", "unknown field"),
        ({"characters": {"{fig}": {"level": 4}}}, "characters.{fig}.level", "never changes a level"),
        ({"characters": {"{fig}": {"hp": 0}}}, "characters.{fig}.hp", "out of range"),
        ({"characters": {"{fig}": {"hp": 500}}}, "characters.{fig}.hp", "out of range"),
        ({"characters": {"{fig}": {"ap": "six"}}}, "characters.{fig}.ap", "must be an integer"),
        (
            {"characters": {"{fig}": {"powers": {"flying": True}}}},
            "characters.{fig}.powers.flying",
            "unknown power",
        ),
        ({"colour": "red"}, "colour", "unknown key"),
    ],
)
def test_bad_patches_are_one_line_naming_file_and_field(change: dict, field: str, words: str) -> None:
    fig = list_characters(set="arena-box")[0]
    text = json.dumps(change).replace("{fig}", fig)
    with pytest.raises(ContentError) as info:
        parse_patch(json.loads(text), "bad.toml")
    assert info.value.file == "bad.toml"
    assert info.value.field == field.replace("{fig}", fig)
    assert words in info.value.reason
    assert "\n" not in str(info.value)


def test_a_patch_that_breaks_a_card_rule_is_refused_by_the_content_loader() -> None:
    char_id, spell_id = _melee_spell()  # R-A76: a melee spell has range 1-1
    with pytest.raises(ContentError, match="does not validate.*melee spell has range 1-1"):
        parse_patch({"characters": {char_id: {"spells": {spell_id: {"range_max": 3}}}}}, "bad.toml")


def test_shipped_patches_load_by_name_and_unknown_names_list_them() -> None:
    assert shipped_patches()
    for name in shipped_patches():
        assert not load_patch(name).empty
    with pytest.raises(ContentError, match="shipped patches: "):
        load_patch("no-such-patch")


def test_merge_lets_a_later_value_win() -> None:
    fig = list_characters(set="arena-box")[0]
    hp = default_registry().load_character(fig).hp
    a = parse_patch({"characters": {fig: {"hp": hp + 1, "mp": 4}}}, "a.toml")
    b = parse_patch({"characters": {fig: {"hp": hp + 2}}}, "b.toml")
    merged = merge_patches("ab", [a, b])
    assert merged.changes["characters"][fig] == {"hp": hp + 2, "mp": 4}


def _experiment_text(patch_line: str, figures: list[str]) -> str:
    return textwrap.dedent(
        f"""
        name = "patched"
        master_seed = 3
        matches_per_pairing = 1
        ais = ["random"]
        [teams]
        mode = "pairs"
        pairs = [[{json.dumps(figures[:4])}, {json.dumps(figures[4:8])}]]
        [[variants]]
        name = "shipped"
        [[variants]]
        name = "buffed"
        {patch_line}
        """
    )


def test_an_arm_patch_travels_in_its_match_specs_only() -> None:
    figures = list_characters(set="arena-box")[:8]
    hp = default_registry().load_character(figures[0]).hp
    exp = loads_experiment(
        _experiment_text(f"patch = {{ characters = {{ {figures[0]} = {{ hp = {hp + 3} }} }} }}", figures)
    )
    specs = expand(exp)
    by_arm = {spec.variant: spec for spec in specs}
    assert by_arm["shipped"].patch == ""
    assert patched_registry(by_arm["buffed"].patch).load_character(figures[0]).hp == hp + 3
    assert json.loads(by_arm["buffed"].as_json())["patch"]["name"] == "buffed"
    manifest = patch_manifest(exp)
    assert manifest["patches"]["buffed"]["changes"] == [
        f"{default_registry().load_character(figures[0]).name}: HP {hp} → {hp + 3}"
    ]
    plain = loads_experiment(_experiment_text("", figures))
    assert fingerprint(plain) != fingerprint(exp)  # a patch changes the matches


def test_a_patched_arm_plays_the_patched_card() -> None:
    from krosbalance.sim.match import play_spec

    figures = list_characters(set="arena-box")[:8]
    exp = loads_experiment(
        _experiment_text(f"patch = {{ characters = {{ {figures[0]} = {{ hp = 1 }} }} }}", figures)
    )
    seen: dict[str, int] = {}

    def spy(*teams, registry=None, **kwargs):  # type: ignore[no-untyped-def]
        seen[kwargs["seed"]] = (registry or default_registry()).load_character(figures[0]).hp
        from krosbalance.play import play_match

        return play_match(*teams, registry=registry, **kwargs)

    hps = set()
    for spec in expand(exp)[:2]:
        play_spec(spec, spy)
        hps.add((spec.variant, seen[spec.seed]))
    assert hps == {("shipped", default_registry().load_character(figures[0]).hp), ("buffed", 1)}


def test_a_bad_arm_patch_is_an_experiment_error_naming_the_arm() -> None:
    figures = list_characters(set="arena-box")[:8]
    with pytest.raises(ExperimentError) as info:
        loads_experiment(
            _experiment_text("patch = { characters = { nobody = { hp = 3 } } }", figures), "exp.toml"
        )
    assert info.value.field == "variants[1].patch"
    assert "nobody" in info.value.reason


def test_run_with_an_unknown_patch_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = list_characters(set="arena-box")[:8]
    path = tmp_path / "exp.toml"
    path.write_text(_experiment_text("", figures), encoding="utf-8")
    assert main(["run", str(path), "--patch", "no-such-patch", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no patch file 'no-such-patch'" in err[0]


def test_patch_json_round_trips() -> None:
    patch = load_patch(shipped_patches()[0])
    assert patch_from_json(patch.json).json == patch.json
