"""The profile-guided build's training workload (krosbalance.tools.profile_workload)."""

from __future__ import annotations

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.build_info import build_mode
from krosbalance.tools import profile_workload


def test_the_workload_plays_every_arena_ai_and_every_blast_ai() -> None:
    arena = list_ais("arena")
    cheap = [ai for ai in arena if ai_tier(ai) != "search"]
    searching = [ai for ai in arena if ai_tier(ai) == "search"]
    played = profile_workload.play_workload(arena=1, search=0, blast=1)
    assert played == len(cheap) + len(list_ais("blast"))
    assert profile_workload.play_workload(arena=0, search=1, blast=0) == len(searching)


def test_the_workload_refuses_to_train_on_anything_but_the_compiled_build(capsys) -> None:
    if build_mode() == "compiled":
        assert profile_workload.main(["--arena", "1", "--search", "0", "--blast", "0"]) == 0
        assert "matches in" in capsys.readouterr().out
    else:
        assert profile_workload.main([]) == 1
        assert "not the compiled one" in capsys.readouterr().err
