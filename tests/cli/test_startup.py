"""The CLI starts without the report's statistics and plots: every command, ``list`` included, would
otherwise pay about two seconds of scipy, statsmodels and matplotlib imports before it does anything."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("scipy", "statsmodels", "matplotlib", "krosbalance.analysis.report")


def test_building_the_parser_and_listing_import_no_statistics_or_plots() -> None:
    probe = (
        "import sys\n"
        "from krosbalance.cli import main\n"
        "main(['list', 'boards'])\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout
