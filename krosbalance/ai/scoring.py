"""Reusable evaluation pieces for the heuristic AIs: what a hit and a GG are worth.

Everything here is plain ints, floats and small dicts so it can run many times per decision (board
geometry is :mod:`krosbalance.ai.board_masks`; what the enemies could do next turn,
:mod:`krosbalance.ai.enemy_threat`):

- :func:`hit_odds`: the exact expected injuries and KO chance of one attack, from the dice odds
  (R-A15, R-A60-R-A62), cached by its few integer inputs.
- :func:`score_value` / :func:`gg_swing` / :func:`kill_value`: what GG are worth *at the current
  score* (R-A10, R-A129, R-A132): each GG a side holds is worth more the fewer it has left (the last
  one is the match), a gain that leaves the opponent without GG once the wild GG is gone wins.
- :func:`explosion_value`: what a Water Bomb going off on a cell is worth to one side (R-A114).

Values are in "injury units": one expected injury dealt is worth 1, and one GG of swing is worth
``GG_UNIT`` injuries (a box Krosmaster of about 10 HP is worth 3 GG to the killer and 3 to its owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.board_masks import iter_bits
from krosbalance.rulesets.arena.view import arena_view

if TYPE_CHECKING:
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView


#: injuries' worth of one GG of swing (10 HP ~ a KO ~ 6 GG of swing ~ 10-12 injuries)
GG_UNIT = 2.0
#: what winning the match on the spot is worth
WIN_VALUE = 1000.0
#: extra worth of a side's i-th GG, ``GG_PREMIUM / i``: the last GG held is worth most (once the
#: wild GG is gone, losing it loses the match)
GG_PREMIUM = 1.0

# Success distributions: Critical 1/2 per die, Armour 1/3 per die (R-A15).
_CRIT = ((1.0,), (0.5, 0.5), (0.25, 0.5, 0.25))
_ARMOUR = ((1.0,), (2 / 3, 1 / 3), (4 / 9, 4 / 9, 1 / 9))

_HIT_CACHE: dict[tuple[int, int, int, int, int], tuple[float, float]] = {}
_GG_WORTH: dict[int, float] = {}


# ------------------------------------------------------------------------------------------ dice
def hit_odds(base: int, crit_dice: int, armour_dice: int, resist: int, remaining: int) -> tuple[float, float]:
    """Expected injuries (capped at ``remaining``) and chance they reach ``remaining`` for one hit of
    ``base`` damage with these dice (R-A60-R-A62, R-A102)."""
    key = (base, crit_dice, armour_dice, resist, remaining)
    cached = _HIT_CACHE.get(key)
    if cached is not None:
        return cached
    expected = kill = 0.0
    crits = _CRIT[max(0, min(2, crit_dice))]
    armours = _ARMOUR[max(0, min(2, armour_dice))] if base > 0 or crit_dice > 0 else (1.0,)
    for c, pc in enumerate(crits):
        raw = base + c
        for a, pa in enumerate(armours if raw > 0 else (1.0,)):
            damage = min(max(0, raw - a - resist), remaining)
            p = pc * pa
            expected += p * damage
            if damage >= remaining > 0:
                kill += p
    _HIT_CACHE[key] = (expected, kill)
    return expected, kill


def spell_bonus(
    view: MatchView, caster: FighterView, spell: SpellSpec, target_cell: int, extra: int = 0
) -> int:
    """Damage added by the caster's summons adjacent to the target and elemental bonuses (R-A80,
    R-A96). ``extra`` counts summons the caller plans to place next to the target."""
    bonus = 0
    for effect in spell.effects:
        if effect.kind == "bonus_per_adjacent_summon":
            near = view.board.neighbour_mask[target_cell]
            count = extra
            for token in view.summons_of(caster):
                if token.character == effect.params["summon"] and (near >> token.cell) & 1:
                    count += 1
            bonus += effect.params["damage"] * count
        elif effect.kind == "element_bonus" and spell.element == effect.params["element"]:
            bonus += effect.params["amount"]
    return bonus


def attack_odds(
    view: MatchView,
    caster: FighterView,
    spell: SpellSpec,
    target: FighterView,
    remaining: int | None = None,
    extra_summons: int = 0,
) -> tuple[float, float]:
    """Expected injuries and KO chance of ``spell`` on ``target`` (a heal gives the expected heal and
    0). ``remaining`` overrides the target's HP left (for a second hit in the same plan)."""
    left = target.remaining_hp if remaining is None else remaining
    if left <= 0:
        return 0.0, 0.0
    crit = 1 if spell.element == "neutral" else (2 if caster.has("critical") else 1)
    base = spell.amount + spell_bonus(view, caster, spell, target.cell, extra_summons)
    if spell.kind == "heal":
        expected, _ = hit_odds(base, crit, 0, 0, target.injuries)
        return expected, 0.0
    if spell.element != "neutral" and target.immune_to(spell.element):
        return 0.0, 0.0
    armour = 2 if target.has("armour") else 1
    if target.kind == "bomb":
        armour = 1
    if any(e.kind == "pierce_armour" for e in spell.effects):
        armour -= 1
    resist = 1 if spell.element != "neutral" and target.resists(spell.element) else 0
    return hit_odds(base, crit, max(0, armour), resist, left)


# ------------------------------------------------------------------------------------------ value
def gg_worth(gg: int) -> float:
    """What holding ``gg`` GG is worth, in GG: each GG counts 1 plus ``GG_PREMIUM / i`` for the i-th,
    so a GG near zero (the one that decides the match) weighs more than one in a full stock."""
    value = _GG_WORTH.get(gg)
    if value is None:
        value = _GG_WORTH[gg] = gg + GG_PREMIUM * plain_sum(1.0 / i for i in range(1, gg + 1))
    return value


#: the partnerships of a two-player match (the default of the score functions below)
TWO_PLAYERS: tuple[int, ...] = (0, 1)


def rival(gg: tuple[int, ...], team_of: tuple[int, ...], side: int) -> int:
    """The opposing seat ``side`` fears most: the other player with two players; with four, the
    opponent holding the most GG (ties to the lower seat)."""
    if len(gg) == 2:
        return 1 - side
    team = team_of[side]
    return max((s for s in range(len(gg)) if team_of[s] != team), key=lambda s: (gg[s], -s))


def score_after(
    gg: tuple[int, ...],
    wild: int,
    gainer: int,
    amount: int,
    source: int = -1,
    team_of: tuple[int, ...] = TWO_PLAYERS,
) -> tuple[tuple[int, ...], int]:
    """The score after ``gainer`` gains ``amount`` GG: the wild GG first, then from ``source`` (the
    opponent with two players; with four, the KO'd piece's player, or by default ``rival``), who
    never goes below 0 (R-A129, R-A155)."""
    if amount <= 0:
        return gg, wild
    from_wild = min(1 if wild > 0 else 0, amount)
    loser = source if source >= 0 else (1 - gainer if len(gg) == 2 else rival(gg, team_of, gainer))
    taken = min(amount - from_wild, gg[loser])
    new = list(gg)
    new[gainer] += from_wild + taken
    new[loser] -= taken
    return tuple(new), wild - from_wild


def score_value(gg: tuple[int, ...], wild: int, side: int, team_of: tuple[int, ...] = TWO_PLAYERS) -> float:
    """The score seen by ``side``, in GG: ``WIN_VALUE`` / ``-WIN_VALUE`` once the wild GG is gone and
    only one side holds GG (R-A132), else the difference of :func:`gg_worth`. With four players the
    sides are partnerships (R-A158): its own GG against those of the strongest other partnership."""
    if len(gg) == 2:
        mine, theirs = gg[side], gg[1 - side]
    else:
        totals: dict[int, int] = {}
        for seat, held in enumerate(gg):
            totals[team_of[seat]] = totals.get(team_of[seat], 0) + held
        mine = totals.pop(team_of[side])
        theirs = max(totals.values())
    if wild == 0:
        if theirs <= 0 < mine:
            return WIN_VALUE
        if mine <= 0 < theirs:
            return -WIN_VALUE
    return gg_worth(mine) - gg_worth(theirs)


def score_swing(
    gg: tuple[int, ...],
    wild: int,
    gainer: int,
    amount: int,
    source: int = -1,
    team_of: tuple[int, ...] = TWO_PLAYERS,
) -> float:
    """What ``gainer`` gaining ``amount`` GG (from ``source``, see :func:`score_after`) is worth to it
    at this score, in GG (``WIN_VALUE`` when it wins the match)."""
    if amount <= 0:
        return 0.0
    after, wild_after = score_after(gg, wild, gainer, amount, source, team_of)
    value = score_value(after, wild_after, gainer, team_of)
    if value >= WIN_VALUE:
        return WIN_VALUE
    return value - score_value(gg, wild, gainer, team_of)


def gg_swing(view: MatchView, gainer: int, amount: int) -> float:
    """:func:`score_swing` at the view's score (R-A129, R-A132)."""
    arena = arena_view(view)
    return score_swing(arena.gg, arena.wild_gg, gainer, amount, -1, view.team_of)


def ko_gainer(view: MatchView, target: FighterView, gg: tuple[int, ...]) -> int:
    """Who gains the GG of ``target``'s KO, as this side sees it: with two players its opponent; with
    four, this side when the target is an enemy, else the rival of the target's player (R-A155)."""
    if len(gg) == 2:
        return 1 - target.side
    if target.team != view.team:
        return view.side
    return rival(gg, view.team_of, target.side)


def kill_value(view: MatchView, target: FighterView, gg: tuple[int, ...] | None = None) -> float:
    """Worth of KO-ing ``target`` for its opponent, in injury units: the GG swing of its level for a
    Krosmaster (R-A10) at the view's score (or at ``gg``), a small fixed worth for summons (they
    carry bonuses and block)."""
    if target.is_krosmaster:
        arena = arena_view(view)
        score = arena.gg if gg is None else gg
        if len(score) == 2:
            return GG_UNIT * score_swing(score, arena.wild_gg, 1 - target.side, target.level)
        gainer = ko_gainer(view, target, score)
        return GG_UNIT * score_swing(score, arena.wild_gg, gainer, target.level, target.side, view.team_of)
    return SUMMON_WORTH.get(target.character, 0.5)


#: worth of a summon token in play, in injury units (creatures give no GG, R-A110)
SUMMON_WORTH: dict[str, float] = {"tofu": 0.8, "gobball": 2.0, "water_bomb": 0.0}


def explosion_value(view: MatchView, cell: int, side: int, minus: int = -1) -> float:
    """What a Water Bomb exploding on ``cell`` is worth to ``side``: about one injury and a -1 AP
    marker to each character in the 8 cells around (R-A114), enemies counting for, allies against.
    ``minus`` is a cell left out (the bomber's own cell when it will have moved)."""
    value = 0.0
    for c in iter_bits(view.board.square_mask[cell]):
        if c == minus:
            continue
        piece = view.piece_at(c)
        if piece is None or not piece.is_character:
            continue
        armour = 2 if piece.has("armour") else 1
        hurt, ko = hit_odds(1, 1, armour, 0, piece.remaining_hp)
        worth = hurt + 0.3 + ko * kill_value(view, piece)
        value += worth if piece.team != view.team_of[side] else -worth
    return value
