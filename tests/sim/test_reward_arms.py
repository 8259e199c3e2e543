"""The reward study's per-holder and purchase arms (issue 18): experiment keys, expansion, pairing."""

from __future__ import annotations

import json

import pytest

from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import expand, loads_experiment
from krosbalance.sim.reward_arms import parse_variant, reward_variants, variant_options
from tests.sim.fakes import FakeCatalog

CAT = FakeCatalog()
TEAM_A = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"]
TEXT = """
name = "priced"
master_seed = 5
matches_per_pairing = 2
ais = ["focus_fire"]
held_rewards = ["xelor_style", "feca_style"]
{extra}
[teams]
mode = "{mode}"
{teams}
"""
PAIRS = f'pairs = [[{json.dumps(TEAM_A)}, ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]]]'


def load(extra: str, mode: str = "pairs", teams: str = PAIRS):
    return loads_experiment(TEXT.format(extra=extra, mode=mode, teams=teams), catalog=CAT)


def test_r_a52_each_holder_of_team_a_gets_its_own_arm_paired_on_the_deal_seed() -> None:
    exp = load('reward_holders = "each"\npurchase_rewards = ["action_dofus"]')
    variants = exp.reward_variants
    assert variants[0] == "" and variants[-1] == "buy:action_dofus"
    assert [v for v in variants if v.startswith("xelor_style@")] == [f"xelor_style@{c}" for c in TEAM_A]
    assert len(variants) == 1 + 2 * len(TEAM_A) + 1
    specs = expand(exp)
    assert len(specs) == exp.n_matches == 2 * len(variants) * 2  # deals x variants x seatings
    for deal in (0, 1):
        group = [s for s in specs if s.deal == deal]
        assert len({s.seed for s in group}) == 1  # every arm paired with the baseline
        arms = {(s.variant, s.swapped): s.options for s in group}
        swapped = arms[(f"feca_style@{TEAM_A[2]}", True)]
        assert swapped["start_rewards"] == [[], ["feca_style"]]  # team A on side 1
        assert swapped["start_reward_holders"] == [[], [TEAM_A[2]]]
        assert arms[("buy:action_dofus", False)]["purchasable_rewards"] == [["action_dofus"], []]
        assert arms[("", False)] == {}


def test_each_and_ai_keeps_the_ais_own_pick_beside_every_holder() -> None:
    exp = load('reward_holders = "each_and_ai"')
    assert "xelor_style" in exp.reward_variants and f"xelor_style@{TEAM_A[0]}" in exp.reward_variants
    assert len(exp.reward_variants) == 1 + 2 * (1 + len(TEAM_A))


@pytest.mark.parametrize(
    ("extra", "mode", "teams", "field", "reason"),
    [
        ('reward_holders = "some"', "pairs", PAIRS, "reward_holders", "must be one of"),
        ('reward_holders = "each"', "random_deal", 'pool = ["bill_tell"]', "reward_holders", "random deal"),
        ('purchase_rewards = ["xelor_stile"]', "pairs", PAIRS, "purchase_rewards[0]", "unknown reward"),
        ('purchase_rewards = "some"', "pairs", PAIRS, "purchase_rewards", '"all"'),
    ],
)
def test_bad_reward_arm_keys_name_the_field_and_the_reason(extra, mode, teams, field, reason) -> None:
    with pytest.raises(ExperimentError) as info:
        load(extra, mode, teams)
    assert info.value.field == field and reason in info.value.reason
    assert "\n" not in str(info.value)  # one line


def test_variant_names_round_trip() -> None:
    for variant in reward_variants(["a"], "each_and_ai", ["b"], ["x", "y"]):
        kind, token, holder = parse_variant(variant)
        options = json.loads(variant_options({}, variant, False))
        if kind == "buy":
            assert options == {"purchasable_rewards": [[token], []]}
        elif kind == "holder":
            assert options["start_reward_holders"] == [[holder], []] and holder in ("x", "y")
        elif kind == "held":
            assert options == {"start_rewards": [[token], []]}
        else:
            assert variant == "" and options == {}
