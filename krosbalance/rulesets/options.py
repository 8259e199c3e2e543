"""Named ruleset options loaded from data, so every open point of the rules is a visible choice.

Each option in ``data/<ruleset>.toml`` has a value and a source; experiments override options by
name. The engine reads options through the frozen ``RulesetOptions`` built here.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from krosbalance.content.specs import SpellSpec
from krosbalance.errors import ContentError

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class RulesetOptions:
    """Values of every named option; see ``data/arena.toml`` for the source of each default."""

    starting_gg: int
    wild_gg: int
    gg_price: int
    kama_reserve: int
    first_turn_tension: bool
    zero_gg_loses: bool
    turn_limit: int
    turn_limit_result: str
    strict_corner_los: bool
    caster_in_own_area: bool
    lock_block_ends_turn: bool
    bombs_unfazed: bool
    bomb_armour_dice: int
    simultaneous_zero_gg: str
    scenery_destruction: bool
    scenery_hp: dict[str, int]
    scenery_loot: dict[str, int]
    scenery_hit_under_piece: bool
    demonic_rewards: bool
    reward_prices: dict[str, int]
    reward_refill: str
    reward_reveal: str
    element_boost_waits: bool
    start_rewards: list[list[str]]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset: its name, version, option values, and rule-defined spells such as the punch."""

    name: str
    version: str
    options: RulesetOptions
    punch: SpellSpec
    sources: dict[str, str]

    def describe(self) -> str:
        """A short stable label: the name plus every option that differs from the default."""
        defaults = load_ruleset(self.name).options
        changed = [
            f"{f.name}={getattr(self.options, f.name)}"
            for f in fields(RulesetOptions)
            if getattr(self.options, f.name) != getattr(defaults, f.name)
        ]
        return self.name if not changed else f"{self.name}[{', '.join(changed)}]"


_CHOICES: dict[str, tuple[str, ...]] = {
    "turn_limit_result": ("draw", "gg"),
    "simultaneous_zero_gg": ("draw", "play_on"),
    "reward_refill": ("same_pile", "none"),
    "reward_reveal": ("setup", "staged"),
}


def _check_value(file: str, field: str, name: str, value: Any, expected: Any) -> None:
    if isinstance(expected, bool) or isinstance(value, bool):
        if not isinstance(value, bool) or not isinstance(expected, bool):
            raise ContentError(file, field, f"expected {type(expected).__name__}, got {value!r}")
    elif not isinstance(value, type(expected)):
        raise ContentError(file, field, f"expected {type(expected).__name__}, got {value!r}")
    if name in _CHOICES and value not in _CHOICES[name]:
        raise ContentError(file, field, f"must be one of {_CHOICES[name]}, got {value!r}")
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise ContentError(file, field, f"must not be negative, got {value}")


@cache
def _load_defaults(name: str) -> tuple[dict[str, Any], dict[str, str], SpellSpec, str]:
    path = DATA_DIR / f"{name}.toml"
    if not path.exists():
        known = sorted(p.stem for p in DATA_DIR.glob("*.toml"))
        raise ContentError("ruleset", "name", f"unknown ruleset {name!r}; known: {', '.join(known)}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(path), "toml", str(exc)) from None
    values = {key: entry["value"] for key, entry in data["options"].items()}
    sources = {key: entry["source"] for key, entry in data["options"].items()}
    missing = {f.name for f in fields(RulesetOptions)} - set(values)
    if missing:
        raise ContentError(str(path), "options", f"missing {sorted(missing)}")
    punch_data = dict(data["punch"])
    punch = SpellSpec(**punch_data)
    return values, sources, punch, str(data.get("version", "1"))


def load_ruleset(
    name: str = "arena", overrides: dict[str, Any] | None = None, *, file: str = "options"
) -> Ruleset:
    """The named ruleset with ``overrides`` applied; unknown or ill-typed overrides raise ContentError."""
    values, sources, punch, version = _load_defaults(name)
    merged = dict(values)
    for key, value in (overrides or {}).items():
        if key not in values:
            raise ContentError(file, key, f"unknown ruleset option; known: {', '.join(sorted(values))}")
        _check_value(file, key, key, value, values[key])
        merged[key] = value
    return Ruleset(name, version, RulesetOptions(**merged), punch, dict(sources))
