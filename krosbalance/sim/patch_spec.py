"""What a balance patch is: the validated :class:`Patch`, its canonical JSON and how two merge.

Below both the patch file's parser (:mod:`krosbalance.sim.patches`, which checks a patch by applying
it) and the patched cards (:mod:`krosbalance.sim.patched_cards`, which apply one): both read the
patch, so it stands under them and they import one way.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry

CHARACTER_FIELDS: tuple[str, ...] = ("hp", "ap", "mp", "initiative")
SPELL_FIELDS: tuple[str, ...] = (
    "ap_cost",
    "mp_cost",
    "injury_cost",
    "amount",
    "range_min",
    "range_max",
    "fixed_range",
    "needs_los",
    "limit",
    "element",
    "area",
)
LABELS: dict[str, str] = {
    "hp": "HP",
    "ap": "AP",
    "mp": "MP",
    "initiative": "Initiative",
    "ap_cost": "AP cost",
    "mp_cost": "MP cost",
    "injury_cost": "injury cost",
    "amount": "damage/heal",
    "range_min": "min range",
    "range_max": "max range",
}


@dataclass(frozen=True)
class Patch:
    """A validated patch: its name and its changes by canonical id.

    ``changes`` is ``{"characters": {id: {field: value, "spells": {spell id: {field: value}},
    "powers": {kind: bool | table}}}, "rewards": {id: {"rank": r, "effects": {index: {param:
    value}}}}}`` with only the keys it changes (JSON-able, sorted by :attr:`json`)."""

    name: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    file: str = ""

    @property
    def json(self) -> str:
        """The canonical text of the patch (name and changes): what a match spec carries."""
        return json.dumps({"name": self.name, "changes": self.changes}, sort_keys=True, separators=(",", ":"))

    @property
    def empty(self) -> bool:
        return not any(self.changes.get(k) for k in ("characters", "rewards", "challenges"))

    def lines(self, registry: Any = None) -> list[str]:
        """One line per changed value, "Anna Tommy: HP 12 → 13" (the card's printed value first)."""
        registry = registry or default_registry()
        out: list[str] = []
        for char_id, change in sorted(self.changes.get("characters", {}).items()):
            spec = registry.load_character(char_id)
            for key in CHARACTER_FIELDS:
                if key in change:
                    out.append(f"{spec.name}: {LABELS[key]} {getattr(spec, key)} → {change[key]}")
            for spell_id, spell_change in sorted(change.get("spells", {}).items()):
                spell = spec.spell(spell_id)
                for key in SPELL_FIELDS:
                    if key in spell_change:
                        old = getattr(spell, key)
                        out.append(
                            f"{spec.name}: {spell.name} {LABELS.get(key, key)} {old} → {spell_change[key]}"
                        )
            for kind, value in sorted(change.get("powers", {}).items()):
                had = spec.has_power(kind)
                if value is False:
                    out.append(
                        f"{spec.name}: power {kind} removed" if had else f"{spec.name}: no power {kind}"
                    )
                else:
                    out.append(f"{spec.name}: power {kind} {'changed' if had else 'added'}")
        for reward_id, change in sorted(self.changes.get("rewards", {}).items()):
            reward = registry.load_reward(reward_id)
            if "rank" in change:
                out.append(f"{reward.name}: rank {reward.rank} → {change['rank']}")
            for index, params in sorted(change.get("effects", {}).items()):
                effect = reward.effects[int(index)]
                for key, value in sorted(params.items()):
                    out.append(f"{reward.name}: {effect.kind} {key} {effect.params.get(key)} → {value}")
        for challenge_id, change in sorted(self.changes.get("challenges", {}).items()):
            challenge = blast_cards().challenge(challenge_id)
            for bonus_id, bonus_change in sorted(change.get("bonuses", {}).items()):
                bonus = challenge.bonus(bonus_id)
                out.append(f"{challenge.name}: {bonus.name} tier {bonus.tier} → {bonus_change['tier']}")
        return out

    def summary(self, registry: Any = None) -> str:
        """The lines joined by '; ' (the patch's description when it changes nothing)."""
        return "; ".join(self.lines(registry)) or self.description or "(no change)"


# ------------------------------------------------------------------------------------------- parsing


def patch_from_json(text: str) -> Patch:
    """The patch of a canonical JSON text (:attr:`Patch.json`), already validated."""
    data = json.loads(text)
    return Patch(str(data["name"]), data["changes"])


def merge_patches(name: str, patches: Sequence[Patch]) -> Patch:
    """One patch doing what ``patches`` do in order (a later value of one field wins): the command
    line's patch under an arm's own."""

    def deep(into: dict[str, Any], new: Mapping[str, Any]) -> None:
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                deep(into[key], value)
            else:
                into[key] = copy.deepcopy(value)

    changes: dict[str, Any] = {}
    for patch in patches:
        deep(changes, patch.changes)
    return Patch(name, changes, "; ".join(p.description for p in patches if p.description))
