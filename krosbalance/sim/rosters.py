"""Rosters and collections: the figures teams are drawn from, and every legal team they allow.

* A **roster** is a set of Krosmasters (a set, a tag, a list of names): two players each owning
  their own figures draw from it, so every legal team of it is fielded (the ruleset's team rule:
  Arena's level sum R-A146 and name-colour copies R-A147, via ``Catalog.all_teams``), mirror and
  overlapping teams included.
* A **collection** is what one user owns, a TOML file of figure counts::

      # my-figures.toml
      [figures]
      bill_tell = 1
      oscar_kass = 2

  Its teams are the legal teams drawn from exactly those figures (``Catalog.legal_teams``).

A team study may restrict the team size (``size``, e.g. Arena's 4-figure teams of the box).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from krosbalance.content.toml_file import parse_toml, read_toml_text
from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError
from krosbalance.sim.catalog import DEFAULT_RULESET, Catalog, Options

Team = tuple[str, ...]
COLLECTION_KEYS = ("figures", "name", "description")
SIZE_MAX = 16


def read_collection(path: str | Path, catalog: Catalog, ruleset: str = DEFAULT_RULESET) -> list[str]:
    """The owned figures of a collection file as a multiset of ids (each id once per copy).

    Raises:
        ContentError: missing or unreadable file, bad TOML, an unknown figure or a bad count (one
            error naming the file, the field and the reason).
    """
    file = str(path)
    data = parse_toml(read_toml_text(Path(path)), file)
    for key in data:
        if key not in COLLECTION_KEYS:
            raise ContentError(file, key, f"unknown key; expected one of: {', '.join(COLLECTION_KEYS)}")
    figures = data.get("figures")
    if not isinstance(figures, dict) or not figures:
        raise ContentError(
            file,
            "figures",
            "a collection lists its figures: [figures] with one line per figure, name = copies",
        )
    known = catalog.characters(ruleset)
    owned: list[str] = []
    for name, copies in figures.items():
        where = f"figures.{name}"
        if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= SIZE_MAX:
            raise ContentError(
                file, where, f"must be how many copies you own (1 to {SIZE_MAX}), not {copies!r}"
            )
        try:
            figure = catalog.resolve_character(name)
        except KrosbalanceError:
            raise ContentError(
                file, where, f"unknown figure {name!r}; known Krosmasters: {', '.join(known)}"
            ) from None
        if figure not in known:
            raise ContentError(file, where, f"{name!r} is not a Krosmaster of ruleset {ruleset!r}")
        owned.extend([figure] * copies)
    return owned


def size_range(size: Any) -> tuple[int, int] | str:
    """``size`` (an int, or [min, max]) as a range, or why it is not one."""
    if isinstance(size, int) and not isinstance(size, bool) and 1 <= size <= SIZE_MAX:
        return (size, size)
    if (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(s, int) and not isinstance(s, bool) for s in size)
        and 1 <= size[0] <= size[1] <= SIZE_MAX
    ):
        return (size[0], size[1])
    return f"must be a team size (1 to {SIZE_MAX}) or [min, max], not {size!r}"


def _sized(teams: Sequence[Team], size: tuple[int, int] | None) -> list[Team]:
    return [t for t in teams if size is None or size[0] <= len(t) <= size[1]]


def roster_teams(
    roster: Sequence[str],
    catalog: Catalog,
    ruleset: str = DEFAULT_RULESET,
    options: Options = None,
    size: tuple[int, int] | None = None,
) -> list[Team]:
    """Every legal team of a roster (each figure as many times as the team rule allows), sorted."""
    names = list(dict.fromkeys(roster))
    return sorted(set(_sized(catalog.all_teams(names, ruleset, options), size)))


def collection_teams(
    owned: Sequence[str],
    catalog: Catalog,
    ruleset: str = DEFAULT_RULESET,
    options: Options = None,
    size: tuple[int, int] | None = None,
) -> list[Team]:
    """Every legal team drawn from the owned figures (a multiset), sorted."""
    return sorted(
        {tuple(sorted(t)) for t in _sized(catalog.legal_teams(list(owned), ruleset, options), size)}
    )


def reachable_teams(owned: Sequence[str], team: Team) -> bool:
    """Whether ``team`` can be fielded from ``owned`` (a multiset of figures)."""
    have = Counter(owned)
    return all(have[name] >= n for name, n in Counter(team).items())


def parse_roster_argument(
    text: str, catalog: Catalog, ruleset: str = DEFAULT_RULESET
) -> tuple[str, list[str], bool]:
    """The CLI's ROSTER: a collection file (``*.toml``), ``set:NAME``, ``tag:NAME``, ``all``, a set
    name, or comma-separated Krosmaster names. Returns (label, figures, is_collection).

    Raises:
        KrosbalanceError: an unknown set, tag or name; a bad collection file.
    """
    if text.endswith(".toml"):
        return text, read_collection(text, catalog, ruleset), True
    if text == "all":
        return "every Krosmaster", catalog.characters(ruleset), False
    kind, _, name = text.partition(":")
    if kind in ("set", "tag") and name:
        found = catalog.characters(ruleset, **{kind: name})
        if not found:
            raise ExperimentError("ROSTER", text, f"no Krosmaster of ruleset {ruleset!r} has {kind} {name!r}")
        return f"{kind} {name}", found, False
    if "," not in text:
        found = catalog.characters(ruleset, set=text)
        if found:
            return f"set {text}", found, False
    figures = []
    for item in (part.strip() for part in text.split(",")):
        try:
            figures.append(catalog.resolve_character(item))
        except KrosbalanceError as exc:
            raise ExperimentError(
                "ROSTER",
                item,
                f"not a set, a tag (tag:NAME), a collection file (.toml) nor a Krosmaster: {exc}",
            ) from None
    return ", ".join(figures), figures, False


def teams_listing(teams: Sequence[Team], label: str, rule: str) -> list[str]:
    """The lines ``krosbalance teams`` prints: the count, then one team a line."""
    lines = [f"{len(teams)} legal teams from {label} ({rule})"]
    lines += [", ".join(team) for team in teams]
    return lines


def counts(team: Team) -> Mapping[str, int]:
    return Counter(team)
