"""Unit tests of the evaluation pieces in krosbalance.ai.scoring, on tiny hand-made positions."""

from __future__ import annotations

import pytest

from krosbalance.ai import board_masks, enemy_threat, scoring
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.arena.view import arena_view
from krosbalance.testing.scenario import Scenario

ROW7 = ". . . . . . ."
OPEN5 = """
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""


def test_hit_odds_one_damage_one_critical_die_one_armour_die() -> None:
    # damage = 1 + C - A with C ~ B(1, 1/2), A ~ B(1, 1/3): 1 (1/3), 0 (1/6), 2 (1/3), 1 (1/6)
    expected, ko = scoring.hit_odds(1, 1, 1, 0, 99)
    assert expected == pytest.approx(7 / 6)
    assert ko == 0.0
    expected, ko = scoring.hit_odds(1, 1, 1, 0, 2)
    assert ko == pytest.approx(1 / 3)
    assert expected == pytest.approx(7 / 6)


def test_hit_odds_caps_at_remaining_hp_and_applies_resistance() -> None:
    expected, ko = scoring.hit_odds(3, 2, 0, 0, 1)
    assert (expected, ko) == (pytest.approx(1.0), pytest.approx(1.0))
    # resistance -1: a 1-damage hit needs a critical that the armour die does not cancel
    expected, _ = scoring.hit_odds(1, 1, 1, 1, 99)
    assert expected == pytest.approx(1 / 3)


def test_gg_swing_takes_the_wild_gg_first_and_spots_a_win() -> None:
    sc = Scenario(ROW7)
    sc.add("anna_tommy", 0, (0, 0))
    sc.add("bill_tell", 1, (6, 0))
    view = MatchView(sc.state, 0)
    assert arena_view(view).gg == (6, 6) and arena_view(view).wild_gg == 1
    # wild GG + 2 taken: 6-6 becomes 9-4
    worth = scoring.gg_worth
    assert scoring.gg_swing(view, 0, 3) == pytest.approx(worth(9) - worth(4))
    assert worth(9) - worth(4) > 5.0  # more than the 5 GG moved: the opponent nears zero
    sc.arena.wild_gg = 0
    sc.arena.gg[1] = 3
    assert scoring.gg_swing(view, 0, 3) == scoring.WIN_VALUE
    sc.arena.gg[1] = 4
    assert scoring.gg_swing(view, 0, 3) == pytest.approx(worth(9) - worth(1) - (worth(6) - worth(4)))


def test_gg_worth_weighs_the_last_gg_most() -> None:
    gaps = [scoring.gg_worth(g) - scoring.gg_worth(g - 1) for g in range(1, 9)]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] > 1.0
    # buying 2 GG at 2-3 (wild gone) is worth more than the 4 GG of swing it makes
    assert scoring.score_swing((2, 3), 0, 0, 2) > 4.0
    assert scoring.score_after((2, 3), 0, 0, 2) == ((4, 1), 0)
    assert scoring.score_after((6, 6), 1, 1, 3) == ((4, 9), 0)


def test_kill_value_of_a_krosmaster_and_of_a_summon() -> None:
    sc = Scenario(ROW7)
    anna = sc.add("anna_tommy", 0, (0, 0))
    queen = sc.add("queen_of_the_tofus", 1, (6, 0))
    tofu = sc.add("tofu", 1, (5, 0), summoner=queen)
    view = MatchView(sc.state, 0)
    by_uid = {f.uid: f for f in view.fighters()}
    swing = scoring.gg_worth(9) - scoring.gg_worth(4)
    assert scoring.kill_value(view, by_uid[queen.uid]) == pytest.approx(scoring.GG_UNIT * swing)
    assert scoring.kill_value(view, by_uid[tofu.uid]) == scoring.SUMMON_WORTH["tofu"]
    assert scoring.kill_value(view, by_uid[anna.uid]) == pytest.approx(scoring.GG_UNIT * swing)


def test_threat_map_melee_enemy_reaches_mp_plus_one() -> None:
    sc = Scenario(ROW7)
    sc.add("anna_tommy", 0, (6, 0))
    sc.add("king_of_the_gobballs", 1, (0, 0))
    threat = enemy_threat.threat_map(MatchView(sc.state, 0), 0)
    two_gobbolobs = 2 * scoring.hit_odds(1, 1, 1, 0, 99)[0]  # 7 AP // 3 AP = 2 casts
    assert threat[1:5] == [pytest.approx(two_gobbolobs)] * 4  # walk 3 then hit the next cell
    assert threat[5] == 0.0 and threat[6] == 0.0


def test_threat_map_sees_distant_shot_and_the_trees() -> None:
    # Bill Tell hemmed in by bushes: 8 cells plainly, 11 with Distant Shot (+3, one arrow left)
    sc = Scenario(". . . . . . . . . . . . .\n. . . . . . . . . . . B .\nT . . . . . . . . . B . B")
    sc.add("bill_tell", 1, (11, 2))
    sc.add("anna_tommy", 0, (0, 0))
    threat = enemy_threat.threat_map(MatchView(sc.state, 0), 0)
    one_arrow = enemy_threat.average_hit(sc.state.by_cell[sc.cell(11, 2)].spells[0], False)
    assert threat[sc.cell(3, 2)] == pytest.approx(2 * one_arrow)  # 8 cells: two arrows
    assert threat[sc.cell(1, 2)] == pytest.approx(one_arrow)  # 10 cells: Distant Shot, one arrow
    assert threat[sc.cell(0, 1)] == 0.0  # 12 cells: out of reach
    sc2 = Scenario(". . . . .\n. . T . .\n. . . . .")
    sc2.add("bill_tell", 1, (0, 1))
    sc2.add("anna_tommy", 0, (4, 0))
    behind = enemy_threat.threat_map(MatchView(sc2.state, 0), 0)
    assert behind[sc2.cell(4, 1)] > 0  # Bill walks round the tree


def test_threat_map_counts_an_unused_once_per_game_attack_once() -> None:
    sc = Scenario(ROW7)
    kassius = sc.add("kassius_kaos", 1, (0, 0))
    sc.add("anna_tommy", 0, (6, 0))
    view = MatchView(sc.state, 0)
    puff = next(s for s in kassius.spells if s.limit == "game")
    sting = next(s for s in kassius.spells if s.kind == "attack" and s.limit != "game")
    with_puff = enemy_threat.threat_map(view, 0)
    # walk 3 then Puff (line 1-3) and a Sting with the AP left (1 + 5 = 6 AP)
    expected = enemy_threat.average_hit(puff, True) + enemy_threat.average_hit(sting, True)
    assert with_puff[sc.cell(4, 0)] == pytest.approx(expected)
    kassius.game_uses.add(puff.id)
    assert enemy_threat.threat_map(view, 0)[sc.cell(4, 0)] == pytest.approx(
        enemy_threat.average_hit(sting, True)
    )


def test_threat_map_ranged_enemy_and_allies_do_not_threaten() -> None:
    sc = Scenario(ROW7)
    sc.add("bill_tell", 1, (0, 0))
    sc.add("anna_tommy", 0, (6, 0))
    threat = enemy_threat.threat_map(MatchView(sc.state, 0), 0)
    assert all(t > 0 for t in threat)  # 3 MP + range 3-8 covers the whole row
    assert enemy_threat.threat_map(MatchView(sc.state, 1), 1) != threat  # Anna's threat on Bill's side
    assert max(enemy_threat.threat_map(MatchView(sc.state, 1), 1)) > 0


def test_block_chance_follows_r_a16() -> None:
    sc = Scenario(OPEN5)
    oscar = sc.add("oscar_kass", 0, (2, 2))
    sc.add("king_of_the_gobballs", 1, (2, 1))  # Lock: 2 dice
    bill = sc.add("bill_tell", 0, (0, 0))
    view = MatchView(sc.state, 0)
    views = {f.uid: f for f in view.fighters()}
    assert enemy_threat.block_chance(view, views[oscar.uid], oscar.cell) == pytest.approx(1 / 3)
    assert enemy_threat.block_chance(view, views[bill.uid], bill.cell) == 0.0
    # Bill has Dodge (2 dice): against 2 Lock dice on the same cell as Oscar -> 7/36
    assert enemy_threat.block_chance(view, views[bill.uid], oscar.cell) == pytest.approx(7 / 36)


def test_explosion_value_counts_enemies_for_and_allies_against() -> None:
    sc = Scenario(OPEN5)
    sc.add("bad_aboum", 0, (0, 4))
    sc.add("oscar_kass", 1, (1, 1))
    sc.add("lil_healey", 1, (3, 3))
    view = MatchView(sc.state, 0)
    centre = sc.cell(2, 2)
    two_enemies = scoring.explosion_value(view, centre, 0)
    assert two_enemies > 0
    assert scoring.explosion_value(view, centre, 1) == pytest.approx(-two_enemies)
    sc.add("anna_tommy", 0, (2, 1))
    assert scoring.explosion_value(MatchView(sc.state, 0), centre, 0) < two_enemies


def test_geometry_masks() -> None:
    sc = Scenario(OPEN5)
    geo = board_masks.geometry(sc.board)
    assert geo is board_masks.geometry(sc.board)
    centre = sc.cell(2, 2)
    assert sorted(board_masks.iter_bits(geo.ring_mask(centre, 1, 1))) == sorted(sc.board.neighbours[centre])
    assert len(board_masks.iter_bits(geo.ring_mask(centre, 0, 2))) == 13
    line = board_masks.iter_bits(geo.ring_mask(centre, 1, 2) & geo.line_mask(centre))
    assert len(line) == 8 and all(sc.board.aligned(centre, c) for c in line)


def test_sight_blockers_and_obstacles_match_the_engine() -> None:
    sc = Scenario(OPEN5)
    queen = sc.add("queen_of_the_tofus", 0, (0, 0))
    sc.add("tofu", 0, (1, 0), summoner=queen)
    sc.add("bill_tell", 1, (4, 4))
    view = MatchView(sc.state, 0)
    assert board_masks.sight_blockers(view) == sc.state.sight_blockers
    assert board_masks.obstacles(view) == sc.state.obstacles


def _naive_threat(view: MatchView, side: int) -> list[float]:
    """threat_map the slow way: every enemy walks (BFS), every origin ORs the cells its spell reaches
    (range plus the option's bonus plus a crate's +1) that it sees past the trees (the board's own
    line-of-sight test), and each cell adds up its enemies' best attacks one by one."""
    board = view.board
    geo = board_masks.geometry(board)
    total = [0.0] * board.n_cells
    for enemy in view.fighters(1 - side):
        if not enemy.is_character:
            continue
        options = enemy_threat._attack_options(enemy.spells, enemy.base_ap, enemy.has("critical"))
        ready = enemy_threat._once_per_game_ready(enemy)
        options = sorted(options + enemy_threat._once_options(enemy, ready), key=lambda o: -o[0])
        reach = view.reachable_cells(enemy, enemy.base_mp)
        best: dict[int, float] = {}
        for worth, spell, bonus in options:
            for origin in reach:
                perch = (view.crates >> origin) & 1
                for c in board_masks.iter_bits(geo.spell_mask(origin, spell, bonus + perch)):
                    if spell.needs_los and not board.has_los(origin, c, board.trees):
                        continue
                    best.setdefault(c, worth)
        for c, worth in best.items():
            total[c] += worth
    return total


@pytest.mark.parametrize("seed", range(6))
def test_threat_map_equals_the_naive_sum_with_and_without_cache(seed: int) -> None:
    from krosbalance.play import prepare_match

    state, _, views = prepare_match(
        ["queen_of_the_tofus", "anna_tommy", "bill_tell", "lil_healey"],
        ["king_of_the_gobballs", "oscar_kass", "kassius_kaos", "bad_aboum"],
        board=("arena-elemental", "arena-pit", "bonta-1")[seed % 3],
        seed=seed,
    )
    cache = enemy_threat.ThreatCache()
    for side in (0, 1):
        expected = _naive_threat(views[side], side)
        assert enemy_threat.threat_map(views[side], side) == expected
        assert enemy_threat.threat_map(views[side], side, cache) == expected
        assert enemy_threat.threat_map(views[side], side, cache) == expected  # from the cache


def test_walk_mask_and_reach_union_match_bfs_and_spell_masks() -> None:
    sc = Scenario(OPEN5)
    sc.add("bill_tell", 0, (2, 2))
    sc.add("oscar_kass", 1, (2, 1))
    sc.add("anna_tommy", 1, (1, 2))
    view = MatchView(sc.state, 0)
    geo = board_masks.geometry(sc.board)
    bill = next(f for f in view.fighters(0))
    for mp in range(5):
        walk = geo.walk_mask(bill.cell, mp, view.obstacles)
        assert sorted(board_masks.iter_bits(walk)) == sorted(view.reachable_cells(bill, mp))
        for spell in bill.spells:
            expected = 0
            for origin in board_masks.iter_bits(walk):
                expected |= geo.spell_mask(origin, spell)
            assert geo.reach_union(walk, spell) == expected


def _or_over(table: list[int] | tuple[int, ...], origins: int) -> int:
    mask = 0
    for origin in board_masks.iter_bits(origins):
        mask |= table[origin]
    return mask


def test_origin_union_is_the_or_over_origins_and_its_rows_depend_on_the_table_alone() -> None:
    """:class:`OriginUnion` keeps each row's union by (row, the row's origins) for one table: walks
    sharing a row reuse it, and every answer equals the plain OR over the origins."""
    from krosbalance.content.registry import load_board
    from krosbalance.content.specs import SpellSpec

    board = load_board("arena-elemental")
    geo = board_masks.Geometry(board)
    bow = SpellSpec(id="bow", name="Bow", kind="attack", range_min=2, range_max=5)
    union = geo.sight_union(bow)
    assert union.table is geo.sight_table(bow)
    full = geo.full
    cells = [board.n_cells // 2, 0, board.n_cells - 1, board.width + 3]
    seen = []
    for mp in range(6):
        for start in cells:
            walk = geo.walk_mask(start, mp, board.trees | board.bushes)
            seen.append(walk)
            assert union.union(walk) == _or_over(union.table, walk)
    # the same walks again, now read from the kept rows, and walks with holes or on one cell
    for walk in seen:
        assert union.union(walk) == _or_over(union.table, walk)
        holed = walk & ~(walk & -walk)
        assert union.union(holed) == _or_over(union.table, holed)
    assert union.union(0) == 0
    assert union.union(full) == _or_over(union.table, full)


def test_sight_union_is_kept_per_table_key() -> None:
    """:meth:`Geometry.sight_union` is filed under the key of the table it ORs: a range bonus extends
    a spell that needs line of sight (a new union) but never a fixed-range or no-sight one; spells of
    one shape share one union."""
    from krosbalance.content.registry import load_board
    from krosbalance.content.specs import SpellSpec

    board = load_board("arena-elemental")
    geo = board_masks.Geometry(board)
    bow = SpellSpec(id="bow", name="Bow", kind="attack", range_min=2, range_max=5)
    twin = SpellSpec(id="twin", name="Twin", kind="attack", range_min=2, range_max=5, amount=3)
    fixed = SpellSpec(id="fixed", name="Fixed", kind="attack", range_min=2, range_max=5, fixed_range=True)
    lob = SpellSpec(
        id="lob", name="Lob", kind="attack", range_min=2, range_max=5, needs_los=False, fixed_range=True
    )
    line = SpellSpec(id="line", name="Line", kind="attack", range_min=1, range_max=4, range_type="line")
    assert geo.sight_union(twin) is geo.sight_union(bow)
    far = geo.sight_union(bow, 3)
    assert far is not geo.sight_union(bow) and far.table is geo.sight_table(bow, 3)
    assert geo.sight_union(fixed, 3) is geo.sight_union(fixed) is geo.sight_union(bow)
    assert geo.sight_union(lob, 1).table is geo.spell_table(lob)
    assert geo.sight_union(line).table is geo.sight_table(line)
    walk = geo.walk_mask(board.n_cells // 2, 3, board.trees | board.bushes)
    for spell, bonus in ((bow, 0), (bow, 3), (fixed, 3), (lob, 1), (line, 0), (line, 1)):
        union = geo.sight_union(spell, bonus)
        assert union.union(walk) == _or_over(geo.sight_table(spell, bonus), walk)
