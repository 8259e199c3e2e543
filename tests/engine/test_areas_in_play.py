"""Areas of effect in play (R-A97-R-A99); the pure shapes are tested in tests/board/test_areas.py."""

from __future__ import annotations

from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK
from krosbalance.testing import Scenario

from .specs import character, spell

CROSS = spell("nova", element="fire", area="cross", rmin=1, rmax=3)
# no line of sight needed, so the pieces placed around the main target never hide it
SQUARE = spell("quake", element="fire", area="square", rmin=1, rmax=6, needs_los=False)
CROSS_FAR = spell("nova", element="fire", area="cross", rmin=1, rmax=6, needs_los=False)


def test_r_a97_one_critical_roll_for_the_spell_one_armour_roll_per_target():
    mage = character("mage", spells=(CROSS,))
    sc = Scenario(
        """. . . . .
                     . . . . .
                     . . . . .""",
        dice=[CRITICAL, LOCK, ARMOUR, LOCK, LOCK],
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(3, 1))  # main target
    lil = sc.add("lil_healey", side=1, at=(3, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(4, 1))  # 2 Armour dice
    sc.activate(me)
    sc.cast(me, "nova", (3, 1))
    rolls = [(e.roll, e.uid) for e in sc.events("dice_rolled")]
    assert rolls[0] == ("critical", me.uid)
    assert sorted(rolls[1:]) == sorted([("armour", anna.uid), ("armour", lil.uid), ("armour", king.uid)])
    injuries = {f.spec.id: f.injuries for f in (anna, lil, king)}
    assert sum(injuries.values()) == 2 + 2 + 2 - 1  # 2 damage each, one Armour success among them
    assert sc.dice.remaining == 0


def test_r_a97_main_and_extra_targets_get_the_same_additional_effects():
    push = spell(
        "blast",
        element="fire",
        area="cross",
        rmin=1,
        rmax=3,
        amount=0,
        effects=(("minus_ap", {"amount": 1}),),
    )
    mage = character("mage", spells=(push,))
    sc = Scenario(
        """. . . . .
                     . . . . .
                     . . . . .""",
        dice=[LOCK],
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 1))
    anna = sc.add("anna_tommy", side=1, at=(3, 1))
    lil = sc.add("lil_healey", side=1, at=(3, 2))
    bill = sc.add("bill_tell", side=1, at=(4, 2))  # diagonal: outside the Cross
    sc.activate(me)
    sc.cast(me, "blast", (3, 1))
    assert (anna.minus_ap, lil.minus_ap, bill.minus_ap) == (1, 1, 0)
    assert sc.dice.remaining == 0


def test_r_a98_extra_cells_need_no_line_of_sight():
    mage = character("mage", spells=(CROSS,))
    sc = Scenario(
        """. . . .
                     . T . .
                     . . . .""",
        dice=[LOCK, LOCK],
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 1))  # behind the tree from the caster
    sc.activate(me)
    assert not sc.can_cast(me, "nova", (2, 1))
    sc.cast(me, "nova", (2, 0))  # Anna is an extra cell of the Cross
    assert anna.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a98_default_the_caster_is_hit_by_its_own_area():
    mage = character("mage", spells=(CROSS,))
    sc = Scenario(
        """. . . .
                     . . . .""",
        dice=[LOCK, LOCK, LOCK],
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(me)
    sc.cast(me, "nova", (1, 0))
    assert me.injuries == 1 and anna.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a98_option_the_caster_is_spared_by_its_own_area():
    mage = character("mage", spells=(CROSS,))
    sc = Scenario(
        """. . . .
                     . . . .""",
        dice=[LOCK, LOCK],
        specs=[mage],
        options={"caster_in_own_area": False},
    )
    me = sc.add(mage, side=0, at=(0, 0))
    anna = sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(me)
    sc.cast(me, "nova", (1, 0))
    assert me.injuries == 0 and anna.injuries == 1
    assert sc.dice.remaining == 0


def test_r_a99_square_is_the_target_and_its_eight_neighbours():
    mage = character("mage", hp=10, spells=(SQUARE,))
    sc = Scenario(
        """. . . . . .
                     . . . . . .
                     . . . . . .
                     . . . . . .""",
        dice=[LOCK] + [LOCK] * 8,
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 3))
    hit = [
        sc.add("lil_healey", side=1, at=xy)
        for xy in ((1, 0), (2, 0), (3, 0), (1, 1), (3, 1), (1, 2), (2, 2), (3, 2))
    ]
    missed = [sc.add("lil_healey", side=1, at=xy) for xy in ((4, 1), (2, 3), (0, 1))]
    sc.activate(me)
    sc.cast(me, "quake", (2, 1))  # an empty main target cell
    assert [f.injuries for f in hit] == [1] * 8
    assert [f.injuries for f in missed] == [0] * 3
    assert sc.dice.remaining == 0


def test_r_a99_cross_is_the_target_and_its_four_orthogonal_neighbours():
    mage = character("mage", spells=(CROSS_FAR,))
    sc = Scenario(
        """. . . . .
                     . . . . .
                     . . . . .
                     . . . . .""",
        dice=[LOCK] * 6,
        specs=[mage],
    )
    me = sc.add(mage, side=0, at=(0, 3))
    hit = [sc.add("lil_healey", side=1, at=xy) for xy in ((2, 1), (2, 0), (1, 1), (3, 1), (2, 2))]
    missed = [sc.add("lil_healey", side=1, at=xy) for xy in ((1, 0), (3, 2), (4, 1))]
    sc.activate(me)
    sc.cast(me, "nova", (2, 1))
    assert [f.injuries for f in hit] == [1] * 5
    assert [f.injuries for f in missed] == [0] * 3
    assert sc.dice.remaining == 0
