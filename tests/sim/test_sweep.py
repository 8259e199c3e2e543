"""[sweep]: one patched arm per grid point of card values (krosbalance.sim.sweep)."""

from __future__ import annotations

import json
import textwrap

import pytest

from krosbalance.content.registry import default_registry, list_characters
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import expand, loads_experiment
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.patches import patch_from_json
from krosbalance.sim.runner import fingerprint
from krosbalance.sim.stages import experiment_toml


def _text(sweep: str, variants: str = "") -> str:
    return (
        textwrap.dedent(
            """
        name = "swept"
        master_seed = 4
        matches_per_pairing = 1
        ais = ["random"]
        [teams]
        mode = "splits"
        pool = [{ set = "arena-box" }]
        """
        )
        + variants
        + sweep
    )


def _figure() -> str:
    return list_characters(set="arena-box")[0]


def test_a_sweep_makes_one_paired_arm_per_grid_point() -> None:
    fig = _figure()
    spec = default_registry().load_character(fig)
    spell = spec.spells[0]
    exp = loads_experiment(
        _text(
            f'[sweep]\nfigure = "{spec.name}"\n'
            f'values = {{ hp = [{spec.hp}, {spec.hp + 2}], "spells.{spell.id}.ap_cost" = [{spell.ap_cost}, {spell.ap_cost + 1}] }}\n'
        )
    )
    arms = [name for name, _ in exp.arms]
    assert arms == [
        f"hp-{spec.hp}__spells.{spell.id}.ap_cost-{spell.ap_cost}",
        f"hp-{spec.hp}__spells.{spell.id}.ap_cost-{spell.ap_cost + 1}",
        f"hp-{spec.hp + 2}__spells.{spell.id}.ap_cost-{spell.ap_cost}",
        f"hp-{spec.hp + 2}__spells.{spell.id}.ap_cost-{spell.ap_cost + 1}",
    ]
    specs = expand(exp)
    first_deal = [s for s in specs if s.pairing == 0 and s.deal == 0 and not s.swapped]
    assert len({s.seed for s in first_deal}) == 1 and len(first_deal) == 4  # paired on one seed
    last = patched_registry(first_deal[-1].patch).load_character(fig)
    assert (last.hp, last.spell(spell.id).ap_cost) == (spec.hp + 2, spell.ap_cost + 1)
    meta = json.loads(exp.sweep)
    assert meta["target"] == fig and meta["fields"] == ["hp", f"spells.{spell.id}.ap_cost"]
    assert meta["points"][1]["values"] == {"hp": spec.hp, f"spells.{spell.id}.ap_cost": spell.ap_cost + 1}


def test_a_swept_experiment_written_as_a_stage_loads_back_to_the_same_matches() -> None:
    fig = _figure()
    hp = default_registry().load_character(fig).hp
    exp = loads_experiment(_text(f'[sweep]\nfigure = "{fig}"\nvalues = {{ hp = [{hp}, {hp + 1}] }}\n'))
    back = loads_experiment(experiment_toml(exp))
    assert fingerprint(back) == fingerprint(exp)
    assert patch_from_json(dict(back.arm_patches)[f"hp-{hp + 1}"]).changes == {
        "characters": {fig: {"hp": hp + 1}}
    }


@pytest.mark.parametrize(
    ("sweep", "field", "words"),
    [
        ('[sweep]\nfigure = "nobody"\nvalues = { hp = [3] }\n', "sweep.figure", "unknown character"),
        ('[sweep]\nfigure = "{fig}"\nvalues = { charm = [3] }\n', "sweep", "unknown field"),
        ('[sweep]\nfigure = "{fig}"\nvalues = { hp = [0, 5] }\n', "sweep", "out of range"),
        ('[sweep]\nfigure = "{fig}"\nvalues = { hp = [] }\n', "sweep.values.hp", "non-empty"),
        ('[sweep]\nfigure = "{fig}"\nvalues = { hp = [5, 5] }\n', "sweep.values.hp", "twice"),
        ('[sweep]\nfigure = "{fig}"\nreward = "x"\nvalues = { hp = [5] }\n', "sweep", "exactly one"),
        ('[sweep]\nfigure = "{fig}"\nvalues = { hp = [5] }\nstep = 1\n', "sweep.step", "unknown key"),
    ],
)
def test_bad_sweeps_are_one_line(sweep: str, field: str, words: str) -> None:
    with pytest.raises(ExperimentError) as info:
        loads_experiment(_text(sweep.replace("{fig}", _figure())), "sweep.toml")
    assert info.value.field.startswith(field)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_a_reward_rank_sweep() -> None:
    reward = default_registry().all_rewards()[0]
    exp = loads_experiment(
        _text(  # the market in play: a reward's patch changes nothing without one (issue 36)
            "[options]\ndemonic_rewards = true\n"
            f'[sweep]\nreward = "{reward.name}"\nvalues = {{ rank = ["granite", "gold"] }}\n'
        )
    )
    gold = dict(exp.arm_patches)["rank-gold"]
    assert patched_registry(gold).load_reward(reward.id).rank == "gold"


def test_a_reward_sweep_without_rewards_in_play_is_refused() -> None:
    """Issue 36: with no market, no held and no bought token, every arm of a reward sweep plays the
    same matches; the study is refused in one line instead of running to a meaningless end."""
    reward = default_registry().all_rewards()[0]
    with pytest.raises(ExperimentError, match=r"sweep.reward: .* no arm plays Demonic Rewards"):
        loads_experiment(
            _text(f'[sweep]\nreward = "{reward.name}"\nvalues = {{ rank = ["granite", "gold"] }}\n')
        )
