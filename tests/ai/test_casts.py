"""The cast search from one cell (krosbalance.ai.casts): what its caches are keyed by.

Within a planning pass the search keeps values that do not depend on the casting cell (a first hit
on an untouched target, a summon's worth groups), and per call the worth of each target as a first
hit. These tests pin what those values may and may not depend on."""

from __future__ import annotations

import pytest

from krosbalance.ai import board_masks, enemy_threat
from krosbalance.ai.cast_values import attack_value, summon_groups, summon_value
from krosbalance.ai.casts import greedy_casts
from krosbalance.ai.context import _Context
from krosbalance.ai.weights import Weights
from krosbalance.content.registry import list_characters, load_character
from krosbalance.engine.view import MatchView
from krosbalance.testing.scenario import Scenario

OPEN7 = "\n".join([" ".join(["."] * 7)] * 7)
BOX = list_characters(set="arena-box")


def _tokens(character: str, kind: str) -> list[str]:
    """The tokens of this ``kind`` (creature, bomb) the character's spells put in play."""
    spells = load_character(character).spells
    return [
        s.summons
        for s in spells
        if s.kind == "summon" and s.summons and load_character(s.summons).kind == kind
    ]


def _boosted_by(character: str, token: str) -> bool:
    """Whether the character can put ``token`` in play and, in the same turn and from the same
    cell, make an attack that gains damage per adjacent ``token`` (R-A96): a ranged one (a melee
    summon cannot touch both its caster and a target the caster touches)."""
    spec = load_character(character)
    summon = min(s.ap_cost for s in spec.spells if s.summons == token)
    return any(
        e.kind == "bonus_per_adjacent_summon"
        and e.params["summon"] == token
        and summon + s.ap_cost <= spec.ap
        and s.range_type != "melee"
        and s.range_max >= 2
        for s in spec.spells
        for e in s.effects
    )


def _shoots(character: str) -> bool:
    """Whether the character has a ranged attack needing line of sight, 3 cells or more."""
    return any(
        s.kind == "attack" and s.needs_los and s.range_type != "melee" and s.range_max >= 3
        for s in load_character(character).spells
    )


#: Krosmasters whose summon spell puts a creature in play (To Fu Ti, Gobbolob...)
CREATURE_SUMMONERS = [c for c in list_characters() if _tokens(c, "creature")]
BOMBERS = [c for c in list_characters() if _tokens(c, "bomb")]
SHOOTERS = [c for c in BOX if _shoots(c) and not _tokens(c, "creature") and not _tokens(c, "bomb")]
#: (summoner, token) where the token boosts an attack the summoner can make after summoning it
BOOSTERS = [(c, t) for c in CREATURE_SUMMONERS for t in _tokens(c, "creature") if _boosted_by(c, t)]


def _context(sc: Scenario, fighter) -> _Context:  # type: ignore[no-untyped-def]
    sc.activate(fighter)
    view = MatchView(sc.state, fighter.side)
    return _Context(
        view,
        view.active,
        enemy_threat.ThreatMap.of_values(enemy_threat.threat_map(view, fighter.side)),
        Weights(),
    )  # type: ignore[arg-type]


def _steps(result: tuple) -> tuple:  # type: ignore[type-arg]
    steps, value, ap_left, end = result
    return tuple((s.kind, s.arg, s.target) for s in steps), value, ap_left, end


def _summoner_scene(summoner: str) -> tuple[Scenario, object]:
    sc = Scenario(OPEN7)
    me = sc.add(summoner, 0, (3, 5))
    sc.add(next(c for c in BOX if c != summoner), 1, (3, 2))
    return sc, me


@pytest.mark.parametrize("summoner", CREATURE_SUMMONERS)
def test_summon_groups_are_the_same_whatever_ap_is_left(summoner: str) -> None:
    """A summon's worth groups are kept once per summon under both AP keys: its worth must not
    depend on the AP left (nor on the casting cell)."""
    token = _tokens(summoner, "creature")[0]
    sc, me = _summoner_scene(summoner)
    low = summon_groups(Weights(), _context(sc, me), token, 1)
    ctx = _context(sc, me)
    high = summon_groups(Weights(), ctx, token, 5)
    assert low == high and low
    assert ctx.summon_ranks[(token, True)] is ctx.summon_ranks[(token, False)]
    for cells, worth in high:
        for x in board_masks.iter_bits(cells):
            for ap_left in (0, 1, 3, 6):
                value = summon_value(Weights(), ctx, token, x, ctx.me_cell + 1, ap_left)
                assert round(value, 9) == round(worth, 9)


def test_cast_search_from_one_cell_does_not_leak_into_another() -> None:
    """Hitting a bomb is worth less from a cell it blasts (R-A112, R-A114): the search from a cell
    next to an enemy bomb and from one farther off give each the answer of a fresh pass, whichever
    runs first, though the pass keeps first-hit worths for the next cell."""
    if not SHOOTERS or not BOMBERS:
        pytest.skip("no shooter or no bomber in the content")
    bomb = _tokens(BOMBERS[0], "bomb")[0]
    shies = 0  # shooters that hit the bomb from the far cell only
    for shooter in SHOOTERS:
        sc = Scenario(OPEN7)
        me = sc.add(shooter, 0, (3, 6))
        sc.add(next(c for c in BOX if c != shooter), 1, (3, 2))
        sc.add(bomb, 1, (3, 3))
        near, far = sc.cell(3, 4), sc.cell(3, 5)
        fresh = {c: _steps(greedy_casts(Weights(), _context(sc, me), c, me.ap, 0)) for c in (near, far)}
        for cells in ((near, far), (far, near)):
            ctx = _context(sc, me)
            for c in cells:
                assert _steps(greedy_casts(Weights(), ctx, c, me.ap, 0)) == fresh[c], (shooter, cells, c)
        hits = {c: any(s[2] == sc.cell(3, 3) for s in fresh[c][0]) for c in (near, far)}
        shies += hits[far] and not hits[near]
    assert shies  # the case is met: some shooter's plans differ by cell


def test_a_summon_placed_next_to_the_target_changes_the_worth_of_the_hit() -> None:
    """R-A96: a summon next to the target boosts the hit that follows (Dan To Fu), so the search
    must not reuse the target's worth as a first hit once it has placed such a summon."""
    if not BOOSTERS:
        pytest.skip("no summoner boosted by its own summons in the content")
    summoner, token = BOOSTERS[0]
    sc = Scenario(OPEN7)
    me = sc.add(summoner, 0, (3, 5))
    target = sc.add(next(c for c in BOX if c != summoner), 1, (3, 2))
    ctx = _context(sc, me)
    cell = sc.cell(2, 3)
    steps, value, _, _ = greedy_casts(Weights(), ctx, cell, me.ap, 0)
    kinds = [me.spells[s.arg].kind for s in steps]
    assert kinds == ["summon", "attack"], kinds
    spot = steps[0].target
    assert ctx.board.distance[spot][target.cell] == 1
    hit = me.spells[steps[1].arg]
    victim = ctx.view.piece_at(target.cell)
    assert victim is not None
    boosted = attack_value(Weights(), ctx, hit, victim, cell, {}, [(token, spot)])
    assert boosted > attack_value(Weights(), ctx, hit, victim, cell, {}, [])
    alone = summon_value(Weights(), ctx, token, spot, cell, me.ap - me.spells[steps[0].arg].ap_cost)
    assert value == pytest.approx(alone + boosted)
