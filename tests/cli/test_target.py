"""``[target]`` on the command line: ``validate`` says the rounds, the goal and the cap; ``run`` plays a
tiny adaptive experiment with a cheap heuristic AI on the native core and prints where it stopped."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from krosbalance import native
from krosbalance.cli import main

ROOT = Path(__file__).resolve().parents[2]

TINY = """
name = "tiny-target"
master_seed = 11
matches_per_pairing = 1
boards = ["arena-elemental"]
ais = ["kiter-race"]

[teams]
mode = "splits"
pool = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy",
        "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]

[target]
{target}
"""


def tiny(tmp_path: Path, target: str) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(textwrap.dedent(TINY.format(target=target)), encoding="utf-8")
    return path


def test_validate_says_what_the_target_will_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tiny(tmp_path, "half_width = 0.2\nmax_matches = 700")), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "run plays at most 700 matches" in out
    assert "target: plays kiter-race in rounds of 1 deal per pairing and board (70 matches, " in out
    assert (
        "until every figure's strength has a 95% CI half-width ≤ 0.2 log-odds, at most 10 deals (700 matches, "
        in out
    )


def test_validate_refuses_a_wrong_target_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tiny(tmp_path, 'ais = ["mcts"]'))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"error: {tmp_path / 'tiny.toml'}: target.ais[0]: 'mcts' plays no matchup of its own in ais "
        "(the same AI on every side); those that do: kiter-race"
    ]


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
@pytest.mark.parametrize(
    ("target", "status"),
    [("half_width = 0.6\nmax_deals = 8", "reached"), ("half_width = 0.05\nmax_deals = 3", "cap")],
)
def test_run_stops_at_the_target_or_at_the_cap_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, status: str
) -> None:
    out = tmp_path / "out"
    code = main(
        ["run", str(tiny(tmp_path, target)), "--out", str(out), "--jobs", "1", "--no-report", "--no-progress"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    record = json.loads((out / "manifest.json").read_text())["target"]["ais"]["kiter-race"]
    assert record["status"] == status and record["matches"] == 70 * record["deals"]
    line = next(line for line in printed.splitlines() if line.startswith("target: kiter-race: "))
    if status == "reached":
        assert record["half_width"] <= 0.6 and 1 <= record["rounds"] < 8
        assert f"±0.60 reached after {record['matches']:,} matches" in line
    else:
        assert record["rounds"] == 3 and record["half_width"] > 0.05
        assert f"cap reached at ±{record['half_width']:.2f} after 210 matches" in line
