"""Duel Pack matches played by the native core (``krosbalance_core.play_duel_match``), from the same
names ``krosbalance.play.play_match`` takes: the Python loader reads and validates the teams (with the
Duel Pack's cards), the options and the Duel Token set, the core receives the loaded specs and plays
the whole duel (the pregame included), and the result comes back as plain data, read here into the
reference's :class:`~krosbalance.engine.results.MatchResult`.

The core plays the Duel Pack for one and two figures, every option of ``duel.toml``, with the AIs
of :data:`DUEL_AIS`; anything else is refused in the core's words ("not in the core yet: ..." /
"the core does not play ..."), so ``engine="auto"`` hands it to the reference
(:func:`krosbalance.engine_choice.play_in_core` asks :func:`play_duel_in_core`). What the core
refuses, it refuses before playing: an AI it does not play, restricted play (``forbid``), a
``Board`` object, and under ``auto`` ``record="full"`` (a replay's checkpoints are the reference's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, Any

from krosbalance import native
from krosbalance.ai.registry import canonical_ai, get_ai
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import ELEMENTS
from krosbalance.engine.results import ENGINE_VERSION, FighterRecord, FighterStats, MatchResult, ResultColumn
from krosbalance.errors import CoreFault, EngineError, KrosbalanceError
from krosbalance.rulesets.arena.options import punch
from krosbalance.rulesets.base import Ruleset, summonable
from krosbalance.rulesets.duel.pregame import DUEL_FEATURE, duel_team_registry
from krosbalance.rulesets.duel.ruleset import FIGHTER_COLUMNS, DuelRuleset

if TYPE_CHECKING:
    from krosbalance.board import Board
    from krosbalance.content.registry import Registry

#: the duel AIs the core plays (registry ids), proven identical by tests/core/test_duel_identity.py
DUEL_AIS: tuple[str, ...] = ("random", "duel-brawler", "duel-lookahead")
#: the core's Board of each registry board, with its duel cells, built once per process
_BOARDS: dict[str, tuple[Any, int]] = {}


def _board(board_id: str) -> tuple[Any, int]:
    if board_id not in _BOARDS:
        board = default_registry().load_board(board_id)
        _BOARDS[board_id] = (native.core_board(board), board.features.get(DUEL_FEATURE, 0))
    return _BOARDS[board_id]


def is_screened(name: str) -> bool:
    """Whether ``name`` is the screening form of ``duel-lookahead`` with some knobs set
    (``duel-lookahead{walks=4;dice_sets=2}``, :mod:`krosbalance.tools.duel_screen`)."""
    return name.startswith("duel-lookahead{") and name.endswith("}")


def refusal(rules: DuelRuleset, ais: Sequence[str]) -> str | None:
    """Why the core cannot play this duel, from its options and AIs alone, or None."""
    for name in ais:
        if canonical_ai(name) not in DUEL_AIS and not is_screened(name):
            return f"the core does not play the AI {name!r} in a duel yet (it plays: {', '.join(DUEL_AIS)})"
    return None


def play_duel_core(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    seed: int,
    rules: DuelRuleset,
    record: str = "none",
    registry: Registry | None = None,
    plant_divergence_at: int | None = None,
) -> MatchResult:
    """One duel played by the core, as the reference's ``MatchResult`` (``engine="core"``).

    Raises:
        TeamError: a team the reference refuses (R-D14, R-D36).
        ValueError: the core refuses the duel ("not in the core yet" / "the core does not play").
    """
    out = play_duel_raw(teams, board, ais, seed, rules, record, registry, plant_divergence_at)
    return _result(out, rules, board, seed)


def play_duel_raw(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    seed: int,
    rules: DuelRuleset,
    record: str = "none",
    registry: Registry | None = None,
    plant_divergence_at: int | None = None,
) -> dict[str, Any]:
    """:func:`play_duel_core`'s match as the core returns it: a dict of plain data (the differential
    harness reads it as it reads Arena's); ``plant_divergence_at`` (test-only) alters that event of
    the core's log as a recording bug would."""
    return prepare_duel(teams, board, ais, rules, registry).raw(seed, record, plant_divergence_at)


def prepare_duel(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    rules: DuelRuleset,
    registry: Registry | None = None,
) -> CorePrepared:
    """A duel's shape checked (the reference's checks of the teams and AIs, the core's refusals)
    and converted for the core once: its duels of any seed are :meth:`CorePrepared.result`.

    Raises:
        TeamError: a team the reference refuses (R-D14, R-D36).
        ValueError: the core refuses the duel ("not in the core yet" / "the core does not play").
    """
    if len(teams) != 2 or len(ais) != 2:
        raise ValueError(f"not in the core yet: a duel of {len(teams)} seats")
    for name in ais:
        get_ai(name, "duel", 2)  # the reference's own refusal of an unknown AI
    why = refusal(rules, ais)
    if why is not None:
        raise ValueError(why)
    cards = duel_team_registry(registry)
    specs = [rules.validate_team(list(team), cards) for team in teams]
    pieces = summonable([*specs[0], *specs[1]], registry or default_registry())
    core_board, duel_cells = _board(board)
    call = native.core().DuelPrepared(
        [list(team) for team in specs],
        pieces,
        punch() if rules.opts.punch else None,
        core_board,
        duel_cells,
        rules.opts,
        list(rules.tokens.tokens),
        [canonical_ai(name) for name in ais],
    )
    label = str(rules.describe())

    def read(out: Mapping[str, Any], seed: int) -> MatchResult:
        return _result(out, rules, board, seed, label)

    return CorePrepared(call, read)


class CorePrepared:
    """A Duel or Blast match shape the core plays, checked and converted once (the core's
    ``DuelPrepared`` or ``BlastPrepared``, and how its dict is read): ``engine_choice`` keeps it per
    shape, as it keeps Arena's ``PreparedMatch``, so the matches of one shape pay for the
    reference's checks and the specs' crossing once, not once per seed."""

    __slots__ = ("call", "read")

    def __init__(self, call: Any, read: Callable[[Mapping[str, Any], int], MatchResult]) -> None:
        self.call, self.read = call, read

    def raw(self, seed: int, record: str = "none", plant_divergence_at: int | None = None) -> dict[str, Any]:
        """The match of this shape with ``seed`` as the core returns it (a dict of plain data)."""
        out: dict[str, Any] = self.call.play(seed, record, plant_divergence_at)
        return out

    def result(self, seed: int, record: str = "none") -> MatchResult:
        """The match of this shape with ``seed``, as the reference's ``MatchResult`` (its fighters
        built as ``FighterRecord``s by the core, :func:`record_classes`)."""
        return self.read(self.call.play(seed, record, None, record_classes()), seed)


#: ``FighterRecord``'s and ``FighterStats``'s fields in the order the core passes them positionally
#: (``bindings/convert.rs``'s ``fighter_record``; the stats' ``extra`` after them keeps its default)
RECORD_FIELDS = ("uid", "side", "character", "name", "level", "is_summon", "summoner", "stats", "values")
STATS_FIELDS = (
    "damage_dealt",
    "damage_taken",
    "heals_given",
    "heals_received",
    "kills",
    "knocked_out",
    "turns_alive",
    "spells_cast",
    "moves",
    "times_blocked",
)


@cache
def record_classes() -> tuple[type[FighterRecord], type[FighterStats]]:
    """The classes the core builds a Duel or Blast result's fighters as, once it is checked that
    their fields are in the order the core passes them (a mismatch is a fault, not a silent shift):
    reading ten row dicts back in Python was a tenth of a Blast match."""
    record = tuple(f.name for f in fields(FighterRecord))
    stats = tuple(f.name for f in fields(FighterStats))
    if record != RECORD_FIELDS or stats[: len(STATS_FIELDS)] != STATS_FIELDS:
        raise CoreFault(
            f"the core builds FighterRecord{RECORD_FIELDS} and FighterStats{STATS_FIELDS}, not {record}, {stats}"
        )
    return FighterRecord, FighterStats


def _result(
    out: Mapping[str, Any], rules: DuelRuleset, board: str, seed: int, label: str | None = None
) -> MatchResult:
    pairs = ("drafted", "picked", "revealed", "tokens_held", "held_from_start", "start_revealed")
    values = {column.name: out[column.name] for column in rules.result_columns}
    for name in pairs:
        values[name] = tuple(values[name])
    return core_result(out, rules, board, seed, values, FIGHTER_COLUMNS, label)


def core_result(
    out: Mapping[str, Any],
    rules: Ruleset,
    board: str,
    seed: int,
    values: dict[str, Any],
    columns: Sequence[ResultColumn],
    label: str | None = None,
) -> MatchResult:
    """The reference's ``MatchResult`` of a match the core played and returned as ``out`` (Duel and
    Blast): the ruleset's result ``values`` as read, its fighter ``columns``; ``label`` is
    ``str(rules.describe())`` when the caller has it already."""
    from krosbalance.engine_choice import _event, _event_classes  # cycle: engine_choice asks here

    kinds = _event_classes(rules.name)
    return MatchResult(
        winner=out["winner"],
        end_reason=out["end_reason"],
        turns=out["turns"],
        first_player=int(out["first_player"]),
        teams=tuple(tuple(team) for team in out["teams"]),
        board=board,
        ruleset=str(rules.describe()) if label is None else label,
        seed=seed,
        fighters=_fighters(out["fighters"], columns),
        events=[_event(kinds, kind, data) for kind, data in out["events"]],
        versions={"engine": ENGINE_VERSION, "ruleset": f"{rules.name}-{rules.version}"},
        values=values,
        partnerships=tuple(out["partnerships"]),
        play_order=tuple(out["play_order"]),
        engine="core",
    )


def _fighters(rows: Sequence[Any], columns: Sequence[ResultColumn]) -> list[FighterRecord]:
    """The result's fighters: records the core built (``CorePrepared.result``), or its row dicts
    read (``raw``'s dict, which the differential harness reads too)."""
    if rows and isinstance(rows[0], FighterRecord):
        return list(rows)
    return [fighter_record(row, columns) for row in rows]


#: the core's row keys of the damage dealt and taken, by element
_DEALT = tuple(f"damage_dealt_{element}" for element in ELEMENTS)
_TAKEN = tuple(f"damage_taken_{element}" for element in ELEMENTS)


def fighter_record(row: Mapping[str, Any], columns: Sequence[ResultColumn]) -> FighterRecord:
    """A fighter's ``FighterRecord`` from the core's row (Duel and Blast), with the ruleset's
    fighter ``columns``."""
    stats = FighterStats(
        damage_dealt=[row[key] for key in _DEALT],
        damage_taken=[row[key] for key in _TAKEN],
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
        values={column.name: row[column.name] for column in columns},
    )


def play_duel_in_core(
    teams: Sequence[Sequence[str]],
    board: str | Board,
    ai: str | Sequence[str],
    seed: int,
    rules: DuelRuleset,
    record: str,
    registry: Registry | None,
    forbid: Mapping[str, Sequence[str]] | None,
    choice: str,
    remember: Callable[[CorePrepared], None] | None = None,
) -> MatchResult | None:
    """``engine_choice.play_in_core`` for a duel: the match played by the core, or None when the
    reference is to play it (``choice`` ``auto`` and the core cannot); ``choice`` is the resolved
    ``auto`` or ``core`` (:func:`play_in_core_or_none`); ``remember`` is handed the duel's shape
    once the core has played it."""

    def play(names: Sequence[str]) -> MatchResult:
        prepared = prepare_duel(teams, str(board), names, rules, registry)
        result = prepared.result(seed, record)
        if remember is not None:
            remember(prepared)
        return result

    return play_in_core_or_none(play, teams, board, ai, seed, record, forbid, choice, "a duel")


def play_prepared(prepared: CorePrepared, seed: int, record: str, choice: str) -> MatchResult | None:
    """A match of a shape the core has played already (``engine_choice`` keeps them): as
    :func:`play_in_core_or_none` plays it, with the same answers to a failure."""
    result, why = _attempt(lambda: prepared.result(seed, record), seed, choice)
    if why is None:
        return result
    from krosbalance.engine_choice import CORE  # cycle: it asks here

    if choice == CORE:
        raise EngineError(f"engine='core': the core cannot play this match: {why}")
    return None


def play_in_core_or_none(
    play: Callable[[Sequence[str]], MatchResult],
    teams: Sequence[Sequence[str]],
    board: str | Board,
    ai: str | Sequence[str],
    seed: int,
    record: str,
    forbid: Mapping[str, Sequence[str]] | None,
    choice: str,
    what: str,
) -> MatchResult | None:
    """The routing the Duel Pack and Blast share: ``play`` (the match in the core, given the AI
    names) or None when the reference is to play it (``choice`` ``auto`` and the core cannot).

    Raises:
        EngineError: ``choice`` is ``core`` and the core cannot play this match (why, in one line).
        CoreFault: the core failed on the match (chained to the core's exception).
        KrosbalanceError: under ``core``, the reference's own checks (teams, names, AIs).
    """
    from krosbalance.engine_choice import AUTO, CORE  # cycle: it asks here
    from krosbalance.play import _ai_names  # cycle: play imports engine_choice

    why: str | None = None
    if not native.available():
        why = native.why_unavailable()
    elif not isinstance(board, str):
        why = "the core plays boards named in the registry, not a Board object"
    elif choice == AUTO and record == "full":
        why = "record='full' keeps a replay's checkpoints, read from the reference's live state"
    elif forbid:
        why = f"not in the core yet: restricted play in {what}"
    if why is None:
        result, why = _attempt(lambda: play(_ai_names(ai, len(teams))), seed, choice)
        if why is None:
            return result
    if choice == CORE:
        raise EngineError(f"engine='core': the core cannot play this match: {why}")
    return None


def _attempt(
    play: Callable[[], MatchResult], seed: int, choice: str
) -> tuple[MatchResult | None, str | None]:
    """``play()``'s match, or (None, None) when the reference is to say what is wrong with it, or
    (None, why) when the core refuses it.

    Raises:
        CoreFault: the core failed on the match (chained to the core's exception).
        KrosbalanceError: under ``core``, the reference's own checks (teams, names, AIs).
    """
    from krosbalance.engine_choice import CORE, REFUSALS, fault_message  # cycle: it asks here

    try:
        return play(), None
    except KrosbalanceError:
        if choice == CORE:
            raise
        return None, None  # the reference checks the same and says it in its own words
    except ValueError as exc:
        if not str(exc).startswith(REFUSALS):
            raise CoreFault(fault_message(exc, seed)) from exc
        return None, str(exc)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # a Rust panic is pyo3's PanicException, a BaseException
        raise CoreFault(fault_message(exc, seed)) from exc
