from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from krosbalance.cli import main
from krosbalance.content.registry import load_board
from krosbalance.render.frames import build_replay
from krosbalance.render.replay_page import render_page, write_replay_page
from krosbalance.sim.runner import run_experiment
from tests.render.replays import EXPERIMENTS, experiment_file, played


def _data(page: str) -> dict:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize("kind", sorted(EXPERIMENTS))
def test_the_page_is_self_contained_and_carries_the_frames(kind: str, replay_folder: str) -> None:
    spec, result = played(kind, 0, replay_folder)
    replay = build_replay(result, load_board(spec.board))
    page = render_page(replay)
    assert "<script src" not in page and "<link" not in page
    assert not [url for url in re.findall(r"https?://[^\s\"'<>]+", page) if "www.w3.org/2000/svg" not in url]
    data = _data(page)
    assert len(data["frames"]) == len(replay.frames)
    assert data["frames"][-1]["text"] == replay.frames[-1]["text"]
    assert data["meta"]["winner"]


def test_write_replay_page_writes_the_page(tmp_path: Path, replay_folder: str) -> None:
    _spec, result = played("arena", 1, replay_folder)
    path = Path(write_replay_page(result, tmp_path / "sub" / "match.html", title="a title"))
    page = path.read_text(encoding="utf-8")
    assert "<title>a title</title>" in page and _data(page)["frames"]


def test_a_script_end_inside_the_data_cannot_close_the_script(replay_folder: str) -> None:
    spec, result = played("arena", 0, replay_folder)
    replay = build_replay(result, load_board(spec.board), title="</script><b>x")
    page = render_page(replay)
    assert page.count("</script>") == 2 and _data(page)["meta"]["title"] == "</script><b>x"


def test_cli_replay_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    run_experiment(experiment_file("duel", tmp_path), out, progress=False)
    assert main(["replay", str(out), "0", "--html", "--out", str(tmp_path / "page.html")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "page.html")
    assert _data((tmp_path / "page.html").read_text(encoding="utf-8"))["board"]["id"] == "duel-workshop"
    assert main(["replay", str(out), "0", "--html"]) == 0
    assert (out / "replays" / "match-0.html").is_file()


def test_write_replay_page_takes_a_board(tmp_path: Path, replay_folder: str) -> None:
    spec, result = played("blast", 1, replay_folder)
    path = write_replay_page(result, tmp_path / "b.html", board=load_board(spec.board), ais=spec.ais)
    seats = _data(path.read_text(encoding="utf-8"))["seats"]
    assert [s["ai"] for s in seats] == list(spec.ais)


def test_a_card_name_with_a_comment_and_script_opening_cannot_break_the_page(replay_folder: str) -> None:
    """Issue 36: only "</" was escaped, so a card name holding "<!--<script>" put the HTML parser in
    its "script data double escaped" state, where the page's closing </script> no longer closes it."""
    spec, result = played("arena", 0, replay_folder)
    evil = "<!--<script>Anna & Tommy\u2028\u2029-->"
    replay = build_replay(result, load_board(spec.board), title=evil)
    uid = next(iter(replay.figures))
    replay.figures[uid]["name"] = evil
    replay.seats[0]["team"] = [evil, *replay.seats[0]["team"][1:]]
    page = render_page(replay)
    start = page.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">'
    )
    body = page[start : page.index("</script>", start)]
    assert not set(body) & {"<", ">", "&", "\u2028", "\u2029"}
    data = _data(page)
    assert data == json.loads(json.dumps(replay.as_json()))
    assert data["figures"][str(uid)]["name"] == evil and data["meta"]["title"] == evil
