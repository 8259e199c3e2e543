"""The GG race readout (krosbalance/tools/race.py): who took the first GG and how, the tension clock,
and each AI's score with and without the first GG (R-A129, R-A26, R-A132)."""

from __future__ import annotations

import pytest

from krosbalance.engine.events import KnockedOut, TurnStarted
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.tools.race import RaceCounts, main, race, race_facts
from krosbalance.tools.search_screen import screen_jobs


def test_r_a129_the_first_gain_is_a_purchase_unless_a_ko_made_it() -> None:
    bought = [GGChanged(3, 1, 1, "wild", (6, 7))]
    facts = race_facts(bought, winner=1)
    assert (facts.first, facts.first_by_purchase, facts.bought) == (1, True, (0, 1))
    ko = [KnockedOut(3, 5, 2), GGChanged(3, 0, 1, "wild", (7, 6)), GGChanged(3, 0, 2, "opponent", (9, 4))]
    facts = race_facts(ko, winner=0)
    assert (facts.first, facts.first_by_purchase, facts.bought) == (0, False, (0, 0))


def test_r_a26_a_match_ended_by_a_tension_double_is_counted_as_the_clocks() -> None:
    events = [
        GGChanged(4, 0, 1, "wild", (7, 6)),
        TurnStarted(9, 1),
        GGChanged(9, 1, 1, "opponent", (6, 7)),
        GGChanged(20, 0, -1, "tension", (5, 6)),
        GGChanged(20, 1, -1, "tension", (5, 5)),
    ]
    assert race_facts(events, winner=None).by_tension
    # a purchase after the last double: the match ended on the purchase, not the clock
    events.append(GGChanged(21, 1, 1, "opponent", (4, 6)))
    facts = race_facts(events, winner=1)
    assert not facts.by_tension and facts.bought == (1, 2)


def test_the_counts_score_each_ai_from_its_own_seat() -> None:
    first, second = RaceCounts("a"), RaceCounts("b")
    won_first = race_facts([GGChanged(3, 0, 1, "wild", (7, 6))], winner=0)
    drawn = race_facts([GGChanged(3, 1, 1, "wild", (6, 7))], winner=None)
    for facts, seat in ((won_first, 0), (drawn, 0)):
        first.add(facts, seat)
        second.add(facts, 1 - seat)
    assert (first.matches, first.points, first.first, first.points_when_first) == (2, 1.5, 1, 1.0)
    assert (first.second, first.points_when_second) == (1, 0.5)
    assert (second.points, second.first, second.points_when_first, second.points_when_second) == (
        0.5,
        1,
        0.5,
        0.0,
    )
    assert first.row()["won_when_first"].startswith("100.0% [")


def test_a_small_race_adds_up_and_does_not_depend_on_the_jobs() -> None:
    jobs = screen_jobs(5)[:8]
    counts = race("kiter-2", "kiter", jobs)
    a, b = counts
    assert a.matches == b.matches == 8
    assert a.points + b.points == pytest.approx(8)
    assert a.first == b.second and b.first == a.second
    assert a.by_tension == b.by_tension
    again = race("kiter-2", "kiter", jobs, n_jobs=2)
    assert [c.row() for c in again] == [c.row() for c in counts]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["kiter-9", "kiter"], "unknown AI 'kiter-9'"),
        (["kiter", "kiter", "--boards", "nowhere"], "unknown board 'nowhere'"),
        (["kiter", "kiter", "--limit", "0"], "--limit: must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
