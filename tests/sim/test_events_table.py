"""An experiment that records events gets an events table the ResultSet and the report read."""

import json
from pathlib import Path

from krosbalance.analysis.resultset import ResultSet
from krosbalance.render.board_picture import positions_at
from krosbalance.sim.runner import read_table, run_experiment

ROOT = Path(__file__).resolve().parents[2]


def test_summary_events_are_written_and_read_back(tmp_path):
    source = tmp_path / "events.toml"
    text = (ROOT / "simulations" / "smoke.toml").read_text()
    source.write_text(text.replace('name = "smoke"', 'name = "events"\nrecord = "summary"'))
    run_experiment(source, tmp_path / "out", jobs=1, progress=False)
    events = read_table(tmp_path / "out", "events")
    matches = read_table(tmp_path / "out", "matches")
    assert set(events["match_id"]) == set(matches["match_id"])
    ends = events[events["kind"] == "match_ended"]
    assert len(ends) == len(matches)
    for row in ends.itertuples():
        winner = json.loads(row.data)["winner"]
        recorded = matches.loc[matches["match_id"] == row.match_id, "winner"].iloc[0]
        assert winner == (-1 if str(recorded) == "<NA>" else int(recorded))
    results = ResultSet.load(tmp_path / "out")
    first = results.events[results.events["match_id"] == 0].to_dict("records")
    pieces = positions_at(first)
    assert pieces and all(len(piece) == 5 for piece in pieces)


def test_event_rows_equal_a_deep_copy_of_every_event():
    """Event rows read fields shallowly; the JSON must equal what ``dataclasses.asdict`` gives."""
    from dataclasses import asdict

    from krosbalance.sim.experiment import iter_matches, load_experiment
    from krosbalance.sim.match import play_spec
    from krosbalance.sim.tables import event_rows

    spec = next(iter_matches(load_experiment(ROOT / "simulations" / "smoke.toml")))
    result = play_spec(spec, record="full")
    rows = event_rows(spec, result)
    assert len(rows) == len(result.events) > 100
    kinds = set()
    for row, event in zip(rows, result.events, strict=True):
        deep = asdict(event)
        turn, positions = deep.pop("turn"), deep.pop("positions", None)
        assert (row["turn"], row["kind"]) == (turn, event.kind)
        assert row["positions"] == ("" if positions is None else json.dumps(positions))
        assert row["data"] == json.dumps(deep)
        kinds.add(event.kind)
    assert {"turn_ended", "moved", "damaged"} <= kinds
