"""The one rule for a name that becomes part of a path.

An experiment's name names its results and report folders, a patch's name the results folder of
``run --patch``, a board id the report's picture of it, a shipped patch's name the file looked up in
``content/data/patches``. Each of these comes from a file a user wrote (or a results folder someone
handed over), so each goes through :func:`name_problem` before it is joined to a folder: one path
component of letters, digits, '-', '_' and '.', starting with a letter or a digit (so never
empty, never '.' or '..', never hidden, never absolute), no separator, no space or control
character, at most :data:`NAME_MAX` characters. A leaf module: every layer may import it.
"""

from __future__ import annotations

import re

NAME_MAX = 100
"""Characters in a name that becomes a path at most."""
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def name_problem(name: object) -> str:
    """Why ``name`` cannot be one component of a path ('' when it can); see the module docstring."""
    if not isinstance(name, str):
        return f"must be a name (a string), not {name!r}"
    if not _NAME_RE.fullmatch(name):
        return (
            f"{name[:NAME_MAX]!r} must be letters, digits, '-', '_' or '.', starting with a letter "
            "or a digit (it names a folder or a file)"
        )
    if len(name) > NAME_MAX:
        return f"is {len(name)} characters long; at most {NAME_MAX} (it names a folder or a file)"
    return ""


__all__ = ["NAME_MAX", "name_problem"]
