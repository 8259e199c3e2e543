"""The Krosmaster Blast vocabulary: the keywords Blast cards, favors and Divine Challenges are written in.

Like ``krosbalance.content.keywords`` for Arena, this module is the single list of what the content
layer accepts, as data: each keyword maps its parameter names to Python types (every listed
parameter is required, no other is allowed; ``int`` parameters are positive, ``marker`` is ``"mp"``
or ``"ap"``, ``summon`` names a loaded Invocation, ``terrain`` one of ``TERRAINS``). The Blast ruleset
registers exactly one function per keyword (a test asserts the key sets are equal).

Four families:

- ``BLAST_EFFECT_KEYWORDS``: additional effects only Blast spells have (they read Blast's holdings),
  on top of the shared effect keywords (push, markers, ``move_to_target`` for Bond imprudent,
  ``different_target_next`` for Roulette de chat...) a Blast card may also use;
- ``BLAST_POWER_KEYWORDS``: powers printed on Blast Krosmaster cards;
- ``PASSIVE_KEYWORDS``: passive Divine Challenge bonuses (R-B42), on while their tier is reached;
- ``BONUS_EFFECT_KEYWORDS``: what a Krosmic Favor or an active Divine Challenge bonus does when a
  Krosmaster uses it (R-B17, R-B43), applied in order to the bonus's target.
"""

from __future__ import annotations

#: special terrain tiles (R-B44-R-B48)
TERRAINS: tuple[str, ...] = ("ice", "fire", "fog")

BLAST_EFFECT_KEYWORDS: dict[str, dict[str, type]] = {
    # Peine capitole (p.8): "4 Glyphes: met un marqueur -1 a la cible" - while the caster's player
    # controls at least ``glyphs`` glyph cells, the target receives ``amount`` minus markers (R-B29).
    "minus_marker_if_glyphs": {"glyphs": int, "marker": str, "amount": int},
}

BLAST_POWER_KEYWORDS: dict[str, dict[str, type]] = {
    # Territorial (Gege Ronimo, p.6): each time the holder captures a glyph cell it receives +amount
    # markers (icon lost: the card says which with ``marker``); received in its own activation, they
    # act at once (R-B26).
    "capture_marker": {"marker": str, "amount": int},
    # Relance (p.10, effect assumed): while its player controls at least ``glyphs`` glyph cells, once
    # per turn the holder rerolls a combat roll of its own spells that shows the -1 face.
    "combat_reroll": {"glyphs": int},
}

PASSIVE_KEYWORDS: dict[str, dict[str, type]] = {
    # Baaaston! (Grande Melee de Iop, p.12): an allied Krosmaster that captures a glyph cell while its
    # player already controls the tier's glyphs receives +amount markers for this turn.
    "capture_marker": {"marker": str, "amount": int},
    # Force decuplee (p.12): allied Krosmasters' damaging spells deal +amount damage.
    "spell_damage_bonus": {"amount": int},
    # Glyphe de soin (Monde merveilleux d'Eniripsa, p.4): an allied Krosmaster that captures a glyph
    # cell heals ``amount``.
    "capture_heal": {"amount": int},
    # Amitie (p.4): an allied Krosmaster whose activation ends orthogonally next to another allied
    # Krosmaster receives ``mp`` MP and ``ap`` AP markers (they act during its next activation).
    "end_activation_next_to_ally": {"mp": int, "ap": int},
    # assumed cards: +amount max range to allied Krosmasters' spells whose range is more than 1-1.
    "spell_range_bonus": {"amount": int},
    # assumed cards: an enemy Combatant that ends its activation on a glyph cell you control suffers
    # ``amount`` damage (no combat roll).
    "glyph_trap_damage": {"amount": int},
    # assumed cards: an allied Krosmaster that ends its activation on a glyph cell you control heals
    # ``amount``.
    "end_activation_on_glyph_heal": {"amount": int},
    # assumed cards: allied Krosmasters start each activation with +amount markers.
    "activation_marker": {"marker": str, "amount": int},
    # assumed cards: once per turn each allied Krosmaster rerolls a combat roll showing the -1 face.
    "combat_reroll": {},
}

BONUS_EFFECT_KEYWORDS: dict[str, dict[str, type]] = {
    # Brasier (p.5): the next damaging spell of the active Krosmaster this turn deals +amount.
    "next_spell_damage": {"amount": int},
    # Vague de froid, Brasero, Nappe de brouillard (p.13): put a terrain tile on the target cell,
    # first removing one of that type when four are already on the board (R-B44, R-B45).
    "place_terrain": {"terrain": str},
    # markers on the active Krosmaster (it is acting: they act at once, R-B26)
    "marker_self": {"marker": str, "amount": int},
    # the active Krosmaster heals ``amount``
    "heal_self": {"amount": int},
    # Invasion de lapinos (p.4): put an Invocation of the active player on the target cell, at most
    # ``max`` of that Invocation in play for that player (R-B21, R-B27).
    "summon": {"summon": str, "max": int},
    # the active Krosmaster moves to the target cell (no dodge roll: an effect, R-B35)
    "leap": {},
    # the target Combatant is pushed ``cells`` cells away from the active Krosmaster (R-B28)
    "push_target": {"cells": int},
    # the target Combatant suffers ``amount`` damage (combat roll per the ruleset option)
    "damage_target": {"amount": int},
    # Colere de Iop (p.12): every Combatant at distance 1 to ``reach`` from the active Krosmaster
    # suffers ``amount`` damage; with ``allies`` false only the enemy's Combatants do
    "damage_around": {"amount": int, "reach": int, "allies": bool},
    # the target Combatant receives ``amount`` minus markers
    "minus_marker_target": {"marker": str, "amount": int},
    # the active player captures the target glyph cell from afar (takes the Dofus token as usual)
    "capture_target": {},
}

#: what a favor or an active bonus may target (R-B17, R-B43): nothing; a free cell; an enemy
#: Combatant; a glyph cell not yet the player's; a cell a terrain tile may go on (free, not a glyph,
#: no tile, R-B44)
BONUS_TARGETS: tuple[str, ...] = ("none", "free_cell", "enemy", "glyph", "terrain_cell")
