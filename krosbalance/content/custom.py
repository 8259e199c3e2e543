"""A designer's own cards: one folder of characters, rewards and boards layered over the shipped ones.

A content folder mirrors the package's ``data/`` folder::

    my-cards/
      characters/*.toml    Krosmasters and their summons (Arena or Blast); a spell is a table of
                           the figure that casts it, as in the shipped files
      rewards/*.toml       Demonic Reward tokens
      boards/*.toml        boards
      *.md                 notes, ignored

Each kind is read by the loader of the shipped cards (:mod:`krosbalance.content.loader`,
:mod:`~krosbalance.content.reward_loader`, :mod:`krosbalance.board.loader`), together with them: the
same one-line errors (file, field, reason), and a new id adds a card. An id, name or alias that a
shipped card already uses is an error naming both files: a folder adds cards, a balance patch
(:mod:`krosbalance.sim.patches`) changes the shipped ones. Anything else in the folder (another
subfolder, a ``.toml`` beside the subfolders) is an error, so a misplaced file never goes unread.

One mechanism, reached three ways: the environment variable :data:`CONTENT_ENV`
(``KROSBALANCE_CONTENT``), the command line's ``--content DIR`` and the Python call
:func:`use_content` (both set that variable, so worker processes started later see it), and an
experiment file's ``content = "DIR"`` (relative to the file). The folder in use is the *active*
content: :func:`krosbalance.content.registry.default_registry` serves the shipped cards plus the
active folder's, and every command and match looks cards up there. A match spec carries the folder
it was played with, so a worker process that serves several runs plays each with its own cards
(:func:`activate`); a change of the active folder calls the callbacks registered with
:func:`on_content_change`, which drop what was built from the previous cards (the native core's
catalog, patched registries).

The folder's :attr:`ContentFolder.digest` (SHA-256 over every card file's path and bytes) enters the
experiment's fingerprint, so a run resumed with other cards is refused; the run folder keeps a copy
of the folder (:func:`snapshot_content`), so replays and reports read the cards the run played.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from krosbalance.errors import ContentError

__all__ = [
    "CONTENT_ENV",
    "KINDS",
    "ContentFolder",
    "activate",
    "active_content",
    "chosen_content",
    "on_content_change",
    "read_content_folder",
    "snapshot_content",
    "use_content",
]

CONTENT_ENV = "KROSBALANCE_CONTENT"
"""The environment variable naming the content folder in use (empty or unset: the shipped cards only)."""
KINDS: tuple[str, ...] = ("characters", "rewards", "boards")
"""The subfolders a content folder may hold, each read by the loader of the shipped cards of its kind."""
_NOTES = (".md", ".txt")  # files a designer may keep beside the cards, never read


@dataclass(frozen=True, slots=True)
class ContentFolder:
    """A content folder, checked for its layout (the cards themselves are validated by the registry).

    Attributes:
        root: the folder, absolute.
        characters, rewards, boards: its subfolders of that kind that hold card files (None: none).
        files: every card file, relative to ``root`` (POSIX), sorted.
        digest: SHA-256 (16 hex digits) over each card file's relative path and bytes: the cards'
            identity in fingerprints and manifests, whatever folder they are copied to.
    """

    root: Path
    characters: Path | None
    rewards: Path | None
    boards: Path | None
    files: tuple[str, ...]
    digest: str

    def record(self) -> dict[str, Any]:
        """What a run's manifest says of the cards it was played with."""
        return {"folder": str(self.root), "digest": self.digest, "files": list(self.files)}


def read_content_folder(folder: str | Path) -> ContentFolder:
    """The content folder at ``folder`` (made absolute), its layout checked.

    Raises:
        ContentError: no such folder, an unknown subfolder or a stray file, or no card file at all.
    """
    root = Path(folder).expanduser().resolve()
    where = str(root)
    if not root.is_dir():
        reason = "no such folder" if not root.exists() else "not a folder"
        raise ContentError(where, "content", f"{reason} (a content folder holds {_kinds()})")
    found: dict[str, Path] = {}
    files: list[str] = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(".") or (entry.is_file() and entry.suffix.lower() in _NOTES):
            continue
        if entry.is_dir() and entry.name in KINDS:
            cards = sorted(entry.glob("*.toml"))
            if cards:
                found[entry.name] = entry
                files.extend(path.relative_to(root).as_posix() for path in cards)
            continue
        what = "subfolder" if entry.is_dir() else "file"
        hint = f"; put card files in {_kinds()}" if entry.suffix == ".toml" else ""
        raise ContentError(
            str(entry), "content", f"unknown {what} in a content folder (it holds {_kinds()}){hint}"
        )
    if not files:
        raise ContentError(
            where, "content", f"no card files: a content folder holds *.toml files in {_kinds()}"
        )
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return ContentFolder(
        root=root,
        characters=found.get("characters"),
        rewards=found.get("rewards"),
        boards=found.get("boards"),
        files=tuple(files),
        digest=digest.hexdigest()[:16],
    )


def _kinds() -> str:
    return ", ".join(f"{kind}/" for kind in KINDS)


# ------------------------------------------------------------------------------ the active folder

#: the active folder as given (a path string; '' = the shipped cards only), once it has been read
_active: str | None = None
_active_folder: ContentFolder | None = None
_listeners: list[Callable[[], None]] = []


def chosen_content() -> str:
    """The folder the user chose for this process: ``KROSBALANCE_CONTENT`` ('' for none), which
    ``--content`` and :func:`use_content` set."""
    return os.environ.get(CONTENT_ENV, "").strip()


def active_content() -> ContentFolder | None:
    """The content folder in use (None: the shipped cards only); at first the chosen one."""
    if _active is None:
        activate(chosen_content())
    return _active_folder


def activate(folder: str | Path | None, *, reread: bool = False) -> ContentFolder | None:
    """Make ``folder`` (None or '': none) the active content of this process, without changing the
    user's choice: what an experiment's ``content`` key and a worker playing a match spec do.

    The folder given last is not read again (a worker calls this before every match) unless
    ``reread``; a change of folder or of its cards calls the :func:`on_content_change` callbacks.
    """
    global _active, _active_folder
    wanted = str(folder) if folder else ""
    if wanted == _active and not reread:
        return _active_folder
    found = read_content_folder(wanted) if wanted else None
    first = _active is None
    before = _identity(_active_folder)
    _active, _active_folder = wanted, found
    if not first and _identity(found) != before:
        for callback in _listeners:
            callback()
    return found


def _identity(folder: ContentFolder | None) -> tuple[str, str] | None:
    return (str(folder.root), folder.digest) if folder is not None else None


def use_content(folder: str | Path | None) -> ContentFolder | None:
    """Play every following command, study and match of this process, and the worker processes it
    starts, with the cards of ``folder`` over the shipped ones (None: the shipped cards only).

    The folder is read again and validated at once, every card with the shipped ones (the first
    problem raises ``ContentError`` and changes nothing), then recorded in ``KROSBALANCE_CONTENT``
    as an absolute path. Returns the folder (None for none).
    """
    if not folder:
        os.environ.pop(CONTENT_ENV, None)
        activate(None)
        return None
    from krosbalance.content.registry import content_registry  # cycle: registry imports this module

    found = read_content_folder(folder)
    content_registry(found).check()  # every card, loaded and validated with the shipped ones
    os.environ[CONTENT_ENV] = str(found.root)
    return activate(found.root, reread=True)


def on_content_change(callback: Callable[[], None]) -> None:
    """Call ``callback`` (no arguments) whenever the active content changes: a cache of something
    built from the cards registers its ``cache_clear`` here."""
    if callback not in _listeners:
        _listeners.append(callback)


def snapshot_content(folder: ContentFolder, into: Path) -> ContentFolder:
    """Copy the card files of ``folder`` to ``into`` (created; a run folder's ``content/``) and return
    the copy, whose digest is the original's: the run keeps the cards it was played with."""
    into.mkdir(parents=True, exist_ok=True)
    for name in folder.files:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder.root / name, target)
    copy = read_content_folder(into)
    if copy.digest != folder.digest:
        raise ContentError(
            str(into), "content", f"the copy of {folder.root} differs from it (was it changed meanwhile?)"
        )
    return copy
