"""Suite-wide options.

``--extra-characters DIR`` (repeatable) adds folders of character files to the default registry
for the whole run, so the suite can be run with content beyond what ships — as
``tests/test_extra_content.py`` does with ``tests/fixtures/extra_krosmasters`` — and prove that no
test assumes the character list is exactly today's.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--extra-characters",
        action="append",
        default=[],
        metavar="DIR",
        help="add a folder of character TOML files to the default registry for this run",
    )


def pytest_configure(config: pytest.Config) -> None:
    extra = [Path(folder) for folder in config.getoption("--extra-characters")]
    if extra:
        from krosbalance.content import registry

        registry._DEFAULT = registry.Registry(registry.DEFAULT_CHARACTER_FOLDER, *extra)
