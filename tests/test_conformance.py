"""The conformance battery: random-AI matches on every shipped Arena board, checked at every step.

Each match is played with the invariants checked before every decision (``run_checked_match``),
must end with a result within the ruleset's turn bound, and is replayed unchecked with the same seed:
the two event logs (``record="full"``) and fighter rows must be identical, which shows both that a
match is a pure function of its seed and that checking changes no decision.

The default suite plays a slice (``SLICE`` matches per board, every Krosmaster at least once); the
full battery (``FULL`` matches per board, teams dealt from every legal team) is marked ``slow`` and
run by ``make battery``. No box Krosmaster sets traps, so a second battery adds a test-only
trap-setter (``tests/fixtures/characters/test_trapper.toml``) and plays teams that include it, so that
the trap rules (R-A116, R-A171) are exercised by whole matches: ``TRAP_SLICE`` matches on two boards
in the default suite, ``TRAP_FULL`` per board under ``make battery``; both assert that traps were
laid and sprung. Set ``KROSBALANCE_BATTERY_OUT`` to a folder to get one JSON file of match
rows per chunk, for the turn distribution reported in the docs.
"""

from __future__ import annotations

import json
import os
import pickle
from collections import Counter
from pathlib import Path

import pytest

from krosbalance.ai.registry import get_ai
from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDER, Registry, list_boards, list_characters
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.conformance import (
    END_REASONS,
    CheckingController,
    all_legal_teams,
    battery_plan,
    first_difference,
    run_checked_match,
)
from tests.ai_params import every_ai

BOARDS = [b for b in list_boards("arena") if not b.startswith("test-")]
TURN_LIMIT = get_ruleset("arena").options.turn_limit
SLICE = 30
#: in the default slice, every SLICE_REPLAY-th match is replayed for the event-log comparison
SLICE_REPLAY = 5
FULL = 1000
CHUNKS = 10
TEST_CHARACTERS = Path(__file__).resolve().parent / "fixtures" / "characters"
TRAPPER, SNARE = "test_trapper", "test_snare"
TRAP_SLICE = 12
TRAP_FULL = 200
#: per chunk of FULL // CHUNKS matches: how many may hit the turn bound (data/arena.toml says rare)
MAX_TURN_LIMIT_HITS_PER_CHUNK = 5


def play_and_check(
    board: str,
    team0: tuple[str, ...],
    team1: tuple[str, ...],
    seed: int,
    replay: bool = True,
    registry: Registry | None = None,
    options: dict | None = None,
) -> dict:
    """One battery match: checked run, replay (unless ``replay`` is false), and the assertions every
    match must pass."""
    checked = run_checked_match(team0, team1, board, seed, record="full", registry=registry, options=options)
    where = f"board {board}, seed {seed}, teams {list(team0)} vs {list(team1)}"
    assert checked.end_reason in END_REASONS, where
    assert 1 <= checked.turns <= TURN_LIMIT, where
    if checked.end_reason == "turn_limit":
        assert checked.turns == TURN_LIMIT, where
    elif checked.end_reason == "gg":
        gg = checked.values["gg"]
        assert checked.winner in (0, 1) and gg[1 - checked.winner] == 0, where
        assert gg[checked.winner] > 0 and not checked.values["wild_gg_left"], where
    assert checked.events and checked.events[-1].kind == "match_ended", where
    if replay:
        again = play_match(
            team0, team1, board=board, seed=seed, record="full", registry=registry, options=options
        )
        assert again.events == checked.events, f"{where}: {first_difference(again.events, checked.events)}"
        assert [f.as_row() for f in again.fighters] == [f.as_row() for f in checked.fighters], where
        assert (again.winner, again.end_reason, again.turns) == (
            checked.winner,
            checked.end_reason,
            checked.turns,
        ), where
    traps = {f.uid for f in checked.fighters if f.character == SNARE}
    return {
        "traps_laid": len(traps),
        "traps_sprung": sum(1 for e in checked.events if e.kind == "spell_cast" and e.uid in traps),
        "board": board,
        "seed": seed,
        "team0": list(team0),
        "team1": list(team1),
        "turns": checked.turns,
        "winner": checked.winner,
        "end_reason": checked.end_reason,
        "first_player": checked.first_player,
        "rewards_bought": sum(f.values["rewards_bought"] for f in checked.fighters),
        "rewards_revealed": sum(f.values["rewards_revealed"] for f in checked.fighters),
    }


def _dump(rows: list[dict], name: str) -> None:
    folder = os.environ.get("KROSBALANCE_BATTERY_OUT")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.json").write_text(json.dumps(rows), encoding="utf-8")


# ------------------------------------------------------------------------------------------- plan


def test_every_box_krosmaster_is_in_some_legal_team() -> None:
    teams = all_legal_teams()
    box = set(list_characters(set="arena-box"))
    assert box <= {c for team in teams for c in team}
    assert all(len(team) == 4 for team in teams if set(team) <= box)  # every box Krosmaster is level 3
    assert len(teams) == len(set(teams))


def test_there_are_shipped_arena_boards() -> None:
    assert len(BOARDS) >= 1


@pytest.mark.parametrize("board", BOARDS)
def test_plan_covers_every_character_and_every_team(board: str) -> None:
    slice_teams = {t for a, b, _ in battery_plan(board, SLICE) for t in (a, b)}
    playable = {c for team in all_legal_teams() for c in team}  # a Krosmaster may fit no legal team
    assert set(list_characters(set="arena-box")) <= playable
    assert {c for team in slice_teams for c in team} == playable
    full = battery_plan(board, FULL)
    assert {t for a, b, _ in full for t in (a, b)} == set(all_legal_teams())
    assert len({seed for _, _, seed in full}) == FULL
    assert battery_plan(board, 5, start=7) == full[7:12]


# ------------------------------------------------------------------------------------ the battery


@pytest.mark.parametrize("board", BOARDS)
def test_conformance_slice(board: str) -> None:
    plan = battery_plan(board, SLICE)
    rows = [play_and_check(board, *match, replay=k % SLICE_REPLAY == 0) for k, match in enumerate(plan)]
    _dump(rows, f"slice-{board}")


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("board", BOARDS)
def test_conformance_battery(board: str, chunk: int) -> None:
    size = FULL // CHUNKS
    rows = [play_and_check(board, *match) for match in battery_plan(board, size, start=chunk * size)]
    _dump(rows, f"battery-{board}-{chunk:02d}")
    reasons = Counter(r["end_reason"] for r in rows)
    assert reasons["turn_limit"] <= MAX_TURN_LIMIT_HITS_PER_CHUNK, reasons


# ------------------------------------------------------------------- the Demonic Reward economy

REWARDS = {"demonic_rewards": True}
REWARD_SLICE = 8
#: the random AI with the economy on plays longer games (heals, summons, stat boosts bought and
#: revealed at random): about 4% of its matches reach the turn bound against under 1% without
#: rewards, up to 9 in a chunk of 100 measured; still "every match ends" (the bound is an end)
MAX_TURN_LIMIT_HITS_PER_CHUNK_WITH_REWARDS = 12


@pytest.mark.parametrize("board", BOARDS)
def test_conformance_slice_with_demonic_rewards(board: str) -> None:
    """The economy on (market, buying, revealing): invariants after every decision — GG, kamas and
    reward tokens conserved across reserve, stocks, board, market and cards, no card over its level,
    one face-up equipment of a kind — and every match ends; the same seed gives the same log."""
    plan = battery_plan(board, REWARD_SLICE, start=500)
    rows = [play_and_check(board, *match, replay=k % 4 == 0, options=REWARDS) for k, match in enumerate(plan)]
    _dump(rows, f"slice-rewards-{board}")
    assert sum(r["rewards_bought"] for r in rows) > 0 and sum(r["rewards_revealed"] for r in rows) > 0


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("board", BOARDS)
def test_conformance_battery_with_demonic_rewards(board: str, chunk: int) -> None:
    size = FULL // CHUNKS
    plan = battery_plan(board, size, start=chunk * size)
    rows = [play_and_check(board, *match, options=REWARDS) for match in plan]
    _dump(rows, f"battery-rewards-{board}-{chunk:02d}")
    reasons = Counter(r["end_reason"] for r in rows)
    assert reasons["turn_limit"] <= MAX_TURN_LIMIT_HITS_PER_CHUNK_WITH_REWARDS, reasons


# ---------------------------------------------------------------------------- traps in play


def _trap_registry() -> Registry:
    return Registry(DEFAULT_CHARACTER_FOLDER, TEST_CHARACTERS)


def _trap_plan(board: str, n: int, start: int = 0) -> list:
    registry = _trap_registry()
    teams = [t for t in all_legal_teams(registry=registry) if TRAPPER in t]
    return battery_plan(board, n, start=start, teams=teams)


def test_the_trapper_is_test_content_only() -> None:
    assert TRAPPER not in list_characters(None) and SNARE not in list_characters(None)
    registry = _trap_registry()
    assert registry.load_character(SNARE).kind == "trap"
    assert any(s.summons == SNARE for s in registry.load_character(TRAPPER).spells)


@pytest.mark.parametrize("board", BOARDS[:2])
def test_conformance_slice_with_traps(board: str) -> None:
    registry = _trap_registry()
    plan = _trap_plan(board, TRAP_SLICE)
    rows = [
        play_and_check(board, *match, replay=k % SLICE_REPLAY == 0, registry=registry)
        for k, match in enumerate(plan)
    ]
    _dump(rows, f"traps-slice-{board}")
    assert sum(r["traps_laid"] for r in rows) > 0 and sum(r["traps_sprung"] for r in rows) > 0


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_conformance_battery_with_traps(board: str) -> None:
    registry = _trap_registry()
    rows = [play_and_check(board, *match, registry=registry) for match in _trap_plan(board, TRAP_FULL)]
    _dump(rows, f"traps-battery-{board}")
    assert sum(r["traps_sprung"] for r in rows) >= TRAP_FULL  # measured: about 8 per match
    reasons = Counter(r["end_reason"] for r in rows)
    assert reasons["turn_limit"] <= MAX_TURN_LIMIT_HITS_PER_CHUNK * TRAP_FULL // (FULL // CHUNKS), reasons


# ------------------------------------------------------------------- the kit and AIs' decisions

TEAMS = (
    ("queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"),
    ("bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"),
)


class _Recorder:
    """Records every answer of the AI it wraps."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.answers: list = []

    def choose_deployment(self, view, fighters, cells):
        self.answers.append(self.inner.choose_deployment(view, fighters, cells))
        return self.answers[-1]

    def choose_tension(self, view, raw, options):
        self.answers.append(self.inner.choose_tension(view, raw, options))
        return self.answers[-1]

    def choose_action(self, view):
        self.answers.append(self.inner.choose_action(view))
        return self.answers[-1]

    def choose_edge(self, view, edges):
        self.answers.append(self.inner.choose_edge(view, edges))
        return self.answers[-1]

    def order_creatures(self, view, summoner, creatures):
        self.answers.append(self.inner.order_creatures(view, summoner, creatures))
        return self.answers[-1]

    def order_triggers(self, view, triggers):
        self.answers.append(self.inner.order_triggers(view, triggers))
        return self.answers[-1]


@pytest.mark.parametrize("ai", every_ai("arena"))
def test_checking_controller_changes_no_decision(ai: str) -> None:
    from krosbalance.engine.match import run_to_end

    answers = []
    for wrap in (False, True):
        state, controllers, views = prepare_match(*TEAMS, ai=ai, seed=11, board="arena-pit")
        recorders = tuple(_Recorder(c) for c in controllers)
        if wrap:
            checked = tuple(CheckingController(r, state) for r in recorders)
            run_to_end(state, checked, views)
            assert all(c.checks > 0 for c in checked)
        else:
            run_to_end(state, recorders, views)
        answers.append([r.answers for r in recorders])
    assert answers[0] == answers[1]
    assert sum(len(a) for a in answers[0]) > 20


class _PickleGuard:
    """Pickles the whole live state before and after each of the first ``limit`` decisions of the AI
    it wraps: an AI that changes anything in the match while deciding (positions, injuries, MP/AP,
    GG, kamas, markers, the dice, ...) fails with the decision named."""

    def __init__(self, inner, state) -> None:
        self.inner = inner
        self.state = state
        self.decisions = Counter()
        self.limit = 400  # decisions checked byte for byte; the rest of the match plays unchecked

    def _guard(self, what, decide):
        if sum(self.decisions.values()) >= self.limit:
            return decide()
        before = pickle.dumps(self.state)
        answer = decide()
        assert pickle.dumps(self.state) == before, f"{type(self.inner).__name__}.{what} changed the state"
        self.decisions[what] += 1
        return answer

    def choose_deployment(self, view, fighters, cells):
        return self._guard("choose_deployment", lambda: self.inner.choose_deployment(view, fighters, cells))

    def choose_tension(self, view, raw, options):
        return self._guard("choose_tension", lambda: self.inner.choose_tension(view, raw, options))

    def choose_action(self, view):
        return self._guard("choose_action", lambda: self.inner.choose_action(view))

    def choose_edge(self, view, edges):
        return self._guard("choose_edge", lambda: self.inner.choose_edge(view, edges))

    def order_creatures(self, view, summoner, creatures):
        return self._guard("order_creatures", lambda: self.inner.order_creatures(view, summoner, creatures))

    def order_triggers(self, view, triggers):
        return self._guard("order_triggers", lambda: self.inner.order_triggers(view, triggers))


@pytest.mark.parametrize("ai", every_ai("arena"))
def test_ai_decisions_leave_the_state_untouched(ai: str) -> None:
    """Every AI in the registry, on a live match: byte-identical state around each choose_action and
    choose_tension (pickle), and the finer snapshot of CheckingController(check_untouched=True)."""
    from krosbalance.engine.match import run_to_end

    for seed, board in ((3, "arena-elemental"),):
        state, controllers, views = prepare_match(*TEAMS, ai=ai, seed=seed, board=board)
        guards = tuple(_PickleGuard(c, state) for c in controllers)
        run_to_end(state, guards, views)
        total = guards[0].decisions + guards[1].decisions
        assert total["choose_action"] > 10 and total["choose_tension"] > 2
        result = run_checked_match(*TEAMS, board, seed + 100, ai=ai, check_untouched=True)
        assert result.end_reason in END_REASONS


@pytest.mark.parametrize("ai", every_ai("arena"))
def test_every_ai_passes_a_checked_match_on_every_board(ai: str) -> None:
    factory = get_ai(ai)
    assert callable(factory)
    for k, board in enumerate(BOARDS):
        result = run_checked_match(*TEAMS, board, 500 + k, ai=(ai, "random"))
        assert result.end_reason in END_REASONS and result.turns <= TURN_LIMIT
