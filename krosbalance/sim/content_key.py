"""An experiment's ``content`` key: the designer's own cards it is played with.

``content = "my-cards"`` names a content folder (:mod:`krosbalance.content.custom`), relative to the
experiment file. Without the key, the experiment is played with the folder the user chose for the
process (``--content DIR`` or ``KROSBALANCE_CONTENT``), or with the shipped cards only. The key and
such a choice must agree: one run, one set of cards. Parsing the file makes its folder the active
content (so its names are checked against its cards); the experiment records the folder and its
digest, which the fingerprint, the manifest and every match spec carry.

A run folder keeps a copy of the cards (``OUT/content/``) and an experiment copy whose ``content``
key names that copy (:func:`experiment_copy_text`), so ``replay`` and ``report`` read the cards the
run was played with, wherever the designer's folder has gone since.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from krosbalance import native
from krosbalance.content.custom import (
    CONTENT_ENV,
    ContentFolder,
    activate,
    chosen_content,
    read_content_folder,
)
from krosbalance.content.registry import default_registry
from krosbalance.engine_choice import REFUSALS, SLOWER
from krosbalance.errors import ContentError
from krosbalance.native_match import catalog, left_out
from krosbalance.sim.file_problems import _get, _Problems

__all__ = ["RUN_CONTENT", "experiment_copy_text", "parse_content"]

RUN_CONTENT = "content"
"""The run folder's copy of the cards a run was played with (``OUT/content/``)."""
_KEY_LINE = re.compile(r"^\s*content\s*=")


def parse_content(
    data: Mapping[str, Any], file: str, problems: _Problems
) -> tuple[bool, ContentFolder | None]:
    """(ok, folder): the experiment's content folder, made the active one (None: the shipped cards
    only). Not ok when the key is wrong, disagrees with the user's choice, or its cards do not load
    (each said once on ``content``): the rest of the file would only repeat it as unknown names."""
    raw = _get(data, "content", str, problems, default="")
    if raw is None:
        return False, None
    chosen = chosen_content()
    target: Path | None = Path(chosen) if chosen else None
    if raw:
        folder = Path(raw).expanduser()
        if not folder.is_absolute():
            folder = Path(file).parent / folder
        if target is not None and not _same_cards(target, folder):
            problems.add(
                "content",
                f"names the cards of {folder.resolve()}, but other cards, {target.resolve()}, are in use "
                "(--content or KROSBALANCE_CONTENT): a run plays one content folder; drop one of the two",
            )
            return False, None
        target = folder
    try:
        found = activate(target.resolve() if target is not None else None, reread=True)
        if found is not None:  # the shipped cards alone are checked where a name asks for them
            default_registry().check()
            _say_once(core_note(found))
    except ContentError as exc:
        problems.add("content", f"the cards do not load: {exc}")
        activate(None)
        return False, None
    return True, found


_SAID: set[str] = set()


def core_note(folder: ContentFolder) -> str:
    """The line that says which of the folder's Arena cards the native core cannot play ('' when it
    plays them all, or when it is not the engine that would play them): the matches fielding them
    are played by the Python reference, the same results, more slowly (:mod:`krosbalance.engine_choice`);
    every other match stays in the core."""
    if not native.available():  # also KROSBALANCE_ENGINE=reference: the reference plays anyway
        return ""

    try:
        catalog()  # the core's copy of every Arena card in use, the folder's included
    except ValueError as exc:  # a card every match meets (a reward token): the reference plays all
        if str(exc).startswith(REFUSALS):
            return (
                f"note: the native core cannot play the cards of {folder.root} ({exc}): while they are "
                f"in use, the Python reference engine plays every Arena match (the same results, {SLOWER})"
            )
        raise
    lacking = left_out()
    if not lacking:
        return ""
    why = "; ".join(f"{name}: {reason}" for name, reason in sorted(lacking.items()))
    return (
        f"note: the native core cannot play the cards of {folder.root} ({why}): the matches that field "
        f"them are played by the Python reference engine (the same results, {SLOWER})"
    )


def _say_once(note: str) -> None:
    if note and note not in _SAID:
        _SAID.add(note)
        print(note, file=sys.stderr)


def _same_cards(chosen: Path, named: Path) -> bool:
    """Whether two folders are the same cards: the same folder, or copies (a run's ``content/``)."""
    if chosen.resolve() == named.resolve():
        return True
    try:
        return read_content_folder(chosen).digest == read_content_folder(named).digest
    except ContentError:
        return False


def experiment_copy_text(text: str, content: str) -> str:
    """The experiment file's text with its top-level ``content`` key naming ``content`` (the run
    folder's copy of the cards): the key's line replaced, or one added at the top."""
    line = f"content = {json.dumps(content)}  # the cards this run was played with (a copy)"
    lines = text.splitlines()
    for i, current in enumerate(lines):
        if current.lstrip().startswith("["):  # the first table: the top-level keys are above it
            break
        if _KEY_LINE.match(current):
            lines[i] = line
            return "\n".join(lines) + "\n"
    return "\n".join([line, *lines]) + "\n"


def activate_run_content(results: Path) -> None:
    """Read a results folder with the cards it was played with: the copy of a designer's folder a
    run keeps in ``OUT/content/`` (a staged study's in its stages' folders) becomes the active
    content, unless the user chose a folder (``--content``, ``KROSBALANCE_CONTENT``): the report and
    the answer then name a designer's figures as the game would, not by their ids."""
    if os.environ.get(CONTENT_ENV):
        return
    copies = [results / "content", *sorted(results.glob("stage-*/content"))]
    for copy in copies:
        if copy.is_dir():
            activate(copy)
            return
