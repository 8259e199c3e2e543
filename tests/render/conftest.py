from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def replay_folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("replays"))
