"""The command line's conventions: --version, examples in every help, --jobs defaulting to the cores,
--out for where things go (the old spellings still read), listings with columns."""

from __future__ import annotations

import argparse

import pytest

from krosbalance import __version__
from krosbalance.cli import available_cores, build_parser, main


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version_names_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith(f"krosbalance {__version__} (native core: ")


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_every_subcommand_help_ends_with_examples(name: str) -> None:
    help_text = _subcommands()[name].format_help()
    assert "examples:\n  krosbalance " in help_text


def test_the_top_level_help_names_every_mode() -> None:
    text = build_parser().format_help()
    for mode in ("Arena", "four players", "Duel Pack", "Blast"):
        assert mode in text.replace("\n", " ")


@pytest.mark.parametrize("name", ["run", "fix", "validate"])
def test_jobs_defaults_to_the_cores_and_says_so(name: str) -> None:
    sub = _subcommands()[name]
    assert sub.get_default("jobs") == available_cores()
    assert f"the {available_cores()} core(s) available" in " ".join(sub.format_help().split())


def test_out_is_where_things_go_and_the_old_spellings_still_read() -> None:
    parser = build_parser()
    assert parser.parse_args(["report", "res", "--out", "rep"]).out.name == "rep"
    assert parser.parse_args(["report", "res", "--to", "rep"]).out.name == "rep"
    assert parser.parse_args(["replay", "res", "1", "--pictures", "pics"]).out.name == "pics"
    assert parser.parse_args(["compare", "a,b", "c,d", "--to", "rep"]).report_out.name == "rep"
    assert "--to" not in _subcommands()["report"].format_help()


def test_list_ais_has_tier_rating_and_cost_columns(capsys: pytest.CaptureFixture[str]) -> None:
    from krosbalance.ai.registry import list_ais

    assert main(["list", "ais"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["id", "tier", "ladder"]
    assert {line.split()[0] for line in lines[1 : 1 + len(list_ais())]} == set(list_ais())


def test_list_characters_has_set_level_and_stats(capsys: pytest.CaptureFixture[str]) -> None:
    from krosbalance.content.registry import list_characters

    assert main(["list", "characters"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "name", "game", "set", "level", "HP", "AP", "MP"]
    assert len(lines) == 1 + len(list_characters("krosmaster", game=None))


def test_replay_on_a_staged_study_folder_names_its_stages(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    (tmp_path / "stages.json").write_text(
        json.dumps({"study": "s", "stages": [{"index": 1, "folder": "stage-01-s-probe"}]}), encoding="utf-8"
    )
    assert main(["replay", str(tmp_path), "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "staged study" in err and "stage-01-s-probe 3" in err


def test_every_kind_of_name_gets_the_near_names(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from krosbalance.ai.registry import list_ais
    from krosbalance.content.registry import list_boards

    board, ai = list_boards("arena")[0], list_ais("arena")[0]
    file = tmp_path / "typo.toml"
    file.write_text(
        f'name = "typo"\nmaster_seed = 1\nmatches_per_pairing = 1\nboards = ["{board}x"]\nais = ["{ai}x"]\n'
        '[teams]\nmode = "splits"\npool = [{ set = "arena-box" }]\n',
        encoding="utf-8",
    )
    assert main(["validate", str(file)]) == 2
    err = capsys.readouterr().err
    assert f"did you mean {board!r}" in err and f"did you mean {ai!r}" in err
    assert main(["teams", "arena-box", "--ruleset", "arenaa"]) == 2
    assert "did you mean 'arena'" in capsys.readouterr().err
