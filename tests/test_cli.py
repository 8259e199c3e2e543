"""The command line: exit codes, one-line errors for user mistakes, and each command end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import krosbalance.sim.experiment as experiment_module
import krosbalance.sim.experiment_file as experiment_file
import krosbalance.sim.runner as runner_module
from krosbalance.cli import main
from krosbalance.rulesets import list_rulesets
from krosbalance.sim.runner import read_table
from tests.sim.fakes import FakeCatalog, fake_play

ROOT = Path(__file__).resolve().parents[1]
TEAMS = '[teams]\nmode = "mirror"\nlist = [["big_six", "big_six"], ["oscar_kass", "anna_tommy", "bill_tell", "lil_healey"]]\n'
GOOD = f'name = "cli"\nmaster_seed = 3\nmatches_per_pairing = 2\n{TEAMS}'


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "krosbalance", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def fake_world(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """In-process CLI with the fake catalog and fake play_match; cwd is a temp folder."""
    monkeypatch.setattr(experiment_file, "RegistryCatalog", FakeCatalog)
    monkeypatch.setattr(runner_module, "default_play", lambda: fake_play)
    monkeypatch.setattr("krosbalance.sim.match.default_play", lambda: fake_play)
    # the trial match plays the real engine, which the fake characters are not in
    monkeypatch.setattr("krosbalance.sim.trial.trial_errors", lambda experiment, file: [])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cli.toml").write_text(GOOD, encoding="utf-8")
    return tmp_path


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


def test_validate_good_file(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "cli.toml"]) == 0
    out = capsys.readouterr().out
    assert "cli.toml: ok" in out and "8 matches" in out


def test_validate_reports_every_problem(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = fake_world / "bad.toml"
    bad.write_text('name = "b"\nmaster_seed = "x"\nboards = ["moon"]\ncolour = 1\n' + TEAMS, encoding="utf-8")
    assert main(["validate", "bad.toml", "cli.toml"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert lines == [
        "error: bad.toml: colour: unknown key; expected one of: " + ", ".join(experiment_module.TOP_KEYS),
        "error: bad.toml: master_seed: must be an integer, not a string ('x')",
        "error: bad.toml: matches_per_pairing: missing (required)",
        "error: bad.toml: boards[0]: unknown board 'moon'; known: arena-elemental, test-open-5x5",
    ]
    assert "cli.toml: ok" in captured.out


def test_run_then_refuse_non_empty_out_then_resume(
    fake_world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    assert "cli: 8 matches (8 played, 0 already done), 0 errors" in capsys.readouterr().out
    assert len(read_table(fake_world / "res")) == 8
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "res" in line and "--resume" in line
    assert (
        main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--resume", "--no-progress"])
        == 0
    )
    assert "(0 played, 8 already done)" in capsys.readouterr().out


def test_run_default_out_is_results_name(fake_world: Path) -> None:
    assert main(["run", "cli.toml", "--no-progress", "--jobs", "1"]) == 0
    assert (fake_world / "results" / "cli" / "manifest.json").is_file()
    assert (fake_world / "reports" / "cli" / "report.html").is_file()  # the report, in the same command


def test_run_bad_experiment_is_one_line(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (fake_world / "bad.toml").write_text(GOOD.replace('"big_six", "big_six"', '"big_six", "nobody"'))
    assert main(["run", "bad.toml"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("error: bad.toml: teams.list[0][1]: unknown character 'nobody'")


@pytest.mark.parametrize("command", ["validate", "run"])
def test_an_ai_of_another_ruleset_is_one_line(
    fake_world: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    text = GOOD.replace("[teams]", 'ais = [["random", "blast-glyph"]]\n[teams]')
    (fake_world / "bad.toml").write_text(text)
    assert main([command, "bad.toml"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(
        "error: bad.toml: ais[0][1]: AI 'blast-glyph' does not play ruleset 'arena'; it plays: blast. "
        "AIs for arena: "
    )


def test_replay_text_without_pictures(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["replay", "res", "3", "--no-pictures"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("match 3 of cli: pairing 0, deal 1, seed ")
    assert "result: " in out
    assert main(["replay", "res", "99"]) == 2
    assert "no match 99" in one_error_line(capsys.readouterr().err)
    assert main(["replay", "nowhere", "0"]) == 2
    assert "not a krosbalance run folder" in one_error_line(capsys.readouterr().err)


def test_report_needs_a_run_folder(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "nowhere"]) == 2
    assert "not a krosbalance run folder" in one_error_line(capsys.readouterr().err)


def test_report_writes_into_reports_name(fake_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["report", "res"]) == 0
    printed = Path(capsys.readouterr().out.splitlines()[0])  # the page first, then the answer
    assert printed.exists() and Path("reports/cli") in printed.parents


# ------------------------------------------------------------------ real process, real registries


def test_module_entry_point_missing_file_exits_2_with_one_line() -> None:
    proc = cli("validate", "simulations/does-not-exist.toml")
    assert proc.returncode == 2
    assert one_error_line(proc.stderr) == "error: simulations/does-not-exist.toml: (file): no such file"
    proc = cli("run", "simulations/does-not-exist.toml", "--out", "/tmp/never-written")
    assert proc.returncode == 2 and "no such file" in one_error_line(proc.stderr)


def test_usage_mistakes_exit_2() -> None:
    assert cli().returncode == 2
    assert cli("list", "spells").returncode == 2
    assert cli("run", "x.toml", "--jobs", "0").returncode == 2


def test_list_boards_and_characters_from_the_registry() -> None:
    boards = cli("list", "boards")
    assert boards.returncode == 0 and "arena-elemental" in boards.stdout.split()
    characters = cli("list", "characters")
    assert characters.returncode == 0 and "queen_of_the_tofus" in characters.stdout.split()
    rulesets = cli("list", "rulesets")
    assert rulesets.returncode == 0 and rulesets.stdout.split() == list_rulesets()


def test_real_smoke_run_and_replay(tmp_path: Path) -> None:
    assert cli("validate", "simulations/smoke.toml").returncode == 0
    out = tmp_path / "smoke"
    run = cli(
        "run", "simulations/smoke.toml", "--out", str(out), "--jobs", "2", "--no-progress", "--no-report"
    )
    assert run.returncode == 0, run.stderr
    assert len(read_table(out)) == 8
    replay = cli("replay", str(out), "1", "--no-pictures")
    assert replay.returncode == 0, replay.stderr
    assert "--- turn 1 ---" in replay.stdout and "result:" in replay.stdout
    one_turn = cli("replay", str(out), "1", "--turn", "2", "--out", str(tmp_path / "pics"))
    assert one_turn.returncode == 0, one_turn.stderr
    assert [p.name for p in (tmp_path / "pics").glob("turn-*.png")] == ["turn-002.png"]


def test_real_blast_three_a_side_validates_and_runs_without_errors(tmp_path: Path) -> None:
    """Issue 17: ``validate`` passed this and every match of ``run`` failed with a TeamError."""
    file = tmp_path / "three.toml"
    file.write_text(
        'name = "three"\nmaster_seed = 5\nmatches_per_pairing = 1\nboards = ["blast-a"]\n'
        'ais = ["blast-brawler"]\nruleset = "blast"\n[teams]\nmode = "random_deal"\npool = "all"\n'
        "[options]\nteam_size = 3\n"
    )
    validate = cli("validate", str(file))
    assert validate.returncode == 0 and "ok: 'three'" in validate.stdout, validate.stderr
    run = cli("run", str(file), "--out", str(tmp_path / "res"), "--jobs", "1", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "2 matches (2 played, 0 already done), 0 errors" in run.stdout
    assert read_table(tmp_path / "res")["error"].tolist() == ["", ""]


def test_shipped_experiments_validate_against_the_registries() -> None:
    proc = cli(
        "validate",
        "simulations/smoke.toml",
        "simulations/box-round-robin.toml",
        "simulations/ai-validity.toml",
        "simulations/rewards-value.toml",
        "simulations/rewards-value-quick.toml",
        "simulations/rewards-value-search.toml",
        "simulations/rewards-in-play.toml",
    )
    assert proc.returncode == 0, proc.stderr
    assert "box-round-robin.toml: ok: 'box-round-robin', 35 pairings" in proc.stdout


def test_replay_prints_turns_and_saves_pictures(
    fake_world: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.sim.fakes import eventful_play

    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    monkeypatch.setattr("krosbalance.sim.match.default_play", lambda: eventful_play)
    capsys.readouterr()
    assert main(["replay", "res", "2", "--no-pictures"]) == 0
    out = capsys.readouterr().out
    assert "--- turn 1 ---\n  moved (turn 1)\n  turn_ended (turn 1)\n--- turn 2 ---" in out
    assert main(["replay", "res", "2", "--turn", "2", "--no-pictures"]) == 0
    out = capsys.readouterr().out
    assert "--- turn 2 ---" in out and "--- turn 1 ---" not in out

    calls = []

    def fake_pictures(spec, positions, turns, folder):  # the renderer is another layer's; check the wiring
        calls.append((spec.match_id, dict(positions), list(turns), folder))
        return [folder / f"turn-{t:03d}.png" for t in turns]

    monkeypatch.setattr("krosbalance.cli.replay._save_pictures", fake_pictures)
    assert main(["replay", "res", "2", "--turn", "3"]) == 0
    assert capsys.readouterr().out.strip().endswith(str(Path("res/replays/match-2/turn-003.png")))
    assert calls[0][0] == 2 and calls[0][2] == [3] and calls[0][1][3][0] == (0, "big_six", 0, 3, 0)
    assert main(["replay", "res", "2", "--turn", "9"]) == 2
    assert "has no turn 9" in one_error_line(capsys.readouterr().err)


def test_replay_pictures_with_the_real_renderer(
    fake_world: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.sim.fakes import eventful_play

    (fake_world / "cli.toml").write_text(
        GOOD.replace('"big_six", "big_six"', '"oscar_kass", "anna_tommy", "bill_tell", "lil_healey"')
    )
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    monkeypatch.setattr("krosbalance.sim.match.default_play", lambda: eventful_play)
    monkeypatch.setattr("tests.sim.fakes.FakeEvent.__init__", _real_ids_event_init)
    capsys.readouterr()
    assert main(["replay", "res", "0"]) == 0
    pictures = sorted((fake_world / "res" / "replays" / "match-0").glob("turn-*.png"))
    assert [p.name for p in pictures] == ["turn-001.png", "turn-002.png", "turn-003.png"]


def _real_ids_event_init(self, kind, turn, positions=()):  # real character ids for the real renderer
    self.kind, self.turn = kind, turn
    self.positions = tuple((uid, "oscar_kass", side, cell, inj) for uid, _, side, cell, inj in positions)


LADDER = (
    'name = "ladder"\nmaster_seed = 4\nmatches_per_pairing = 6\n'
    'ais = [["focus-fire", "random"], ["kiter", "random"], ["focus-fire", "kiter"]]\n'
    '[teams]\nmode = "mirror"\nlist = [["oscar_kass", "anna_tommy", "bill_tell", "lil_healey"]]\n'
)


def test_report_writes_the_ladder_file_every_report_reads(
    fake_world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from krosbalance.ai.ladder import load_ladder
    from krosbalance.ai.registry import ai_tier

    (fake_world / "ladder.toml").write_text(LADDER, encoding="utf-8")
    assert main(["run", "ladder.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    capsys.readouterr()
    assert (
        main(["report", "res", "--to", "rep", "--write-ladder", "standing.toml", "--chunk-matches", "8"]) == 0
    )
    printed = capsys.readouterr().out.split()
    assert printed[0] == "standing.toml"
    standing = load_ladder(Path("standing.toml"))
    assert set(standing) == {"focus-fire", "kiter", "random"}
    assert all(s.tier == ai_tier(name) and s.n > 0 for name, s in standing.items())
    assert all(s.ci_low <= s.rating <= s.ci_high for s in standing.values())
    assert "## AI ladder" in (fake_world / "rep" / "report.md").read_text(encoding="utf-8")


def test_write_ladder_on_a_run_without_cross_ai_matches_is_one_error_line(
    fake_world: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "cli.toml", "--jobs", "1", "--no-report", "--out", "res", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["report", "res", "--write-ladder", "standing.toml"]) == 2
    assert "no match pairs two different AIs" in one_error_line(capsys.readouterr().err)
    assert not Path("standing.toml").exists()
