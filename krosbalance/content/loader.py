"""Parse and validate character TOML files into ``CharacterSpec``s.

Validation happens once, here, so the engine can trust every spec it is given. Every problem raises
``ContentError(file, field, reason)`` where ``field`` is the path inside the file in the TOML's own
keys, e.g. ``characters[0].spells[1].range_max``: a content author fixes the file from the message
alone, never from a traceback. The layout is documented in ``data/README.md``.

Consistency rules enforced (beyond types and vocabularies):

- R-A76/R-A77: ``melee`` spells are range 1-1 and ``personal`` spells 0-0, both with a fixed range
  (omitted values default to these).
- R-A75: a spell that ignores line of sight (``needs_los = false``) has a fixed range.
- R-A64/R-A67: a summon spell targets a ``free_cell``, names the piece it ``summons`` and has a positive
  ``summon_control``; other spells have neither. R-A70: summon and special spells deal no damage.
- R-A100: a card lists each power once.
- R-A111: ``on_death`` names a spell of the same piece.
- Every character names its ``set`` (the box it comes from, e.g. ``arena-box``) and may carry
  ``tags``; both are labels (lowercase letters, digits, '-'), tags listed once.
- R-B23, R-B50: a Krosmaster Blast card (``game = "blast"``) has no level, initiative or name colour,
  and each of its spells costs exactly 1 AP and nothing else.
- Across files: ids, names and aliases are unique once normalised (case, accents, spaces,
  underscores, apostrophes and hyphens ignored), and every summon reference names a loaded summon token.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from krosbalance.content.blast_keywords import BLAST_EFFECT_KEYWORDS, BLAST_POWER_KEYWORDS, TERRAINS
from krosbalance.content.keywords import EFFECT_KEYWORDS, POWER_KEYWORDS
from krosbalance.content.specs import (
    AREAS,
    ELEMENTS,
    GAMES,
    LIMITS,
    MARKERS,
    NAME_COLOURS,
    PIECE_KINDS,
    RANGE_TYPES,
    SPELL_KINDS,
    TARGET_RULES,
    CharacterSpec,
    EffectSpec,
    Frozen,
    PowerSpec,
    SpellSpec,
)
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError

__all__ = ["LoadedCharacter", "load_characters", "load_file", "normalize_name", "parse_document"]

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_LABEL_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # set names and tags: "arena-box", "test-content"
_REQUIRED = object()
_SUMMON_KINDS = tuple(kind for kind in PIECE_KINDS if kind != "krosmaster")
# Keys accepted in a character's ``source`` table: its fields plus "card" for a note on the whole card.
_SOURCE_KEYS = tuple(f.name for f in fields(CharacterSpec) if f.name != "source") + ("card",)
#: the effect and power vocabularies of each game's cards: Blast cards may use the Arena effects
#: (push, markers...) and the Blast ones, and only Blast powers (Arena's dice powers have no Blast roll)
_EFFECTS_OF: dict[str, Mapping[str, Mapping[str, type]]] = {
    "arena": EFFECT_KEYWORDS,
    "blast": {**EFFECT_KEYWORDS, **BLAST_EFFECT_KEYWORDS},
}
_POWERS_OF: dict[str, Mapping[str, Mapping[str, type]]] = {
    "arena": POWER_KEYWORDS,
    "blast": BLAST_POWER_KEYWORDS,
}


def normalize_name(text: str) -> str:
    """Lookup key for a name: casefolded, accents dropped, only letters and digits kept.

    "Anna Tommy", "anna_tommy" and "ANNA-TOMMY" share one key; "Frè Gato" and "Fre Gato" too.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed.casefold() if ch.isalnum())


@dataclass(frozen=True, slots=True)
class LoadedCharacter(Frozen):
    """A validated spec and where it came from (for cross-file error messages)."""

    spec: CharacterSpec
    file: str
    field: str  # e.g. "characters[2]"


# --------------------------------------------------------------------------------------------- tables


def _type_name(expected: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        str: "a string",
        bool: "a boolean (true/false)",
        list: "an array",
        dict: "a table",
    }
    if isinstance(expected, tuple):
        return " or ".join(names.get(t, t.__name__) for t in expected)
    return names.get(expected, expected.__name__)


def _value_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _is_type(value: Any, expected: type) -> bool:
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


def _choices(values: Iterable[str]) -> str:
    return ", ".join(sorted(values))


class _Table:
    """One TOML table being read: typed getters that know their field path, and an unknown-key check."""

    def __init__(self, file: str, path: str, data: Any) -> None:
        if not isinstance(data, dict):
            raise ContentError(file, path, f"expected a table, got {_value_kind(data)}")
        self.file = file
        self.path = path
        self.data: dict[str, Any] = data
        self.used: set[str] = set()

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, reason: str) -> ContentError:
        return ContentError(self.file, self.field(key), reason)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, expected: type, default: Any = _REQUIRED) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is _REQUIRED:
                raise self.error(key, f"missing required field (expected {_type_name(expected)})")
            return default
        value = self.data[key]
        if not _is_type(value, expected):
            raise self.error(key, f"expected {_type_name(expected)}, got {_value_kind(value)} {value!r}")
        return value

    def nonneg(self, key: str, default: Any = _REQUIRED) -> int:
        value = self.get(key, int, default)
        if value < 0:
            raise self.error(key, f"must be >= 0, got {value}")
        return int(value)

    def text(self, key: str, default: Any = _REQUIRED) -> str:
        value = self.get(key, str, default)
        if isinstance(value, str) and key in self.data and not value.strip():
            raise self.error(key, "must not be empty")
        return str(value)

    def ident(self, key: str) -> str:
        value = self.get(key, str)
        if not _ID_RE.match(value):
            raise self.error(
                key, f"{value!r} is not a valid id (lowercase letters, digits, '_', starting with a letter)"
            )
        return str(value)

    def choice(self, key: str, allowed: tuple[str, ...], default: Any = _REQUIRED) -> str:
        value = self.get(key, str, default)
        if value not in allowed:
            raise self.error(key, f"{value!r} is not one of the allowed values: {', '.join(allowed)}")
        return str(value)

    def label(self, key: str, default: Any = _REQUIRED) -> str:
        value = self.get(key, str, default)
        if not _LABEL_RE.match(value):
            raise self.error(
                key, f"{value!r} is not a valid label (lowercase letters, digits and '-', e.g. 'arena-box')"
            )
        return str(value)

    def labels(self, key: str) -> tuple[str, ...]:
        values = self.get(key, list, [])
        for i, value in enumerate(values):
            if not isinstance(value, str) or not _LABEL_RE.match(value):
                raise ContentError(
                    self.file,
                    f"{self.field(key)}[{i}]",
                    f"expected a label (lowercase letters, digits and '-'), got {value!r}",
                )
            if value in values[:i]:
                raise ContentError(self.file, f"{self.field(key)}[{i}]", f"tag {value!r} is listed twice")
        return tuple(values)

    def strings(self, key: str) -> tuple[str, ...]:
        values = self.get(key, list, [])
        for i, value in enumerate(values):
            if not isinstance(value, str) or not value.strip():
                raise ContentError(
                    self.file, f"{self.field(key)}[{i}]", f"expected a non-empty string, got {value!r}"
                )
        return tuple(values)

    def tables(self, key: str) -> list[_Table]:
        values = self.get(key, list, [])
        return [_Table(self.file, f"{self.field(key)}[{i}]", value) for i, value in enumerate(values)]

    def finish(self) -> None:
        """Reject keys nobody read: typos must not pass silently."""
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], f"unknown field; allowed fields here: {_choices(self.used)}")


# ------------------------------------------------------------------------------------------ keywords


def _keyword_params(table: _Table, kind: str, schema: Mapping[str, type], what: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, expected in schema.items():
        if name not in table.data:
            wanted = ", ".join(f"{n} ({_type_name(t)})" for n, t in schema.items())
            raise table.error(name, f"{what} {kind!r} requires the parameters: {wanted}")
        value = table.get(name, expected)
        if expected is int and value <= 0:
            raise table.error(name, f"must be a positive integer, got {value}")
        if name == "element" and value not in ELEMENTS:
            raise table.error(name, f"{value!r} is not one of the allowed values: {', '.join(ELEMENTS)}")
        if name == "marker" and value not in MARKERS:
            raise table.error(name, f"{value!r} is not one of the allowed values: {', '.join(MARKERS)}")
        if name == "terrain" and value not in TERRAINS:
            raise table.error(name, f"{value!r} is not one of the allowed values: {', '.join(TERRAINS)}")
        if name == "summon" and not _ID_RE.match(value):
            raise table.error(name, f"{value!r} is not a valid piece id")
        params[name] = value
    extra = sorted(set(table.data) - set(schema) - {"kind"})
    if extra:
        allowed = ", ".join(schema) or "none"
        raise table.error(extra[0], f"unknown parameter for {what} {kind!r}; its parameters: {allowed}")
    table.used.update(table.data)
    return params


def _parse_effect(
    table: _Table, vocabulary: Mapping[str, Mapping[str, type]] = EFFECT_KEYWORDS, what: str = "effect"
) -> EffectSpec:
    kind = table.get("kind", str)
    if kind not in vocabulary:
        raise table.error(
            "kind", f"unknown {what} keyword {kind!r}; known {what} keywords: {_choices(vocabulary)}"
        )
    return EffectSpec(kind, _keyword_params(table, kind, vocabulary[kind], what))


def _parse_powers(
    owner: _Table, vocabulary: Mapping[str, Mapping[str, type]] = POWER_KEYWORDS
) -> tuple[PowerSpec, ...]:
    raw = owner.get("powers", list, [])
    powers: list[PowerSpec] = []
    for i, item in enumerate(raw):
        path = f"{owner.field('powers')}[{i}]"
        table = _Table(owner.file, path, {"kind": item} if isinstance(item, str) else item)
        kind = table.get("kind", str)
        if kind not in vocabulary:
            field_path = path if isinstance(item, str) else table.field("kind")
            raise ContentError(
                owner.file,
                field_path,
                f"unknown power keyword {kind!r}; known power keywords: {_choices(vocabulary)}",
            )
        power = PowerSpec(kind, _keyword_params(table, kind, vocabulary[kind], "power"))
        if power in powers:  # R-A100: a power counts once
            raise ContentError(
                owner.file, path, f"power {kind!r} is listed twice (R-A100: a power counts once)"
            )
        powers.append(power)
    return tuple(powers)


# -------------------------------------------------------------------------------------------- spells


def _parse_spell(table: _Table, effects: Mapping[str, Mapping[str, type]] = EFFECT_KEYWORDS) -> SpellSpec:
    spell_id = table.ident("id")
    name = table.text("name")
    kind = table.choice("kind", SPELL_KINDS)
    damaging = kind in ("attack", "heal")
    element = table.choice("element", ELEMENTS, _REQUIRED if damaging else "neutral")
    ap_cost = table.nonneg("ap_cost")
    mp_cost = table.nonneg("mp_cost", 0)
    injury_cost = table.nonneg("injury_cost", 0)

    range_type = table.choice("range_type", RANGE_TYPES)
    needs_los = table.get("needs_los", bool, True)
    forced = {"melee": (1, 1), "personal": (0, 0)}.get(range_type)
    if forced is None:
        range_min = table.nonneg("range_min")
        range_max = table.nonneg("range_max")
    else:  # R-A76, R-A77
        range_min = table.nonneg("range_min", forced[0])
        range_max = table.nonneg("range_max", forced[1])
        for key, value, wanted in (("range_min", range_min, forced[0]), ("range_max", range_max, forced[1])):
            if value != wanted:
                raise table.error(key, f"a {range_type} spell has range {forced[0]}-{forced[1]}, got {value}")
    if range_min > range_max:
        raise table.error("range_max", f"range_min {range_min} > range_max {range_max}")
    must_fix = forced is not None or not needs_los
    fixed_range = table.get("fixed_range", bool, must_fix)
    if must_fix and not fixed_range:
        why = f"a {range_type} spell" if forced is not None else "a spell with needs_los = false (R-A75)"
        raise table.error("fixed_range", f"{why} always has a fixed range; set fixed_range = true or omit it")

    limit = table.choice("limit", LIMITS, "unlimited")
    amount = table.nonneg("amount", _REQUIRED if damaging else 0)
    if not damaging and amount != 0:  # R-A70
        raise table.error(
            "amount", f"a {kind} spell deals no damage and heals nothing (R-A70); amount must be 0"
        )
    area = table.choice("area", AREAS, "single")
    target = table.choice("target", TARGET_RULES, "free_cell" if kind == "summon" else "any")
    effect_specs = tuple(_parse_effect(effect, effects) for effect in table.tables("effects"))

    if kind == "summon":  # R-A64, R-A67
        summons = table.ident("summons")
        summon_control = table.get("summon_control", int)
        if summon_control <= 0:
            raise table.error(
                "summon_control",
                f"a summon spell needs a positive summon_control (R-A67), got {summon_control}",
            )
        if target != "free_cell":
            raise table.error("target", f"a summon spell targets a free_cell (R-A64), got {target!r}")
    else:
        for key in ("summons", "summon_control"):
            if table.has(key):
                raise table.error(key, f"only summon spells have {key}; this spell's kind is {kind!r}")
        summons, summon_control = None, 0
    aliases = table.strings("aliases")
    source = table.get("source", str, "")
    table.finish()
    return SpellSpec(
        id=spell_id,
        name=name,
        kind=kind,
        element=element,
        ap_cost=ap_cost,
        mp_cost=mp_cost,
        injury_cost=injury_cost,
        range_min=range_min,
        range_max=range_max,
        range_type=range_type,
        needs_los=needs_los,
        fixed_range=fixed_range,
        limit=limit,
        amount=amount,
        area=area,
        target=target,
        effects=effect_specs,
        summons=summons,
        summon_control=summon_control,
        aliases=aliases,
        source=source,
    )


# ---------------------------------------------------------------------------------------- characters


def _parse_character(table: _Table) -> CharacterSpec:
    char_id = table.ident("id")
    name = table.text("name")
    kind = table.choice("kind", PIECE_KINDS)
    card_set = table.label("set")
    tags = table.labels("tags")
    game = table.choice("game", GAMES, "arena")
    if game == "blast":  # R-B50: no levels, no initiative, no name colours
        for key in ("level", "initiative", "colour"):
            if table.has(key):
                raise table.error(key, f"a Krosmaster Blast card has no {key} (R-B50); remove it")
        level = initiative = 0
    else:
        level = table.get("level", int)
        if kind == "krosmaster" and level <= 0:
            raise table.error("level", f"a Krosmaster's level must be positive, got {level}")
        if level < 0:
            raise table.error("level", f"must be >= 0, got {level}")
        initiative = table.nonneg("initiative")
    mp = table.nonneg("mp")
    hp = table.nonneg("hp")
    if hp == 0 and kind != "trap":  # traps have no HP (R-A116)
        raise table.error("hp", f"a {kind} needs at least 1 HP")
    ap = table.nonneg("ap")
    if game == "blast":
        colour = "none"
    elif kind == "krosmaster":  # R-A147
        colour = table.choice("colour", ("gold", "white"))
    else:
        colour = table.choice("colour", NAME_COLOURS, "none")
        if colour != "none":
            raise table.error("colour", f"only Krosmasters have a name colour; a {kind} has colour 'none'")
    powers = _parse_powers(table, _POWERS_OF[game])
    spells: list[SpellSpec] = []
    seen: dict[str, int] = {}
    for i, spell_table in enumerate(table.tables("spells")):
        spell = _parse_spell(spell_table, _EFFECTS_OF[game])
        if game == "blast" and (spell.ap_cost != 1 or spell.mp_cost or spell.injury_cost):
            raise ContentError(
                table.file,
                f"{spell_table.path}.ap_cost",
                "every Krosmaster Blast spell costs exactly 1 AP and nothing else (R-B23)",
            )
        for key in {
            normalize_name(spell.id),
            normalize_name(spell.name),
            *map(normalize_name, spell.aliases),
        }:
            if key in seen and seen[key] != i:
                raise ContentError(
                    table.file,
                    f"{spell_table.path}.id",
                    f"spell {spell.id!r} clashes with {table.field('spells')}[{seen[key]}] "
                    f"(same id, name or alias)",
                )
            seen[key] = i
        spells.append(spell)
    class_name = table.get("class_name", str, "")
    aliases = table.strings("aliases")
    on_death = table.get("on_death", str, None)
    if on_death is not None and on_death not in {spell.id for spell in spells}:
        known = _choices(spell.id for spell in spells) or "none"
        raise table.error("on_death", f"{on_death!r} names no spell of {char_id!r}; its spells: {known}")
    version = table.text("version", "1")
    source_table = _Table(table.file, table.field("source"), table.get("source", dict, {}))
    source: dict[str, str] = {}
    for key in list(source_table.data):
        if key not in _SOURCE_KEYS:
            raise source_table.error(
                key, f"source notes name a character field; allowed: {_choices(_SOURCE_KEYS)}"
            )
        source[key] = source_table.text(key)
    table.finish()
    return CharacterSpec(
        id=char_id,
        name=name,
        kind=kind,
        level=level,
        initiative=initiative,
        mp=mp,
        hp=hp,
        ap=ap,
        powers=powers,
        spells=tuple(spells),
        colour=colour,
        class_name=class_name,
        aliases=aliases,
        on_death=on_death,
        version=version,
        source=source,
        set=card_set,
        tags=tags,
        game=game,
    )


def parse_document(data: Mapping[str, Any], file: str) -> tuple[CharacterSpec, ...]:
    """Validate one parsed TOML document (``{"characters": [...]}``) into specs."""
    top = _Table(file, "", dict(data))
    tables = top.tables("characters")
    if not tables:
        raise top.error(
            "characters", "missing required field: a file holds at least one [[characters]] table"
        )
    top.finish()
    return tuple(_parse_character(table) for table in tables)


def load_file(path: str | Path) -> tuple[CharacterSpec, ...]:
    """Read and validate one character file; TOML syntax errors become ContentError(field="toml")."""
    path = Path(path)
    return parse_document(read_toml(path), str(path))


# ------------------------------------------------------------------------------------- cross-file


def _summon_refs(loaded: LoadedCharacter) -> Iterable[tuple[str, str]]:
    """(field path, referenced piece id) for every summon reference of one character."""
    for j, spell in enumerate(loaded.spec.spells):
        spell_path = f"{loaded.field}.spells[{j}]"
        if spell.summons is not None:
            yield f"{spell_path}.summons", spell.summons
        for k, effect in enumerate(spell.effects):
            if "summon" in effect.params:
                yield f"{spell_path}.effects[{k}].summon", effect.params["summon"]


def load_characters(paths: Iterable[str | Path]) -> dict[str, LoadedCharacter]:
    """Load several files and check them together: unique ids/names/aliases, summon references resolve.

    Returns the characters keyed by id, in file order.
    """
    loaded: dict[str, LoadedCharacter] = {}
    owners: dict[str, LoadedCharacter] = {}  # normalised id/name/alias -> owner
    for path in paths:
        for i, spec in enumerate(load_file(path)):
            entry = LoadedCharacter(spec, str(path), f"characters[{i}]")
            if spec.id in loaded:
                other = loaded[spec.id]
                raise ContentError(
                    entry.file,
                    f"{entry.field}.id",
                    f"duplicate id {spec.id!r}, already defined in {other.file} ({other.field})",
                )
            for label, text in (
                ("id", spec.id),
                ("name", spec.name),
                *(("aliases", a) for a in spec.aliases),
            ):
                key = normalize_name(text)
                owner = owners.get(key)
                if owner is not None and owner.spec.id != spec.id:
                    raise ContentError(
                        entry.file,
                        f"{entry.field}.{label}",
                        f"{text!r} is already used by {owner.spec.id!r} in {owner.file} ({owner.field}); "
                        "ids, names and aliases must be unique ignoring case, accents, spaces, '_', \"'\" and '-'",
                    )
                owners[key] = entry
            loaded[spec.id] = entry
    for entry in loaded.values():
        for field_path, ref in _summon_refs(entry):
            target = loaded.get(ref)
            if target is None or target.spec.kind == "krosmaster":
                tokens = _choices(k for k, v in loaded.items() if v.spec.kind in _SUMMON_KINDS) or "none"
                raise ContentError(
                    entry.file, field_path, f"{ref!r} names no loaded summon token; known tokens: {tokens}"
                )
    return loaded
