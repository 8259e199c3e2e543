"""The keyword vocabulary is data the engine's registries must match exactly."""

from __future__ import annotations

from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS


def test_effect_keywords_and_schemas() -> None:
    assert {
        "lifesteal": {},
        "pierce_armour": {},
        "retreat": {"cells": int},
        "approach": {"cells": int},
        "push": {"cells": int},
        "attract": {"cells": int},
        "minus_mp": {"amount": int},
        "plus_mp": {"amount": int},
        "minus_ap": {"amount": int},
        "plus_ap": {"amount": int},
        "steal_mp": {"amount": int},
        "steal_ap": {"amount": int},
        "swap_places": {},
        "bonus_per_adjacent_summon": {"summon": str, "damage": int},
        "element_bonus": {"element": str, "amount": int},
        "range_bonus_this_turn": {"amount": int},
        "lose_all_mp": {},
    } == EFFECT_KEYWORDS


def test_power_keywords_and_schemas() -> None:
    simple = ("critical", "armour", "lock", "dodge", "tiny", "counter", "healing", "unfazed")
    assert {
        **dict.fromkeys(simple, {}),
        "resistance": {"element": str},
        "immune": {"element": str},
    } == POWER_KEYWORDS


def test_schemas_use_only_int_and_str() -> None:
    for table in (EFFECT_KEYWORDS, POWER_KEYWORDS):
        for schema in table.values():
            assert set(schema.values()) <= {int, str}
