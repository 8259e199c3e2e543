"""An experiment's ``content`` key and ``--content`` (krosbalance.sim.content_key): the cards a run
plays, checked with the file, in its fingerprint, manifest and match specs, kept beside its results,
seen by worker processes."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from krosbalance import native
from krosbalance.cli import main
from krosbalance.content.custom import use_content
from krosbalance.errors import ExperimentError
from krosbalance.sim.content_key import experiment_copy_text
from krosbalance.sim.expansion import expand
from krosbalance.sim.experiment import check_experiment, load_experiment
from krosbalance.sim.replay import replay_match
from krosbalance.sim.runner import RunError, read_manifest, read_table, run_experiment
from krosbalance.sim.runner import fingerprint as fingerprint_of
from tests.content.custom_helpers import (
    BOARD,
    FIGURE,
    REFERENCE_ONLY,
    box_split,
    make_folder,
    reference_only_effect,
    shipped_cards,
)

__all__ = ["shipped_cards"]
pytestmark = pytest.mark.usefixtures("shipped_cards")


def experiment_text(content: str | None, board: str = BOARD, deals: int = 2) -> str:
    team_a, team_b = box_split()
    key = f"content = {json.dumps(content)}\n" if content is not None else ""
    return (
        f'name = "designer"\n{key}master_seed = 3\nmatches_per_pairing = {deals}\n'
        f'boards = ["{board}"]\nais = ["focus-fire"]\n[teams]\nmode = "pairs"\n'
        f"pairs = [[{json.dumps([FIGURE, *team_a[1:]])}, {json.dumps(list(team_b))}]]\n"
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A designer's project: ``cards/`` and ``study.toml`` naming them."""
    make_folder(tmp_path / "cards", box_split()[0][0])
    (tmp_path / "study.toml").write_text(experiment_text("cards"), encoding="utf-8")
    return tmp_path


def test_the_key_names_a_folder_beside_the_file_and_its_names_are_checked_against_it(project: Path) -> None:
    experiment = load_experiment(project / "study.toml")
    assert experiment.content == str((project / "cards").resolve()) and len(experiment.content_digest) == 16
    assert {spec.content for spec in expand(experiment)} == {experiment.content}
    (project / "plain.toml").write_text(experiment_text(None), encoding="utf-8")
    _, errors = check_experiment(project / "plain.toml")  # the same names without the cards
    assert errors and any(FIGURE in str(e) or BOARD in str(e) for e in errors)


def test_the_cards_are_in_the_fingerprint(project: Path) -> None:
    before = fingerprint_of(load_experiment(project / "study.toml"))
    card = project / "cards" / "characters" / "figure.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("hp = 9", "hp = 12"), encoding="utf-8")
    assert fingerprint_of(load_experiment(project / "study.toml")) != before


def test_a_folder_that_does_not_load_is_one_problem_on_the_key(project: Path) -> None:
    card = project / "cards" / "characters" / "figure.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("mp = 3", "mp = -1"), encoding="utf-8")
    _, errors = check_experiment(project / "study.toml")
    assert len(errors) == 1 and errors[0].field == "content"
    assert "characters[0].mp" in errors[0].reason and str(card.resolve()) in errors[0].reason
    (project / "gone.toml").write_text(experiment_text("nowhere"), encoding="utf-8")
    _, errors = check_experiment(project / "gone.toml")
    assert len(errors) == 1 and "no such folder" in errors[0].reason


def test_the_key_and_another_chosen_folder_are_refused(project: Path, tmp_path: Path) -> None:
    use_content(make_folder(tmp_path / "other", box_split()[0][0], hp=5))
    with pytest.raises(ExperimentError, match="a run plays one content folder") as caught:
        load_experiment(project / "study.toml")
    assert caught.value.field == "content"


def test_without_the_key_the_chosen_folder_plays(project: Path) -> None:
    use_content(project / "cards")
    (project / "plain.toml").write_text(experiment_text(None), encoding="utf-8")
    experiment = load_experiment(project / "plain.toml")
    assert experiment.content == str((project / "cards").resolve())


def test_a_run_keeps_its_cards_replays_with_them_and_refuses_a_resume_with_others(project: Path) -> None:
    out = project / "out"
    summary = run_experiment(project / "study.toml", out, progress=False)
    assert summary.n_errors == 0
    manifest = read_manifest(out)
    assert manifest["content"]["files"] == ["boards/board.toml", "characters/figure.toml"]
    assert (out / "content" / "characters" / "figure.toml").is_file()
    fighters = read_table(out, "fighters")
    assert FIGURE in set(fighters["character"])
    use_content(None)
    first = replay_match(out, 0)  # the run's copy of the cards, wherever the designer's went
    matches = read_table(out, "matches").set_index("match_id")
    assert first.result.winner == matches.loc[0, "winner"] and first.result.turns == matches.loc[0, "turns"]
    card = project / "cards" / "characters" / "figure.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("hp = 9", "hp = 12"), encoding="utf-8")
    with pytest.raises(RunError, match="different experiment"):
        run_experiment(project / "study.toml", out, resume=True, progress=False)


def test_worker_processes_play_with_the_runs_cards(project: Path) -> None:
    """Two loky workers, reused by a second run of other cards: each run's rows are those of a
    run in this process."""
    weak = make_folder(project / "weak", box_split()[0][0], hp=3)
    (project / "weak.toml").write_text(experiment_text("weak"), encoding="utf-8")
    tables = {}
    for name, jobs in (("study", 2), ("weak", 2), ("study", 1), ("weak", 1)):
        out = project / f"{name}-{jobs}"
        run_experiment(project / f"{name}.toml", out, jobs=jobs, batch_size=1, progress=False)
        tables[name, jobs] = (
            read_table(out, "fighters").sort_values(["match_id", "uid"]).reset_index(drop=True)
        )
    assert weak.is_dir()
    for name in ("study", "weak"):
        pd.testing.assert_frame_equal(tables[name, 2], tables[name, 1])
    hp = {name: tables[name, 1] for name in ("study", "weak")}
    assert not hp["study"].equals(hp["weak"])  # the cards differ, so the matches do


def test_the_copy_of_the_experiment_names_the_runs_cards() -> None:
    text = '# a study\nname = "x"\ncontent = "../cards"\n[teams]\ncontent = "not the key"\n'
    assert experiment_copy_text(text, "content").splitlines()[2].startswith('content = "content"')
    assert 'content = "not the key"' in experiment_copy_text(text, "content")
    added = experiment_copy_text('name = "x"\n', "content")
    assert added.startswith('content = "content"') and added.endswith('name = "x"\n')


def test_the_command_line_option_serves_every_command(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = str(project / "cards")
    assert main(["--content", cards, "list", "characters"]) == 0
    assert FIGURE in capsys.readouterr().out.split()
    assert main(["--content", cards, "show", FIGURE]) == 0
    assert "Test Designer Figure" in capsys.readouterr().out
    (project / "plain.toml").write_text(experiment_text(None), encoding="utf-8")
    assert main(["--content", cards, "validate", str(project / "plain.toml")]) == 0
    assert main(["--content", str(project / "missing"), "list", "characters"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "no such folder" in err[0]


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_cards_the_core_cannot_play_are_said_once_and_played_by_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lacking = reference_only_effect(monkeypatch)
    make_folder(tmp_path / "cards", box_split()[0][0], extra_effect=lacking)
    (tmp_path / "study.toml").write_text(experiment_text("cards", deals=1), encoding="utf-8")
    summary = run_experiment(tmp_path / "study.toml", tmp_path / "out", progress=False)
    err = capsys.readouterr().err
    assert err.count("note: the native core cannot play the cards of") == 1 and REFERENCE_ONLY in err
    assert summary.n_errors == 0
    assert set(read_table(tmp_path / "out", "matches")["engine"]) == {"reference"}


def test_report_and_answer_read_a_run_with_the_cards_it_was_played_with(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "out"
    run_experiment(project / "study.toml", out, progress=False)
    from krosbalance.analysis.names import display_name
    from krosbalance.content.custom import active_content

    use_content(None)  # a later session: no folder chosen
    assert display_name(FIGURE) == FIGURE  # unknown without the cards, and remembered so
    capsys.readouterr()
    assert main(["answer", str(out)]) == 0
    assert FIGURE not in capsys.readouterr().out

    active = active_content()
    assert active is not None and Path(active.root).resolve() == (out / "content").resolve()
    assert display_name(FIGURE) == "Test Designer Figure"
