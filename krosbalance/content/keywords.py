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
    # Pandawa Style (Demonic Reward, seed L2961-L2966): an ally adjacent to the caster is moved onto
    # the spell's target cell (a free cell); special movement, no Lock. The player picks the ally
    # (the cast's ``choice``: the ally's cell); with none chosen, the spell moves nobody.
    "carry_ally": {},
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
    "krobust": {},  # Merkator's card: at most 3 injuries from one enemy spell (engine.powers)
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
    # R-A48, R-A145, the Upgrade "Perfect Lock" (Blocco Perfetto, seed L3013-L3016): enemy characters
    # adjacent to the holder cannot spend MP to leave melee contact with it — no roll, and since
    # every step from an orthogonally adjacent cell leaves that contact, they cannot walk at all.
    # Tiny characters are held too: Tiny exempts them from Lock rolls (R-A103), but this upgrade
    # forbids the step itself, and the rule that forbids prevails (R-A8, seed L2113-L2115).
    # Special movements (push, swaps, Recall Potion) are not spending MP.
    "perfect_lock": {},
}

#: Demonic Reward effects (R-A136-R-A145; every token is listed in ``data/rewards/``). A Boost's
#: effects are applied once when it is revealed (``INSTANT_REWARD_KEYWORDS``); an Upgrade's or an
#: Equipment's apply while the token lies face up (the others). "Immediately" gains act at once,
#: unlike spell markers (R-A35, R-A172). Value rules are the loader's, as for spell effects, plus:
#: ``rank`` is a rank name, ``power`` a power keyword without parameters, and a ``damage`` element
#: is never neutral (no reward adds neutral damage).
REWARD_KEYWORDS: dict[str, dict[str, type]] = {
    # --- Boosts: applied when revealed, then the token goes back to the box (R-A54)
    "mp_now": {"amount": int},  # "immediately +X MP": usable this turn
    "ap_now": {"amount": int},  # "immediately +X AP"
    "kamas": {"amount": int},  # X kamas from the reserve to the team stock (as many as it holds)
    "gg": {"amount": int},  # the team gains X GG (wild GG first, R-A129)
    # remove up to X injury markers from the holder: not a healing spell, so no Critical roll and
    # no Healing bonus
    "remove_injuries": {"amount": int},
    # the holder places X injury markers on itself; reaching its HP KOs it at once (R-A166)
    "self_injuries": {"amount": int},
    # +X damage to the next spell the holder casts this turn, if it is an attack of that element;
    # a spell of another element uses the boost up (ruleset option ``element_boost_waits``)
    "next_spell_damage": {"element": str, "amount": int},
    # +X damage to the next elemental (never neutral) attack the holder casts this turn
    "next_elemental_attack_damage": {"amount": int},
    # a creature on a free cell adjacent to the holder, acting right after it (R-A144)
    "summon": {"summon": str},
    # the holder is put on a free deployment cell of its team; a special movement, no Lock
    "recall": {},
    # a coin toss: heads, the top face-down token of that rank goes face down to the holder
    "draw_reward": {"rank": str},
    # the player may pay X kamas to the reserve to gain 1 GG
    "buy_gg": {"kamas": int},
    # the token's single-use spell is cast at once, paying its costs (R-A143)
    "one_shot_spell": {},
    # --- Upgrades and Equipment: while face up (R-A140: characteristics change at once)
    "max_mp": {"amount": int},
    "max_ap": {"amount": int},
    "max_hp": {"amount": int},  # max HP; the injuries already placed stay
    # -X MP: the characteristic drops, and X of the MP still available this turn are lost (R-A142)
    "lower_mp": {"amount": int},
    "power": {"power": str},  # gains a power; owning it already gives nothing more (R-A100, R-A160)
    "resistance": {"element": str},  # the Resistance power of that element (R-A102)
    "immune": {"element": str},  # no injuries from attack spells of that element (R-A107)
    "range": {"amount": int},  # +X max range of the holder's spells whose range can change (R-A73)
    "damage": {"element": str, "amount": int},  # its attack spells of that element deal +X
    "elemental_damage": {"amount": int},  # its Water, Air, Earth and Fire attack spells deal +X
    "melee_damage": {"amount": int},  # its melee elemental attack spells deal +X
    "melee_lifesteal": {},  # its melee elemental attack spells gain Lifesteal (R-A81)
    "weapon": {},  # the token's spell becomes a spell of the holder (R-A143)
}

#: the reward keywords a Boost may use; Upgrades and Equipment use the others
INSTANT_REWARD_KEYWORDS: frozenset[str] = frozenset(
    (
        "mp_now",
        "ap_now",
        "kamas",
        "gg",
        "remove_injuries",
        "self_injuries",
        "next_spell_damage",
        "next_elemental_attack_damage",
        "summon",
        "recall",
        "draw_reward",
        "buy_gg",
        "one_shot_spell",
    )
)
