"""Reading one TOML input file, with every way it can be unreadable turned into one clear error.

Every content file (characters, rewards, Blast cards, Duel Tokens) and every experiment file is read
by :func:`read_toml_text` or :func:`read_toml`: a missing or unreadable file, one that is not a
regular file (``/dev/zero``), one too large to be an input of this kind, one that is not UTF-8
(a binary file), bad TOML and TOML nested too deeply for the parser are each one ``ContentError``
naming the file, not a traceback or a hang. A leading UTF-8 byte-order mark is dropped.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from krosbalance.errors import ContentError

MAX_INPUT_BYTES = 1_000_000
"""The largest content or experiment file read (the shipped ones are a few kilobytes)."""
BOM = "\ufeff"
"""The byte-order mark a file may start with: dropped (TOML is UTF-8; the mark says nothing more)."""


def read_toml_text(path: Path, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The text of ``path`` (see the module docstring for what is refused)."""
    file = str(path)
    try:
        if not path.is_file():
            reason = "no such file" if not path.exists() else "not a regular file"
            raise ContentError(file, "file", reason)
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ContentError(file, "file", f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise ContentError(file, "file", f"larger than {max_bytes:,} bytes: not an input file of krosbalance")
    try:
        # A UTF-8 byte-order mark (Notepad writes one) is invisible in an editor and tomllib refuses
        # it as "Invalid statement (at line 1, column 1)": it is read as the UTF-8 text it marks.
        return raw.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        raise ContentError(file, "file", f"not UTF-8 text (byte {exc.start}): is it a binary file?") from None


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """Parse TOML text; syntax errors and nesting too deep for the parser are ``ContentError``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "toml", str(exc)) from None
    except RecursionError:
        raise ContentError(file, "toml", "arrays or tables nested too deeply") from None


def read_toml(path: str | Path, max_bytes: int = MAX_INPUT_BYTES) -> dict[str, Any]:
    """Read and parse one TOML file (one ``ContentError`` for anything wrong with it)."""
    path = Path(path)
    return parse_toml(read_toml_text(path, max_bytes), str(path))


__all__ = ["MAX_INPUT_BYTES", "read_toml", "read_toml_text", "parse_toml"]
