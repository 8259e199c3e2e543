"""Named ruleset options loaded from data, so every open point of the rules is a visible choice.

Each ruleset keeps a TOML file of options (``arena/data/arena.toml``): every option has a ``value``
and a ``source``; extra tables (Arena's ``[punch]``) belong to the ruleset. The option schema is the
ruleset's frozen options dataclass (a subclass of ``krosbalance.engine.rules.EngineOptions``): the
file must give every field, and experiments override options by name — an unknown name, an ill-typed
value or a value outside an option's choices is a ``ContentError`` naming the option.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from krosbalance.content.specs import Frozen
from krosbalance.engine.rules import EngineOptions
from krosbalance.errors import ContentError

OptionsT = TypeVar("OptionsT", bound=EngineOptions)

#: options of every ruleset with a floor above 0: a turn bound of 0 ends every match as a turn-0
#: draw before anyone plays (a study that measures nothing, not a rule)
AT_LEAST: dict[str, int] = {"turn_limit": 1}


@dataclass(frozen=True, slots=True)
class RulesetFile(Frozen):
    """A ruleset's data file as read: option values and sources (in file order), its version, and
    every other top-level table (e.g. ``punch``)."""

    path: str
    version: str
    values: dict[str, Any]
    sources: dict[str, str]
    tables: dict[str, Any]


@cache
def read_ruleset_file(path: Path) -> RulesetFile:
    """Read and check the shape of a ruleset's TOML file (each option a ``{value, source}`` table)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(path), "toml", str(exc)) from None
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, entry in data.get("options", {}).items():
        if not isinstance(entry, dict) or set(entry) != {"value", "source"}:
            raise ContentError(str(path), f"options.{key}", "each option is a table with value and source")
        values[key] = entry["value"]
        sources[key] = entry["source"]
    tables = {k: v for k, v in data.items() if k not in ("options", "name", "version")}
    return RulesetFile(str(path), str(data.get("version", "1")), values, sources, tables)


def check_value(
    file: str, name: str, value: Any, expected: Any, choices: Mapping[str, tuple[str, ...]]
) -> None:
    """An override must have the default's type (booleans apart from integers), be one of the
    option's choices if it has any, and never be a negative number; a table (``scenery_hp``) must
    give exactly the default's keys, each checked the same way (an empty table would leave the
    rules without a tree's HP in the middle of a match)."""
    if isinstance(expected, bool) or isinstance(value, bool):
        if not isinstance(value, bool) or not isinstance(expected, bool):
            raise ContentError(file, name, f"expected {type(expected).__name__}, got {value!r}")
    elif not isinstance(value, type(expected)):
        raise ContentError(file, name, f"expected {type(expected).__name__}, got {value!r}")
    if name in choices and value not in choices[name]:
        raise ContentError(file, name, f"must be one of {choices[name]}, got {value!r}")
    if isinstance(value, int) and not isinstance(value, bool) and value < AT_LEAST.get(name, 0):
        if name in AT_LEAST:
            raise ContentError(file, name, f"must be at least {AT_LEAST[name]}, got {value}")
        raise ContentError(file, name, f"must not be negative, got {value}")
    if isinstance(expected, dict) and expected:
        missing = sorted(set(expected) - set(value))
        extra = sorted(set(value) - set(expected))
        if missing or extra:
            wrong = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise ContentError(file, name, f"needs exactly the keys {', '.join(sorted(expected))} ({wrong})")
        for key, item in value.items():
            check_value(file, f"{name}.{key}", item, expected[key], choices)


def unknown_option(key: str, known: Mapping[str, Any]) -> str:
    """The reason an option name is refused: the near matches among ``known`` (difflib, as the
    content registry suggests character and board names), then every option."""
    close = difflib.get_close_matches(key, list(known), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""
    return f"unknown ruleset option{hint}; known: {', '.join(sorted(known))}"


_SCALARS: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "str": (str,), "bool": (bool,)}


def _split_args(inner: str) -> list[str]:
    """``"str, list[int]"`` -> ``["str", "list[int]"]`` (commas at bracket depth 0)."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(inner):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return parts


def type_problem(value: Any, hint: str) -> str:
    """Why ``value`` is not of the declared field type ``hint`` (an annotation string such as
    ``list[list[str]]``), or '': where inside the value, then the reason."""
    where, reason = misfit(value, hint)
    return f"{where}: {reason}" if where else reason


def misfit(value: Any, hint: str) -> tuple[str, str]:
    """(where inside ``value``, why) it is not of the annotation ``hint``, or ('', '') when it is.
    Annotations this reader does not know are taken as met: the default's type was checked
    already; this checks what lies inside lists and tables."""
    hint = hint.strip()
    if hint in _SCALARS:
        ok = isinstance(value, _SCALARS[hint]) and (hint == "bool" or not isinstance(value, bool))
        return ("", "") if ok else ("", f"expected {hint}, got {value!r}")
    if "[" not in hint or not hint.endswith("]"):
        return "", ""
    outer, inner = hint[: hint.index("[")], hint[hint.index("[") + 1 : -1]
    args = _split_args(inner)
    if outer in ("list", "tuple"):
        if not isinstance(value, list | tuple):
            return "", f"expected a list, got {value!r}"
        for i, element in enumerate(value):
            where, reason = misfit(element, args[0])
            if reason:
                return f"[{i}]{where}", reason
        return "", ""
    if outer == "dict" and len(args) == 2:
        if not isinstance(value, dict):
            return "", f"expected a table, got {value!r}"
        for key, element in value.items():
            where, reason = misfit(key, args[0])
            if not reason:
                where, reason = misfit(element, args[1])
            if reason:
                return f".{key}{where}", reason
    return "", ""


def _hint_text(hint: Any) -> str:
    """A field's annotation as text (a string already, or a class, or ``list[str]`` as an object)."""
    if isinstance(hint, str):
        return hint
    if isinstance(hint, type) and not getattr(hint, "__args__", None):
        return hint.__name__
    return str(hint)


def build_options(
    cls: type[OptionsT],
    data: RulesetFile,
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str = "options",
    choices: Mapping[str, tuple[str, ...]] | None = None,
) -> OptionsT:
    """The options dataclass ``cls`` from the file's values with ``overrides`` applied."""
    names = {f.name for f in fields(cls)}
    missing = names - set(data.values)
    if missing:
        raise ContentError(data.path, "options", f"missing {sorted(missing)}")
    unknown = set(data.values) - names
    if unknown:
        raise ContentError(data.path, "options", f"options {sorted(unknown)} are not in the ruleset's schema")
    merged = dict(data.values)
    hints = {f.name: _hint_text(f.type) for f in fields(cls)}
    for key, value in (overrides or {}).items():
        if key not in merged:
            raise ContentError(file, key, unknown_option(key, merged))
        check_value(file, key, value, merged[key], choices or {})
        where, reason = misfit(value, hints.get(key, ""))
        if reason:  # e.g. challenges = [true]: the compiled rules would meet a bool for a str
            raise ContentError(file, key + where, reason)
        merged[key] = value
    return cls(**merged)
