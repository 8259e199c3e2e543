"""The command line on the real content: a misspelt option or ruleset, and an AI that does not play
the experiment's ruleset, are one line each (exit status 2, no traceback), naming the near name or
the AI, the ruleset and what the AI plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.cli import main

GOOD = (
    'name = "errs"\nmaster_seed = 1\nmatches_per_pairing = 1\n'
    '[teams]\nmode = "splits"\npool = { set = "arena-box" }\n'
)


def one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


@pytest.fixture
def write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)

    def write(text: str) -> str:
        (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
        return "bad.toml"

    return write


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_misspelt_option_is_one_line_with_the_near_name(write, capsys, command: str) -> None:
    file = write(GOOD + "[options]\nturn_limt = 40\n")
    line = one_error_line(capsys, [command, file])
    assert line.startswith(
        "error: bad.toml: options.turn_limt: unknown ruleset option; did you mean 'turn_limit'"
    )


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_misspelt_option_of_a_variant_is_one_line(write, capsys, command: str) -> None:
    file = write(GOOD + '[[variants]]\nname = "short"\noptions = { turn_limt = 40 }\n')
    line = one_error_line(capsys, [command, file])
    assert line.startswith(
        "error: bad.toml: variants[0].options.turn_limt: unknown ruleset option; did you mean"
    )


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_misspelt_ruleset_is_one_line_with_the_near_name(write, capsys, command: str) -> None:
    # the variant's options cannot be checked against an unknown ruleset: no second line about them
    text = GOOD.replace("[teams]", 'ruleset = "arenna"\n[teams]')
    file = write(text + '[[variants]]\nname = "short"\noptions = { turn_limt = 40 }\n')
    line = one_error_line(capsys, [command, file])
    assert line.startswith("error: bad.toml: ruleset: unknown ruleset 'arenna'; did you mean 'arena'?")


@pytest.mark.parametrize("command", ["validate", "run"])
def test_an_ai_of_another_ruleset_names_the_ai_the_ruleset_and_what_it_plays(
    write, capsys, command: str
) -> None:
    from krosbalance.ai.registry import ai_rulesets, list_ais

    blast_only = next(ai for ai in list_ais("blast") if "arena" not in ai_rulesets(ai))
    file = write(GOOD.replace("[teams]", f'ais = ["{blast_only}"]\n[teams]'))
    line = one_error_line(capsys, [command, file])
    assert line.startswith(
        f"error: bad.toml: ais[0]: AI {blast_only!r} does not play ruleset 'arena'; "
        f"it plays: {', '.join(ai_rulesets(blast_only))}. AIs for arena: "
    )
