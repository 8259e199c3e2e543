"""The keyword vocabulary is data the engine's registries must match exactly."""

from __future__ import annotations

from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS


def test_schemas_use_only_int_and_str() -> None:
    for table in (EFFECT_KEYWORDS, POWER_KEYWORDS):
        for schema in table.values():
            assert set(schema.values()) <= {int, str}
