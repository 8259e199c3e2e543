"""The study option ``start_token_levels`` (not a rule; ``rulesets/duel/data/duel.toml``): seat 0
holds one Duel Token of each listed level face down from the start, the top of that level's
shuffled pile, on top of its draft; empty (the default) leaves every duel as the rules play it.
Characters are picked by set (``duel_pack()``) and by level, never by a hand-kept list."""

from __future__ import annotations

from typing import cast

import pytest

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.content.duel import TOKEN_LEVELS
from krosbalance.content.registry import list_boards
from krosbalance.engine.dice import ScriptedDice
from krosbalance.errors import ContentError
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.duel.events import TokenHeldFromStart
from krosbalance.rulesets.duel.pregame import START_TOKEN_SEAT, give_start_tokens
from krosbalance.rulesets.duel.ruleset import DuelRuleset
from krosbalance.rulesets.duel.state import duel_state
from krosbalance.rulesets.duel.turn import reveal_at_turn_start, reveal_choices
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.conformance import first_difference, run_checked_match
from krosbalance.testing.duel import duel_pack, duel_registry
from tests.rulesets.duel.conftest import DuelPlayer, krosmaster_of_level, set_up

DUEL_AIS = list_ais("duel")
DUEL_BOARDS = list_boards("duel")


def pair() -> tuple[list[str], list[str]]:
    return [duel_pack()[0]], [duel_pack()[-1]]


def deployed(options: dict, seed: int = 4, ai: str = "duel_brawler", record: str = "full"):  # noqa: ANN201
    team0, team1 = pair()
    return prepare_match(
        team0,
        team1,
        board=DUEL_BOARDS[0],
        ruleset="duel",
        ai=ai,
        seed=seed,
        options=options,
        record=record,
        registry=duel_registry(),
    )


def test_start_token_levels_seat0_holds_a_token_of_each_level() -> None:
    levels = [1, 3, 4, 4]
    state, _, _ = deployed({"start_token_levels": levels})
    ds = duel_state(state)
    holder = state.timeline[START_TOKEN_SEAT][0]
    held = ds.start_tokens[START_TOKEN_SEAT]
    assert [t.level for t in held] == levels
    assert ds.start_tokens[1 - START_TOKEN_SEAT] == []
    # face down on the only Krosmaster's card, on top of what it drafted (not counted as drafted)
    assert {t.id for t in held} <= {t.id for t in ds.hidden[holder.uid]}
    assert not {t.id for t in held} & {t.id for t in ds.shown[holder.uid]}
    assert len(ds.hidden[holder.uid]) == ds.drafted[START_TOKEN_SEAT] + len(levels)
    events = [e for e in state.events if isinstance(e, TokenHeldFromStart)]
    assert [(e.side, e.uid, e.token, e.level) for e in events] == [
        (START_TOKEN_SEAT, holder.uid, t.id, t.level) for t in held
    ]
    assert state.ruleset.state_problems(state) == []  # every token in one place, on a card of seat 0


def test_start_tokens_are_the_tops_of_the_piles_the_seed_shuffled() -> None:
    """Drawn from the set per the seeded rng: the top of each level's pile of the same set-up without
    the option, and no extra draw (first player, piles and placement seed stay the seed's)."""
    team = [duel_pack()[0]], [krosmaster_of_level(3)]
    plain, _, _ = set_up(*team, seed=9)
    held, rules, views = set_up(*team, options={"start_token_levels": [2, 2, 4]}, seed=9)
    pds, hds = duel_state(plain), duel_state(held)
    assert (plain.first_player, pds.placement_seed) == (held.first_player, hds.placement_seed)
    assert hds.piles == pds.piles  # set-up alone takes nothing: the tokens are given at deployment
    player = DuelPlayer()
    give_start_tokens(held, hds, rules.opts, [player, player], views)
    assert [t.id for t in hds.start_tokens[0]] == [
        pds.piles[1][-1].id,
        pds.piles[1][-2].id,
        pds.piles[3][-1].id,
    ]


def test_start_tokens_do_not_count_against_the_draft_budget() -> None:
    """R-D16's budget is the duel level less the team's levels and tokens; the tokens of the study
    option are on top of the rules' game, so seat 0 is offered what it would be offered without."""
    budgets = []
    for levels in ([], [4, 3]):
        state, rules, views = set_up(
            [krosmaster_of_level(3)], [duel_pack()[0]], options={"start_token_levels": levels}, seed=2
        )
        players = [DuelPlayer(), DuelPlayer()]
        rules.deploy(state, players, views)
        ds = duel_state(state)
        budgets.append([budget for _, budget in players[0].draft_seen])
        assert ds.team_levels(state, 0) == state.timeline[0][0].level + sum(
            t.level
            for t in ds.hidden[state.timeline[0][0].uid]
            if t.id not in {s.id for s in ds.start_tokens[0]}
        )
    assert budgets[0] == budgets[1] and budgets[0][0] == duel_state(state).duel_level - 3


def test_r_d21_a_token_held_from_the_start_is_revealed_like_any_token() -> None:
    state, _, views = deployed({"start_token_levels": [4]}, record="full")
    ds = duel_state(state)
    holder = state.timeline[0][0]
    token = ds.start_tokens[0][0]
    choices = reveal_choices(state, ds, 0)
    index = next(i for i, c in enumerate(choices) if c.token.id == token.id)
    hp, mp = holder.hp, holder.base_mp
    opts = cast(DuelRuleset, state.ruleset).opts
    reveal_at_turn_start(state, ds, opts, 0, DuelPlayer(reveals=[index]), views[0])
    assert token in ds.shown[holder.uid] and token not in ds.hidden[holder.uid]
    assert (holder.hp, holder.base_mp) == (hp + token.hp, mp + token.mp)
    assert ds.start_revealed(state, 0) == 1


def test_the_default_leaves_every_duel_unchanged() -> None:
    """Same seed, same log: no option, and the option left empty, give the same match, with no token
    held from the start; the ruleset's label and columns say so."""
    team0, team1 = pair()
    low = krosmaster_of_level(3)
    for ai in DUEL_AIS:
        search = ai_tier(ai) == "search"
        for b, board in enumerate(DUEL_BOARDS):
            for figures, teams in ((1, (team0, team1)), (2, ([*team0, low], [*team1, low]))):
                options = {"figures": figures}
                if search:  # its reference plays a game turn in seconds: 3 turns, one board a figure count
                    if (b + figures) % len(DUEL_BOARDS):
                        continue
                    options["turn_limit"] = 3
                runs = [
                    play_match(*teams, board=board, ai=ai, seed=7, ruleset="duel", options=o, record="full")
                    for o in (options, {**options, "start_token_levels": []})
                ]
                assert runs[0].events == runs[1].events, first_difference(runs[0].events, runs[1].events)
                assert runs[0].ruleset == runs[1].ruleset == get_ruleset("duel", options).describe()
                assert not any(isinstance(e, TokenHeldFromStart) for e in runs[0].events)
                assert runs[0].values["held_from_start"] == (0, 0)
                assert runs[0].values["start_token_levels"] == ""


def test_the_default_deployment_is_the_rules_draft_deployment_and_placement() -> None:
    """Without the option the deployment hook is exactly R-D16-R-D19 in order: the same events and
    holdings as the three rule steps called by hand on the same set-up."""
    from krosbalance.rulesets.duel import pregame

    team0, team1 = [duel_pack()[0]], [krosmaster_of_level(3)]
    for options in ({}, {"draft": "tactical"}):
        ruled, rules, views = set_up(team0, team1, options=options, seed=5)
        players = [DuelPlayer(picks=[1, 0, 1]), DuelPlayer(picks=[0, 1, 0])]
        rules.deploy(ruled, players, views)
        by_hand, rules, views = set_up(team0, team1, options=options, seed=5)
        players = [DuelPlayer(picks=[1, 0, 1]), DuelPlayer(picks=[0, 1, 0])]
        ds = duel_state(by_hand)
        pregame.draft(by_hand, ds, rules.opts, players, views)
        pregame.deploy(by_hand, players, views)
        pregame.place_tokens(by_hand, ds, rules.opts, players, views)
        assert ruled.events == by_hand.events
        assert rules.snapshot(ruled) == rules.snapshot(by_hand)


def test_a_held_token_is_recorded_in_the_results() -> None:
    team0, team1 = pair()
    results = [
        play_match(team0, team1, board=DUEL_BOARDS[0], ai="duel_brawler", seed=1, ruleset="duel", options=o)
        for o in ({}, {"start_token_levels": [4, 1]})
    ]
    assert results[1].ruleset == "duel[start_token_levels=[4, 1]]"
    assert results[1].values["held_from_start"] == (2, 0)
    assert results[1].values["start_token_levels"] == "4,1"
    for result in results:
        v = result.values
        for seat in (0, 1):  # every token on a card was drafted, picked up or held from the start
            assert (
                v["tokens_held"][seat] == v["drafted"][seat] + v["picked"][seat] + v["held_from_start"][seat]
            )
            assert v["start_revealed"][seat] <= min(v["held_from_start"][seat], v["revealed"][seat])
        kros = [f for f in result.fighters if not f.is_summon]
        for seat in (0, 1):
            mine = [f for f in kros if f.side == seat]
            assert (
                sum(f.values["tokens_face_down"] + f.values["tokens_revealed"] for f in mine)
                == v["tokens_held"][seat]
            )
            assert sum(f.values["held_from_start"] for f in mine) == v["held_from_start"][seat]


@pytest.mark.parametrize("ai", DUEL_AIS)
def test_conformance_with_tokens_held_from_the_start(ai: str) -> None:
    """Invariants before every decision (a held token stays on seat 0's cards), no decision changes
    the match, the same seed gives the same log; one and two figures, plain and tactical."""
    team0, team1 = pair()
    low = krosmaster_of_level(3)
    for seed, (figures, draft) in enumerate(((1, "plain"), (1, "tactical"), (2, "plain"))):
        teams = (team0, team1) if figures == 1 else ([*team0, low], [*team1, low])
        options = {"figures": figures, "draft": draft, "start_token_levels": [1, 4]}
        boards = DUEL_BOARDS
        if ai_tier(ai) == "search":  # its reference plays a game turn in seconds: 3 turns, one board each
            options["turn_limit"] = 3
            boards = (DUEL_BOARDS[seed % len(DUEL_BOARDS)],)
        for board in boards:
            result = run_checked_match(
                *teams,
                board,
                seed,
                ai=ai,
                ruleset="duel",
                options=options,
                record="full",
                check_untouched=True,
            )
            again = play_match(
                *teams, board=board, seed=seed, ai=ai, ruleset="duel", options=options, record="full"
            )
            assert again.events == result.events, first_difference(again.events, result.events)
            assert result.values["held_from_start"] == (2, 0)


def test_a_copy_for_seat_1_does_not_learn_the_held_token() -> None:
    state, _, views = deployed({"start_token_levels": [1, 2, 3, 4]}, record="none")
    ds = duel_state(state)
    holder = state.timeline[0][0].uid
    copy = duel_state(views[1].clone_state(ScriptedDice([])))
    assert [t.level for t in copy.start_tokens[0]] == [t.level for t in ds.start_tokens[0]]
    assert {t.id for t in copy.start_tokens[0]} <= {t.id for t in copy.hidden[holder]}  # the same guesses
    seat1_own = {t.id for t in ds.hidden[state.timeline[1][0].uid]}
    assert not {t.id for t in copy.start_tokens[0]} & seat1_own  # guessed among what seat 1 has not seen
    mine = duel_state(views[0].clone_state(ScriptedDice([])))
    assert mine.start_tokens == ds.start_tokens


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"start_token_levels": [0]}, "start_token_levels[0]"),
        ({"start_token_levels": [1, 5]}, "start_token_levels[1]"),
        ({"start_token_levels": ["2"]}, "start_token_levels[0]"),
        ({"start_token_levels": [True]}, "start_token_levels[0]"),
        ({"start_token_levels": 2}, "start_token_levels"),
    ],
)
def test_a_bad_level_names_the_option(options: dict, field: str) -> None:
    with pytest.raises(ContentError) as info:
        get_ruleset("duel", options)
    assert info.value.field == field


def test_more_tokens_of_a_level_than_the_set_gives_are_refused() -> None:
    tokens = get_ruleset("duel").tokens
    level = TOKEN_LEVELS[0]
    count = len(tokens.of_level(level))
    get_ruleset("duel", {"start_token_levels": [level] * count})  # every one of that level: fine
    for options in (
        {"start_token_levels": [level] * (count + 1)},
        {"start_token_levels": [level] * count, "draft": "tactical"},  # one lies face up (R-D17)
    ):
        with pytest.raises(ContentError) as info:
            get_ruleset("duel", options)
        assert info.value.field == "start_token_levels" and f"level {level}" in info.value.reason
