"""The Blast AIs: each heuristic personality beats the random AI in at least 95% of 400 paired
matches (``make battery``; a slice in the default suite), and tactics puzzles for glyph play."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.registry import ai_tier, get_ai, list_ais
from krosbalance.content.registry import default_registry, list_boards
from krosbalance.engine.dice import DODGE
from krosbalance.engine.legal import CAST, MOVE, Action
from krosbalance.engine.view import MatchView
from krosbalance.play import play_match
from krosbalance.rulesets.blast.actions import USE_BONUS, USE_FAVOR
from krosbalance.testing.blast import BlastScenario
from krosbalance.testing.conformance import all_legal_teams, battery_plan

HEURISTICS = [name for name in list_ais("blast") if ai_tier(name) == "heuristic"]
POOL = default_registry().list_characters("krosmaster", game="blast")
TEAMS = all_legal_teams(POOL, ruleset="blast")
BOARDS = list_boards("blast")


def paired_wins(ai: str, deals: int, options: dict[str, object] | None = None) -> tuple[int, int]:
    """Wins of ``ai`` over the random AI in ``2 * deals`` matches: each deal (teams, board, seed)
    played once from each side."""
    wins = 0
    for k in range(deals):
        board = BOARDS[k % len(BOARDS)]
        team0, team1, seed = battery_plan(board, 1, start=k, teams=TEAMS)[0]
        for side in (0, 1):
            ais = (ai, "random") if side == 0 else ("random", ai)
            result = play_match(
                team0, team1, board=board, ai=ais, seed=seed, ruleset="blast", options=options
            )
            wins += result.winner == side
    return wins, 2 * deals


def test_there_are_two_blast_personalities() -> None:
    assert len(HEURISTICS) >= 2
    assert "random" in list_ais("blast")


@pytest.mark.parametrize("ai", HEURISTICS)
def test_blast_ai_beats_random_slice(ai: str) -> None:
    wins, n = paired_wins(ai, 8, {"challenges": ["random"]})
    assert wins >= n - 1, f"{ai} won {wins} of {n}"


@pytest.mark.slow
@pytest.mark.parametrize("ai", HEURISTICS)
def test_blast_ai_beats_random_in_95_percent_of_400_paired_matches(ai: str) -> None:
    wins, n = paired_wins(ai, 200)
    assert wins >= 0.95 * n, f"{ai} won {wins} of {n}"


# ------------------------------------------------------------------------------- tactics puzzles


def decide(sc: BlastScenario, ai: str, side: int = 0) -> Action:
    view = MatchView(sc.state, side)
    action = get_ai(ai)(np.random.default_rng(0)).choose_action(view)
    assert view.is_legal(action)
    return action


@pytest.mark.parametrize("ai", HEURISTICS)
def test_puzzle_walk_onto_the_glyph_in_reach(ai: str) -> None:
    sc = BlastScenario(". . G . .\n. . . . .\n. . . . .\n. . . . .", options={"tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(4, 3))
    sc.activate(sam)
    assert decide(sc, ai) == sc.move_action((1, 0))


def test_puzzle_glyph_player_flips_an_enemy_glyph_rather_than_a_neutral_one() -> None:
    board = "G . . . G\n. . . . .\n. . . . .\n. . . . ."
    sc = BlastScenario(board, options={"tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(2, 0))
    sc.add("gege_ronimo", side=1, at=(4, 3))
    sc.own(1, (4, 0))
    sc.activate(sam)
    assert decide(sc, "blast_glyph") == sc.move_action((3, 0))


@pytest.mark.parametrize("ai", HEURISTICS)
def test_puzzle_in_a_tackle_zone_cast_before_walking(ai: str) -> None:
    """R-B36: a tackled Combatant loses its AP, so an attack available now comes first."""
    sc = BlastScenario(". . . G .\n. . . . .\n. . . . .", dice=[DODGE])
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(2, 1))
    sc.activate(sam)
    action = decide(sc, ai)
    assert action.kind == CAST and action.target == sc.cell(2, 1)


@pytest.mark.parametrize("ai", HEURISTICS)
def test_puzzle_take_the_ko_that_ends_the_game(ai: str) -> None:
    """R-B2: one Krosmaster KO of two wins; the KO beats a glyph capture."""
    sc = BlastScenario("G . . . .\n. . . . .\n. . . . .", options={"tackle_zone": False})
    gege = sc.add("gege_ronimo", side=0, at=(1, 1))
    sc.add("martine_gale", side=1, at=(4, 1), injuries=13)  # 1 HP left: Pression hits 1-3 wounds
    sc.add("sam_sram", side=1, at=(4, 2))
    sc.activate(gege)
    action = decide(sc, ai)
    assert action.kind == CAST and action.target == sc.cell(4, 1)


def test_puzzle_last_turn_the_glyph_race_wins_over_damage() -> None:
    """R-B3: in the last player turn, one more glyph cell turns a tie into a win."""
    board = "G . . . G\n. . . . .\n. . . . ."
    sc = BlastScenario(board, options={"tackle_zone": False}, turn=10)
    sam = sc.add("sam_sram", side=0, at=(2, 0))
    sc.add("gege_ronimo", side=1, at=(2, 2))
    sc.own(1, (4, 0))
    sc.activate(sam)
    action = decide(sc, "blast_glyph")
    assert action.kind == MOVE and action.target in (sc.cell(1, 0), sc.cell(3, 0))


@pytest.mark.parametrize("ai", HEURISTICS)
def test_puzzle_a_free_brasier_before_the_damaging_spell(ai: str) -> None:
    sc = BlastScenario(
        ". . . . .\n. . . . .", favors=("brasier", None), dofus=0, options={"tackle_zone": False}
    )
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sc.add("sam_sram", side=1, at=(3, 0))
    sc.activate(gege)
    action = decide(sc, ai)
    assert action.kind == USE_FAVOR


@pytest.mark.parametrize("ai", HEURISTICS)
def test_puzzle_colere_de_iop_when_it_hits_enemies_only(ai: str) -> None:
    board = "G G G G G\n. . . . .\n. . . . .\n. . . . ."
    sc = BlastScenario(board, challenges=["grande_melee_de_iop"], options={"tackle_zone": False})
    gege = sc.add("gege_ronimo", side=0, at=(2, 2))
    sc.add("martine_gale", side=1, at=(2, 3), injuries=12)
    sc.add("sam_sram", side=1, at=(0, 2), injuries=10)
    sc.own(0, *[(x, 0) for x in range(5)])
    sc.activate(gege)
    action = decide(sc, ai)
    assert action.kind == USE_BONUS  # 2 damage KOs both enemies in reach
