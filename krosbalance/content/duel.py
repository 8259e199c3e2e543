"""The Duel Pack's content: its Duel Tokens and its two Krosmaster cards (R-D1, R-D4).

Duel Tokens are data (``data/duel/tokens/<set id>.toml``), read into frozen :class:`DuelTokenSpec`
values and validated once: every problem is a ``ContentError`` naming the file, the field (in the
file's own keys, e.g. ``tokens[3].level``) and the reason.

The Duel Pack's Krosmasters (Captain Amakna, Merkator) are Arena-format cards (``game = "arena"``,
``set = "duel-pack"``) kept in their own folder, ``data/duel/characters``. The default registry
reads it with every other card the package ships, so an Arena experiment's ``pool = "all"`` holds
these two level-6 figures too (Arena cards, legal in an Arena team); ``{ set = "arena-box" }``
names the box alone. :func:`with_duel_pack` gives a registry over other folders plus this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from krosbalance.content.registry import Registry
from krosbalance.content.specs import Frozen
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError
from krosbalance.paths import name_problem

DUEL_DATA = Path(__file__).resolve().parent / "data" / "duel"
#: the Duel Pack's Krosmaster cards (``set = "duel-pack"``)
DUEL_CHARACTER_FOLDER = DUEL_DATA / "characters"
#: the Duel Token sets, one file per set id
DUEL_TOKEN_FOLDER = DUEL_DATA / "tokens"
#: token levels (R-D4: "level of the Duel Token (1 to 4)")
TOKEN_LEVELS: tuple[int, ...] = (1, 2, 3, 4)
#: the bonuses a token may show (R-D4): MP, HP, AP and max range
BONUSES: tuple[str, ...] = ("mp", "hp", "ap", "range")

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_TOKEN_KEYS = {"id", "level", *BONUSES, "source"}
_SET_KEYS = {"id", "name", "source", "tokens"}


@dataclass(frozen=True, slots=True)
class DuelTokenSpec(Frozen):
    """One Duel Token (R-D4): its level (1-4, printed on its back: the tactical option sorts face-down
    tokens by level, R-D17, and picking one up costs its level, R-D25) and its permanent bonuses."""

    id: str
    level: int
    mp: int = 0
    hp: int = 0
    ap: int = 0
    range: int = 0
    source: str = ""

    @property
    def points(self) -> float:
        """A plain worth of its bonuses (1 MP = 1 AP = 1 range = 2 HP), for AIs and checks."""
        return float(self.mp + self.ap + self.range) + self.hp / 2.0


@dataclass(frozen=True, slots=True)
class DuelTokenSet(Frozen):
    """A set of Duel Tokens, as one data file gives it."""

    id: str
    name: str
    source: str
    tokens: tuple[DuelTokenSpec, ...]

    def of_level(self, level: int) -> list[DuelTokenSpec]:
        """The tokens of one level, in file order."""
        return [t for t in self.tokens if t.level == level]

    def token(self, token_id: str) -> DuelTokenSpec:
        for token in self.tokens:
            if token.id == token_id:
                return token
        raise ContentError(self.id, "tokens", f"no Duel Token {token_id!r}")


def _int(file: str, where: str, value: Any, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ContentError(file, where, f"must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}-{high}" if high is not None else f">= {low}"
        raise ContentError(file, where, f"must be {bound}, got {value}")
    return value


def parse_token_set(data: dict[str, Any], file: str) -> DuelTokenSet:
    """A token set from parsed TOML, every field checked (``ContentError`` names file and field)."""
    unknown = set(data) - _SET_KEYS
    if unknown:
        raise ContentError(file, sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(_SET_KEYS))})")
    for key in ("id", "name", "source"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ContentError(file, key, "missing or not a non-empty string")
    entries = data.get("tokens")
    if not isinstance(entries, list) or not entries:
        raise ContentError(file, "tokens", "must be a non-empty array of tables ([[tokens]])")
    tokens: list[DuelTokenSpec] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"tokens[{i}]"
        if not isinstance(entry, dict):
            raise ContentError(file, where, "must be a table")
        extra = set(entry) - _TOKEN_KEYS
        if extra:
            raise ContentError(
                file, f"{where}.{sorted(extra)[0]}", f"unknown key (known: {', '.join(sorted(_TOKEN_KEYS))})"
            )
        token_id = entry.get("id")
        if not isinstance(token_id, str) or not _ID_RE.match(token_id):
            raise ContentError(
                file, f"{where}.id", f"must be lowercase letters, digits and '_', got {token_id!r}"
            )
        if token_id in seen:
            raise ContentError(file, f"{where}.id", f"duplicate token id {token_id!r}")
        seen.add(token_id)
        if "level" not in entry:
            raise ContentError(file, f"{where}.level", "missing")
        level = _int(file, f"{where}.level", entry["level"], TOKEN_LEVELS[0], TOKEN_LEVELS[-1])
        bonus = {name: _int(file, f"{where}.{name}", entry.get(name, 0), 0) for name in BONUSES}
        if not any(bonus.values()):
            raise ContentError(file, where, f"a Duel Token shows at least one bonus ({', '.join(BONUSES)})")
        source = entry.get("source", "")
        if not isinstance(source, str):
            raise ContentError(file, f"{where}.source", "must be a string")
        tokens.append(DuelTokenSpec(token_id, level, source=source, **bonus))
    return DuelTokenSet(str(data["id"]), str(data["name"]), str(data["source"]), tuple(tokens))


def load_token_file(path: str | Path) -> DuelTokenSet:
    """Read and validate one token set file."""
    path = Path(path)
    data = read_toml(path)
    tokens = parse_token_set(data, str(path))
    if tokens.id != path.stem:
        raise ContentError(str(path), "id", f"the set id {tokens.id!r} must be the file name {path.stem!r}")
    return tokens


def list_token_sets() -> list[str]:
    """The shipped token set ids."""
    return sorted(p.stem for p in DUEL_TOKEN_FOLDER.glob("*.toml"))


@cache
def duel_tokens(set_id: str = "duel-pack") -> DuelTokenSet:
    """A shipped token set by id (``ContentError`` lists the known ones)."""
    path = DUEL_TOKEN_FOLDER / f"{set_id}.toml"
    if name_problem(set_id) or not path.is_file():  # a set id is a file name, never a path
        raise ContentError(
            "duel tokens", "token_set", f"unknown set {set_id!r}; known: {', '.join(list_token_sets())}"
        )
    return load_token_file(path)


_WITH_DUEL: dict[tuple[tuple[Path, ...], ...], Registry] = {}


def with_duel_pack(registry: Registry) -> Registry:
    """``registry`` with the Duel Pack's cards too: itself when it already reads their folder, else a
    registry (made once per folder list) over its folders plus ``DUEL_CHARACTER_FOLDER``."""
    if DUEL_CHARACTER_FOLDER in registry.folders:
        return registry
    folders = (*registry.folders, DUEL_CHARACTER_FOLDER)
    key = (folders, registry.reward_folders, registry.board_folders)
    found = _WITH_DUEL.get(key)
    if found is None:
        found = _WITH_DUEL[key] = Registry(
            *folders, rewards=registry.reward_folders, boards=registry.board_folders
        )
    return found
