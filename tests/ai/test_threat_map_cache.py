"""The planner's threat-map cache (``enemy_threat.ThreatCache``) gives exactly the map computed without it,
and a map is computed again when what it depends on changes (an enemy moves, a piece blocks a walk)."""

from __future__ import annotations

from krosbalance.ai import enemy_threat
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.pieces import relocate
from krosbalance.engine.view import MatchView
from krosbalance.testing.scenario import Scenario

OPEN8 = "\n".join([" ".join(["."] * 8)] * 8)


def _attackers(count: int) -> list[CharacterSpec]:
    """Arena Krosmasters that have an attack (whichever the content holds)."""
    registry = default_registry()
    specs = [registry.load_character(cid) for cid in registry.list_characters("krosmaster", game="arena")]
    return [s for s in specs if any(sp.kind == "attack" and sp.amount > 0 for sp in s.spells)][:count]


def test_cached_threat_maps_equal_fresh_ones_as_pieces_move() -> None:
    first, second = _attackers(2)
    sc = Scenario(OPEN8)
    mine = sc.add(first, 0, (0, 0))
    enemy = sc.add(first, 1, (6, 6))
    sc.add(second, 1, (2, 6))
    view = MatchView(sc.state, 0)
    cache = enemy_threat.ThreatCache()
    before = enemy_threat.threat_map(view, 0, cache)
    assert before == enemy_threat.threat_map(view, 0)
    assert enemy_threat.threat_map(view, 0, cache) is before  # asked again: the kept map
    relocate(sc.state, enemy, sc.cell(4, 4))  # an enemy moves: its share and the map change
    moved = enemy_threat.threat_map(view, 0, cache)
    assert moved == enemy_threat.threat_map(view, 0) and moved != before
    relocate(sc.state, mine, sc.cell(2, 5))  # our piece now stands in the other enemy's walk
    blocked = enemy_threat.threat_map(view, 0, cache)
    assert blocked == enemy_threat.threat_map(view, 0)
    relocate(sc.state, enemy, sc.cell(6, 6))
    relocate(sc.state, mine, sc.cell(0, 0))
    assert enemy_threat.threat_map(view, 0, cache) == before


def _ranged_attacker() -> tuple[CharacterSpec, int]:
    """An Arena Krosmaster whose longest attack is a sight attack a crate extends (R-A121), and that
    attack's range (whichever the content holds)."""
    registry = default_registry()
    for cid in registry.list_characters("krosmaster", game="arena"):
        spec = registry.load_character(cid)
        attacks = [sp for sp in spec.spells if sp.kind == "attack" and sp.amount > 0 and sp.ap_cost]
        if not attacks:
            continue
        longest = max(attacks, key=lambda sp: sp.range_max)
        if longest.range_max >= 2 and not longest.fixed_range and longest.needs_los:
            return spec, max(sp.range_max for sp in attacks)
    raise AssertionError("no Arena Krosmaster with a range a crate extends")


def test_r_a121_a_crate_destroyed_under_the_scenery_option_leaves_no_stale_threat() -> None:
    """A crate gives +1 range to a caster on it (R-A121); crates are not obstacles, so an enemy's
    cached share must be keyed by the crates within its walk as well."""
    shooter, reach = _ranged_attacker()
    crate = (shooter.mp, 5)  # the far end of the shooter's walk along row 5
    rows = [" ".join(["."] * 16) for _ in range(11)]
    rows[5] = " ".join("C" if x == crate[0] else "." for x in range(16))
    sc = Scenario("\n".join(rows))
    sc.add(shooter, 1, (0, 5))
    sc.add(shooter, 0, (15, 0))
    view = MatchView(sc.state, 0)
    cache = enemy_threat.ThreatCache()
    with_crate = enemy_threat.threat_map(view, 0, cache)
    assert with_crate[sc.cell(shooter.mp + reach + 1, 5)] > 0  # only from the crate
    sc.state.crates &= ~(1 << sc.cell(*crate))  # smashed (scenery destruction)
    without = enemy_threat.threat_map(view, 0, cache)
    assert without == enemy_threat.threat_map(view, 0)
    assert without[sc.cell(shooter.mp + reach + 1, 5)] == 0
