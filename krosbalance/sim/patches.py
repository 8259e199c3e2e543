"""Balance patches: small TOML overlays on the content, applied to one experiment arm at a time.

A patch changes a few printed values of some cards — "Anna Tommy: HP 12 → 13; Transposition AP 1 →
0" — and nothing else. It is data, validated like content: the patched card is re-read by the
content loader (``krosbalance.content.loader``) with the patch's values in its TOML table, so every
rule a card file must follow (a melee spell's range, non-negative costs, a known power...) holds for
a patched card too, and a mistake is one line naming the patch file, the field and the reason.
Printings and errata are patches as well (a season-1 card and its reprint side by side are two arms,
one of them patched). Layout of a patch file (shipped ones live in ``content/data/patches``)::

    name = "anna-tommy-buff"                  # optional: the file's stem
    description = "Anna Tommy: HP 12 -> 13; Transposition AP 1 -> 0"
    source = "why: the box study puts her at -0.97 log-odds"

    [characters.anna_tommy]                  # a Krosmaster by id, name or alias
    hp = 13                                  # hp, ap, mp, initiative
    spells.transposition.ap_cost = 0         # a spell by id or name: ap_cost, mp_cost, injury_cost,
                                             # amount, range_min, range_max, fixed_range, needs_los,
                                             # limit, element, area
    powers.dodge = true                      # a power's presence: true adds it, false removes it,
                                             # a table adds it with parameters

    [rewards.xelor_style]                    # a Demonic Reward by id or name
    rank = "jade"                            # its rank, hence its price (R-A136)
    effects.0.amount = 2                     # a parameter of its n-th effect

    [challenges.grande_melee_de_iop]         # a Divine Challenge (Blast) by id, name or alias
    bonuses.force_decuplee.tier = 4          # a bonus (id, name or alias): the glyph cells it
                                             # needs (R-B41 prints 1, 3, 5; a patch may ask 1 to 8)

A challenge's changes do not touch the card registry: Blast reads its challenges from its own
cards, so a patched tier reaches the match as the Blast option ``challenge_tiers``
(:func:`patch_options`, applied where a match spec is played).

A patch's level is never changed: which teams are legal must not differ between the arms of one
experiment (they share their pairings). The arm's cards are a *new* registry
(``Registry.with_specs``); the shared one is never mutated. A patch travels to the workers as its
canonical JSON (``Patch.json``, in ``MatchSpec.patch``) and each worker builds the patched registry
once (:func:`krosbalance.sim.patched_cards.patched_registry`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.content.keywords import POWER_KEYWORDS
from krosbalance.content.loader import normalize_name
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RANKS
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError
from krosbalance.paths import name_problem
from krosbalance.rulesets.blast.options import MAX_TIER
from krosbalance.sim.patch_spec import (
    CHARACTER_FIELDS,
    LABELS,
    SPELL_FIELDS,
    Patch,
    merge_patches,
    patch_from_json,
)
from krosbalance.sim.patched_cards import apply_patch

PATCH_FOLDER = Path(__file__).resolve().parent.parent / "content" / "data" / "patches"
REWARD_FIELDS: tuple[str, ...] = ("rank", "effects")
CHALLENGE_FIELDS: tuple[str, ...] = ("bonuses",)
BONUS_FIELDS: tuple[str, ...] = ("tier",)
TOP_KEYS: tuple[str, ...] = ("name", "description", "source", "characters", "rewards", "challenges")
#: printed labels of the fields, for a patch's lines ("HP 12 → 13")
#: values a sweep or a fix may not leave: a figure needs HP, and no printed number is negative
MINIMUM: dict[str, int] = {"hp": 1}
UPPER: int = 99
"""No printed value of a card is above this: a larger one is a typo (an out-of-range value)."""


def _type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return {int: "an integer", str: "a string", float: "a number", list: "an array", dict: "a table"}.get(
        type(value), type(value).__name__
    )


def _known(names: Sequence[str]) -> str:
    return ", ".join(names) or "none"


def _int_value(file: str, where: str, key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ContentError(file, where, f"must be an integer, not {_type(value)} ({value!r})")
    low = MINIMUM.get(key, 0)
    if not low <= value <= UPPER:
        raise ContentError(file, where, f"{value} is out of range: a card prints {low} to {UPPER}")
    return value


def parse_patch(data: Mapping[str, Any], file: str, name: str = "", registry: Any = None) -> Patch:
    """Validate a patch document (a parsed TOML table) against the content; ``ContentError(file,
    field, reason)`` names the first problem. Names are resolved to ids (a name, an alias or an id
    of another case all work), so two spellings of one patch are one patch."""
    registry = registry or default_registry()
    for key in data:
        if key not in TOP_KEYS:
            raise ContentError(file, key, f"unknown key; a patch has: {_known(TOP_KEYS)}")
    for key in ("name", "description", "source"):
        if key in data and not isinstance(data[key], str):
            raise ContentError(file, key, f"must be a string, not {_type(data[key])}")
    patch_name = str(data.get("name") or name or Path(file).stem)
    if name_problem(patch_name):  # ``run --patch`` writes results/<experiment>--<patch name>
        raise ContentError(file, "name", name_problem(patch_name))
    changes: dict[str, Any] = {}
    chars = data.get("characters", {})
    if not isinstance(chars, dict):
        raise ContentError(file, "characters", f"must be a table of Krosmasters, not {_type(chars)}")
    for raw_name, change in chars.items():
        where = f"characters.{raw_name}"
        try:
            spec = registry.load_character(raw_name)
        except ContentError as exc:
            raise ContentError(file, where, exc.reason) from None
        if spec.kind != "krosmaster":
            raise ContentError(file, where, f"{spec.id!r} is a {spec.kind}, not a Krosmaster")
        parsed = _parse_character_change(file, where, spec, change)
        if spec.id in changes.setdefault("characters", {}):
            raise ContentError(file, where, f"{spec.id!r} is patched twice (another name of it is above)")
        changes["characters"][spec.id] = parsed
    rewards = data.get("rewards", {})
    if not isinstance(rewards, dict):
        raise ContentError(file, "rewards", f"must be a table of Demonic Rewards, not {_type(rewards)}")
    for raw_name, change in rewards.items():
        where = f"rewards.{raw_name}"
        try:
            reward = registry.load_reward(raw_name)
        except ContentError as exc:
            raise ContentError(file, where, exc.reason) from None
        changes.setdefault("rewards", {})[reward.id] = _parse_reward_change(file, where, reward, change)
    challenges = data.get("challenges", {})
    if not isinstance(challenges, dict):
        raise ContentError(
            file, "challenges", f"must be a table of Divine Challenges, not {_type(challenges)}"
        )
    for raw_name, change in challenges.items():
        where = f"challenges.{raw_name}"
        try:
            challenge = blast_cards().challenge(raw_name)
        except ContentError as exc:
            raise ContentError(file, where, exc.reason) from None
        changes.setdefault("challenges", {})[challenge.id] = _parse_challenge_change(
            file, where, challenge, change
        )
    patch = Patch(patch_name, changes, str(data.get("description", "")), file)
    apply_patch(patch, registry)  # validated like content: the loader re-reads every patched card
    return patch


def _parse_character_change(file: str, where: str, spec: Any, change: Any) -> dict[str, Any]:
    if not isinstance(change, dict):
        raise ContentError(file, where, f"must be a table of changes, not {_type(change)}")
    allowed = (*CHARACTER_FIELDS, "spells", "powers")
    out: dict[str, Any] = {}
    for key, value in change.items():
        here = f"{where}.{key}"
        if key == "level":
            raise ContentError(file, here, "a patch never changes a level (the arms share their legal teams)")
        if key not in allowed:
            raise ContentError(file, here, f"unknown field; a patch changes: {_known(allowed)}")
        if key in CHARACTER_FIELDS:
            out[key] = _int_value(file, here, key, value)
        elif key == "spells":
            out["spells"] = _parse_spells(file, here, spec, value)
        else:
            out["powers"] = _parse_powers(file, here, value)
    return out


def _parse_spells(file: str, where: str, spec: Any, spells: Any) -> dict[str, Any]:
    if not isinstance(spells, dict):
        raise ContentError(file, where, f"must be a table of spells, not {_type(spells)}")
    index = {
        normalize_name(text): spell.id
        for spell in spec.spells
        for text in (spell.id, spell.name, *spell.aliases)
    }
    out: dict[str, Any] = {}
    for raw, change in spells.items():
        here = f"{where}.{raw}"
        spell_id = index.get(normalize_name(raw))
        if spell_id is None:
            known = _known([spell.id for spell in spec.spells])
            raise ContentError(file, here, f"{spec.name} has no spell {raw!r}; her/his spells: {known}")
        if not isinstance(change, dict):
            raise ContentError(file, here, f"must be a table of changes, not {_type(change)}")
        parsed: dict[str, Any] = {}
        for key, value in change.items():
            field_where = f"{here}.{key}"
            if key not in SPELL_FIELDS:
                raise ContentError(
                    file, field_where, f"unknown field; a patch changes: {_known(SPELL_FIELDS)}"
                )
            if key in ("fixed_range", "needs_los"):
                if not isinstance(value, bool):
                    raise ContentError(file, field_where, f"must be true or false, not {_type(value)}")
                parsed[key] = value
            elif key in ("limit", "element", "area"):
                if not isinstance(value, str):
                    raise ContentError(file, field_where, f"must be a string, not {_type(value)}")
                parsed[key] = value  # its vocabulary is the loader's, checked when the card is re-read
            else:
                parsed[key] = _int_value(file, field_where, key, value)
        out[spell_id] = parsed
    return out


def _parse_powers(file: str, where: str, powers: Any) -> dict[str, Any]:
    if not isinstance(powers, dict):
        raise ContentError(
            file, where, f"must be a table of powers (kind = true/false/table), not {_type(powers)}"
        )
    out: dict[str, Any] = {}
    for kind, value in powers.items():
        here = f"{where}.{kind}"
        if kind not in POWER_KEYWORDS:
            raise ContentError(file, here, f"unknown power keyword; known: {_known(sorted(POWER_KEYWORDS))}")
        if not isinstance(value, bool | dict):
            raise ContentError(
                file, here, f"must be true, false or a table of parameters, not {_type(value)}"
            )
        out[kind] = value
    return out


def _parse_reward_change(file: str, where: str, reward: Any, change: Any) -> dict[str, Any]:
    if not isinstance(change, dict):
        raise ContentError(file, where, f"must be a table of changes, not {_type(change)}")
    out: dict[str, Any] = {}
    for key, value in change.items():
        here = f"{where}.{key}"
        if key not in REWARD_FIELDS:
            raise ContentError(file, here, f"unknown field; a patch changes: {_known(REWARD_FIELDS)}")
        if key == "rank":
            if value not in RANKS:
                raise ContentError(file, here, f"{value!r} is not a rank; ranks: {_known(RANKS)}")
            out["rank"] = value
            continue
        if not isinstance(value, dict):
            raise ContentError(file, here, f"must be a table of effects by index, not {_type(value)}")
        effects: dict[str, Any] = {}
        for raw_index, params in value.items():
            effect_where = f"{here}.{raw_index}"
            if not str(raw_index).isdigit() or int(raw_index) >= len(reward.effects):
                raise ContentError(
                    file,
                    effect_where,
                    f"{reward.name} has effects 0 to {len(reward.effects) - 1}, not {raw_index!r}",
                )
            effect = reward.effects[int(raw_index)]
            if not isinstance(params, dict):
                raise ContentError(file, effect_where, f"must be a table of parameters, not {_type(params)}")
            for param, param_value in params.items():
                if param == "kind" or param not in effect.params:
                    known = _known(sorted(effect.params))
                    raise ContentError(
                        file,
                        f"{effect_where}.{param}",
                        f"effect {effect.kind!r} has no parameter {param!r}; its: {known}",
                    )
                if isinstance(effect.params[param], int) and not isinstance(effect.params[param], bool):
                    _int_value(file, f"{effect_where}.{param}", param, param_value)
            effects[str(int(raw_index))] = dict(params)
        out["effects"] = effects
    return out


def _parse_challenge_change(file: str, where: str, challenge: Any, change: Any) -> dict[str, Any]:
    """``bonuses.<bonus>.tier = n``: the glyph cells a bonus needs (1 to the box's 8 glyph tiles)."""
    if not isinstance(change, dict):
        raise ContentError(file, where, f"must be a table of changes, not {_type(change)}")
    for key in change:
        if key not in CHALLENGE_FIELDS:
            raise ContentError(
                file, f"{where}.{key}", f"unknown field; a patch changes: {_known(CHALLENGE_FIELDS)}"
            )
    bonuses = change.get("bonuses", {})
    if not isinstance(bonuses, dict):
        raise ContentError(file, f"{where}.bonuses", f"must be a table of bonuses, not {_type(bonuses)}")
    index = {
        normalize_name(text): bonus.id
        for bonus in challenge.bonuses
        for text in (bonus.id, bonus.name, *bonus.aliases)
    }
    out: dict[str, Any] = {}
    for raw, bonus_change in bonuses.items():
        here = f"{where}.bonuses.{raw}"
        bonus_id = index.get(normalize_name(raw))
        if bonus_id is None:
            known = _known([bonus.id for bonus in challenge.bonuses])
            raise ContentError(file, here, f"{challenge.name} has no bonus {raw!r}; its bonuses: {known}")
        if not isinstance(bonus_change, dict):
            raise ContentError(file, here, f"must be a table of changes, not {_type(bonus_change)}")
        for key, value in bonus_change.items():
            if key not in BONUS_FIELDS:
                raise ContentError(
                    file, f"{here}.{key}", f"unknown field; a patch changes: {_known(BONUS_FIELDS)}"
                )
            if not isinstance(value, int) or isinstance(value, bool):
                raise ContentError(
                    file, f"{here}.{key}", f"must be an integer, not {_type(value)} ({value!r})"
                )
            if not 1 <= value <= MAX_TIER:
                raise ContentError(
                    file,
                    f"{here}.{key}",
                    f"{value} is out of range: a tier needs 1 to {MAX_TIER} glyph cells",
                )
        out[bonus_id] = {"tier": bonus_change["tier"]} if "tier" in bonus_change else {}
    return {"bonuses": out}


def patch_options(options_json: str, patch_json: str) -> str:
    """The options JSON a match plays under its patch: a patch's challenge tiers become the Blast
    option ``challenge_tiers`` (merged over the arm's own); unchanged when the patch has none."""
    if not patch_json:
        return options_json
    challenges = json.loads(patch_json).get("changes", {}).get("challenges", {})
    tiers = {
        f"{challenge_id}.{bonus_id}": change["tier"]
        for challenge_id, challenge in sorted(challenges.items())
        for bonus_id, change in sorted(challenge.get("bonuses", {}).items())
        if "tier" in change
    }
    if not tiers:
        return options_json
    options = json.loads(options_json or "{}")
    options["challenge_tiers"] = {**options.get("challenge_tiers", {}), **tiers}
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def load_patch(name: str | Path, registry: Any = None, base: Path | None = None) -> Patch:
    """A patch by shipped name (``content/data/patches/NAME.toml``) or by path (relative to ``base``,
    the experiment file's folder, when given); unknown names list the shipped ones."""
    text = str(name)
    candidates = [Path(text)] if text.endswith(".toml") else []
    if base is not None and text.endswith(".toml"):
        candidates.insert(0, base / text)
    if not name_problem(text):  # a shipped name is a file name in the patch folder, never a path
        candidates.append(PATCH_FOLDER / f"{text}.toml")
    for path in candidates:
        if path.is_file():
            return parse_patch(read_toml(path), str(path), path.stem, registry)
    shipped = _known(shipped_patches())
    raise ContentError(text, "patch", f"no patch file {text!r}; shipped patches: {shipped}")


def shipped_patches() -> list[str]:
    """Names of the patches shipped with the package."""
    return sorted(p.stem for p in PATCH_FOLDER.glob("*.toml")) if PATCH_FOLDER.is_dir() else []


def patch_manifest(experiment: Any) -> dict[str, Any]:
    """What a results folder's manifest says of the experiment's patches: ``patches`` = {arm: {"patch":
    name, "changes": [lines]}} for every patched arm ('' for an experiment without arms), and
    ``sweep`` (the grid) when it has one; {} when nothing is patched. The report's header lists them."""
    arms = [arm for arm, _ in experiment.arms]
    patched: dict[str, Any] = {}
    for arm in arms:
        text = experiment.patch_of(arm)
        if text:
            patch = patch_from_json(text)
            patched[arm] = {"patch": patch.name, "changes": patch.lines()}
    out: dict[str, Any] = {}
    if patched:
        out["patches"] = patched
    if experiment.sweep:
        out["sweep"] = json.loads(experiment.sweep)
    return out


__all__ = [
    "CHARACTER_FIELDS",
    "LABELS",
    "SPELL_FIELDS",
    "PATCH_FOLDER",
    "Patch",
    "load_patch",
    "merge_patches",
    "parse_patch",
    "patch_from_json",
    "patch_manifest",
    "patch_options",
    "shipped_patches",
]
