"""[sweep] of a reward's price (the fair price) and of a Divine Challenge's tier (the neutral
threshold): krosbalance.sim.sweep, krosbalance.sim.experiment."""

from __future__ import annotations

import json
import textwrap

import pytest

from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import expand, loads_experiment
from krosbalance.sim.match import play_spec
from krosbalance.sim.patches import patch_options


def _arena(sweep: str, extra: str = "") -> str:
    head = 'name = "priced"\nmaster_seed = 5\nmatches_per_pairing = 2\nais = ["random"]\n'
    return head + extra + '[teams]\nmode = "random_deal"\npool = { set = "arena-box" }\n' + sweep


def _blast(sweep: str, options: str = 'challenges = ["{c}"]') -> str:
    challenge = _challenge()
    return textwrap.dedent(
        f"""
        name = "tiers"
        master_seed = 6
        matches_per_pairing = 1
        boards = ["blast-a"]
        ais = ["blast_brawler"]
        ruleset = "blast"
        [teams]
        mode = "random_deal"
        pool = "all"
        [options]
        {options.replace("{c}", challenge.id)}
        [[variants]]
        name = "none"
        options = {{ challenges = [] }}
        """
    ) + sweep.replace("{c}", challenge.id).replace("{b}", challenge.bonuses[1].id)


def _reward() -> str:
    return default_registry().all_rewards()[0].id


def _challenge():  # type: ignore[no-untyped-def]
    return blast_cards().challenges()[0]


def test_a_price_sweep_plays_each_deal_without_the_token_and_once_per_price() -> None:
    token = _reward()
    exp = loads_experiment(_arena(f'[sweep]\nreward = "{token}"\nvalues = {{ price = [0, 7] }}\n'))
    assert exp.held_rewards == (f"{token}@0", f"{token}@7")
    specs = [s for s in expand(exp) if s.deal == 0]
    assert [s.variant for s in specs] == ["", "", f"{token}@0", f"{token}@0", f"{token}@7", f"{token}@7"]
    assert len({s.seed for s in specs}) == 1  # paired: one seed for every price of a deal
    swapped = next(s for s in specs if s.variant == f"{token}@7" and s.swapped)
    options = json.loads(swapped.options_json)
    assert options["start_rewards"] == [[], [token]] and options["start_reward_prices"] == [[], [7]]
    assert json.loads(exp.sweep)["prices"] == [0, 7]


def test_a_gg_price_sweep_charges_gg() -> None:
    token = _reward()
    exp = loads_experiment(_arena(f'[sweep]\nreward = "{token}"\nvalues = {{ price_gg = [0, 2] }}\n'))
    assert exp.held_rewards == (f"{token}@0gg", f"{token}@2gg")
    spec = next(s for s in expand(exp) if s.variant == f"{token}@2gg" and not s.swapped)
    assert json.loads(spec.options_json)["start_reward_gg_prices"] == [[2], []]
    assert json.loads(exp.sweep)["price_unit"] == "gg"


def test_a_priced_token_is_charged_in_the_match() -> None:
    token = _reward()
    exp = loads_experiment(_arena(f'[sweep]\nreward = "{token}"\nvalues = {{ price = [0, 30] }}\n'))
    specs = {(s.variant, s.swapped): s for s in expand(exp) if s.deal == 0}
    free, dear = play_spec(specs[(f"{token}@0", False)]), play_spec(specs[(f"{token}@30", False)])
    assert dear.values["kamas"][0] == free.values["kamas"][0] - 30 or dear.values["kamas"][0] < 0


def test_a_price_and_an_effect_are_crossed_effect_arms_hold_the_prices() -> None:
    reward = next(r for r in default_registry().all_rewards() if any("amount" in e.params for e in r.effects))
    index = next(i for i, e in enumerate(reward.effects) if "amount" in e.params)
    amount = int(reward.effects[index].params["amount"])
    exp = loads_experiment(
        _arena(
            f'[sweep]\nreward = "{reward.id}"\n'
            f'values = {{ price = [3, 9], "effects.{index}.amount" = [{amount}, {amount + 1}] }}\n'
        )
    )
    assert len(exp.arms) == 2 and exp.held_rewards == (f"{reward.id}@3", f"{reward.id}@9")
    assert exp.n_matches == exp.n_deals * 3 * 2 * 2


def test_a_challenge_sweep_makes_one_patched_arm_per_tier_beside_none() -> None:
    challenge = _challenge()
    bonus = challenge.bonuses[1]
    exp = loads_experiment(_blast('[sweep]\nchallenge = "{c}"\nvalues = { "bonuses.{b}.tier" = [2, 4] }\n'))
    arms = [name for name, _ in exp.arms]
    assert arms == ["none", f"bonuses.{bonus.id}.tier-2", f"bonuses.{bonus.id}.tier-4"]
    spec = next(s for s in expand(exp) if s.variant == f"bonuses.{bonus.id}.tier-4")
    played = json.loads(patch_options(spec.options_json, spec.patch))
    assert played["challenge_tiers"] == {f"{challenge.id}.{bonus.id}": 4}
    assert play_spec(spec).winner in (0, 1, None)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (_arena('[sweep]\nreward = "{r}"\nvalues = { price = [-1] }\n'), "sweep.values.price", "0 to 99"),
        (
            _arena('[sweep]\nreward = "{r}"\nvalues = { price = [2.5] }\n'),
            "sweep.values.price",
            "whole number",
        ),
        (
            _arena('[sweep]\nreward = "{r}"\nvalues = { price = [2] }\n', 'held_rewards = ["{r}"]\n'),
            "held_rewards",
            "do not set held_rewards",
        ),
        (
            _arena('[sweep]\nfigure = "bill_tell"\nvalues = { price = [2] }\n'),
            "sweep.values.price",
            "for a reward",
        ),
        (
            _arena('[sweep]\nchallenge = "nope"\nvalues = { "bonuses.x.tier" = [2] }\n'),
            "sweep.challenge",
            "unknown",
        ),
        (
            _arena(
                '[sweep]\nchallenge = "grande_melee_de_iop"\nvalues = { "bonuses.force_decuplee.tier" = [2] }\n'
            ),
            "sweep",
            "Blast",
        ),
    ],
)
def test_bad_crossing_sweeps_are_one_line(text: str, field: str, words: str) -> None:
    with pytest.raises(ExperimentError) as info:
        loads_experiment(text.replace("{r}", _reward()), "sweep.toml")
    assert info.value.field.startswith(field)
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("sweep", "options", "field", "words"),
    [
        (
            '[sweep]\nchallenge = "{c}"\nvalues = { "bonuses.{b}.tier" = [9] }\n',
            None,
            "sweep",
            "out of range",
        ),
        ('[sweep]\nchallenge = "{c}"\nvalues = { "bonuses.nope.tier" = [2] }\n', None, "sweep", "no bonus"),
        (
            '[sweep]\nchallenge = "{c}"\nvalues = { "bonuses.{b}.cost" = [2] }\n',
            None,
            "sweep",
            "unknown field",
        ),
        (
            '[sweep]\nchallenge = "{c}"\nvalues = { "bonuses.{b}.tier" = [2] }\n',
            "challenges = []",
            "options.challenges",
            "not in play",
        ),
    ],
)
def test_bad_challenge_sweeps_are_one_line(sweep: str, options: str | None, field: str, words: str) -> None:
    text = _blast(sweep) if options is None else _blast(sweep, options)
    with pytest.raises(ExperimentError) as info:
        loads_experiment(text, "sweep.toml")
    assert info.value.field.startswith(field)
    assert words in str(info.value) and "\n" not in str(info.value)
