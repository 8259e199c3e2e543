"""Refuse to test stale compiled code: an editable compiled install keeps running the modules it
compiled until it is rebuilt, so a source edited since then would not be what the tests exercise."""

import pytest

from krosbalance.build_info import stale_modules


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = stale_modules()
    if stale:
        pytest.exit(
            f"{len(stale)} compiled module(s) are older than their sources ({', '.join(stale[:5])}"
            f"{', ...' if len(stale) > 5 else ''}): rebuild with `make build`, or install the pure "
            "build for editing (`KROSBALANCE_PURE=1 make test`)",
            returncode=4,
        )
