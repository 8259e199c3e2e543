"""The engine, board, content, rulesets and AI layers type-check under mypy --strict (pyproject.toml)."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    "krosbalance/engine",
    "krosbalance/board",
    "krosbalance/content",
    "krosbalance/rulesets",
    "krosbalance/ai",
]


def test_lower_layers_are_strictly_typed():
    out, err, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), *(str(ROOT / p) for p in LAYERS)]
    )
    assert status == 0, out + err
