"""The vocabulary of effect and power keywords, with their parameter schemas, as data.

A spell's additional effects (R-A81-R-A96) and a card's powers (R-A100-R-A107) are written in the
character TOML files as keywords with parameters. This module is the single list of the keywords the
content layer accepts: the loader validates every ``EffectSpec``/``PowerSpec`` against it, and the
engine registers exactly one function per keyword (a test asserts the two key sets are equal).

Each schema maps a parameter name to its Python type. Every listed parameter is required and no other
parameter is allowed. Value rules shared by several keywords live in the loader: a parameter named
``element`` must be one of ``specs.ELEMENTS``; ``marker`` one of ``specs.MARKERS``; ``int`` parameters
must be positive; ``summon`` must name a loaded summon token.

``POWER_KEYWORDS`` holds every power the Arena rulebook defines: the nine of "Poteri di Krosmaster
Arena" (R-A101-R-A107, Resistance once per element) and the two it prints from other sets' cards as
examples of "other powers" (R-A108: Etraggy's Invisibility, Aly Zé's Stimulus), so that content
authors adding Krosmasters from other sets find them. Where the rulebook's text is incomplete the
comment says which reading the engine implements.
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
    # Bond imprudent (Krosmaster Blast, R-B28 family): the caster moves into the targeted free cell,
    # a special movement (no Lock, no dodge roll).
    "move_to_target": {},
    # Roulette de chat (Krosmaster Blast rulebook example): "your next <spell> must have a different
    # target" - the caster's next cast of this spell may not target the piece this cast targeted.
    "different_target_next": {},
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
    # R-A108, Etraggy (Add-on 2012 13/32, seed L2893-L2906): the holder does not block line of sight
    # for characters not adjacent to it, and characters not adjacent to it cannot injure it (the
    # seed's icon after "infliggergli" is lost: read as injuries, the damage of spells). Bombs and
    # traps are not characters, so they still injure it; it is "invisible, but not Unfazed".
    "invisibility": {},
    # R-A108, Aly Zé (Add-on 2012 11/32, seed L2895-L2899): at the end of the holder's turn every
    # allied Krosmaster adjacent to it gains +1 MP or +1 AP — the icon is lost in the seed, so the
    # card says which with ``marker`` ("mp" or "ap"). The +1 is a marker: it acts at the start of
    # that Krosmaster's next activation (R-A35).
    "stimulus": {"marker": str},
}
