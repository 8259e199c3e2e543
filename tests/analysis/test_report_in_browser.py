"""The whole report in a real headless browser: it opens on the verdict picture, every picture loads
and the page logs no error (issue 21: "check the whole report in a real browser")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from krosbalance.analysis.report import write_report
from krosbalance.tools.screenshot import browser_missing, headless_browser, page_url
from tests.analysis.fixtures import planted_tables, write_results

MISSING = browser_missing()
if MISSING and os.environ.get("KROSBALANCE_REQUIRE_BROWSER"):
    raise RuntimeError(f"the browser tests need a headless browser: {MISSING}")
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING)


def test_the_report_opens_on_its_verdict_and_every_picture_loads(tmp_path: Path) -> None:
    matches, fighters = planted_tables(n_pairings=200, max_teams=12)
    page = write_report(write_results(tmp_path / "res", matches, fighters), tmp_path / "rep")
    with headless_browser(1300, 900) as driver:
        driver.get(page_url(page))
        headings = [h.text for h in driver.find_elements("css selector", "h2")]
        assert headings[:2] == ["Verdict", "Summary"], headings[:4]
        images = driver.find_elements("css selector", "img")
        assert images, "the report shows no picture"
        assert "verdict" in (images[0].get_attribute("alt") or "")
        broken = driver.execute_script(
            "return Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt)"
        )
        assert broken == []
        top = driver.execute_script("return document.images[0].getBoundingClientRect().top")
        assert top < 900, "the verdict picture is not on the first screen"
        severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
