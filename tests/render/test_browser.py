"""The replay page in a real headless browser (Debian's chromium through selenium).

``make test`` installs the browser first and sets KROSBALANCE_REQUIRE_BROWSER, so there a missing
browser fails; a bare ``pytest`` on a machine without it skips these tests.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from krosbalance.render.replay_page import write_replay_page
from krosbalance.tools.screenshot import browser_missing, headless_browser, page_url, screenshot
from tests.render.replays import played

MISSING = browser_missing()
if MISSING and os.environ.get("KROSBALANCE_REQUIRE_BROWSER"):
    raise RuntimeError(f"the browser tests need a headless browser: {MISSING}")
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING)


def _figure_hp(driver) -> dict[str, str]:
    rows = driver.find_elements("css selector", "#figures tr")
    return {row.get_attribute("data-uid"): row.find_element("css selector", "td.hp").text for row in rows}


def _severe(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_replay_page_steps_and_ends_on_the_winner(tmp_path: Path, replay_folder: str) -> None:
    _spec, result = played("arena", 0, replay_folder)
    page = write_replay_page(result, tmp_path / "replay.html")
    with headless_browser(1300, 1000) as driver:
        driver.get(page_url(page))
        assert driver.execute_script("return document.body.getAttribute('data-step')") == "0"
        assert _severe(driver) == []
        count = driver.execute_script("return window.krosbalanceReplay.count")
        start = _figure_hp(driver)
        assert start and all(hp.endswith("HP") for hp in start.values())
        for _ in range(count):  # the next-step button, until some figure's HP has changed
            driver.find_element("id", "next").click()
            if _figure_hp(driver) != start:
                break
        assert _figure_hp(driver) != start, "stepping through the match never changed an HP"
        assert driver.find_element("id", "winner").text == ""
        driver.find_element("id", "last").click()
        winner = driver.find_element("id", "winner").text
        assert winner.startswith(("player", "Draw")) and f"after {result.turns} turns" in winner
        driver.find_element("id", "prev").click()
        assert driver.find_element("id", "winner").text == ""
        assert _severe(driver) == []


@pytest.mark.parametrize("kind", ["blast", "duel", "arena-2v2"])
def test_every_ruleset_renders_without_a_console_error(kind: str, tmp_path: Path, replay_folder: str) -> None:
    _spec, result = played(kind, 0, replay_folder)
    page = write_replay_page(result, tmp_path / f"{kind}.html")
    with headless_browser() as driver:
        driver.get(page_url(page, step=5))
        assert driver.execute_script("return window.krosbalanceReplay.current()") == 5
        assert len(driver.find_elements("css selector", "#board .piece")) > 0
        driver.find_element("id", "last").click()
        assert driver.find_element("id", "winner").text
        assert _severe(driver) == []


def test_screenshot_of_any_local_page(tmp_path: Path) -> None:
    page = tmp_path / "plain.html"
    page.write_text("<!DOCTYPE html><html><body><h1>hello</h1></body></html>", encoding="utf-8")
    out = screenshot(page, tmp_path / "shots" / "plain.png", width=640, height=400)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 640
