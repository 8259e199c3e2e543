"""Tactics puzzles: scripted positions with one clearly right outcome, to grade any AI.

Each :class:`Puzzle` builds a position with the scenario kit (:mod:`krosbalance.testing.scenario`):
side 0 to play, either one Krosmaster's activation or the whole game turn of its team. The AI under
test plays it through the engine with seeded dice, and the puzzle judges the *end state* (a KO made,
a GG bought, a wounded Krosmaster out of the archer's sight, a once-per-game spell still in hand...),
never the moves that led there: any sequence reaching the right outcome passes. Every puzzle is
played over several seeds (dice and the AI's own stream), so luck neither solves nor spoils it.

    from krosbalance.testing.puzzles import PUZZLES, solve_rate
    solve_rate(PUZZLES[0], "focus_fire", seeds=range(8))  # fraction of seeds solved

:func:`score_table` grades AIs on every puzzle (the table in ``krosbalance/ai/README.md``;
``python -m krosbalance.tools.puzzles`` prints it). Puzzles
name the box Krosmasters they are about (they are about those cards), and positions start at game
turn 1 of side 0, so no tension roll is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from krosbalance.ai.registry import get_ai
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import ScriptedDice, SeededDice
from krosbalance.engine.events import LockRolled
from krosbalance.engine.legal import can_pay, is_target
from krosbalance.engine.pieces import relocate
from krosbalance.engine.state import Fighter, MatchState
from krosbalance.engine.turn import Controller
from krosbalance.rulesets.arena.rewards import take_from_market
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.testing.scenario import Scenario

__all__ = ["PUZZLES", "Position", "Puzzle", "attempt", "exposed_to", "score_table", "solve_rate"]

ControllerFactory = Callable[[np.random.Generator], Controller]


@dataclass(slots=True)
class Position:
    """A built puzzle: the scenario, its named pieces, and the Krosmaster whose activation is
    played (None: the whole game turn of side 0)."""

    sc: Scenario
    pieces: dict[str, Fighter]
    actor: Fighter | None = None
    start: dict[str, int] = field(default_factory=dict)  # facts recorded before play, for judges

    @property
    def state(self) -> MatchState:
        return self.sc.state


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position and the one right outcome (``lesson``) its ``judge`` checks on the end state."""

    name: str
    lesson: str
    setup: Callable[[], Position]
    judge: Callable[[Position], bool]
    rules: tuple[str, ...] = ()  # the rule ids the right outcome rests on


# ------------------------------------------------------------------------------------------ running
def attempt(puzzle: Puzzle, ai: str | ControllerFactory, seed: int) -> bool:
    """Play the puzzle once with ``ai`` (a registered name or a factory) and judge the end state."""
    if isinstance(ai, str):
        factory: ControllerFactory = get_ai(ai)
    else:
        factory = ai
    position = puzzle.setup()
    state = position.state
    state.dice = SeededDice(np.random.default_rng([seed, 17]))
    controller = factory(np.random.default_rng([seed, 23]))
    if position.actor is None:
        position.sc.play_turn(controller)  # through the kit: the core plays it too when installed
    else:
        position.sc.play_character(position.actor, controller)
    return puzzle.judge(position)


def solve_rate(puzzle: Puzzle, ai: str | ControllerFactory, seeds: Iterable[int] = range(8)) -> float:
    """The fraction of ``seeds`` on which ``ai`` reaches the puzzle's right outcome."""
    results = [attempt(puzzle, ai, seed) for seed in seeds]
    return sum(results) / len(results)


def score_table(
    ais: Sequence[str], seeds: Iterable[int] = range(8), puzzles: Sequence[Puzzle] | None = None
) -> dict[str, dict[str, float]]:
    """Per AI, per puzzle, the solve rate over ``seeds``."""
    seeds = list(seeds)
    chosen = PUZZLES if puzzles is None else puzzles
    return {ai: {p.name: solve_rate(p, ai, seeds) for p in chosen} for ai in ais}


# ------------------------------------------------------------------------------------------ judging
def exposed_to(state: MatchState, attacker: Fighter, cell: int) -> bool:
    """Whether ``attacker`` could cast an attack on ``cell`` in its next activation: with its printed
    MP and AP, from any cell it can walk to (Lock ignored), or after a range-bonus spell such as
    Distant Shot. Checked with the engine's own legality on a copy of the state."""
    copy = clone_state(state, ScriptedDice([]))
    me = next(f for f in copy.fighters if f.uid == attacker.uid)
    if not me.alive or me.cell < 0:
        return False
    bonuses = [(0, 0)] + [
        (e.params["amount"], s.ap_cost)
        for s in me.spells
        for e in s.effects
        if e.kind == "range_bonus_this_turn" and s.ap_cost <= me.base_ap
    ]
    start = me.cell
    reach = {start: 0}
    frontier = [start]
    obstacles = copy.obstacles & ~(1 << start)
    while frontier:
        nxt = []
        for c in frontier:
            if reach[c] >= me.base_mp:
                continue
            for n in copy.board.neighbours[c]:
                if n not in reach and not (obstacles >> n) & 1:
                    reach[n] = reach[c] + 1
                    nxt.append(n)
        frontier = nxt
    for origin in reach:
        if origin != me.cell:
            relocate(copy, me, origin)
        for bonus, cost in bonuses:
            me.range_bonus = bonus
            me.ap = me.base_ap - cost
            me.turn_uses.clear()
            me.game_uses.clear()
            for spell in me.spells:
                if spell.kind == "attack" and can_pay(copy, me, spell) and is_target(copy, me, spell, cell):
                    return True
    return False


def _locks_against(position: Position, piece: Fighter) -> int:
    return sum(1 for e in position.state.events if isinstance(e, LockRolled) and e.mover == piece.uid)


def _adjacent(state: MatchState, a: Fighter, b: Fighter) -> bool:
    return a.alive and b.alive and a.cell >= 0 and b.cell >= 0 and state.board.distance[a.cell][b.cell] == 1


def _damage(f: Fighter) -> int:
    return sum(f.stats.damage_dealt)


# ------------------------------------------------------------------------------------------ positions
def _grid(width: int, height: int, marks: dict[tuple[int, int], str] | None = None) -> str:
    marks = marks or {}
    return "\n".join(" ".join(marks.get((x, y), ".") for x in range(width)) for y in range(height))


def _scenario(board: str) -> Scenario:
    # turn 0: game_turn starts turn 1, where the first player makes no tension roll (R-A26)
    return Scenario(board, turn=0, active_side=0)


def _buy_the_winning_gg() -> Position:
    sc = _scenario(_grid(7, 7, {(3, 3): "D"}))
    king = sc.add("king_of_the_gobballs", 0, (3, 5))
    sc.add("oscar_kass", 1, (5, 5))
    sc.add("kassius_kaos", 1, (1, 1))
    sc.arena.gg[:] = [3, 1]
    sc.arena.wild_gg = 0
    sc.arena.kamas[:] = [10, 0]
    return Position(sc, {"king": king}, king)


def _buy_two_gg() -> Position:
    sc = _scenario(_grid(7, 7, {(3, 3): "D"}))
    king = sc.add("king_of_the_gobballs", 0, (3, 4), injuries=5)
    sc.add("oscar_kass", 1, (4, 5))
    sc.add("bill_tell", 1, (3, 0))
    sc.add("kassius_kaos", 1, (6, 3))
    sc.arena.gg[:] = [2, 3]
    sc.arena.wild_gg = 0
    sc.arena.kamas[:] = [24, 0]
    return Position(sc, {"king": king}, king)


def _lethal_ko() -> Position:
    sc = _scenario(_grid(8, 5, {(3, 2): "T"}))
    bill = sc.add("bill_tell", 0, (0, 2))
    kassius = sc.add("kassius_kaos", 1, (6, 2), injuries=8)
    sc.add("anna_tommy", 1, (4, 4))
    return Position(sc, {"bill": bill, "target": kassius}, bill)


# Bill Tell hemmed in by bushes (he cannot walk): his plain reach is 8 cells, Distant Shot's 11. The
# cells 9 cells away in his sight look safe to a planner that forgets Distant Shot; the only safe
# cells are behind the trees, within 8 cells of him (bushes close the far ones).
_HEMMED = {
    (8, 3): "B",
    (9, 2): "B",
    (9, 4): "B",
    (5, 1): "T",
    (5, 5): "T",
    (4, 5): "T",
    (3, 0): "B",
    (2, 5): "B",
    (3, 6): "B",
}


def _retreat_out_of_sight() -> Position:
    sc = _scenario(_grid(10, 7, _HEMMED))
    kassius = sc.add("kassius_kaos", 0, (3, 3), injuries=7)
    bill = sc.add("bill_tell", 1, (9, 3))
    return Position(sc, {"wounded": kassius, "archer": bill}, kassius)


def _healer_hides() -> Position:
    sc = _scenario(_grid(10, 7, _HEMMED))
    healey = sc.add("lil_healey", 0, (3, 3), injuries=5)
    bill = sc.add("bill_tell", 1, (9, 3))
    return Position(sc, {"wounded": healey, "archer": bill}, healey)


def _anna_closes_in() -> Position:
    sc = _scenario(_grid(8, 7))
    anna = sc.add("anna_tommy", 0, (1, 3))
    sc.add("bill_tell", 1, (5, 3))  # he shoots her next turn wherever she stands on this board
    sc.add("lil_healey", 1, (7, 6))
    return Position(sc, {"melee": anna}, anna)


def _king_pins_the_archer() -> Position:
    sc = _scenario(_grid(8, 7))
    king = sc.add("king_of_the_gobballs", 0, (2, 3))
    bill = sc.add("bill_tell", 1, (5, 3))
    sc.add("kassius_kaos", 1, (7, 0))
    return Position(sc, {"king": king, "archer": bill}, king)


def _keep_the_puff() -> Position:
    sc = _scenario(_grid(8, 5))
    kassius = sc.add("kassius_kaos", 0, (1, 2))
    queen = sc.add("queen_of_the_tofus", 1, (7, 0))
    sc.add("tofu", 1, (3, 2), summoner=queen)
    return Position(sc, {"kassius": kassius}, kassius)


def _heal_the_dying_ally() -> Position:
    sc = _scenario(_grid(8, 6))
    healey = sc.add("lil_healey", 0, (1, 2))
    bill = sc.add("bill_tell", 0, (3, 2), injuries=5)
    sc.add("oscar_kass", 1, (4, 2))
    sc.add("kassius_kaos", 1, (1, 5))
    return Position(sc, {"healer": healey, "dying": bill}, healey, {"injuries": 5})


def _summon_clear_of_the_bomb() -> Position:
    sc = _scenario(_grid(8, 6, {(6, 2): "T"}))
    queen = sc.add("queen_of_the_tofus", 0, (5, 3))
    aboum = sc.add("bad_aboum", 0, (1, 4))
    sc.add("water_bomb", 0, (4, 2), summoner=aboum)
    sc.add("oscar_kass", 1, (5, 2))
    sc.add("bill_tell", 1, (7, 0))
    return _with_side_totals(Position(sc, {"queen": queen, "bomber": aboum}))


def _step_out_of_the_blast() -> Position:
    sc = _scenario(_grid(8, 6))
    anna = sc.add("anna_tommy", 0, (3, 3))
    aboum = sc.add("bad_aboum", 0, (0, 0))
    bomb = sc.add("water_bomb", 0, (3, 2), summoner=aboum)
    sc.add("kassius_kaos", 1, (4, 3))
    sc.add("bill_tell", 1, (7, 5))
    return Position(sc, {"anna": anna, "bomb": bomb})


def _dive_the_archer_together() -> Position:
    sc = _scenario(_grid(8, 6))
    anna = sc.add("anna_tommy", 0, (2, 1))
    king = sc.add("king_of_the_gobballs", 0, (4, 3))
    bill = sc.add("bill_tell", 1, (6, 1), injuries=3)
    sc.add("kassius_kaos", 1, (0, 5))
    return Position(sc, {"anna": anna, "king": king, "archer": bill})


def _kama_on_the_way() -> Position:
    sc = _scenario(_grid(7, 3, {(2, 1): "1", (3, 1): "D"}))
    oscar = sc.add("oscar_kass", 0, (1, 1))
    sc.add("bill_tell", 1, (6, 0))
    sc.arena.board_kamas[sc.cell(3, 1)] = 0  # only the kama on the way
    sc.arena.kamas[:] = [9, 0]
    sc.arena.gg[:] = [3, 3]
    sc.arena.wild_gg = 0
    return Position(sc, {"buyer": oscar}, oscar)


def _avoid_the_lock_holder() -> Position:
    sc = _scenario(_grid(6, 4, {(1, 1): "D"}))
    oscar = sc.add("oscar_kass", 0, (0, 0))
    oscar.minus_ap = 4  # 2 AP this turn: too few to fight the King, enough to buy
    sc.add("king_of_the_gobballs", 1, (2, 0))
    sc.arena.board_kamas[sc.cell(1, 1)] = 0
    sc.arena.kamas[:] = [10, 0]
    sc.arena.gg[:] = [5, 1]  # the purchase wins the match: a lock block would throw it away
    sc.arena.wild_gg = 0
    return Position(sc, {"buyer": oscar}, oscar)


def _gobball_sets_up_the_hit() -> Position:
    sc = _scenario(_grid(7, 5))
    king = sc.add("king_of_the_gobballs", 0, (1, 2))
    target = sc.add("kassius_kaos", 1, (3, 2))
    sc.add("bill_tell", 1, (6, 4))
    return Position(sc, {"king": king, "target": target}, king)


def _hide_behind_a_body() -> Position:
    # Bill Tell hemmed in by bushes; the King (out of MP this turn) stands between him and one cell:
    # the only cell Kassius can reach that Bill cannot shoot next turn is behind the King's body.
    sc = _scenario(_grid(10, 5, {(8, 2): "B", (9, 1): "B", (9, 3): "B"}))
    king = sc.add("king_of_the_gobballs", 0, (3, 0))
    king.minus_mp, king.minus_ap = 3, 7  # spent: he stays where he is and does nothing this turn
    kassius = sc.add("kassius_kaos", 0, (3, 2), injuries=7)
    bill = sc.add("bill_tell", 1, (9, 2))
    return Position(sc, {"wounded": kassius, "archer": bill}, kassius)


def _swap_the_wounded_out() -> Position:
    sc = _scenario(_grid(10, 6))
    anna = sc.add("anna_tommy", 0, (1, 2))
    bill = sc.add("bill_tell", 0, (4, 2), injuries=5)
    sc.add("king_of_the_gobballs", 1, (5, 2))
    return Position(sc, {"rescuer": anna, "wounded": bill}, anna)


def _safe_from_every_enemy(p: Position) -> bool:
    wounded = p.pieces["wounded"]
    return wounded.alive and not any(
        exposed_to(p.state, e, wounded.cell)
        for e in p.state.fighters
        if e.side == 1 and e.alive and e.cell >= 0
    )


def _with_side_totals(position: Position) -> Position:
    state = position.state
    position.start["injuries"] = sum(f.injuries for f in state.fighters if f.side == 0 and f.is_character)
    return position


def _own_losses(position: Position) -> bool:
    """Whether side 0 lost a piece, took injuries or a -1 AP marker (a blast gives one even when the
    Armour roll saves the injury, R-A114); bombs aside: they are meant to go off."""
    mine = [f for f in position.state.fighters if f.side == 0 and f.is_character]
    return (
        any(not f.alive or f.minus_ap for f in mine)
        or sum(f.injuries for f in mine) > position.start["injuries"]
    )


def _gained_gg(position: Position, at_least: int) -> bool:
    return position.sc.arena.gg[0] >= at_least


# --------------------------------------------------------------------------- Demonic Rewards
def _reward_scenario(board: str, face_up: Sequence[str] = ()) -> Scenario:
    """A puzzle with the reward market open (R-A23), its face-up row exactly ``face_up`` (the rest
    of the tokens in the face-down piles)."""
    sc = Scenario(board, turn=0, active_side=0, options={"demonic_rewards": True})
    market = sc.open_market(seed=3)
    for pile, spec in market.face_up:  # back on top of the piles they lay beside
        market.piles[pile].append(spec)
    market.face_up.clear()
    ranks = ("granite", "jade", "gold")
    for name in face_up:
        spec = take_from_market(sc.arena, name)
        market.face_up.append((2 * ranks.index(spec.rank), spec))
    return sc


def _reveal_the_boost_for_the_ko() -> Position:
    # Anna carries three -1 AP markers (R-A33, R-A94): one Assault this turn (fire, 1 damage, 3 AP),
    # and Kassius has 3 HP left. Only with the Fire Boost revealed first (0 AP, R-A54, R-A138; a
    # Boost, R-A137: +2 to her next Fire spell) does that Assault KO him.
    sc = _reward_scenario(_grid(6, 3))
    anna = sc.add("anna_tommy", 0, (0, 1))
    anna.minus_ap = 3
    kassius = sc.add("kassius_kaos", 1, (2, 1), injuries=6)
    sc.hold(anna, "fire_boost")
    return Position(sc, {"anna": anna, "target": kassius}, anna)


def _buy_on_the_demon_cell() -> Position:
    # 3 kamas, no GG affordable (10): the King stands on the Demon cell with nobody in reach; Iop
    # Style (granite, 3 kamas: +damage to his next attack) lies face up. Buy it (R-A51) rather than
    # walk off with the kamas.
    sc = _reward_scenario(_grid(9, 7, {(1, 3): "D"}), face_up=["iop_style"])
    king = sc.add("king_of_the_gobballs", 0, (1, 3))
    sc.add("kassius_kaos", 1, (8, 0))
    sc.arena.kamas[:] = [3, 0]
    return Position(sc, {"king": king}, king)


def _give_to_the_ally_it_helps() -> Position:
    # The Water-Air Dofus (gold) adds to Water and Air attacks: worth nothing to the King (Earth),
    # much to the archer Bill Tell (Air). The King buys it on the Demon cell and gives it to Bill
    # (R-A52: to any allied Krosmaster), rather than keep it or buy a GG with the same kamas.
    sc = _reward_scenario(_grid(9, 7, {(1, 3): "D"}), face_up=["water_air_dofus"])
    king = sc.add("king_of_the_gobballs", 0, (1, 3))
    bill = sc.add("bill_tell", 0, (0, 6))
    sc.add("kassius_kaos", 1, (8, 0))
    sc.arena.kamas[:] = [12, 0]
    return Position(sc, {"king": king, "ally": bill}, king)


def _holds(f: Fighter, reward: str) -> bool:
    return any(t.spec.id == reward for t in tokens_of(f))


PUZZLES: tuple[Puzzle, ...] = (
    Puzzle(
        "buy_the_winning_gg",
        "walk onto the Demon cell and buy the GG that takes the opponent's last one",
        _buy_the_winning_gg,
        lambda p: p.state.winner == 0,
    ),
    Puzzle(
        "buy_two_gg",
        "24 kamas next to a Demon cell at 2-3: buy twice (4-1) rather than trade blows",
        _buy_two_gg,
        lambda p: _gained_gg(p, 4),
    ),
    Puzzle(
        "lethal_ko",
        "step into sight and shoot the 1-HP Kassius, not the healthy Anna",
        _lethal_ko,
        lambda p: not p.pieces["target"].alive,
    ),
    Puzzle(
        "retreat_out_of_sight",
        "Kassius at 7/9 ends where Bill Tell cannot shoot him next turn, Distant Shot included",
        _retreat_out_of_sight,
        lambda p: not exposed_to(p.state, p.pieces["archer"], p.pieces["wounded"].cell),
    ),
    Puzzle(
        "healer_hides",
        "Lil Healey at 5/8 heals out of the archer's sight, not in his open line",
        _healer_hides,
        lambda p: not exposed_to(p.state, p.pieces["archer"], p.pieces["wounded"].cell),
    ),
    Puzzle(
        "anna_closes_in",
        "Anna Tommy walks up to the archer and fights (injures an enemy or ends next to one)",
        _anna_closes_in,
        lambda p: (
            _damage(p.pieces["melee"]) > 0
            or any(_adjacent(p.state, p.pieces["melee"], e) for e in p.state.fighters if e.side == 1)
        ),
    ),
    Puzzle(
        "king_pins_the_archer",
        "the King (Lock) ends next to Bill Tell, who must then roll to walk away",
        _king_pins_the_archer,
        lambda p: _adjacent(p.state, p.pieces["king"], p.pieces["archer"]) or not p.pieces["archer"].alive,
    ),
    Puzzle(
        "keep_the_puff",
        "no Krosmaster can be Puffed this turn: keep the once-per-game Puff, not spend it on a Tofu",
        _keep_the_puff,
        lambda p: "puff" not in p.pieces["kassius"].game_uses,
    ),
    Puzzle(
        "heal_the_dying_ally",
        "heal Bill Tell (1 HP left, an enemy next to him) rather than attack",
        _heal_the_dying_ally,
        lambda p: p.pieces["dying"].alive and p.pieces["dying"].injuries < p.start["injuries"],
    ),
    Puzzle(
        "summon_clear_of_the_bomb",
        "the Queen (in the blast square) and her Tofu keep out of the team's own Water Bomb blast",
        _summon_clear_of_the_bomb,
        lambda p: not _own_losses(p),
    ),
    Puzzle(
        "step_out_of_the_blast",
        "Anna is not in the square of the team's Water Bomb when it goes off (no injury, no -1 AP)",
        _step_out_of_the_blast,
        lambda p: (
            p.pieces["anna"].alive and p.pieces["anna"].injuries == 0 and p.pieces["anna"].minus_ap == 0
        ),
    ),
    Puzzle(
        "dive_the_archer_together",
        "Anna and the King both reach the wounded back-line Bill Tell and KO him",
        _dive_the_archer_together,
        lambda p: not p.pieces["archer"].alive,
    ),
    Puzzle(
        "kama_on_the_way",
        "9 kamas at 3-3: pick up the kama on the way to the Demon cell, then buy the GG",
        _kama_on_the_way,
        lambda p: _gained_gg(p, 4),
    ),
    Puzzle(
        "avoid_the_lock_holder",
        "a purchase wins at 5-1: walk to the Demon cell away from the King's Lock (no lock roll), buy",
        _avoid_the_lock_holder,
        lambda p: p.state.winner == 0 and _locks_against(p, p.pieces["buyer"]) == 0,
    ),
    Puzzle(
        "hide_behind_a_body",
        "Kassius at 7/9 hides behind the King's body, the one cell Bill Tell cannot shoot next turn",
        _hide_behind_a_body,
        lambda p: not exposed_to(p.state, p.pieces["archer"], p.pieces["wounded"].cell),
    ),
    Puzzle(
        "swap_the_wounded_out",
        "Anna's Transposition takes Bill Tell (1 HP, next to the King) out of the King's reach",
        _swap_the_wounded_out,
        _safe_from_every_enemy,
    ),
    Puzzle(
        "gobball_sets_up_the_hit",
        "summon the Gobball next to the target, then Gobbolob it (+2)",
        _gobball_sets_up_the_hit,
        lambda p: (
            p.pieces["target"].injuries >= 2
            and any(
                t.alive and t.spec.id == "gobball" and _adjacent(p.state, t, p.pieces["target"])
                for t in p.pieces["king"].summons
            )
        ),
    ),
    Puzzle(
        "reveal_the_boost_for_the_ko",
        "Anna, with AP for one Assault, reveals her Fire Boost before it: +2 damage KOs Kassius",
        _reveal_the_boost_for_the_ko,
        lambda p: not p.pieces["target"].alive,
        ("R-A33", "R-A54", "R-A94", "R-A137", "R-A138"),
    ),
    Puzzle(
        "buy_on_the_demon_cell",
        "3 kamas on a Demon cell, no GG affordable: buy the face-up Iop Style rather than walk away",
        _buy_on_the_demon_cell,
        lambda p: any(tokens_of(f) for f in p.state.fighters if f.side == 0),
        ("R-A23", "R-A51", "R-A136"),
    ),
    Puzzle(
        "give_to_the_ally_it_helps",
        "the King buys the Water-Air Dofus for Bill Tell (Air attacks), the ally it helps most",
        _give_to_the_ally_it_helps,
        lambda p: _holds(p.pieces["ally"], "water_air_dofus"),
        ("R-A51", "R-A52", "R-A53"),
    ),
)


def format_table(table: dict[str, dict[str, float]], seeds: int) -> str:
    """A Markdown table: one row per puzzle, one column per AI, solved seeds out of ``seeds``, and
    per AI the puzzles solved on at least 3/4 of the seeds."""
    ais = list(table)
    names = list(next(iter(table.values()))) if table else []
    lines = ["| puzzle | " + " | ".join(ais) + " |", "|---|" + "---|" * len(ais)]
    for name in names:
        lines.append(
            f"| {name} | " + " | ".join(f"{round(table[a][name] * seeds)}/{seeds}" for a in ais) + " |"
        )
    solved = [sum(1 for v in table[a].values() if v >= 0.75) for a in ais]
    lines.append(
        "| **solved (>= 3/4 of seeds)** | " + " | ".join(f"**{s}/{len(names)}**" for s in solved) + " |"
    )
    return "\n".join(lines)
