"""The vocabulary of effect and power keywords, with their parameter schemas, as data.

A spell's additional effects (R-A81-R-A96) and a card's powers (R-A100-R-A107) are written in the
character TOML files as keywords with parameters. This module is the single list of the keywords the
content layer accepts: the loader validates every ``EffectSpec``/``PowerSpec`` against it, and the
engine registers exactly one function per keyword (a test asserts the two key sets are equal).

Each schema maps a parameter name to its Python type. Every listed parameter is required and no other
parameter is allowed. Value rules shared by several keywords live in the loader: a parameter named
``element`` must be one of ``specs.ELEMENTS``; ``int`` parameters must be positive; ``summon`` must
name a loaded summon token.
"""

from __future__ import annotations

EFFECT_KEYWORDS: dict[str, dict[str, type]] = {
    # R-A81: after step 5 the caster removes as many injuries as it inflicted.
    "lifesteal": {},
    # R-A82: the target rolls one Armour die fewer.
    "pierce_armour": {},
    # R-A83-R-A87: special movements, one cell at a time, stopped by obstacles, never by Lock.
    "retreat": {"cells": int},
    "approach": {"cells": int},
    "push": {"cells": int},
    "attract": {"cells": int},
    # R-A90-R-A94: markers that act at the start of the affected character's next activation.
    "minus_mp": {"amount": int},
    "plus_mp": {"amount": int},
    "minus_ap": {"amount": int},
    "plus_ap": {"amount": int},
    "steal_mp": {"amount": int},
    "steal_ap": {"amount": int},
    # R-A95: caster and target swap cells (Assault, Transposition); special movement, no Lock roll.
    "swap_places": {},
    # R-A96: +damage for each of the caster's own summons with this id adjacent to the target
    # (To Fu Ti +1 per Tofu, Gobbolob +2 for the Gobball).
    "bonus_per_adjacent_summon": {"summon": str, "damage": int},
    # R-A80: "+X <element>" damage added to this spell.
    "element_bonus": {"element": str, "amount": int},
    # Distant Shot (R-A72, R-A168): +X max range to this caster's extendable spells until end of turn.
    "range_bonus_this_turn": {"amount": int},
    # Distant Shot's price: the caster loses all its remaining MP now.
    "lose_all_mp": {},
}

POWER_KEYWORDS: dict[str, dict[str, type]] = {
    "critical": {},  # R-A101
    "armour": {},  # R-A101
    "lock": {},  # R-A101
    "dodge": {},  # R-A101
    "tiny": {},  # R-A103
    "counter": {},  # R-A104
    "healing": {},  # R-A105
    "unfazed": {},  # R-A106
    "resistance": {"element": str},  # R-A102
    "immune": {"element": str},  # R-A107 (per element by default)
}
