"""The command line on the real content: a misspelt option or ruleset, and an AI that does not play
the experiment's ruleset, are one line each (exit status 2, no traceback), naming the near name or
the AI, the ruleset and what the AI plays."""

from __future__ import annotations

import re
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


# ------------------------------------------------------- issue 36: a study that would measure nothing
SIMULATIONS = Path(__file__).resolve().parents[1] / "simulations"
SMOKE_ARMS = '[[variants]]\nname = "study"\n{table}\n\n[[variants]]\nname = "base"\n\n[teams]'

#: (shipped file, [(text, replacement)], the start of the one line) — each names a figure (or a
#: reward) that exists but that no match of the experiment fields, so every arm would play alike
UNPLAYED = {
    "sweep figure": (
        "fix-anna-tommy.toml",
        [
            ('figure = "anna_tommy"', 'figure = "sam_sram"'),
            (
                'values = { hp = [12, 16, 20], "spells.assault.amount" = [1, 2, 3] }',
                "values = { hp = [12, 16] }",
            ),
        ],
        "sweep.figure: 'sam_sram' plays in no team of this experiment, so every arm would play the same "
        "matches; the teams field anna_tommy, bad_aboum,",
    ),
    "restricted figure": (
        "why-bill-tell.toml",
        [('figures = ["bill_tell", "anna_tommy"]', 'figures = ["bill_tell", "sadi_dada"]')],
        "restricted.figures: 'sadi_dada' plays in no team of this experiment",
    ),
    "fix figure": (
        "fix-the-box.toml",
        [("[fix]\n", '[fix]\nfigures = ["merkator"]\n')],
        "fix.figures[0]: 'merkator' plays in no team of this experiment, so the fix cannot measure it",
    ),
    "fix field": (
        "fix-the-box.toml",
        [
            (
                "[fix]\n",
                '[fix]\nfigures = ["bill_tell"]\nforbid = ["bill_tell.spells.plaguing_arrow.range_max"]\n',
            ),
            ('fields = ["hp", "spells.ap_cost"]', 'fields = ["hp", "spells.range_max"]'),
            ('step = { hp = 2, "spells.ap_cost" = 1 }', "step = { hp = 2 }"),
        ],
        "fix.fields: 'spells.range_max': no figure the fix may change has such a value",
    ),
    "variant patch": (
        "smoke.toml",
        [("[teams]", SMOKE_ARMS.format(table="patch = { characters = { sam_sram = { hp = 13 } } }"))],
        "variants[0].patch: changes only sam_sram: 'sam_sram' plays in no team",
    ),
    "variant forbid": (
        "smoke.toml",
        [("[teams]", SMOKE_ARMS.format(table='forbid = { sam_sram = ["spell:coup_sournois"] }'))],
        "variants[0].forbid.sam_sram: 'sam_sram' plays in no team",
    ),
    "reward patch without rewards": (
        "smoke.toml",
        [("[teams]", 'patch = { rewards = { xelor_style = { rank = "gold" } } }\n[teams]')],
        "patch: changes only the Demonic Reward(s) xelor_style, and no arm plays Demonic Rewards",
    ),
    "reward holder": (
        "smoke.toml",
        [
            (
                "[teams]",
                '[options]\nstart_rewards = [["xelor_style"], []]\nstart_reward_holders = [["oscar_kass"], []]\n[teams]',
            )
        ],
        "options.start_reward_holders[0]: 'oscar_kass' is not on side 0's team in every match",
    ),
}


@pytest.mark.parametrize("command", ["validate", "run"])
@pytest.mark.parametrize("case", list(UNPLAYED))
def test_a_study_name_no_arm_plays_is_one_line_in_validate_and_run(write, capsys, command, case) -> None:
    """Issue 36: a swept, restricted, fixed, patched or holding name that exists but that no match
    fields passed validate and ran every arm alike (exit 0); now one line, the same in both."""
    shipped, replacements, expected = UNPLAYED[case]
    text = (SIMULATIONS / shipped).read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, (case, old)
        text = text.replace(old, new, 1)
    line = one_error_line(capsys, [command, write(text)])
    assert line.startswith(f"error: bad.toml: {expected}"), line
    assert not Path("results").exists()  # run refused before any match


def test_a_patch_given_to_run_that_changes_no_played_figure_is_one_line(write, capsys) -> None:
    Path("sam.toml").write_text("[characters.sam_sram]\nhp = 13\n", encoding="utf-8")
    line = one_error_line(capsys, ["run", str(SIMULATIONS / "smoke.toml"), "--patch", "sam.toml"])
    assert "patch: changes only sam_sram: 'sam_sram' plays in no team" in line
    assert not Path("results").exists()


def test_a_near_name_in_play_is_suggested() -> None:
    from krosbalance.sim.file_problems import did_you_mean, unknown_name

    assert did_you_mean("bill_tel", ["anna_tommy", "bill_tell"]) == "; did you mean 'bill_tell'?"
    assert did_you_mean("zzz", ["anna_tommy", "bill_tell"]) == ""
    many = ["xelor_style", "iop_style", "cra_style", *(f"pet_{i:02d}" for i in range(57))]
    reason = unknown_name("reward", "xelor_stile", many, "krosbalance list rewards")
    assert reason.startswith("unknown reward 'xelor_stile'; did you mean 'xelor_style'")
    assert reason.endswith("(krosbalance list rewards lists all 60)") and "pet_56" not in reason
    assert unknown_name("AI", "randm", ["random", "kiter"], "-").endswith("; known: random, kiter")


def test_a_collection_figure_no_rated_team_holds_is_named() -> None:
    import json

    from krosbalance.sim.experiment import Experiment
    from krosbalance.sim.study_names import unplayed_names

    settings = {"teams": [["a", "b"], ["c", "d"]], "field": [["a", "b"], ["c", "d"]], "owned": ["a", "e"]}
    experiment = Experiment(
        "ladder", "x.toml", 1, 1, ((("a", "b"), ("c", "d")),), mode="ladder", ladder=json.dumps(settings)
    )
    problems = unplayed_names(experiment)
    assert [field for field, _ in problems] == ["teams.collection"]
    assert problems[0][1].startswith("figures.e: 'e' is in no team the study rates")


# ------------------------------------------------------------- issue 36: [fix], turn_limit, rewards
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("rounds = 2", "rounds = -3", "fix.rounds: must be an integer from 1 to 4"),
        (r"^verify_ais = .*$", 'verify_ais = ["é"]', "fix.verify_ais: unknown AI 'é'"),
        ("[fix]\n", '[[variants]]\nname = "x"\n\n[fix]\n', "variants: a fix file plays the shipped cards"),
    ],
)
@pytest.mark.parametrize("command", ["validate", "fix"])
def test_validate_reads_fix_with_the_parser_fix_uses(write, capsys, command, old, new, expected) -> None:
    """Issue 36: ``validate`` never read ``[fix]``; it passed what ``fix`` then refused."""
    text = (SIMULATIONS / "fix-the-box.toml").read_text(encoding="utf-8")
    pattern = old if old.startswith("^") else re.escape(old)  # a line whatever its value, or a text
    changed = re.sub(pattern, lambda _: new, text, count=1, flags=re.MULTILINE)
    assert changed != text
    line = one_error_line(capsys, [command, write(changed)])
    assert line.startswith(f"error: bad.toml: {expected}"), line


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_turn_limit_of_zero_is_refused(write, capsys, command) -> None:
    """Issue 36: ``turn_limit = 0`` made every match a turn-0 draw, exit 0."""
    line = one_error_line(capsys, [command, write(GOOD + "[options]\nturn_limit = 0\n")])
    assert line == "error: bad.toml: options.turn_limit: must be at least 1, got 0"


@pytest.mark.parametrize("key", ["held_rewards", "purchase_rewards"])
def test_an_unknown_reward_gets_the_near_names_not_all_sixty(write, capsys, key) -> None:
    line = one_error_line(
        capsys, ["validate", write(GOOD.replace("[teams]", f'{key} = ["xelor_stile"]\n[teams]'))]
    )
    assert line.startswith(
        f"error: bad.toml: {key}[0]: unknown reward 'xelor_stile'; did you mean 'xelor_style'?"
    )
    assert "action_dofus" not in line and "krosbalance list rewards" in line
