"""The one place characters and boards are looked up.

A ``Registry`` is built from one or more folders of character TOML files (by default the package's
``data/characters``). Nothing is read until the first lookup, then everything is loaded, validated
together (unique names, summon references) and cached. Lookups accept an id, the English name or any
alias, ignoring case, accents, spaces, underscores, apostrophes and hyphens; an unknown name raises
``ContentError`` with close matches, so a typo in an experiment file is a one-line fix.

Boards are delegated to ``krosbalance.board.loader``, imported lazily so this module never depends on
the board layer at import time.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Protocol

from krosbalance.board.loader import list_board_files, load_board_file
from krosbalance.content.custom import ContentFolder, active_content
from krosbalance.content.loader import LoadedCharacter, load_characters, normalize_name
from krosbalance.content.reward_loader import LoadedReward, load_rewards, summon_refs
from krosbalance.content.specs import PIECE_KINDS, RANKS, REWARD_KINDS, CharacterSpec, RewardSpec
from krosbalance.errors import ContentError

__all__ = [
    "BLAST_CHARACTER_FOLDER",
    "DEFAULT_CHARACTER_FOLDER",
    "DEFAULT_CHARACTER_FOLDERS",
    "DEFAULT_BOARD_FOLDER",
    "DEFAULT_REWARD_FOLDER",
    "Registry",
    "all_characters",
    "all_rewards",
    "content_registry",
    "default_registry",
    "list_boards",
    "list_characters",
    "load_board",
    "load_character",
    "load_reward",
]

DEFAULT_CHARACTER_FOLDER = Path(__file__).resolve().parent / "data" / "characters"
#: the Krosmaster Blast cards (Krosmasters and Invocations, ``game = "blast"``)
BLAST_CHARACTER_FOLDER = Path(__file__).resolve().parent / "data" / "blast" / "characters"
#: the Duel Pack's two Krosmasters (Arena cards, ``set = "duel-pack"``)
DUEL_CHARACTER_FOLDER = Path(__file__).resolve().parent / "data" / "duel" / "characters"
#: what ``Registry()`` reads: every card the package ships
DEFAULT_CHARACTER_FOLDERS: tuple[Path, ...] = (
    DEFAULT_CHARACTER_FOLDER,
    BLAST_CHARACTER_FOLDER,
    DUEL_CHARACTER_FOLDER,
)
DEFAULT_REWARD_FOLDER = Path(__file__).resolve().parent / "data" / "rewards"
#: the shipped boards (``krosbalance.board.loader.BOARDS_DIR``, named here so that this module does
#: not import the board layer)
DEFAULT_BOARD_FOLDER = Path(__file__).resolve().parent / "data" / "boards"
_REGISTRY_FILE = "character registry"
_REWARD_REGISTRY = "reward registry"
_BOARD_FILE = "board registry"


def _unknown(what: str, name: str, keys: dict[str, str], known: list[str]) -> str:
    """'unknown X 'name'; did you mean ...? known: ...' with difflib suggestions over normalised keys."""
    close = difflib.get_close_matches(normalize_name(name), list(keys), n=5, cutoff=0.6)
    suggestions: list[str] = []
    for key in close:
        if keys[key] not in suggestions:
            suggestions.append(keys[key])
    hint = f"; did you mean {' or '.join(repr(s) for s in suggestions[:3])}?" if suggestions else ""
    return f"unknown {what} {name!r}{hint}; known: {', '.join(known)}"


class CharacterSource(Protocol):
    """Anything that finds a character by name: a :class:`Registry`, or a test's own specs in front
    of one (a Protocol, so compiled code accepts such stand-ins)."""

    def load_character(self, name: str) -> CharacterSpec: ...


class Registry:
    """Characters (Krosmasters and summon tokens) from one or more data folders, loaded on first use.

    Demonic Reward tokens come from their own folders (by default the package's ``data/rewards``),
    loaded on first use as well; a token that summons a creature must name a loaded creature.

    Args:
        *folders: folders of ``*.toml`` character files; default the package's ``data/characters``
            (Arena cards) and ``data/blast/characters`` (Krosmaster Blast cards).
        rewards: folders of ``*.toml`` reward files; default the package's ``data/rewards``.
        boards: folders of ``*.toml`` board files; default the package's ``data/boards``.
    """

    def __init__(
        self,
        *folders: str | Path,
        rewards: tuple[str | Path, ...] | None = None,
        boards: tuple[str | Path, ...] | None = None,
    ) -> None:
        self.folders: tuple[Path, ...] = tuple(Path(f) for f in folders) or DEFAULT_CHARACTER_FOLDERS
        self.reward_folders: tuple[Path, ...] = (
            (DEFAULT_REWARD_FOLDER,) if rewards is None else tuple(Path(f) for f in rewards)
        )
        self.board_folders: tuple[Path, ...] = (
            (DEFAULT_BOARD_FOLDER,) if boards is None else tuple(Path(f) for f in boards)
        )
        self._rewards: dict[str, LoadedReward] | None = None
        self._reward_index: dict[str, str] = {}
        self._loaded: dict[str, LoadedCharacter] | None = None
        self._index: dict[str, str] = {}
        self._boards: dict[str, Any] | None = None
        self._single_boards: dict[str, Any] = {}

    # ------------------------------------------------------------------ characters
    @property
    def loaded(self) -> bool:
        """Whether the character files have been read yet."""
        return self._loaded is not None

    def _characters(self) -> dict[str, LoadedCharacter]:
        if self._loaded is None:
            paths: list[Path] = []
            for folder in self.folders:
                if not folder.is_dir():
                    raise ContentError(str(folder), "folder", "no such character folder")
                files = sorted(folder.glob("*.toml"))
                if not files:
                    raise ContentError(str(folder), "folder", "no character files (*.toml) in this folder")
                paths.extend(files)
            loaded = load_characters(paths)
            index: dict[str, str] = {}
            for char_id, entry in loaded.items():
                for text in (char_id, entry.spec.name, *entry.spec.aliases):
                    index[normalize_name(text)] = char_id
            self._index = index
            self._loaded = loaded
        return self._loaded

    def load_character(self, name: str) -> CharacterSpec:
        """The character with this id, English name or alias (case/spacing/punctuation-insensitive)."""
        loaded = self._characters()
        if not isinstance(name, str):
            raise ContentError(_REGISTRY_FILE, "name", f"expected a character name, got {name!r}")
        char_id = self._index.get(normalize_name(name))
        if char_id is None:
            raise ContentError(
                _REGISTRY_FILE, "name", _unknown("character", name, self._index, sorted(loaded))
            )
        return loaded[char_id].spec

    def source_file(self, name: str) -> str:
        """The file a character was loaded from (for error messages and provenance)."""
        spec = self.load_character(name)
        return self._characters()[spec.id].file

    def card_location(self, name: str) -> tuple[str, str]:
        """(file, field) of the TOML table a character was read from, e.g. ``characters[0]``."""
        entry = self._characters()[self.load_character(name).id]
        return entry.file, entry.field

    def list_characters(
        self,
        kind: str | None = "krosmaster",
        *,
        set: str | None = None,
        tag: str | None = None,
        game: str | None = "arena",
    ) -> list[str]:
        """Sorted ids of the characters of this kind (``None``: every piece, summons included),
        optionally only those of one ``set`` (e.g. ``"arena-box"``) and/or carrying ``tag``, printed
        for ``game`` — Arena cards by default, ``"blast"`` for Krosmaster Blast cards, ``None`` for
        every card."""
        if kind is not None and kind not in PIECE_KINDS:
            raise ContentError(_REGISTRY_FILE, "kind", f"{kind!r} is not one of: {', '.join(PIECE_KINDS)}")
        return sorted(
            cid
            for cid, entry in self._characters().items()
            if (kind is None or entry.spec.kind == kind)
            and (set is None or entry.spec.set == set)
            and (tag is None or tag in entry.spec.tags)
            and (game is None or entry.spec.game == game)
        )

    def list_sets(self) -> list[str]:
        """Sorted names of the sets the loaded characters come from."""
        return sorted({entry.spec.set for entry in self._characters().values()})

    def all_characters(self) -> list[CharacterSpec]:
        """Every loaded spec (Krosmasters and summon tokens), sorted by id."""
        loaded = self._characters()
        return [loaded[cid].spec for cid in sorted(loaded)]

    def with_specs(
        self, characters: tuple[CharacterSpec, ...] = (), rewards: tuple[RewardSpec, ...] = ()
    ) -> Registry:
        """A new registry over the same folders in which these specs replace the loaded ones of the
        same id (a balance patch's cards, ``krosbalance.sim.patches``); this registry is unchanged.

        A replacement keeps its card's file and field (for messages), id, name and aliases, so every
        lookup finds it as it found the original. An id this registry does not hold is a
        ``ContentError``: a patch changes cards, it does not add them."""
        loaded = dict(self._characters())
        for spec in characters:
            entry = loaded.get(spec.id)
            if entry is None:
                raise ContentError(_REGISTRY_FILE, "name", f"no character {spec.id!r} to replace")
            loaded[spec.id] = LoadedCharacter(spec, entry.file, entry.field)
        table = dict(self._reward_table()) if rewards else None
        if table is not None:
            for reward in rewards:
                old = table.get(reward.id)
                if old is None:
                    raise ContentError(_REWARD_REGISTRY, "name", f"no reward {reward.id!r} to replace")
                table[reward.id] = LoadedReward(reward, old.file, old.field)
        other = Registry(*self.folders, rewards=self.reward_folders, boards=self.board_folders)
        other._loaded = loaded
        other._index = dict(self._index)
        if table is not None:
            other._rewards = table
            other._reward_index = dict(self._reward_index)
        other._boards = self._boards
        other._single_boards = self._single_boards
        return other

    # ------------------------------------------------------------------------ rewards
    def _reward_table(self) -> dict[str, LoadedReward]:
        if self._rewards is None:
            paths: list[Path] = []
            for folder in self.reward_folders:
                if not folder.is_dir():
                    raise ContentError(str(folder), "folder", "no such reward folder")
                paths.extend(sorted(folder.glob("*.toml")))
            loaded = load_rewards(paths)
            characters = self._characters() if loaded else {}
            for entry in loaded.values():
                for field_path, ref in summon_refs(entry):
                    target = characters.get(ref)
                    if target is None or target.spec.kind != "creature":
                        known = ", ".join(
                            sorted(k for k, v in characters.items() if v.spec.kind == "creature")
                        )
                        raise ContentError(
                            entry.file,
                            field_path,
                            f"{ref!r} names no loaded creature; known creatures: {known}",
                        )
            index: dict[str, str] = {}
            for reward_id, entry in loaded.items():
                for text in (reward_id, entry.spec.name, *entry.spec.aliases):
                    index[normalize_name(text)] = reward_id
            self._reward_index = index
            self._rewards = loaded
        return self._rewards

    def load_reward(self, name: str) -> RewardSpec:
        """The Demonic Reward with this id, English name or alias."""
        loaded = self._reward_table()
        if not isinstance(name, str):
            raise ContentError(_REWARD_REGISTRY, "name", f"expected a reward name, got {name!r}")
        reward_id = self._reward_index.get(normalize_name(name))
        if reward_id is None:
            raise ContentError(
                _REWARD_REGISTRY, "name", _unknown("reward", name, self._reward_index, sorted(loaded))
            )
        return loaded[reward_id].spec

    def reward_source_file(self, name: str) -> str:
        """The file a reward was loaded from."""
        return self._reward_table()[self.load_reward(name).id].file

    def reward_location(self, name: str) -> tuple[str, str]:
        """(file, field) of the TOML table a reward was read from, e.g. ``rewards[3]``."""
        entry = self._reward_table()[self.load_reward(name).id]
        return entry.file, entry.field

    def list_rewards(
        self, kind: str | None = None, rank: str | None = None, *, set: str | None = None
    ) -> list[str]:
        """Sorted ids of the reward tokens, optionally of one kind (boost, upgrade, equipment), rank or
        set (e.g. ``"arena-box"``)."""
        if kind is not None and kind not in REWARD_KINDS:
            raise ContentError(_REWARD_REGISTRY, "kind", f"{kind!r} is not one of: {', '.join(REWARD_KINDS)}")
        if rank is not None and rank not in RANKS:
            raise ContentError(_REWARD_REGISTRY, "rank", f"{rank!r} is not one of: {', '.join(RANKS)}")
        return sorted(
            rid
            for rid, entry in self._reward_table().items()
            if (kind is None or entry.spec.kind == kind)
            and (rank is None or entry.spec.rank == rank)
            and (set is None or entry.spec.set == set)
        )

    def all_rewards(self) -> list[RewardSpec]:
        """Every loaded reward token, sorted by id."""
        loaded = self._reward_table()
        return [loaded[rid].spec for rid in sorted(loaded)]

    # ---------------------------------------------------------------------- boards
    def _board_table(self) -> dict[str, Any]:
        if self._boards is None:
            boards: dict[str, Any] = {}
            files: dict[str, Path] = {}
            for path in list_board_files(self.board_folders):
                board = load_board_file(path)
                key = normalize_name(board.id)
                if key in files:
                    raise ContentError(
                        str(path), "id", f"board id {board.id!r} is already used by {files[key]}"
                    )
                boards[board.id] = board
                files[key] = path
            self._boards = boards
        return self._boards

    def load_board(self, board_id: str) -> Any:
        """The board with this id (case/spacing/punctuation-insensitive).

        A board whose file is named after its id is built alone: building a board precomputes its
        line-of-sight tables, and a worker process that needs one board should not pay for all.
        """
        if self._boards is None and isinstance(board_id, str):
            board = self._board_by_file_name(board_id)
            if board is not None:
                return board
        boards = self._board_table()
        keys = {normalize_name(bid): bid for bid in boards}
        found = keys.get(normalize_name(board_id)) if isinstance(board_id, str) else None
        if found is None:
            raise ContentError(_BOARD_FILE, "board", _unknown("board", str(board_id), keys, sorted(boards)))
        return boards[found]

    def _board_by_file_name(self, board_id: str) -> Any:

        key = normalize_name(board_id)
        cached = self._single_boards.get(key)
        if cached is not None:
            return cached
        for path in list_board_files(self.board_folders):
            if normalize_name(path.stem) == key:
                board = load_board_file(path)
                if normalize_name(board.id) == key:
                    self._single_boards[key] = board
                    return board
        return None

    def list_boards(self, ruleset: str | None = None) -> list[str]:
        """Sorted ids of the available boards; with ``ruleset``, only the boards made for it."""
        boards = self._board_table()
        return sorted(bid for bid, board in boards.items() if ruleset is None or ruleset in board.rulesets)

    def check(self) -> None:
        """Load and validate every character, reward and board now (``ContentError`` for the first
        problem), as a content folder is checked before it is used."""
        self._characters()
        self._reward_table()
        self._board_table()


def content_registry(content: ContentFolder | None) -> Registry:
    """A registry of the shipped cards with the cards of ``content`` over them (None: the shipped
    cards only): read together by the same loaders, so a clash of ids, names or aliases is an error
    naming both files (:mod:`krosbalance.content.custom`)."""
    global _LAST
    if content is None:
        return Registry()
    key = (str(content.root), content.digest)
    if _LAST is not None and _LAST[0] == key:  # the one use_content just checked: loaded once
        return _LAST[1]
    registry = Registry(
        *DEFAULT_CHARACTER_FOLDERS,
        *((content.characters,) if content.characters else ()),
        rewards=(DEFAULT_REWARD_FOLDER, *((content.rewards,) if content.rewards else ())),
        boards=(DEFAULT_BOARD_FOLDER, *((content.boards,) if content.boards else ())),
    )
    _LAST = (key, registry)
    return registry


_LAST: tuple[tuple[str, str], Registry] | None = None


_DEFAULT: Registry | None = None
_DEFAULT_FOR: tuple[str, str] | None = None  # (folder, digest) of the content it serves; None: shipped only


def default_registry() -> Registry:
    """The shared registry: the package's cards, with those of the active content folder over them
    (:func:`krosbalance.content.custom.active_content`); made again when that folder changes,
    loaded on first use."""
    global _DEFAULT, _DEFAULT_FOR
    content = active_content()
    key = (str(content.root), content.digest) if content is not None else None
    if _DEFAULT is None or key != _DEFAULT_FOR:
        _DEFAULT = content_registry(content)
        _DEFAULT_FOR = key
    return _DEFAULT


def load_character(name: str) -> CharacterSpec:
    """``default_registry().load_character(name)``."""
    return default_registry().load_character(name)


def list_characters(
    kind: str | None = "krosmaster",
    *,
    set: str | None = None,
    tag: str | None = None,
    game: str | None = "arena",
) -> list[str]:
    """``default_registry().list_characters(kind, set=..., tag=..., game=...)``."""
    return default_registry().list_characters(kind, set=set, tag=tag, game=game)


def all_characters() -> list[CharacterSpec]:
    """``default_registry().all_characters()``."""
    return default_registry().all_characters()


def load_reward(name: str) -> RewardSpec:
    """``default_registry().load_reward(name)``."""
    return default_registry().load_reward(name)


def all_rewards() -> list[RewardSpec]:
    """``default_registry().all_rewards()``."""
    return default_registry().all_rewards()


def load_board(board_id: str) -> Any:
    """``default_registry().load_board(board_id)``."""
    return default_registry().load_board(board_id)


def list_boards(ruleset: str | None = None) -> list[str]:
    """``default_registry().list_boards(ruleset)``."""
    return default_registry().list_boards(ruleset)
