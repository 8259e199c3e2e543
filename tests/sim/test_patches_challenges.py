"""[challenges.X] in a balance patch: a Divine Challenge bonus's tier threshold (krosbalance.sim.patches)."""

from __future__ import annotations

import json

import pytest

from krosbalance.content.blast import blast_cards
from krosbalance.errors import ContentError
from krosbalance.sim.patches import parse_patch, patch_from_json, patch_options


def _challenge():  # type: ignore[no-untyped-def]
    return blast_cards().challenges()[0]


def test_a_challenge_patch_resolves_names_and_says_what_it_changes() -> None:
    challenge = _challenge()
    bonus = challenge.bonuses[0]
    by_name = parse_patch({"challenges": {challenge.name: {"bonuses": {bonus.name: {"tier": 2}}}}}, "p.toml")
    by_id = parse_patch({"challenges": {challenge.id: {"bonuses": {bonus.id: {"tier": 2}}}}}, "p.toml")
    assert (
        by_name.changes
        == by_id.changes
        == {"challenges": {challenge.id: {"bonuses": {bonus.id: {"tier": 2}}}}}
    )
    assert by_id.lines() == [f"{challenge.name}: {bonus.name} tier {bonus.tier} → 2"]
    assert not by_id.empty and patch_from_json(by_id.json).changes == by_id.changes


def test_r_b41_a_patched_tier_reaches_the_match_as_the_challenge_tiers_option() -> None:
    challenge = _challenge()
    bonus = challenge.bonuses[2]
    patch = parse_patch({"challenges": {challenge.id: {"bonuses": {bonus.id: {"tier": 6}}}}}, "p.toml")
    played = json.loads(patch_options(json.dumps({"challenges": [challenge.id]}), patch.json))
    assert played == {"challenges": [challenge.id], "challenge_tiers": {f"{challenge.id}.{bonus.id}": 6}}
    from krosbalance.rulesets.registry import get_ruleset

    assert get_ruleset("blast", played).options.challenge_tiers == {f"{challenge.id}.{bonus.id}": 6}
    assert patch_options('{"a":1}', parse_patch({"characters": {}}, "p.toml").json) == '{"a":1}'


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"nobody": {}}, "challenges.nobody", "unknown challenge"),
        ({"{c}": {"bonuses": {"nope": {"tier": 2}}}}, "challenges.{c}.bonuses.nope", "has no bonus"),
        ({"{c}": {"bonuses": {"{b}": {"tier": 0}}}}, "challenges.{c}.bonuses.{b}.tier", "out of range"),
        ({"{c}": {"bonuses": {"{b}": {"tier": 9}}}}, "challenges.{c}.bonuses.{b}.tier", "1 to 8 glyph cells"),
        ({"{c}": {"bonuses": {"{b}": {"tier": "3"}}}}, "challenges.{c}.bonuses.{b}.tier", "an integer"),
        ({"{c}": {"bonuses": {"{b}": {"text": "x"}}}}, "challenges.{c}.bonuses.{b}.text", "unknown field"),
        ({"{c}": {"name": "x"}}, "challenges.{c}.name", "unknown field"),
        ({"{c}": 3}, "challenges.{c}", "a table of changes"),
    ],
)
def test_bad_challenge_patches_are_one_line_naming_file_and_field(
    change: dict, field: str, words: str
) -> None:
    challenge = _challenge()
    bonus = challenge.bonuses[0]
    text = json.dumps(change).replace("{c}", challenge.id).replace("{b}", bonus.id)
    with pytest.raises(ContentError) as info:
        parse_patch({"challenges": json.loads(text)}, "bad.toml")
    assert info.value.file == "bad.toml"
    assert info.value.field == field.replace("{c}", challenge.id).replace("{b}", bonus.id)
    assert words in info.value.reason and "\n" not in str(info.value)
