"""``[teams] mode = "ladder"``: a team study (issue 19) — every legal team of a roster rated against
the field, in stages (:mod:`krosbalance.studies.teams.planner` plans them)::

    [teams]
    mode = "ladder"
    roster = {set = "arena-box"}   # the field: every legal team of these figures (each figure as
                                   # many copies as the team rule allows: two players, each with
                                   # his own figures); a set/tag table, an array of names/tables, "all"
    collection = "my-figures.toml" # optional: a user's figures ([figures] name = copies, relative to
                                   # the experiment file): the study rates the teams reachable from
                                   # it with at most one more figure of the roster
    rule = { size = 4 }            # optional: restrict the ruleset's team rule (team size only; the
                                   # level sum and copies are the ruleset's, e.g. options.team_level)

    [teams.ladder]
    design = "adaptive"            # "adaptive" (successive halving against the field), "lucb"
                                   # ((epsilon, delta)-PAC top-k racing, krosbalance.sim.topk) or
                                   # "round_robin" (every pair of rated teams, when affordable)
    top_k = 10                     # the ranking the adaptive design must get right
    opponents = 2                  # stage 1: field opponents per team (doubled at every stage)
    keep = 0.5                     # share of the rated teams each halving stage keeps
    min_teams = 20                 # halving stops at this many teams (>= top_k)
    epsilon = 0.05                 # lucb: the top k is certified when separated up to epsilon
                                   # (a share of the field win rate, 0 < epsilon < 1)
    delta = 0.1                    # lucb: ... with confidence 1 - delta (0 < delta < 1)
    budget = 4000                  # lucb: at most this many matches in the race (a count)
    batch = 10                     # lucb: teams sampled per side of the boundary per stage
    top_round_robin = 16           # then a round robin of the top N (the meta-game's matrix); 0 = none
    search = { ai = "lookahead-fast", top = 6, deals = 1 }   # optional: a round robin of the top
                                   # teams under a costlier AI tier; with half_width = 0.15 (and
                                   # max_deals, default 20 rounds) it plays rounds of ``deals``
                                   # until every top team's rating is that precise (log-odds);
                                   # beside = { ai = "mcts-deep", deals = 20 } plays the next AI
                                   # down on the same pairings, rated on its own, so the answer
                                   # says whether the two agree (settled / still moving)
    swaps = [{ team = ["a", "b", "c", "d"], out = "a", in = "e" }]   # optional what-if swaps: the
                                   # team and the swapped one against the same opponents and seeds

Each stage plays every AI matchup of ``ais`` ``matches_per_pairing`` deals per pairing, with paired
seeds. The experiment's own pairings are its first stage (what ``validate`` counts).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from krosbalance.errors import ExperimentError, KrosbalanceError
from krosbalance.sim import file_problems as fp
from krosbalance.sim import parse_teams as pt
from krosbalance.sim.catalog import Catalog, Options
from krosbalance.sim.rosters import (
    Team,
    collection_teams,
    read_collection,
    roster_teams,
    size_range,
)
from krosbalance.sim.target import DEFAULT_ROUNDS
from krosbalance.studies.teams.planner import first_pairings

LADDER_TEAM_KEYS = ("mode", "roster", "collection", "rule", "ladder")
RULE_KEYS = ("size",)
LADDER_KEYS = (
    "design",
    "top_k",
    "opponents",
    "keep",
    "min_teams",
    "top_round_robin",
    "search",
    "swaps",
    "epsilon",
    "delta",
    "budget",
    "batch",
)
DESIGNS = ("adaptive", "lucb", "round_robin")
LUCB_KEYS = ("epsilon", "delta", "budget", "batch")
SEARCH_KEYS = ("ai", "top", "deals", "half_width", "max_deals", "beside")
BESIDE_KEYS = ("ai", "deals")
DEFAULTS: dict[str, Any] = {
    "design": "adaptive",
    "top_k": 10,
    "opponents": 2,
    "keep": 0.5,
    "min_teams": 20,
    "top_round_robin": 16,
    "epsilon": 0.05,
    "delta": 0.1,
    "budget": 4000,
    "batch": 10,
}
ROUND_ROBIN_MAX_PAIRS = 5000
"""A round-robin design of more pairings is refused: it would not end; use the adaptive design."""


def _int(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _parse_search_target(search: Mapping[str, Any], deals: Any, out: dict[str, Any], problems: Any) -> bool:
    """The search stage's ``half_width`` and ``max_deals`` into ``out`` (only when ``half_width`` is
    given: a fixed search stage keeps its settings as before); False when one is wrong."""
    width, cap = search.get("half_width"), search.get("max_deals")
    if width is None:
        if cap is not None:
            problems.add(
                "teams.ladder.search.max_deals", "caps a search stage with half_width; set half_width too"
            )
            return False
        return True
    if (
        isinstance(width, bool)
        or not isinstance(width, (int, float))
        or not (math.isfinite(width) and width > 0)
    ):
        problems.add(
            "teams.ladder.search.half_width", f"must be a number > 0 (a 95% CI half-width), not {width!r}"
        )
        return False
    rounds = deals if _int(deals, 1) else 1
    cap = DEFAULT_ROUNDS * rounds if cap is None else cap
    if not _int(cap, rounds):
        problems.add("teams.ladder.search.max_deals", f"must be an integer >= deals ({rounds}), not {cap!r}")
        return False
    out.update(half_width=float(width), max_deals=cap)
    return True


def parse_ladder(
    teams: Mapping[str, Any],
    problems: Any,
    catalog: Catalog,
    ruleset: str,
    options: Options,
    master_seed: int | None,
    file: str,
) -> tuple[tuple[tuple[Team, Team], ...] | None, str]:
    """The first stage's pairings and the study's settings (JSON) of a ladder ``[teams]``; every
    problem goes to ``problems`` (the experiment's ``_Problems``)."""

    n_before = len(problems.errors)
    fp._unknown_keys(teams, LADDER_TEAM_KEYS, "teams.", problems)
    for key in ("pool", "list", "pairs", "tables", "include_mirror"):
        if key in teams:
            problems.add(f"teams.{key}", "not used by mode 'ladder' (it takes roster and/or collection)")
    size: tuple[int, int] | None = None
    rule = fp._get(teams, "rule", dict, problems, prefix="teams.", default={})
    if rule is not None:
        for key in rule:
            if key not in RULE_KEYS:
                problems.add(
                    f"teams.rule.{key}",
                    f"ruleset {ruleset!r} has no team rule {key!r}: its level sum and name-colour copies are "
                    f"the ruleset's own (changed by its options, e.g. team_level); a ladder may restrict: "
                    f"{', '.join(RULE_KEYS)}",
                )
        if "size" in rule:
            found = size_range(rule["size"])
            if isinstance(found, str):
                problems.add("teams.rule.size", found)
            else:
                size = found
    settings = _parse_settings(teams, problems, catalog, ruleset)
    if "roster" not in teams and "collection" not in teams:
        problems.add("teams.roster", "mode 'ladder' needs a roster (the field) and/or a collection file")
    roster: list[str] | None = []
    if "roster" in teams:
        start = len(problems.errors)
        roster = pt._parse_pool(teams["roster"], problems, catalog, ruleset)
        for i in range(start, len(problems.errors)):  # the pool parser names its field teams.pool
            e = problems.errors[i]
            if e.field.startswith("teams.pool"):
                problems.errors[i] = ExperimentError(
                    e.file, "teams.roster" + e.field[len("teams.pool") :], e.reason
                )
    owned: list[str] | None = None
    collection = fp._get(teams, "collection", str, problems, prefix="teams.")
    if collection is not None:
        path = Path(collection)
        if not path.is_absolute() and file not in ("", "<string>"):
            path = Path(file).parent / path
        try:
            owned = read_collection(path, catalog, ruleset)
        except KrosbalanceError as exc:
            problems.add("teams.collection", str(exc))
    if len(problems.errors) > n_before or roster is None or settings is None:
        return None, ""
    field = roster_teams(roster or sorted(set(owned or ())), catalog, ruleset, options, size)
    sizes = (
        ""
        if size is None
        else f", {size[0]} figures"
        if size[0] == size[1]
        else f", {size[0]}-{size[1]} figures"
    )
    rule_text = f"the team rule of ruleset {ruleset!r}{sizes}"
    if not field:
        where = "teams.roster" if roster else "teams.collection"
        problems.add(where, f"no legal team can be drawn from it ({rule_text})")
        return None, ""
    mine: list[Team] = []
    rated = field
    if owned is not None:
        mine = collection_teams(owned, catalog, ruleset, options, size)
        if not mine:
            problems.add(
                "teams.collection", f"no legal team can be drawn from the figures it lists ({rule_text})"
            )
            return None, ""
        rated = sorted({t for t in field if _one_buy_away(owned, t)} | set(mine))
    swaps = _parse_swaps(settings.pop("swaps", []), problems, catalog, ruleset, options, size)
    if swaps is None:
        return None, ""
    settings.update(
        teams=[list(t) for t in rated],
        field=[list(t) for t in field],
        owned=owned or [],
        mine=[list(t) for t in mine],
        roster=sorted(set(roster or owned or ())),
        rule=rule_text,
        swaps=swaps,
    )
    if settings["design"] == "round_robin":
        n_pairs = len(rated) * (len(rated) - 1) // 2
        if n_pairs > ROUND_ROBIN_MAX_PAIRS:
            problems.add(
                "teams.ladder.design",
                f"a round robin of {len(rated)} teams is {n_pairs:,} pairings (more than {ROUND_ROBIN_MAX_PAIRS:,}): "
                'use design = "adaptive"',
            )
            return None, ""
    if len(rated) < 2:
        problems.add("teams", f"a ladder needs at least two teams to rate; {len(rated)} here")
        return None, ""

    pairings = first_pairings(settings, master_seed or 0)
    return pairings, json.dumps(settings, sort_keys=True, separators=(",", ":"))


def _one_buy_away(owned: Sequence[str], team: Team) -> bool:
    """Whether the team needs at most one figure more than the owned ones."""

    missing = Counter(team) - Counter(owned)
    return sum(missing.values()) <= 1


def _parse_settings(
    teams: Mapping[str, Any], problems: Any, catalog: Catalog, ruleset: str
) -> dict[str, Any] | None:

    raw = fp._get(teams, "ladder", dict, problems, prefix="teams.", default={})
    if raw is None:
        return None
    fp._unknown_keys(raw, LADDER_KEYS, "teams.ladder.", problems)
    out = dict(DEFAULTS)
    ok = True
    design = raw.get("design", out["design"])
    if design not in DESIGNS:
        problems.add(
            "teams.ladder.design", f"unknown design {design!r}; expected one of: {', '.join(DESIGNS)}"
        )
        ok = False
    out["design"] = design
    for key, low in (("top_k", 1), ("opponents", 1), ("min_teams", 1), ("top_round_robin", 0)):
        value = raw.get(key, out[key])
        if not _int(value, low):
            problems.add(f"teams.ladder.{key}", f"must be an integer >= {low}, not {value!r}")
            ok = False
        out[key] = value
    keep = raw.get("keep", out["keep"])
    if not isinstance(keep, (int, float)) or isinstance(keep, bool) or not 0 < keep < 1:
        problems.add("teams.ladder.keep", f"must be a share between 0 and 1 (exclusive), not {keep!r}")
        ok = False
    out["keep"] = float(keep) if isinstance(keep, (int, float)) else 0.5
    for key in ("epsilon", "delta"):
        value = raw.get(key, out[key])
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1:
            problems.add(
                f"teams.ladder.{key}", f"must be a number between 0 and 1 (exclusive), not {value!r}"
            )
            ok = False
        else:
            out[key] = float(value)
    for key in ("budget", "batch"):
        value = raw.get(key, out[key])
        if not _int(value, 1):
            problems.add(f"teams.ladder.{key}", f"must be an integer >= 1, not {value!r}")
            ok = False
        out[key] = value
    if design != "lucb":
        for key in LUCB_KEYS:
            if key in raw:
                problems.add(f"teams.ladder.{key}", f"used by design 'lucb' only, not {design!r}")
                ok = False
    if ok and design != "lucb" and out["min_teams"] < out["top_k"]:
        problems.add("teams.ladder.min_teams", f"must be >= top_k ({out['top_k']}), not {out['min_teams']}")
        ok = False
    search = raw.get("search")
    if search is not None:
        if not isinstance(search, dict):
            problems.add("teams.ladder.search", f"must be a table {{ai, top, deals}}, not {search!r}")
            ok = False
        else:
            fp._unknown_keys(search, SEARCH_KEYS, "teams.ladder.search.", problems)
            ai, top, deals = search.get("ai"), search.get("top", 6), search.get("deals", 1)
            known = fp._ask(lambda: catalog.ais(ruleset), "teams.ladder.search.ai", problems)
            if not isinstance(ai, str) or (known is not None and ai not in known):
                problems.add("teams.ladder.search.ai", f"unknown AI {ai!r}; known: {', '.join(known or [])}")
                ok = False
            for key, value in (("top", top), ("deals", deals)):
                if not _int(value, 2 if key == "top" else 1):
                    problems.add(
                        f"teams.ladder.search.{key}",
                        f"must be an integer >= {2 if key == 'top' else 1}, not {value!r}",
                    )
                    ok = False
            out["search"] = {"ai": ai, "top": top, "deals": deals}
            ok = _parse_search_target(search, deals, out["search"], problems) and ok
            if "beside" in search:
                beside = _parse_beside(search["beside"], ai, known, problems)
                ok = beside is not None and ok
                if beside is not None:
                    out["search"]["beside"] = beside
    out["swaps"] = raw.get("swaps", [])
    return out if ok else None


def _parse_beside(raw: Any, lead: Any, known: Sequence[str] | None, problems: Any) -> dict[str, Any] | None:
    """``search.beside``: the next AI down on the search stage's pairings, ``{ai, deals}`` (its deals
    fixed: a ``half_width`` sizes the leading AI only). None, with the problems added, when wrong."""
    field = "teams.ladder.search.beside"
    if not isinstance(raw, dict):
        problems.add(field, f"must be a table {{ai, deals}}, not {raw!r}")
        return None
    fp._unknown_keys(raw, BESIDE_KEYS, f"{field}.", problems)
    ai, deals = raw.get("ai"), raw.get("deals", 1)
    ok = True
    if not isinstance(ai, str) or (known is not None and ai not in known):
        problems.add(f"{field}.ai", f"unknown AI {ai!r}; known: {', '.join(known or [])}")
        ok = False
    elif ai == lead:
        problems.add(f"{field}.ai", f"is the search stage's own AI ({ai!r}); name the next AI down")
        ok = False
    if not _int(deals, 1):
        problems.add(f"{field}.deals", f"must be an integer >= 1, not {deals!r}")
        ok = False
    return {"ai": ai, "deals": deals} if ok else None


def _parse_swaps(
    raw: Any, problems: Any, catalog: Catalog, ruleset: str, options: Options, size: tuple[int, int] | None
) -> list[dict[str, Any]] | None:
    """``swaps``: team T with figure ``out`` replaced by ``in``; both must be legal teams."""

    if not isinstance(raw, list):
        problems.add("teams.ladder.swaps", f"must be an array of {{team, out, in}} tables, not {raw!r}")
        return None
    swaps: list[dict[str, Any]] = []
    for i, entry in enumerate(raw):
        where = f"teams.ladder.swaps[{i}]"
        if not isinstance(entry, dict):
            problems.add(where, f"must be a table {{team, out, in}}, not {entry!r}")
            return None
        fp._unknown_keys(entry, ("team", "out", "in"), f"{where}.", problems)
        team = pt._parse_team(entry.get("team"), f"{where}.team", problems, catalog, ruleset, options)
        names = pt._resolve_names([entry.get("out"), entry.get("in")], f"{where}.out/in", problems, catalog)
        if team is None or names is None:
            return None
        out, into = names
        if out not in team:
            problems.add(f"{where}.out", f"{out!r} is not in the team {list(team)}")
            return None
        swapped = list(team)
        swapped[swapped.index(out)] = into
        try:
            catalog.check_team(swapped, ruleset, options)
        except KrosbalanceError as exc:
            problems.add(f"{where}.in", f"the swapped team {swapped} is not legal: {exc}")
            return None
        swaps.append({"team": sorted(team), "out": out, "in": into, "swapped": sorted(swapped)})
    return swaps


#: the ``[teams]`` modes this study owns, registered with it (``studies/teams/__init__.py``) and asked
#: for by the experiment file's parser (:func:`krosbalance.study_registry.team_mode_parser`)
TEAM_MODES: tuple[str, ...] = ("ladder",)


def parse_team_mode(
    teams: Mapping[str, Any],
    problems: Any,
    catalog: Catalog,
    ruleset: str,
    options: Options,
    master_seed: int | None,
    file: str,
    seats: int,
    variants: Sequence[tuple[str, str]] | None,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None, str]:
    """``[teams] mode = "ladder"`` (:data:`TEAM_MODES`), asked by the experiment file's parser through the
    study registry: the study plays two players and one arm. Returns (mode, first pairings, settings)."""
    if seats != 2:
        problems.add(
            "teams.mode", f"a team ladder pairs two teams; ruleset {ruleset!r} seats {seats} players here"
        )
        return "ladder", None, ""
    if variants:
        problems.add("variants", "a team ladder plays one arm: compare rules with one ladder per rule")
        return "ladder", None, ""
    if options is None:
        return "ladder", None, ""
    pairings, settings = parse_ladder(teams, problems, catalog, ruleset, options, master_seed, file)
    return "ladder", pairings, settings
