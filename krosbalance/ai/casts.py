"""Which spells to cast from a cell, and what each cast is worth.

For one casting cell of a plan the search (:mod:`.plan_search`) asks :func:`greedy_casts` for the
casts to make there, picked greedily by value per AP among attacks on enemies and bombs, heals on
injured allies and summons. The valuations are cached on the pass's :class:`.context._Context`
because the same (spell, target) pair is asked about from many cells.
"""

from __future__ import annotations

from typing import Final, final

from krosbalance.ai import scoring
from krosbalance.ai.context import CastEntry, _bonus_for, _Context
from krosbalance.ai.weights import Weights
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import FighterView


@final
class Step:
    """One step of a plan: ``goto`` (``arg`` = cell), ``cast`` (``arg`` = spell index, ``target`` =
    cell), ``tail`` (pick up kamas / buy GG) or ``end``. A plain slotted class rather than a
    NamedTuple: compiled code builds it natively, where a NamedTuple's constructor is Python code."""

    __slots__ = ("kind", "arg", "target")

    def __init__(self, kind: str, arg: int = -1, target: int = -1) -> None:
        self.kind: Final = kind
        self.arg: Final = arg
        self.target: Final = target

    def __repr__(self) -> str:
        return f"Step({self.kind!r}, {self.arg}, {self.target})"


def summon_groups(weights: Weights, ctx: _Context, summon: str, ap_left: int) -> list[tuple[int, float]]:
    """Where a new ``summon`` may go, as (cells, worth) groups, best first, worth over 0.2.

    A summon's worth (:func:`summon_value`) does not depend on the casting cell, only on the cell
    it lands on and on whether 3 AP are left: for a creature, whether the cell touches an enemy
    Krosmaster (bombs are scanned cell by cell instead). Groups of equal worth are merged,
    so the cast search takes the lowest free cell in range of the first group it meets, as a
    scan of the cells in order would."""
    key = (summon, ap_left >= 3)
    groups = ctx.summon_ranks.get(key)
    if groups is None:
        board = ctx.board
        near = 0
        for c in ctx.enemy_kros:
            near |= board.neighbour_mask[c]
        everywhere = (1 << board.n_cells) - 1
        parts = []
        for part in (near, everywhere & ~near):
            if part:
                x = (part & -part).bit_length() - 1
                parts.append((part, summon_value(weights, ctx, summon, x, ctx.me_cell, ap_left)))
        merged: dict[float, tuple[int, float]] = {}  # rounded worth -> (cells, first worth)
        for cells_mask, value in parts:
            if value > 0.2:
                rounded = round(value, 9)
                cells_so_far, first = merged.get(rounded, (0, value))
                merged[rounded] = (cells_so_far | cells_mask, first)
        groups = ctx.summon_ranks[key] = [
            (slot[0], slot[1]) for _, slot in sorted(merged.items(), key=lambda kv: -kv[0])
        ]
    return groups


def greedy_casts(
    weights: Weights, ctx: _Context, cell: int, ap: int, bonus: int
) -> tuple[list[Step], float, int, int]:
    """Casts from ``cell`` chosen greedily by value per AP: (steps, value, AP left, end cell or -1)."""
    view, me = ctx.view, ctx.me
    reach_bonus = bonus + ((ctx.crates >> cell) & 1)
    castable = ctx.by_bonus.get(reach_bonus)
    if castable is None:
        castable = ctx.castable_with(reach_bonus)
    blockers = ctx.blockers
    los = ctx.board.los_path[cell]
    me_uid = ctx.me_uid
    targets = ctx.targets
    target_mask = ctx.target_mask
    plain = ctx.plain
    remaining: dict[int, float] = {}
    gone: set[int] = set()
    used: set[int] = set()
    planned: list[tuple[str, int]] = []  # (summon id, cell) placed by this plan
    planned_mask = 0
    steps: list[Step] = []
    total = 0.0
    occupied = ctx.occupied | (1 << cell)
    healed_uids: set[int] = set()
    for _ in range(4):
        best_density = -1.0
        best: tuple[float, int, int, str, CastEntry] | None = None  # value, index, target, kind, entry
        for entry in castable:
            index, spell, cost, kind, limited, needs_los, _, _, _, table = entry
            if cost > ap or (limited and index in used):
                continue
            if kind == "attack":
                mask = table[cell]
                if mask & target_mask:
                    fresh = not remaining and not planned
                    for t, uid, victim, bomb in targets:
                        if not (mask >> t) & 1 or uid in gone:
                            continue
                        if needs_los and los[t] & blockers:
                            continue
                        if fresh and not bomb:
                            # first hit on an untouched target: the same from every cell
                            value = plain.get((index, uid))
                            if value is None:
                                value = plain[(index, uid)] = attack_value(
                                    weights, ctx, spell, victim, cell, remaining, planned
                                )
                        else:
                            value = attack_value(weights, ctx, spell, victim, cell, remaining, planned)
                        if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                            best_density = value / cost
                            best = (value, index, t, "attack", entry)
                if planned_mask & mask:
                    for summon_id, x in planned:
                        if (
                            summon_id == "water_bomb"
                            and (mask >> x) & 1
                            and not (needs_los and los[x] & blockers)
                        ):
                            value = 0.25 * ctx.blast(x)
                            if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                                best_density = value / cost
                                best = (value, index, x, "virtual", entry)
            elif kind == "heal":
                mask = table[cell]
                for ally in ctx.allies:
                    if ally.injuries <= 0:
                        continue
                    mine = ally.uid == me_uid
                    t = cell if mine else ally.cell
                    if not (mask >> t) & 1:
                        continue
                    if needs_los and t != cell and los[t] & blockers:
                        continue
                    value = heal_value(weights, ctx, index, spell, ally, mine)
                    if ally.uid in healed_uids:
                        value *= 0.5
                    if value > 0.05 and (best is None or value / cost > best_density + 1e-9):
                        best_density = value / cost
                        best = (value, index, t, "heal", entry)
            else:  # summon
                summons = spell.summons or ""  # never empty: `castable` keeps spells that summon
                count = ctx.my_tokens.get(summons, 0)
                if planned:
                    count += sum(1 for s, _ in planned if s == summons)
                if count >= spell.summon_control:
                    continue
                mask = table[cell] & ~occupied & ~planned_mask
                if summons == "water_bomb":
                    mask &= ctx.near_enemies
                    bombs = ctx.bomb_values
                    while mask:
                        low = mask & -mask
                        mask ^= low
                        x = low.bit_length() - 1
                        value = bombs.get(x)  # a bomb's worth depends on its cell only
                        if value is None:
                            value = bombs[x] = summon_value(weights, ctx, summons, x, cell, ap - cost)
                        if value > 0.2 and (best is None or value / cost > best_density + 1e-9):
                            best_density = value / cost
                            best = (value, index, x, "summon", entry)
                    continue
                if not mask:
                    continue
                groups = ctx.summon_ranks.get((summons, ap - cost >= 3))
                if groups is None:
                    groups = summon_groups(weights, ctx, summons, ap - cost)
                for cells, value in groups:
                    hit = mask & cells
                    if hit:
                        if best is None or value / cost > best_density + 1e-9:
                            best_density = value / cost
                            best = (value, index, (hit & -hit).bit_length() - 1, "summon", entry)
                        break
        if best is None:
            break
        value, index, target, kind, entry = best
        spell = entry[1]
        ap -= entry[2]
        total += value
        if entry[4]:
            used.add(index)
        steps.append(Step("cast", index, target))
        if kind == "summon":
            planned.append((spell.summons or "", target))
            planned_mask |= 1 << target
            continue
        if kind == "heal":
            healer_target = me if target == cell else view.piece_at(target)
            if healer_target is not None:
                healed_uids.add(healer_target.uid)
            continue
        piece = view.piece_at(target)
        if piece is not None and kind == "attack":
            uid = piece.uid
            hurt = ctx.hurts.get((index, uid))
            if hurt is None:
                hurt = ctx.hurts[(index, uid)] = scoring.attack_odds(view, me, spell, piece)[0]
            remaining[uid] = remaining.get(uid, float(piece.remaining_hp)) - hurt
            if entry[6] or piece.kind == "bomb":
                gone.add(uid)
        if entry[7] and piece is not None:
            return steps, total, ap, target
        if entry[8]:
            return steps, total, ap, cell  # the engine moves us: replanning will see where
    return steps, total, ap, -1


def heal_value(
    weights: Weights, ctx: _Context, index: int, spell: SpellSpec, ally: FighterView, mine: bool
) -> float:
    """Worth of healing ``ally`` once (more when it is in danger), cached per pass."""
    key = (index, ally.uid)
    value = ctx.heals.get(key)
    if value is None:
        healed, _ = scoring.attack_odds(ctx.view, ctx.me, spell, ally)
        danger = 0.0 if mine else ctx.threat[ally.cell]
        value = weights.heal * healed * (1.0 + 0.5 * scoring.ko_risk(danger, ally.remaining_hp))
        ctx.heals[key] = value
    return value


def attack_value(
    weights: Weights,
    ctx: _Context,
    spell: SpellSpec,
    target: FighterView,
    cell: int,
    remaining: dict[int, float],
    planned: list[tuple[str, int]],
) -> float:
    view, me, w = ctx.view, ctx.me, weights
    if target.kind == "bomb":
        key = ("bomb", spell.id, target.uid)
        ko = ctx.values.get(key)
        if ko is None:
            ko = ctx.values[key] = scoring.attack_odds(view, me, spell, target)[1]
        blast = ctx.blast(target.cell)
        if cell != ctx.me_cell and (view.board.square_mask[target.cell] >> cell) & 1:
            blast -= 1.0 + scoring.ko_risk(1.5, me.remaining_hp) * scoring.kill_value(view, me)
        return ko * blast
    left = remaining.get(target.uid)
    hp_left = target.remaining_hp if left is None else max(1, round(left))
    extra = 0
    if planned:
        near = view.board.neighbour_mask[target.cell]
        extra = sum(1 for _, x in planned if (near >> x) & 1)
    cached = ctx.values.get((spell.id, target.uid, hp_left, extra))
    if cached is not None:
        return cached
    hurt, ko = scoring.attack_odds(view, me, spell, target, hp_left, extra)
    lost = 1.0 - hp_left / max(1, target.hp)
    value: float = w.damage * hurt * (1.0 + w.focus * lost) + w.kill * ko * scoring.kill_value(view, target)
    for effect in spell.effects:
        if effect.kind == "lifesteal" and me.injuries > 0:
            value += 0.5 * min(hurt, me.injuries)
        elif effect.kind == "push" and w.kite:
            value += 0.3
    if not target.is_krosmaster:
        value *= 0.6
    ctx.values[(spell.id, target.uid, hp_left, extra)] = value
    return value


def summon_value(weights: Weights, ctx: _Context, summon: str, x: int, cell: int, ap_left: int) -> float:
    """Worth of a new ``summon`` on ``x`` (the casting ``cell`` does not matter; keep
    :func:`summon_groups` in step when this changes)."""
    w = weights
    if summon == "water_bomb":
        return 0.6 * ctx.blast(x) if (ctx.near_enemies >> x) & 1 else 0.0
    value = w.summon * scoring.SUMMON_WORTH.get(summon, 0.5)
    near_enemy = ctx.board.neighbour_mask[x] & ctx.enemy_kros_mask
    bonus = _bonus_for(ctx.me, summon)
    if bonus and near_enemy:
        # the bonus serves at once when AP is left for the boosted spell, and again next turn
        value += 0.5 * w.support * bonus + (w.damage * bonus if ap_left >= 3 else 0.0)
    if not ctx.enemies:
        value *= 0.5
    return value
