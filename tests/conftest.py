"""Suite-wide options and checks.

``--extra-characters DIR`` (repeatable) adds folders of character files to the default registry
for the whole run, so the suite can be run with content beyond what ships — as
``tests/test_extra_content.py`` does with ``tests/fixtures/extra_krosmasters`` — and prove that no
test assumes the character list is exactly today's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from krosbalance.tools.mypyc_copy import build_mode

# Hypothesis's 200 ms deadline per example measures the machine, not the code: on two cores shared
# with other work a geometry example took 282 ms once and failed as "flaky". Speed has its benchmark.
settings.register_profile("krosbalance", deadline=None)
settings.load_profile("krosbalance")


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

        registry._DEFAULT = registry.Registry(*registry.DEFAULT_CHARACTER_FOLDERS, *extra)


def pytest_sessionstart(session: pytest.Session) -> None:
    # The package runs as plain Python; extension modules that the retired mypyc build left in an
    # editable source tree would be imported instead of the sources under test (`make build` removes them).
    if build_mode() != "reference":
        pytest.exit(
            "compiled modules of the retired mypyc build shadow the sources: run `make build`", returncode=4
        )


#: the committed list of kit-based Arena tests that run on both engines (krosbalance.testing.scenario_coverage)
SCENARIO_COVERAGE = Path(__file__).parent / "core" / "scenario_coverage.json"


@pytest.fixture(autouse=True)
def _scenario_lockstep(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every Arena ``Scenario`` a test makes plays its steps on the core too (issue 37); a test that
    ran on both engines and no longer does fails (``scenario_coverage.after_test``)."""
    from krosbalance.testing.scenario_core import observed
    from krosbalance.testing.scenario_coverage import after_test

    forbid = "the test monkeypatches the reference engine" if "monkeypatch" in request.fixturenames else ""
    with observed(forbid) as seen:
        yield
    failure = after_test(request.node.nodeid, seen, SCENARIO_COVERAGE)
    if failure:
        pytest.fail(failure, pytrace=False)


USER_AI = "user_focus_fire"


@pytest.fixture
def user_ai():
    """An AI a user registers in Python (a focus_fire subclass): the core plays only the AIs it was
    built with, so it refuses this one, and ``auto`` hands its matches to the reference."""
    from krosbalance.ai import registry
    from krosbalance.ai.focus_fire import FocusFireAI

    class UserFocusFire(FocusFireAI):
        name = USER_AI

    registry.register_ai(USER_AI, UserFocusFire)
    yield USER_AI
    for table in (registry._AIS, registry._TIER_OF, registry._RULESETS_OF):
        table.pop(USER_AI, None)
    registry._TWO_PLAYERS_ONLY.discard(USER_AI)
