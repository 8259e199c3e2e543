"""The shipped characters and the registry's lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.board.loader import list_board_files
from krosbalance.content import registry as registry_module
from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS
from krosbalance.content.registry import (
    Registry,
    default_registry,
    list_boards,
    list_characters,
    load_board,
    load_character,
)
from krosbalance.content.specs import EffectSpec
from krosbalance.errors import ContentError
from tests.content.helpers import VALID, broken, write

KROSMASTERS = [
    "anna_tommy",
    "bad_aboum",
    "bill_tell",
    "kassius_kaos",
    "king_of_the_gobballs",
    "lil_healey",
    "oscar_kass",
    "queen_of_the_tofus",
]

# id, level, initiative, MP, HP, AP, powers, colour, class (characters.md; external-facts where chosen)
CARDS = [
    ("queen_of_the_tofus", 3, 8, 4, 8, 6, ["critical", "dodge"], "gold", "Osamodas"),
    ("king_of_the_gobballs", 3, 2, 3, 10, 7, ["armour", "lock"], "gold", "Osamodas"),
    ("oscar_kass", 3, 6, 3, 10, 6, ["armour"], "white", "Sram"),
    ("anna_tommy", 3, 9, 3, 12, 6, [], "white", "Sacrier"),
    ("bill_tell", 3, 7, 3, 6, 6, ["dodge"], "white", "Cra"),  # HP 6: external, seed "L low" 9
    ("kassius_kaos", 3, 4, 3, 9, 6, ["critical"], "white", "Masqueraider"),
    ("lil_healey", 3, 1, 3, 8, 6, [], "white", "Eniripsa"),
    ("bad_aboum", 3, 3, 3, 10, 6, ["dodge", "lock"], "white", "Rogue"),  # HP 10: seed (reprint 9)
    ("tofu", 0, 0, 5, 1, 4, ["tiny"], "none", ""),
    ("gobball", 0, 0, 3, 3, 5, [], "none", ""),
    ("water_bomb", 0, 0, 0, 1, 0, ["tiny"], "none", ""),
    ("wabbit", 0, 0, 4, 2, 4, [], "none", ""),  # Demonic Reward creatures: assumed values
    ("lost_doll", 0, 0, 2, 4, 4, [], "none", ""),
]

# owner, spell, kind, element, AP, range min-max, range type, fixed, LOS, limit, amount, area, target
# fmt: off
SPELLS = [
    ("queen_of_the_tofus", "dan_to_fu", "attack", "air", 3, (1, 3), "classic", False, True, "unlimited", 1, "single", "any"),
    ("queen_of_the_tofus", "summon_tofu", "summon", "neutral", 3, (1, 1), "melee", True, True, "unlimited", 0, "single", "free_cell"),
    ("king_of_the_gobballs", "gobbolob", "attack", "earth", 3, (1, 1), "melee", True, True, "unlimited", 1, "single", "any"),
    ("king_of_the_gobballs", "summon_gobball", "summon", "neutral", 4, (1, 1), "melee", True, True, "unlimited", 0, "single", "free_cell"),
    ("oscar_kass", "con", "attack", "water", 3, (1, 1), "melee", True, True, "unlimited", 1, "single", "any"),
    ("oscar_kass", "dissimulation", "attack", "earth", 3, (2, 3), "classic", False, True, "unlimited", 0, "single", "any"),
    ("anna_tommy", "assault", "attack", "fire", 3, (1, 2), "line", False, True, "unlimited", 1, "single", "any"),
    ("anna_tommy", "transposition", "special", "neutral", 1, (1, 3), "classic", True, True, "unlimited", 0, "single", "ally"),
    ("bill_tell", "plaguing_arrow", "attack", "air", 3, (3, 8), "classic", False, True, "unlimited", 1, "single", "any"),
    ("bill_tell", "distant_shot", "special", "neutral", 1, (0, 0), "personal", True, True, "turn", 0, "single", "any"),
    ("kassius_kaos", "irritating_sting", "attack", "fire", 5, (1, 5), "classic", False, True, "unlimited", 1, "single", "any"),
    ("kassius_kaos", "puff", "attack", "air", 1, (1, 3), "line", False, True, "game", 3, "single", "any"),
    ("lil_healey", "forbidden_word", "attack", "fire", 4, (2, 4), "classic", False, True, "unlimited", 1, "single", "any"),
    ("lil_healey", "healing_word", "heal", "neutral", 3, (0, 3), "classic", False, True, "unlimited", 1, "single", "any"),
    ("bad_aboum", "retreat_shot", "attack", "water", 3, (1, 3), "line", False, True, "unlimited", 1, "single", "any"),
    ("bad_aboum", "summon_water_bomb", "summon", "neutral", 3, (1, 3), "classic", True, False, "unlimited", 0, "single", "free_cell"),
    ("tofu", "kiss", "attack", "air", 4, (1, 1), "melee", True, True, "unlimited", 0, "single", "any"),
    ("gobball", "bite", "attack", "earth", 4, (1, 1), "melee", True, True, "unlimited", 1, "single", "any"),
    ("water_bomb", "explosion", "attack", "water", 0, (0, 0), "personal", True, True, "unlimited", 1, "square", "any"),
    ("wabbit", "wabbit_kick", "attack", "air", 4, (1, 1), "melee", True, True, "unlimited", 1, "single", "any"),
    ("lost_doll", "bramble", "attack", "earth", 4, (1, 1), "melee", True, True, "unlimited", 1, "single", "any"),
]
# fmt: on

EFFECTS = {
    ("queen_of_the_tofus", "dan_to_fu"): [
        EffectSpec("bonus_per_adjacent_summon", {"summon": "tofu", "damage": 1})
    ],
    ("king_of_the_gobballs", "gobbolob"): [
        EffectSpec("bonus_per_adjacent_summon", {"summon": "gobball", "damage": 2})
    ],
    ("oscar_kass", "con"): [EffectSpec("lifesteal")],
    ("oscar_kass", "dissimulation"): [EffectSpec("pierce_armour")],
    ("anna_tommy", "assault"): [EffectSpec("swap_places")],
    ("anna_tommy", "transposition"): [EffectSpec("swap_places")],
    ("bill_tell", "distant_shot"): [
        EffectSpec("range_bonus_this_turn", {"amount": 3}),
        EffectSpec("lose_all_mp"),
    ],
    ("kassius_kaos", "puff"): [EffectSpec("push", {"cells": 3})],
    ("lil_healey", "forbidden_word"): [EffectSpec("pierce_armour")],
    ("bad_aboum", "retreat_shot"): [EffectSpec("retreat", {"cells": 1})],
    ("water_bomb", "explosion"): [EffectSpec("minus_ap", {"amount": 1})],
}

SUMMONS = {
    ("queen_of_the_tofus", "summon_tofu"): ("tofu", 3),
    ("king_of_the_gobballs", "summon_gobball"): ("gobball", 1),
    ("bad_aboum", "summon_water_bomb"): ("water_bomb", 2),
}


@pytest.fixture(scope="module")
def box() -> Registry:
    """The Arena cards the package ships (the Blast cards have their own tests)."""
    return Registry(registry_module.DEFAULT_CHARACTER_FOLDER)


def test_every_krosmaster_of_the_box_is_shipped(box: Registry) -> None:
    assert box.list_characters(set="arena-box") == KROSMASTERS
    assert box.list_characters(None, set="arena-box") == sorted(
        [*KROSMASTERS, "gobball", "tofu", "water_bomb", "wabbit", "lost_doll"]
    )
    assert box.list_characters("bomb", set="arena-box") == ["water_bomb"]
    assert [c.id for c in box.all_characters()] == box.list_characters(None)
    assert "arena-box" in box.list_sets()


def test_characters_are_listed_by_set_and_tag(tmp_path: Path) -> None:
    write(tmp_path / "extra", "hero.toml", VALID)  # set "krosbalance-tests", tags ["hero"]
    registry = Registry(registry_module.DEFAULT_CHARACTER_FOLDER, tmp_path / "extra")
    assert registry.list_characters(set="krosbalance-tests") == ["hero"]
    assert registry.list_characters(None, set="krosbalance-tests") == ["hero", "pet"]
    assert registry.list_characters(tag="hero") == ["hero"]
    assert registry.list_characters(set="arena-box") == KROSMASTERS
    assert registry.list_characters(set="arena-box", tag="hero") == []
    assert {"arena-box", "krosbalance-tests"} <= set(registry.list_sets())  # and whatever else ships
    assert registry.load_character("hero").set == "krosbalance-tests"
    assert registry.load_character("hero").tags == ("hero",)


@pytest.mark.parametrize(
    ("char_id", "level", "init", "mp", "hp", "ap", "powers", "colour", "class_name"), CARDS
)
def test_card_stats(
    box: Registry,
    char_id: str,
    level: int,
    init: int,
    mp: int,
    hp: int,
    ap: int,
    powers: list[str],
    colour: str,
    class_name: str,
) -> None:
    spec = box.load_character(char_id)
    assert (spec.level, spec.initiative, spec.mp, spec.hp, spec.ap) == (level, init, mp, hp, ap)
    assert [p.kind for p in spec.powers] == powers
    assert (spec.colour, spec.class_name) == (colour, class_name)


@pytest.mark.parametrize(
    (
        "owner",
        "spell_id",
        "kind",
        "element",
        "ap",
        "span",
        "range_type",
        "fixed",
        "los",
        "limit",
        "amount",
        "area",
        "target",
    ),
    SPELLS,
)
def test_spell_values(
    box: Registry,
    owner: str,
    spell_id: str,
    kind: str,
    element: str,
    ap: int,
    span: tuple[int, int],
    range_type: str,
    fixed: bool,
    los: bool,
    limit: str,
    amount: int,
    area: str,
    target: str,
) -> None:
    spell = box.load_character(owner).spell(spell_id)
    assert (spell.kind, spell.element, spell.ap_cost, spell.mp_cost, spell.injury_cost) == (
        kind,
        element,
        ap,
        0,
        0,
    )
    assert (spell.range_min, spell.range_max, spell.range_type) == (*span, range_type)
    assert (spell.fixed_range, spell.needs_los, spell.limit) == (fixed, los, limit)
    assert (spell.amount, spell.area, spell.target) == (amount, area, target)
    assert list(spell.effects) == EFFECTS.get((owner, spell_id), [])
    assert (spell.summons, spell.summon_control) == SUMMONS.get((owner, spell_id), (None, 0))


def test_every_shipped_spell_is_in_the_table(box: Registry) -> None:
    shipped = {(c.id, s.id) for c in box.all_characters() for s in c.spells}
    assert shipped == {(row[0], row[1]) for row in SPELLS}


def test_punch_is_not_a_card_spell(box: Registry) -> None:
    assert all("punch" not in s.id for c in box.all_characters() for s in c.spells)


def test_r_a111_water_bomb_explodes_on_death(box: Registry) -> None:
    bomb = box.load_character("Bomba d'Acqua")
    assert (bomb.kind, bomb.on_death) == ("bomb", "explosion")
    assert bomb.has_power("tiny")


def test_r_a103_tofu_and_bombs_are_tiny(box: Registry) -> None:
    assert box.load_character("tofu").has_power("tiny")
    assert not box.load_character("gobball").has_power("tiny")


def test_r_a110_summon_tokens_have_no_level(box: Registry) -> None:
    for token in ("tofu", "gobball", "water_bomb"):
        assert box.load_character(token).level == 0


def test_r_a147_name_colours(box: Registry) -> None:
    gold = {cid for cid in KROSMASTERS if box.load_character(cid).colour == "gold"}
    assert gold == {"queen_of_the_tofus", "king_of_the_gobballs"}
    assert all(box.load_character(cid).colour == "white" for cid in set(KROSMASTERS) - gold)


def test_r_a146_box_teams_sum_to_twelve(box: Registry) -> None:
    # Tutorial teams STASI and WAKFU (L1807-L1820), with their initiative sums 24 and 16.
    stasi = ["Regina dei Tofu", "Guy Lermotel", "Frè Gato", "Bad Abum"]
    wakfu = ["Ann Atomy", "Kreol Pahniko", "Re dei Pappatutto", "Kokk O'lat"]
    for team, initiative in ((stasi, 24), (wakfu, 16)):
        specs = [box.load_character(name) for name in team]
        assert sum(s.level for s in specs) == 12
        assert sum(s.initiative for s in specs) == initiative


def test_r_a67_summon_spells_declare_control(box: Registry) -> None:
    for character in box.all_characters():
        for spell in character.spells:
            if spell.kind == "summon":
                assert spell.summon_control > 0
                assert spell.target == "free_cell"
                assert box.load_character(spell.summons).kind in ("creature", "bomb", "trap")


def test_shipped_keywords_are_registered(box: Registry) -> None:
    for character in box.all_characters():
        assert all(p.kind in POWER_KEYWORDS for p in character.powers)
        for spell in character.spells:
            assert all(e.kind in EFFECT_KEYWORDS for e in spell.effects)


def test_every_spell_and_krosmaster_hp_has_a_source(box: Registry) -> None:
    for character in box.all_characters():
        assert all(spell.source for spell in character.spells), character.id
        assert "card" in character.source
        if character.kind == "krosmaster":
            assert {"hp", "mp", "ap", "initiative"} <= set(character.source)


def test_chosen_and_assumed_values_are_documented(box: Registry) -> None:
    assert "krosfinder + tequilaswelt" in box.load_character("bill_tell").source["hp"]
    assert "9" in box.load_character("bad_aboum").source["hp"]
    assert "assumed" in box.load_character("anna_tommy").spell("assault").source
    assert "assumed" in box.load_character("lil_healey").spell("healing_word").source
    assert "assumed" in box.load_character("water_bomb").spell("explosion").source


# -------------------------------------------------------------------------------- lookups


@pytest.mark.parametrize(
    ("name", "char_id"),
    [
        ("Anna Tommy", "anna_tommy"),
        ("anna_tommy", "anna_tommy"),
        ("Ann Atomy", "anna_tommy"),
        ("ANN-ATOMY", "anna_tommy"),
        ("Frè Gato", "oscar_kass"),
        ("fre gato", "oscar_kass"),
        ("Kokk O'lat", "lil_healey"),
        ("kokk olat", "lil_healey"),
        ("Regina dei Tofu", "queen_of_the_tofus"),
        ("queen of the tofus", "queen_of_the_tofus"),
        ("Re dei Pappatutto", "king_of_the_gobballs"),
        ("Guy Lermotel", "bill_tell"),
        ("Kreol Pahniko", "kassius_kaos"),
        ("Bad Abum", "bad_aboum"),
        ("Pappatutto", "gobball"),
        ("Bomba d'Acqua", "water_bomb"),
        ("TOFU", "tofu"),
    ],
)
def test_lookup_by_id_name_or_alias(box: Registry, name: str, char_id: str) -> None:
    assert box.load_character(name).id == char_id


def test_unknown_character_suggests_close_names(box: Registry) -> None:
    with pytest.raises(ContentError) as info:
        box.load_character("Kasius Kaos")
    error = info.value
    assert (error.file, error.field) == ("character registry", "name")
    assert "unknown character 'Kasius Kaos'" in error.reason
    assert "did you mean 'kassius_kaos'" in error.reason
    assert "known: anna_tommy, bad_aboum" in error.reason


def test_unknown_kind_is_content_error(box: Registry) -> None:
    with pytest.raises(ContentError):
        box.list_characters("dragon")


def test_registry_is_lazy(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", broken("hp = 10", "hp = = 10"))
    registry = Registry(tmp_path, tmp_path / "missing")  # a broken file and a missing folder: no error yet
    assert not registry.loaded
    with pytest.raises(ContentError):
        registry.list_characters()
    write(tmp_path, "bad.toml", VALID)
    good = Registry(tmp_path)
    assert not good.loaded
    hero = good.load_character("hero")
    assert good.loaded
    write(tmp_path, "bad.toml", broken("hp = 10", "hp = = 10"))  # read once, then cached: not read again
    assert good.load_character("pet").id == "pet"
    assert good.load_character("hero") is hero


def test_module_functions_use_the_default_registry() -> None:
    assert default_registry() is default_registry()
    assert load_character("Ann Atomy") is default_registry().load_character("anna_tommy")
    assert list_characters(set="arena-box") == KROSMASTERS


def test_several_folders(tmp_path: Path) -> None:
    write(tmp_path / "extra", "hero.toml", VALID)
    registry = Registry(registry_module.DEFAULT_CHARACTER_FOLDER, tmp_path / "extra")
    assert "hero" in registry.list_characters()
    assert registry.source_file("Eroe").endswith("hero.toml")


# --------------------------------------------------------------------------------- boards


def test_boards_are_delegated_to_the_board_loader() -> None:
    registry = Registry()
    ids = registry.list_boards()
    assert ids == sorted(ids) and len(ids) == len(list_board_files())
    board = registry.load_board(ids[-1].upper().replace("-", " "))
    assert board.id == ids[-1]
    assert registry.load_board(ids[-1]) is board  # built once, then cached
    assert list_boards() == ids
    assert load_board(ids[0]).id == ids[0]


def test_unknown_board_suggests() -> None:
    board_id = list_boards()[0]
    with pytest.raises(ContentError) as info:
        Registry().load_board(board_id[:-1] + "#")
    assert info.value.field == "board"
    suggestion = info.value.reason.split("known:")[0]
    assert "did you mean" in suggestion and repr(board_id) in suggestion
