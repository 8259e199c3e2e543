"""A patch applied to the cards: a new registry holding the patched Krosmasters and Demonic Rewards
(:func:`apply_patch`), built once per worker process from a match spec's patch
(:func:`patched_registry`).

Each patched card is re-read by the content loader from its own TOML table with the patch's values
written in, so a patched card follows every rule a card file must (a patch that breaks one is a
``ContentError`` naming the patch and the field); its version says which patch made it. The shared
registry is never changed (``Registry.with_specs``). What a patch is, and its file, are
:mod:`krosbalance.sim.patch_spec` and :mod:`krosbalance.sim.patches`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from krosbalance.content.custom import on_content_change
from krosbalance.content.loader import parse_document
from krosbalance.content.registry import default_registry
from krosbalance.content.reward_loader import parse_reward_document
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError, KrosbalanceError
from krosbalance.sim.patch_spec import CHARACTER_FIELDS, Patch, patch_from_json


def _raw_table(file: str, field_path: str, document_key: str) -> dict[str, Any]:
    """The raw TOML table a card was read from (``characters[2]`` of its file)."""
    index = int(field_path.split("[")[1].rstrip("]"))
    return copy.deepcopy(read_toml(Path(file))[document_key][index])


def _patched_character(registry: Any, char_id: str, change: Mapping[str, Any], patch: Patch) -> Any:
    spec = registry.load_character(char_id)
    file, field_path = registry.card_location(char_id)
    table = _raw_table(file, field_path, "characters")
    for key in CHARACTER_FIELDS:
        if key in change:
            table[key] = change[key]
    spells = table.get("spells", [])
    for spell_id, spell_change in change.get("spells", {}).items():
        for spell_table in spells:
            if spell_table.get("id") == spell_id:
                spell_table.update(spell_change)
    powers = list(table.get("powers", []))
    for kind, value in change.get("powers", {}).items():
        powers = [p for p in powers if (p if isinstance(p, str) else p.get("kind")) != kind]
        if value is True:
            powers.append(kind)
        elif isinstance(value, dict):
            powers.append({"kind": kind, **value})
    table["powers"] = powers
    table["version"] = f"{spec.version}+{patch.name}"
    where = f"characters.{char_id}"
    try:
        (patched,) = parse_document({"characters": [table]}, file)
    except ContentError as exc:
        reason = exc.reason
        raise ContentError(
            patch.file or patch.name, where, f"the patched card does not validate: {exc.field}: {reason}"
        ) from None
    return patched


def _patched_reward(registry: Any, reward_id: str, change: Mapping[str, Any], patch: Patch) -> Any:
    reward = registry.load_reward(reward_id)
    file, field_path = registry.reward_location(reward_id)
    table = _raw_table(file, field_path, "rewards")
    if "rank" in change:
        table["rank"] = change["rank"]
    for index, params in change.get("effects", {}).items():
        table["effects"][int(index)].update(params)
    table["version"] = f"{reward.version}+{patch.name}"
    try:
        (patched,) = parse_reward_document({"rewards": [table]}, file)
    except ContentError as exc:
        raise ContentError(
            patch.file or patch.name,
            f"rewards.{reward_id}",
            f"the patched token does not validate: {exc.field}: {exc.reason}",
        ) from None
    return patched


def apply_patch(patch: Patch, registry: Any = None) -> Any:
    """A new registry holding the patched cards (``registry``, default the shared one, is not changed)."""
    registry = registry or default_registry()
    characters = tuple(
        _patched_character(registry, cid, change, patch)
        for cid, change in sorted(patch.changes.get("characters", {}).items())
    )
    rewards = tuple(
        _patched_reward(registry, rid, change, patch)
        for rid, change in sorted(patch.changes.get("rewards", {}).items())
    )
    return registry.with_specs(characters, rewards)


@lru_cache(maxsize=64)
def patched_registry(patch_json: str) -> Any:
    """The registry of a match spec's patch (its canonical JSON), built once per process; ``None``
    for no patch (the shared registry)."""
    if not patch_json:
        return None
    try:
        return apply_patch(patch_from_json(patch_json))
    except KeyError as exc:  # a hand-edited spec
        raise KrosbalanceError(f"malformed patch in a match spec: {exc}") from None


on_content_change(patched_registry.cache_clear)  # a patch's registry is built over the cards in use

__all__ = ["apply_patch", "patched_registry"]
