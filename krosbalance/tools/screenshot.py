"""Screenshots of local HTML pages in a headless Chromium: replay pages, reports, any file.

    python -m krosbalance.tools.screenshot PAGE.html OUT.png [--step K] [--width 1400] [--height 1000]

``--step K`` opens a replay page at its step K (``#step=K``; 0-based). Chromium and its driver
are Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``, ``/usr/bin/chromedriver``;
``make browser`` installs them), driven by ``selenium``. The browser starts headless, with no
sandbox (CI runs as root), no GPU, no QUIC, no background networking, component updates or sync and
a fresh profile folder: on a machine without a network it would otherwise wait on connections.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from krosbalance.errors import KrosbalanceError

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def browser_missing() -> str:
    """Why no headless browser can start here ("" when one can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"{path} is missing (make browser installs Debian's chromium and chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (it is in the dev extra: pip install -e '.[dev]')"
    return ""


@contextlib.contextmanager
def headless_browser(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A selenium Chrome driver on Debian's headless Chromium, with browser console logs kept."""
    problem = browser_missing()
    if problem:
        raise KrosbalanceError(f"no headless browser: {problem}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="krosbalance-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.set_page_load_timeout(60)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def page_url(page: Path | str, step: int | None = None) -> str:
    path = Path(page).resolve()
    if not path.is_file():
        raise KrosbalanceError(f"{page}: no such file")
    return path.as_uri() + (f"#step={step}" if step is not None else "")


def screenshot(
    page: Path | str, out: Path | str, step: int | None = None, width: int = 1400, height: int = 1000
) -> Path:
    """Save a PNG of ``page`` (a local HTML file) as a browser ``width`` x ``height`` shows it."""
    url = page_url(page, step)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with headless_browser(width, height) as driver:
        driver.get(url)
        driver.save_screenshot(str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.screenshot", description=__doc__)
    parser.add_argument("page", type=Path, help="a local HTML file")
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--step", type=int, default=None, help="a replay page's step (0-based)")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args(argv)
    try:
        print(screenshot(args.page, args.out, args.step, args.width, args.height))
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
