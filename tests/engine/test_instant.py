"""The same instant (engine.instant): KOs, GG gains and victory of one action or trigger settle together
(R-A10, R-A104, R-A111-R-A113, R-A116, R-A129-R-A133)."""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, LOCK
from krosbalance.testing import Scenario, ScriptedController

from .specs import GLOBULO, character, spell

BOARD = """. . . . . . .
           . . . . . . .
           . . . . . . ."""

#: a 10-HP Krosmaster with Counter and nothing else (no Armour: one Armour die)
COUNTERER = character("counterer", powers=("counter",))
#: a trap whose spell hits the trap's cell and the eight around it
SQUARE_TRAP = character(
    "square_trap",
    kind="trap",
    level=0,
    initiative=0,
    mp=0,
    hp=0,
    ap=0,
    powers=("unfazed",),
    spells=(spell("blast", range_type="personal", rmin=0, rmax=0, ap=0, amount=1, area="square"),),
)


def _punch_counter(last: bool, gg: tuple[int, int] = (6, 6)):
    """Anna (1 HP left, side 0, active) punches a Counter holder with 1 HP left: punch Critical die
    LOCK, defender's Armour die LOCK -> 1 injury, KO; Counter -> Anna's 1 injury, KO."""
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[COUNTERER])
    anna = sc.add("anna_tommy", side=0, at=(2, 1), injuries=11)
    defender = sc.add(COUNTERER, side=1, at=(3, 1), injuries=9)
    if not last:
        sc.add("lil_healey", side=0, at=(0, 0))
        sc.add("bill_tell", side=1, at=(6, 2))
    sc.arena.gg[:] = list(gg)
    sc.activate(anna)
    sc.cast(anna, "punch", (3, 1))
    assert sc.dice.remaining == 0
    return sc, anna, defender


def test_r_a104_r_a132_counter_and_ko_at_the_same_instant_leave_nobody_alone_with_krosmasters():
    """The issue's case: each side's last Krosmaster, KO'd by one punch and its Counter. Neither player
    alone has Krosmasters, so nobody wins by pieces; the active player took the wild GG first (R-A130),
    then the opponent 3 GG from him: both hold GG, so the GG do not decide either: a draw."""
    sc, anna, defender = _punch_counter(last=True)
    assert not anna.alive and not defender.alive
    assert anna.cell == -1 and defender.cell == -1
    assert sc.arena.gg == [6, 7] and sc.arena.wild_gg == 0
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "mutual_ko"


def test_r_a130_counter_ko_the_active_player_takes_the_wild_gg_first():
    """With Krosmasters left on both sides: the attacker's player (active) gains first, so he takes
    the wild GG and 2 GG from the opponent (9-4), then the opponent takes 3 from him: [6, 7] — not
    [7, 6], which is what giving the Counter KO's GG first would do."""
    sc, anna, defender = _punch_counter(last=False)
    assert not anna.alive and not defender.alive
    assert sc.arena.gg == [6, 7] and sc.arena.wild_gg == 0
    gains = [(e.side, e.amount, e.origin) for e in sc.events("gg_changed")]
    assert gains == [(0, 1, "wild"), (0, 2, "opponent"), (1, 3, "opponent")]
    assert not sc.state.finished


def test_r_a132_a_mutual_ko_is_decided_by_gg_when_only_one_player_holds_any():
    """Anna's player has 0 GG while the wild GG is still there (no loss yet, R-A132). The mutual KO
    gives him the wild GG and 2 more, then the opponent takes those 3 back: once the wild GG is gone
    only the opponent holds GG, and he wins by GG, not by pieces."""
    sc, anna, defender = _punch_counter(last=True, gg=(0, 6))
    assert sc.arena.gg == [0, 7] and sc.arena.wild_gg == 0
    assert sc.state.winner == 1 and sc.state.end_reason == "gg"


def test_r_a69_r_a132_a_self_ko_by_injury_cost_and_the_last_enemy_ko_are_one_instant():
    """Globulo (side 0's last Krosmaster) pays 4 injuries, reaching his HP, and his spell KOs side 1's
    last Krosmaster: both leave at the same instant, nobody is alone with Krosmasters (not a win for
    the caster, who is KO'd by his own cost)."""
    sc = Scenario(BOARD, dice=[LOCK, LOCK], specs=[GLOBULO])
    globulo = sc.add(GLOBULO, side=0, at=(0, 1), injuries=10)
    anna = sc.add("anna_tommy", side=1, at=(2, 1), injuries=11)
    sc.activate(globulo)
    sc.cast(globulo, "life_transfer", (2, 1))  # Critical LOCK, Anna's Armour LOCK: 1 injury
    assert not globulo.alive and not anna.alive
    assert sc.arena.gg == [6, 7]  # the active player gained first (wild GG + 2), then the opponent 3
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "mutual_ko"
    assert sc.dice.remaining == 0


def test_r_a112_r_a132_a_self_detonation_that_kos_both_last_krosmasters_is_one_instant():
    """Bad Aboum's bomb self-detonates at the start of his turn (R-A112) and its Square catches Bad
    (1 HP left) and the opponent's last Krosmaster (1 HP left): one instant, no winner by pieces."""
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK])
    bad = sc.add("bad_aboum", side=0, at=(2, 1), injuries=9)
    bill = sc.add("bill_tell", side=1, at=(4, 1), injuries=5)
    sc.add("water_bomb", side=0, at=(3, 1), summoner=bad)
    sc.new_turn(0)
    sc.activate(bad)  # explosion: Critical LOCK; Armour LOCK, LOCK
    assert not bad.alive and not bill.alive
    assert sc.arena.gg == [6, 7]
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "mutual_ko"
    assert sc.dice.remaining == 0


def test_r_a116_r_a132_a_trap_that_kos_the_walker_and_its_own_side_is_one_instant():
    """Anna (side 0's last Krosmaster, 1 HP left) walks onto side 1's trap, whose Square also catches
    Bill Tell, side 1's last Krosmaster (1 HP left): both KO'd at one instant."""
    sc = Scenario(BOARD, dice=[LOCK, LOCK, LOCK], specs=[SQUARE_TRAP])
    anna = sc.add("anna_tommy", side=0, at=(0, 1), injuries=11)
    bill = sc.add("bill_tell", side=1, at=(2, 1), injuries=5)
    sc.add(SQUARE_TRAP, side=1, at=(1, 1))
    sc.activate(anna)
    sc.move(anna, (1, 1))  # blast: Critical LOCK; Armour LOCK (Anna), LOCK (Bill)
    assert not anna.alive and not bill.alive and not sc.state.traps
    assert sc.arena.gg == [6, 7]
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "mutual_ko"
    assert sc.dice.remaining == 0


def test_r_a113_a_bomb_ko_in_the_same_instant_as_its_summoner_still_explodes():
    """Bad Aboum and his bomb are both KO'd by one Square spell: the bomb's KO makes it explode in that
    instant; Bad's tokens leave (without exploding) only when the instant settles."""
    sq = character(
        "squarer", spells=(spell("quake", rmin=1, rmax=3, amount=1, area="square", element="earth"),)
    )
    sc = Scenario(BOARD, dice=[LOCK] * 5, specs=[sq])
    caster = sc.add(sq, side=0, at=(0, 1))
    sc.add("lil_healey", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(3, 1), injuries=9)
    sc.add("bill_tell", side=1, at=(6, 2))
    bomb = sc.add("water_bomb", side=1, at=(3, 2), summoner=bad)
    anna = sc.add("anna_tommy", side=1, at=(4, 2))  # next to the bomb only, outside the quake
    sc.activate(caster)
    # quake on (2, 1): Critical LOCK; Armour LOCK (Bad), LOCK (bomb): both KO. Explosion: Critical
    # LOCK; Anna's Armour LOCK (Bad, KO'd in this instant, is no longer a target)
    sc.cast(caster, "quake", (2, 1))
    assert not bad.alive and not bomb.alive
    assert anna.injuries == 1 and anna.minus_ap == 1
    assert [e.spell for e in sc.events("spell_cast")] == ["quake", "explosion"]
    assert sc.dice.remaining == 0


def test_r_a50_r_a132_buying_the_opponents_last_gg_wins_when_the_action_settles():
    sc = Scenario("D . .\n. . .")
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.kamas[0] = 10
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [8, 1]
    sc.arena.gg_removed = 4
    sc.activate(anna)
    sc.buy_gg(anna)
    assert sc.arena.gg == [9, 0]
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "gg"


def test_r_a26_r_a133_a_tension_double_at_one_gg_each_is_one_instant():
    """Both players lose their last GG at one instant: nobody holds GG. By default a draw."""
    sc = Scenario(BOARD, dice=[ARMOUR, ARMOUR], turn=1)
    sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(6, 2))
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [1, 1]
    sc.arena.gg_removed = 11
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, ARMOUR))))
    assert sc.arena.gg == [0, 0]
    assert sc.state.finished and sc.state.winner is None and sc.state.end_reason == "gg_exhausted"
    assert not sc.events("character_turn_started")
