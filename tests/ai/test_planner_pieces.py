"""Pieces of the heuristic planner on hand-made positions: the economy at the score, the safest walk,
where Retreat Shot lands, once-per-game spells, engagement of melee figures, bombs about to blast."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai import enemy_threat, scoring
from krosbalance.ai.cast_values import attack_value
from krosbalance.ai.casts import landing
from krosbalance.ai.context import _Context, is_melee
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.positions import economy_plan, position_value
from krosbalance.ai.walks import route, walk_plan
from krosbalance.ai.weights import Weights
from krosbalance.engine.view import MatchView
from krosbalance.testing.scenario import Scenario

OPEN7 = "\n".join([" ".join(["."] * 7)] * 7)


def _context(sc: Scenario, fighter, weights: Weights | None = None) -> _Context:  # type: ignore[no-untyped-def]
    sc.activate(fighter)
    view = MatchView(sc.state, fighter.side)
    return _Context(
        view,
        view.active,
        enemy_threat.ThreatMap.of_values(enemy_threat.threat_map(view, fighter.side)),
        weights or Weights(),
    )  # type: ignore[arg-type]


def test_r_a50_every_affordable_gg_counts_at_the_score_it_is_bought_at() -> None:
    sc = Scenario(OPEN7.replace(". . . . . . .", ". . . D . . .", 1))
    king = sc.add("king_of_the_gobballs", 0, (3, 1))
    sc.add("bill_tell", 1, (3, 5))
    sc.arena.gg[:] = [2, 3]
    sc.arena.wild_gg = 0
    sc.arena.kamas[:] = [24, 0]
    ctx = _context(sc, king)
    demon = sc.cell(3, 0)
    one, _ = economy_plan(Weights(), ctx, demon, 1)
    two, _ = economy_plan(Weights(), ctx, demon, 2)
    three, _ = economy_plan(Weights(), ctx, demon, 3)
    assert two > one > 0
    assert three == pytest.approx(two + Weights().kama)  # 24 kamas buy two GG; the last AP picks a kama
    assert two >= scoring.GG_UNIT * scoring.score_swing((2, 3), 0, 0, 2)


def test_r_a49_kamas_on_the_way_count_and_are_picked_before_the_purchase() -> None:
    sc = Scenario(". 1 D . .\n. . . . .")
    oscar = sc.add("oscar_kass", 0, (0, 0))
    sc.add("bill_tell", 1, (4, 1))
    sc.arena.board_kamas[sc.cell(2, 0)] = 0
    sc.arena.kamas[:] = [9, 0]
    ctx = _context(sc, oscar)
    with_kama, picks = economy_plan(Weights(), ctx, sc.cell(2, 0), 6, on_way=1)
    without, _ = economy_plan(Weights(), ctx, sc.cell(2, 0), 6, on_way=0)
    assert picks == 1 and with_kama > without + scoring.GG_UNIT


def test_r_a16_of_two_shortest_walks_the_one_away_from_lock_is_taken() -> None:
    sc = Scenario(". . . .\n. . . .\n. . . .")
    oscar = sc.add("oscar_kass", 0, (0, 0))
    sc.add("king_of_the_gobballs", 1, (2, 0))  # Lock: next to (1, 0)
    ctx = _context(sc, oscar)
    reach = ctx.view.reachable_cells(ctx.me)
    risks, _, parent = walk_plan(ctx, reach)
    goal = sc.cell(1, 1)
    assert risks[goal] == 0.0
    assert route(parent, oscar.cell, goal) == [sc.cell(0, 1), goal]
    assert ctx.block(sc.cell(1, 0)) == pytest.approx(1 / 3)  # the other walk: 2 Lock dice vs 1 Dodge


def test_r_a83_retreat_shot_plans_from_where_the_caster_lands() -> None:
    sc = Scenario(". . . . . .\n. . . . . .")
    aboum = sc.add("bad_aboum", 0, (2, 0))
    sc.add("oscar_kass", 1, (3, 0))
    ctx = _context(sc, aboum)
    shot = next(s for s in aboum.spells if any(e.kind == "retreat" for e in s.effects))
    assert landing(ctx, shot, aboum.cell, sc.cell(3, 0)) == sc.cell(1, 0)
    sc.add("tofu", 0, (1, 0))
    ctx = _context(sc, aboum)
    assert landing(ctx, shot, aboum.cell, sc.cell(3, 0)) == aboum.cell  # blocked: stays (R-A87)


def test_r_a66_a_once_per_game_spell_is_not_spent_on_a_tofu() -> None:
    sc = Scenario(OPEN7)
    kassius = sc.add("kassius_kaos", 0, (0, 3))
    queen = sc.add("queen_of_the_tofus", 1, (3, 0))
    tofu = sc.add("tofu", 1, (2, 3), summoner=queen)
    ctx = _context(sc, kassius)
    puff = next(s for s in kassius.spells if s.limit == "game")
    views = {f.uid: f for f in ctx.view.fighters()}
    assert attack_value(Weights(), ctx, puff, views[tofu.uid], kassius.cell, {}, []) < 0
    assert attack_value(Weights(), ctx, puff, views[queen.uid], kassius.cell, {}, []) > 0


def test_melee_figures_value_pins_and_ranged_ones_do_not() -> None:
    sc = Scenario(OPEN7)
    king = sc.add("king_of_the_gobballs", 0, (0, 3))
    bill = sc.add("bill_tell", 0, (0, 6))
    sc.add("bill_tell", 1, (4, 3))
    view = MatchView(sc.state, 0)
    assert is_melee(view.piece_at(king.cell)) and not is_melee(view.piece_at(bill.cell))  # type: ignore[arg-type]
    weights = KiterAI(np.random.default_rng(0)).weights  # an instance's: compiled classes hold no value
    ctx = _context(sc, king, weights)
    assert ctx.engagement(sc.cell(3, 3)) > 0 and ctx.engagement(sc.cell(2, 3)) == 0
    assert ctx.safety == pytest.approx(weights.melee_safety)


def test_r_a112_ending_next_to_a_bomb_about_to_go_off_costs_its_blast() -> None:
    sc = Scenario(OPEN7)
    anna = sc.add("anna_tommy", 0, (3, 3))
    aboum = sc.add("bad_aboum", 0, (0, 0))
    sc.add("water_bomb", 0, (3, 2), summoner=aboum)
    sc.add("kassius_kaos", 1, (6, 6))
    ctx = _context(sc, anna)
    assert ctx.blast_danger(sc.cell(2, 1)) > 0 and ctx.blast_danger(sc.cell(3, 5)) == 0
    w = Weights()
    assert position_value(w, ctx, sc.cell(4, 3)) < position_value(w, ctx, sc.cell(4, 4)) + ctx.blast_danger(
        sc.cell(4, 3)
    )


def test_team_target_marks_the_archer_the_team_can_ko_together() -> None:
    from krosbalance.ai.planner import team_target

    sc = Scenario(OPEN7)
    anna = sc.add("anna_tommy", 0, (2, 1))
    sc.add("king_of_the_gobballs", 0, (4, 3))
    bill = sc.add("bill_tell", 1, (6, 1), injuries=3)
    sc.add("kassius_kaos", 1, (0, 6))
    sc.activate(anna)
    uid, worth = team_target(MatchView(sc.state, 0), {anna.uid})
    assert uid == bill.uid and worth > 0


def test_lookahead_candidates_are_distinct_and_best_first() -> None:
    sc = Scenario(OPEN7)
    bill = sc.add("bill_tell", 0, (0, 0))
    sc.add("oscar_kass", 1, (5, 5))
    sc.activate(bill)
    ai = KiterAI(np.random.default_rng(0))
    view = MatchView(sc.state, 0)
    ai.begin(view, view.active)  # type: ignore[arg-type]
    plans = ai.candidates(view, view.active, 4)  # type: ignore[arg-type]
    assert 1 < len(plans) <= 4
    assert [p.value for p in plans] == sorted((p.value for p in plans), reverse=True)

    def end_cell(plan) -> int:  # type: ignore[no-untyped-def]
        gotos = [s.arg for s in plan.steps if s.kind == "goto"]
        return gotos[-1] if gotos else bill.cell

    signatures = {(tuple(s for s in p.steps if s.kind == "cast"), end_cell(p)) for p in plans}
    assert len(signatures) == len(plans)


def _ally_swaps() -> dict[str, set[str]]:
    """Box Krosmasters with a spell that swaps places with an ally (Transposition), and those spells'
    ids, from the registry."""
    from krosbalance.content.registry import default_registry, list_characters

    registry = default_registry()
    found: dict[str, set[str]] = {}
    for name in list_characters(set="arena-box"):
        for s in registry.load_character(name).spells:
            if s.target == "ally" and any(e.kind == "swap_places" for e in s.effects):
                found.setdefault(name, set()).add(s.id)
    return found


@pytest.mark.parametrize("ai", ["focus_fire", "kiter", "objective"])
def test_r_a111_a_swap_with_an_ally_is_never_undone_in_the_same_activation(ai: str) -> None:
    """Swapping back with the same ally restores the position for the AP of two casts: a competent
    player never does it. (The planner once swapped Anna Tommy back and forth six times in a turn.)"""
    from krosbalance.content.registry import list_characters
    from krosbalance.engine.events import CharacterTurnStarted, Moved, SpellCast
    from krosbalance.play import play_match
    from krosbalance.testing.conformance import all_legal_teams

    found = _ally_swaps()
    assert found, "the box has a Krosmaster with an ally swap (Transposition)"
    swappers, swap_spells = set(found), set().union(*found.values())
    box = list_characters(set="arena-box")
    teams = [t for t in all_legal_teams(box) if swappers & set(t) and len(t) == 4]
    rng = np.random.default_rng(11)
    swaps = 0
    for i in rng.choice(len(teams), size=min(40, len(teams)), replace=False):
        team = teams[int(i)]
        others = [c for c in box if c not in team][:4]
        result = play_match(list(team), others, ai=ai, seed=int(i), record="full")
        last: dict[int, tuple[int, int]] = {}  # uid -> (origin, destination) of its ally swap this activation
        ally_swap = False  # the last cast was an ally swap (an attack that swaps, Assault, may repeat)
        for event in result.events:
            if isinstance(event, CharacterTurnStarted):
                last = {}
            elif isinstance(event, SpellCast):
                ally_swap = event.spell in swap_spells
            elif isinstance(event, Moved) and event.how == "swap" and ally_swap:
                swaps += 1
                before = last.get(event.uid)
                assert before is None or (event.origin, event.destination) != (before[1], before[0]), (
                    f"{ai}, seed {int(i)}: #{event.uid} swapped back {event.origin} -> {event.destination}"
                )
                last[event.uid] = (event.origin, event.destination)
    assert swaps > 0  # the test exercised swaps
