"""Helpers for content tests: a small valid character file to break one field at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.content.registry import Registry
from krosbalance.errors import ContentError

VALID = """\
[[characters]]
id = "hero"
name = "Hero"
aliases = ["Eroe"]
kind = "krosmaster"
set = "krosbalance-tests"
tags = ["hero"]
colour = "white"
level = 3
initiative = 5
mp = 3
hp = 10
ap = 6
powers = ["armour"]

[[characters.spells]]
id = "zap"
name = "Zap"
kind = "attack"
element = "fire"
ap_cost = 3
range_type = "classic"
range_min = 1
range_max = 3
amount = 1

[[characters.spells.effects]]
kind = "push"
cells = 1

[[characters.spells]]
id = "summon_pet"
name = "Summon Pet"
kind = "summon"
ap_cost = 3
range_type = "melee"
target = "free_cell"
summons = "pet"
summon_control = 1

[[characters]]
id = "pet"
name = "Pet"
kind = "creature"
set = "krosbalance-tests"
level = 0
initiative = 0
mp = 3
hp = 2
ap = 4
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def broken(old: str, new: str, base: str = VALID) -> str:
    """``base`` with the first ``old`` replaced by ``new`` (``old`` must be there)."""
    assert old in base, f"test bug: {old!r} not in the template"
    return base.replace(old, new, 1)


def load_error(folder: Path) -> ContentError:
    """Build a registry over ``folder``, force loading, return the ContentError it raises."""
    with pytest.raises(ContentError) as info:
        Registry(folder).list_characters()
    return info.value
