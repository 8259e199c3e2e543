"""R-B1, R-B5-R-B8, R-B20, R-B40: teams, toss, Dofus token, deck and challenges of a Blast match."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.content.registry import default_registry
from krosbalance.errors import ContentError, TeamError
from krosbalance.play import prepare_match
from krosbalance.rulesets.blast.state import blast_state
from krosbalance.rulesets.registry import get_ruleset
from tests.rulesets.blast.conftest import blast_krosmasters

KROS = blast_krosmasters()
TEAMS = (KROS[:2], KROS[2:4])


def test_r_b5_a_team_is_two_different_blast_krosmasters() -> None:
    rules = get_ruleset("blast")
    assert len(rules.validate_team(KROS[:2])) == 2
    with pytest.raises(TeamError, match="2"):
        rules.validate_team(KROS[:3])
    with pytest.raises(TeamError, match="twice"):
        rules.validate_team([KROS[0], KROS[0]])
    arena = default_registry().list_characters("krosmaster", game="arena")[0]
    with pytest.raises(TeamError, match="Blast card"):
        rules.validate_team([KROS[0], arena])
    assert len(get_ruleset("blast", {"team_size": 3}).validate_team(KROS[:3])) == 3


def test_r_b7_r_b8_toss_and_dofus_with_the_second_player() -> None:
    firsts = []
    for seed in range(40):
        state, _, _ = prepare_match(*TEAMS, board="blast-a", ruleset="blast", ai="random", seed=seed)
        firsts.append(state.first_player)
        assert blast_state(state).dofus == 1 - state.first_player
        for side in (0, 1):  # each side on its own deployment cells
            assert all((state.board.deploy[side] >> f.cell) & 1 for f in state.timeline[side])
    assert 0 < sum(firsts) < 40


@pytest.mark.parametrize(("superior", "pool"), [(False, "basic"), (True, None)])
def test_r_b20_the_deck_is_ten_favors_of_the_right_grades(superior: bool, pool: str | None) -> None:
    grades = set()
    for seed in range(20):
        state, _, _ = prepare_match(
            *TEAMS, board="blast-a", ruleset="blast", seed=seed, options={"superior_favors": superior}
        )
        deck = blast_state(state).deck
        assert len(deck) == 10 and len({f.id for f in deck}) == 10
        grades |= {f.grade for f in deck}
    assert grades == ({"basic"} if pool else {"basic", "superior"})


def test_r_b40_challenges_named_or_drawn_at_random() -> None:
    state, _, _ = prepare_match(
        *TEAMS, board="blast-a", ruleset="blast", options={"challenges": ["Grande Mêlée de Iop"]}
    )
    assert [c.id for c in blast_state(state).challenges] == ["grande_melee_de_iop"]
    drawn = set()
    for seed in range(30):
        state, _, _ = prepare_match(
            *TEAMS, board="blast-a", ruleset="blast", seed=seed, options={"challenges": ["random", "random"]}
        )
        ids = [c.id for c in blast_state(state).challenges]
        assert len(set(ids)) == 2
        drawn |= set(ids)
    assert len(drawn) >= 5


def test_bad_blast_options_are_named() -> None:
    for options, field in (
        ({"challenges": ["no such god"]}, "challenges"),
        ({"favor_deck_size": 15}, "favor_deck_size"),
        ({"favor_deck_size": 11, "superior_favors": False}, "favor_deck_size"),
        ({"dice_faces": "loaded"}, "dice_faces"),
        ({"challenges": ["random"] * 8}, "challenges"),
    ):
        with pytest.raises(ContentError) as info:
            get_ruleset("blast", options)
        assert info.value.field == field


def test_a_blast_board_is_needed() -> None:
    with pytest.raises(ContentError, match="glyph"):
        prepare_match(*TEAMS, board="arena-pit", ruleset="blast")


def test_r_b7_the_toss_is_a_fair_coin_of_the_setup_stream_whatever_the_teams() -> None:
    rules = get_ruleset("blast")
    tosses = [rules.first_player(((), ()), np.random.default_rng(seed)) for seed in range(400)]
    assert tosses == [int(np.random.default_rng(seed).integers(2)) for seed in range(400)]
    assert 160 < sum(tosses) < 240  # 400 fair tosses: 200 +/- 2 standard deviations
