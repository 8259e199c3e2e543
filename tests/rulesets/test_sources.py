"""Every ruleset option says where its value comes from, and a rule's source cites the rulebook by line.

Each registered ruleset's data file (``krosbalance/rulesets/<name>/data/<name>.toml``) gives every
option (and every other table with a ``source``: Blast's ``[choices.*]``, Arena's ``[punch]``) a
source of one of these kinds, named by how it begins:

- ``seed L<n>`` (or ``seed L<n>-L<m>``): the rule as the rulebook's text writes it, cited by line
  (Arena: the Italian rulebook; Duel: the English Duel Pack rulebook; Blast: the French rulebook,
  one line per printed page);
- ``assumed``: the text is silent (a gap) or the value is a simulation bound; the note says which
  rule it fills and cites the line of the gap where there is one;
- ``not a rule``: a study's option, on top of the rules' game;
- ``not a Blast rule``: an engine option Blast never uses (no bombs, no scenery destruction);
- ``unused``: an engine option the ruleset switches off (Duel's scenery values).

A new option whose source cites a rule by section title or page only, or gives no source, fails
here. The rulebook texts are not part of the package, so the test knows only their line counts.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import tomllib
from pathlib import Path

import pytest

from krosbalance.rulesets.registry import get_ruleset, list_rulesets

#: the kinds of source, by how a source begins (see the module docstring)
KINDS: dict[str, re.Pattern[str]] = {
    "seed": re.compile(r"seed L(\d+)(?:-L(\d+))?\b"),
    "assumed": re.compile(r"assumed\b"),
    "not a rule": re.compile(r"not a rule\b"),
    "not a Blast rule": re.compile(r"not a Blast rule\b"),
    "unused": re.compile(r"unused\b"),
}

#: lines in each ruleset's rulebook text (the seed its sources cite)
SEED_LINES: dict[str, int] = {"arena": 3517, "duel": 318, "blast": 15}


def _data_file(name: str) -> Path:
    return Path(importlib.import_module(f"krosbalance.rulesets.{name}.options").DATA_FILE)


def _sources(name: str) -> dict[str, str]:
    """Every source of a ruleset: its options' (as the ruleset loaded them) and those of the data
    file's other tables (``choices.<name>``, ``punch``)."""
    found = {f"options.{key}": text for key, text in get_ruleset(name).sources.items()}
    data = tomllib.loads(_data_file(name).read_text(encoding="utf-8"))
    for section, table in data.items():
        if section == "options" or not isinstance(table, dict):
            continue
        # a table with a source of its own (punch), or a table of named entries (choices)
        entries = (
            [(section, table)] if "source" in table else [(f"{section}.{k}", v) for k, v in table.items()]
        )
        for where, entry in entries:
            if isinstance(entry, dict) and "source" in entry:
                found[where] = entry["source"]
    return found


def _kind(source: str) -> tuple[str, re.Match[str]] | None:
    for kind, pattern in KINDS.items():
        match = pattern.match(source)
        if match:
            return kind, match
    return None


def test_every_registered_ruleset_has_its_seed_length() -> None:
    assert sorted(SEED_LINES) == list_rulesets()


@pytest.mark.parametrize("name", list_rulesets())
def test_every_option_has_a_source_of_a_known_kind(name: str) -> None:
    sources = _sources(name)
    options = {f.name for f in dataclasses.fields(get_ruleset(name).options)}
    assert {f"options.{key}" for key in options} <= set(sources), "an option without a source"
    bad = {where: text[:80] for where, text in sources.items() if _kind(text) is None}
    assert not bad, (
        f"{name}: these sources neither cite the rulebook by line ('seed L<n>') nor say they are "
        f"{', '.join(repr(k) for k in KINDS if k != 'seed')}: {bad}"
    )


@pytest.mark.parametrize("name", list_rulesets())
def test_a_cited_line_lies_in_the_rulebook(name: str) -> None:
    """The leading citation's lines exist in that ruleset's rulebook text and run forwards (a page
    number written as a line, ``seed L110`` in Blast, is caught)."""
    for where, text in _sources(name).items():
        kind = _kind(text)
        if kind is None or kind[0] != "seed":
            continue
        first = int(kind[1].group(1))
        last = int(kind[1].group(2) or first)
        assert 1 <= first <= last <= SEED_LINES[name], f"{name} {where}: {kind[1].group(0)}"


def test_every_kind_is_used() -> None:
    """The list of kinds names only what the files use, so it does not grow an escape hatch."""
    used = {kind[0] for name in list_rulesets() for text in _sources(name).values() if (kind := _kind(text))}
    assert used == set(KINDS)
