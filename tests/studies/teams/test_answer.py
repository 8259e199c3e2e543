"""The team study's answer: the best team the collection can field (never one it cannot), else the
ladder's best team, each with its rating, the win % it means, its interval, n and the AIs."""

from __future__ import annotations

import json
from pathlib import Path

from krosbalance.analysis.staged import load_staged
from krosbalance.studies.teams.answer import team_answer
from krosbalance.studies.teams.ladder import team_label
from krosbalance.studies.teams.planner import run_ladder
from tests.sim.fakes import strength_play
from tests.studies.teams.test_team_ladder import CAT, LADDER, ladder


def _run(tmp_path: Path, text: str) -> Path:
    source = tmp_path / "ladder.toml"
    source.write_text(text)
    out = tmp_path / "out"
    run_ladder(
        ladder(text), source, out, play=strength_play, catalog=CAT, progress=False, echo=lambda *a: None
    )
    return out


def test_a_collection_study_answers_with_a_team_the_collection_can_field(tmp_path: Path) -> None:
    box = CAT.characters(set="arena-box")
    mine = tmp_path / "mine.toml"
    mine.write_text(f"[figures]\n{box[0]} = 1\n{box[2]} = 2\n{box[3]} = 1\n{box[4]} = 1\n")
    text = LADDER.replace("rule = ", f'collection = "{mine}"\nrule = ')
    out = _run(tmp_path, text)
    rs = load_staged(out)
    lines = team_answer(rs)
    assert lines is not None and lines[0].startswith("The best team your collection can field: ")
    fieldable = {team_label(",".join(sorted(team))) for team in json.loads(ladder(text).ladder)["mine"]}
    named = lines[0].split(": ", 1)[1].split(", rating")[0]
    assert named in fieldable
    assert (
        "n=" in lines[0]
        and "win against the average team" in lines[0]
        and "random" in lines[0]
        and "95% CI" in lines[0]
    )


def test_a_ladder_without_a_collection_answers_with_its_best_team(tmp_path: Path) -> None:
    rs = load_staged(_run(tmp_path, LADDER))
    lines = team_answer(rs)
    assert lines is not None and lines[0].startswith("The ladder's best team: ")
    assert "n=" in lines[0] and "win against the average team" in lines[0]
    assert lines[1] == "Only random (baseline tier) rated the teams: no weaker AI to compare."


def test_the_next_ai_downs_rating_of_the_best_team_and_whether_they_agree() -> None:
    import pandas as pd

    from krosbalance.studies.teams.answer import next_tier_clause

    ratings = pd.DataFrame(
        {
            "team": ["t1", "t1", "t2"],
            "tier": ["search", "heuristic", "heuristic"],
            "rating": [0.9, 0.1, 0.4],
            "ci_low": [0.8, 0.0, 0.3],
            "ci_high": [1.0, 0.2, 0.5],
            "n": [400, 400, 400],
        }
    )
    best = next(ratings.iloc[[0]].itertuples(index=False))
    ais = {"search": "deep", "heuristic": ""}
    clause = next_tier_clause(best, ratings, "search", "heuristic", ais)
    assert clause.startswith("Next AI down, the heuristic tier: ")
    assert clause.endswith("still moving: deep (search tier) rates it higher.")


def test_with_the_next_ai_down_beside_the_answer_is_the_strongest_ais_and_says_if_the_two_agree(
    tmp_path: Path,
) -> None:
    """A search stage with ``beside``: the answer's team is rated by the AI ladder's stronger of the
    two (whichever the shipped ladder puts first, the file's order aside), and the next clause is the
    other's rating of that team."""
    from krosbalance.analysis.top_ai import top_ais

    order = top_ais(["mcts-deep", "mcts-fair"], "arena", tiers={"mcts-deep": "search", "mcts-fair": "search"})
    assert order is not None
    stronger, weaker = order.top, order.second
    search = (
        f'top_round_robin = 6\nsearch = {{ ai = "{weaker}", top = 4, deals = 4, '
        f'beside = {{ ai = "{stronger}", deals = 4 }} }}'
    )
    rs = load_staged(_run(tmp_path, LADDER.replace("top_round_robin = 6", search)))
    lines = team_answer(rs)
    assert lines is not None and f"({stronger}, rated by {stronger} (search); 95% CI)" in lines[0]
    assert lines[1].startswith(f"Next AI down, {weaker}: ")
    assert any(word in lines[1] for word in ("settled", "still moving", "undecided"))
