"""What the package hands around survives pickling and copying, and what it reads ships with it."""

import copy
import pickle
import tomllib
from pathlib import Path

import numpy as np

import krosbalance
from krosbalance.ai.registry import get_ai, list_ais
from krosbalance.content.registry import default_registry
from krosbalance.play import play_match
from krosbalance.rulesets.registry import get_ruleset, list_rulesets
from krosbalance.tools.builds import box_splits

TEAMS = box_splits()[0]


def test_results_specs_rulesets_and_ais_survive_pickle_and_copy():
    """Results, specs, rulesets and AIs pickle and copy: users and the runner's workers pass them
    around."""
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
