"""Experiment files: parsing, every kind of mistake, expansion counts and seeding."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import (
    check_experiment,
    expand,
    legal_teams,
    load_experiment,
    loads_experiment,
    pool_splits,
)
from krosbalance.sim.seeding import deal_seed, deal_seeds
from tests.sim.fakes import BOX, FakeCatalog

ROOT = Path(__file__).resolve().parents[2]
CAT = FakeCatalog()

GOOD = """
name = "good"
master_seed = 11
matches_per_pairing = 3
paired_seeds = true
boards = ["arena-elemental", "test-open-5x5"]
ais = [["focus-fire", "random"], "kiter"]

[options]
turn_limit = 40

[teams]
mode = "round_robin"
list = [
    ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
    ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"],
    ["big_six", "oscar_kass", "anna_tommy"],
]
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_good_file_parses(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, GOOD), CAT)
    assert exp.name == "good" and exp.master_seed == 11
    assert exp.boards == ("arena-elemental", "test-open-5x5")
    assert exp.ais == (("focus-fire", "random"), ("kiter", "kiter"))
    assert exp.options == {"turn_limit": 40}
    assert len(exp.pairings) == 3
    # 3 pairings x 2 boards x 2 AI matchups x 3 deals, each played twice
    assert exp.n_deals == 36 and exp.n_matches == 72
    assert len(expand(exp)) == 72


def test_shipped_files_parse_with_fake_catalog() -> None:
    box = load_experiment(ROOT / "simulations" / "box-round-robin.toml", CAT)
    assert len(box.pairings) == 35
    assert all(len(a) == 4 and len(b) == 4 and set(a) | set(b) == set(BOX) for a, b in box.pairings)
    assert box.paired_seeds and box.boards == ("arena-elemental",)
    validity = load_experiment(ROOT / "simulations" / "ai-validity.toml", CAT)
    per_ai = validity.n_matches // len(validity.ais)
    assert per_ai == 400 and all(b == "random" for _, b in validity.ais)
    smoke = load_experiment(ROOT / "simulations" / "smoke.toml", CAT)
    assert smoke.n_matches <= 16 and smoke.ais == (("random", "random"),)


BAD = {
    "unknown character": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="mirror"\nlist=[["nobody","big_six"]]\n',
        "teams.list[0][0]",
        "unknown character 'nobody'",
    ),
    "illegal team": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="mirror"\nlist=[["big_six","oscar_kass"]]\n',
        "teams.list[0]",
        "illegal team",
    ),
    "missing field": (
        'name="x"\nmatches_per_pairing=1\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "master_seed",
        "missing",
    ),
    "wrong type": (
        'name="x"\nmaster_seed="one"\nmatches_per_pairing=1\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "master_seed",
        "must be an integer",
    ),
    "ai table without deals": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nais=[{ai="kiter"}]\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "ais[0].deals",
        "must be an int >= 1",
    ),
    "ai table with unknown AI": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nais=[{ai=["kiter","genius"],deals=2}]\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "ais[0].ai[1]",
        "unknown AI 'genius'",
    ),
    "bool is not int": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=true\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "matches_per_pairing",
        "must be an integer",
    ),
    "unknown board": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nboards=["moon"]\n'
        '[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "boards[0]",
        "unknown board 'moon'",
    ),
    "unknown AI": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nais=[["random","genius"]]\n'
        '[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "ais[0][1]",
        "unknown AI 'genius'",
    ),
    "unknown key": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nseeds=3\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "seeds",
        "unknown key",
    ),
    "unknown team key": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\nsize=4\n',
        "teams.size",
        "unknown key",
    ),
    "unknown mode": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="swiss"\nlist=[["big_six","big_six"]]\n',
        "teams.mode",
        "unknown mode",
    ),
    "bad option": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[options]\nfog=true\n'
        '[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "options",
        "fog",
    ),
    "not toml": ('name = "x\n', "(toml)", "not valid TOML"),
    "draft pool not a multiple of 4": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="draft"\n'
        'pool=["oscar_kass","anna_tommy","bill_tell","kassius_kaos","lil_healey","bad_aboum"]\n',
        "teams.pool",
        "multiple of 4",
    ),
    "random deal pool odd": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="random_deal"\n'
        'pool=["oscar_kass","anna_tommy","bill_tell","kassius_kaos","lil_healey"]\n',
        "teams.pool",
        "even number",
    ),
    "dealt pool with an illegal half": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="random_deal"\n'
        'pool=["big_six","small_two","mid_four","oscar_kass","anna_tommy","bill_tell","kassius_kaos","lil_healey"]\n',
        "teams.pool",
        "every half of the pool must be a legal team",
    ),
    "draft takes a pool, not a list": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="draft"\nlist=[["big_six","big_six"]]\n',
        "teams.list",
        "not used by mode 'draft'",
    ),
    "board choice not a boolean": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nboard_choice="yes"\nboards=["arena-elemental","test-open-5x5"]\n'
        '[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "board_choice",
        "must be a boolean",
    ),
    "board choice among one board": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\nboard_choice=true\nboards=["arena-elemental"]\n'
        '[teams]\nmode="mirror"\nlist=[["big_six","big_six"]]\n',
        "board_choice",
        "at least two",
    ),
    "pool entry neither a name nor a selection": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="round_robin"\npool=[{set="arena-box"}, 3]\n',
        "teams.pool[1]",
        "must be a character name or a",
    ),
    "pool entry unknown character beside a selection": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="round_robin"\npool=[{set="arena-box"}, "nobody"]\n',
        "teams.pool[1]",
        "unknown character 'nobody'",
    ),
    "pool entry selection with an unknown key": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="round_robin"\npool=["big_six", {sett="arena-box"}]\n',
        "teams.pool[1].sett",
        "unknown key",
    ),
    "pool entry selection of nothing": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="round_robin"\npool=[{set="arena-box"}, {set="moon"}]\n',
        "teams.pool[1]",
        "no Krosmaster of ruleset 'arena' has set 'moon'",
    ),
    "pool entry selection without a set or tag": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="round_robin"\npool=[{set=""}]\n',
        "teams.pool[0]",
        "a selection is",
    ),
    "pool cannot split": (
        'name="x"\nmaster_seed=1\nmatches_per_pairing=1\n[teams]\nmode="splits"\npool=["big_six","oscar_kass"]\n',
        "teams.pool",
        "cannot be split",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_names_file_field_and_reason(tmp_path: Path, case: str) -> None:
    text, field, reason = BAD[case]
    path = write(tmp_path, text)
    with pytest.raises(ExperimentError) as info:
        load_experiment(path, CAT)
    err = info.value
    assert err.file == str(path)
    assert err.field == field
    assert reason in err.reason
    assert str(err).startswith(f"{path}: {field}: ")


def test_missing_file_is_an_experiment_error(tmp_path: Path) -> None:
    with pytest.raises(ExperimentError, match="no such file"):
        load_experiment(tmp_path / "absent.toml", CAT)


def test_check_collects_every_problem(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name = "x"
        master_seed = -1
        colour = "red"
        boards = ["moon"]
        ais = ["genius"]
        [teams]
        mode = "mirror"
        list = [["nobody", "big_six"], ["big_six", "oscar_kass"]]
        """,
    )
    experiment, errors = check_experiment(path, CAT)
    assert experiment is None
    fields = [e.field for e in errors]
    assert fields == [
        "colour",
        "master_seed",
        "matches_per_pairing",
        "boards[0]",
        "ais[0]",
        "teams.list[0][0]",
        "teams.list[1]",
    ]
    assert all(e.file == str(path) for e in errors)


def experiment_text(teams: str, *, paired: bool = True, per: int = 1) -> str:
    return f'name="t"\nmaster_seed=5\nmatches_per_pairing={per}\npaired_seeds={str(paired).lower()}\n[teams]\n{teams}\n'


def test_box_splits_are_35_and_paired_seeds_double() -> None:
    pool = "mode='splits'\npool=[" + ",".join(f'"{n}"' for n in BOX) + "]"
    paired = loads_experiment(experiment_text(pool, per=4), catalog=CAT)
    single = loads_experiment(experiment_text(pool, paired=False, per=4), catalog=CAT)
    assert len(paired.pairings) == 35 == len(pool_splits(list(BOX), CAT))
    assert single.n_matches == 35 * 4 and paired.n_matches == 2 * 35 * 4
    assert len({frozenset((a, b)) for a, b in paired.pairings}) == 35
    assert all(a[0] == BOX[0] for a, _ in paired.pairings)  # team A holds the first pool figure


def test_all_legal_teams_from_pool_round_robin_and_mirror() -> None:
    assert len(legal_teams(list(BOX), CAT)) == 70  # C(8, 4): no copies when each figure is listed once
    pool = '["big_six", "big_six", "oscar_kass", "oscar_kass", "queen_of_the_tofus", "queen_of_the_tofus"]'
    teams = legal_teams(["big_six", "big_six", "oscar_kass", "oscar_kass", "queen_of_the_tofus"] * 1, CAT)
    assert set(teams) == {
        ("big_six", "big_six"),
        ("big_six", "oscar_kass", "oscar_kass"),
        ("big_six", "oscar_kass", "queen_of_the_tofus"),
    }
    rr = loads_experiment(experiment_text(f"mode='round_robin'\npool={pool}"), catalog=CAT)
    # the queen is gold: she never appears twice in a team even though the pool has two
    assert all(t.count("queen_of_the_tofus") <= 1 for pair in rr.pairings for t in pair)
    n = len(legal_teams(["big_six", "big_six", "oscar_kass", "oscar_kass", "queen_of_the_tofus"] * 1, CAT))
    assert len(rr.pairings) == n * (n - 1) // 2
    with_mirror = loads_experiment(
        experiment_text(f"mode='round_robin'\npool={pool}\ninclude_mirror=true"), catalog=CAT
    )
    assert len(with_mirror.pairings) == n * (n + 1) // 2
    mirror = loads_experiment(experiment_text(f"mode='mirror'\npool={pool}"), catalog=CAT)
    assert [a for a, b in mirror.pairings if a == b] == [a for a, _ in mirror.pairings]
    assert len(mirror.pairings) == n


def test_a_pool_mixes_set_selections_and_names() -> None:
    """A pool array may mix ``{set = ...}`` / ``{tag = ...}`` tables and names: a table adds the
    Krosmasters the pool does not hold yet (overlapping tables add a card once), a name one copy."""
    box = CAT.characters(set="arena-box")
    names = ", ".join(f'"{n}"' for n in box)
    mixed = loads_experiment(
        experiment_text(
            'mode="round_robin"\npool=[{set="arena-box"}, {set="arena-box"}, "big_six", "big_six"]'
        ),
        catalog=CAT,
    )
    listed = loads_experiment(
        experiment_text(f'mode="round_robin"\npool=[{names}, "big_six", "big_six"]'), catalog=CAT
    )
    assert mixed.pairings == listed.pairings
    assert any(t.count("big_six") == 2 for pair in mixed.pairings for t in pair)
    copies = loads_experiment(
        experiment_text('mode="round_robin"\npool=[{set="arena-box"}, "oscar_kass"]'), catalog=CAT
    )
    once = loads_experiment(experiment_text('mode="round_robin"\npool={set="arena-box"}'), catalog=CAT)
    assert any(t.count("oscar_kass") == 2 for pair in copies.pairings for t in pair)
    assert not any(t.count("oscar_kass") == 2 for pair in once.pairings for t in pair)


def test_the_duel_study_file_plays_every_box_and_duel_pack_figure() -> None:
    """``simulations/duel.toml`` against the real registries: a 1v1 round robin of every Krosmaster of
    the two sets (selected by set), both duel boards, and one arm per Duel Token level beside none."""
    from krosbalance.content.duel import TOKEN_LEVELS
    from krosbalance.content.registry import list_boards, list_characters

    exp = load_experiment(ROOT / "simulations" / "duel.toml")
    figures = list_characters(set="arena-box") + list_characters(set="duel-pack")
    assert exp.ruleset == "duel" and set(exp.boards) == set(list_boards("duel"))
    assert {frozenset(t for team in pair for t in team) for pair in exp.pairings} == {
        frozenset((a, b)) for i, a in enumerate(figures) for b in figures[i + 1 :]
    }
    assert all(len(team) == 1 for pair in exp.pairings for team in pair)
    arms = {name: json.loads(options)["start_token_levels"] for name, options in exp.variants}
    assert arms == {"none": [], **{f"level{level}": [level] for level in TOKEN_LEVELS}}
    assert exp.paired_seeds and all(a == b for a, b in exp.ais)  # each AI against itself
    from krosbalance.analysis.top_ai import top_ais

    order = top_ais([a for a, _ in exp.ais], "duel")
    assert order is not None and order.top_validated and order.second  # the answer and the next AI down


def test_expansion_ids_deals_and_twins() -> None:
    exp = loads_experiment(GOOD, catalog=CAT)
    specs = expand(exp)
    assert [s.match_id for s in specs] == list(range(len(specs)))
    for direct, twin in zip(specs[::2], specs[1::2], strict=True):
        assert not direct.swapped and twin.swapped
        assert direct.seed == twin.seed and direct.deal == twin.deal and direct.pairing == twin.pairing
        assert (direct.team0, direct.team1) == (twin.team1, twin.team0)
        assert (direct.ai0, direct.ai1) == (twin.ai1, twin.ai0)  # the AI follows its team
        assert direct.side_team(0) == "A" and twin.side_team(0) == "B"
    # (pairing, deal, swapped) names a match; deals count across boards and AI matchups
    assert len({(s.pairing, s.deal, s.swapped) for s in specs}) == len(specs)
    assert max(s.deal for s in specs) + 1 == exp.deals_per_pairing
    assert len({s.seed for s in specs}) == exp.n_deals
    assert expand(exp) == specs  # stable


def test_seeds_come_from_one_seed_sequence() -> None:
    seeds = deal_seeds(123, 50)
    assert seeds == [deal_seed(123, d) for d in range(50)]
    children = np.random.SeedSequence(123).spawn(3)
    assert seeds[2] == int(children[2].generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
    assert all(0 <= s < 2**63 for s in seeds)
    exp = loads_experiment(GOOD, catalog=CAT)
    assert [s.seed for s in expand(exp)][::2] == deal_seeds(exp.master_seed, exp.n_deals)


DRAFT = """
name = "draft"
master_seed = 8
matches_per_pairing = 5
ais = [["focus-fire", "random"]]
[teams]
mode = "{mode}"
pool = {pool}
"""


@pytest.mark.parametrize("mode", ["draft", "random_deal"])
def test_r_a17_dealt_team_modes_deal_every_deal_anew_and_record_the_teams(mode: str) -> None:
    """R-A17 team choice as experiment modes: one pairing (the pool), teams dealt per deal from the
    deal's seed, the same teams in both matches of a deal, AIs following their teams."""
    from krosbalance.content.registry import list_characters
    from krosbalance.play import deal_teams
    from krosbalance.rulesets.arena import validate_team

    pool = list_characters(set="arena-box")  # the eight box cards, from the registry
    text = DRAFT.format(mode=mode, pool=json.dumps(pool))
    exp = loads_experiment(text)
    assert exp.mode == mode and len(exp.pairings) == 1 and exp.n_matches == 10
    specs = expand(exp)
    assert specs == expand(loads_experiment(text))  # deterministic
    for direct, twin in zip(specs[0::2], specs[1::2], strict=True):
        assert (direct.team_a, direct.team_b) == (twin.team_a, twin.team_b) and twin.swapped
        assert sorted(direct.team_a + direct.team_b) == pool
        validate_team(direct.team_a)
        assert (direct.team_a, direct.team_b) == deal_teams(
            mode, tuple(pool), ("focus-fire", "random"), direct.seed
        )
    assert len({(s.team_a, s.team_b) for s in specs}) > 1


def test_r_a19_board_choice_gives_each_match_the_board_its_first_player_picks() -> None:
    from krosbalance.play import pick_board

    text = """
    name = "choice"
    master_seed = 3
    matches_per_pairing = 2
    boards = ["arena-elemental", "test-scenery-6x6"]
    board_choice = true
    ais = ["focus-fire", "random"]
    [teams]
    mode = "pairs"
    pairs = [[["anna_tommy", "queen_of_the_tofus", "bill_tell", "oscar_kass"],
              ["kassius_kaos", "bad_aboum", "king_of_the_gobballs", "lil_healey"]]]
    """
    exp = loads_experiment(textwrap.dedent(text))
    assert exp.board_groups == (("arena-elemental", "test-scenery-6x6"),)
    specs = expand(exp)
    assert exp.n_matches == len(specs) == 8  # boards are candidates, not a factor
    for spec in specs:
        assert spec.board == pick_board(
            exp.boards, spec.team0, spec.team1, ai=(spec.ai0, spec.ai1), seed=spec.seed
        )
    assert {s.board for s in specs if s.ai0 == "random"} <= set(exp.boards)


def test_an_ai_matchup_table_plays_its_own_number_of_deals() -> None:
    """``{ai = ..., deals = n}`` samples a costly AI beside cheaper ones: that matchup plays n deals per
    pairing and board, the others ``matches_per_pairing``; seeds still come from global deal indices."""
    text = GOOD.replace(
        'ais = [["focus-fire", "random"], "kiter"]',
        'ais = ["kiter", {ai = ["focus-fire", "random"], deals = 1}]',
    )
    exp = loads_experiment(text, catalog=CAT)
    assert exp.ais == (("kiter", "kiter"), ("focus-fire", "random"))
    assert exp.deals_per_matchup == (3, 1)
    specs = expand(exp)
    per_board_and_pairing = {("kiter", "kiter"): 3 * 2, ("focus-fire", "random"): 1 * 2}
    for ais, n in per_board_and_pairing.items():
        got = [s for s in specs if (s.ai_a, s.ai_b) == ais]
        assert len(got) == n * len(exp.boards) * len(exp.pairings)
    assert len(specs) == exp.n_matches == 2 * len(exp.pairings) * len(exp.boards) * 4
    assert [s.seed for s in specs][::2] == deal_seeds(exp.master_seed, exp.n_deals)
    assert max(s.deal for s in specs) + 1 == exp.deals_per_pairing
    plain = loads_experiment(GOOD, catalog=CAT)
    assert plain.ai_deals == () and plain.deals_per_matchup == (3, 3)


HELD = """
name = "held"
master_seed = 5
matches_per_pairing = 2
ais = ["focus-fire"]
held_rewards = {held}
[teams]
mode = "pairs"
pairs = [[["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
          ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]]]
"""


def test_held_rewards_play_each_deal_once_per_token_with_the_same_seed() -> None:
    exp = loads_experiment(HELD.format(held='["xelor_style", "feca_style"]'), catalog=CAT)
    assert exp.reward_variants == ("", "xelor_style", "feca_style")
    specs = expand(exp)
    assert len(specs) == exp.n_matches == 2 * 3 * 2
    for deal in (0, 1):
        group = [s for s in specs if s.deal == deal]
        assert len({s.seed for s in group}) == 1  # paired with the baseline
        held = [(s.swapped, s.options.get("start_rewards")) for s in group]
        assert held == [
            (False, None),
            (True, None),
            (False, [["xelor_style"], []]),
            (True, [[], ["xelor_style"]]),  # the token follows team A onto side 1
            (False, [["feca_style"], []]),
            (True, [[], ["feca_style"]]),
        ]
    assert [s.match_id for s in specs] == list(range(len(specs)))


def test_held_rewards_all_and_bad_names() -> None:
    assert loads_experiment(HELD.format(held='"all"'), catalog=CAT).held_rewards == tuple(CAT.rewards())
    with pytest.raises(ExperimentError) as info:
        loads_experiment(HELD.format(held='["xelor_stile"]'), catalog=CAT)
    assert info.value.field == "held_rewards[0]" and "unknown reward" in info.value.reason
    with pytest.raises(ExperimentError) as info:
        loads_experiment(HELD.format(held='"some"'), catalog=CAT)
    assert info.value.field == "held_rewards"
