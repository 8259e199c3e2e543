"""The compiled build is whole and gives the same matches as the pure-Python build.

``make test`` sets ``KROSBALANCE_EXPECT_BUILD`` to the build it installed (``compiled`` unless
``KROSBALANCE_PURE=1``), so a compile that silently did not happen fails here.
"""

import os

import pytest

from krosbalance.ai.registry import list_ais
from krosbalance.build_info import build_mode, compiled_modules, hot_modules, read_manifest
from krosbalance.sim.builds import MATCHES_PER_AI, compare_builds


def test_the_installed_build_is_the_one_expected():
    expected = os.environ.get("KROSBALANCE_EXPECT_BUILD")
    if expected is None:
        pytest.skip("KROSBALANCE_EXPECT_BUILD is not set (make test sets it)")
    assert build_mode() == expected


def test_no_compiled_module_falls_back_to_python():
    manifest = read_manifest()
    compiled = compiled_modules()
    if manifest is None:  # a pure build: nothing may be compiled either
        assert not any(compiled.values()), "a pure build imports compiled modules: reinstall it"
        return
    assert sorted(manifest) == hot_modules(), "modules were added or removed since the build"
    fallbacks = [name for name, is_compiled in compiled.items() if not is_compiled]
    assert fallbacks == [], f"the compiled build imports these modules from Python: {fallbacks}"


def test_compiled_and_pure_builds_give_identical_event_logs():
    if build_mode() != "compiled":
        pytest.skip("the installed build is pure: nothing to compare")
    report = compare_builds()
    assert report.matches == MATCHES_PER_AI * len(list_ais())
    assert report.mismatches == [], report.line()
