"""Flatten match outcomes into the tidy rows of the matches, fighters and errors tables.

Workers build plain dicts (no pandas in the hot loop) and send them back as columns; the parent turns
them into typed DataFrames with ``*_frame`` (rows or columns) so every Parquet shard has the same
schema.

The columns a ruleset adds are the ones it declares (``MatchRules.result_columns`` and
``fighter_columns``, typed ``ResultColumn`` s): a per-seat column ``gg`` is written ``gg0``, ``gg1``.
The schema of an experiment's tables is the union over its rulesets (:func:`match_columns`,
:func:`ruleset_fighter_columns`); a row without a value (a failed match, another ruleset's match)
holds NA, so the ruleset columns take pandas' nullable dtypes (``Int64``, ``boolean``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from krosbalance.ai.registry import ai_tier as registry_tier
from krosbalance.engine.results import ENGINE_VERSION, MatchResult, ResultColumn
from krosbalance.errors import KrosbalanceError
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.sim.spec import MatchSpec

if TYPE_CHECKING:  # workers only build dicts; pandas is imported by the parent when writing shards
    import pandas as pd

MATCH_COLUMNS: dict[str, str] = {
    "match_id": "int64",
    "experiment": "string",
    "pairing": "int64",
    "swapped": "bool",
    "deal": "int64",
    "seed": "int64",
    "team_a": "string",
    "team_b": "string",
    "team0": "string",
    "team1": "string",
    "ai0": "string",
    "ai1": "string",
    "ai0_tier": "string",
    "ai1_tier": "string",
    "board": "string",
    "ruleset": "string",
    "options": "string",
    "variant": "string",
    "winner": "Int64",
    "winner_team": "string",
    "end_reason": "string",
    "turns": "int64",
    "first_player": "int64",
    "engine_version": "string",
    "content_version": "string",
    "package_version": "string",
    "engine": "string",
    "error": "string",
}
"""The ruleset-neutral columns of the matches table (``engine``: ``core`` or ``reference``, which
engine played the match; absent from folders written before issue 37, so no reader requires it;
``ai0_tier``, ``ai1_tier``: each seat's AI tier when the match was played, absent from folders written
before issue 38, so no reader requires them); :func:`match_columns` adds the rulesets' own,
and for a table of more than two players each further seat's team, AI and AI tier (``team_c``, ``team2``,
``ai2``, ``ai2_tier``...), the partnerships and the play order."""
#: the tier written for an AI the registry does not hold
UNKNOWN_TIER = "unknown"
#: players per match of the tables built without naming their seats (two-player matches)
SEATS = 2
#: the table's teams by position (team A is the first the experiment names)
LABELS = "ABCDEFGH"
#: the dtype a ruleset column takes in a table, where rows may hold no value (NA)
NULLABLE: dict[str, str] = {"int64": "Int64", "bool": "boolean", "float64": "Float64"}
DEFAULT_RULESET = "arena"  # the schema of tables built without naming their rulesets (as play's)
FIGHTER_KEYS: tuple[str, ...] = ("match_id", "side", "team", "team_ids", "ai", "won", "draw")
EVENT_COLUMNS: dict[str, str] = {
    "match_id": "int64",
    "seq": "int64",
    "turn": "int64",
    "kind": "string",
    "positions": "string",
    "data": "string",
}
ERROR_COLUMNS: dict[str, str] = {
    "match_id": "int64",
    "seed": "int64",
    "spec": "string",
    "traceback": "string",
}


@cache
def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("krosbalance")
    except Exception:  # not installed (running from a source tree)
        return "0+unknown"


@cache
def _declared(ruleset: str) -> tuple[tuple[ResultColumn, ...], tuple[ResultColumn, ...]]:
    rules = get_ruleset(ruleset)
    return rules.result_columns, rules.fighter_columns


def _table_columns(columns: Iterable[ResultColumn], out: dict[str, str], seats: int = SEATS) -> None:
    for column in columns:
        dtype = NULLABLE.get(column.dtype, column.dtype)
        names = [f"{column.name}{seat}" for seat in range(seats)] if column.per_seat else [column.name]
        for name in names:
            out.setdefault(name, dtype)


def seat_columns(seats: int) -> dict[str, str]:
    """The spec columns of the seats after the first two (none with two players), then each seat's
    partnership and the play order, as comma-separated seats."""
    if seats <= 2:
        return {}
    out: dict[str, str] = {}
    for seat in range(2, seats):
        out[f"team_{LABELS[seat].lower()}"] = "string"
    for seat in range(2, seats):
        out[f"team{seat}"] = "string"
    for seat in range(2, seats):
        out[f"ai{seat}"] = "string"
    for seat in range(2, seats):
        out[f"ai{seat}_tier"] = "string"
    out["rotation"] = "int64"
    out["partnerships"] = "string"
    out["play_order"] = "string"
    return out


def match_columns(rulesets: Iterable[str] = (DEFAULT_RULESET,), seats: int = SEATS) -> dict[str, str]:
    """The matches table's schema for these rulesets and players per match: the neutral columns, the
    further seats' (:func:`seat_columns`), then each ruleset's declared columns (per-seat ones as
    ``{name}{seat}``), in the order first declared."""
    out = dict(MATCH_COLUMNS)
    out.update(seat_columns(seats))
    for ruleset in rulesets:
        _table_columns(_declared(ruleset)[0], out, seats)
    return out


def ruleset_fighter_columns(rulesets: Iterable[str] = (DEFAULT_RULESET,)) -> dict[str, str]:
    """The fighter columns these rulesets declare, with their table dtypes."""
    out: dict[str, str] = {}
    for ruleset in rulesets:
        _table_columns(_declared(ruleset)[1], out)
    return out


def ruleset_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """A result's ``values`` as table cells: a per-seat tuple becomes ``{name}{seat}``."""
    cells: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            for seat, item in enumerate(value):
                cells[f"{name}{seat}"] = item
        else:
            cells[name] = value
    return cells


def _joined(team: Sequence[str]) -> str:
    return ",".join(team)


@cache
def seat_tier(ai: str) -> str:
    """The registered tier of a seat's AI (``baseline``, ``heuristic``, ``search``), written into the
    row so analysis need not ask the live registry; ``unknown`` for a name it does not hold (a
    stand-in ``play`` in tests)."""
    try:
        return registry_tier(ai)
    except KrosbalanceError:
        return UNKNOWN_TIER


def _spec_columns(spec: MatchSpec) -> dict[str, Any]:
    return {
        "match_id": spec.match_id,
        "experiment": spec.experiment,
        "pairing": spec.pairing,
        "swapped": spec.swapped,
        "deal": spec.deal,
        "seed": spec.seed,
        "team_a": _joined(spec.team_a),
        "team_b": _joined(spec.team_b),
        "team0": _joined(spec.team0),
        "team1": _joined(spec.team1),
        "ai0": spec.ai0,
        "ai1": spec.ai1,
        "ai0_tier": seat_tier(spec.ai0),
        "ai1_tier": seat_tier(spec.ai1),
        "board": spec.board,
        "ruleset": spec.ruleset,
        "options": spec.options_json,
        "variant": spec.variant,
        **_more_seats(spec),
    }


def _more_seats(spec: MatchSpec) -> dict[str, Any]:
    """The spec columns of a table of more than two players (:func:`seat_columns`)."""
    if not spec.more_teams:
        return {}
    cells: dict[str, Any] = {}
    for k, team in enumerate(spec.more_teams):
        cells[f"team_{LABELS[k + 2].lower()}"] = _joined(team)
    teams, ais = spec.teams, spec.ais
    for seat in range(2, spec.n_seats):
        cells[f"team{seat}"] = _joined(teams[seat])
        cells[f"ai{seat}"] = ais[seat]
        cells[f"ai{seat}_tier"] = seat_tier(ais[seat])
    cells["rotation"] = spec.rotation
    return cells


def _seats_joined(seats: Sequence[int]) -> str:
    return ",".join(str(seat) for seat in seats)


def match_row(spec: MatchSpec, result: MatchResult) -> dict[str, Any]:
    """The matches-table row of a finished match."""
    row = _spec_columns(spec)
    winner = result.winner
    versions = result.versions or {}
    row.update(
        ruleset=result.ruleset or spec.ruleset,
        winner=winner,
        winner_team="+".join(spec.side_team(seat) for seat in result.winning_seats),
        end_reason=result.end_reason,
        turns=result.turns,
        first_player=result.first_player,
        engine_version=str(versions.get("engine", ENGINE_VERSION)),
        content_version=str(versions.get("content", "")),
        package_version=str(versions.get("package", package_version())),
        engine=result.engine,
        error="",
    )
    if spec.more_teams:
        row.update(
            partnerships=_seats_joined(result.partnerships), play_order=_seats_joined(result.play_order)
        )
    row.update(ruleset_values(result.values))
    return row


def fighter_rows(spec: MatchSpec, result: MatchResult) -> list[dict[str, Any]]:
    """The fighters-table rows of a finished match: one per fighter ever in play."""
    rows = []
    heads: dict[int, dict[str, Any]] = {}  # a seat's columns, the same for each of its fighters
    teams, ais = spec.teams, spec.ais
    for fighter in result.fighters:
        side = fighter.side
        head = heads.get(side)
        if head is None:
            head = heads[side] = {
                "match_id": spec.match_id,
                "side": side,
                "team": spec.side_team(side),
                "team_ids": _joined(teams[side]),
                "ai": ais[side],
                "won": result.seat_won(side),
                "draw": result.winner is None,
            }
        # as_row's only key in the head is "side", the same value: merged in place, its order kept
        rows.append({**head, **fighter.as_row(), **fighter.values})
    return rows


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    from dataclasses import fields

    return tuple(f.name for f in fields(kind))


def event_rows(spec: MatchSpec, result: MatchResult) -> list[dict[str, Any]]:
    """The events-table rows of a match recorded at ``summary`` or ``full`` level: kind and turn as
    columns, the piece positions at turn ends and every other field as JSON.

    Event fields are ints, strings and (nested) tuples of them, so a shallow read of the fields is
    enough: ``json`` writes tuples as arrays, exactly as a deep ``dataclasses.asdict`` copy would.
    """
    import json

    rows = []
    for seq, event in enumerate(result.events):
        fields = {name: getattr(event, name) for name in _field_names(type(event))}
        turn = fields.pop("turn", 0)
        positions = fields.pop("positions", None)
        rows.append(
            {
                "match_id": spec.match_id,
                "seq": seq,
                "turn": turn,
                "kind": event.kind,
                "positions": "" if positions is None else json.dumps(positions),
                "data": json.dumps(fields),
            }
        )
    return rows


def failed_match_row(spec: MatchSpec, error: str, engine: str = "reference") -> dict[str, Any]:
    """The matches-table row of a match that raised: identity columns, empty outcome, ``error`` set,
    ``engine`` the engine it was played on."""
    row = _spec_columns(spec)
    row.update(
        winner=None,
        winner_team="",
        end_reason="error",
        turns=0,
        first_player=-1,
        engine_version=ENGINE_VERSION,
        content_version="",
        package_version=package_version(),
        engine=engine,
        error=error or "error",
    )
    if spec.more_teams:
        row.update(partnerships="", play_order="")
    return row


def error_row(spec: MatchSpec, traceback_text: str) -> dict[str, Any]:
    return {"match_id": spec.match_id, "seed": spec.seed, "spec": spec.as_json(), "traceback": traceback_text}


Rows = Sequence[dict[str, Any]] | Mapping[str, Sequence[Any]]
"""A table as rows (dicts) or as columns (name -> values)."""


def _frame(rows: Rows, columns: list[str] | None = None) -> pd.DataFrame:
    import pandas as pd

    data = dict(rows) if isinstance(rows, Mapping) else list(rows)
    return pd.DataFrame(data, columns=columns)


def matches_frame(rows: Rows, columns: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The matches table with the schema ``columns`` (default: :func:`match_columns` of Arena)."""
    schema = dict(columns) if columns is not None else match_columns()
    return _frame(rows, list(schema)).astype(schema)


def fighters_frame(rows: Rows, columns: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The fighters table; the rulesets' columns ``columns`` (default: Arena's) are typed where present."""
    frame = _frame(rows)
    if frame.empty:
        return frame
    declared = dict(columns) if columns is not None else ruleset_fighter_columns()
    dtypes = {"match_id": "int64", "side": "int64", "won": "bool", "draw": "bool"}
    dtypes.update({name: dtype for name, dtype in declared.items() if name in frame.columns})
    return frame.astype(dtypes)


def events_frame(rows: Rows) -> pd.DataFrame:
    return _frame(rows, list(EVENT_COLUMNS)).astype(EVENT_COLUMNS)


def errors_frame(rows: Rows) -> pd.DataFrame:
    return _frame(rows, list(ERROR_COLUMNS)).astype(ERROR_COLUMNS)
