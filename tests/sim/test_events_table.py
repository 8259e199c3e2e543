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
