"""The content vocabulary and the engine's registries must name exactly the same keywords: the shared
effect and power keywords (``krosbalance.content.keywords``), and Blast's own (``blast_keywords``),
which the Blast ruleset registers when it is imported."""

import krosbalance.rulesets.registry  # noqa: F401  (imports every ruleset, so Blast's effects register)
from krosbalance.content.blast_keywords import (
    BLAST_EFFECT_KEYWORDS,
    BLAST_POWER_KEYWORDS,
    BONUS_EFFECT_KEYWORDS,
    PASSIVE_KEYWORDS,
)
from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS
from krosbalance.content.registry import default_registry
from krosbalance.engine.effects import EFFECTS
from krosbalance.engine.powers import POWERS
from krosbalance.rulesets.blast.bonus import BONUS_EFFECTS
from krosbalance.rulesets.blast.passives import PASSIVES
from krosbalance.rulesets.blast.passives import POWERS as BLAST_POWERS


def test_every_effect_keyword_has_one_engine_function():
    assert set(EFFECTS) == set(EFFECT_KEYWORDS) | set(BLAST_EFFECT_KEYWORDS)
    assert not set(EFFECT_KEYWORDS) & set(BLAST_EFFECT_KEYWORDS)


def test_every_power_keyword_has_one_engine_rule():
    assert set(POWERS) == set(POWER_KEYWORDS)
    assert set(BLAST_POWERS) == set(BLAST_POWER_KEYWORDS)


def test_every_blast_bonus_keyword_has_one_rule():
    assert set(BONUS_EFFECTS) == set(BONUS_EFFECT_KEYWORDS)
    assert set(PASSIVES) == set(PASSIVE_KEYWORDS)


def test_every_shipped_effect_and_power_is_implemented():
    for spec in default_registry().all_characters():
        powers = BLAST_POWERS if spec.game == "blast" else POWERS
        for power in spec.powers:
            assert power.kind in powers, (spec.id, power.kind)
        for spell in spec.spells:
            for effect in spell.effects:
                assert effect.kind in EFFECTS, (spec.id, spell.id, effect.kind)
