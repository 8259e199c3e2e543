"""The compiled build is whole and gives the same matches as the pure-Python build.

``make test`` sets ``KROSBALANCE_EXPECT_BUILD`` to the build it installed (``compiled`` unless
``KROSBALANCE_PURE=1``), so a compile that silently did not happen fails here.
"""

import copy
import os
import pickle
import tomllib
from pathlib import Path

import numpy as np
import pytest

import krosbalance
from krosbalance.ai.registry import ai_tier, get_ai, list_ais
from krosbalance.build_info import (
    build_mode,
    build_seconds,
    c_compiler_is_gcc,
    compiled_modules,
    hot_modules,
    read_manifest,
)
from krosbalance.content.registry import default_registry
from krosbalance.play import play_match
from krosbalance.rulesets.registry import get_ruleset, list_rulesets
from krosbalance.tools.builds import (
    MATCHES_PER_AI,
    SEARCH_MATCHES_PER_AI,
    box_splits,
    compare_builds,
    event_digests,
    identity_matches,
)

TEAMS = box_splits()[0]


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


#: the search tier's matches per AI in the default suite: one, against itself (both sides search), since
#: a pure search match costs seconds (two each were 65 s of the pure copy's 90 s) and the core's
#: differential replays the search tier against the installed build too; ``make bench --identity``
#: plays ``SEARCH_MATCHES_PER_AI``, the slow test below all
SEARCH_SLICE = 1
#: the other AIs' matches in the default suite: a slice of ``MATCHES_PER_AI`` (the slow test below
#: plays them all): at 80 per AI this was the suite's longest test by far (690 s of a 31-min loaded run); the core's
#: 2,000-match differential replays every Arena AI against the compiled reference besides.
HEURISTIC_SLICE = 20


def test_compiled_and_pure_builds_give_identical_event_logs():
    """Every AI on a slice of its matches (the full count is the slow test below)."""
    if build_mode() != "compiled":
        pytest.skip("the installed build is pure: nothing to compare")
    report = compare_builds(matches_per_ai=HEURISTIC_SLICE, search_matches_per_ai=SEARCH_SLICE)
    assert HEURISTIC_SLICE < MATCHES_PER_AI
    assert report.matches == identity_matches(HEURISTIC_SLICE, SEARCH_SLICE)
    assert any(ai_tier(name) == "search" for name in list_ais()) and SEARCH_MATCHES_PER_AI >= SEARCH_SLICE
    assert report.mismatches == [], report.line()


def test_the_identity_check_plays_blast_matches_of_the_blast_ais():
    digests = event_digests(matches_per_ai=2, search_matches_per_ai=0)
    blast_only = set(list_ais("blast")) - set(list_ais("arena"))
    assert blast_only, "no Blast-only AI registered?"
    played = {key.removeprefix("blast:").split("/")[0] for key in digests if key.startswith("blast:")}
    assert played == blast_only
    assert len(digests) == identity_matches(2, 0)


@pytest.mark.slow
def test_compiled_and_pure_builds_give_identical_event_logs_search_tier_in_full():
    if build_mode() != "compiled":
        pytest.skip("the installed build is pure: nothing to compare")
    report = compare_builds(search_matches_per_ai=MATCHES_PER_AI)
    assert report.matches == MATCHES_PER_AI * len(list_ais())
    assert report.mismatches == [], report.line()


def test_results_specs_rulesets_and_ais_survive_pickle_and_copy():
    """Both builds pickle and copy what users and workers pass around (compiled frozen dataclasses
    need ``Frozen.__reduce__`` for this)."""
    result = play_match(TEAMS[0], TEAMS[1], ai=("focus_fire", "random"), seed=7, record="full")
    assert result.events and pickle.loads(pickle.dumps(result)) == result
    assert copy.deepcopy(result) == result
    specs = default_registry().all_characters()
    assert pickle.loads(pickle.dumps(specs)) == specs and copy.deepcopy(specs) == specs
    for name in list_rulesets():
        ruleset = get_ruleset(name, {})
        options = ruleset.options
        assert pickle.loads(pickle.dumps(options)) == options and copy.deepcopy(options) == options
        clone = pickle.loads(pickle.dumps(ruleset))
        assert type(clone) is type(ruleset) and clone.options == options
        assert clone.describe() == ruleset.describe()
    for name in list_ais():
        ai = get_ai(name)(np.random.default_rng(0))
        clone = pickle.loads(pickle.dumps(ai))
        assert type(clone) is type(ai) and getattr(clone, "weights", None) == getattr(ai, "weights", None)


def test_every_data_file_of_the_package_is_package_data():
    """A non-editable install ships only the files ``[tool.setuptools.package-data]`` names: every
    TOML file under ``krosbalance/`` (content, AI data, each ruleset's options) must match a pattern
    of its package (``"*"`` is every package), or that install could not load it."""
    package = Path(krosbalance.__file__).resolve().parent
    patterns = tomllib.loads((package.parent / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    packages = {
        ".".join(init.parent.relative_to(package.parent).parts): init.parent
        for init in package.rglob("__init__.py")
    }
    shipped = {
        path
        for name, folder in packages.items()
        for key in ("*", name)
        for pattern in patterns.get(key, [])
        for path in folder.glob(pattern)
    }
    data = set(package.rglob("*.toml"))
    assert data, "the package holds no TOML data at all?"
    assert sorted(map(str, data - shipped)) == []


def test_a_compiled_build_is_profile_guided_only_when_asked():
    """setup.py compiles the C code once by default (a first `make run` should not compile twice);
    KROSBALANCE_PGO=1 (`make build-pgo`) trains GCC on the profile workload and compiles again: the
    manifest carries the training's time exactly when it was asked for."""
    if os.environ.get("KROSBALANCE_EXPECT_BUILD") != "compiled" or build_mode() != "compiled":
        pytest.skip("not the compiled build of make test")
    asked = os.environ.get("KROSBALANCE_PGO", "0").strip() not in ("", "0")
    if asked and not c_compiler_is_gcc():
        pytest.skip("the C compiler is not GCC: no profile-guided build")
    if asked:
        assert "pgo_training" in build_seconds(), "the profile-guided build fell back to a plain build"
    else:
        assert "pgo_training" not in build_seconds(), "the default build compiled twice"
