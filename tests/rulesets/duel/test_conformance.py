"""The duel AIs through the conformance kit: invariants before every decision, every match ends, no
decision changes the match, and the same seed gives the same event log — one figure each and two
each (R-D36-R-D42), plain and tactical drafts; plus the AIs' duel decisions and what a player may
know (a copy made for a side hides the tokens it has not seen)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from krosbalance.ai.registry import ai_tier, get_ai, list_ais
from krosbalance.content.registry import list_boards
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.view import MatchView
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.duel.actions import PICK_TOKEN
from krosbalance.rulesets.duel.state import duel_state
from krosbalance.rulesets.duel.turn import END_REASONS, DraftChoice
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.conformance import first_difference, run_checked_match
from krosbalance.testing.duel import DuelScenario, duel_pack, duel_registry
from tests.rulesets.duel.conftest import krosmaster_of_level, spec

DUEL_AIS = list_ais("duel")
DUEL_BOARDS = list_boards("duel")
TURN_LIMIT = get_ruleset("duel").options.turn_limit


def teams(figures: int) -> tuple[list[str], list[str]]:
    """One Duel Pack figure each, or each adds a box Krosmaster (two figures)."""
    a, b = duel_pack()[0], duel_pack()[-1]
    if figures == 1:
        return [a], [b]
    low = krosmaster_of_level(3)
    other = krosmaster_of_level(3, exclude=[low])
    return [a, low], [b, other]


def check(team0: list[str], team1: list[str], board: str, seed: int, ai: str, options: dict) -> None:
    result = run_checked_match(
        team0, team1, board, seed, ai=ai, ruleset="duel", options=options, record="full", check_untouched=True
    )
    where = f"{ai} {board} seed {seed} {options}"
    assert result.end_reason in END_REASONS and 1 <= result.turns <= TURN_LIMIT, where
    assert result.events[-1].kind == "match_ended", where
    again = play_match(
        team0, team1, board=board, seed=seed, ai=ai, ruleset="duel", options=options, record="full"
    )
    assert again.events == result.events, f"{where}: {first_difference(again.events, result.events)}"
    assert result.values["duel_level"] == 2 + max(
        sum(spec(n).level for n in team0), sum(spec(n).level for n in team1)
    )


@pytest.mark.parametrize("ai", DUEL_AIS)
@pytest.mark.parametrize("figures", [1, 2])
@pytest.mark.parametrize("board", DUEL_BOARDS)
def test_conformance_of_every_duel_ai(ai: str, figures: int, board: str) -> None:
    team0, team1 = teams(figures)
    search = ai_tier(ai) == "search"  # its reference plays a game turn in seconds: one seed, 3 turns,
    for seed in range(1 if search else 4):  # one way round (each team on each seat over the cases)
        options = {"figures": figures, "draft": ("plain", "tactical")[seed % 2]}
        if search:
            options["turn_limit"] = 3
        swapped = search and (DUEL_BOARDS.index(board) + figures) % 2 == 1
        if not swapped:
            check(team0, team1, board, seed, ai, options)
        if not search or swapped:
            check(team1, team0, board, seed + 100, ai, options)


def test_the_duel_ais_include_random_and_a_heuristic() -> None:
    assert "random" in DUEL_AIS
    assert any(ai_tier(name) == "heuristic" for name in DUEL_AIS)


def test_determinism_same_seed_same_log_other_seed_other_log() -> None:
    team0, team1 = teams(1)
    runs = [
        play_match(
            team0,
            team1,
            board=DUEL_BOARDS[0],
            seed=seed,
            ai=("duel_brawler", "random"),
            ruleset="duel",
            record="full",
        )
        for seed in (5, 5, 6)
    ]
    assert runs[0].events == runs[1].events and runs[0].winner == runs[1].winner
    assert runs[0].events != runs[2].events


def test_the_ruleset_pickles_and_describes_its_options() -> None:
    rules = get_ruleset("duel", {"figures": 2, "draft": "tactical"})
    clone = pickle.loads(pickle.dumps(rules))
    assert clone.describe() == rules.describe() == "duel[figures=2, draft=tactical]"


def test_a_copy_for_one_side_hides_the_tokens_it_has_not_seen() -> None:
    team0, team1 = teams(1)
    state, _, views = prepare_match(
        team0, team1, board=DUEL_BOARDS[0], ruleset="duel", seed=3, registry=duel_registry()
    )
    ds = duel_state(state)
    enemy = state.timeline[1][0]
    copy = views[0].clone_state(ScriptedDice([]))
    cds = duel_state(copy)
    mine = state.timeline[0][0].uid
    assert cds.hidden[mine] == ds.hidden[mine]  # its own tokens it knows
    assert [t.level for t in cds.hidden[enemy.uid]] == [t.level for t in ds.hidden[enemy.uid]]
    assert {c: t.level for c, t in cds.on_cells.items()} == {c: t.level for c, t in ds.on_cells.items()}
    seen = {t.id for t in ds.hidden[mine]}
    assert not {t.id for t in cds.hidden[enemy.uid]} & seen
    assert sorted(t.id for t in cds.all_tokens()) == sorted(t.id for t in ds.token_set.tokens)
    view = get_ruleset("duel").ruleset_view(state, 0)
    assert view.own_hidden(views[0].fighter(enemy.uid)) == []
    assert view.hidden_levels(views[0].fighter(enemy.uid)) == [t.level for t in ds.hidden[enemy.uid]]


# ---------------------------------------------------------------------------------------- the AI
BOARD = ". X . . . .\n. . . . . .\n. . . . . ."


def brawler():  # noqa: ANN201
    return get_ai("duel_brawler")(np.random.default_rng(0))


def test_duel_brawler_picks_up_a_token_it_stands_on_when_no_enemy_is_in_reach() -> None:
    a, b = duel_pack()[0], duel_pack()[-1]
    sc = DuelScenario(BOARD)
    me = sc.add(a, side=0, at=(1, 0))
    sc.add(b, side=1, at=(5, 2))
    sc.put_token(sc.ds.piles[0][0].id, (1, 0))
    sc.activate(me)
    me.mp = 0  # nothing to reach: the AP buy the token or nothing
    action = brawler().choose_action(MatchView(sc.state, 0))
    assert action.kind == PICK_TOKEN


def test_duel_brawler_reveals_its_best_token_and_drafts_the_highest_level_that_fits() -> None:
    a, b = duel_pack()[0], duel_pack()[-1]
    sc = DuelScenario(BOARD)
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(5, 2))
    ranked = sorted(sc.ds.token_set.tokens, key=lambda t: (t.mp + t.ap + t.hp / 2, t.id))
    weak, strong = ranked[0], ranked[-1]
    sc.give_token(me, weak.id)
    sc.give_token(me, strong.id)
    view = MatchView(sc.state, 0)
    from krosbalance.rulesets.duel.turn import reveal_choices

    choices = reveal_choices(sc.state, sc.ds, 0)
    assert choices[brawler().choose_reveal(view, choices)].token == strong
    draft = [DraftChoice(1), DraftChoice(2), DraftChoice(3)]
    assert draft[brawler().choose_duel_draft(view, draft, 2)].level == 2


def test_duel_brawler_beats_random() -> None:
    team0, team1 = teams(1)
    wins = 0
    for seed in range(10):
        for side, pair in ((0, ("duel_brawler", "random")), (1, ("random", "duel_brawler"))):
            result = play_match(team0, team1, board=DUEL_BOARDS[0], seed=seed, ai=pair, ruleset="duel")
            wins += result.winner == side
    assert wins >= 15


@pytest.mark.parametrize("name", duel_registry().list_characters("krosmaster", game="arena"))
def test_r_d14_every_arena_krosmaster_can_duel(name: str) -> None:
    """Any Krosmaster Arena figure may be chosen (R-D14): box cards, summoners included, play checked
    duels against a Duel Pack figure with every duel AI (a search AI for 2 game turns: its reference
    plays a game turn in seconds; the heuristics play every figure's whole duel)."""
    rival = duel_pack()[0]
    for k, ai in enumerate(DUEL_AIS):
        options = {"turn_limit": 2} if ai_tier(ai) == "search" else {}
        check([name], [rival], DUEL_BOARDS[k % len(DUEL_BOARDS)], 40 + k, ai, options)
