"""Restricted play (krosbalance.engine.restriction): a forbidden spell is never legal, a forbidden
power does not act, a forbidden option is never legal; the card, the other pieces and copies keep
what they should. Characters are picked from the box by what their cards hold, not by name."""

from __future__ import annotations

import pytest

from krosbalance.content.registry import list_characters, load_character
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.legal import CAST, Action, is_legal, legal_actions
from krosbalance.engine.restriction import apply_restrictions, element_problem, elements_of, restrict
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.arena.kinds import BUY_GG, PICK_KAMA
from krosbalance.testing import Scenario

BOARD = """2 D . . .
           . . . . .
           . . . . ."""


def _box() -> list:
    return [load_character(name) for name in list_characters("krosmaster", set="arena-box")]


def _scene(spec, at=(4, 2)):
    """A scenario with ``spec`` on side 0 and an enemy far away (a match needs both sides)."""
    sc = Scenario(BOARD)
    piece = sc.add(spec.id, side=0, at=at)
    enemy = next(s for s in _box() if s.id != spec.id)
    sc.add(enemy.id, side=1, at=(0, 2))
    return sc, piece


def _with_power():
    """A box Krosmaster with a power that is not Resistance/Immune, and its power."""
    for spec in _box():
        for power in spec.powers:
            if power.kind not in ("resistance", "immune"):
                return spec, power.kind
    pytest.skip("no box Krosmaster with a plain power")


def _personal_spell_holder():
    """A box Krosmaster with a personal spell it can cast on its own cell (always a legal target)."""
    for spec in _box():
        for spell in spec.spells:
            if spell.range_type == "personal" and not spell.mp_cost and not spell.injury_cost:
                return spec, spell
    pytest.skip("no box Krosmaster with a personal spell")


def test_forbidden_spell_is_never_a_legal_action_and_the_card_is_untouched():
    spec, spell = _personal_spell_holder()
    sc, piece = _scene(spec)
    sc.activate(piece)
    index = sc.spell_index(piece, spell.id)
    assert is_legal(sc.state, piece, Action(CAST, index, piece.cell))
    restrict(piece, [f"spell:{spell.id}"], sc.state.ruleset)
    assert all(s.id != spell.id for s in piece.spells)
    casts = [a for a in legal_actions(sc.state, piece) if a.kind == CAST]
    assert all(piece.spells[a.spell].id != spell.id for a in casts)
    assert any(s.id == spell.id for s in load_character(spec.id).spells)  # the card keeps it


def test_forbidden_power_does_not_act_and_a_reward_refresh_does_not_bring_it_back():
    from krosbalance.rulesets.arena.reward_effects import refresh

    spec, power = _with_power()
    sc = Scenario(BOARD)
    piece = sc.add(spec.id, side=0, at=(4, 2))
    other = sc.add(spec.id, side=1, at=(2, 2))
    assert piece.has(power)
    restrict(piece, [f"power:{power}"], sc.state.ruleset)
    assert not piece.has(power) and other.has(power)  # only the restricted piece
    refresh(sc.state, piece)  # what revealing a Demonic Reward recomputes
    assert not piece.has(power)
    assert power in {p.kind for p in load_character(spec.id).powers}


def test_forbidden_option_is_never_legal_and_copies_keep_the_restriction():
    spec = _box()[0]
    sc, piece = _scene(spec, at=(0, 0))  # a cell holding 2 kamas
    sc.activate(piece)
    assert is_legal(sc.state, piece, Action(PICK_KAMA))
    restrict(piece, ["action:pick_kama"], sc.state.ruleset)
    assert not is_legal(sc.state, piece, Action(PICK_KAMA))
    assert all(a.kind != PICK_KAMA for a in legal_actions(sc.state, piece))
    copy = clone_state(sc.state, ScriptedDice([]))
    twin = next(f for f in copy.fighters if f.uid == piece.uid)
    assert twin.forbidden_kinds == piece.forbidden_kinds and not is_legal(copy, twin, Action(PICK_KAMA))
    assert BUY_GG not in piece.forbidden_kinds


def test_elements_of_lists_spells_powers_and_the_rulesets_options_and_rejects_others():
    spec, power = _with_power()
    sc = Scenario(BOARD)
    elements = elements_of(spec, sc.state.ruleset)
    assert f"power:{power}" in elements and "action:buy_gg" in elements and "action:pick_kama" in elements
    assert "spell:punch" in elements  # Arena gives every Krosmaster the punch (R-A39)
    assert all(f"spell:{s.id}" in elements for s in spec.spells)
    assert element_problem("spell:no_such_spell", spec, sc.state.ruleset)
    assert element_problem("nonsense", spec, sc.state.ruleset)
    piece = sc.add(spec.id, side=0, at=(4, 2))
    with pytest.raises(ValueError, match="no_such_spell"):
        restrict(piece, ["spell:no_such_spell"], sc.state.ruleset)


def _splits():
    box = [s.id for s in _box()]
    return box[:4], box[4:]


def test_restriction_follows_the_figure_to_either_side_and_never_touches_the_opponent():
    team0, team1 = _splits()
    figure = team0[0]
    spell = next(s.id for s in load_character(figure).spells)
    for teams in ((team0, team1), (team1, team0)):
        state, _, _ = prepare_match(*teams, ai="random", seed=5, forbid={figure: [f"spell:{spell}"]})
        for f in state.fighters:
            has = spell in {s.id for s in f.spells}
            on_card = spell in {s.id for s in f.spec.spells}
            assert has == (on_card and f.spec.id != figure)


def test_a_restricted_match_never_casts_the_forbidden_spell_and_is_deterministic():
    team0, team1 = _splits()
    # a spell of team 0's first figure that no other figure of the match has
    others = {s.id for name in team0[1:] + team1 for s in load_character(name).spells}
    figure = team0[0]
    spells = [s.id for s in load_character(figure).spells if s.id not in others and s.ap_cost]
    if not spells:
        pytest.skip("no spell of its own")
    forbid = {figure: [f"spell:{spells[0]}"]}
    results = [
        play_match(team0, team1, ai="kiter", seed=seed, forbid=forbid, record="full") for seed in (1, 1, 2)
    ]
    for result in results:
        cast = {getattr(e, "spell", None) for e in result.events if e.kind == "spell_cast"}
        assert spells[0] not in cast
    assert results[0].winner == results[1].winner and results[0].turns == results[1].turns
    assert len(results[0].events) == len(results[1].events)
    free = play_match(team0, team1, ai="kiter", seed=1, record="full")
    assert spells[0] in {getattr(e, "spell", None) for e in free.events if e.kind == "spell_cast"}


def test_the_search_tier_and_its_rollouts_respect_the_restriction():
    team0, team1 = _splits()
    forbid = {name: ["action:pick_kama"] for name in team0}
    kw = dict(ai="lookahead-fast", seed=3, options={"turn_limit": 4}, record="full")
    free = play_match(team0, team1, **kw)
    restricted = play_match(team0, team1, forbid=forbid, **kw)

    def picks(result, names):
        uids = {f.uid for f in result.fighters if f.character in names}
        return [e for e in result.events if e.kind == "kama_picked" and e.uid in uids]

    assert not picks(restricted, team0)  # the engine would refuse one; the AI never tries
    assert picks(free, team0 + team1) or picks(restricted, team1)  # kamas are picked up in these matches


def test_unknown_element_in_play_match_is_one_content_error():
    from krosbalance.errors import ContentError

    team0, team1 = _splits()
    with pytest.raises(ContentError, match="forbid"):
        play_match(team0, team1, ai="random", seed=1, forbid={team0[0]: ["spell:no_such_spell"]})


def test_apply_restrictions_with_nothing_forbidden_changes_nothing():
    team0, team1 = _splits()
    state, _, _ = prepare_match(team0, team1, ai="random", seed=5)
    before = [(f.spells, set(f.powers), f.forbidden_kinds) for f in state.fighters]
    apply_restrictions(state, {})
    assert before == [(f.spells, set(f.powers), f.forbidden_kinds) for f in state.fighters]
