"""Which engine plays a match: the native core when it can, the Python reference otherwise (issue 37).

``play_match(..., engine=...)`` asks :func:`play_in_core` first; a ``None`` answer means the reference
plays. The choice:

- ``auto`` (the default): the core plays every match it can play, the reference everything else,
  transparently; the results are the same rows either way (the core is held to the reference event
  for event by ``tests/core``);
- ``core``: the core plays, or :class:`~krosbalance.errors.EngineError` says in one line why it cannot;
- ``reference``: the Python engine plays.

``KROSBALANCE_ENGINE=reference`` (:mod:`krosbalance.native`) overrides the argument: the reference
plays whatever was asked.

What the core can play is decided without playing: first the cheap checks here (Arena for two or four
seats, a board named in the registry; in ``auto``, not ``record="full"``, since a replay's
checkpoints are read from the reference's live state), then
the core's own refusal (``ValueError("not in the core yet: ...")`` or "the core does not play the AI
... yet", raised before the match is played), remembered per match shape (teams, board, AIs,
options, cards) so that a refused shape costs one refusal per process, not one per match. The cards
are the shared registry's or a balance patch's: the core converts each registry once per process
(:func:`krosbalance.native_match.catalog`), so a patched arm plays in the core too.

A shape the core played is remembered too (``_PREPARED``, keyed on the arguments as given: teams,
board, AIs, options, restrictions, the ruleset's name or object and the registry object): its next
matches skip the reference's checks and the building of the core's call, which they would pass
the same way (content changes forget both). The core builds the fighters' records (``FighterRecord``)
itself (``ArenaCatalog.play(..., records=...)``), in the compact row's order that
:func:`_compact_layout` checks once.

A core that fails on a match it accepted (a Rust panic, which PyO3 raises as ``PanicException``, a
``BaseException``; any other exception from the core; a result the reference cannot read) raises
:class:`~krosbalance.errors.CoreFault`, chained to the original, saying how to replay the match on
the reference; the runner records it as that match's error row and goes on. When the reference's
own checks that ``play_match_core`` runs first (team rules, names: ``KrosbalanceError``) refuse the
match, ``auto`` hands it to the reference, which refuses it in its own words (``core`` raises the
error as it came).

This module imports neither pandas nor the core (the core is imported on first use by
:mod:`krosbalance.native`).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, Any

from krosbalance import native, native_blast, native_duel, native_match
from krosbalance.content.custom import on_content_change
from krosbalance.content.specs import ELEMENTS
from krosbalance.engine import events
from krosbalance.engine.events import LEVELS
from krosbalance.engine.results import ENGINE_VERSION, FighterRecord, FighterStats, MatchResult
from krosbalance.errors import CoreFault, EngineError, KrosbalanceError, TeamError
from krosbalance.rulesets.arena.results import ArenaStats
from krosbalance.rulesets.blast.ruleset import BlastRuleset
from krosbalance.rulesets.duel.ruleset import DuelRuleset

if TYPE_CHECKING:
    from krosbalance.board import Board
    from krosbalance.content.registry import Registry
    from krosbalance.engine.results import FighterRecord, MatchResult
    from krosbalance.rulesets.base import Ruleset

AUTO, CORE, REFERENCE = "auto", "core", "reference"
#: the values of ``engine=``: the ``engine`` column of the matches table holds ``core`` or ``reference``
ENGINE_CHOICES = (AUTO, CORE, REFERENCE)
#: the seats of the matches the core plays (Arena for two, and for four: free-for-all and 2v2)
CORE_SEATS = (2, 4)
#: how the core words a refusal (``krosbalance_core``'s ``unsupported`` and ``play::controller``)
REFUSALS = ("not in the core yet", "the core does not play")
#: the reference's team errors that the core meets only while setting the match up (R-A25: fewer free
#: deployment cells than Krosmasters): the reference's ``TeamError``, never a fault of the core
TEAM_ERRORS = ("free deployment cells for player",)
#: the refused match shapes remembered per process (a cap, so a long sweep never grows it unbounded)
MAX_REMEMBERED = 4096
_REFUSED: dict[tuple[Any, ...], str] = {}
on_content_change(_REFUSED.clear)  # a shape refused for the old cards may play with the new ones
#: how much slower the reference is where the core plays (``make bench``'s core/pure column, random
#: AI, box teams: 1,430 against 54 matches a CPU-second, December 2026)
SLOWER = "about 25x slower"


def resolve(engine: str = AUTO) -> str:
    """The choice that holds once ``KROSBALANCE_ENGINE`` has its say: ``reference`` when it says
    ``reference``, else ``engine`` (``auto``, ``core`` or ``reference``).

    Raises:
        EngineError: an unknown ``engine``.
        ValueError: an unknown ``KROSBALANCE_ENGINE`` value (:func:`krosbalance.native.requested_engine`).
    """
    if engine not in ENGINE_CHOICES:
        raise EngineError(f"engine={engine!r}: expected one of {', '.join(ENGINE_CHOICES)}")
    return REFERENCE if native.requested_engine() == REFERENCE else engine


def missing_core_warning(engine: str = AUTO) -> str | None:
    """The one line a run prints at its start when the core would play but is not installed, or None
    (the core is installed, or the reference was chosen: ``engine="reference"`` or
    ``KROSBALANCE_ENGINE=reference``)."""
    if resolve(engine) == REFERENCE or native.installed():
        return None
    return (
        f"warning: the native core ({native.MODULE}) is not installed, so the Python reference engine "
        f"plays every match: the same results, but {SLOWER} on what the core plays (Arena for two "
        "and four, every Arena AI); to build the core, run `make` with cargo on PATH"
    )


def _overrides(rules: Ruleset) -> dict[str, Any]:
    """The ruleset's options that differ from its defaults: what ``get_ruleset(name, ...)`` rebuilds
    it from (``play_match_core`` takes options by name)."""
    options, default = rules.options, rules.default_options()
    return {
        f.name: getattr(options, f.name)
        for f in fields(options)
        if getattr(options, f.name) != getattr(default, f.name)
    }


def _shape(
    teams: Sequence[Sequence[str]],
    board: str,
    ai: str | Sequence[str],
    options: Mapping[str, Any],
    forbid: Mapping[str, Sequence[str]] | None,
) -> tuple[Any, ...]:
    ais = ai if isinstance(ai, str) else tuple(ai)
    return (
        tuple(tuple(team) for team in teams),
        board,
        ais,
        json.dumps(options, sort_keys=True, default=str) if options else "{}",
        json.dumps(forbid, sort_keys=True, default=str) if forbid else "{}",
    )


def _cheap_refusal(
    teams: Sequence[Sequence[str]],
    board: str | Board,
    rules: Ruleset,
    record: str,
    choice: str,
) -> str | None:
    """Why the core cannot play this match, from the arguments alone, or None."""
    if not native.available():
        return native.why_unavailable()
    if rules.name != "arena":
        return f"the ruleset {rules.name!r} is not in the core (Arena, the Duel Pack and Blast are)"
    if len(teams) not in CORE_SEATS:
        return f"{len(teams)} seats are not in the core (two and four are)"
    if not isinstance(board, str):
        return "the core plays boards named in the registry, not a Board object"
    if choice == AUTO and record == "full":
        return "record='full' keeps a replay's checkpoints, read from the reference's live state"
    return None


def play_in_core(
    *teams: Sequence[str],
    board: str | Board,
    ai: str | Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None,
    record: str,
    ruleset: str | Ruleset,
    registry: Registry | None = None,
    forbid: Mapping[str, Sequence[str]] | None = None,
    engine: str = AUTO,
) -> MatchResult | None:
    """The match ``play_match`` was asked for, played by the core, or None when the reference is to
    play it (``engine`` ``auto`` and the core cannot, or ``reference``). The arguments are
    ``play_match``'s.

    Raises:
        EngineError: ``engine="core"`` and the core cannot play this match (the reason in one line).
        CoreFault: the core failed on the match (chained to the core's exception).
        KrosbalanceError: the reference's own checks (teams, names, options), as ``play_match``'s.
    """
    choice = resolve(engine)
    if choice == REFERENCE:
        return None
    if record not in LEVELS:
        return None  # the reference says what is wrong with it
    fast = _fast_key(teams, board, ai, options, ruleset, registry, forbid)
    known = _PREPARED.get(fast) if fast is not None else None
    if (
        known is not None
        and known.ruleset is ruleset
        and known.registry is registry
        and native.installed()  # `available()` less the environment, which `resolve` has read
        and not (choice == AUTO and record == "full")
    ):
        if isinstance(known.prepared, native_duel.CorePrepared):
            return native_duel.play_prepared(known.prepared, seed, record, choice)
        return _play(known.prepared, seed, record, known.rules)[0]
    from krosbalance.play import resolve_ruleset  # cycle: play imports this module

    rules = resolve_ruleset(ruleset, options)
    if isinstance(rules, DuelRuleset | BlastRuleset):  # the Duel Pack and Blast (issue 41)

        def remember(prepared: native_duel.CorePrepared) -> None:
            if fast is not None:
                if len(_PREPARED) >= MAX_REMEMBERED:
                    _PREPARED.clear()
                _PREPARED[fast] = _Known(prepared, rules, ruleset, registry)

        if isinstance(rules, DuelRuleset):  # its own boundary
            return native_duel.play_duel_in_core(
                teams, board, ai, seed, rules, record, registry, forbid, choice, remember
            )
        return native_blast.play_blast_in_core(  # its own boundary
            teams, board, ai, seed, rules, record, registry, forbid, choice, remember
        )
    refusal = _cheap_refusal(teams, board, rules, record, choice)
    overrides: dict[str, Any] = {}
    key: tuple[Any, ...] = ()
    if refusal is None:
        # a ruleset built by name without options has every default: nothing to compare
        overrides = {} if not options and isinstance(ruleset, str) else _overrides(rules)
        key = (*_shape(teams, str(board), ai, overrides, forbid), id(registry) if registry is not None else 0)
        refusal = _REFUSED.get(key)
    if refusal is None:

        def prepare() -> native_match.PreparedMatch:
            return native_match.prepare_core(
                *teams,
                board=str(board),
                ai=ai,
                options=overrides,
                forbid=forbid,
                rules=rules,
                registry=registry,
            )

        try:
            result, prepared = _play(prepare, seed, record, rules)
        except KrosbalanceError:
            if choice == CORE:
                raise
            return None  # the reference checks the same and says it in its own words
        except _Refused as refused:
            if len(_REFUSED) >= MAX_REMEMBERED:
                _REFUSED.clear()
            _REFUSED[key] = refusal = str(refused)
        else:
            if fast is not None:
                if len(_PREPARED) >= MAX_REMEMBERED:
                    _PREPARED.clear()
                _PREPARED[fast] = _Known(prepared, rules, ruleset, registry)
            return result
    if choice == CORE:
        raise EngineError(f"engine='core': the core cannot play this match: {refusal}")
    return None


class _Refused(Exception):
    """The core refused the match before playing it (its ``ValueError`` message)."""


class _Known:
    """A match shape the core played: its checked call (``native_match.prepare_core``) and the
    ruleset it was read with, with the ``ruleset`` and ``registry`` arguments it was asked with
    (held, so that the identity a key names cannot pass to another object)."""

    __slots__ = ("prepared", "registry", "rules", "ruleset")

    def __init__(
        self,
        prepared: native_match.PreparedMatch | native_duel.CorePrepared,
        rules: Ruleset,
        ruleset: str | Ruleset,
        registry: Registry | None,
    ) -> None:
        self.prepared, self.rules, self.ruleset, self.registry = prepared, rules, ruleset, registry


#: the match shapes the core played, by :func:`_fast_key`: a shape's next matches skip the
#: reference's checks and the building of their call (about half of the Python around a match);
#: a Duel or Blast shape keeps its specs converted for the core too (``native_duel.CorePrepared``)
_PREPARED: dict[tuple[Any, ...], _Known] = {}
on_content_change(_PREPARED.clear)  # checked and built against the old cards


_SCALARS = (str, int, float, bool, type(None))


def _fast_key(
    teams: Sequence[Sequence[str]],
    board: str | Board,
    ai: str | Sequence[str],
    options: Mapping[str, Any] | None,
    ruleset: str | Ruleset,
    registry: Registry | None,
    forbid: Mapping[str, Sequence[str]] | None,
) -> tuple[Any, ...] | None:
    """A match shape from ``play_match``'s arguments as given (before anything is built from them),
    or None when they cannot make one (a ``Board`` object, a built ruleset given options too,
    unhashable values): every option value with its type, so that ``1`` and ``True`` differ (any
    other value by its ``repr``)."""
    if not isinstance(board, str) or (options and not isinstance(ruleset, str)):
        return None
    try:
        key = (
            tuple(map(tuple, teams)),
            board,
            ai if isinstance(ai, str) else tuple(ai),
            tuple(
                (k, v.__class__, v if isinstance(v, _SCALARS) else repr(v))
                for k, v in sorted(options.items())
            )
            if options
            else (),
            tuple((k, tuple(v)) for k, v in sorted(forbid.items())) if forbid else (),
            ruleset if isinstance(ruleset, str) else id(ruleset),
            id(registry),
        )
        hash(key)
    except TypeError:  # an unhashable option value (a list): no shortcut for this shape
        return None
    return key


def fault_message(exc: BaseException, seed: int) -> str:
    """A core fault's message: what failed, and how to play the match on the reference."""
    return (
        f"the native core failed on this match (seed {seed}): {type(exc).__name__}: {exc}; "
        f"play it on the reference with {native.ENGINE_ENV}=reference (`{native.ENGINE_ENV}=reference "
        "krosbalance replay RESULTS MATCH_ID` shows it turn by turn) or play_match(..., engine='reference')"
    )


def _play(
    prepared: native_match.PreparedMatch | Callable[[], native_match.PreparedMatch],
    seed: int,
    record: str,
    rules: Ruleset,
) -> tuple[MatchResult, native_match.PreparedMatch]:
    """The match played by the core and read (with the shape it was played from): ``prepared``, or
    what ``prepared()`` checks and builds first."""
    try:
        call = prepared if isinstance(prepared, native_match.PreparedMatch) else prepared()
        _compact_layout(rules.name)  # once: the records' positional order is the compact row's
        return core_result(call.play(seed, record, compact=True, records=_RECORDS), rules), call
    except KrosbalanceError:
        raise  # the reference's checks, run before the core
    except ValueError as exc:
        if str(exc).startswith(REFUSALS):
            raise _Refused(str(exc)) from None
        if any(words in str(exc) for words in TEAM_ERRORS):
            raise TeamError(str(exc)) from None
        raise CoreFault(fault_message(exc, seed)) from exc
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # a Rust panic is pyo3's PanicException, a BaseException
        raise CoreFault(fault_message(exc, seed)) from exc


# ------------------------------------------------------------------------- the core's dict, read


def core_result(out: Mapping[str, Any], rules: Ruleset) -> MatchResult:
    """The reference's :class:`~krosbalance.engine.results.MatchResult` of a match the core played
    (``play_match_core``'s dict): the same outcome, fighters, holdings, versions and typed events as
    ``summarise`` makes of the reference's state, ``engine="core"``, and no replay checkpoints."""
    first = int(out["first_player"])
    teams = tuple(tuple(team) for team in out["teams"])
    kinds = _event_classes(rules.name)
    return MatchResult(
        winner=out["winner"],
        end_reason=out["end_reason"],
        turns=out["turns"],
        first_player=first,
        teams=teams,
        board=out["board"],
        ruleset=out["ruleset"],
        seed=out["seed"],
        fighters=_fighters(out["fighters"], rules),
        events=[_event(kinds, kind, data) for kind, data in out["events"]],
        versions={"engine": ENGINE_VERSION, "ruleset": f"{rules.name}-{rules.version}"},
        values={column.name: out[column.name] for column in rules.result_columns},
        partnerships=tuple(out["partnerships"]),
        play_order=tuple(out["play_order"]),
        engine=CORE,
    )


#: the classes the core builds each fighter of a result as (what ``_play`` asks for), in the order
#: of its compact row, which :func:`_compact_layout` checks
_RECORDS = (FighterRecord, FighterStats)


def _fighters(rows: Sequence[Any], rules: Ruleset) -> list[FighterRecord]:
    """The fighters of the core's result: records built by the core (what ``_play`` asks for),
    compact rows (tuples of the core's ``COMPACT_FIGHTER_COLUMNS``) or row dicts."""
    if rows and isinstance(rows[0], FighterRecord):
        return list(rows)
    if rows and isinstance(rows[0], tuple):
        return _compact_fighters(rows, rules)
    return [_fighter(row, rules) for row in rows]


def _compact_fighters(rows: Sequence[tuple[Any, ...]], rules: Ruleset) -> list[FighterRecord]:
    """Compact rows read by position (a tenth of a match's Python time went into reading forty-key
    dicts); :func:`_compact_layout` checks once that the positions mean what is read here."""
    names = _compact_layout(rules.name)
    return [
        FighterRecord(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            None if row[6] < 0 else row[6],
            FighterStats(*row[7:17]),
            dict(zip(names, row[17:], strict=True)),
        )
        for row in rows
    ]


#: the compact row's leading columns as read by :func:`_compact_fighters`: ``FighterRecord``'s
#: fields before ``stats``, then the first ``FighterStats`` fields (in their order)
_COMPACT_HEAD = ("uid", "side", "character", "name", "level", "is_summon", "summoner")


@cache
def _compact_layout(ruleset: str) -> tuple[str, ...]:
    """The ruleset's fighter columns, once it is checked that the core's compact row is laid out as
    ``_compact_fighters`` reads it: the record's fields, the stats' fields in their dataclass order,
    then the ruleset's columns in the reference's order (a mismatch is a fault, not a silent shift)."""
    names = tuple(name for name, _ in _nothing_counted(ruleset))
    stats = tuple(f.name for f in fields(FighterStats) if f.name != "extra")
    record = tuple(f.name for f in fields(FighterRecord))
    expected = _COMPACT_HEAD + stats + names
    columns = tuple(native.core().COMPACT_FIGHTER_COLUMNS)
    if columns != expected or record[: len(_COMPACT_HEAD)] != _COMPACT_HEAD or len(stats) != 10:
        raise CoreFault(f"the core's compact fighter row {columns} does not match the reference's {expected}")
    return names


def _fighter(row: Mapping[str, Any], rules: Ruleset) -> FighterRecord:
    stats = FighterStats(
        damage_dealt=[row[f"damage_dealt_{element}"] for element in ELEMENTS],
        damage_taken=[row[f"damage_taken_{element}"] for element in ELEMENTS],
        heals_given=row["heals_given"],
        heals_received=row["heals_received"],
        kills=row["kills"],
        knocked_out=row["knocked_out"],
        turns_alive=row["turns_alive"],
        spells_cast=row["spells_cast"],
        moves=row["moves"],
        times_blocked=row["times_blocked"],
    )
    summoner = row["summoner"]
    return FighterRecord(
        uid=row["uid"],
        side=row["side"],
        character=row["character"],
        name=row["name"],
        level=row["level"],
        is_summon=row["is_summon"],
        summoner=None if summoner < 0 else summoner,
        stats=stats,
        values=_fighter_values(row, rules),
    )


def _fighter_values(row: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
    """The ruleset's fighter columns (Arena's kamas, GG and Demonic Reward counters), in the
    reference's order; a column the core's row lacks is a fault, not a silent zero."""
    names = [name for name, _ in _nothing_counted(rules.name)]
    missing = [name for name in names if name not in row]
    if missing:
        raise CoreFault(f"the core's fighter row lacks the columns {', '.join(missing)}")
    return {name: row[name] for name in names}


@cache
def _nothing_counted(ruleset: str) -> tuple[tuple[str, Any], ...]:
    if ruleset != "arena":
        raise CoreFault(f"the core returned a result of the ruleset {ruleset!r}, which it does not play")

    return tuple(ArenaStats().values().items())


def _event(kinds: Mapping[str, type], kind: str, data: Mapping[str, Any]) -> Any:
    cls = kinds.get(kind)
    if cls is None:
        raise CoreFault(f"the core recorded an event of kind {kind!r}, which the reference does not know")
    return cls(**data)


@cache
def _event_classes(ruleset: str) -> dict[str, type]:
    """The reference's event classes by ``kind``: the engine's and the ruleset's own."""
    modules = [events, importlib.import_module(f"krosbalance.rulesets.{ruleset}.events")]
    out: dict[str, type] = {}
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, events.Event)
                and cls.__module__ == module.__name__
                and cls is not events.Event
            ):
                out[_kind(cls)] = cls
    return out


def _kind(cls: Any) -> str:
    """An event class's ``kind``: a property that reads no field, so an instance without fields
    answers it; where that is refused (a compiled class), the class name in snake case, which is
    how every event of the engine and of Arena names its kind (``GGChanged`` -> ``gg_changed``)."""
    try:
        return str(cls.__new__(cls).kind)
    except Exception:  # noqa: BLE001 - any refusal: the name says it
        return re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", cls.__name__).lower()
