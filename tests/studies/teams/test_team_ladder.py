"""Team studies: teams from a roster or a collection, the adaptive ladder's stages, and its check on
a synthetic field of known strengths (it must recover the known top k)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np

from krosbalance.analysis.staged import load_staged
from krosbalance.sim.experiment import check_experiment_text, loads_experiment
from krosbalance.sim.rosters import collection_teams, read_collection, roster_teams
from krosbalance.sim.stages import read_stages, run_stages
from krosbalance.studies.teams.design_check import synthetic_halving
from krosbalance.studies.teams.ladder import team_key, team_ratings
from krosbalance.studies.teams.planner import TeamLadderPlanner, halving_sizes, planned_matches, stage_seed
from krosbalance.studies.teams.section import team_study
from tests.sim.fakes import CARDS, STAR_ROSTER, STAR_TEAMS, FakeCatalog, strength_play, team_strength

CAT = FakeCatalog()

LADDER = """
name = "synthetic-ladder"
master_seed = 11
matches_per_pairing = 1
ais = ["random"]

[teams]
mode = "ladder"
roster = {set = "arena-box"}
rule = { size = 4 }

[teams.ladder]
top_k = 3
opponents = 4
keep = 0.5
min_teams = 8
top_round_robin = 6
"""


def ladder(text: str = LADDER, **replace: str):
    for old, new in replace.items():
        text = text.replace(old, new)
    return loads_experiment(textwrap.dedent(text), "ladder.toml", CAT)


def test_every_legal_team_of_the_roster_is_rated_both_players_owning_their_figures() -> None:
    experiment = ladder()
    settings = json.loads(experiment.ladder)
    box = CAT.characters(set="arena-box")
    expected = sorted(set(CAT.all_teams(box)))
    assert [tuple(t) for t in settings["field"]] == expected == roster_teams(box, CAT)
    assert [tuple(t) for t in settings["teams"]] == expected
    # mirror and overlapping teams: a white figure twice in one team, two teams sharing figures
    assert any(len(set(t)) < len(t) for t in expected)
    # stage 1 = the experiment's pairings: every team against `opponents` field opponents
    assert len(experiment.pairings) == len(expected) * 4
    assert experiment.n_matches == len(expected) * 4 * 2


def test_halving_sizes_shrink_by_keep_and_stop_at_min_teams() -> None:
    assert halving_sizes(211, 0.5, 20) == [211, 106, 53, 27]
    assert halving_sizes(10, 0.5, 20) == [10]
    sizes = halving_sizes(500, 0.3, 7)
    assert sizes[-1] >= 7 and all(b == -(-a * 3 // 10) for a, b in zip(sizes, sizes[1:], strict=False))


def test_stage_seeds_differ_by_stage_and_follow_the_master_seed() -> None:
    seeds = {stage_seed(11, k) for k in range(1, 8)}
    assert len(seeds) == 7 and stage_seed(11, 3) == stage_seed(11, 3) != stage_seed(12, 3)


def test_adaptive_ladder_recovers_the_known_top_k_of_a_synthetic_field(tmp_path: Path) -> None:
    experiment = ladder(**{'roster = {set = "arena-box"}': f"roster = {json.dumps(list(STAR_ROSTER))}"})
    out = tmp_path / "out"
    summary = run_stages(TeamLadderPlanner(experiment), out, play=strength_play, catalog=CAT, progress=False)
    labels = [s["experiment"] for s in read_stages(out)["stages"]]
    assert labels == ["halving-1", "halving-2", "halving-3", "halving-4", "top-round-robin"]
    planned = planned_matches(experiment)
    assert [s.n_matches for s in summary.stages] == list(planned.values())
    rs = load_staged(out)
    ratings = team_ratings(rs.matches)
    truth = [team_key(t) for t in sorted(STAR_TEAMS, key=team_strength, reverse=True)]
    found = ratings[ratings["tier"] == "baseline"]["team"].head(3).tolist()
    assert set(found) == set(truth)
    # it spent fewer matches than a full round robin of the same teams (one deal per AI, both seats)
    n = len(json.loads(experiment.ladder)["teams"])
    assert summary.n_matches < n * (n - 1) // 2 * 2
    study = team_study(rs)
    assert study.design["used"] == summary.n_matches
    assert study.design["full_round_robin"] == n * (n - 1) // 2 * 2
    meta = study.metas["baseline"]
    assert abs(meta["nash_weight"].sum() - 1) < 1e-9 and meta["in_support"].any()


def test_successive_halving_on_synthetic_fields_recovers_separated_top_teams() -> None:
    rng = np.random.default_rng(5)
    strengths = np.concatenate([[3.0, 2.6, 2.2], rng.uniform(0, 0.8, size=197)])
    runs = [
        synthetic_halving(strengths, top_k=3, opponents=4, keep=0.5, min_teams=10, seed=s) for s in range(10)
    ]
    assert all(r["found"] == [0, 1, 2] for r in runs)
    assert runs[0]["deals"] < runs[0]["round_robin_deals"]


def test_round_robin_design_is_refused_where_it_cannot_end_and_plays_every_pair_where_it_can() -> None:
    rr = LADDER.replace("top_k = 3", 'design = "round_robin"\ntop_k = 3')
    _, errors = check_experiment_text(textwrap.dedent(rr), "x.toml", CAT)
    assert len(errors) == 1 and 'use design = "adaptive"' in errors[0].reason
    box = CAT.characters(set="arena-box")
    white = [c for c in box if CARDS[c].colour == "white"][:4]
    small = ladder(rr.replace('roster = {set = "arena-box"}', f"roster = {json.dumps(white)}"))
    n = len(json.loads(small.ladder)["teams"])
    assert n >= 2 and len(small.pairings) == n * (n - 1) // 2
    assert list(planned_matches(small)) == ["round-robin"]


def test_bad_ladder_input_is_one_clear_problem_each(tmp_path: Path) -> None:
    def problems(text: str) -> list[str]:
        _, errors = check_experiment_text(textwrap.dedent(text), str(tmp_path / "x.toml"), CAT)
        return [f"{e.field}: {e.reason}" for e in errors]

    unknown_rule = problems(LADDER.replace("rule = { size = 4 }", "rule = { points = 20 }"))
    assert len(unknown_rule) == 1 and unknown_rule[0].startswith(
        "teams.rule.points: ruleset 'arena' has no team rule"
    )
    no_team = problems(LADDER.replace('roster = {set = "arena-box"}', 'roster = ["bill_tell"]'))
    assert no_team == [
        "teams.roster: no legal team can be drawn from it (the team rule of ruleset 'arena', 4 figures)"
    ]
    (tmp_path / "mine.toml").write_text("[figures]\nbill_tell = 2\nnot_a_figure = 1\n")
    bad_figure = problems(LADDER.replace("rule = ", 'collection = "mine.toml"\nrule = '))
    assert len(bad_figure) == 1 and "figures.not_a_figure: unknown figure 'not_a_figure'" in bad_figure[0]


def test_collection_teams_are_drawn_from_the_owned_copies_only(tmp_path: Path) -> None:
    box = CAT.characters(set="arena-box")
    path = tmp_path / "mine.toml"
    path.write_text(f"[figures]\n{box[0]} = 1\n{box[2]} = 2\n{box[3]} = 1\n{box[4]} = 1\n")
    owned = read_collection(path, CAT)
    teams = collection_teams(owned, CAT)
    assert teams and all(t.count(box[0]) <= 1 and t.count(box[2]) <= 2 for t in teams)
    assert all(set(t) <= set(owned) for t in teams)
    experiment = ladder(LADDER.replace("rule = ", f'collection = "{path}"\nrule = '))
    settings = json.loads(experiment.ladder)
    assert sorted(settings["owned"]) == sorted(owned)
    rated = {tuple(t) for t in settings["teams"]}
    assert {tuple(t) for t in settings["mine"]} <= rated
    # the rated teams are those reachable with at most one more figure
    assert all(sum(max(0, t.count(c) - owned.count(c)) for c in set(t)) <= 1 for t in rated)


def test_a_swap_is_paired_on_the_same_opponents_and_seeds_and_finds_a_known_loss(tmp_path: Path) -> None:
    star = ["bill_tell", "bill_tell", "oscar_kass", "oscar_kass"]
    text = LADDER.replace('roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}")
    text = (
        text.replace("opponents = 4", "opponents = 3")
        .replace(
            "top_round_robin = 6",
            f'top_round_robin = 0\nmin_teams = 200\nswaps = [{{ team = {json.dumps(star)}, out = "oscar_kass", in = "lil_healey" }}]',
        )
        .replace("min_teams = 8\n", "")
    )
    experiment = ladder(text)
    out = tmp_path / "out"
    run_stages(TeamLadderPlanner(experiment), out, play=strength_play, catalog=CAT, progress=False)
    stages = {s["experiment"]: s for s in read_stages(out)["stages"]}
    assert list(stages) == ["halving-1", "swap-base", "swap-alt"]
    rs = load_staged(out)
    base = rs.matches[rs.matches["stage"] == "swap-base"].sort_values("stage_match_id")
    alt = rs.matches[rs.matches["stage"] == "swap-alt"].sort_values("stage_match_id")
    assert base["seed"].tolist() == alt["seed"].tolist() and base["team_b"].tolist() == alt["team_b"].tolist()
    swaps = team_study(rs).swaps
    assert len(swaps) == 1 and swaps["n_deals"].iloc[0] == 3 * 4
    known = team_strength(star) - team_strength(["bill_tell", "bill_tell", "lil_healey", "oscar_kass"])
    assert known > 2 and swaps["ci_high"].iloc[0] < 0  # the star team loses its edge: a paired, certain drop


def test_a_staged_team_folder_is_the_team_study_and_its_report_shows_the_teams(tmp_path: Path) -> None:
    # each stage's manifest records the default study (a stage is a plain experiment): the folder's
    # study is its experiment copy's, so the report keeps its Teams section
    from krosbalance.analysis.report import write_report
    from krosbalance.analysis.sections import folder_study
    from krosbalance.studies.teams.planner import run_ladder

    source = tmp_path / "ladder.toml"
    source.write_text(
        LADDER.replace('roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}")
    )
    experiment = ladder(source.read_text())
    out = tmp_path / "out"
    run_ladder(experiment, source, out, play=strength_play, catalog=CAT, progress=False, echo=lambda *a: None)
    assert folder_study(load_staged(out)).name == "teams"
    assert "## Teams" in (write_report(out, tmp_path / "report").parent / "report.md").read_text(
        encoding="utf-8"
    )


def test_a_staged_team_folder_whose_copy_names_a_missing_collection_is_still_the_team_study(
    tmp_path: Path,
) -> None:
    # the run's copy of a collection study names its collection beside the original file, so in the
    # results folder (moved, shared, or the collection since deleted) the copy cannot be read: the
    # folder is still the team study, as its planner recorded, and its report still leads with Teams
    from krosbalance.analysis.report import write_report
    from krosbalance.analysis.sections import copy_study, folder_study
    from krosbalance.studies.teams.planner import run_ladder

    source = tmp_path / "ladder.toml"
    source.write_text(
        LADDER.replace('roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}")
    )
    out = tmp_path / "out"
    run_ladder(
        ladder(source.read_text()),
        source,
        out,
        play=strength_play,
        catalog=CAT,
        progress=False,
        echo=lambda *a: None,
    )
    copy = out / "experiment.toml"
    unreadable = copy.read_text(encoding="utf-8").replace(
        "[teams]\n", '[teams]\ncollection = "gone/mine.toml"\n', 1
    )
    assert unreadable != copy.read_text(encoding="utf-8")
    copy.write_text(unreadable, encoding="utf-8")
    assert copy_study(unreadable, out) is None  # the copy alone no longer says which study ran
    assert folder_study(load_staged(out)).name == "teams"
    assert "## Teams" in (write_report(out, tmp_path / "report").parent / "report.md").read_text(
        encoding="utf-8"
    )


def test_a_search_stage_with_a_half_width_plays_rounds_until_the_top_teams_are_that_precise(
    tmp_path: Path,
) -> None:
    """``search = {..., half_width, max_deals}``: the search stage is played in rounds of ``deals``
    (:mod:`krosbalance.sim.target`, measured by the team ratings the report gives), stopping at the
    half-width or the cap; its record reaches the staged report's Summary."""
    from krosbalance.analysis.report import write_report
    from krosbalance.sim.runner import read_manifest
    from krosbalance.studies.teams.planner import run_ladder

    roster = f"roster = {json.dumps(list(STAR_ROSTER))}"
    search = (
        'top_round_robin = 6\nsearch = { ai = "random", top = 4, deals = 2, half_width = %s, max_deals = 8 }'
    )
    for width, status in (("9.0", "reached"), ("0.01", "cap")):
        source = tmp_path / f"ladder-{status}.toml"
        source.write_text(
            LADDER.replace('roster = {set = "arena-box"}', roster).replace(
                "top_round_robin = 6", search % width
            )
        )
        experiment = ladder(source.read_text())
        assert "search (at most)" in planned_matches(experiment)
        out = tmp_path / status
        run_ladder(
            experiment, source, out, play=strength_play, catalog=CAT, progress=False, echo=lambda *a: None
        )
        folder = next(f for f in (out).iterdir() if f.name.endswith("search"))
        record = read_manifest(folder)["target"]
        ai = record["ais"]["random"]
        assert record["study"] == "teams" and record["quantity"] == "team's rating"
        assert ai["status"] == status and ai["round_deals"] == 2
        pairs_and_seats = 4 * 3 // 2 * 2
        assert ai["matches"] == ai["deals"] * pairs_and_seats
        assert ai["deals"] == (2 if status == "reached" else 8)
        summary = (write_report(out, tmp_path / f"report-{status}").parent / "report.md").read_text(
            encoding="utf-8"
        )
        assert "Sample size from a target:** random:" in summary


def test_a_bad_search_target_is_one_clear_problem_each(tmp_path: Path) -> None:
    def problems(search: str) -> list[str]:
        text = LADDER.replace(
            "top_round_robin = 6", f"top_round_robin = 6\nsearch = {{ ai = 'random', {search} }}"
        )
        _, errors = check_experiment_text(textwrap.dedent(text), str(tmp_path / "x.toml"), CAT)
        return [f"{e.field}: {e.reason}" for e in errors]

    assert problems("half_width = -1") == [
        "teams.ladder.search.half_width: must be a number > 0 (a 95% CI half-width), not -1"
    ]
    assert problems("max_deals = 4")[0].startswith(
        "teams.ladder.search.max_deals: caps a search stage with half_width"
    )
    assert problems("deals = 3, half_width = 0.2, max_deals = 2")[0].startswith(
        "teams.ladder.search.max_deals: must be an integer >= deals (3)"
    )
    assert problems("deals = 3, half_width = 0.2") == []
    assert "[teams.ladder] search" in " ".join(
        problems("deals = 1")
        + [
            f"{e.field}: {e.reason}"
            for e in check_experiment_text(
                textwrap.dedent(LADDER) + "\n[target]\n", str(tmp_path / "y.toml"), CAT
            )[1]
        ]
    )


def test_a_search_stage_plays_the_next_ai_down_beside_and_rates_the_teams_once_per_ai(
    tmp_path: Path,
) -> None:
    """``search = {..., beside = {ai, deals}}``: the search stage plays both AIs on the same pairings
    (the beside AI on its own deals), each search AI's matches are rated on their own (the search
    tier is split per AI when several of its AIs played), and ``validate`` costs both."""
    from krosbalance.cli.cost import run_cost
    from krosbalance.studies.teams.planner import run_ladder, stage_ais

    search = (
        "top_round_robin = 6\n"
        'search = { ai = "mcts-fair", top = 4, deals = 3, beside = { ai = "mcts-deep", deals = 2 } }'
    )
    text = LADDER.replace(
        'roster = {set = "arena-box"}', f"roster = {json.dumps(list(STAR_ROSTER))}"
    ).replace("top_round_robin = 6", search)
    experiment = ladder(text)
    pairs_and_seats = 4 * 3 // 2 * 2
    assert planned_matches(experiment)["search"] == (3 + 2) * pairs_and_seats
    assert stage_ais(experiment) == {
        "search": ((("mcts-fair", "mcts-fair"), ("mcts-deep", "mcts-deep")), (3, 2))
    }
    alone = ladder(text.replace(', beside = { ai = "mcts-deep", deals = 2 }', ""))
    assert run_cost(experiment, 1, True).seconds > run_cost(alone, 1, True).seconds

    source = tmp_path / "ladder.toml"
    source.write_text(text)
    out = tmp_path / "out"
    run_ladder(experiment, source, out, play=strength_play, catalog=CAT, progress=False, echo=lambda *a: None)
    folder = next(f for f in out.iterdir() if f.name.endswith("search"))
    m = load_staged(out).matches
    searched = m[m["stage"] == "search"]
    assert sorted(searched.groupby("ai0").size().items()) == [
        ("mcts-deep", 2 * pairs_and_seats),
        ("mcts-fair", 3 * pairs_and_seats),
    ]
    assert folder.name.endswith("search")
    by_ai = searched.groupby("ai0")[["team0", "team1"]].apply(lambda g: set(map(tuple, g.to_numpy())))
    assert by_ai["mcts-deep"] == by_ai["mcts-fair"]  # the same pairings and seats
    groups = set(team_ratings(m)["tier"])
    assert groups == {"baseline", "mcts-deep", "mcts-fair"}


def test_rating_groups_split_a_search_tier_only_when_several_of_its_ais_played() -> None:
    import pandas as pd

    from krosbalance.studies.teams.ladder import group_title, tiers_of

    one = tiers_of(pd.Series(["kiter", "focus-fire", "mcts-fair"]))
    assert list(one) == ["heuristic", "heuristic", "search"]
    two = tiers_of(pd.Series(["kiter", "focus-fire", "mcts-fair", "mcts-deep"]))
    assert list(two) == ["heuristic", "heuristic", "mcts-fair", "mcts-deep"]
    assert group_title("heuristic") == "heuristic tier" and group_title("mcts-fair") == "mcts-fair"


def test_a_bad_beside_ai_is_one_clear_problem_each(tmp_path: Path) -> None:
    def problems(beside: str) -> list[str]:
        text = LADDER.replace(
            "top_round_robin = 6",
            f"top_round_robin = 6\nsearch = {{ ai = 'mcts-fair', top = 4, deals = 2, beside = {beside} }}",
        )
        _, errors = check_experiment_text(textwrap.dedent(text), str(tmp_path / "x.toml"), CAT)
        return [f"{e.field}: {e.reason}" for e in errors]

    assert problems("{ ai = 'mcts-deep', deals = 2 }") == []
    assert problems("'mcts-deep'") == [
        "teams.ladder.search.beside: must be a table {ai, deals}, not 'mcts-deep'"
    ]
    assert problems("{ ai = 'mcts-fair', deals = 2 }") == [
        "teams.ladder.search.beside.ai: is the search stage's own AI ('mcts-fair'); name the next AI down"
    ]
    assert problems("{ ai = 'nobody', deals = 2 }")[0].startswith(
        "teams.ladder.search.beside.ai: unknown AI 'nobody'"
    )
    assert problems("{ ai = 'mcts-deep', deals = 0 }") == [
        "teams.ladder.search.beside.deals: must be an integer >= 1, not 0"
    ]
    assert problems("{ ai = 'mcts-deep', rounds = 2 }")[0].startswith("teams.ladder.search.beside.rounds")
