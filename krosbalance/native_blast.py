"""Krosmaster Blast matches played by the native core (``krosbalance_core.play_blast_match``), from the
same names ``krosbalance.play.play_match`` takes: the Python loader reads and validates the teams (Blast
cards), the options, the favors and the Divine Challenges; the core receives the loaded specs and
plays the whole match (the set-up and deployment included), and the result comes back as plain data,
read here into the reference's :class:`~krosbalance.engine.results.MatchResult`.

The core plays Blast for every option of ``blast.toml`` with the AIs of :data:`BLAST_AIS`; anything
else is refused in the core's words ("not in the core yet: ..." / "the core does not play ..."), so
``engine="auto"`` hands it to the reference (:func:`krosbalance.engine_choice.play_in_core` asks
:func:`play_blast_in_core`, which shares the Duel Pack's routing: :func:`native_duel.play_in_core_or_none`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from krosbalance import native
from krosbalance.ai.registry import canonical_ai, get_ai
from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry
from krosbalance.engine.results import MatchResult
from krosbalance.native_duel import CorePrepared, core_result, play_in_core_or_none
from krosbalance.rulesets.base import summonable
from krosbalance.rulesets.blast.pregame import summoned_by
from krosbalance.rulesets.blast.ruleset import BlastRuleset

if TYPE_CHECKING:
    from krosbalance.board import Board
    from krosbalance.content.blast import BonusActionSpec
    from krosbalance.content.registry import Registry

#: the Blast AIs the core plays (registry ids), proven identical by tests/core/test_blast_identity.py
BLAST_AIS: tuple[str, ...] = ("random", "blast-glyph", "blast-brawler", "blast-lookahead")
#: the board's glyph cells (``features.glyph``)
GLYPH_FEATURE = "glyph"
#: the core's Board of each registry board, with its glyph cells, built once per process
_BOARDS: dict[str, tuple[Any, int]] = {}


def _board(board_id: str) -> tuple[Any, int]:
    if board_id not in _BOARDS:
        board = default_registry().load_board(board_id)
        _BOARDS[board_id] = (native.core_board(board), board.features.get(GLYPH_FEATURE, 0))
    return _BOARDS[board_id]


def is_screened(name: str) -> bool:
    """Whether ``name`` is the screening form of ``blast-lookahead`` with some knobs set
    (``blast-lookahead{walks=4;dice_sets=2}``, :mod:`krosbalance.tools.blast_screen`)."""
    return name.startswith("blast-lookahead{") and name.endswith("}")


def refusal(ais: Sequence[str]) -> str | None:
    """Why the core cannot play this Blast match, from its AIs alone, or None."""
    for name in ais:
        if canonical_ai(name) not in BLAST_AIS and not is_screened(name):
            return f"the core does not play the AI {name!r} in Blast yet (it plays: {', '.join(BLAST_AIS)})"
    return None


def _bonus_summons(actions: Sequence[BonusActionSpec], registry: Registry) -> dict[str, Any]:
    """The Invocations any of these bonus actions may bring (``pregame.bonus_summons`` for every
    favor and challenge the match may deal, not only those dealt)."""
    return {spec_id: registry.load_character(spec_id) for spec_id in summoned_by(actions)}


def play_blast_raw(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    seed: int,
    rules: BlastRuleset,
    record: str = "none",
    registry: Registry | None = None,
    plant_divergence_at: int | None = None,
) -> dict[str, Any]:
    """One Blast match as the core returns it: a dict of plain data (the differential harness reads
    it as it reads Arena's); ``plant_divergence_at`` (test-only) alters that event of the core's log
    as a recording bug would.

    Raises:
        TeamError: a team the reference refuses (R-B5).
        ValueError: the core refuses the match ("not in the core yet" / "the core does not play").
    """
    return prepare_blast(teams, board, ais, rules, registry).raw(seed, record, plant_divergence_at)


def prepare_blast(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    rules: BlastRuleset,
    registry: Registry | None = None,
) -> CorePrepared:
    """A Blast match's shape checked (the reference's checks of the teams and AIs, the core's
    refusals) and converted for the core once: its matches of any seed are
    :meth:`~krosbalance.native_duel.CorePrepared.result`.

    Raises:
        TeamError: a team the reference refuses (R-B5).
        ValueError: the core refuses the match ("not in the core yet" / "the core does not play").
    """
    if len(teams) != 2 or len(ais) != 2:
        raise ValueError(f"not in the core yet: a Blast match of {len(teams)} seats")
    for name in ais:
        get_ai(name, "blast", 2)  # the reference's own refusal of an unknown AI
    why = refusal(ais)
    if why is not None:
        raise ValueError(why)
    source = registry or default_registry()
    specs = [rules.validate_team(list(team), source) for team in teams]
    cards = blast_cards()
    favors = cards.favors("basic") + (cards.favors("superior") if rules.opts.superior_favors else [])
    challenges = cards.challenges()
    actions = [f.action for f in favors] + [
        b.action for c in challenges for b in c.bonuses if b.action is not None
    ]
    pieces = {**summonable([*specs[0], *specs[1]], source), **_bonus_summons(actions, source)}
    core_board, glyphs = _board(board)
    call = native.core().BlastPrepared(
        [list(team) for team in specs],
        pieces,
        core_board,
        glyphs,
        rules.opts,
        favors,
        challenges,
        [canonical_ai(name) for name in ais],
    )
    label = str(rules.describe())

    def read(out: Mapping[str, Any], seed: int) -> MatchResult:
        return _result(out, rules, board, seed, label)

    return CorePrepared(call, read)


def _result(out: Mapping[str, Any], rules: BlastRuleset, board: str, seed: int, label: str) -> MatchResult:
    # the core's per-seat values are tuples already (blast_play.rs's `values`): its dict as it
    # comes, a new one every match
    return core_result(out, rules, board, seed, out["values"], (), label)


def play_blast_core(
    teams: Sequence[Sequence[str]],
    board: str,
    ais: Sequence[str],
    seed: int,
    rules: BlastRuleset,
    record: str = "none",
    registry: Registry | None = None,
    plant_divergence_at: int | None = None,
) -> MatchResult:
    """One Blast match played by the core, as the reference's ``MatchResult`` (``engine="core"``)."""
    out = play_blast_raw(teams, board, ais, seed, rules, record, registry, plant_divergence_at)
    return _result(out, rules, board, seed, str(rules.describe()))


def play_blast_in_core(
    teams: Sequence[Sequence[str]],
    board: str | Board,
    ai: str | Sequence[str],
    seed: int,
    rules: BlastRuleset,
    record: str,
    registry: Registry | None,
    forbid: Mapping[str, Sequence[str]] | None,
    choice: str,
    remember: Callable[[CorePrepared], None] | None = None,
) -> MatchResult | None:
    """``engine_choice.play_in_core`` for a Blast match: played by the core, or None when the reference
    is to play it (``choice`` ``auto`` and the core cannot); see ``native_duel.play_in_core_or_none``;
    ``remember`` is handed the match's shape once the core has played it."""

    def play(names: Sequence[str]) -> MatchResult:
        prepared = prepare_blast(teams, str(board), names, rules, registry)
        result = prepared.result(seed, record)
        if remember is not None:
            remember(prepared)
        return result

    return play_in_core_or_none(play, teams, board, ai, seed, record, forbid, choice, "a Blast match")
