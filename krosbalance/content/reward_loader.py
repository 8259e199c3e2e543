"""Parse and validate Demonic Reward TOML files into ``RewardSpec``s (R-A51-R-A54, R-A136-R-A145).

The same rules as the character loader: every problem raises ``ContentError(file, field, reason)``
with the field path in the file's own keys (``rewards[3].effects[0].amount``), unknown keys are
errors, and names are unique across all files once normalised. The layout is documented in
``data/rewards/README.md``.

Consistency rules enforced (beyond types and vocabularies):

- R-A137: a ``boost`` uses only instant effects (``INSTANT_REWARD_KEYWORDS``); an ``upgrade`` or an
  ``equipment`` only the continuous ones. Only boosts offer ``choices``.
- R-A141: an equipment names its ``slot`` (weapon, set, pet, dofus); other tokens have none.
- R-A143: a weapon has a ``spell`` and the ``weapon`` effect; a boost with a ``spell`` casts it once
  (``one_shot_spell``); no other token has a spell.
- ``power`` effects name a power keyword without parameters; rewards never add neutral damage, so
  ``damage``/``next_spell_damage`` elements and ``resistance``/``immune`` elements are elemental.
- Across files (``load_rewards``): unique ids, names and aliases; ``summon`` effects name a loaded
  creature (checked by the registry, which knows the characters).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from krosbalance.content.keywords import INSTANT_REWARD_KEYWORDS, POWER_KEYWORDS, REWARD_KEYWORDS
from krosbalance.content.loader import _choices, _keyword_params, _parse_spell, _Table, normalize_name
from krosbalance.content.specs import EQUIPMENT_SLOTS, RANKS, REWARD_KINDS, EffectSpec, RewardSpec
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError

__all__ = ["LoadedReward", "load_reward_file", "load_rewards", "parse_reward_document"]

_SOURCE_KEYS = tuple(f.name for f in fields(RewardSpec) if f.name != "source") + ("card",)
_ELEMENTAL_PARAMS = ("damage", "next_spell_damage", "resistance", "immune")
_PLAIN_POWERS = tuple(sorted(kind for kind, schema in POWER_KEYWORDS.items() if not schema))


@dataclass(frozen=True, slots=True)
class LoadedReward:
    """A validated token and where it came from (for cross-file error messages)."""

    spec: RewardSpec
    file: str
    field: str  # e.g. "rewards[2]"


def _parse_effect(table: _Table, instant: bool, kind_label: str) -> EffectSpec:
    kind = table.get("kind", str)
    if kind not in REWARD_KEYWORDS:
        raise table.error(
            "kind", f"unknown reward effect keyword {kind!r}; known: {_choices(REWARD_KEYWORDS)}"
        )
    if (kind in INSTANT_REWARD_KEYWORDS) != instant:
        allowed = sorted(k for k in REWARD_KEYWORDS if (k in INSTANT_REWARD_KEYWORDS) == instant)
        raise table.error(
            "kind",
            f"{kind!r} cannot be used by a {kind_label} (R-A137); a {kind_label} uses: {', '.join(allowed)}",
        )
    params = _keyword_params(table, kind, REWARD_KEYWORDS[kind], "reward effect")
    if kind in _ELEMENTAL_PARAMS and params.get("element") == "neutral":
        raise table.error("element", f"{kind!r} takes an elemental element (water, air, earth, fire)")
    if kind == "power" and params["power"] not in _PLAIN_POWERS:
        raise table.error(
            "power",
            f"{params['power']!r} is not a power without parameters; known: {', '.join(_PLAIN_POWERS)}",
        )
    if kind == "draw_reward" and params["rank"] not in RANKS:
        raise table.error("rank", f"{params['rank']!r} is not one of the allowed values: {', '.join(RANKS)}")
    return EffectSpec(kind, params)


def _parse_effects(table: _Table, key: str, instant: bool, kind_label: str) -> tuple[EffectSpec, ...]:
    return tuple(_parse_effect(effect, instant, kind_label) for effect in table.tables(key))


def _parse_choices(table: _Table, kind_label: str) -> tuple[tuple[EffectSpec, ...], ...]:
    raw = table.get("choices", list, [])
    choices: list[tuple[EffectSpec, ...]] = []
    for i, alternative in enumerate(raw):
        path = f"{table.field('choices')}[{i}]"
        if not isinstance(alternative, list) or not alternative:
            raise ContentError(table.file, path, "each choice is a non-empty array of effect tables")
        choices.append(
            tuple(
                _parse_effect(_Table(table.file, f"{path}[{j}]", effect), True, kind_label)
                for j, effect in enumerate(alternative)
            )
        )
    if len(choices) == 1:
        raise table.error("choices", "a token that offers a choice lists at least two alternatives")
    return tuple(choices)


def _parse_reward(table: _Table) -> RewardSpec:
    reward_id = table.ident("id")
    name = table.text("name")
    kind = table.choice("kind", REWARD_KINDS)
    rank = table.choice("rank", RANKS)
    token_set = table.label("set")
    tags = table.labels("tags")
    if kind == "equipment":
        slot = table.choice("slot", EQUIPMENT_SLOTS)
    else:
        if table.has("slot"):
            raise table.error("slot", f"only equipment has a slot; this token is a {kind} (R-A141)")
        slot = ""
    instant = kind == "boost"
    effects = _parse_effects(table, "effects", instant, kind)
    choices = _parse_choices(table, kind) if kind == "boost" else ()
    if kind != "boost" and table.has("choices"):
        raise table.error("choices", f"only a boost offers a choice; this token is a {kind}")
    if not effects and not choices:
        raise table.error("effects", "a token needs at least one effect (or choices)")
    spell = None
    if table.has("spell"):
        spell = _parse_spell(_Table(table.file, table.field("spell"), table.get("spell", dict)))
        if spell.kind == "summon":
            raise table.error("spell", "a reward's spell cannot be a summon spell")
    kinds = {effect.kind for effect in effects}
    if slot == "weapon" and ("weapon" not in kinds or spell is None):
        raise table.error(
            "spell", "a weapon grants a spell (R-A143): give it a [spell] and the 'weapon' effect"
        )
    if "weapon" in kinds and slot != "weapon":
        raise table.error("effects", "only a weapon (slot = 'weapon') has the 'weapon' effect")
    if "one_shot_spell" in kinds and spell is None:
        raise table.error("spell", "the 'one_shot_spell' effect casts the token's [spell]; it has none")
    if spell is not None and not kinds & {"weapon", "one_shot_spell"}:
        raise table.error("spell", "a token's spell needs the 'weapon' or 'one_shot_spell' effect")
    aliases = table.strings("aliases")
    version = table.text("version", "1")
    source_table = _Table(table.file, table.field("source"), table.get("source", dict, {}))
    source: dict[str, str] = {}
    for key in list(source_table.data):
        if key not in _SOURCE_KEYS:
            raise source_table.error(
                key, f"source notes name a reward field; allowed: {_choices(_SOURCE_KEYS)}"
            )
        source[key] = source_table.text(key)
    table.finish()
    return RewardSpec(
        id=reward_id,
        name=name,
        kind=kind,
        rank=rank,
        set=token_set,
        tags=tags,
        slot=slot,
        effects=effects,
        choices=choices,
        spell=spell,
        aliases=aliases,
        version=version,
        source=source,
    )


def parse_reward_document(data: Mapping[str, Any], file: str) -> tuple[RewardSpec, ...]:
    """Validate one parsed TOML document (``{"rewards": [...]}``) into specs."""
    top = _Table(file, "", dict(data))
    tables = top.tables("rewards")
    if not tables:
        raise top.error("rewards", "missing required field: a file holds at least one [[rewards]] table")
    top.finish()
    return tuple(_parse_reward(table) for table in tables)


def load_reward_file(path: str | Path) -> tuple[RewardSpec, ...]:
    """Read and validate one reward file; TOML syntax errors become ContentError(field="toml")."""
    path = Path(path)
    return parse_reward_document(read_toml(path), str(path))


def summon_refs(loaded: LoadedReward) -> Iterable[tuple[str, str]]:
    """(field path, creature id) for every creature a token summons."""
    spec = loaded.spec
    for i, effect in enumerate(spec.effects):
        if effect.kind == "summon":
            yield f"{loaded.field}.effects[{i}].summon", str(effect.params["summon"])
    for i, alternative in enumerate(spec.choices):
        for j, effect in enumerate(alternative):
            if effect.kind == "summon":
                yield f"{loaded.field}.choices[{i}][{j}].summon", str(effect.params["summon"])


def load_rewards(paths: Iterable[str | Path]) -> dict[str, LoadedReward]:
    """Load several reward files and check them together (unique ids, names and aliases), keyed by
    id in file order."""
    loaded: dict[str, LoadedReward] = {}
    owners: dict[str, LoadedReward] = {}
    for path in paths:
        for i, spec in enumerate(load_reward_file(path)):
            entry = LoadedReward(spec, str(path), f"rewards[{i}]")
            if spec.id in loaded:
                other = loaded[spec.id]
                raise ContentError(
                    entry.file,
                    f"{entry.field}.id",
                    f"duplicate reward id {spec.id!r}, already defined in {other.file} ({other.field})",
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
                        f"{text!r} is already used by reward {owner.spec.id!r} in {owner.file} ({owner.field})",
                    )
                owners[key] = entry
            loaded[spec.id] = entry
    return loaded
