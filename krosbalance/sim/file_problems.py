"""How the experiment file's parser says what is wrong: every problem of a file collected
(``_Problems``), each one line naming the file, the field and the reason; typed reads of a table's
keys; a content file that does not load said once, as ``(content)``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from krosbalance.content.loader import normalize_name
from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError, LocatedError


class _Problems:
    """Collects every problem of one file, so ``validate`` can explain them all at once."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[ExperimentError] = []

    def add(self, field_name: str, reason: str) -> None:
        if any(e.field == field_name and e.reason == reason for e in self.errors):
            return  # said once (a broken content file reaches every name that asks for it)
        self.errors.append(ExperimentError(self.file, field_name, reason))


def content_problem(exc: BaseException, file: str = "") -> str:
    """The line of a ``ContentError`` raised by a content file (a card, a board, a ruleset's data:
    a ``.toml`` file other than the experiment ``file``), '' for any other error. Such an error is
    not the experiment's: it is said once, as ``(content)``, with the content file's own name, not
    once per option, variant, arm or name that happened to load the content."""
    if isinstance(exc, ContentError) and exc.file.endswith(".toml") and exc.file != file:
        return f"the content does not load: {exc}"
    return ""


def _blame(problems: _Problems, field_name: str, exc: LocatedError | KrosbalanceError) -> None:
    """Record ``exc`` on ``field_name`` (a ``LocatedError`` on its own field inside it), or as
    ``(content)`` when a content file raised it (:func:`content_problem`)."""
    said = content_problem(exc, problems.file)
    if said:
        problems.add("(content)", said)
    elif isinstance(exc, LocatedError):
        problems.add(f"{field_name}.{exc.field.removeprefix('options.')}", exc.reason)
    else:
        problems.add(field_name, str(exc))


def _type_name(value: Any) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "a boolean",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def _unknown_keys(table: Mapping[str, Any], allowed: Sequence[str], prefix: str, problems: _Problems) -> None:
    for key in table:
        if key not in allowed:
            problems.add(f"{prefix}{key}", f"unknown key; expected one of: {', '.join(allowed)}")


def _get(
    data: Mapping[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    problems: _Problems,
    *,
    prefix: str = "",
    required: bool = False,
    default: Any = None,
) -> Any:
    """The value of ``key`` when it has the right type; else record a problem and return None."""
    if key not in data:
        if required:
            problems.add(prefix + key, "missing (required)")
            return None
        return default
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # bool is an int subclass in Python; TOML keeps them apart, so do we.
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        expected = " or ".join(_type_name(k()) if k is not type(None) else "none" for k in kinds)
        problems.add(prefix + key, f"must be {expected}, not {_type_name(value)} ({value!r})")
        return None
    return value


def _ask(fn: Any, field_name: str, problems: _Problems) -> list[str] | None:
    """Call a catalog listing; a registry that fails to load is reported on the field, not raised."""
    try:
        return list(fn())
    except KrosbalanceError as exc:
        if content_problem(exc, problems.file):
            problems.add("(content)", content_problem(exc, problems.file))
        else:
            problems.add(field_name, f"cannot check: {exc}")
        return None
    except ImportError as exc:  # a registry that is not installed: say so on the field
        problems.add(field_name, f"cannot check: {exc}")
        return None


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) < 200 else text[:197] + "..."


# ------------------------------------------------------------------------------ unknown names

MAX_LISTED = 12
"""Names listed in full at most; more are counted (the ``list`` command gives every one)."""


def _key(name: str) -> str:
    return normalize_name(name)


def close_names(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The few ``known`` names nearest to ``name`` (difflib over normalised names, as the content
    registry suggests characters), nearest first."""
    keys: dict[str, str] = {}
    for item in known:
        keys.setdefault(_key(item), item)
    return [keys[key] for key in difflib.get_close_matches(_key(name), list(keys), n=n, cutoff=0.6)]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'a' or 'b'?"`` with the near names, or ''."""
    close = close_names(name, known)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def unknown_name(what: str, name: Any, known: Sequence[str], listing: str) -> str:
    """The reason an unknown name is refused: the near names, then every name when there are few,
    else where to list them (``listing``, e.g. ``krosbalance list rewards``)."""
    hint = did_you_mean(name, known) if isinstance(name, str) else ""
    every = (
        f"; known: {', '.join(known)}" if len(known) <= MAX_LISTED else f" ({listing} lists all {len(known)})"
    )
    return f"unknown {what} {name!r}{hint}{every}"
