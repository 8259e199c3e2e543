"""``krosbalance compare`` end to end on a tiny budget: the answer it prints, the same answer for the
same seed, a resume, one line and exit 2 for a bad team, and the AI a budget chooses (costs mocked).
Teams are drawn from the box set of the registry, not named by hand."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from krosbalance.analysis.names import display_name
from krosbalance.cli import main
from krosbalance.sim.catalog import RegistryCatalog
from krosbalance.sim.rosters import collection_teams
from krosbalance.studies.matchup import command
from krosbalance.studies.matchup.choice import ladder_candidates

CATALOG = RegistryCatalog()


def _two_teams() -> tuple[tuple[str, ...], tuple[str, ...]]:
    box = CATALOG.characters("arena", set="arena-box")
    teams = collection_teams(box, CATALOG, "arena", None, (4, 4))
    first = teams[0]
    second = next((t for t in teams if not set(t) & set(first)), teams[-1])
    return first, second


FIRST, SECOND = _two_teams()
SHOWN = [",".join(display_name(c) for c in team) for team in (FIRST, SECOND)]  # as the game prints them


def _compare(tmp: Path, out: str, *extra: str) -> list[str]:
    argv = ["compare", *SHOWN, "--matches", "8", "--ai", "random", "--jobs", "1", "--no-progress"]
    return [*argv, "--out", str(tmp / out), "--to", str(tmp / f"report-{out}"), *extra]


def _answer(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "(random)" in line and "matches" in line]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    tmp = tmp_path_factory.mktemp("compare")
    printed = []
    for argv in (_compare(tmp, "one"), _compare(tmp, "two"), _compare(tmp, "one", "--resume")):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(argv) == 0
        printed.append(buffer.getvalue())
    return tmp, printed


def test_compare_prints_the_answer_with_the_numbers_n_ci_and_the_ai(runs: tuple[Path, list[str]]) -> None:
    tmp, printed = runs
    (line,) = _answer(printed[0])
    assert "of 8 matches (random)" in line or "no difference measurable at n = 8 matches (random)" in line
    assert "% [" in line
    assert printed[0].splitlines()[0] == "AI: random (--ai)."
    source = (tmp / "one.toml").read_text(encoding="utf-8")
    assert 'study = "matchup"' in source and "matches_per_pairing = 4" in source
    report = (tmp / "report-one" / "report.md").read_text(encoding="utf-8")
    first_screen = report[: report.index("## Question")]
    assert line in first_screen  # the report opens on the same answer
    assert report.index("## Matchup") < report.index("## AIs")
    assert (tmp / "report-one" / "tables" / "matchup_pairs.csv").is_file()


def test_the_same_seed_gives_the_same_answer(runs: tuple[Path, list[str]]) -> None:
    _, printed = runs
    assert _answer(printed[0]) == _answer(printed[1]) != []


def test_a_resume_plays_nothing_again_and_keeps_the_ai(runs: tuple[Path, list[str]]) -> None:
    tmp, printed = runs
    assert "(0 played, 8 already done)" in printed[2]
    assert _answer(printed[2]) == _answer(printed[0])
    assert command.resumed_ai(tmp / "one") == "random"


def test_a_folder_in_the_way_is_one_line_and_exit_2(
    runs: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp, _ = runs
    assert main(_compare(tmp, "one")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--resume" in err[0]


def _mangled(name: str) -> str:
    return name[:-1] if len(name) > 4 else name + "x"


@pytest.mark.parametrize("which", [0, 1])
def test_a_bad_figure_name_is_one_line_naming_it_with_a_suggestion_and_exit_2(
    which: int, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = list(SHOWN)
    names = teams[which].split(",")
    bad = _mangled(names[1])
    teams[which] = ",".join([names[0], bad, *names[2:]])
    assert main(["compare", *teams, "--ai", "random"]) == 2
    out = capsys.readouterr()
    err = out.err.strip().splitlines()
    assert len(err) == 1 and out.out == ""
    assert err[0].startswith(f"error: team {which + 1}: unknown figure {bad!r}; did you mean {names[1]!r}")
    assert "Traceback" not in out.err


def test_a_team_the_rules_refuse_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    illegal = ",".join([display_name(FIRST[0])] * 9)  # too many levels, or too many copies
    assert main(["compare", illegal, SHOWN[1], "--ai", "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: team 1: ")


def test_one_team_or_the_same_team_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", SHOWN[0], "--ai", "random"]) == 2
    reordered = ",".join(reversed(SHOWN[0].split(",")))
    assert main(["compare", SHOWN[0], reordered, "--ai", "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "error: compare needs two teams or more",
        "error: team 2: the same team as team 1; compare different teams",
    ]


def test_a_bad_ai_or_board_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *SHOWN, "--ai", "no_such_ai"]) == 2
    assert main(["compare", *SHOWN, "--ai", "random", "--board", "no_such_board"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "unknown ai 'no_such_ai'" in err[0] and "unknown board 'no_such_board'" in err[1]


def test_a_team_may_be_a_text_file_or_a_collection(tmp_path: Path) -> None:
    text = tmp_path / "mine.txt"
    text.write_text("# my team\n" + "\n".join(display_name(c) for c in FIRST) + "\n", encoding="utf-8")
    assert sorted(command.parse_team(str(text), "team 1", CATALOG, "arena")) == sorted(FIRST)
    owned = tmp_path / "mine.toml"
    counts = {c: FIRST.count(c) for c in FIRST}
    owned.write_text("[figures]\n" + "".join(f"{c} = {n}\n" for c, n in counts.items()), encoding="utf-8")
    assert sorted(command.parse_team(str(owned), "team 1", CATALOG, "arena")) == sorted(FIRST)


def _args(**overrides: object) -> argparse.Namespace:
    values: dict[str, object] = dict(
        ai=None, resume=False, ruleset="arena", matches=1000, budget=300.0, seed=1
    )
    values.update(overrides)
    return argparse.Namespace(**values)


def test_the_budget_chooses_the_strongest_ladder_ai_whose_estimate_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from krosbalance.studies.matchup import api

    order = ladder_candidates(
        api.ladder_ratings(), lambda a: not CATALOG.ai_problem(a, "arena"), CATALOG.ais("arena")
    )
    assert len(order) >= 2
    cost = {order[0]: 10.0, order[1]: 0.5}  # the strongest would need 5,000 s, the next 250 s
    timed: list[str] = []

    def fake(ai: str, *_: object) -> float:
        timed.append(ai)
        return cost.get(ai, 0.001)

    monkeypatch.setattr(command, "measure_seconds", fake)
    choice = command.choose(_args(), [FIRST, SECOND], ["arena-elemental"], CATALOG, 2, None)
    assert choice.ai == order[1] and timed == order[:2]
    assert choice.reason.startswith(
        f"AI: {order[1]}, the strongest on the AI ladder that fits --budget 300 s"
    )
    assert f"{order[0]} would need ~5,000 s" in choice.reason


def test_an_explicit_ai_is_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command, "measure_seconds", lambda *a: pytest.fail("timed"))
    choice = command.choose(_args(ai="random"), [FIRST, SECOND], ["arena-elemental"], CATALOG, 2, None)
    assert choice.ai == "random"


def test_the_help_of_krosbalance_and_of_compare_prints(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["compare", "--help"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
    out = capsys.readouterr().out
    assert "compare" in out and "--budget" in out and "win %" in out


@pytest.mark.parametrize(("matches", "boards", "played"), [(8, 1, 8), (7, 1, 8), (8, 2, 8), (10, 4, 16)])
def test_the_matches_per_pair_are_spread_over_the_boards(matches: int, boards: int, played: int) -> None:
    from krosbalance.sim.experiment import loads_experiment

    names = CATALOG.boards("arena")[:boards]
    text = command.experiment_text("x", [FIRST, SECOND], names, "random", 1, matches, "arena")
    experiment = loads_experiment(text, "x.toml")
    assert experiment.study == "matchup" and experiment.boards == tuple(names)
    assert experiment.n_matches == played  # at least as many as asked, two a deal, as many on each board


def test_a_resume_without_out_finds_the_default_folder_of_the_ai_it_began_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(command, "measure_seconds", lambda *a: pytest.fail("timed"))
    args = _args(resume=True)
    boards = ["arena-elemental"]
    from krosbalance.studies.matchup import api

    order = ladder_candidates(
        api.ladder_ratings(), lambda a: not CATALOG.ai_problem(a, "arena"), CATALOG.ais("arena")
    )
    began = order[-1]
    folder = tmp_path / "results" / command.experiment_name([FIRST, SECOND], boards, began, 1, 1000, "arena")
    folder.mkdir(parents=True)
    text = command.experiment_text(folder.name, [FIRST, SECOND], boards, began, 1, 1000, "arena")
    (folder / "experiment.toml").write_text(text, encoding="utf-8")
    choice = command.choose(args, [FIRST, SECOND], boards, CATALOG, 2, None)
    assert choice.ai == began and "resumed" in choice.reason


def test_the_timing_warms_up_then_times_matches_not_a_runs_files(monkeypatch: pytest.MonkeyPatch) -> None:
    import krosbalance.play

    played: list[int] = []

    def fake_play(*teams, **kwargs):  # type: ignore[no-untyped-def]
        played.append(kwargs["seed"])

    monkeypatch.setattr(krosbalance.play, "play_match", fake_play)
    seconds = command.measure_seconds("focus-fire", [FIRST, SECOND], ["arena-elemental"], 7, "arena")
    assert played[0] == 7 and len(played) >= 3  # the warm-up, then at least two timed matches
    assert played == list(range(7, 7 + len(played))) and 0 <= seconds < command.TIMING_SECONDS
