"""Frozen specifications of game content: what a character, spell, effect or power *is*.

Specs are plain data loaded from TOML and validated once; the engine reads them but never changes
them. Behaviour lives in small registered functions looked up by ``EffectSpec.kind`` and
``PowerSpec.kind``, so adding a Krosmaster that reuses known mechanics means adding data only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MemberDescriptorType
from typing import Any

ELEMENTS: tuple[str, ...] = ("neutral", "water", "air", "earth", "fire")
SPELL_KINDS: tuple[str, ...] = ("attack", "heal", "summon", "special")
RANGE_TYPES: tuple[str, ...] = ("classic", "line", "melee", "personal")
LIMITS: tuple[str, ...] = ("unlimited", "turn", "game")  # black, blue, red (R-A66)
AREAS: tuple[str, ...] = ("single", "square", "cross", "hammer", "staff", "shovel", "axe", "needle")
TARGET_RULES: tuple[str, ...] = ("any", "free_cell", "ally", "enemy", "character")
PIECE_KINDS: tuple[str, ...] = ("krosmaster", "creature", "bomb", "trap")
NAME_COLOURS: tuple[str, ...] = ("gold", "white", "none")
MARKERS: tuple[str, ...] = ("mp", "ap")  # the two kinds of +1/-1 markers (R-A33)
#: the game a card is printed for: Arena cards (levels, initiative, name colours, per-spell costs) or
#: Krosmaster Blast cards (none of those; every spell costs 1 AP, R-B23)
GAMES: tuple[str, ...] = ("arena", "blast")
#: Demonic Reward types (R-A137): a Boost is used once, an Upgrade lasts until the start of its
#: holder's next turn, an Equipment is permanent
REWARD_KINDS: tuple[str, ...] = ("boost", "upgrade", "equipment")
#: the four kinds of equipment; a Krosmaster has at most one face-up token of each (R-A141)
EQUIPMENT_SLOTS: tuple[str, ...] = ("weapon", "set", "pet", "dofus")
#: the ranks printed on the tokens' backs, cheapest first (R-A136)
RANKS: tuple[str, ...] = ("granite", "jade", "gold")


class Frozen:
    """Base of the frozen dataclasses of the lower layers: copies and pickles rebuild them by
    calling the class with their fields. (The package runs as plain Python, where this changes
    nothing; the benchmark's mypyc copy compiles these layers, and compiled by mypyc a class would
    otherwise be unpickled by assigning its fields one by one, which a frozen dataclass refuses.)"""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), tuple(getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Let a Python ``@dataclass(frozen=True, slots=True)`` extend a compiled one (a ruleset's
        options extend ``EngineOptions``).

        Compiled by mypyc, a dataclass keeps its fields in native slots but lists no ``__slots__``,
        so ``slots=True`` on a Python subclass gives it slots of its own for the inherited fields,
        shadowing the native ones that compiled code reads (and finds unset). Removing those shadows
        sends every read and write to the native slots. Over a Python base (the pure build) the
        subclass has no such shadows and nothing happens.
        """
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        for base in cls.__mro__[1:]:
            for name in getattr(base, "__dataclass_fields__", {}):
                if isinstance(own.get(name), MemberDescriptorType):
                    delattr(cls, name)


@dataclass(frozen=True, slots=True)
class EffectSpec(Frozen):
    """One additional-effect keyword of a spell (R-A81-R-A96), e.g. ``push`` with ``{"cells": 3}``.

    ``kind`` names a function in the engine's effect registry; ``params`` are its keyword arguments.
    """

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PowerSpec(Frozen):
    """A power printed on a card (R-A100-R-A108), e.g. ``armour`` or ``resistance`` with an element."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SpellSpec(Frozen):
    """A spell as printed on a card.

    Attributes:
        id: stable English id, unique within its character (e.g. ``"to_fu_ti"``).
        name: English display name; ``aliases`` holds the Italian/French names.
        kind: attack / heal / summon / special (R-A58-R-A65).
        element: one of ELEMENTS; neutral attacks roll at most one Critical die (R-A79).
        ap_cost, mp_cost, injury_cost: the three costs (R-A58, R-A68, R-A69).
        range_min, range_max: distances counted as in R-A6; melee is 1-1, personal 0-0.
        range_type: classic / line / melee / personal (R-A72-R-A77).
        needs_los: False for the no-line-of-sight spells (R-A75).
        fixed_range: True when the max can never be increased (red numbers, no-LOS, melee, personal).
        limit: unlimited / turn / game (black / blue / red, R-A66).
        amount: printed damage (attack) or heal (heal); 0 for summon and special spells.
        area: area of effect around the main target (R-A97-R-A99).
        target: which targets are legal (``any`` cell; ``free_cell`` for summons; ``ally``...).
        effects: additional effects in printed order.
        summons: id of the summoned piece for summon spells.
        summon_control: the number in parentheses (R-A67); 0 when not a summon.
        source: where every doubtful value came from.
    """

    id: str
    name: str
    kind: str
    element: str = "neutral"
    ap_cost: int = 0
    mp_cost: int = 0
    injury_cost: int = 0
    range_min: int = 1
    range_max: int = 1
    range_type: str = "classic"
    needs_los: bool = True
    fixed_range: bool = False
    limit: str = "unlimited"
    amount: int = 0
    area: str = "single"
    target: str = "any"
    effects: tuple[EffectSpec, ...] = ()
    summons: str | None = None
    summon_control: int = 0
    aliases: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True, slots=True)
class CharacterSpec(Frozen):
    """A Krosmaster card, or a summon token (creature, bomb, trap).

    ``level`` is 0 for summons (their KO gives no GG, R-A110). ``colour`` is the name colour that
    limits copies in a team (gold once, white twice, R-A147). ``game`` is the game the card is
    printed for (``GAMES``): a Krosmaster Blast card has no level, initiative or name colour (all 0 /
    ``"none"``). ``on_death`` names a spell cast when
    the piece is KO'd (a bomb's Explosion, R-A111); ``trigger`` the spell a trap casts (R-A116).
    ``set`` names the box or set the card comes from (``arena-box``: the Krosmaster Arena box) and
    ``tags`` are free labels (``summon``, ``test-content``...): the registry lists characters by
    either, so code and tests select content by what it is, never by a hand-kept list.
    """

    id: str
    name: str
    kind: str
    level: int
    initiative: int
    mp: int
    hp: int
    ap: int
    powers: tuple[PowerSpec, ...] = ()
    spells: tuple[SpellSpec, ...] = ()
    colour: str = "none"
    class_name: str = ""
    aliases: tuple[str, ...] = ()
    on_death: str | None = None
    version: str = "1"
    source: dict[str, str] = field(default_factory=dict)
    set: str = ""
    tags: tuple[str, ...] = ()
    game: str = "arena"

    def spell(self, spell_id: str) -> SpellSpec:
        """The spell with this id; KeyError names the character when it has none."""
        for spell in self.spells:
            if spell.id == spell_id:
                return spell
        raise KeyError(f"{self.name} has no spell {spell_id!r}")

    def has_power(self, kind: str) -> bool:
        return any(power.kind == kind for power in self.powers)


@dataclass(frozen=True, slots=True)
class RewardSpec(Frozen):
    """A Demonic Reward token (R-A51-R-A54, R-A136-R-A145).

    Attributes:
        id: stable English id (e.g. ``"xelor_style"``); ``aliases`` holds the Italian name.
        name: English display name.
        kind: boost / upgrade / equipment (R-A137).
        slot: for equipment, weapon / set / pet / dofus (one face-up of each, R-A141); "" otherwise.
        rank: granite / jade / gold, the rank on the token's back (R-A136). The rulebook never prints
            an individual token's rank, so most ranks are assumptions a box owner can correct.
        effects: reward-effect keywords (``content.keywords.REWARD_KEYWORDS``) applied when the token
            is revealed (boost) or while it is face up (upgrade, equipment).
        choices: for a token that says "choose one" (Masqueraider Style), the alternatives, each a
            tuple of effects; the holder's player picks one when revealing it.
        spell: the spell a weapon grants (R-A143), or the single-use spell a Boost casts when used.
        set: the box the token comes from (e.g. ``arena-box``); ``tags`` free labels.
        source: where each doubtful value comes from, by field name (``rank``, ``card``...).
    """

    id: str
    name: str
    kind: str
    rank: str
    set: str = ""
    tags: tuple[str, ...] = ()
    slot: str = ""
    effects: tuple[EffectSpec, ...] = ()
    choices: tuple[tuple[EffectSpec, ...], ...] = ()
    spell: SpellSpec | None = None
    aliases: tuple[str, ...] = ()
    version: str = "1"
    source: dict[str, str] = field(default_factory=dict)

    def has_effect(self, kind: str) -> bool:
        return any(effect.kind == kind for effect in self.effects)
