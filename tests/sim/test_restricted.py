"""Restricted-play arms (krosbalance.sim.restricted): ``forbid`` in ``[[variants]]``, the
``[restricted]`` generator, one located problem per mistake, and match specs that carry the
restriction on the same seeds as the unrestricted arm."""

from __future__ import annotations

import json

from krosbalance.sim.experiment import check_experiment_text, expand, loads_experiment
from tests.sim.fakes import BOX, FakeCatalog

CAT = FakeCatalog()
BASE = f"""
name = "why"
master_seed = 3
matches_per_pairing = 2
ais = ["kiter"]
[teams]
mode = "splits"
pool = {json.dumps(list(BOX))}
"""
FIGURE = BOX[4]


def _problems(text: str) -> list[str]:
    _, errors = check_experiment_text(BASE + text, "why.toml", CAT)
    return [f"{e.field}: {e.reason}" for e in errors]


def test_forbid_in_a_variant_reaches_its_match_specs_and_only_them():
    exp = loads_experiment(
        BASE
        + f"""
[[variants]]
name = "free"
[[variants]]
name = "no-shot"
forbid = {{ {FIGURE} = ["spell:{FIGURE}_shot", "action:buy_gg"] }}
""",
        catalog=CAT,
    )
    assert exp.forbids == (
        ("no-shot", json.dumps({FIGURE: [f"spell:{FIGURE}_shot", "action:buy_gg"]}, separators=(",", ":"))),
    )
    specs = expand(exp)
    by_arm: dict[str, list] = {}
    for spec in specs:
        by_arm.setdefault(spec.variant, []).append(spec)
    assert all(s.forbid == "" for s in by_arm["free"])
    assert all(
        json.loads(s.forbid) == {FIGURE: [f"spell:{FIGURE}_shot", "action:buy_gg"]} for s in by_arm["no-shot"]
    )
    # paired: the same deals, seats and seeds in both arms
    key = lambda s: (s.pairing, s.deal, s.swapped, s.seed, s.team0, s.team1)  # noqa: E731
    assert [key(s) for s in by_arm["free"]] == [key(s) for s in by_arm["no-shot"]]
    assert "forbid" in json.loads(by_arm["no-shot"][0].as_json())


def test_restricted_generates_a_baseline_and_one_arm_per_element_in_card_order():
    exp = loads_experiment(BASE + f'[restricted]\nfigure = "{FIGURE}"\nactions = ["buy_gg"]\n', catalog=CAT)
    names = [name for name, _ in exp.arms]
    assert names == [
        "unrestricted",
        f"{FIGURE}-spell-{FIGURE}_shot",
        f"{FIGURE}-spell-punch",
        f"{FIGURE}-power-dodge",
        f"{FIGURE}-action-buy_gg",
    ]
    assert exp.forbid_of("unrestricted") == ""
    assert json.loads(exp.forbid_of(f"{FIGURE}-power-dodge")) == {FIGURE: ["power:dodge"]}
    assert exp.n_matches == len(names) * exp.n_deals * 2


def test_restricted_kinds_keeps_only_those_kinds_for_several_figures():
    exp = loads_experiment(
        BASE + f'[restricted]\nfigures = ["{BOX[0]}", "{FIGURE}"]\nkinds = ["power"]\n', catalog=CAT
    )
    assert [n for n, _ in exp.arms] == ["unrestricted", f"{BOX[0]}-power-dodge", f"{FIGURE}-power-dodge"]


def test_an_unknown_element_is_one_located_problem():
    problems = _problems(f'[[variants]]\nname = "x"\nforbid = {{ {FIGURE} = ["spell:nope"] }}\n')
    assert len(problems) == 1
    assert problems[0].startswith(f"variants[0].forbid.{FIGURE}:") and "'spell:nope'" in problems[0]


def test_an_unknown_figure_a_bad_table_and_unknown_keys_are_located_problems():
    assert any(
        p.startswith("variants[0].forbid.nobody:")
        for p in _problems('[[variants]]\nname = "x"\nforbid = { nobody = ["power:dodge"] }\n')
    )
    assert any(
        p.startswith("variants[0].forbid:")
        for p in _problems('[[variants]]\nname = "x"\nforbid = ["power:dodge"]\n')
    )
    assert any(
        p.startswith("restricted.colour:")
        for p in _problems(f'[restricted]\nfigure = "{FIGURE}"\ncolour = 1\n')
    )
    assert any(
        p.startswith("restricted.kinds:")
        for p in _problems(f'[restricted]\nfigure = "{FIGURE}"\nkinds = ["hat"]\n')
    )
    assert any(
        p.startswith("restricted.actions:")
        for p in _problems(f'[restricted]\nfigure = "{FIGURE}"\nactions = ["fly"]\n')
    )
    assert any(p.startswith("restricted.figures:") for p in _problems('[restricted]\nkinds = ["power"]\n'))


def test_a_generated_arm_may_not_take_a_variants_name():
    problems = _problems(f'[[variants]]\nname = "unrestricted"\n[restricted]\nfigure = "{FIGURE}"\n')
    assert any(p.startswith("restricted:") and "'unrestricted'" in p for p in problems)


def test_shipped_restricted_experiments_validate_with_the_real_catalog():
    from pathlib import Path

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2] / "simulations"
    for name in ("why-bill-tell.toml", "why-bill-tell-search.toml"):
        exp, errors = check_experiment(root / name)
        assert not errors, errors
        assert exp is not None and exp.forbids and exp.forbid_of("unrestricted") == ""


def test_play_spec_plays_the_arms_restriction_on_the_real_engine():
    from krosbalance.sim.match import play_spec

    text = f"""
name = "why-real"
master_seed = 5
matches_per_pairing = 1
ais = ["kiter"]
[options]
turn_limit = 3
[teams]
mode = "pairs"
pairs = [[{json.dumps(list(BOX[:4]))}, {json.dumps(list(BOX[4:]))}]]
[[variants]]
name = "free"
[[variants]]
name = "no-punch"
forbid = {{ {BOX[0]} = ["spell:punch"] }}
"""
    specs = expand(loads_experiment(text))
    restricted = next(s for s in specs if s.variant == "no-punch")
    result = play_spec(restricted, record="full")
    uids = {f.uid for f in result.fighters if f.character == BOX[0]}
    assert not [e for e in result.events if e.kind == "spell_cast" and e.uid in uids and e.spell == "punch"]
    assert result.turns >= 1
