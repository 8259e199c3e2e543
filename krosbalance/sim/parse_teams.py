"""The experiment file's tables of who meets whom where: ``boards``, ``ais`` and ``[teams]`` (every
team mode, checked by the team rules of every arm), and the team generation they ask the catalog for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance.ai.registry import canonical_ai
from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError
from krosbalance.sim.catalog import DEFAULT_BOARD, DEFAULT_RULESET, Catalog, Options
from krosbalance.sim.design import DEALT_MODES, TABLE_MODES, TEAM_KEYS, TEAM_MODES
from krosbalance.sim.file_problems import (
    _ask,
    _get,
    _Problems,
    _short,
    _type_name,
    _unknown_keys,
    content_problem,
    did_you_mean,
)
from krosbalance.sim.spec import Team


def _ai_id(name: Any) -> Any:
    """Today's id of an AI name (:func:`krosbalance.ai.registry.canonical_ai`); a non-string is left
    for the check that names it."""
    return canonical_ai(name) if isinstance(name, str) else name


def _parse_boards(
    data: Mapping[str, Any], problems: _Problems, catalog: Catalog, ruleset: str = DEFAULT_RULESET
) -> tuple[str, ...] | None:
    boards = _get(data, "boards", (list, str), problems, default=[DEFAULT_BOARD])
    if boards is None:
        return None
    if isinstance(boards, str):
        boards = [boards]
    if not boards:
        problems.add("boards", "must name at least one board")
        return None
    known = _ask(lambda: catalog.boards(ruleset), "boards", problems)  # the boards made for the ruleset
    ok = True
    for i, board in enumerate(boards):
        if not isinstance(board, str):
            problems.add(f"boards[{i}]", f"must be a string, not {_type_name(board)} ({board!r})")
            ok = False
        elif known is not None and board not in known:
            problems.add(
                f"boards[{i}]",
                f"unknown board {board!r}{did_you_mean(board, known)}; known: {', '.join(known) or '(none)'}",
            )
            ok = False
        elif board in boards[:i]:
            # a repeated board would be a second, silently weighted arm of the same matches
            problems.add(f"boards[{i}]", f"board {board!r} is listed twice")
            ok = False
    return tuple(boards) if ok else None


def _parse_ais(
    data: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    per_pairing: int | None,
    ruleset: str = DEFAULT_RULESET,
    seats: int = 2,
) -> tuple[tuple[tuple[str, ...], ...] | None, tuple[int, ...]]:
    """The AI matchups (one AI per team of a pairing: ``seats`` of them) and, when any entry is a
    ``{ai, deals}`` table, every matchup's deals."""
    shape = "[AI of team A, AI of team B]" if seats == 2 else f"a list of {seats} AIs, one per team"
    ais = _get(data, "ais", (list, str), problems, default=["random"])
    if ais is None:
        return None, ()
    if isinstance(ais, str):
        ais = [ais]
    if not ais:
        problems.add("ais", "must list at least one AI matchup")
        return None, ()
    known = _ask(lambda: catalog.ais(ruleset), "ais", problems)  # the AIs that play the ruleset
    matchups: list[tuple[str, ...]] = []
    deals: list[int] = []
    own_deals = False
    ok = True
    for i, entry in enumerate(ais):
        where = f"ais[{i}]"
        entry_deals = per_pairing or 1
        if isinstance(entry, dict):
            _unknown_keys(entry, ("ai", "deals"), f"{where}.", problems)
            n = entry.get("deals")
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                problems.add(
                    f"{where}.deals", f"must be an int >= 1 (deals per pairing and board), not {n!r}"
                )
                ok = False
            else:
                entry_deals, own_deals = n, True
            if "ai" not in entry:
                problems.add(f"{where}.ai", f"required: an AI name or {shape}")
                ok = False
                continue
            entry, where = entry["ai"], f"{where}.ai"
        deals.append(entry_deals)
        if isinstance(entry, str):
            pair = [_ai_id(entry)] * seats
        elif isinstance(entry, list) and len(entry) == seats:
            pair = [_ai_id(ai) for ai in entry]  # a former id (focus_fire) reads as today's (focus-fire)
        else:
            problems.add(where, f"must be an AI name or {shape}, not {entry!r}")
            ok = False
            continue
        for j, ai in enumerate(pair[:1] if isinstance(entry, str) else pair):
            sub = where if isinstance(entry, str) else f"{where}[{j}]"
            if not isinstance(ai, str):
                problems.add(sub, f"must be a string, not {_type_name(ai)} ({ai!r})")
                ok = False
            elif (known is not None and ai not in known) or catalog.ai_problem(ai, ruleset, seats):
                # unknown, it does not play the ruleset, or not that many players
                problems.add(sub, catalog.ai_problem(ai, ruleset, seats))
                ok = False
        if ok:
            matchups.append(tuple(pair))
    if not ok:
        return None, ()
    return tuple(matchups), (tuple(deals) if own_deals else ())


def _resolve_names(
    value: list[Any], where: str, problems: _Problems, catalog: Catalog, *, first_index: int = 0
) -> list[str] | None:
    """Character names resolved to ids; every name that is not one is reported with its index in
    ``where`` (counted from ``first_index``)."""
    ids: list[str] = []
    ok = True
    for i, name in enumerate(value, start=first_index):
        if not isinstance(name, str):
            problems.add(f"{where}[{i}]", f"must be a character name, not {_type_name(name)} ({name!r})")
            ok = False
            continue
        try:
            ids.append(catalog.resolve_character(name))
        except ContentError as exc:
            if content_problem(exc, problems.file):  # a content file that does not load: not the name's
                problems.add("(content)", content_problem(exc, problems.file))
                return None
            problems.add(f"{where}[{i}]", f"unknown character {name!r} ({_short(exc)})")
            ok = False
        except KrosbalanceError as exc:
            problems.add(f"{where}[{i}]", f"unknown character {name!r} ({_short(exc)})")
            ok = False
    return ids if ok else None


def _parse_team(
    value: Any, where: str, problems: _Problems, catalog: Catalog, ruleset: str, options: Options = None
) -> Team | None:
    """One team: a non-empty array of character names, resolved to ids and checked by the rules of
    the ruleset with ``options``."""
    if not isinstance(value, list) or not value:
        problems.add(where, f"a team must be a non-empty array of character names, not {value!r}")
        return None
    ids = _resolve_names(value, where, problems, catalog)
    if ids is None:
        return None
    try:
        catalog.check_team(ids, ruleset, options)
    except KrosbalanceError as exc:
        if content_problem(exc, problems.file):
            problems.add("(content)", content_problem(exc, problems.file))
        else:
            problems.add(where, f"illegal team {', '.join(ids)}: {exc}")
        return None
    return tuple(ids)


def _parse_pool(
    value: Any, problems: _Problems, catalog: Catalog, ruleset: str = DEFAULT_RULESET
) -> list[str] | None:
    """``teams.pool``: "all", one selection table, or an array of character names and selection
    tables (``{set = "..."}``, ``{tag = "..."}``). In an array each name adds one copy (a name listed
    twice may appear twice in a team) and each table the Krosmasters it selects that the pool does
    not hold yet (tables add a set's cards once, however they overlap)."""
    if value == "all":  # every Krosmaster whose cards the ruleset plays
        return _ask(lambda: catalog.characters(ruleset), "teams.pool", problems)
    if isinstance(value, dict):  # a set or a tag: stays the same pool when other cards are added
        return _parse_selection(value, "teams.pool", problems, catalog, ruleset)
    if not isinstance(value, list) or not value:
        problems.add(
            "teams.pool",
            f'must be a non-empty array of character names and {{set = "..."}} / {{tag = "..."}} '
            f'tables, one such table, or "all", not {value!r}',
        )
        return None
    pool: list[str] = []
    ok = True
    for i, entry in enumerate(value):
        where = f"teams.pool[{i}]"
        if isinstance(entry, dict):
            found = _parse_selection(entry, where, problems, catalog, ruleset)
            if found is None:
                ok = False
            else:
                pool.extend(name for name in found if name not in pool)
        elif isinstance(entry, str):
            ids = _resolve_names([entry], "teams.pool", problems, catalog, first_index=i)
            if ids is None:
                ok = False
            else:
                pool.extend(ids)
        else:
            problems.add(
                where,
                f'must be a character name or a {{set = "..."}} / {{tag = "..."}} table, not '
                f"{_type_name(entry)} ({entry!r})",
            )
            ok = False
    return pool if ok else None


def _parse_selection(
    value: Mapping[str, Any], where: str, problems: _Problems, catalog: Catalog, ruleset: str
) -> list[str] | None:
    """A ``{set = "..."}`` and/or ``{tag = "..."}`` table: every Krosmaster of the ruleset's cards
    of that set and tag (a selection that stays the same when other cards are added)."""
    n_before = len(problems.errors)
    _unknown_keys(value, ("set", "tag"), f"{where}.", problems)
    chosen = {key: value[key] for key in ("set", "tag") if key in value}
    if not chosen or not all(isinstance(v, str) and v for v in chosen.values()):
        problems.add(where, f'a selection is {{set = "..."}} and/or {{tag = "..."}}, not {dict(value)!r}')
        return None
    if len(problems.errors) > n_before:
        return None
    found = _ask(lambda: catalog.characters(ruleset, **chosen), where, problems)
    if found is not None and not found:
        what = " and ".join(f"{key} {name!r}" for key, name in chosen.items())
        problems.add(where, f"no Krosmaster of ruleset {ruleset!r} has {what}")
        return None
    return found


def _parse_teams(
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str = DEFAULT_RULESET,
    options: Options = None,
    seats: int = 2,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None]:
    _unknown_keys(teams, TEAM_KEYS, "teams.", problems)
    n_before = len(problems.errors)
    mode = _get(teams, "mode", str, problems, prefix="teams.", required=True)
    if mode is not None and mode not in TEAM_MODES:
        problems.add("teams.mode", f"unknown mode {mode!r}; expected one of: {', '.join(TEAM_MODES)}")
        return "pairs", None
    include_mirror = _get(teams, "include_mirror", bool, problems, prefix="teams.", default=False)
    if mode is None:
        return "pairs", None
    if seats != 2 and mode not in TABLE_MODES:
        problems.add(
            "teams.mode",
            f"mode {mode!r} pairs two teams; ruleset {ruleset!r} seats {seats} players here: use "
            f"{', '.join(TABLE_MODES)}",
        )
        return mode, None
    sources = [k for k in ("list", "pool", "pairs", "tables") if k in teams]
    allowed = {
        "round_robin": ("list", "pool"),
        "mirror": ("list", "pool"),
        "splits": ("pool",),
        "pairs": ("pairs",),
        "draft": ("pool",),
        "random_deal": ("pool",),
        "tables": ("tables",),
        "random_tables": ("pool",),
    }[mode]
    for key in sources:
        if key not in allowed:
            problems.add(f"teams.{key}", f"not used by mode {mode!r} (it takes {' or '.join(allowed)})")
    given = [k for k in sources if k in allowed]
    if len(given) != 1:
        what = " or ".join(f"teams.{k}" for k in allowed)
        problems.add(what if len(given) == 0 else "teams", f"mode {mode!r} needs exactly one of {what}")
        return mode, None
    if "include_mirror" in teams and mode != "round_robin":
        problems.add("teams.include_mirror", f"only used by mode 'round_robin', not {mode!r}")
    if len(problems.errors) > n_before:
        return mode, None

    source = given[0]
    if mode == "pairs":
        return mode, _parse_pairs(teams["pairs"], problems, catalog, ruleset, options)
    if mode == "tables":
        return mode, _parse_tables(teams["tables"], problems, catalog, ruleset, options, seats)

    team_list: list[Team] | None
    if source == "list":
        raw = teams["list"]
        if not isinstance(raw, list) or not raw:
            problems.add("teams.list", f"must be a non-empty array of teams, not {raw!r}")
            return mode, None
        parsed = [
            _parse_team(t, f"teams.list[{i}]", problems, catalog, ruleset, options) for i, t in enumerate(raw)
        ]
        if any(t is None for t in parsed):
            return mode, None
        team_list = [t for t in parsed if t is not None]
    else:
        pool = _parse_pool(teams["pool"], problems, catalog, ruleset)
        if pool is None:
            return mode, None
        if mode == "random_tables":
            if not catalog.all_teams(pool, ruleset, options):
                problems.add("teams.pool", f"no legal team (ruleset {ruleset!r}) can be drawn from it")
                return mode, None
            return mode, (tuple(tuple(pool) for _ in range(seats)),)
        if mode in DEALT_MODES:
            problem = dealt_pool_problem(mode, pool, catalog, ruleset, options)
            if problem:
                problems.add("teams.pool", problem)
                return mode, None
            return mode, ((tuple(pool), tuple(pool)),)
        if mode == "splits":
            splits = pool_splits(pool, catalog, ruleset, options)
            if not splits:
                problems.add("teams.pool", "cannot be split into two legal teams")
                return mode, None
            return mode, tuple(splits)
        team_list = legal_teams(pool, catalog, ruleset, options)
        if not team_list:
            problems.add("teams.pool", f"no legal team (ruleset {ruleset!r}) can be drawn from it")
            return mode, None

    if mode == "mirror":
        return mode, tuple(tuple(t for _ in range(seats)) for t in team_list)
    pairs = [
        (team_list[i], team_list[j])
        for i in range(len(team_list))
        for j in range(i if include_mirror else i + 1, len(team_list))
    ]
    if not pairs:
        problems.add("teams", "a round robin needs at least two teams (or include_mirror = true)")
        return mode, None
    return mode, tuple(pairs)


def _parse_study_teams(
    parser: Any,
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str,
    options: Options,
    master_seed: int | None,
    file: str,
    seats: int,
    variants: Sequence[tuple[str, str]] | None,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None, str]:
    """A ``[teams]`` mode a study owns (``mode = "ladder"``: the team study,
    :mod:`krosbalance.studies.teams.experiment`), parsed by that study's parser (found by the study
    registry, :func:`krosbalance.study_registry.team_mode_parser`): (mode, pairings, settings)."""
    parsed: tuple[str, tuple[tuple[Team, ...], ...] | None, str] = parser(
        teams, problems, catalog, ruleset, options, master_seed, file, seats, variants
    )
    return parsed


def _parse_arm_teams(
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str,
    arms: Sequence[tuple[str, Options]],
    seats: int = 2,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None]:
    """``[teams]`` checked by the team rules of every arm (its ruleset built with its options: a team
    size, …), since each arm plays its matches under its own. A problem found under some arms only
    names them; the arms share their pairings, so an arm whose rules draw other teams from the pool
    is a problem too."""
    mode = "pairs"
    results: list[tuple[str, list[ExperimentError], tuple[tuple[Team, ...], ...] | None]] = []
    done: dict[str, tuple[list[ExperimentError], tuple[tuple[Team, ...], ...] | None]] = {}
    for arm, options in arms:
        key = json.dumps(options, sort_keys=True)
        if key not in done:  # arms with the same options have the same rules
            scratch = _Problems(problems.file)
            mode, pairings = _parse_teams(teams, scratch, catalog, ruleset, options, seats)
            done[key] = (scratch.errors, pairings)
        results.append((arm, *done[key]))
    found: dict[tuple[str, str], list[str]] = {}
    for arm, errors, _ in results:
        for error in errors:
            found.setdefault((error.field, error.reason), []).append(arm)
    for (field_name, reason), names in found.items():
        if len(names) < len(results):
            reason += f" (under the options of variant {', '.join(repr(name) for name in names)})"
        problems.add(field_name, reason)
    if found:
        return mode, None
    first, pairings = results[0][0], results[0][2]
    for arm, _, other in results[1:]:
        if other != pairings:
            problems.add(
                "teams",
                f"variant {arm!r} draws other teams from [teams] than variant {first!r} (its options change "
                "the team rules); the arms of an experiment play the same pairings: use one experiment "
                "per team rule",
            )
            return mode, None
    return mode, pairings


def _parse_tables(
    raw: Any, problems: _Problems, catalog: Catalog, ruleset: str, options: Options, seats: int
) -> tuple[tuple[Team, ...], ...] | None:
    """``tables``: explicit tables, each one team per seat (team A, team B, ...)."""
    if not isinstance(raw, list) or not raw:
        problems.add("teams.tables", f"must be a non-empty array of tables of {seats} teams, not {raw!r}")
        return None
    tables: list[tuple[Team, ...]] = []
    ok = True
    for i, table in enumerate(raw):
        if not isinstance(table, list) or len(table) != seats:
            problems.add(
                f"teams.tables[{i}]", f"must be a table of {seats} teams (one per seat), not {table!r}"
            )
            ok = False
            continue
        parsed = [
            _parse_team(team, f"teams.tables[{i}][{j}]", problems, catalog, ruleset, options)
            for j, team in enumerate(table)
        ]
        if any(team is None for team in parsed):
            ok = False
        else:
            tables.append(tuple(team for team in parsed if team is not None))
    return tuple(tables) if ok else None


def _parse_pairs(
    raw: Any, problems: _Problems, catalog: Catalog, ruleset: str, options: Options = None
) -> tuple[tuple[Team, Team], ...] | None:
    if not isinstance(raw, list) or not raw:
        problems.add("teams.pairs", f"must be a non-empty array of [team A, team B], not {raw!r}")
        return None
    pairs: list[tuple[Team, Team]] = []
    ok = True
    for i, pair in enumerate(raw):
        if not isinstance(pair, list) or len(pair) != 2:
            problems.add(f"teams.pairs[{i}]", f"must be [team A, team B], not {pair!r}")
            ok = False
            continue
        a = _parse_team(pair[0], f"teams.pairs[{i}][0]", problems, catalog, ruleset, options)
        b = _parse_team(pair[1], f"teams.pairs[{i}][1]", problems, catalog, ruleset, options)
        if a is None or b is None:
            ok = False
        else:
            pairs.append((a, b))
    return tuple(pairs) if ok else None


# ------------------------------------------------------------------------------------ team generation
# The team rules are the ruleset's (Arena: ``krosbalance.rulesets.arena.teams``); these ask the catalog.


def legal_teams(
    pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> list[Team]:
    """All legal teams that can be drawn from a pool of figures (a multiset of ids)."""
    return catalog.legal_teams(pool, ruleset, options)


def pool_splits(
    pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> list[tuple[Team, Team]]:
    """Every split of the pool into two legal teams, each unordered split once (team A holds pool[0])."""
    return catalog.team_splits(pool, ruleset, options)


def dealt_pool_problem(
    mode: str, pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> str:
    """Why a pool cannot be dealt by ``draft`` or ``random_deal`` (R-A17), or '' when it can."""
    return catalog.deal_problem(mode, pool, ruleset, options)
