"""`krosbalance teams ROSTER` and a team study's bad input: one clear line each, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.sim.catalog import RegistryCatalog


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_teams_counts_and_lists_every_legal_team_of_a_set(capsys: pytest.CaptureFixture[str]) -> None:
    catalog = RegistryCatalog()
    box = catalog.characters(set="arena-box")
    expected = sorted(set(catalog.all_teams(box)))
    status, out, _ = _run(capsys, "teams", "set:arena-box")
    lines = out.strip().splitlines()
    assert status == 0 and lines[0].startswith(f"{len(expected)} legal teams from set arena-box")
    assert lines[1:] == [", ".join(t) for t in expected]
    status, out, _ = _run(capsys, "teams", "arena-box", "--count", "--size", "4")
    assert (
        status == 0
        and out.strip()
        == f"{sum(len(t) == 4 for t in expected)} legal teams from set arena-box (team rule of ruleset 'arena', 4 figures)"
    )


def test_a_collection_file_lists_the_teams_of_the_owned_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    box = RegistryCatalog().characters(set="arena-box")
    path = tmp_path / "mine.toml"
    path.write_text("[figures]\n" + "".join(f"{name} = 1\n" for name in box[:5]), encoding="utf-8")
    status, out, _ = _run(capsys, "teams", str(path))
    teams = [line.split(", ") for line in out.strip().splitlines()[1:]]
    assert status == 0 and teams and all(set(t) <= set(box[:5]) and len(set(t)) == len(t) for t in teams)


def test_an_unknown_figure_in_a_collection_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[figures]\nbill_tell = 1\nnobody_at_all = 1\n", encoding="utf-8")
    status, out, err = _run(capsys, "teams", str(path))
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: {path}: figures.nobody_at_all: unknown figure 'nobody_at_all'")


def test_a_roster_with_no_legal_team_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    one = RegistryCatalog().characters(set="arena-box")[0]
    status, _, err = _run(capsys, "teams", one)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "no legal team can be drawn from it" in err


def test_a_team_rule_the_ruleset_does_not_know_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(
        'name = "x"\nmaster_seed = 1\nmatches_per_pairing = 1\n[teams]\nmode = "ladder"\n'
        'roster = {set = "arena-box"}\nrule = { points = 20 }\n',
        encoding="utf-8",
    )
    status, _, err = _run(capsys, "validate", str(path))
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: {path}: teams.rule.points: ruleset 'arena' has no team rule 'points'")
