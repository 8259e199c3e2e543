"""The content vocabulary and the engine's registries must name exactly the same keywords."""

from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS
from krosbalance.content.registry import default_registry
from krosbalance.engine.effects import EFFECTS
from krosbalance.engine.powers import POWERS


def test_every_effect_keyword_has_one_engine_function():
    assert set(EFFECTS) == set(EFFECT_KEYWORDS)


def test_every_power_keyword_has_one_engine_rule():
    assert set(POWERS) == set(POWER_KEYWORDS)


def test_every_shipped_effect_and_power_is_implemented():
    for spec in default_registry().all_characters():
        for power in spec.powers:
            assert power.kind in POWERS, (spec.id, power.kind)
        for spell in spec.spells:
            for effect in spell.effects:
                assert effect.kind in EFFECTS, (spec.id, spell.id, effect.kind)
