"""The ladder file that reports read: parsed, and absent means 'not validated'."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.ai.ladder import load_ladder, load_ladders
from krosbalance.ai.registry import TIERS, ai_problem, ai_tier, list_ais
from krosbalance.errors import ContentError


def four_player_searches() -> set[str]:
    """The search AIs that play four-player Arena (``lookahead-4p``): rated on four-player Arena's
    ladder (``simulations/ai-ladder-arena-4p.toml``), not on the two-player ladders."""
    return {a for a in list_ais("arena") if ai_tier(a) == "search" and not ai_problem(a, "arena", 4)}


def two_player_arena_ais() -> list[str]:
    """The Arena AIs the two-player ladders rate (all but the four-player searches)."""
    return [a for a in list_ais("arena") if a not in four_player_searches()]


def test_every_registered_ai_has_a_known_tier() -> None:
    assert {ai_tier(name) for name in list_ais()} <= set(TIERS)
    assert ai_tier("random") == "baseline"


def test_missing_ladder_file_means_nothing_validated(tmp_path: Path) -> None:
    assert load_ladder(tmp_path / "absent.toml") == {}


def test_ladder_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(
        '[ais.random]\ntier = "baseline"\nrating = -2.5\nci = [-2.7, -2.3]\nn = 800\nvalidated = true\n'
    )
    standing = load_ladder(path)["random"]
    assert (standing.tier, standing.n, standing.validated) == ("baseline", 800, True)
    assert standing.ci_low < standing.rating < standing.ci_high


def test_malformed_ladder_entry_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text('[ais.kiter]\ntier = "heuristic"\n')
    with pytest.raises(ContentError, match="ais.kiter"):
        load_ladder(path)


def test_the_first_format_is_read_as_arena_and_each_ruleset_has_its_own_standing(tmp_path: Path) -> None:
    entry = 'tier = "baseline"\nrating = {}\nci = [-9.0, 9.0]\nn = 10\nvalidated = true\n'
    old = tmp_path / "old.toml"
    old.write_text("[ais.random]\n" + entry.format(-2.5))
    assert load_ladder(old)["random"].rating == -2.5 and load_ladder(old, "duel") == {}
    assert load_ladders(old) == {"arena": load_ladder(old)}
    new = tmp_path / "new.toml"
    new.write_text(
        '[arena]\nexperiment = "a"\nmatches = 10\n[arena.ais.random]\n'
        + entry.format(-2.5)
        + '[duel]\nexperiment = "d"\nmatches = 10\n[duel.ais.random]\n'
        + entry.format(-6.0)
    )
    assert load_ladder(new)["random"].rating == -2.5
    duel = load_ladder(new, "duel")["random"]
    assert (duel.rating, duel.ruleset) == (-6.0, "duel")


def test_the_shipped_file_holds_a_ladder_per_ruleset_and_duel_lookahead_is_validated_in_the_duel() -> None:
    ladders = load_ladders()
    assert {"arena", "duel"} <= set(ladders)
    assert set(ladders["duel"]) <= set(list_ais("duel"))
    assert ladders["duel"]["duel-lookahead"].validated
    assert "duel-lookahead" not in ladders["arena"]


def test_the_shipped_file_holds_blast_ladder_and_blast_lookahead_is_validated_in_blast() -> None:
    ladders = load_ladders()
    assert set(ladders["blast"]) == set(list_ais("blast"))
    assert ladders["blast"]["blast-lookahead"].validated
    assert "blast-lookahead" not in ladders["arena"] and "blast-lookahead" not in ladders["duel"]


def test_the_blast_ladder_pairs_every_blast_ai_with_every_other_in_both_orders() -> None:
    from itertools import permutations

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2]
    experiment, problems = check_experiment(root / "simulations" / "ai-ladder-blast.toml")
    assert not problems and experiment is not None
    assert set(experiment.ais) == set(permutations(list_ais("blast"), 2))
    assert experiment.paired_seeds


def test_the_duel_ladder_pairs_every_duel_ai_with_every_other_in_both_orders() -> None:
    from itertools import permutations

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2]
    experiment, problems = check_experiment(root / "simulations" / "ai-ladder-duel.toml")
    assert not problems and experiment is not None
    assert set(experiment.ais) == set(permutations(list_ais("duel"), 2))
    assert experiment.paired_seeds


def test_ladder_experiment_pairs_every_registered_ai_with_every_other_on_each_team() -> None:
    """Every pair of registered Arena AIs in both orders (an AI follows its team, and team A of a split
    always holds the pool's first Krosmaster: one order alone would tie an AI to that team)."""
    from itertools import permutations
    from pathlib import Path

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2]
    experiment, problems = check_experiment(root / "simulations" / "ai-ladder.toml")
    assert not problems and experiment is not None
    assert len(experiment.ais) == len(set(experiment.ais))
    assert set(experiment.ais) == set(permutations(two_player_arena_ais(), 2))  # the ladder is Arena
    assert experiment.paired_seeds and len(experiment.boards) >= 3


def test_the_connected_ladder_links_every_registered_arena_ai_to_the_others_in_both_orders() -> None:
    """The budget ladder is not complete, but Bradley-Terry needs only a connected design: every
    registered Arena AI meets another, every pair in both orders, and every AI is reachable from any
    other through the pairs that met."""
    from pathlib import Path

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2]
    experiment, problems = check_experiment(root / "simulations" / "ai-ladder-connected.toml")
    assert not problems and experiment is not None
    pairs = set(experiment.ais)
    assert all((b, a) in pairs for a, b in pairs)
    ais = {a for pair in pairs for a in pair}
    assert ais == set(two_player_arena_ais())
    reached, frontier = set(), [next(iter(ais))]
    while frontier:
        ai = frontier.pop()
        if ai not in reached:
            reached.add(ai)
            frontier += [b for a, b in pairs if a == ai]
    assert reached == ais


def test_the_four_player_ladder_pairs_its_ais_round_the_table_and_holds_the_four_player_search() -> None:
    """Four-player Arena's ladder: every pair of its AIs once, one AI in seats 0 and 2 and the other
    in seats 1 and 3 (the ladder reads a match as those two sides), every four-player search AI in,
    both modes, the four rotations round the table."""
    from itertools import combinations

    from krosbalance.sim.experiment import check_experiment

    root = Path(__file__).resolve().parents[2]
    experiment, problems = check_experiment(root / "simulations" / "ai-ladder-arena-4p.toml")
    assert not problems and experiment is not None
    assert all(len(t) == 4 and t[0] == t[2] and t[1] == t[3] and t[0] != t[1] for t in experiment.ais)
    ais = {a for t in experiment.ais for a in t}
    assert four_player_searches() <= ais and "random" in ais
    assert {frozenset(t[:2]) for t in experiment.ais} == {frozenset(p) for p in combinations(sorted(ais), 2)}
    assert len(experiment.ais) == len(list(combinations(ais, 2)))
    assert experiment.seats == 4 and len(experiment.seatings) == 4 and experiment.paired_seeds
