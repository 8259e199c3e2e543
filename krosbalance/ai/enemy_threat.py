"""What the enemies could do next turn: the threat map and the chance of a lock block.

:func:`threat_map` gives, per cell, the injuries the enemies of a side could deal next turn to a
piece standing there (each enemy walks its MP then casts its best attack as often as its AP allows,
from cells that see the target past the trees; a range bonus such as Distant Shot's +3 and crates'
+1 extend it); :class:`ThreatCache` keeps each enemy's share for one match and :class:`ThreatMap`
reads a map cell by cell. :func:`block_chance` is the chance that walking off a cell gets a fighter
blocked (R-A16, R-A45) and :func:`ko_risk` a rough chance of a KO under a threat.

Values are injuries, as in :mod:`krosbalance.ai.scoring`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.ai.board_masks import Geometry, geometry, iter_bits
from krosbalance.ai.scoring import hit_odds
from krosbalance.engine.view import BLOCK_CHANCE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView

#: what one enemy's share of :func:`threat_map` depends on: (uid, cell, MP, AP, Critical, obstacles
#: within its MP, once-per-game attacks still ready, crates within its MP: it may shoot from one,
#: and crates can be destroyed under the scenery option)
EnemyKey = tuple[int, int, int, int, bool, int, tuple[str, ...], int]


class ThreatCache:
    """Threat maps kept by a caller for one match (:func:`threat_map`): each enemy's share as
    (cells, injuries) layers by its :data:`EnemyKey`, and whole maps by the keys of all the enemies
    in the view's order. A map is asked again far more often than its enemies move (every new turn,
    every injury dealt), and summing the shares is most of its cost."""

    __slots__ = ("layers", "maps", "lookups")

    def __init__(self) -> None:
        self.layers: dict[EnemyKey, list[tuple[int, float]]] = {}
        self.maps: dict[tuple[EnemyKey, ...], list[float]] = {}
        self.lookups: dict[tuple[EnemyKey, ...], ThreatMap] = {}


class ThreatMap:
    """:func:`threat_map` read cell by cell: a cell's threat is worked out when first read (the
    planner reads a few dozen of a board's cells before the enemies move again; summing the shares
    over the whole board would cost more). Each cell adds up its enemies' shares in the view's
    order, as :func:`threat_map` does: the same floats."""

    __slots__ = ("_shares", "_values", "_known")

    def __init__(self, n_cells: int, shares: list[list[tuple[int, float]]]) -> None:
        # each layer's cells a byte per 8 cells: shifting a board-wide mask (a long integer) for
        # every cell read would allocate a new one
        size = (n_cells + 7) >> 3
        self._shares = [
            [(layer.to_bytes(size, "little"), worth) for layer, worth in layers] for layers in shares
        ]
        self._values = [0.0] * n_cells
        self._known = bytearray(n_cells)

    @staticmethod
    def of_values(values: list[float]) -> ThreatMap:
        """A map whose every cell is already known (a whole :func:`threat_map`)."""
        known = ThreatMap(len(values), [])
        known._values = list(values)
        known._known = bytearray(b"\x01" * len(values))
        return known

    def at(self, cell: int) -> float:
        """Injuries the enemies could deal next turn to a piece on ``cell``."""
        if self._known[cell]:
            return self._values[cell]
        value = 0.0
        byte, bit = cell >> 3, cell & 7
        for layers in self._shares:
            for layer, worth in layers:  # an enemy's layers are disjoint
                if (layer[byte] >> bit) & 1:
                    value += worth
                    break
        self._values[cell] = value
        self._known[cell] = 1
        return value


def average_hit(spell: SpellSpec, critical: bool) -> float:
    """Expected injuries of one hit on a plain 1-Armour-die target (no bonus)."""
    crit = 1 if spell.element == "neutral" else (2 if critical else 1)
    pierce = any(e.kind == "pierce_armour" for e in spell.effects)
    return hit_odds(spell.amount, crit, 0 if pierce else 1, 0, 99)[0]


def enemies_of(view: MatchView, side: int) -> list[FighterView]:
    """The characters on the board of every partnership but ``side``'s (the other seat's, with two
    players), in uid order."""
    if view.n_seats == 2:
        return [enemy for enemy in view.fighters(1 - side) if enemy.is_character]
    team = view.team_of[side]
    return [enemy for enemy in view.fighters() if enemy.team != team and enemy.is_character]


def threat_map(view: MatchView, side: int, cache: ThreatCache | None = None) -> list[float]:
    """Per cell: injuries the enemies of ``side`` could deal next turn to a piece of ``side`` there.

    Each enemy character walks up to its printed MP (ignoring Lock) and casts its best attack on the
    cell as many times as its AP pays, from a cell that sees it past the trees (R-A78; characters,
    who move, are not counted as cover); a range bonus spell (Distant Shot: +3 for 1 AP and its MP)
    and crates (+1, R-A121) stretch the range. The enemies' threats add up (they may all focus one
    piece).

    ``cache`` (owned by the caller, for one match) keeps each enemy's share by what it depends on
    (:data:`EnemyKey`), so a map recomputed after one enemy moved redoes only that enemy, and whole
    maps by the keys of all the enemies, so a map asked again (a new turn, an injury) costs only its
    keys. The map returned may be shared: read it, never change it.
    """
    board = view.board
    geo = geometry(board)
    obstacles = view.obstacles
    enemies = enemies_of(view, side)
    if cache is None:
        shares = [
            _enemy_threat(view, geo, enemy, obstacles, _once_per_game_ready(enemy)) for enemy in enemies
        ]
        return _sum_threats(board.n_cells, geo.full, shares)
    keys = _enemy_keys(view, geo, enemies)
    total = cache.maps.get(keys)
    if total is None:
        shares = _shares(view, geo, enemies, keys, cache)
        if len(cache.maps) > 1024:
            cache.maps.clear()
        total = cache.maps[keys] = _sum_threats(board.n_cells, geo.full, shares)
    return total


def threat_lookup(view: MatchView, side: int, cache: ThreatCache) -> ThreatMap:
    """:func:`threat_map` as a :class:`ThreatMap`, worked out cell by cell as it is read; kept in
    ``cache`` by the enemies' keys like the whole maps."""
    geo = geometry(view.board)
    enemies = enemies_of(view, side)
    keys = _enemy_keys(view, geo, enemies)
    lookup = cache.lookups.get(keys)
    if lookup is None:
        if len(cache.lookups) > 1024:
            cache.lookups.clear()
        lookup = cache.lookups[keys] = ThreatMap(view.board.n_cells, _shares(view, geo, enemies, keys, cache))
    return lookup


def _enemy_keys(view: MatchView, geo: Geometry, enemies: list[FighterView]) -> tuple[EnemyKey, ...]:
    """Each enemy's :data:`EnemyKey`, in the view's order."""
    obstacles, crates = view.obstacles, view.crates
    keys = []
    for enemy in enemies:
        ring = geo.ring_mask(enemy.cell, 0, enemy.base_mp)
        keys.append(
            (
                enemy.uid,
                enemy.cell,
                enemy.base_mp,
                enemy.base_ap,
                enemy.has("critical"),
                obstacles & ring,
                _once_per_game_ready(enemy),
                crates & ring,
            )
        )
    return tuple(keys)


def _shares(
    view: MatchView, geo: Geometry, enemies: list[FighterView], keys: tuple[EnemyKey, ...], cache: ThreatCache
) -> list[list[tuple[int, float]]]:
    """Each enemy's share of the threat as (cells, injuries) layers, kept in ``cache`` by its key."""
    layers = cache.layers
    obstacles = view.obstacles
    shares = []
    for index, enemy in enumerate(enemies):
        key = keys[index]
        share = layers.get(key)
        if share is None:
            if len(layers) > 4096:
                layers.clear()
            share = layers[key] = _enemy_threat(view, geo, enemy, obstacles, key[6])
        shares.append(share)
    return shares


def _sum_threats(n_cells: int, full: int, shares: list[list[tuple[int, float]]]) -> list[float]:
    """Per cell, the enemies' shares added up (in the view's order of the enemies)."""
    # cells grouped by the threat summed so far, enemy by enemy (so every cell adds up its enemies'
    # shares in the same order as a per-cell sum would)
    parts: list[tuple[int, float]] = [(full, 0.0)]
    for layers in shares:
        if not layers:
            continue
        split = []
        for part, value in parts:
            rest = part
            for layer, worth in layers:
                both = part & layer
                if both:
                    split.append((both, value + worth))
                    rest &= ~layer
            if rest:
                split.append((rest, value))
        parts = split
    total = [0.0] * n_cells
    for part, value in parts:
        if value:
            for c in iter_bits(part):
                total[c] = value
    return total


def _enemy_threat(
    view: MatchView, geo: Geometry, enemy: FighterView, obstacles: int, ready: tuple[str, ...]
) -> list[tuple[int, float]]:
    """One enemy's share of :func:`threat_map` as disjoint (cells, injuries) layers, best first
    (``ready``: its :func:`_once_per_game_ready` attacks)."""
    options = _attack_options(enemy.spells, enemy.base_ap, enemy.has("critical"))
    if ready:
        options = sorted(options + _once_options(enemy, ready), key=lambda o: -o[0])
    if not options:
        return []
    walk = geo.walk_mask(enemy.cell, enemy.base_mp, obstacles)
    perched = walk & view.crates  # a crate under the caster: +1 range (R-A121)
    ground = walk & ~perched
    layers = []
    covered = 0
    for worth, spell, bonus in options:
        mask = geo.sight_union(spell, bonus).union(ground)
        if perched:
            mask |= geo.sight_union(spell, bonus + 1).union(perched)
        fresh = mask & ~covered
        covered |= mask
        if fresh:
            layers.append((fresh, worth))
    return layers


def _once_per_game_ready(enemy: FighterView) -> tuple[str, ...]:
    """The once-per-game attacks the enemy has not used yet (they threaten once, R-A66)."""
    return tuple(
        s.id
        for s in enemy.spells
        if s.kind == "attack" and s.limit == "game" and s.ap_cost and not enemy.spell_used(s)
    )


def _once_options(enemy: FighterView, ready: tuple[str, ...]) -> list[tuple[float, SpellSpec, int]]:
    """Threat options of an unused once-per-game attack: it once, then the best repeatable attack
    with the AP left (Puff, then Irritating Sting)."""
    critical = enemy.has("critical")
    plain = _attack_options(enemy.spells, enemy.base_ap, critical)
    out = []
    for spell in enemy.spells:
        if spell.id not in ready or spell.ap_cost > enemy.base_ap:
            continue
        worth = average_hit(spell, critical)
        rest = enemy.base_ap - spell.ap_cost
        follow = [o for o in plain if o[2] == 0]
        if follow:
            _, best, _ = follow[0]
            worth += average_hit(best, critical) * min(
                rest // best.ap_cost, 1 if best.limit == "turn" else rest // best.ap_cost
            )
        out.append((worth, spell, 0))
    return out


_ATTACKS: dict[tuple[int, int, bool], tuple[object, list[tuple[float, SpellSpec, int]]]] = {}


def _attack_options(
    spells: Sequence[SpellSpec], base_ap: int, critical: bool
) -> list[tuple[float, SpellSpec, int]]:
    """(injuries per turn, spell, range bonus) of the attacks an enemy may make next turn, best first:
    each attack repeated as often as the AP pays, and again after a range-bonus spell (Distant Shot)
    with the AP that is left. Kept per spell list (held, so its id stays its own)."""
    key = (id(spells), base_ap, critical)
    entry = _ATTACKS.get(key)
    if entry is not None and entry[0] is spells:
        return entry[1]
    bonuses = [(0, 0)]
    for spell in spells:
        for effect in spell.effects:
            if effect.kind == "range_bonus_this_turn" and spell.ap_cost < base_ap:
                bonuses.append((int(effect.params["amount"]), spell.ap_cost))
    options = []
    for spell in spells:
        if spell.kind != "attack" or spell.ap_cost > base_ap or spell.limit == "game":
            continue
        if spell.ap_cost == 0:
            continue
        hit = average_hit(spell, critical)
        for bonus, cost in bonuses:
            if bonus and (
                spell.fixed_range or not spell.needs_los or spell.range_type in ("melee", "personal")
            ):
                continue
            casts = (base_ap - cost) // spell.ap_cost
            if spell.limit == "turn":
                casts = min(casts, 1)
            if hit * casts > 0.05:
                options.append((hit * casts, spell, bonus))
    options.sort(key=lambda a: -a[0])
    if len(_ATTACKS) > 256:
        _ATTACKS.clear()
    _ATTACKS[key] = (spells, options)
    return options


def block_chance(view: MatchView, mover: FighterView, cell: int) -> float:
    """Chance that ``mover`` gets blocked when it walks off ``cell`` (R-A16, R-A45, R-A47)."""
    if mover.has("tiny"):
        return 0.0
    dodge = 2 if mover.has("dodge") else 1
    free = 1.0
    for c in view.board.neighbours[cell]:
        piece = view.piece_at(c)
        if piece is None or piece.team == mover.team or not piece.is_character or piece.has("tiny"):
            continue
        free *= 1.0 - BLOCK_CHANCE[2 if piece.has("lock") else 1][dodge]
    return 1.0 - free


def ko_risk(threat: float, remaining: int) -> float:
    """A rough chance of being KO'd next turn when ``threat`` injuries may come at ``remaining`` HP."""
    if remaining <= 0:
        return 1.0
    return max(0.0, min(1.0, (threat - remaining + 1.5) / 3.0))
