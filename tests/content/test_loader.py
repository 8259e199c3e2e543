"""Validation of character files: every mistake is a ContentError naming the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS
from krosbalance.content.loader import load_file, normalize_name
from krosbalance.content.registry import Registry
from tests.content.helpers import VALID, broken, load_error, write

C0 = "characters[0]"
ZAP = "characters[0].spells[0]"
SUMMON = "characters[0].spells[1]"

# (case id, old text, new text, expected field, fragment of the reason)
CASES = [
    ("missing_field", "hp = 10\n", "", f"{C0}.hp", "missing required field"),
    ("wrong_type", "hp = 10", 'hp = "ten"', f"{C0}.hp", "expected an integer"),
    ("bool_is_not_int", "mp = 3", "mp = true", f"{C0}.mp", "expected an integer"),
    ("float_is_not_int", "ap = 6", "ap = 6.0", f"{C0}.ap", "expected an integer"),
    ("unknown_field", "ap = 6\n", "ap = 6\nspeed = 2\n", f"{C0}.speed", "unknown field"),
    (
        "piece_kind_vocabulary",
        'kind = "krosmaster"',
        'kind = "hero"',
        f"{C0}.kind",
        "krosmaster, creature, bomb, trap",
    ),
    (
        "element_vocabulary",
        'element = "fire"',
        'element = "plasma"',
        f"{ZAP}.element",
        "neutral, water, air, earth, fire",
    ),
    (
        "range_type_vocabulary",
        'range_type = "classic"',
        'range_type = "ranged"',
        f"{ZAP}.range_type",
        "classic, line",
    ),
    (
        "limit_vocabulary",
        "amount = 1\n",
        'amount = 1\nlimit = "once"\n',
        f"{ZAP}.limit",
        "unlimited, turn, game",
    ),
    ("area_vocabulary", "amount = 1\n", 'amount = 1\narea = "circle"\n', f"{ZAP}.area", "square"),
    (
        "spell_kind_vocabulary",
        'kind = "attack"',
        'kind = "buff"',
        f"{ZAP}.kind",
        "attack, heal, summon, special",
    ),
    ("attack_needs_element", 'element = "fire"\n', "", f"{ZAP}.element", "missing required field"),
    ("attack_needs_amount", "amount = 1\n", "", f"{ZAP}.amount", "missing required field"),
    ("negative_cost", "ap_cost = 3", "ap_cost = -1", f"{ZAP}.ap_cost", ">= 0"),
    ("bad_spell_id", 'id = "zap"', 'id = "Zap Zap"', f"{ZAP}.id", "not a valid id"),
    ("missing_effect_param", "cells = 1\n", "", f"{ZAP}.effects[0].cells", "requires the parameters: cells"),
    (
        "extra_effect_param",
        "cells = 1\n",
        "cells = 1\nforce = 2\n",
        f"{ZAP}.effects[0].force",
        "unknown parameter",
    ),
    ("effect_param_type", "cells = 1", 'cells = "1"', f"{ZAP}.effects[0].cells", "expected an integer"),
    ("effect_param_positive", "cells = 1", "cells = 0", f"{ZAP}.effects[0].cells", "positive"),
    (
        "range_min_above_max",
        "range_min = 1\nrange_max = 3",
        "range_min = 4\nrange_max = 3",
        f"{ZAP}.range_max",
        "range_min 4 > range_max 3",
    ),
    ("duplicate_power", 'powers = ["armour"]', 'powers = ["armour", "armour"]', f"{C0}.powers[1]", "R-A100"),
    (
        "power_param_element",
        'powers = ["armour"]',
        'powers = [{ kind = "resistance", element = "plasma" }]',
        f"{C0}.powers[0].element",
        "fire",
    ),
    (
        "power_missing_param",
        'powers = ["armour"]',
        'powers = ["immune"]',
        f"{C0}.powers[0].element",
        "requires the parameters",
    ),
    ("krosmaster_level_zero", "level = 3", "level = 0", f"{C0}.level", "level must be positive"),
    ("set_required", 'set = "krosbalance-tests"\ntags', "tags", f"{C0}.set", "missing required field"),
    ("set_is_a_label", 'set = "krosbalance-tests"', 'set = "Arena Box"', f"{C0}.set", "not a valid label"),
    ("tags_are_labels", 'tags = ["hero"]', 'tags = ["hero", "Big One"]', f"{C0}.tags[1]", "expected a label"),
    ("tags_once", 'tags = ["hero"]', 'tags = ["hero", "hero"]', f"{C0}.tags[1]", "listed twice"),
    ("krosmaster_needs_colour", 'colour = "white"\n', "", f"{C0}.colour", "missing required field"),
    ("krosmaster_colour_none", 'colour = "white"', 'colour = "none"', f"{C0}.colour", "gold, white"),
    (
        "token_has_no_colour",
        'kind = "creature"\n',
        'kind = "creature"\ncolour = "white"\n',
        "characters[1].colour",
        "only Krosmasters",
    ),
    ("creature_needs_hp", "hp = 2", "hp = 0", "characters[1].hp", "at least 1 HP"),
    (
        "special_has_no_summons",
        'kind = "summon"',
        'kind = "special"',
        f"{SUMMON}.summons",
        "only summon spells",
    ),
    (
        "on_death_names_a_spell",
        "ap = 4\n",
        'ap = 4\non_death = "boom"\n',
        "characters[1].on_death",
        "names no spell",
    ),
    ("duplicate_spell_id", 'id = "summon_pet"', 'id = "zap"', f"{SUMMON}.id", "clashes with"),
    (
        "unknown_source_key",
        "ap = 4\n",
        'ap = 4\n[characters.source]\nspeed = "x"\n',
        "characters[1].source.speed",
        "allowed",
    ),
]


@pytest.mark.parametrize(("old", "new", "field", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validation_errors_name_file_and_field(
    tmp_path: Path, old: str, new: str, field: str, reason: str
) -> None:
    path = write(tmp_path, "bad.toml", broken(old, new))
    error = load_error(tmp_path)
    assert error.file == str(path)
    assert error.field == field
    assert reason in error.reason
    assert str(error).startswith(f"{path}: {field}: ")


def test_template_is_valid(tmp_path: Path) -> None:
    write(tmp_path, "ok.toml", VALID)
    registry = Registry(tmp_path)
    assert registry.list_characters() == ["hero"]
    assert registry.list_characters(None) == ["hero", "pet"]
    assert registry.load_character("eroe").spell("summon_pet").summons == "pet"


def test_toml_syntax_error_is_content_error(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", broken("hp = 10", "hp = = 10"))
    error = load_error(tmp_path)
    assert (error.file, error.field) == (str(path), "toml")
    assert "line 12" in error.reason


def test_empty_file_has_no_characters(tmp_path: Path) -> None:
    write(tmp_path, "empty.toml", "# nothing\n")
    error = load_error(tmp_path)
    assert error.field == "characters"


def test_unknown_top_level_key(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", 'title = "x"\n' + VALID)
    assert load_error(tmp_path).field == "title"


def test_unknown_effect_keyword_lists_known_keywords(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('kind = "push"', 'kind = "teleport"'))
    error = load_error(tmp_path)
    assert error.field == f"{ZAP}.effects[0].kind"
    assert "unknown effect keyword 'teleport'" in error.reason
    assert all(keyword in error.reason for keyword in EFFECT_KEYWORDS)


def test_unknown_power_keyword_lists_known_keywords(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('powers = ["armour"]', 'powers = ["armor"]'))
    error = load_error(tmp_path)
    assert error.field == f"{C0}.powers[0]"
    assert all(keyword in error.reason for keyword in POWER_KEYWORDS)


# ----------------------------------------------------------------------- range consistency


def test_r_a76_melee_is_range_one_fixed(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('range_type = "melee"\n', 'range_type = "melee"\nrange_max = 2\n'))
    error = load_error(tmp_path)
    assert error.field == f"{SUMMON}.range_max"
    assert "1-1" in error.reason
    write(
        tmp_path, "bad.toml", broken('range_type = "melee"\n', 'range_type = "melee"\nfixed_range = false\n')
    )
    assert load_error(tmp_path).field == f"{SUMMON}.fixed_range"


def test_r_a77_personal_is_range_zero_fixed(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('range_type = "classic"', 'range_type = "personal"'))
    error = load_error(tmp_path)
    assert error.field == f"{ZAP}.range_min"
    assert "0-0" in error.reason


def test_r_a75_no_line_of_sight_means_fixed_range(tmp_path: Path) -> None:
    write(
        tmp_path, "bad.toml", broken("amount = 1\n", "amount = 1\nneeds_los = false\nfixed_range = false\n")
    )
    error = load_error(tmp_path)
    assert error.field == f"{ZAP}.fixed_range"
    assert "R-A75" in error.reason


def test_r_a75_no_line_of_sight_defaults_to_fixed(tmp_path: Path) -> None:
    write(tmp_path, "ok.toml", broken("amount = 1\n", "amount = 1\nneeds_los = false\n"))
    spell = Registry(tmp_path).load_character("hero").spell("zap")
    assert (spell.needs_los, spell.fixed_range) == (False, True)


def test_melee_and_personal_defaults(tmp_path: Path) -> None:
    write(tmp_path, "ok.toml", VALID)
    spell = Registry(tmp_path).load_character("hero").spell("summon_pet")
    assert (spell.range_min, spell.range_max, spell.fixed_range) == (1, 1, True)


# -------------------------------------------------------------------------------- summons


def test_r_a67_summon_spells_declare_control(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken("summon_control = 1", "summon_control = 0"))
    error = load_error(tmp_path)
    assert error.field == f"{SUMMON}.summon_control"
    assert "R-A67" in error.reason
    write(tmp_path, "bad.toml", broken("summon_control = 1\n", ""))
    assert load_error(tmp_path).field == f"{SUMMON}.summon_control"


def test_r_a67_summon_spells_name_their_token(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('summons = "pet"\n', ""))
    error = load_error(tmp_path)
    assert error.field == f"{SUMMON}.summons"
    assert "missing required field" in error.reason


def test_r_a64_summon_spells_target_a_free_cell(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken('target = "free_cell"', 'target = "any"'))
    assert load_error(tmp_path).field == f"{SUMMON}.target"


def test_only_summon_spells_have_summon_control(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken("amount = 1\n", "amount = 1\nsummon_control = 2\n"))
    assert load_error(tmp_path).field == f"{ZAP}.summon_control"


def test_r_a70_special_spells_deal_no_damage(tmp_path: Path) -> None:
    text = broken('kind = "attack"\nelement = "fire"', 'kind = "special"')
    write(tmp_path, "bad.toml", text)
    error = load_error(tmp_path)
    assert error.field == f"{ZAP}.amount"
    assert "R-A70" in error.reason


@pytest.mark.parametrize("ref", ["dragon", "hero"])
def test_summons_must_name_a_loaded_token(tmp_path: Path, ref: str) -> None:
    path = write(tmp_path, "bad.toml", broken('summons = "pet"', f'summons = "{ref}"'))
    error = load_error(tmp_path)
    assert (error.file, error.field) == (str(path), f"{SUMMON}.summons")
    assert "known tokens: pet" in error.reason


def test_summon_references_resolve_across_files(tmp_path: Path) -> None:
    hero, pet = VALID.split('[[characters]]\nid = "pet"')
    write(tmp_path, "a_hero.toml", hero)
    write(tmp_path, "b_pet.toml", '[[characters]]\nid = "pet"' + pet)
    registry = Registry(tmp_path)
    assert registry.load_character("pet").kind == "creature"


def test_bonus_per_adjacent_summon_must_name_a_token(tmp_path: Path) -> None:
    text = broken(
        'kind = "push"\ncells = 1', 'kind = "bonus_per_adjacent_summon"\nsummon = "ghost"\ndamage = 1'
    )
    write(tmp_path, "bad.toml", text)
    assert load_error(tmp_path).field == f"{ZAP}.effects[0].summon"


# ----------------------------------------------------------------------------- cross-file


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", VALID)
    second = write(tmp_path, "b.toml", VALID.replace('aliases = ["Eroe"]', 'aliases = ["Other"]'))
    error = load_error(tmp_path)
    assert (error.file, error.field) == (str(second), "characters[0].id")
    assert "duplicate id 'hero'" in error.reason
    assert "a.toml" in error.reason


def test_duplicate_alias_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", VALID)
    other = broken('id = "hero"\nname = "Hero"', 'id = "other"\nname = "Other"')
    other = other.replace('"pet"', '"pet2"')
    second = write(tmp_path, "b.toml", other.replace('aliases = ["Eroe"]', 'aliases = ["e-ROE"]'))
    error = load_error(tmp_path)
    assert (error.file, error.field) == (str(second), "characters[0].aliases")
    assert "already used by 'hero'" in error.reason


def test_missing_folder_is_content_error(tmp_path: Path) -> None:
    error = load_error(tmp_path / "nowhere")
    assert error.field == "folder"


def test_load_file_directly(tmp_path: Path) -> None:
    specs = load_file(write(tmp_path, "ok.toml", VALID))
    assert [spec.id for spec in specs] == ["hero", "pet"]


def test_normalize_name() -> None:
    assert normalize_name("Kokk O'lat") == normalize_name("kokk_olat") == "kokkolat"
    assert normalize_name("Frè Gato") == normalize_name("FRE-GATO")
    assert normalize_name("Anna Tommy") == normalize_name("anna_tommy")
