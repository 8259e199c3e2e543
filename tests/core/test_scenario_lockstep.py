"""The scenario kit's lockstep with the core (issues 37 and 41, ``krosbalance.testing.scenario_core``):
a position crosses whole and comes back unchanged (Arena's, the Duel Pack's, Blast's), a step the
engines disagree on fails naming the step and both states, and what the core cannot rebuild stops
the mirroring with a reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from krosbalance import native
from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK
from krosbalance.testing.blast import BlastScenario
from krosbalance.testing.duel import DuelScenario
from krosbalance.testing.position_export import export_position, plain
from krosbalance.testing.scenario import Scenario, ScriptedController
from krosbalance.testing.scenario_core import ScenarioDivergence, observed

pytestmark = pytest.mark.skipif(not native.available(), reason=str(native.why_unavailable()))

COVERAGE = Path(__file__).parent / "scenario_coverage.json"


def _fight() -> Scenario:
    sc = Scenario(". . . .\n. . . .", dice=[CRITICAL, ARMOUR, ARMOUR, ARMOUR], core=True)
    sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    return sc


def test_steps_are_played_by_both_engines() -> None:
    sc = _fight()
    anna, king = sc.state.fighters
    sc.activate(anna)
    sc.cast(anna, "assault", (2, 1))
    sc.end_turn()
    assert sc.mirror is not None and sc.mirror.active
    assert sc.mirror.steps == 3
    assert "spell_cast" in sc.event_kinds() and king.alive


def test_a_position_crosses_whole() -> None:
    """Rebuilt in the core and read back with no step, a position is the one exported."""
    sc = _fight()
    anna, king = sc.state.fighters
    anna.injuries, king.plus_ap, sc.arena.gg[1] = 4, 2, 3
    sc.hold(anna, sc.source.registry.all_rewards()[0].id)
    anna.banned_targets["assault"] = 1
    before = export_position(sc.state, [CRITICAL])
    assert sc.mirror is not None
    from krosbalance.testing.scenario_core import _catalog

    catalog = _catalog(sc.mirror._specs(), sc.source.registry.all_rewards())
    out = native.core().scenario_step(
        catalog, native.core_board(sc.board), sc.rules.options, before, ("none", -1, 0, -1, -1)
    )
    assert out["problems"] == [] and out["events"] == []
    del before["dice"]
    assert plain(out["position"]) == plain(before)


def test_a_divergence_names_the_step_and_both_states() -> None:
    """A divergence planted in the core's step (test-only) fails the scenario with a report."""
    sc = _fight()
    anna, _ = sc.state.fighters
    sc.activate(anna)
    assert sc.mirror is not None
    sc.mirror.plant = "step"
    with pytest.raises(ScenarioDivergence) as failure:
        sc.cast(anna, "assault", (2, 1))
    report = str(failure.value)
    assert "scenario step 2 (perform <anna_tommy#0" in report
    assert "first differing event: #0" in report
    assert "core events:" in report and "reference events:" in report
    assert "'turn': 101" in report and "'turn': 1," in report
    assert "position before the step" in report and "core position after" in report
    assert sc.mirror.stopped == "diverged"


def test_a_legality_divergence_names_the_fighter_and_the_actions() -> None:
    """The core's legal actions (one planted away, test-only) must be the reference's list."""
    sc = _fight()
    anna, _ = sc.state.fighters
    sc.activate(anna)
    assert sc.mirror is not None
    sc.mirror.plant = "legal"
    with pytest.raises(ScenarioDivergence) as failure:
        sc.can_cast(anna, "assault", (2, 1))
    report = str(failure.value)
    assert "disagree on what <anna_tommy#0" in report
    assert "only the reference's [(0, -1, -1)]" in report
    assert "position:" in report


def test_a_state_divergence_is_reported_by_path() -> None:
    """Only the position differs (the test writes to the reference behind the core's back, inside
    the step): the report names the path and both values."""
    sc = _fight()
    anna, king = sc.state.fighters
    sc.activate(anna)
    assert sc.mirror is not None

    def run(log: object) -> None:
        from krosbalance.engine.turn import perform

        perform(sc.state, anna, sc.cast_action(anna, "assault", (2, 1)))
        king.plus_mp += 1

    with pytest.raises(ScenarioDivergence, match=r"fighters\[1\]\.plus_mp: core 0 != reference 1"):
        sc.mirror.step("perform", anna, run, sc.cast_action(anna, "assault", (2, 1)))


def test_a_game_turn_replays_the_controllers_answers() -> None:
    sc = Scenario(". . . .\n. . . .", dice=[CRITICAL, ARMOUR, ARMOUR, ARMOUR], turn=1, core=True)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.state.turn = 0
    sc.play_turn(ScriptedController([(anna, sc.cast_action(anna, "assault", (2, 1)))]))
    assert sc.mirror is not None and sc.mirror.active and sc.mirror.steps == 1


def test_what_the_core_cannot_rebuild_stops_the_mirroring() -> None:
    with observed() as seen:
        sc = _fight()
        anna, _ = sc.state.fighters
        sc.state.enter_cells = 1  # no Arena cell has an on-enter rule
        sc.activate(anna)
    assert sc.mirror is not None and "on-enter rule" in sc.mirror.stopped
    assert seen.stopped == [sc.mirror.stopped] and seen.steps == 0


def test_off_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Scenario(". .", core=False).mirror is None
    assert Scenario(". .", ruleset="arena").mirror is not None
    assert DuelScenario(". X", core=False).mirror is None and DuelScenario(". X").mirror is not None
    assert BlastScenario(". G", core=False).mirror is None and BlastScenario(". G").mirror is not None
    monkeypatch.setenv("KROSBALANCE_SCENARIO_CORE", "0")
    assert Scenario(". .").mirror is None


def test_the_committed_coverage_is_a_floor() -> None:
    """The list of kit-based Arena tests on both engines exists and says why for every other test."""
    listing = json.loads(COVERAGE.read_text())
    assert len(listing["both"]) >= 300
    assert all(why for why in listing["reference"].values())
    assert not set(listing["both"]) & set(listing["reference"])


def test_a_test_that_leaves_the_core_fails(tmp_path: Path) -> None:
    """A test the committed list says runs on both engines fails when it no longer does."""
    from krosbalance.testing.scenario_core import Observed
    from krosbalance.testing.scenario_coverage import after_test

    listing = tmp_path / "coverage.json"
    listing.write_text(json.dumps({"both": ["t::x"], "reference": {}}))
    assert after_test("t::x", Observed(scenarios=1, steps=3), listing) is None
    failure = after_test(
        "t::x", Observed(scenarios=1, steps=2, stopped=["the position holds a trap"]), listing
    )
    assert failure is not None and "no longer does: the position holds a trap" in failure
    assert after_test("t::y", Observed(scenarios=1), listing) is None


# ------------------------------------------------------------------ the Duel Pack and Blast (issue 41)


def _crosses_whole(sc: Scenario) -> None:
    """Rebuilt in the core and read back with no step, the scenario's position is the one exported."""
    assert sc.mirror is not None
    before = export_position(sc.state, [CRITICAL])
    out = sc.mirror._core_step()(before, ("none", -1, 0, -1, -1))
    assert out["problems"] == [] and out["events"] == []
    del before["dice"]
    assert plain(out["position"]) == plain(before)


@pytest.fixture
def duel() -> DuelScenario:
    """Two Duel Pack Krosmasters on a board with two duel cells."""
    from krosbalance.testing.duel import duel_pack

    pack = duel_pack()
    sc = DuelScenario(". X . X\n. . . .", dice=[LOCK, ARMOUR])
    sc.add(pack[0], side=0, at=(0, 0))
    sc.add(pack[-1], side=1, at=(2, 1))
    return sc


def test_a_duel_position_crosses_whole(duel: DuelScenario) -> None:
    """Level, supply, the tactical row, tokens on duel cells, face down and revealed on the cards,
    a bonus held until the turn's end: all rebuilt in the core as the reference holds them."""
    sc = duel
    me, foe = sc.state.fighters
    tokens = sc.ds.token_set.tokens
    sc.ds.duel_level = 9
    sc.give_token(me, tokens[0].id)
    sc.give_token(foe, tokens[1].id, face_up=True)
    sc.put_token(sc.ds.piles[1][0].id, (1, 0))
    sc.ds.face_up[2] = sc.take_from_supply(sc.ds.piles[2][-1].id)
    sc.ds.pending.append((me.uid, tokens[0]))
    sc.ds.drafted, sc.ds.picked, sc.ds.revealed = [1, 2], [0, 1], [1, 0]
    sc.ds.start_tokens[0].append(tokens[0])
    me.injuries, foe.minus_ap = 2, 1
    _crosses_whole(sc)


def test_a_duel_step_the_core_plays_differently_fails(duel: DuelScenario) -> None:
    sc = duel
    me, _ = sc.state.fighters
    sc.activate(me)
    assert sc.mirror is not None and sc.mirror.steps == 1
    sc.mirror.plant = "step"
    with pytest.raises(ScenarioDivergence, match="scenario step 2"):
        sc.move(me, (1, 0))


def _blast() -> BlastScenario:
    sc = BlastScenario(
        "G . . G\n. . . .\n. . . .",
        dice=[LOCK],
        favors=("rapidite", "soin"),
        challenges=["grande_melee_de_iop"],
    )
    sc.add("gege_ronimo", side=0, at=(1, 0))
    sc.add("sam_sram", side=1, at=(2, 2))
    return sc


def test_a_blast_position_crosses_whole() -> None:
    """Glyphs held, tiles, the Dofus token, deck and slots, challenges and tiers, the per-turn
    limits and the study's counters: all rebuilt in the core as the reference holds them."""
    sc = _blast()
    gege, sam = sc.state.fighters
    sc.own(0, (0, 0))
    sc.own(1, (3, 0))
    sc.tile("ice", (0, 1))
    sc.tile("fog", (3, 2))
    bs = sc.bs
    from krosbalance.content.blast import blast_cards

    bs.deck = [blast_cards().favor("soin"), blast_cards().favor("rapidite")]
    bs.slot_used = [True, False]
    bs.bonus_used.add((gege.uid, 0))
    bs.spell_bonus[gege.uid] = 1
    bs.rerolled.add((gege.uid, "power"))
    bs.peak, bs.captures, bs.favor_uses = [2, 1], [3, 1], [1, 0]
    bs.tier_turn[0][0] = 2
    bs.bonus_uses[0][0] = 4
    sam.injuries = 3
    _crosses_whole(sc)


def test_a_blast_step_the_core_plays_differently_fails() -> None:
    sc = _blast()
    gege, _ = sc.state.fighters
    sc.activate(gege)
    assert sc.mirror is not None
    sc.mirror.plant = "step"
    with pytest.raises(ScenarioDivergence, match="first differing event: #0"):
        sc.move(gege, (0, 0))  # captures the glyph
