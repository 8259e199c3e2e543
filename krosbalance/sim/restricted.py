"""Restricted-play arms of an experiment: ``forbid`` in ``[[variants]]`` and the ``[restricted]`` generator.

Restricted play (Jaffe et al., AIIDE 2012) measures an element of a figure by the win rate of the
figure when it may not use it against the same AI that may. Here an arm forbids elements to named
figures (:mod:`krosbalance.engine.restriction` says what forbidding a spell, a power or an option
means); the figure is restricted on whichever side fields it, its opponent never is, and every arm
is played on the same seeds as the others, so each restricted arm is paired with the unrestricted
one deal by deal. Schema::

    [[variants]]
    name = "no-distant-shot"
    forbid = { bill_tell = ["spell:distant_shot", "power:dodge", "action:buy_gg"] }

    [restricted]                      # one arm per element of each figure, after the variants
    figures = ["bill_tell"]           # or figure = "bill_tell"
    kinds = ["spell", "power", "action"]   # default: all three
    actions = ["pick_kama", "buy_gg"] # the options (action:) to try; default every one the ruleset has
    baseline = "unrestricted"         # the unrestricted arm it adds first (default "unrestricted")

The generated arms are named ``<figure>-<kind>-<id>`` (``bill_tell-spell-distant_shot``) and play the
experiment's ``[options]``. An element a figure does not have, or a figure the catalog does not know,
is one problem naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from krosbalance.errors import KrosbalanceError

if TYPE_CHECKING:
    from krosbalance.sim.catalog import Catalog
    from krosbalance.sim.file_problems import _Problems

#: the keys a ``[[variants]]`` entry may hold for restricted play
VARIANT_KEYS: tuple[str, ...] = ("forbid",)
RESTRICTED_KEYS: tuple[str, ...] = ("figure", "figures", "kinds", "actions", "baseline")
KINDS: tuple[str, ...] = ("spell", "power", "action")
DEFAULT_BASELINE = "unrestricted"

Forbid = dict[str, list[str]]


def forbid_json(forbid: Mapping[str, list[str]]) -> str:
    """The canonical JSON of a restriction (sorted figures, elements in the order given)."""
    return json.dumps({k: list(v) for k, v in sorted(forbid.items())}, separators=(",", ":"))


def _options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    return dict(options or {})


def _figure(name: Any, field: str, problems: _Problems, catalog: Catalog) -> str | None:
    if not isinstance(name, str):
        problems.add(field, f"must be a Krosmaster's id (a string), not {name!r}")
        return None
    try:
        return catalog.resolve_character(name)
    except KrosbalanceError as exc:
        problems.add(field, str(exc))
        return None


def _known(figure: str, ruleset: str, options: Mapping[str, Any] | None, catalog: Catalog) -> list[str]:
    return catalog.elements(figure, ruleset, _options(options))


def parse_forbid(
    entry: Mapping[str, Any],
    prefix: str,
    ruleset: str | None,
    options: Mapping[str, Any] | None,
    problems: _Problems,
    catalog: Catalog,
) -> Forbid | None:
    """The ``forbid`` table of one variant ({figure: [elements]}), checked; None when absent or wrong."""
    raw = entry.get("forbid")
    if raw is None:
        return None
    field = prefix + "forbid"
    if not isinstance(raw, dict) or not raw:
        problems.add(field, f"must be a table {{figure = [elements]}}, not {raw!r}")
        return None
    out: Forbid = {}
    for name, elements in raw.items():
        where = f"{field}.{name}"
        figure = _figure(name, where, problems, catalog)
        if figure is None or ruleset is None:
            continue
        if not isinstance(elements, list) or not elements or not all(isinstance(e, str) for e in elements):
            problems.add(
                where,
                f"must be a non-empty list of 'spell:<id>', 'power:<kind>', 'action:<name>', not {elements!r}",
            )
            continue
        known = _known(figure, ruleset, options, catalog)
        bad = [e for e in elements if e not in known]
        if bad:
            problems.add(where, f"{figure} has no element {bad[0]!r}; known: {', '.join(known)}")
            continue
        out[figure] = list(dict.fromkeys(elements))
    return out if out and len(out) == len(raw) else None


def generated_arms(
    data: Mapping[str, Any],
    ruleset: str | None,
    options: Mapping[str, Any] | None,
    problems: _Problems,
    catalog: Catalog,
) -> list[tuple[str, Forbid]]:
    """The arms ``[restricted]`` generates, in order: (name, forbid), the baseline's forbid empty."""
    table = data.get("restricted")
    if table is None:
        return []
    if not isinstance(table, dict):
        problems.add("restricted", f"must be a table, not {table!r}")
        return []
    for key in table:
        if key not in RESTRICTED_KEYS:
            problems.add(f"restricted.{key}", f"unknown key; expected one of: {', '.join(RESTRICTED_KEYS)}")
    names = table.get("figures", [table["figure"]] if "figure" in table else None)
    if "figure" in table and "figures" in table:
        problems.add("restricted.figures", "give figure or figures, not both")
        return []
    if not isinstance(names, list) or not names:
        problems.add(
            "restricted.figures", 'name the figure(s) to restrict: figure = "<id>" or figures = [...]'
        )
        return []
    kinds = table.get("kinds", list(KINDS))
    if not isinstance(kinds, list) or not kinds or any(k not in KINDS for k in kinds):
        problems.add("restricted.kinds", f"must be a non-empty list of {', '.join(KINDS)}, not {kinds!r}")
        return []
    baseline = table.get("baseline", DEFAULT_BASELINE)
    if not isinstance(baseline, str) or not baseline:
        problems.add("restricted.baseline", f"must be an arm name, not {baseline!r}")
        return []
    actions = table.get("actions")
    if actions is not None and (
        not isinstance(actions, list) or not all(isinstance(a, str) for a in actions)
    ):
        problems.add("restricted.actions", f"must be a list of option names, not {actions!r}")
        return []
    if ruleset is None:
        return []
    arms: list[tuple[str, Forbid]] = [(baseline, {})]
    for i, name in enumerate(names):
        figure = _figure(name, f"restricted.figures[{i}]", problems, catalog)
        if figure is None:
            continue
        known = _known(figure, ruleset, options, catalog)
        offered = [e.partition(":")[2] for e in known if e.startswith("action:")]
        for action in actions or ():
            if action not in offered:
                problems.add("restricted.actions", f"unknown option {action!r}; known: {', '.join(offered)}")
        for element in known:
            kind, _, ident = element.partition(":")
            if kind not in kinds or (kind == "action" and actions is not None and ident not in actions):
                continue
            arms.append((f"{figure}-{kind}-{ident}", {figure: [element]}))
    return arms


def restricted_variants(
    data: Mapping[str, Any],
    options: Mapping[str, Any] | None,
    ruleset: str | None,
    problems: _Problems,
    catalog: Catalog,
    taken: list[str],
) -> list[tuple[str, str]]:
    """The ``[restricted]`` arms as ``[[variants]]`` arms (name, options JSON): what
    ``experiment._parse_variants`` appends to the arms it read (``taken``: their names)."""
    if options is None:
        return []
    arms = []
    merged = json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
    for name, _ in generated_arms(data, ruleset, options, problems, catalog):
        if name in taken:
            problems.add("restricted", f"generates the arm {name!r}, which [[variants]] already names")
            continue
        arms.append((name, merged))
    return arms


def arm_forbids(
    data: Mapping[str, Any],
    ruleset: str | None,
    options: Mapping[str, Any] | None,
    problems: _Problems,
    catalog: Catalog,
) -> tuple[tuple[str, str], ...]:
    """(arm name, forbid JSON) of every arm that forbids something: the variants' ``forbid`` tables
    and the ``[restricted]`` arms (``Experiment.forbids``)."""
    out: list[tuple[str, str]] = []
    raw = data.get("variants")
    for i, entry in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        merged = {
            **_options(options),
            **(entry.get("options") if isinstance(entry.get("options"), dict) else {}),
        }
        forbid = parse_forbid(entry, f"variants[{i}].", ruleset, merged, problems, catalog)
        if forbid:
            out.append((entry["name"], forbid_json(forbid)))
    for name, forbid in generated_arms(data, ruleset, options, problems, catalog):
        if forbid:
            out.append((name, forbid_json(forbid)))
    return tuple(out)


def forbid_map(text: str) -> dict[str, list[str]]:
    """A match spec's ``forbid`` JSON as the mapping ``play_match`` takes ({} for '')."""
    return json.loads(text) if text else {}
