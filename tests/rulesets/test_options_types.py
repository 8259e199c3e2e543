"""Ruleset options are checked down to the items of lists and tables, so a value the rules cannot
use is a ContentError naming the option in the pure and the compiled build alike (the compiled rules
would raise a TypeError). ``type_problem`` reads the fields' annotations where the build keeps them
(the pure build); each ruleset's own checks cover the items of its list options in both."""

from __future__ import annotations

import pytest

from krosbalance.errors import ContentError
from krosbalance.rulesets.options import type_problem
from krosbalance.rulesets.registry import get_ruleset


def test_list_items_and_table_values_are_checked() -> None:
    assert type_problem(["a", "b"], "list[str]") == ""
    assert "expected str" in type_problem([True], "list[str]")
    assert "expected str" in type_problem([[1]], "list[list[str]]")
    assert type_problem({"tree": 3}, "dict[str, int]") == ""
    assert "expected int" in type_problem({"tree": "3"}, "dict[str, int]")
    assert "expected int" in type_problem(True, "int")
    assert type_problem(2, "float") == ""
    assert type_problem(object(), "SomethingElse") == ""  # not known here: the default's type was checked


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [("blast", {"challenges": [True]}), ("arena", {"scenery_hp": {"crate": "3", "bush": 6, "tree": 12}})],
)
def test_an_ill_typed_item_is_refused_by_the_ruleset(ruleset: str, options: dict[str, object]) -> None:
    with pytest.raises(ContentError, match=next(iter(options))):
        get_ruleset(ruleset, options)


def test_a_start_reward_that_is_not_a_name_is_refused_at_set_up() -> None:
    from krosbalance.content.registry import list_characters
    from krosbalance.play import prepare_match

    box = list_characters(set="arena-box")
    teams = get_ruleset("arena").team_splits(box)[0]
    with pytest.raises(ContentError, match="start_rewards"):
        prepare_match(*teams, options={"start_rewards": [[1], []]}, ruleset="arena")
