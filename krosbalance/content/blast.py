"""Krosmaster Blast cards that are not characters: Krosmic Favors and Divine Challenges, as data.

A favor (R-B9, R-B17-R-B21) and a Divine Challenge's active bonus (R-B43) are both *bonus actions*:
something a Krosmaster of the active player does for 1 AP, with a target rule, a range and a list
of effect keywords (``krosbalance.content.blast_keywords.BONUS_EFFECT_KEYWORDS``). A challenge's
passive bonus (R-B42) is one keyword of ``PASSIVE_KEYWORDS``. Each card is one TOML file under
``data/blast/favors`` or ``data/blast/challenges`` (layout: ``data/README.md``), validated here with
the character loader's field paths and messages, so a box owner can replace an assumed card by the
real one and get one clear line for every mistake.

``status`` says how much of a card the rulebook gives: ``known`` (full text), ``partial`` (some of
it, the rest assumed) or ``assumed`` (invented in the spirit of the known cards: the rulebook only
says how many such cards the box holds). Reports show it next to every result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from krosbalance.content.blast_keywords import BONUS_EFFECT_KEYWORDS, BONUS_TARGETS, PASSIVE_KEYWORDS
from krosbalance.content.loader import _parse_effect, _Table, normalize_name
from krosbalance.content.registry import _unknown, default_registry
from krosbalance.content.specs import EffectSpec, Frozen
from krosbalance.content.toml_file import read_toml
from krosbalance.errors import ContentError

__all__ = [
    "BLAST_CHARACTERS",
    "BLAST_DATA",
    "BlastCards",
    "BonusActionSpec",
    "ChallengeBonusSpec",
    "ChallengeSpec",
    "FavorSpec",
    "blast_cards",
    "load_challenge_file",
    "load_favor_file",
]

BLAST_DATA = Path(__file__).resolve().parent / "data" / "blast"
#: the Krosmaster Blast character cards (Krosmasters and Invocations), read by the character loader
BLAST_CHARACTERS = BLAST_DATA / "characters"
GRADES: tuple[str, ...] = ("basic", "superior")  # R-B20
STATUSES: tuple[str, ...] = ("known", "partial", "assumed")
BONUS_KINDS: tuple[str, ...] = ("passive", "active")  # R-B42, R-B43
TIERS: tuple[int, ...] = (1, 3, 5)  # R-B41: glyph cells needed
TIER_READINGS: tuple[str, ...] = ("printed", "alternative")


@dataclass(frozen=True, slots=True)
class BonusActionSpec(Frozen):
    """What a Krosmaster does when it uses a favor or an active bonus.

    ``target`` is one of ``BONUS_TARGETS``; the target must lie at distance ``range_min`` to
    ``range_max`` of the active Krosmaster (``terrain_cell`` targets follow the ruleset's
    ``terrain_range`` instead), in line of sight when ``needs_los``. ``effects`` apply in order.
    """

    target: str
    range_min: int
    range_max: int
    needs_los: bool
    effects: tuple[EffectSpec, ...]


@dataclass(frozen=True, slots=True)
class FavorSpec(Frozen):
    """A Krosmic Favor card (R-B9, R-B17-R-B20)."""

    id: str
    name: str
    grade: str
    status: str
    text: str
    source: str
    action: BonusActionSpec
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChallengeBonusSpec(Frozen):
    """One tier of a Divine Challenge (R-B41-R-B43): a passive keyword or an active bonus action.

    ``tier`` is the glyph cells needed as the card file reads it; ``alt_tier`` (0 when none) the
    other reading of an ambiguous card, used under ``challenge_tier_reading = "alternative"``.
    """

    id: str
    name: str
    tier: int
    kind: str
    text: str
    source: str
    passive: EffectSpec | None = None
    action: BonusActionSpec | None = None
    alt_tier: int = 0
    aliases: tuple[str, ...] = ()

    def tier_for(self, reading: str) -> int:
        """The glyph cells this bonus needs under a ``challenge_tier_reading``."""
        return self.alt_tier if reading == "alternative" and self.alt_tier else self.tier


@dataclass(frozen=True, slots=True)
class ChallengeSpec(Frozen):
    """A Divine Challenge card (R-B40-R-B43): three bonuses unlocked at 1, 3 and 5 glyph cells."""

    id: str
    name: str
    god: str
    status: str
    source: str
    bonuses: tuple[ChallengeBonusSpec, ...]
    aliases: tuple[str, ...] = ()

    def bonus(self, bonus_id: str) -> ChallengeBonusSpec:
        for bonus in self.bonuses:
            if bonus.id == bonus_id:
                return bonus
        raise KeyError(f"{self.name} has no bonus {bonus_id!r}")


# --------------------------------------------------------------------------------------------- parsing


def _action(table: _Table, allow_target: bool = True) -> BonusActionSpec:
    target = table.choice("target", BONUS_TARGETS) if allow_target else "none"
    has_range = target not in ("none", "terrain_cell")
    range_min = table.nonneg("range_min", 0 if not has_range else 1)
    range_max = table.nonneg("range_max", 0 if not has_range else range_min)
    if not has_range and (table.has("range_min") or table.has("range_max")):
        key = "range_min" if table.has("range_min") else "range_max"
        why = "the ruleset's terrain_range" if target == "terrain_cell" else "no target"
        raise table.error(key, f"a {target!r} target has no range here ({why})")
    if range_min > range_max:
        raise table.error("range_max", f"range_min {range_min} > range_max {range_max}")
    needs_los = table.get("needs_los", bool, False)
    effects = tuple(
        _parse_effect(effect, BONUS_EFFECT_KEYWORDS, "bonus effect") for effect in table.tables("effects")
    )
    if not effects:
        raise table.error("effects", "a bonus action needs at least one [[...effects]] entry")
    return BonusActionSpec(target, range_min, range_max, needs_los, effects)


def _common(table: _Table) -> tuple[str, str, tuple[str, ...], str, str]:
    return (
        table.ident("id"),
        table.text("name"),
        table.strings("aliases"),
        table.choice("status", STATUSES),
        table.text("source"),
    )


def _parse_favor(table: _Table) -> FavorSpec:
    favor_id, name, aliases, status, source = _common(table)
    grade = table.choice("grade", GRADES)
    text = table.text("text")
    action = _action(table)
    table.finish()
    return FavorSpec(favor_id, name, grade, status, text, source, action, aliases)


def _parse_bonus(table: _Table) -> ChallengeBonusSpec:
    bonus_id = table.ident("id")
    name = table.text("name")
    aliases = table.strings("aliases")
    tier = table.get("tier", int)
    if tier not in TIERS:
        raise table.error("tier", f"a tier is 1, 3 or 5 glyph cells (R-B41), got {tier}")
    alt_tier = table.get("alt_tier", int, 0)
    if alt_tier and alt_tier not in TIERS:
        raise table.error("alt_tier", f"a tier is 1, 3 or 5 glyph cells (R-B41), got {alt_tier}")
    kind = table.choice("kind", BONUS_KINDS)
    text = table.text("text")
    source = table.text("source")
    if kind == "passive":
        raw = table.get("passive", dict)
        passive = _parse_effect(_Table(table.file, table.field("passive"), raw), PASSIVE_KEYWORDS, "passive")
        for key in ("target", "range_min", "range_max", "needs_los", "effects"):
            if table.has(key):
                raise table.error(key, "only active bonuses have a target, a range and effects")
        table.finish()
        return ChallengeBonusSpec(
            bonus_id, name, tier, kind, text, source, passive=passive, alt_tier=alt_tier, aliases=aliases
        )
    if table.has("passive"):
        raise table.error("passive", "an active bonus has a target and [[...effects]], not a passive keyword")
    action = _action(table)
    table.finish()
    return ChallengeBonusSpec(
        bonus_id, name, tier, kind, text, source, action=action, alt_tier=alt_tier, aliases=aliases
    )


def _parse_challenge(table: _Table) -> ChallengeSpec:
    challenge_id, name, aliases, status, source = _common(table)
    god = table.text("god")
    bonuses = tuple(_parse_bonus(bonus) for bonus in table.tables("bonuses"))
    tiers = sorted(bonus.tier for bonus in bonuses)
    if tiers != list(TIERS):
        raise table.error(
            "bonuses", f"a Divine Challenge has one bonus per tier 1, 3 and 5 (R-B41), got tiers {tiers}"
        )
    alternative = sorted(bonus.tier_for("alternative") for bonus in bonuses)
    if alternative != list(TIERS):
        raise table.error(
            "bonuses", f"the alt_tier values must also give tiers 1, 3 and 5, got {alternative}"
        )
    ids = [bonus.id for bonus in bonuses]
    if len(set(ids)) != len(ids):
        raise table.error("bonuses", f"bonus ids repeat: {ids}")
    table.finish()
    return ChallengeSpec(challenge_id, name, god, status, source, bonuses, aliases)


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path)


def _document(data: Mapping[str, Any], file: str, key: str) -> list[_Table]:
    top = _Table(file, "", dict(data))
    tables = top.tables(key)
    if not tables:
        raise top.error(key, f"missing required field: a file holds at least one [[{key}]] table")
    top.finish()
    return tables


def load_favor_file(path: str | Path) -> tuple[FavorSpec, ...]:
    """Read and validate one favor file (``[[favors]]`` tables)."""
    path = Path(path)
    return tuple(_parse_favor(t) for t in _document(_read(path), str(path), "favors"))


def load_challenge_file(path: str | Path) -> tuple[ChallengeSpec, ...]:
    """Read and validate one Divine Challenge file (``[[challenges]]`` tables)."""
    path = Path(path)
    return tuple(_parse_challenge(t) for t in _document(_read(path), str(path), "challenges"))


# -------------------------------------------------------------------------------------------- registry


def _summon_refs(action: BonusActionSpec | None, path: str) -> Iterable[tuple[str, str]]:
    if action is None:
        return
    for k, effect in enumerate(action.effects):
        if "summon" in effect.params:
            yield f"{path}.effects[{k}].summon", str(effect.params["summon"])


def _index_card(
    index: dict[str, tuple[str, str]], kind: str, card_id: str, names: tuple[str, ...], file: str, field: str
) -> None:
    """Ids, names and aliases are unique across favors and challenges (normalised like characters)."""
    for text in (card_id, *names):
        key = normalize_name(text)
        other = index.get(key)
        if other is not None and other != (kind, card_id):
            raise ContentError(
                file, f"{field}.id", f"{text!r} is already used by the {other[0][:-1]} {other[1]!r}"
            )
        index[key] = (kind, card_id)


class BlastCards:
    """The favors and Divine Challenges of the Krosmaster Blast box, loaded on first use.

    Args:
        folder: the folder holding ``favors/*.toml`` and ``challenges/*.toml``.
        summons: ids of the Invocations the characters registry knows; every ``summon`` a bonus
            names must be one of them (checked when given).
    """

    def __init__(self, folder: str | Path = BLAST_DATA, summons: Iterable[str] | None = None) -> None:
        self.folder = Path(folder)
        self._summons = None if summons is None else frozenset(summons)
        self._favors: dict[str, FavorSpec] | None = None
        self._challenges: dict[str, ChallengeSpec] = {}
        self._index: dict[str, tuple[str, str]] = {}

    def _load(self) -> dict[str, FavorSpec]:
        if self._favors is not None:
            return self._favors
        favors: dict[str, FavorSpec] = {}
        challenges: dict[str, ChallengeSpec] = {}
        index: dict[str, tuple[str, str]] = {}
        refs: list[tuple[str, str, str]] = []
        for path in self._files("favors"):
            for i, favor in enumerate(load_favor_file(path)):
                field = f"favors[{i}]"
                _index_card(index, "favors", favor.id, (favor.name, *favor.aliases), str(path), field)
                favors[favor.id] = favor
                refs.extend((str(path), where, ref) for where, ref in _summon_refs(favor.action, field))
        for path in self._files("challenges"):
            for i, challenge in enumerate(load_challenge_file(path)):
                field = f"challenges[{i}]"
                names = (challenge.name, *challenge.aliases)
                _index_card(index, "challenges", challenge.id, names, str(path), field)
                challenges[challenge.id] = challenge
                for j, bonus in enumerate(challenge.bonuses):
                    where_bonus = f"{field}.bonuses[{j}]"
                    refs.extend(
                        (str(path), where, ref) for where, ref in _summon_refs(bonus.action, where_bonus)
                    )
        if self._summons is not None:
            for file, where, ref in refs:
                if ref not in self._summons:
                    known = ", ".join(sorted(self._summons)) or "none"
                    raise ContentError(file, where, f"{ref!r} names no loaded Invocation; known: {known}")
        self._challenges = challenges
        self._index = index
        self._favors = favors
        return favors

    def _files(self, kind: str) -> list[Path]:
        folder = self.folder / kind
        files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
        if not files:
            raise ContentError(str(folder), "folder", f"no {kind} files (*.toml) in this folder")
        return files

    def favors(self, grade: str | None = None) -> list[FavorSpec]:
        """Every favor (or those of one grade), sorted by id."""
        favors = self._load()
        return [favors[k] for k in sorted(favors) if grade is None or favors[k].grade == grade]

    def challenges(self) -> list[ChallengeSpec]:
        """Every Divine Challenge, sorted by id."""
        self._load()
        return [self._challenges[k] for k in sorted(self._challenges)]

    def _find(self, kind: str, name: str) -> str:
        self._load()
        hit = self._index.get(normalize_name(name))
        if hit is None or hit[0] != kind:
            known = sorted(self._favors or {}) if kind == "favors" else sorted(self._challenges)

            raise ContentError(
                f"Blast {kind}",
                "name",
                _unknown(kind[:-1], name, {normalize_name(k): k for k in known}, known),
            )
        return hit[1]

    def favor(self, name: str) -> FavorSpec:
        """The favor with this id, name or alias."""
        return self._load()[self._find("favors", name)]

    def challenge(self, name: str) -> ChallengeSpec:
        """The Divine Challenge with this id, name or alias."""
        key = self._find("challenges", name)  # loads the cards first: _challenges is read after
        return self._challenges[key]

    def resolve_challenges(self, names: Sequence[str]) -> tuple[str, ...]:
        """Canonical ids for a list of challenge names; ``random`` entries are kept as they are."""
        return tuple(name if name == "random" else self.challenge(name).id for name in names)


_CARDS: BlastCards | None = None


def blast_cards() -> BlastCards:
    """The shared favors and challenges of the package's data (summon references checked against the
    default character registry)."""
    global _CARDS
    if _CARDS is None:
        summons = default_registry().list_characters("creature", game="blast")
        _CARDS = BlastCards(BLAST_DATA, summons)
    return _CARDS
