"""Demonic Reward data: the shipped tokens, and the loader's validation (one clear error per mistake)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from krosbalance.content.keywords import INSTANT_REWARD_KEYWORDS, REWARD_KEYWORDS
from krosbalance.content.registry import Registry, default_registry
from krosbalance.content.specs import EQUIPMENT_SLOTS, RANKS, REWARD_KINDS
from krosbalance.errors import ContentError
from tests.content.helpers import VALID, broken, write

TOKEN = """\
[[rewards]]
id = "pet_test"
name = "Test Pet"
aliases = ["Famiglio di prova"]
kind = "equipment"
set = "krosbalance-tests"
slot = "pet"
rank = "jade"
effects = [
  { kind = "max_hp", amount = 2 },
  { kind = "power", power = "armour" },
]

[rewards.source]
rank = "assumed: test"

[[rewards]]
id = "summoning_boost"
name = "Summoning Boost"
kind = "boost"
set = "krosbalance-tests"
rank = "granite"
effects = [{ kind = "summon", summon = "pet" }]

[[rewards]]
id = "test_sword"
name = "Test Sword"
kind = "equipment"
set = "krosbalance-tests"
slot = "weapon"
rank = "gold"
effects = [{ kind = "weapon" }]

[rewards.spell]
id = "test_cut"
name = "Test Cut"
kind = "attack"
element = "water"
ap_cost = 3
range_type = "melee"
amount = 2
"""


def registry_over(tmp_path: Path, rewards: str) -> Registry:
    chars = tmp_path / "chars"
    write(chars, "hero.toml", VALID)
    write(tmp_path / "rewards", "tokens.toml", rewards)
    return Registry(chars, rewards=(tmp_path / "rewards",))


def reward_error(tmp_path: Path, rewards: str) -> ContentError:
    with pytest.raises(ContentError) as info:
        registry_over(tmp_path, rewards).all_rewards()
    return info.value


# ------------------------------------------------------------------------------ shipped tokens


def test_the_box_has_sixty_tokens_described_on_pages_28_and_29() -> None:
    registry = default_registry()
    rewards = [registry.load_reward(r) for r in registry.list_rewards(set="arena-box")]
    assert len(rewards) == 60  # seed L412
    kinds = Counter(r.kind for r in rewards)
    assert kinds == {"boost": 22, "upgrade": 11, "equipment": 27}
    slots = Counter(r.slot for r in rewards if r.kind == "equipment")
    assert slots == {"set": 10, "pet": 4, "weapon": 7, "dofus": 6}


def test_every_shipped_rank_says_where_it_comes_from() -> None:
    for reward in default_registry().all_rewards():
        assert reward.set
        assert reward.rank in RANKS
        assert reward.source.get("rank"), reward.id
        assert reward.source.get("card"), reward.id


def test_enutrof_style_is_jade_by_the_faq_r_a163() -> None:
    assert default_registry().load_reward("Stile Anutrof").rank == "jade"


def test_ecaflip_style_is_not_gold_since_it_gambles_for_a_gold_token() -> None:
    ecaflip = default_registry().load_reward("ecaflip_style")
    assert ecaflip.rank != "gold"
    assert ecaflip.effects[0].params == {"rank": "gold"}


def test_rewards_are_found_by_italian_name() -> None:
    registry = default_registry()
    assert registry.load_reward("Cristallo di Stasi").id == "stasis_crystal"
    assert registry.load_reward("panoplia alberagno").id == "treechnid_set"
    assert "xelor_style" in registry.list_rewards(kind="boost")


def test_weapons_grant_a_spell_and_boost_spells_are_single_use() -> None:
    for reward in default_registry().all_rewards():
        if reward.slot == "weapon":
            assert reward.spell is not None and reward.has_effect("weapon")
        elif reward.spell is not None:
            assert reward.kind == "boost" and reward.has_effect("one_shot_spell")


def test_unknown_reward_name_suggests_close_matches() -> None:
    with pytest.raises(ContentError) as info:
        default_registry().load_reward("xelor stile")
    assert "did you mean" in info.value.reason


def test_list_rewards_refuses_unknown_kind() -> None:
    with pytest.raises(ContentError):
        default_registry().list_rewards(kind="potion")


def test_vocabulary_splits_instant_and_continuous_keywords() -> None:
    assert set(REWARD_KEYWORDS) > INSTANT_REWARD_KEYWORDS
    assert set(REWARD_KINDS) == {"boost", "upgrade", "equipment"}
    assert set(EQUIPMENT_SLOTS) == {"weapon", "set", "pet", "dofus"}


# ------------------------------------------------------------------------------ validation


def test_template_loads(tmp_path: Path) -> None:
    registry = registry_over(tmp_path, TOKEN)
    assert registry.list_rewards() == ["pet_test", "summoning_boost", "test_sword"]
    assert registry.load_reward("famiglio di prova").slot == "pet"
    assert registry.load_reward("test_sword").spell is not None


CASES = [
    ("bad_rank", 'rank = "jade"', 'rank = "diamond"', "rewards[0].rank", "allowed values"),
    ("bad_kind", 'kind = "equipment"', 'kind = "trinket"', "rewards[0].kind", "allowed values"),
    ("no_slot", 'slot = "pet"\n', "", "rewards[0].slot", "missing required field"),
    ("bad_slot", 'slot = "pet"', 'slot = "hat"', "rewards[0].slot", "allowed values"),
    (
        "boost_with_slot",
        'kind = "boost"\nset = "krosbalance-tests"\nrank = "granite"',
        'kind = "boost"\nset = "krosbalance-tests"\nslot = "pet"\nrank = "granite"',
        "rewards[1].slot",
        "only equipment has a slot",
    ),
    (
        "unknown_keyword",
        '{ kind = "max_hp", amount = 2 }',
        '{ kind = "max_luck", amount = 2 }',
        "rewards[0].effects[0].kind",
        "unknown reward effect keyword 'max_luck'",
    ),
    (
        "instant_on_equipment",
        '{ kind = "max_hp", amount = 2 }',
        '{ kind = "ap_now", amount = 2 }',
        "rewards[0].effects[0].kind",
        "cannot be used by a equipment",
    ),
    (
        "continuous_on_boost",
        '{ kind = "summon", summon = "pet" }',
        '{ kind = "max_hp", amount = 1 }',
        "rewards[1].effects[0].kind",
        "cannot be used by a boost",
    ),
    (
        "zero_amount",
        '{ kind = "max_hp", amount = 2 }',
        '{ kind = "max_hp", amount = 0 }',
        "rewards[0].effects[0].amount",
        "positive integer",
    ),
    (
        "missing_param",
        '{ kind = "max_hp", amount = 2 }',
        '{ kind = "max_hp" }',
        "rewards[0].effects[0].amount",
        "requires the parameters",
    ),
    (
        "power_with_params",
        'power = "armour"',
        'power = "resistance"',
        "rewards[0].effects[1].power",
        "not a power without parameters",
    ),
    (
        "neutral_damage",
        '{ kind = "max_hp", amount = 2 }',
        '{ kind = "damage", element = "neutral", amount = 1 }',
        "rewards[0].effects[0].element",
        "elemental",
    ),
    (
        "weapon_without_spell",
        '[rewards.spell]\nid = "test_cut"',
        '[rewards.notes]\nid = "test_cut"',
        "rewards[2].spell",
        "a weapon grants a spell",
    ),
    (
        "unknown_summon",
        'summon = "pet"',
        'summon = "dragon"',
        "rewards[1].effects[0].summon",
        "names no loaded creature",
    ),
    (
        "summon_a_krosmaster",
        'summon = "pet"',
        'summon = "hero"',
        "rewards[1].effects[0].summon",
        "names no loaded creature",
    ),
    (
        "duplicate_alias",
        'name = "Summoning Boost"',
        'name = "Famiglio di prova"',
        "rewards[1].name",
        "already used",
    ),
    ("unknown_key", 'rank = "gold"', 'rank = "gold"\ncolour = "red"', "rewards[2].colour", "unknown field"),
    (
        "unknown_source_key",
        'rank = "assumed: test"',
        'rank = "assumed: test"\nprice = "x"',
        "rewards[0].source.price",
        "source notes name a reward field",
    ),
]


@pytest.mark.parametrize(("old", "new", "field", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_reward_validation_errors_name_file_and_field(
    tmp_path: Path, old: str, new: str, field: str, reason: str
) -> None:
    error = reward_error(tmp_path, broken(old, new, TOKEN))
    assert error.file.endswith("tokens.toml")
    assert error.field == field
    assert reason in error.reason
    assert str(error).startswith(f"{error.file}: {field}: ")


def test_choices_need_two_alternatives(tmp_path: Path) -> None:
    text = broken(
        'effects = [{ kind = "summon", summon = "pet" }]',
        'choices = [[{ kind = "ap_now", amount = 1 }]]',
        TOKEN,
    )
    assert reward_error(tmp_path, text).field == "rewards[1].choices"


def test_only_boosts_offer_choices(tmp_path: Path) -> None:
    text = broken('slot = "pet"\n', 'slot = "pet"\nchoices = [[{ kind = "ap_now", amount = 1 }]]\n', TOKEN)
    error = reward_error(tmp_path, text)
    assert error.field.startswith("rewards[0].choices")


def test_a_file_needs_a_reward(tmp_path: Path) -> None:
    assert reward_error(tmp_path, "# empty\n").field == "rewards"


def test_toml_syntax_error(tmp_path: Path) -> None:
    assert reward_error(tmp_path, TOKEN.replace('rank = "jade"', "rank = = 1")).field == "toml"


def test_duplicate_reward_id_across_files(tmp_path: Path) -> None:
    registry = registry_over(tmp_path, TOKEN)
    write(tmp_path / "rewards", "zz.toml", TOKEN.split('[[rewards]]\nid = "summoning_boost"')[0])
    with pytest.raises(ContentError) as info:
        registry.all_rewards()
    assert "duplicate reward id 'pet_test'" in info.value.reason
